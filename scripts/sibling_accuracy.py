#!/usr/bin/env python3
"""How often each evaluation scores a winning move above a losing one, where the search needs it.

A search compares siblings: the children of one position, which differ by one stone.  The
data of ``scripts/value_data.py --winning-seconds`` holds, for positions the solver proved
won for the side to move, every move's result and whether a search leaf's connections
decide that child (a leaf they decide is scored won or lost without any evaluation).  For
each held-out such position (every ``--holdout``-th game, as ``train_value.py`` holds them
out) with open winning and open losing moves, this scores every open child as a search
leaf does (``vc-graph``: the circuit on the filled board; ``net-graph``: the network on
the filled board; ``resistance`` and ``net``: the bare board) and counts the share of
(winning, losing) pairs that the evaluation orders right, each position weighing one.

    python scripts/sibling_accuracy.py data/sib --weights new=out/value.npz
"""
from __future__ import annotations

import os
import sys
from collections import defaultdict

import click
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.evaluation import get as get_evaluation  # noqa: E402
from hexengine.evaluation import network  # noqa: E402
from hexengine.evaluation.planes import stones_of  # noqa: E402
from hexengine.geometry import Geometry, geometry  # noqa: E402
from hexengine.learning import selfplay  # noqa: E402


def open_children(geo: Geometry, stones: list[int], mover: int, wins: np.ndarray,
                  names: list[str], nets: dict) -> tuple[dict[str, list[float]], np.ndarray]:
    """Each evaluation's score for ``mover`` of each child the connections leave open, and
    whether each of those children wins."""
    out: dict[str, list[float]] = {name: [] for name in names}
    won = []
    for cell, result in zip(geo.cells, wins):
        if abs(int(result)) != 1:
            continue
        child = list(stones)
        child[mover] |= 1 << cell
        filled, value, _, _ = network.leaf_reading(geo, child, 1 - mover)
        won.append(result > 0)
        for name in names:
            if name == "vc-graph":
                out[name].append(-value)
            elif name in nets:
                graph, net = nets[name]
                out[name].append(-net.logit(geo, filled if graph else child, 1 - mover))
            else:
                out[name].append(-get_evaluation(name)(geo, child, 1 - mover))
    return out, np.array(won)


@click.command()
@click.argument("data", nargs=-1, required=True)
@click.option("--holdout", type=int, default=20, show_default=True)
@click.option("--evaluations", default="vc-graph,resistance,net-graph", show_default=True,
              help="vc-graph, net-graph, net or any evaluation by name.")
@click.option("--weights", multiple=True, metavar="[NAME=]FILE",
              help="Networks to score as net-graph (or as NAME, read as net-graph is): "
                   "e.g. --weights new=out/value.npz.  Default: the shipped one.")
@click.option("--limit", type=int, default=2000, show_default=True,
              help="At most this many positions.")
def main(data: tuple[str, ...], holdout: int, evaluations: str, weights: tuple[str, ...],
         limit: int) -> None:
    """Print each evaluation's share of (winning, losing) pairs ordered right, per size."""
    kernels.start(wait=True)
    names = evaluations.split(",")
    nets = {}
    for item in weights or (network.DEFAULT_WEIGHTS,):
        name, _, path = item.rpartition("=")
        nets[name or "net-graph"] = (True, network.network(path))
        if name and name not in names:
            names.append(name)
    if "net" in names:
        nets["net"] = (False, nets.get("net-graph", (True, network.network()))[1])
    table = selfplay.load_parts(list(data))
    rows = np.nonzero((table["game"] % holdout == 0)
                      & (table["wins"] == 1).any(1) & (table["wins"] == -1).any(1))[0][:limit]
    share: dict[tuple, float] = defaultdict(float)
    count: dict[int, int] = defaultdict(int)
    for r in rows:
        size, mover = int(table["size"][r]), int(table["mover"][r])
        geo = geometry(size, size)
        got, won = open_children(geo, stones_of(geo, table["cells"][r]), mover,
                                 table["wins"][r, :size * size], names, nets)
        count[size] += 1
        for name in names:
            values = np.array(got[name])
            share[size, name] += float(np.mean(values[won][:, None] > values[~won][None, :]))
    click.echo("| size | positions | " + " | ".join(names) + " |")
    click.echo("|---|---|" + "---|" * len(names))
    for size in sorted(count):
        cells = " | ".join(f"{share[size, n] / count[size]:.1%}" for n in names)
        click.echo(f"| {size}×{size} | {count[size]} | {cells} |")
    total = sum(count.values())
    if total:
        cells = " | ".join(f"{sum(share[s, n] for s in count) / total:.1%}" for n in names)
        click.echo(f"| every size | {total} | {cells} |")


if __name__ == "__main__":
    main()
