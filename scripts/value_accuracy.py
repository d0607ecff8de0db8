#!/usr/bin/env python3
"""How often each evaluation's sign names the winner of proved positions (JSON files of
``scripts/value_positions.py``): the value network's against the circuits'.

    python scripts/value_accuracy.py tests/data/value_positions.json

``--data DIR`` scores instead the held-out games of ``scripts/value_data.py``'s files (every
``--holdout``-th game, as ``scripts/train_value.py`` holds them out), by their labels: the
solver's where it proved the position (the "proved" rows), the game's result elsewhere.
"""
from __future__ import annotations

import json
import os
import sys
from collections import defaultdict

import click
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.evaluation import get as get_evaluation  # noqa: E402
from hexengine.evaluation import network  # noqa: E402
from hexengine.learning import selfplay  # noqa: E402
from hexengine.learning.cases import board_of, case_of  # noqa: E402


@click.command()
@click.argument("files", nargs=-1)
@click.option("--data", default="", help="A folder of value_data.py part files.")
@click.option("--holdout", type=int, default=20, show_default=True)
@click.option("--evaluations", default="net,resistance,vc-graph", show_default=True)
@click.option("--weights", default=network.DEFAULT_WEIGHTS, show_default=True)
def main(files: tuple[str, ...], data: str, holdout: int, evaluations: str,
         weights: str) -> None:
    """Print, per board size, each evaluation's share of right signs."""
    kernels.start(wait=True)
    net = network.network(weights)
    names = evaluations.split(",")
    right: dict[tuple, int] = defaultdict(int)
    count: dict = defaultdict(int)
    cases = []
    for name in files:
        with open(name) as f:
            cases += json.load(f)
    if data:
        cases += held_out(data, holdout)
    for case in cases:
        board, mover, wins = board_of(case)
        group = (case["size"], case.get("proved", True))
        count[group] += 1
        for ev in names:
            if ev == "net":
                value = net.logit(board.geo, board.stones, mover)
            else:
                value = get_evaluation(ev)(board.geo, board.stones, mover)
            right[group, ev] += (value > 0) == wins
    click.echo("| size | labels | positions | " + " | ".join(names) + " |")
    click.echo("|---|---|---|" + "---|" * len(names))
    for group in sorted(count):
        size, proved = group
        cells = " | ".join(f"{right[group, ev] / count[group]:.0%}" for ev in names)
        label = "proved" if proved else "game result"
        click.echo(f"| {size}×{size} | {label} | {count[group]} | {cells} |")
    total = sum(count.values())
    cells = " | ".join(f"{sum(right[g, ev] for g in count) / total:.0%}" for ev in names)
    click.echo(f"| all | | {total} | {cells} |")


def held_out(folder: str, holdout: int) -> list[dict]:
    """The held-out positions of a value_data.py folder, as cases."""
    table = selfplay.load_parts([folder])
    return [case_of(int(table["size"][r]), table["cells"][r], int(table["mover"][r]),
                    table["label"][r] > 0, proved=bool(table["proved"][r]))
            for r in np.nonzero(table["game"] % holdout == 0)[0]]


if __name__ == "__main__":
    main()
