#!/usr/bin/env python3
"""How many positions of real games the DFPN solver proves within a time limit.

Takes the positions after ``--plies`` moves of every game in a hex-match results.jsonl
(each position once), optionally has another engine's solver judge them first (``--judge``,
any HTP engine with ``dfpn-solve-state``, e.g. Wolve; positions it cannot prove in
``--judge-limit`` are left out), then solves each with our solver, a fresh table each, and
prints a line per position and a summary: proved, proved wrongly (against the judge), the
time and the nodes.  Middle-game positions of 9x9 games are where the player's solver gets
half a second a move, so this is the measure of what it sees there.

    python scripts/solve_games.py OUT/results.jsonl --plies 13,17,21 --limit 0.5 \\
        --judge "../shared/opponents/benzene/bin/wolve --use-logfile=0 --quiet"
"""
from __future__ import annotations

import json
import os
import sys
import time
from typing import Optional

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.board import COLOUR_NAMES  # noqa: E402
from hexengine.geometry import geometry  # noqa: E402
from hexengine.solver import Solver, VCKnowledge  # noqa: E402
from protocol.match.judge import DfpnJudge  # noqa: E402
from scripts.cli_types import PLIES  # noqa: E402


def game_positions(paths: list[str], plies: list[int]):
    """(geometry, moves, stones, side to move) after each ply of each game, each once."""
    seen = set()
    for path in paths:
        with open(path) as f:
            for line in f:
                game = json.loads(line)
                width, height = (int(x) for x in game["size"].split("x"))
                geo = geometry(width, height)
                moves = [m["move"] for m in game["moves"]]
                if any(m.startswith("swap") for m in moves):
                    continue
                for ply in plies:
                    if ply >= len(moves) - 1 or (game["size"], tuple(moves[:ply])) in seen:
                        continue
                    seen.add((game["size"], tuple(moves[:ply])))
                    yield geo, moves[:ply], geo.stones(moves[:ply]), ply % 2


@click.command()
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--plies", type=PLIES, default="13,17,21", show_default=True,
              help="Positions after these many moves (comma-separated).")
@click.option("--limit", type=float, default=0.5, show_default=True,
              help="Seconds per position for our solver.")
@click.option("--judge", default="", help="An HTP engine with dfpn-solve-state to judge.")
@click.option("--judge-init", multiple=True, default=("param_dfpn timelimit {seconds}",),
              show_default=True, help="Commands sent to the judge first ({seconds}: the "
                                      "judge's limit).")
@click.option("--judge-limit", type=float, default=5.0, show_default=True)
@click.option("--decompose/--no-decompose", default=True, show_default=True)
@click.option("--dominated/--no-dominated", default=None,
              help="Prune dominated cells [default: when the compiled fill-in has loaded].")
def main(results: tuple[str, ...], plies: list[int], limit: float, judge: str,
         judge_init: tuple[str, ...], judge_limit: float, decompose: bool,
         dominated: Optional[bool]) -> None:
    kernels.start(wait=True)
    referee = None
    if judge:
        referee = DfpnJudge(judge, [c.format(seconds=judge_limit) for c in judge_init],
                            clear_tt=False)
    positions = proved = wrong = nodes = 0
    seconds = 0.0
    try:
        for geo, moves, stones, colour in game_positions(
                list(results), plies):
            expected = None
            if referee is not None:
                expected = referee.solve(geo, stones, colour, judge_limit).winner
                if expected is None:
                    continue
            positions += 1
            solver = Solver(VCKnowledge(decompose=decompose, dominated=dominated))
            started = time.monotonic()
            result = solver.solve(geo, stones, colour, limit)
            took = time.monotonic() - started
            seconds += took
            nodes += result.nodes
            verdict = "unproved" if result.winner is None else \
                f"{COLOUR_NAMES[result.winner]} wins"
            if result.winner is not None:
                proved += 1
                if expected is not None and result.winner != expected:
                    wrong += 1
                    verdict += f"  WRONG (judge: {COLOUR_NAMES[expected]})"
            print(f"{len(moves):3} {' '.join(moves)}: {COLOUR_NAMES[colour]} to move, "
                  f"{verdict}, {result.nodes} nodes, {took:.2f}s", flush=True)
    finally:
        if referee is not None:
            referee.close()
    print(f"proved {proved} of {positions} positions within {limit:g} s "
          f"({wrong} against the judge), {seconds:.0f} s, {nodes} nodes")
    if wrong:
        sys.exit(1)


if __name__ == "__main__":
    main()
