#!/usr/bin/env python3
"""How often each evaluation's sign names the winner of proved positions (JSON files of
``scripts/value_positions.py``): the value network's against the circuits'.

    python scripts/value_accuracy.py tests/data/value_positions.json

``--data DIR`` scores instead the held-out games of ``scripts/value_data.py``'s files (every
``--holdout``-th game, as ``scripts/train_value.py`` holds them out), by their labels: the
solver's where it proved the position (the "proved" rows), the game's result elsewhere.
"""
from __future__ import annotations

import glob
import json
import os
import sys
from collections import defaultdict

import click
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.board import Board  # noqa: E402
from hexengine.evaluation import get as get_evaluation  # noqa: E402
from hexengine.evaluation import network  # noqa: E402


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
        board = Board(case["size"])
        for colour, key in ((0, "black"), (1, "white")):
            for cell in case[key]:
                board.play(board.parse_move(cell), colour)
        mover = 0 if case["to_move"] == "b" else 1
        wins = case["winner"] == case["to_move"]
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
    cases = []
    offset = 0
    for name in sorted(glob.glob(os.path.join(folder, "*.npz"))):
        with np.load(name) as part:
            table = {k: part[k] for k in part.files}
        games = table["game"] + offset
        offset = int(games.max()) + 1
        for r in np.nonzero(games % holdout == 0)[0]:
            size = int(table["size"][r])
            board = Board(size)
            case = {"size": size, "to_move": "bw"[int(table["mover"][r])], "black": [],
                    "white": [], "proved": bool(table["proved"][r])}
            for index, value in enumerate(table["cells"][r, :size * size].tolist()):
                if value:
                    row, col = divmod(index, size)
                    case["black" if value == 1 else "white"].append(
                        board.move_name(board.geo.index(col, row)))
            mover_wins = table["label"][r] > 0
            case["winner"] = case["to_move"] if mover_wins else "bw"[1 - int(table["mover"][r])]
            cases.append(case)
    return cases


if __name__ == "__main__":
    main()
