#!/usr/bin/env python3
"""Solve every one-stone opening of an N×N board with the DFPN solver.

Each opening is a black stone with white to move; the line says who wins, the winning
reply when white wins, the nodes and the seconds.  By default one solver (one table) serves
all openings in turn, as in a game; ``--fresh`` gives each opening an empty table.
``--profile N`` runs the solves under cProfile and prints the N functions with the most
cumulative time, and the average number of moves searched per expanded node.

    python scripts/solve.py --size 6
"""
from __future__ import annotations

import cProfile
import os
import pstats
import sys
import time

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.board import BLACK, WHITE  # noqa: E402
from hexengine.geometry import geometry  # noqa: E402
from hexengine.knowledge import hsearch  # noqa: E402
from hexengine.solver import KNOWLEDGE, Solver, VCKnowledge, knowledge_by_name  # noqa: E402
from hexengine.solver import parallel  # noqa: E402
from hexengine.solver.knowledge import ORDERS  # noqa: E402


@click.command()
@click.option("--size", type=click.IntRange(1, 13), default=6, show_default=True)
@click.option("--knowledge", type=click.Choice(sorted(KNOWLEDGE)), default="auto",
              show_default=True, help="What the solver knows of Hex.")
@click.option("--fresh/--shared", default=False, show_default=True,
              help="An empty table for each opening, or one table for all.")
@click.option("--limit", type=float, default=600.0, show_default=True,
              help="Seconds per opening before it counts as unsolved.")
@click.option("--cells", default="", help="Only these openings (comma-separated names).")
@click.option("--tt-size", type=int, default=400_000, show_default=True)
@click.option("--compiled/--python", default=True, show_default=True,
              help="Connections from the compiled H-search, as the engine builds them "
                   "once it has loaded, or from the Python one.")
@click.option("--decompose/--no-decompose", default=True, show_default=True,
              help="With vc knowledge: fill the opponent's combinatorial decompositions.")
@click.option("--dominated/--no-dominated", default=False, show_default=True,
              help="With vc knowledge: prune dominated cells as well as vulnerable ones.")
@click.option("--order", type=click.Choice(ORDERS), default="centre", show_default=True,
              help="With vc knowledge: each node's moves by centre distance, by the "
                   "circuit's current, or by the value network's move head.")
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Worker processes sharing each root's moves (hexengine.solver.parallel).")
@click.option("--profile", type=int, default=0, metavar="N",
              help="Profile the solves: the N functions with the most cumulative time, and "
                   "the moves searched per expanded node.")
def main(size: int, knowledge: str, fresh: bool, limit: float, cells: str,
         tt_size: int, compiled: bool, decompose: bool, dominated: bool, order: str,
         threads: int, profile: int) -> None:
    kernels.start(wait=True)
    profiler = cProfile.Profile() if profile else None
    expanded = [0, 0]  # expansions that listed moves, moves listed
    if not compiled:
        hsearch.python_only().__enter__()
    geo = geometry(size, size)
    openings = ([geo.parse(c) for c in cells.split(",")] if cells else list(geo.cells))
    solver = None
    total = 0.0
    worst = (0.0, "")
    black_wins = []
    unsolved = []
    nodes_total = 0
    for cell in openings:
        if solver is None or fresh:
            known = knowledge_by_name(knowledge)
            if isinstance(known, VCKnowledge):
                known.decompose, known.dominated, known.order = decompose, dominated, order
            solver = Solver(known, tt_size=tt_size)
            if profiler is not None:
                _count_moves(known, expanded)
        stones = [1 << cell, 0]
        started = time.monotonic()
        if profiler is not None:
            profiler.enable()
        result = parallel.solve(solver, geo, stones, WHITE, limit, threads=threads)
        if profiler is not None:
            profiler.disable()
        took = time.monotonic() - started
        total += took
        nodes_total += result.nodes
        if took > worst[0]:
            worst = (took, geo.name(cell))
        if result.winner is None:
            verdict = "unsolved"
            unsolved.append(geo.name(cell))
        elif result.winner == BLACK:
            verdict = "black wins"
            black_wins.append(geo.name(cell))
        else:
            verdict = f"white wins with {geo.name(result.move)}"
        print(f"{geo.name(cell):>4}  {verdict:<22} nodes {result.nodes:>8}  {took:7.2f}s",
              flush=True)
    print(f"{size}x{size} knowledge {solver.knowledge.name if solver else knowledge}, "
          f"{'fresh' if fresh else 'shared'} table: {len(openings)} openings, "
          f"total {total:.2f}s, max {worst[0]:.2f}s ({worst[1]}), nodes {nodes_total}")
    print(f"black wins with {len(black_wins)}: {' '.join(black_wins)}")
    if unsolved:
        print(f"unsolved ({len(unsolved)}): {' '.join(unsolved)}")
    if profiler is not None:
        print(f"moves listed per expansion: {expanded[1] / max(expanded[0], 1):.2f} "
              f"({expanded[0]} expansions)")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(profile)


def _count_moves(known, expanded: list[int]) -> None:
    """Count, in ``expanded``, the expansions that list moves and the moves they list."""
    expand = known.expand

    def counted(geo, stones, colour):
        result = expand(geo, stones, colour)
        if not result[0]:
            expanded[0] += 1
            expanded[1] += len(result[3])
        return result
    known.expand = counted


if __name__ == "__main__":
    main()
