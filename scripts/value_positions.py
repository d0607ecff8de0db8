#!/usr/bin/env python3
"""Write a file of solver-proved positions for checking the value network (JSON).

The games are self-play games as in ``scripts/value_data.py`` but from their own seed, so
none is in the training data.  From each game the earliest position the solver proved is
taken (the hardest it could prove), and one more drawn among the later proved ones, until
each size has as many positions the side to move wins as it loses (so that always
answering "the mover wins" scores one half).

    python scripts/value_positions.py --sizes 7,8,9 --per-size 30 --out tests/data/value_positions.json

With ``--judge CMD`` the positions are drawn at a random ply in ``--plies`` instead and
labelled by another HTP engine's ``dfpn-solve-state`` (e.g. Wolve's, with ``--judge-init
"param_dfpn timelimit 10"``); those it does not prove are skipped.
"""
from __future__ import annotations

import json
import os
import random
import sys
from typing import Optional

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.learning import selfplay  # noqa: E402
from hexengine.learning.cases import board_of, case_of  # noqa: E402
from protocol.match.judge import DfpnJudge  # noqa: E402
from scripts.cli_types import SIZES, NumberList  # noqa: E402


def mover_wins(judge: DfpnJudge, game: selfplay.Game, i: int,
               seconds: float) -> Optional[bool]:
    """Whether the mover of ``game``'s position ``i`` wins by the judge (None: not proved)."""
    board, to_move, _ = board_of(case(game, i))
    board.to_move = to_move
    winner = judge.winner(board, seconds * 3 + 30)
    return None if winner is None else winner == to_move


def case(game: selfplay.Game, i: int) -> dict:
    """Position ``i`` of ``game`` as a case, labelled by the game's label there."""
    return case_of(game.size, game.cells[i], game.movers[i], game.labels[i] > 0)


@click.command()
@click.option("--sizes", type=SIZES, default="7,8,9", show_default=True)
@click.option("--per-size", type=int, default=30, show_default=True)
@click.option("--seed", type=int, default=20261125, show_default=True)
@click.option("--solve-seconds", type=float, default=1.0, show_default=True)
@click.option("--judge", default="", help="Label with this HTP engine's dfpn-solve-state.")
@click.option("--judge-init", multiple=True, help="Commands the judge gets first.")
@click.option("--plies", type=NumberList(int, minimum=0, count=2), default="15,50",
              show_default=True,
              help="With --judge: the range of plies a position is drawn from.")
@click.option("--out", required=True)
def main(sizes: list[int], per_size: int, seed: int, solve_seconds: float, judge: str,
         judge_init: tuple[str, ...], plies: list[int], out: str) -> None:
    """Play games until each size has ``per_size`` proved positions, and write them."""
    kernels.start(wait=True)
    referee = DfpnJudge(judge, list(judge_init)) if judge else None
    lo, hi = plies
    rng = random.Random(seed)
    solver = selfplay.new_solver()
    policy = selfplay.circuit_policy(temperature=0.2)
    cases = []
    for size in sizes:
        picked: dict[bool, list[dict]] = {True: [], False: []}
        half = per_size // 2
        while min(len(p) for p in picked.values()) < half:
            game = selfplay.play_game(size, policy, rng, random_moves=2,
                                      solver=None if referee else solver,
                                      solve_seconds=solve_seconds)
            if referee is not None:
                if len(game.cells) <= lo:
                    continue
                i = rng.randint(lo, min(hi, len(game.cells) - 1))
                wins = mover_wins(referee, game, i, solve_seconds)
                if wins is not None and len(picked[wins]) < half:
                    game.labels[i] = 1.0 if wins else -1.0
                    picked[wins].append(case(game, i))
                    click.echo(f"{size}x{size}: {len(picked[True])} + {len(picked[False])}",
                               err=True)
                continue
            proved = [i for i, sure in enumerate(game.proved) if sure]
            for i in proved[:1] + ([rng.choice(proved[1:])] if len(proved) > 1 else []):
                wins = game.labels[i] > 0
                if len(picked[wins]) < half:
                    picked[wins].append(case(game, i))
        cases += picked[True] + picked[False]
    with open(out, "w") as f:
        json.dump(cases, f, indent=0)
    click.echo(f"{len(cases)} positions in {out}")


if __name__ == "__main__":
    main()
