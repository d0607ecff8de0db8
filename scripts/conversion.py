#!/usr/bin/env python3
"""Does the search keep a won position won?  A paired check on solved positions.

``collect`` walks each recorded game (hex-match's results.jsonl) back from its end and
solves the position before every move with the DFPN solver (``--limit`` seconds each; a
game's later proofs stay in the table and speed up the earlier ones) until one is not
solved, writing each solved position as a JSON line: the moves, the side to move, the
winner and its winning move.

``judge`` plays a configuration of ours (``--set NAME=VALUE``, the solver switched off so
that the search alone chooses) on every position won for the side to move, and solves the
position after its move: a win kept, a win thrown away, or not solved in ``--limit``.
Positions the search itself proves are left out (nothing to choose there).

    python scripts/conversion.py collect matches/a/results.jsonl --limit 1.5 --out solved.jsonl
    python scripts/conversion.py judge solved.jsonl --max-ply 24 --sample 500 --set tempo=0.5
"""
from __future__ import annotations

import dataclasses
import json
import os
import random
import sys
import time

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.player import Player, Settings  # noqa: E402
from hexengine.solver import Solver, knowledge_by_name  # noqa: E402
from scripts.agreement import board_of  # noqa: E402


@click.group()
def main() -> None:
    kernels.start(wait=True)


@main.command()
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--limit", type=float, default=1.5, show_default=True,
              help="Seconds to solve each position.")
@click.option("--first", type=int, default=8, show_default=True,
              help="The earliest move number (0-based) solved.")
@click.option("--out", required=True, type=click.Path(dir_okay=False))
def collect(results: tuple[str, ...], limit: float, first: int, out: str) -> None:
    """Solve the positions of recorded games, from each game's end backwards."""
    seen = set()
    count = 0
    with open(out, "w") as f:
        for path in results:
            with open(path) as records:
                games = [json.loads(line) for line in records if line.strip()]
            for game in games:
                names = [m["move"] for m in game["moves"]]
                solver = Solver(knowledge_by_name())  # a fresh table per game
                for i in range(len(names) - 1, first - 1, -1):
                    board = board_of(game["size"], names[:i])
                    key = (game["size"], board.stones[0], board.stones[1])
                    if key in seen:
                        continue
                    seen.add(key)
                    result = solver.solve(board.geo, board.stones, board.to_move, seconds=limit)
                    if result.winner is None:
                        break
                    won = result.winner == board.to_move and result.move >= 0
                    f.write(json.dumps({
                        "size": game["size"], "moves": names[:i], "to_move": board.to_move,
                        "winner": result.winner,
                        "win_move": board.geo.name(result.move) if won else None}) + "\n")
                    count += 1
    click.echo(f"{count} solved positions in {out}")


@main.command()
@click.argument("solved", type=click.Path(exists=True, dir_okay=False))
@click.option("--max-ply", type=int, default=99, show_default=True,
              help="Only positions with at most this many stones.")
@click.option("--seconds", type=float, default=0.3, show_default=True,
              help="Our thinking time per position.")
@click.option("--limit", type=float, default=3.0, show_default=True,
              help="Seconds to solve the position after our move.")
@click.option("--sample", type=int, default=0,
              help="Judge this many of the won positions, drawn at random (seeded: the same "
                   "ones for every configuration); 0 for all.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="A setting of ours (param_hexengine), repeatable.")
def judge(solved: str, max_ply: int, seconds: float, limit: float, sample: int,
          sets: tuple[str, ...]) -> None:
    """Count the wins the search keeps on positions won for the side to move."""
    try:
        settings = Settings().with_texts(sets)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--set") from None
    settings = dataclasses.replace(settings, solver_from=10_000)  # the search alone chooses
    player = Player(settings)
    solver = Solver(knowledge_by_name())
    kept = thrown = unknown = 0
    started = time.monotonic()
    with open(solved) as f:
        items = [json.loads(line) for line in f if line.strip()]
    items = [item for item in items
             if item["winner"] == item["to_move"] and len(item["moves"]) <= max_ply]
    if sample:
        random.Random(1).shuffle(items)
        items = items[:sample]
    for item in items:
        board = board_of(item["size"], item["moves"])
        player.reset()
        result = player.genmove(board, board.to_move, seconds)
        if result.proved or result.move < 0:
            continue
        if board.geo.name(result.move) == item["win_move"]:
            kept += 1
            continue
        after = list(board.stones)
        after[board.to_move] |= 1 << result.move
        verdict = solver.solve(board.geo, after, 1 - board.to_move, seconds=limit).winner
        if verdict is None:
            unknown += 1
        elif verdict == board.to_move:
            kept += 1
        else:
            thrown += 1
    decided = kept + thrown
    click.echo(f"{' '.join(sets) or 'default'}: kept {kept}, thrown away {thrown}, "
               f"unsolved {unknown} ({kept / max(decided, 1):.1%} of {decided} kept; "
               f"{time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
