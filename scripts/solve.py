#!/usr/bin/env python3
"""Solve every one-stone opening of an N×N board with the DFPN solver.

Each opening is a black stone with white to move; the line says who wins, the winning
reply when white wins, the nodes and the seconds.  By default one solver (one table) serves
all openings in turn, as in a game; ``--fresh`` gives each opening an empty table.
``--profile N`` runs the solves under cProfile and prints the N functions with the most
cumulative time, and the average number of moves searched per expanded node.

``--threads N --paired`` times each opening on one process and on N back to back.

``--cluster tcp://HOST:PORT`` solves the openings as tasks on the workers of a Dask
scheduler (the ``[cluster]`` extra, as for ``hex-match --cluster``), each with a fresh
table, and says which worker solved each.

    python scripts/solve.py --size 6
    python scripts/solve.py --size 7 --limit 600 --cluster tcp://10.0.0.5:8786
"""
from __future__ import annotations

import cProfile
import dataclasses
import os
import pstats
import sys
import time
from typing import Optional

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.board import BLACK, WHITE  # noqa: E402
from hexengine.geometry import geometry  # noqa: E402
from hexengine.knowledge import hsearch  # noqa: E402
from hexengine.solver import KNOWLEDGE, Solver, VCKnowledge, knowledge_by_name  # noqa: E402
from hexengine.solver import parallel  # noqa: E402
from hexengine.solver.knowledge import ORDERS  # noqa: E402
from protocol.match import cluster  # noqa: E402
from protocol.match.runner import MatchError  # noqa: E402


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
@click.option("--dominated/--no-dominated", default=None,
              help="With vc knowledge: prune dominated cells as well as vulnerable ones "
                   "[default: when the compiled fill-in has loaded].")
@click.option("--stone-templates/--no-stone-templates", default=None,
              help="With vc knowledge: the derived edge templates with helper stones in "
                   "the H-search [default: as vc.SOLVER_LIMITS says].")
@click.option("--edge-band/--no-edge-band", default=None,
              help="With vc knowledge: second-row cells joined through their edge, and "
                   "ANDs sharing the edge cells a second-row cell captures "
                   "(Limits.edge_band) [default: as vc.SOLVER_LIMITS says].")
@click.option("--order", type=click.Choice(ORDERS), default="auto", show_default=True,
              help="With vc knowledge: each node's moves by centre distance, by the "
                   "board circuit's current, by the current through the opponent's "
                   "connections (blocks, widened as Benzene does), or by the value "
                   "network's move head; auto: blocks from 11x11 with a --limit of at most "
                   "10 s, else centre.")
@click.option("--widening", type=click.FloatRange(0, 1), default=None,
              help="The share of each node's live moves considered, best first "
                   "(Benzene's widening; 0: all) [default: the knowledge's: 0.25 from 11x11 "
                   "with --order auto and a --limit of at most 10 s, else 0].")
@click.option("--inherit-fill/--no-inherit-fill", default=True, show_default=True,
              help="Keep the cells a node's knowledge fills filled in the positions below "
                   "it, as Benzene's board does (Solver.inherit_fill).")
