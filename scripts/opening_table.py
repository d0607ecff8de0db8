#!/usr/bin/env python3
"""Write ``hexengine/data/openings.json``: who wins each one-stone opening, per board size.

Boards up to ``--solve`` wide are solved here with our DFPN solver (6×6 in ~7 s); larger
ones are read from position files with published results (``--known``, in
``scripts/solver_race.py``'s format: one black stone, white to move, ``= WINNER``).  Every
opening of a size must be known, or the size is left out.  ``hexengine.opening`` reads the
table for the first move and the swap decision.

    python scripts/opening_table.py --solve 6 --known scripts/positions/7x7-openings.txt
"""
from __future__ import annotations

import json
import os
import sys
import time

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.board import BLACK, WHITE  # noqa: E402
from hexengine.geometry import geometry  # noqa: E402
from hexengine.opening import TABLE  # noqa: E402
from hexengine.solver import Solver, knowledge_by_name  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from solver_race import read_positions  # noqa: E402


def solved_rows(size: int, seconds: float) -> list[str]:
    """The winner of each opening of a size×size board, by our solver: rows of 'B'/'W'."""
    geo = geometry(size, size)
    solver = Solver(knowledge_by_name())
    rows = []
    for row in range(size):
        line = ""
        for col in range(size):
            result = solver.solve(geo, [1 << geo.index(col, row), 0], WHITE, seconds=seconds)
            if result.winner is None:
                raise click.ClickException(f"{geo.name(geo.index(col, row))} on {size}x{size}"
                                           f" not solved in {seconds} s")
            line += "B" if result.winner == BLACK else "W"
        rows.append(line)
    return rows


def known_rows(path: str) -> tuple[int, list[str]]:
    """The size and winners' rows of a file of every one-stone opening with its result."""
    positions = read_positions(path)
    size = positions[0].width
    geo = geometry(size, size)
    grid = [["?"] * size for _ in range(size)]
    for p in positions:
        if (p.width, p.height) != (size, size) or len(p.moves) != 1 or p.to_move != WHITE \
                or p.moves[0][0] != BLACK or p.expect is None:
            raise click.ClickException(f"{path}:{p.line}: not a one-stone opening with a result")
        col, row = geo.coords(geo.parse(p.moves[0][1]))
        grid[row][col] = "B" if p.expect == BLACK else "W"
    rows = ["".join(r) for r in grid]
    if any("?" in r for r in rows):
        raise click.ClickException(f"{path}: not every opening of {size}x{size} is there")
    return size, rows


@click.command()
@click.option("--solve", "solve_up_to", type=click.IntRange(1, 7), default=6,
              show_default=True, help="Solve the boards up to this size here.")
@click.option("--known", multiple=True, type=click.Path(exists=True, dir_okay=False),
              help="A position file of every opening of one size with published results.")
@click.option("--seconds", type=float, default=120.0, show_default=True,
              help="The solver's limit per opening.")
@click.option("--out", type=click.Path(dir_okay=False), default=TABLE, show_default=True)
def main(solve_up_to: int, known: tuple[str, ...], seconds: float, out: str) -> None:
    kernels.start(wait=True)
    winners: dict[str, list[str]] = {}
    sources: dict[str, str] = {}
    for size in range(1, solve_up_to + 1):
        started = time.monotonic()
        winners[str(size)] = solved_rows(size, seconds)
        sources[str(size)] = "solved by hexengine's DFPN solver (scripts/opening_table.py)"
        click.echo(f"{size}x{size}: solved in {time.monotonic() - started:.1f} s")
    for path in known:
        size, rows = known_rows(path)
        winners[str(size)] = rows
        sources[str(size)] = f"published results, as in {os.path.basename(path)}"
        click.echo(f"{size}x{size}: from {path}")
    with open(out, "w") as handle:
        json.dump({"sources": sources, "winners": winners}, handle, indent=1)
        handle.write("\n")
    click.echo(f"wrote {out}")


if __name__ == "__main__":
    main()
