#!/usr/bin/env python3
"""Add what the search's leaves read to self-play positions: the data of ``net-circuit``.

A search leaf fills in its dead and captured cells and solves its circuit on the H-search's
graph (``vc_graph``) before any network sees it; a network that corrects that circuit must
learn from the same board and value.  For every position of the ``scripts/value_data.py``
parts this writes the filled board, its circuit value for the mover and whether its
connections decide it (the search never asks a network there); and, past the games' random
first moves, four children as the opponent sees them: the move played, then three others
drawn from the first ``--among`` cells of the search's move order (the current through each
cell in both circuits, ``vc_graph.rank_moves``): the siblings a search must tell apart,
where random cells would be told apart by the circuit alone.  Each child is filled in, with its circuit value and what its connections decide (1 the
child's mover, the opponent, wins; -1 it has lost; 0 undecided).  Positions decided by
their own connections get no children (a search asks no network there).

    python scripts/value_features.py data/value-engine3 --jobs 2 --out data/circuit.npz
"""
from __future__ import annotations

import multiprocessing
import os
import sys
import time

import click
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.evaluation import network, vc_graph  # noqa: E402
from hexengine.evaluation.planes import cells_of, stones_of  # noqa: E402
from hexengine.geometry import Geometry, geometry  # noqa: E402
from hexengine.learning import selfplay  # noqa: E402

CHILDREN = 4  # the move played and three others
AMONG = 10  # the three other children are drawn from this many first cells of the order


def leaf_view(geo: Geometry, stones: list[int], colour: int) -> tuple[np.ndarray, float, int]:
    """The filled board (cells), its circuit value for ``colour`` to move and what its
    connections decide, as a search leaf reads them (``network.leaf_reading``): 1
    ``colour`` wins, -1 it has lost, 0 undecided."""
    filled, value, own, opp = network.leaf_reading(geo, stones, colour)
    return cells_of(geo, filled), value, 1 if own else -1 if opp == 2 else 0


def run_chunk(args: tuple) -> dict[str, np.ndarray]:
    """Features of one chunk of rows (``args``: table slice, seed)."""
    part, seed, among = args
    kernels.start(wait=True)
    rng = np.random.default_rng(seed)
    n = len(part["size"])
    width = selfplay.MAX_CELLS
    out = {
        "filled": np.zeros((n, width), np.int8), "circuit": np.zeros(n, np.float32),
        "decided": np.zeros(n, np.bool_),
        "child_cells": np.zeros((n, CHILDREN, width), np.int8),
        "child_circuit": np.zeros((n, CHILDREN), np.float32),
        "child_decided": np.zeros((n, CHILDREN), np.int8),
        "child_ok": np.zeros(n, np.bool_),
    }
    for r in range(n):
        size, mover = int(part["size"][r]), int(part["mover"][r])
        geo = geometry(size, size)
        stones = stones_of(geo, part["cells"][r])
        cells, value, decided = leaf_view(geo, stones, mover)
        out["filled"][r, :cells.size] = cells
        out["circuit"][r] = value
        out["decided"][r] = decided != 0
        if decided or part["ply"][r] < selfplay.RANDOM_PLIES:  # (no search asks a network there)
            continue
        col, row = (int(v) for v in part["move"][r])
        played = geo.index(col, row)
        others = [c for c in vc_graph.rank_moves(geo, stones) if c != played][:among]
        if len(others) < CHILDREN - 1:
            continue
        picks = rng.choice(len(others), CHILDREN - 1, replace=False)
        for k, cell in enumerate([played] + [others[i] for i in picks]):
            child = list(stones)
            child[mover] |= 1 << cell
            cells, value, decided = leaf_view(geo, child, 1 - mover)
            out["child_cells"][r, k, :cells.size] = cells
            out["child_circuit"][r, k] = value
            out["child_decided"][r, k] = decided
        out["child_ok"][r] = True
    return out


@click.command()
@click.argument("data", nargs=-1, required=True)
@click.option("--out", required=True, help="The features file (.npz), with the positions.")
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--chunk", type=click.IntRange(min=1), default=500, show_default=True)
@click.option("--among", type=click.IntRange(min=CHILDREN - 1), default=AMONG,
              show_default=True, help="Draw the other children from this many first moves.")
@click.option("--seed", type=int, default=1, show_default=True)
def main(data: tuple[str, ...], out: str, jobs: int, chunk: int, among: int,
         seed: int) -> None:
    """Compute the leaf view of every position in the DATA parts (files or folders)."""
    table = selfplay.load_parts(list(data))
    n = len(table["size"])
    started = time.monotonic()
    chunks = [({k: v[i:i + chunk] for k, v in table.items()}, seed * 100_003 + i, among)
              for i in range(0, n, chunk)]
    results = []
    with multiprocessing.Pool(jobs) as pool:
        for i, result in enumerate(pool.imap(run_chunk, chunks)):
            results.append(result)
            click.echo(f"{min(n, (i + 1) * chunk)}/{n} positions, "
                       f"{time.monotonic() - started:.0f} s", err=True)
    features = {k: np.concatenate([r[k] for r in results]) for k in results[0]}
    np.savez_compressed(out, **table, **features)
    click.echo(f"{n} positions ({int(features['decided'].sum())} decided by connections, "
               f"{int(features['child_ok'].sum())} with children) in {out}")


if __name__ == "__main__":
    main()
