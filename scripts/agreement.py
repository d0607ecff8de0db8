#!/usr/bin/env python3
"""How often does a configuration of ours choose a stronger engine's move?

A cheap, paired proxy for strength, used to screen settings before a match decides: take
the positions of recorded games where the reference engine moved (hex-match's
results.jsonl), optionally ask a teacher engine (any HTP command, e.g. Wolve with more
time) for its move there, then let our player think on each position with the given
settings and count how often it picks the reference move.  Every configuration sees the
same positions, so two runs compare move by move (``--compare``).

    python scripts/agreement.py matches/x/results.jsonl --engine wolve \\
        --teacher "wolve=/path/wolve --use-logfile=0 --quiet" \\
        --teacher-init "param_wolve max_time 4" --teacher-cache teacher.json \\
        --set width=8 --out width8.json
    python scripts/agreement.py --compare width6.json width8.json

Agreement is not strength (the teacher errs too); a match is what decides.
"""
from __future__ import annotations

import json
import os
import sys
import time

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.board import Board  # noqa: E402
from hexengine.player import Player, Settings  # noqa: E402
from protocol.match.controller import start_engine  # noqa: E402
from scripts.ordering import games_of  # noqa: E402


def positions(paths: list[str], engine: str, first: int, last: int, min_seconds: float):
    """(key, moves so far as names, size, the engine's move) for each chosen position."""
    seen = set()
    for game in games_of(paths, engine):
        names = []
        for i, m in enumerate(game["moves"]):
            if (m["by"] == engine and first <= i <= last
                    and m.get("seconds", 0.0) >= min_seconds):
                key = game["size"] + ":" + " ".join(names)
                if key not in seen:
                    seen.add(key)
                    yield key, list(names), game["size"], m["move"]
            names.append(m["move"])


def board_of(size: str, names: list[str]) -> Board:
    width, height = (int(x) for x in size.split("x"))
    board = Board(width, height)
    for name in names:
        board.play(board.parse_move(name))
    return board


def teacher_moves(items: list, command: str, init: tuple[str, ...], cache_path: str) -> dict:
    """The teacher's move for each position, cached in ``cache_path`` (a JSON object)."""
    cache = {}
    if cache_path and os.path.exists(cache_path):
        with open(cache_path) as f:
            cache = json.load(f)
    todo = [it for it in items if it[0] not in cache]
    if todo:
        name, _, cmd = command.partition("=")
        engine = start_engine(cmd, name, list(init), 30.0)
        try:
            for n, (key, names, size, _) in enumerate(todo, 1):
                width, height = size.split("x")
                engine.ok(f"boardsize {width} {height}")
                engine.ok("clear_board")
                for i, move in enumerate(names):
                    engine.ok(f"play {'b' if i % 2 == 0 else 'w'} {move}")
                colour = "b" if len(names) % 2 == 0 else "w"
                cache[key] = engine.ok(f"genmove {colour}", 120.0).strip().lower()
                print(f"teacher {n}/{len(todo)}", file=sys.stderr)
                if cache_path:
                    with open(cache_path, "w") as f:
                        json.dump(cache, f)
        finally:
            engine.close()
    return cache


def compare(a_path: str, b_path: str) -> None:
    with open(a_path) as f:
        a = json.load(f)
    with open(b_path) as f:
        b = json.load(f)
    common = sorted(set(a["moves"]) & set(b["moves"]))
    ref = a["reference"]
    a_hits = sum(a["moves"][k] == ref[k] for k in common)
    b_hits = sum(b["moves"][k] == ref[k] for k in common)
    only_a = sum(a["moves"][k] == ref[k] != b["moves"][k] for k in common)
    only_b = sum(b["moves"][k] == ref[k] != a["moves"][k] for k in common)
    same = sum(a["moves"][k] == b["moves"][k] for k in common)
    print(f"{len(common)} positions: {a_path} {a_hits} ({a_hits / len(common):.3f}), "
          f"{b_path} {b_hits} ({b_hits / len(common):.3f}); only the first {only_a}, "
          f"only the second {only_b}; same move {same}")


@click.command()
@click.argument("results", nargs=-1, type=click.Path(exists=True))
@click.option("--engine", default="wolve", show_default=True,
              help="The engine whose positions (and, without a teacher, moves) are used.")
@click.option("--first", type=int, default=2, show_default=True, help="First move index.")
@click.option("--last", type=int, default=30, show_default=True, help="Last move index.")
@click.option("--min-seconds", type=float, default=0.3, show_default=True,
              help="Skip the engine's moves made faster than this (already solved).")
@click.option("--limit", type=int, default=0, help="At most this many positions (0: all).")
@click.option("--teacher", default="", help="NAME=COMMAND of an HTP engine whose move is the "
              "reference instead of the recorded one.")
@click.option("--teacher-init", multiple=True, help="HTP commands sent to the teacher first.")
@click.option("--teacher-cache", default="", help="JSON file keeping the teacher's moves.")
@click.option("--time", "seconds", type=float, default=1.0, show_default=True)
@click.option("--set", "params", multiple=True, help="name=value of param_hexengine.")
@click.option("--out", default="", help="Write the moves chosen here (JSON) for --compare.")
@click.option("--compare", "compared", nargs=2, default=None,
              help="Compare two --out files and stop.")
def cli(results, engine, first, last, min_seconds, limit, teacher, teacher_init,
        teacher_cache, seconds, params, out, compared) -> None:
    if compared:
        compare(*compared)
        return
    if not results:
        raise click.UsageError("give results.jsonl files (or --compare A B)")
    items = list(positions(list(results), engine, first, last, min_seconds))
    if limit:
        items = items[:limit]
    if not items:
        raise click.ClickException(f"no positions of {engine!r} in the records")
    reference = {key: move for key, _, _, move in items}
    if teacher:
        reference.update(teacher_moves(items, teacher, teacher_init, teacher_cache))
    try:
        settings = Settings(max_time=seconds).with_texts(params)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--set") from None
    player = Player(settings)
    kernels.start(wait=True)
    chosen, hits = {}, 0
    started = time.monotonic()
    for n, (key, names, size, _) in enumerate(items, 1):
        board = board_of(size, names)
        player.reset()
        result = player.genmove(board, board.to_move, seconds)
        move = board.geo.name(result.move)
        chosen[key] = move
        hits += move == reference[key]
        print(f"{n}/{len(items)} {key} ours {move} ref {reference[key]} "
              f"hits {hits}", file=sys.stderr)
    print(f"{len(items)} positions, agreement {hits} ({hits / len(items):.3f}), "
          f"{time.monotonic() - started:.0f} s")
    if out:
        with open(out, "w") as f:
            json.dump({"settings": list(params), "time": seconds, "moves": chosen,
                       "reference": reference}, f, indent=0)


if __name__ == "__main__":
    cli()
