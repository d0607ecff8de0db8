#!/usr/bin/env python3
"""A position file for ``solver_race.py`` from real games, by the rule in docs/solver.md.

From each game of hex-match results.jsonl files (games with a swap are skipped), the
positions after ply FROM, FROM + EVERY, … up to the last position before the game's final
move, with the side to move as in the game; a position reached in two games counts once.
A judge (any HTP engine with ``dfpn-solve-state``, e.g. Wolve) solves each game's
candidates in ply order, ``dfpn-clear-tt`` before each, within ``--limit`` seconds; the
first ``--per-game`` it proves are taken, whatever any other solver does with them, with
the judge's verdict as the known winner (``--jobs N``: N judges, a game each, the file
in the games' order all the same).  Each taken position is a line of the file:

    11 f6 e7 ... black = white    # game 3, ply 24, judge 2.31 s

    python scripts/position_set.py matches/ours-vs-wolve-11x11/results.jsonl \\
        --judge "wolve --use-logfile=0 --quiet" --out scripts/positions/11x11-games.txt
"""
from __future__ import annotations

import json
import os
import queue
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Iterator

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine.board import COLOUR_NAMES  # noqa: E402
from hexengine.geometry import Geometry, geometry  # noqa: E402
from protocol.match.cli import judge_from, judge_options  # noqa: E402
from protocol.match.judge import DfpnJudge  # noqa: E402


def candidates(paths: list[str], first: int, every: int) -> Iterator[tuple[int, Geometry, list]]:
    """(game number, its board, [(ply, moves) in ply order]) for each game without a swap;
    a position already given by an earlier game is left out."""
    seen = set()
    number = 0
    for path in paths:
        with open(path) as f:
            for line in f:
                game = json.loads(line)
                number += 1
                moves = [m["move"] for m in game["moves"]]
                if any(m.lower().startswith("swap") for m in moves):
                    continue
                width, height = (int(x) for x in game["size"].split("x"))
                found = []
                for ply in range(first, len(moves), every):  # before the final move
                    key = (game["size"], tuple(moves[:ply]))
                    if key not in seen:
                        seen.add(key)
                        found.append((ply, moves[:ply]))
                yield number, geometry(width, height), found


def judge_game(referee: DfpnJudge, number: int, geo: Geometry, found: list, per_game: int,
               limit: float) -> tuple[list[str], list[str]]:
    """The first ``per_game`` positions of one game that ``referee`` proves, in ply order:
    (their lines for the file, a report line per position judged)."""
    size = str(geo.width) if geo.width == geo.height else f"{geo.width}x{geo.height}"
    lines, said = [], []
    for ply, moves in found:
        if len(lines) == per_game:
            break
        stones = geo.stones(moves)
        colour = ply % 2
        started = time.monotonic()
        winner = referee.solve(geo, stones, colour, limit).winner
        took = time.monotonic() - started
        verdict = "unproved" if winner is None else f"{COLOUR_NAMES[winner]} wins"
        said.append(f"game {number} ply {ply}: {verdict} ({took:.2f} s)")
        if winner is not None:
            lines.append(f"{size} {' '.join(moves)} {COLOUR_NAMES[colour]} = "
                         f"{COLOUR_NAMES[winner]}    # game {number}, ply {ply}, "
                         f"judge {took:.2f} s")
    return lines, said


@click.command()
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True))
@judge_options(10.0, "Seconds the judge has for each position.")
@click.option("--from", "first", type=int, default=20, show_default=True,
              help="The first ply taken.")
@click.option("--every", type=int, default=4, show_default=True, help="Plies between two.")
@click.option("--per-game", type=int, default=2, show_default=True,
              help="Positions taken from each game: the first the judge proves.")
@click.option("--jobs", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Judges at work at once, a game each (one core each).")
@click.option("--out", required=True, type=click.Path(dir_okay=False),
              help="The position file to write.")
def main(results: tuple[str, ...], judge: str, judge_init: tuple[str, ...], limit: float,
         first: int, every: int, per_game: int, jobs: int, out: str) -> None:
    sources = ", ".join(os.path.basename(os.path.dirname(os.path.abspath(p))) or p
                        for p in results)
    lines = [f"# Positions from the games of {sources}:",
             f"# every {every}th ply from {first}, the first {per_game} of each game that "
             f"the judge proves within {limit:g} s (its verdict after '=').",
             f"# python scripts/position_set.py RESULTS --from {first} --every {every} "
             f"--per-game {per_game} --limit {limit:g}"]
    referees: queue.SimpleQueue = queue.SimpleQueue()
    made = [judge_from(judge, judge_init, limit) for _ in range(jobs)]
    for referee in made:
        referees.put(referee)

    def one(game: tuple[int, Geometry, list]) -> tuple[list[str], list[str]]:
        referee = referees.get()
        try:
            return judge_game(referee, *game, per_game, limit)
        finally:
            referees.put(referee)

    taken = tried = 0
    try:
        with ThreadPoolExecutor(jobs) as pool:  # map keeps the games' order
            for got, said in pool.map(one, candidates(list(results), first, every)):
                for line in said:
                    print(line, flush=True)
                tried += len(said)
                taken += len(got)
                lines.extend(got)
    finally:
        for referee in made:
            referee.close()
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"{taken} positions of {tried} judged written to {out}")


if __name__ == "__main__":
    main()
