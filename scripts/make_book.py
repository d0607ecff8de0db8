#!/usr/bin/env python3
"""Build a solved-position book (``hexengine/book.py``) with our own DFPN solver.

Every first stone is played (an opening can be any cell); from there the positions are
walked with the loser's every move and the winner's proved move, and each position with
fewer than ``--plies`` stones gets its winner's move.  One solver (one table) serves the
whole walk, so a position is usually proved by the search of its parent.

    python scripts/make_book.py --size 6 --plies 5
"""
from __future__ import annotations

import gzip
import json
import os
import sys
import time

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import hexengine  # noqa: E402
from hexengine.board import WHITE  # noqa: E402
from hexengine.book import DATA, canonical, position_key  # noqa: E402
from hexengine.geometry import geometry  # noqa: E402
from hexengine.solver import Solver, knowledge_by_name  # noqa: E402


@click.command()
@click.option("--size", type=click.IntRange(2, 8), default=6, show_default=True)
@click.option("--plies", type=click.IntRange(2, 6), default=5, show_default=True,
              help="Positions with fewer stones than this get their winning move.")
@click.option("--limit", type=float, default=600.0, show_default=True,
              help="Seconds per position before it is left out as unsolved.")
@click.option("--out", type=click.Path(dir_okay=False), default=None,
              help="Default: hexengine/data/book-NxN.json.")
def main(size: int, plies: int, limit: float, out: str | None) -> None:
    geo = geometry(size, size)
    solver = Solver(knowledge_by_name())
    moves: dict[str, str] = {}
    unsolved: list[str] = []
    started = time.monotonic()

    def store(stones: list[int], move: int) -> None:
        key, turned = canonical(geo, stones[0], stones[1])
        moves[key] = geo.name(geo.rotate(move) if turned else move)

    def visit(stones: list[int], colour: int, count: int) -> None:
        if count >= plies or canonical(geo, *stones)[0] in moves:
            return
        result = solver.solve(geo, stones, colour, limit)
        if result.winner is None:
            unsolved.append(position_key(geo, *stones))
            return
        empty = geo.mask & ~(stones[0] | stones[1])
        if result.winner == colour:
            store(stones, result.move)
            after = list(stones)
            after[colour] |= 1 << result.move
            replies = empty & ~(1 << result.move)
            for reply in geo.iter_bits(replies):
                nxt = list(after)
                nxt[1 - colour] |= 1 << reply
                visit(nxt, colour, count + 2)
        else:
            for move in geo.iter_bits(empty):
                nxt = list(stones)
                nxt[colour] |= 1 << move
                visit(nxt, 1 - colour, count + 1)

    for first in geo.cells:
        visit([1 << first, 0], WHITE, 1)
        click.echo(f"{geo.name(first)}: {len(moves)} entries, {len(unsolved)} unsolved, "
                   f"{time.monotonic() - started:.0f} s", err=True)
    path = out or os.path.join(DATA, f"book-{size}x{size}.json.gz")
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with gzip.open(path, "wt", encoding="utf-8") as f:
        json.dump({"size": f"{size}x{size}", "plies": plies,
                   "built_by": f"scripts/make_book.py --size {size} --plies {plies} "
                               f"(hexengine {hexengine.__version__})",
                   "seconds": round(time.monotonic() - started),
                   "unsolved": sorted(unsolved),
                   "moves": dict(sorted(moves.items()))}, f, indent=0)  # one orientation
        f.write("\n")
    click.echo(f"{path}: {len(moves)} entries, {len(unsolved)} unsolved, "
               f"{time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
