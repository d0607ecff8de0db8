#!/usr/bin/env python3
"""Our static value of every move against Benzene's ``eval-resist`` on the same positions.

Two engines whose searches have the same shape (Wolve and ours: iterative deepening,
width 15, moves ordered by the circuit's current) differ in what their leaves say.  This
compares the leaves directly: for positions of recorded games (hex-match's
results.jsonl, at the given plies), each empty cell is played for the side to move and
the position after it is scored by our evaluation (``analysis_views.move_value_map``, as
``hexengine-map-values move-value`` gives it) and by the other engine's circuit
(``play``, ``vc-build``, ``eval-resist``, ``undo``), both from the mover's side.  Per
position: the rank correlation of the two, how many of each side's first 15 moves the
other has among its first 15, and where each puts the other's first move.  ``--empty``
adds the one-stone positions of the empty board (every first move's value).

    python scripts/resist_compare.py matches/x/results.jsonl --games 6 --plies 5,8,11,14 \\
        --engine "wolve --use-logfile=0 --quiet" --out compare.json

The other engine's own resistances (``reb``, ``rew``) are kept beside ours in ``--out``.
"""
from __future__ import annotations

import json
import math
import os
import re
import sys
import warnings
from typing import Optional

import click
import numpy as np
from scipy import stats

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.analysis_views import move_value_map  # noqa: E402
from hexengine.board import Board  # noqa: E402
from protocol.match.controller import EngineError, start_engine  # noqa: E402
from scripts.agreement import board_of  # noqa: E402
from scripts.cli_types import PLIES  # noqa: E402

RESIST = re.compile(r"res\s+(\S+)\s+rew\s+(\S+)\s+reb\s+(\S+)")
WIDTH = 15


def spearman(a: list[float], b: list[float]) -> float:
    """Spearman's rank correlation of two equally long lists, ties at their mean rank
    (nan when one is constant)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns of a constant list
        return float(stats.spearmanr(a, b)[0])


def their_values(engine, board: Board, colour: int) -> dict[str, tuple[float, float, float]]:
    """(score from the mover's side, log R black, log R white) after each empty cell."""
    width, height = board.width, board.height
    engine.ok(f"boardsize {width} {height}")
    engine.ok("clear_board")
    for played, name in board.moves_played():
        engine.ok(f"play {'bw'[played]} {name}")
    mover, other = "bw"[colour], "bw"[1 - colour]
    out = {}
    for cell in board.legal_moves():
        name = board.move_name(cell)
        engine.ok(f"play {mover} {name}")
        engine.ok(f"vc-build {other}", 120.0)
        found = RESIST.search(engine.ok(f"eval-resist {mover}", 120.0))
        engine.ok("undo")
        if found is None:
            continue
        res, rew, reb = (float(x) for x in found.groups())
        out[name] = (res if colour == 0 else -res, reb, rew)
    return out


def compare(board: Board, colour: int, engine) -> Optional[dict]:
    """The two evaluations of every move of ``colour`` in ``board``, and how they agree."""
    stones = list(board.stones)
    ours_map, _ = move_value_map(board.geo, stones, colour, "vc-graph")
    ours = {board.move_name(c): v for c, v in ours_map.values.items()}
    theirs = their_values(engine, board, colour)
    cells = sorted(set(ours) & set(theirs))
    if len(cells) < 2:
        return None
    a = [ours[c] for c in cells]
    b = [theirs[c][0] for c in cells]
    by_ours = sorted(cells, key=lambda c: -ours[c])
    by_theirs = sorted(cells, key=lambda c: -theirs[c][0])
    return {
        "moves": [name for _, name in board.moves_played()],
        "colour": "bw"[colour],
        "rho": spearman(a, b),
        "top15_shared": len(set(by_ours[:WIDTH]) & set(by_theirs[:WIDTH])),
        "our_first": by_ours[0], "their_first": by_theirs[0],
        "their_rank_of_our_first": by_theirs.index(by_ours[0]),
        "our_rank_of_their_first": by_ours.index(by_theirs[0]),
        "values": {c: {"ours": ours[c], "theirs": theirs[c][0], "their_log_rb": theirs[c][1],
                       "their_log_rw": theirs[c][2]} for c in cells},
    }


def game_positions(paths: list[str], games: int, plies: list[int]):
    """(board, colour) at each of ``plies`` in the first ``games`` recorded games."""
    seen = 0
    for path in paths:
        with open(path) as f:
            for line in f:
                if seen >= games:
                    return
                game = json.loads(line)
                seen += 1
                names = [m["move"] for m in game["moves"]]
                for ply in plies:
                    if ply < len(names):
                        yield board_of(game["size"], names[:ply]), ply % 2


@click.command()
@click.argument("results", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@click.option("--engine", "command", required=True,
              help="The other engine's command (it needs vc-build and eval-resist).")
@click.option("--games", default=6, show_default=True, help="Games read from RESULTS.")
@click.option("--plies", type=PLIES, default="5,8,11,14", show_default=True,
              help="Stones on the board at the positions compared.")
@click.option("--empty", "empty_size", type=int, default=0,
              help="Also compare every first move on an empty board of this size.")
@click.option("--out", type=click.Path(dir_okay=False), help="Write every value as JSON.")
def cli(results: tuple[str, ...], command: str, games: int, plies: list[int],
        empty_size: int, out: Optional[str]) -> None:
    """Compare our move values with another engine's eval-resist on recorded positions."""
    kernels.start(wait=True)
    try:
        engine = start_engine(command, "other", [], 30.0)
    except EngineError as exc:
        raise click.ClickException(f"the other engine does not start: {exc}")
    rows = []
    try:
        items = list(game_positions(list(results), games, plies))
        if empty_size:
            items.insert(0, (Board(empty_size), 0))
        for board, colour in items:
            try:
                row = compare(board, colour, engine)
            except EngineError as exc:
                raise click.ClickException(f"the other engine failed ({exc}); it needs "
                                           "vc-build and eval-resist")
            if row is None:
                continue
            rows.append(row)
            print(f"{len(row['moves']):3d} {row['colour']} rho {row['rho']:+.2f} "
                  f"first 15 shared {row['top15_shared']:2d}  ours {row['our_first']} "
                  f"(their rank {row['their_rank_of_our_first']})  theirs "
                  f"{row['their_first']} (our rank {row['our_rank_of_their_first']})",
                  flush=True)
    finally:
        engine.close()
    if not rows:
        raise click.ClickException("no position compared")
    rho = [r["rho"] for r in rows if not math.isnan(r["rho"])]
    same = sum(r["our_first"] == r["their_first"] for r in rows)
    print(f"{len(rows)} positions: mean rank correlation {np.mean(rho):.3f}, first 15 shared "
          f"{np.mean([r['top15_shared'] for r in rows]):.1f} of {WIDTH}, same first move "
          f"{same} ({100.0 * same / len(rows):.0f} %)")
    if out:
        with open(out, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    cli()
