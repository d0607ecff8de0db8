"""Behaviour pinned across refactoring: fixed-depth searches and DFPN proofs, exactly.

``tests/data/behaviour.json`` holds what the engine answered, over HTP, on committed
positions: for 9x9 and 11x11 positions the move, score, depth, node count and PV of a
fixed-depth ``genmove`` (depth 2, half of them in the default run; the 9x9 ones also at
depth 3 in the slow run; the solver and book are off below depth 64), and for every 6x6
opening the winner and node count of ``dfpn-solve-state`` with the table cleared before
each.
Recorded with the compiled kernels (numba), as the engine runs once installed.
A change that should not alter play (a move of code, a new module layout) must reproduce
every figure; a change that means to alter play records the file again and says why:

    python -m tests.test_behaviour --record
"""
from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path
from typing import Optional

import pytest

from tests.htpclient import HtpClient

DATA = Path(__file__).with_name("data") / "behaviour.json"
SEARCH_SETS = ((9, (2, 3), 16), (11, (2,), 14))  # (size, depths, positions): depth 3 slow
SOLVE_SIZE = 6
CHEAP = 100  # nodes: the default run takes the 6x6 proofs up to this size


def _name(size: int, cell: int) -> str:
    return f"{chr(ord('a') + cell % size)}{cell // size + 1}"


def search_positions(seed: int = 2025) -> list[dict]:
    """Random middle-game positions (8-24 stones, either colour to move) of each size, an
    entry per depth searched."""
    rng = random.Random(seed)
    out = []
    for size, depths, count in SEARCH_SETS:
        for _ in range(count):
            stones = rng.randrange(8, 25)
            cells = rng.sample(range(size * size), stones)
            position = {"size": size, "moves": [_name(size, c) for c in cells],
                        "to_move": "bw"[rng.randrange(2)]}
            out += [dict(position, depth=d, **({"slow": True} if d > 2 else {}))
                    for d in depths]
    return out


def _setup(client: HtpClient, size: int, moves: list[str]) -> None:
    client.ok(f"boardsize {size}")
    for i, move in enumerate(moves):
        client.ok(f"play {'bw'[i % 2]} {move}")


_INFO = re.compile(r"depth (\d+)(?: \(partial\))? nodes (\d+) .* score (\S+(?: in \d+)?)"
                   r".* pv ?(.*)$")


def measure_search(client: HtpClient, position: dict) -> dict:
    """Fixed-depth genmove on ``position``: move, depth reached, nodes, score and PV."""
    _setup(client, position["size"], position["moves"])
    client.ok(f"param_hexengine max_depth {position['depth']}")
    move = client.ok(f"reg_genmove {position['to_move']}", timeout=600)
    info = client.ok("hexengine-info")
    found = _INFO.search(info)
    assert found, info
    return {"move": move, "reached": int(found[1]), "nodes": int(found[2]),
            "score": found[3], "pv": found[4].split()}


def solve_openings(client: HtpClient, names: Optional[list[str]] = None) -> list[dict]:
    """``dfpn-solve-state`` on every 6x6 opening (white to move), the table cleared before
    each: the winner and the node count from the engine's log."""
    out = []
    for name in names or [_name(SOLVE_SIZE, c) for c in range(SOLVE_SIZE ** 2)]:
        _setup(client, SOLVE_SIZE, [name])
        client.ok("dfpn-clear-tt")
        client.log.read()  # skip to the end: the next read holds this solve's lines
        winner = client.ok("dfpn-solve-state w", timeout=600)
        text = client.log.read()
        nodes = re.findall(r"dfpn-solve-state white to move: \w+ \(nodes (\d+)", text)
        assert nodes, text[-500:]
        out.append({"opening": name, "winner": winner, "nodes": int(nodes[-1])})
    return out


def _client() -> HtpClient:
    client = HtpClient(timeout=600)
    # the compiled kernels change what a node knows (dominated cells): wait for them, so
    # that the pinned figures do not depend on which test runs first
    client.ok("hexengine-ready 120")
    client.ok("param_hexengine max_time 86400")
    client.ok("param_hexengine solver_time 600")
    return client


def record() -> dict:
    client = _client()
    try:
        searches = []
        for position in search_positions():
            _setup(client, position["size"], position["moves"])
            if client.send("final_score")[0]:
                continue  # already decided: nothing to search
            searches.append(dict(position, **measure_search(client, position)))
        solves = solve_openings(client)
    finally:
        client.close()
    return {"searches": searches, "solves": solves}


@pytest.fixture(scope="module")
def pinned() -> dict:
    return json.loads(DATA.read_text())


@pytest.fixture(scope="module")
def client():
    c = _client()
    yield c
    c.close()


def _searches_unchanged(client: HtpClient, searches: list[dict]) -> None:
    for position in searches:
        got = measure_search(client, position)
        want = {k: position[k] for k in got}
        assert got == want, (position["depth"], position["moves"])


def _depth_two(pinned: dict) -> tuple[list[dict], list[dict]]:
    """The depth-2 searches split in two: every third position of each size for the
    default run, the others for the slow run."""
    parts: tuple[list[dict], list[dict]] = ([], [])
    seen = {9: 0, 11: 0}
    for p in pinned["searches"]:
        if not p.get("slow"):
            parts[0 if seen[p["size"]] % 3 == 0 else 1].append(p)
            seen[p["size"]] += 1
    return parts


def test_fixed_depth_searches_unchanged(pinned: dict, client: HtpClient) -> None:
    """Depth 2 on a third of the pinned positions: 6 9x9 and 5 11x11."""
    searches = _depth_two(pinned)[0]
    assert sum(p["size"] == 9 for p in searches) >= 5
    assert sum(p["size"] == 11 for p in searches) >= 5
    _searches_unchanged(client, searches)


@pytest.mark.slow
def test_deeper_searches_unchanged(pinned: dict, client: HtpClient) -> None:
    """The other two thirds at depth 2, and the 9x9 positions again at depth 3."""
    _searches_unchanged(client, _depth_two(pinned)[1] +
                        [p for p in pinned["searches"] if p.get("slow")])


def test_dfpn_on_6x6_openings_unchanged(pinned: dict, client: HtpClient) -> None:
    """The openings proved within CHEAP nodes (20 of 36); the slow run has all 36."""
    cheap = [s for s in pinned["solves"] if s["nodes"] <= CHEAP]
    assert len(cheap) >= 20
    assert solve_openings(client, [s["opening"] for s in cheap]) == cheap


@pytest.mark.slow
def test_dfpn_on_every_6x6_opening_unchanged(pinned: dict, client: HtpClient) -> None:
    assert solve_openings(client) == pinned["solves"]


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python -m tests.test_behaviour --record")
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps(record(), indent=1) + "\n")
    print(f"wrote {DATA}")