@click.option("--threads", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes solving each root together (hexengine.solver.parallel).")
@click.option("--paired", is_flag=True,
              help="With --threads N: solve each opening on 1 process and on N back to "
                   "back (which goes first alternates), a fresh table each time, and "
                   "print both times and the speed-up (the machine's drift falls on both).")
@click.option("--cluster", "cluster_address", default=None, metavar="tcp://HOST:PORT",
              help="Solve the openings on the workers of this Dask scheduler (a fresh "
                   "table each).")
@click.option("--connect-timeout", type=float, default=30.0, show_default=True,
              help="Seconds to wait for the scheduler and a first worker.")
@click.option("--profile", type=int, default=0, metavar="N",
              help="Profile the solves: the N functions with the most cumulative time, and "
                   "the moves searched per expanded node.")
def main(size: int, knowledge: str, fresh: bool, limit: float, cells: str,
         tt_size: int, compiled: bool, decompose: bool, dominated: Optional[bool],
         stone_templates: Optional[bool], edge_band: Optional[bool], order: str,
         widening: Optional[float], inherit_fill: bool, threads: int, paired: bool,
         cluster_address: Optional[str], connect_timeout: float,
         profile: int) -> None:
    geo = geometry(size, size)
    openings = ([geo.parse(c) for c in cells.split(",")] if cells else list(geo.cells))
    if paired and (threads < 2 or cluster_address or profile or not compiled):
        raise click.UsageError("--paired compares --threads N (N > 1) with one process, "
                               "here: no --cluster, --profile or --python")
    if cluster_address:
        if profile or not compiled:
            raise click.UsageError("--cluster solves on the workers: no --profile or --python")
        options = dict(knowledge=knowledge, tt_size=tt_size, decompose=decompose,
                       dominated=dominated, stone_templates=stone_templates,
                       edge_band=edge_band, order=order, threads=threads,
                       widening=widening, inherit_fill=inherit_fill)
        _on_cluster(cluster_address, connect_timeout, geo, openings, limit, options)
        return
    kernels.start(wait=True)
    if paired:
        _paired(geo, openings, limit, threads, lambda: Solver(
            _knowledge(knowledge, decompose, dominated, stone_templates, order, edge_band),
            tt_size=tt_size, widening=widening, inherit_fill=inherit_fill))
        return
    profiler = cProfile.Profile() if profile else None
    expanded = [0, 0]  # expansions that listed moves, moves listed
    if not compiled:
        hsearch.python_only().__enter__()
    solver = None
    tally = Tally()
    for cell in openings:
        if solver is None or fresh:
            known = _knowledge(knowledge, decompose, dominated, stone_templates, order, edge_band)
            solver = Solver(known, tt_size=tt_size, widening=widening,
                            inherit_fill=inherit_fill)
            if profiler is not None:
                _count_moves(known, expanded)
        stones = [1 << cell, 0]
        started = time.monotonic()
        if profiler is not None:
            profiler.enable()
        result = parallel.solve(solver, geo, stones, WHITE, limit, threads=threads)
        if profiler is not None:
            profiler.disable()
        tally.add(geo, _outcome(cell, result, time.monotonic() - started))
    tally.report(geo, f"knowledge {solver.knowledge.name if solver else knowledge}, "
                 f"{'fresh' if fresh else 'shared'} table")
    if profiler is not None:
        print(f"moves listed per expansion: {expanded[1] / max(expanded[0], 1):.2f} "
              f"({expanded[0]} expansions)")
        pstats.Stats(profiler, stream=sys.stdout).sort_stats("cumulative").print_stats(profile)


def _paired(geo, openings: list[int], limit: float, threads: int, fresh_solver) -> None:
    """Each opening on one process and on ``threads``, back to back, a fresh solver each;
    a line per opening, then the totals and their ratio.  Different verdicts are an error."""
    totals = {1: 0.0, threads: 0.0}
    for n, cell in enumerate(openings):
        took, winners = {}, {}
        for count in ((1, threads) if n % 2 == 0 else (threads, 1)):
            started = time.monotonic()
            result = parallel.solve(fresh_solver(), geo, [1 << cell, 0], WHITE, limit,
                                    threads=count)
            took[count] = time.monotonic() - started
            winners[count] = result.winner
            totals[count] += took[count]
        if winners[1] is not None and winners[threads] is not None and \
                winners[1] != winners[threads]:
            raise click.ClickException(f"{geo.name(cell)}: the two runs disagree")
        verdict = {None: "unsolved", BLACK: "black wins", WHITE: "white wins"}[
            winners[1] if winners[1] is not None else winners[threads]]
        print(f"{geo.name(cell):>4}  {verdict:<11} 1: {took[1]:7.2f}s  {threads}: "
              f"{took[threads]:7.2f}s  {took[1] / max(took[threads], 1e-9):5.2f}x", flush=True)
    print(f"{geo.width}x{geo.height}, {len(openings)} openings: 1 process "
          f"{totals[1]:.2f}s, {threads} processes {totals[threads]:.2f}s, speed-up "
          f"{totals[1] / max(totals[threads], 1e-9):.2f}x")


def _knowledge(name: str, decompose: bool, dominated: Optional[bool],
               stone_templates: Optional[bool], order: str, edge_band: Optional[bool] = None):
    """The solver's knowledge by ``name``, with the options of the vc knowledge set."""
    known = knowledge_by_name(name)
    if isinstance(known, VCKnowledge):
        known.decompose, known.dominated, known.order = decompose, dominated, order
        for field, value in (("stone_templates", stone_templates), ("edge_band", edge_band)):
            if value is not None and known.limits is not None:
                known.limits = dataclasses.replace(known.limits, **{field: value})
    return known


def _outcome(cell: int, result, seconds: float) -> dict:
    """One opening's line as ``Tally.add`` reads it."""
    return dict(cell=cell, winner=result.winner, move=result.move, nodes=result.nodes,
                seconds=seconds)


class Tally:
    """The openings' lines as they are solved, and the summary after them."""

    def __init__(self) -> None:
        self.total = 0.0
        self.worst = (0.0, "")
        self.black_wins: list[str] = []
        self.unsolved: list[str] = []
        self.nodes = 0
        self.count = 0

    def add(self, geo, solved: dict) -> None:
        """Print one opening's line (``solve_opening``'s dict) and count it."""
        name, took = geo.name(solved["cell"]), solved["seconds"]
        self.count += 1
        self.total += took
        self.nodes += solved["nodes"]
        if took > self.worst[0]:
            self.worst = (took, name)
        if solved["winner"] is None:
            verdict = "unsolved"
            self.unsolved.append(name)
        elif solved["winner"] == BLACK:
            verdict = "black wins"
            self.black_wins.append(name)
        else:
            verdict = f"white wins with {geo.name(solved['move'])}"
        where = f"  on {solved['worker']}" if solved.get("worker") else ""
        print(f"{name:>4}  {verdict:<22} nodes {solved['nodes']:>8}  {took:7.2f}s{where}",
              flush=True)

    def report(self, geo, how: str) -> None:
        print(f"{geo.width}x{geo.height} {how}: {self.count} openings, total "
              f"{self.total:.2f}s, max {self.worst[0]:.2f}s ({self.worst[1]}), "
              f"nodes {self.nodes}")
        print(f"black wins with {len(self.black_wins)}: {' '.join(self.black_wins)}")
        if self.unsolved:
            print(f"unsolved ({len(self.unsolved)}): {' '.join(self.unsolved)}")


def solve_opening(size: int, cell: int, limit: float, knowledge: str, tt_size: int,
                  decompose: bool, dominated: Optional[bool], order: str, threads: int,
                  stone_templates: Optional[bool] = None,
                  edge_band: Optional[bool] = None, widening: Optional[float] = None,
                  inherit_fill: bool = True) -> dict:
    """One opening (a black stone, white to move) with a fresh solver: the task a cluster's
    worker runs.  Returns cell, winner, move, nodes, seconds and (on a worker) its name."""
    kernels.start(wait=True)
    geo = geometry(size, size)
    known = _knowledge(knowledge, decompose, dominated, stone_templates, order, edge_band)
    started = time.monotonic()
    result = parallel.solve(Solver(known, tt_size=tt_size, widening=widening,
                                   inherit_fill=inherit_fill), geo,
                            [1 << cell, 0], WHITE,
                            limit, threads=threads)
    solved = _outcome(cell, result, time.monotonic() - started)
    worker = cluster.worker_name()
    if worker is not None:
        solved["worker"] = worker
    return solved


def _on_cluster(address: str, timeout: float, geo, openings: list[int], limit: float,
                options: dict) -> None:
    """Solve ``openings`` as tasks on the Dask scheduler at ``address``; print each line as
    it comes back, then the summary and how many each worker solved."""
    try:
        client = cluster.connect(address, timeout)
    except MatchError as exc:
        raise click.ClickException(str(exc)) from None
    tally = Tally()
    by_worker: dict[str, int] = {}
    try:
        futures = [client.submit(solve_opening, geo.width, cell, limit, pure=False, **options)
                   for cell in openings]
        cell_of = {future.key: cell for future, cell in zip(futures, openings)}
        for future, why in cluster.finished(futures):  # each line as its task finishes
            if why is not None:
                solved = dict(cell=cell_of[future.key], winner=None, move=-1, nodes=0,
                              seconds=0.0, worker=f"error: {why}")
                tally.add(geo, solved)
                continue
            solved = future.result()
            tally.add(geo, solved)
            worker = solved.get("worker", "?")
            by_worker[worker] = by_worker.get(worker, 0) + 1
    finally:
        cluster.closing(client)
    tally.report(geo, f"knowledge {options['knowledge']}, on the cluster, fresh tables")
    print(f"workers: {len(by_worker)} (" + ", ".join(
        f"{w} {n}" for w, n in sorted(by_worker.items())) + ")")


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
