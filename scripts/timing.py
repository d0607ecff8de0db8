#!/usr/bin/env python3
"""How exactly genmove keeps its time budget: elapsed vs budget on mid-game positions.

Runs the engine's own move choice (``Player.genmove``, the call behind ``genmove``) on seeded
random mid-game positions and reports, per board size and budget, the mean and worst time
used and the worst overrun.  The issue's bar: overrun at most 5 % or 0.1 s, whichever is more.
As in an engine, the compiled kernels load first (``hexengine-ready``) and each board size's
tables are built before its moves (``boardsize``); ``--cold`` leaves both to the first moves.

    python scripts/timing.py --sizes 11,13 --budgets 0.2,1,2 --positions 5
"""
from __future__ import annotations

import os
import random
import sys
import time

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.board import Board  # noqa: E402
from hexengine.player import Player, Settings  # noqa: E402
from hexengine.positions import random_position  # noqa: E402
from scripts.cli_types import SECONDS, SIZES  # noqa: E402


def positions(size: int, count: int, seed: int) -> list[Board]:
    """``count`` seeded random boards with a quarter of the cells taken, none decided."""
    rng = random.Random(seed * 1000 + size)
    return [random_position(size, rng, size * size // 4) for _ in range(count)]


@click.command()
@click.option("--sizes", type=SIZES, default="11,13", show_default=True)
@click.option("--budgets", type=SECONDS, default="0.2,1,2", show_default=True)
@click.option("--positions", "count", default=5, show_default=True)
@click.option("--eval", "evaluation", default=Settings.evaluation, show_default=True)
@click.option("--seed", default=1, show_default=True)
@click.option("--cold", is_flag=True, help="Neither load the kernels nor build a size's "
              "tables before its first move (a fresh engine's first genmove).")
def main(sizes: list[int], budgets: list[float], count: int, evaluation: str, seed: int,
         cold: bool) -> None:
    """Print a Markdown table of time used against the budget."""
    if not cold:
        kernels.start(wait=True)
    print("| size | budget s | mean s | max s | worst overrun s | allowed s |")
    print("|---|---|---|---|---|---|")
    worst_ok = True
    for size in sizes:
        boards = positions(size, count, seed)
        for budget in budgets:
            used = []
            for board in boards:
                player = Player(Settings(evaluation=evaluation, max_time=budget))
                if not cold:
                    player.prepare(board.geo)
                start = time.monotonic()
                player.genmove(board, board.to_move, budget)
                used.append(time.monotonic() - start)
            over = max(u - budget for u in used)
            allowed = max(0.05 * budget, 0.1)
            worst_ok &= over <= allowed
            print(f"| {size}x{size} | {budget:g} | {sum(used) / len(used):.3f} | "
                  f"{max(used):.3f} | {over:+.3f} | {allowed:.2f} |")
    print(f"\nwithin the allowed overrun everywhere: {'yes' if worst_ok else 'NO'}")


if __name__ == "__main__":
    main()
