#!/usr/bin/env python3
"""How well the swap decision is judged where the truth is known, and the network's opening
map where it is not.

For every board in the opening table (``hexengine/data/openings.json``) from ``--from``
up, each one-stone opening is decided by the value network (swap when it rates the stone
above even, as ``hexengine.opening`` does off the table) and by the rim rule (swap a stone
off the board's rim), and both are scored against the known winner.  Then for each
``--map`` size it prints the network's chance per cell that the lone stone wins, and the
cell a swap game opens on.

    python scripts/opening_check.py --map 8 --map 9 --map 11 --map 13
"""
from __future__ import annotations

import os
import sys

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import opening  # noqa: E402
from hexengine.board import BLACK, Board  # noqa: E402
from hexengine.geometry import geometry  # noqa: E402


@click.command()
@click.option("--from", "smallest", type=int, default=5, show_default=True,
              help="The smallest table board to score.")
@click.option("--map", "maps", type=int, multiple=True, help="Print this size's map.")
def main(smallest: int, maps: tuple[int, ...]) -> None:
    click.echo("| board | openings | black wins | network right | rim rule right |")
    click.echo("|---|---|---|---|---|")
    for size in range(smallest, opening.MAX_SIDE + 1):
        geo = geometry(size, size)
        if opening.solved_winner(geo, geo.cells[0]) is None:
            continue
        net = opening.network_values(geo, list(geo.cells))
        if net is None:
            raise click.ClickException("no value network weights")
        wins = net_right = rim_right = 0
        for cell in geo.cells:
            black = opening.solved_winner(geo, cell) == BLACK
            wins += black
            net_right += (net[cell] > 0.5) == black
            rim_right += opening.off_rim(geo, cell) == black
        n = len(geo.cells)
        click.echo(f"| {size}×{size} | {n} | {wins} | {net_right} ({100 * net_right / n:.0f} %)"
                   f" | {rim_right} ({100 * rim_right / n:.0f} %) |")
    for size in maps:
        geo = geometry(size, size)
        net = opening.network_values(geo, list(geo.cells))
        if net is None:
            raise click.ClickException("no value network weights")
        first = opening.first_move(Board(size, size, allow_swap=True))
        click.echo(f"\n{size}×{size}: the network's chance that a lone black stone wins "
                   f"(white to move); a swap game opens on {geo.name(first)}")
        for row in range(size):
            values = " ".join(f"{100 * net[geo.index(col, row)]:3.0f}" for col in range(size))
            click.echo(" " * (2 * row) + values)


if __name__ == "__main__":
    main()
