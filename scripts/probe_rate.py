#!/usr/bin/env python3
"""How often does our solver prove a match's middle-game positions within a moment?

For the positions where ENGINE was to move in a match's games (hex-match's results.jsonl),
a random sample in each band of stones on the board is solved from a fresh table within
``--seconds``; a line a band says how many were proved won for the side to move, proved
lost, and not proved, and the median time of the proofs.  This is the measure behind
``genmove``'s probe (``hexengine/solver/check.py``): where the middle game's positions are
proved at all, they mostly are within hundredths of a second.

    python scripts/probe_rate.py matches/ours-vs-wolve-9x9/results.jsonl --engine ours \\
        --bands 8,12,16,20 --seconds 0.2 --sample 60
"""
from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.board import Board  # noqa: E402
from hexengine.solver import Solver, knowledge_by_name  # noqa: E402


def turns(paths: tuple[str, ...], engine: str) -> list[tuple[int, list[str]]]:
    """(board size, the moves before it) for every position where ``engine`` chose a move."""
    found = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                game = json.loads(line)
                size = int(str(game["size"]).split("x")[0])
                moves = [m["move"] for m in game["moves"]]
                if any(move.startswith("swap") for move in moves):
                    continue  # (the colours no longer alternate from black)
                for k, move in enumerate(game["moves"]):
                    if move.get("by") == engine:
                        found.append((size, moves[:k]))
    return found


@click.command()
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--engine", required=True, help="The engine's name in the match records.")
@click.option("--bands", default="8,12,16,20", show_default=True,
              help="Stones on the board where the bands begin and end, ascending.")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=0.2,
              show_default=True, help="The solver's time for each position.")
@click.option("--sample", type=click.IntRange(min=1), default=60, show_default=True,
              help="Positions at most in each band, drawn at random.")
@click.option("--seed", type=int, default=1, show_default=True)
def main(results: tuple[str, ...], engine: str, bands: str, seconds: float, sample: int,
         seed: int) -> None:
    edges = [int(x) for x in bands.split(",")]
    if len(edges) < 2 or edges != sorted(edges):
        raise click.BadParameter("want two or more ascending numbers", param_hint="--bands")
    kernels.start(wait=True)  # the compiled H-search: the solver's nodes need it
    positions = turns(results, engine)
    rng = random.Random(seed)
    for low, high in zip(edges, edges[1:]):
        band = [p for p in positions if low <= len(p[1]) < high]
        rng.shuffle(band)
        won = lost = 0
        took = []
        for size, moves in band[:sample]:
            board = Board(size)
            for move in moves:
                board.play(board.parse_move(move))
            colour = board.to_move
            started = time.monotonic()
            result = Solver(knowledge_by_name()).solve(board.geo, board.stones, colour,
                                                       seconds=seconds)
            if result.winner is None:
                continue
            took.append(time.monotonic() - started)
            won += result.winner == colour
            lost += result.winner != colour
        count = min(len(band), sample)
        median = f"{statistics.median(took):.3f} s" if took else "-"
        click.echo(f"{low}-{high - 1} stones: {count} positions, proved won {won}, lost {lost}, "
                   f"not proved {count - won - lost}; median proof {median}")


if __name__ == "__main__":
    main()
