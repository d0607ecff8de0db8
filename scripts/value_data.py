#!/usr/bin/env python3
"""Make the value network's training data: self-play games with labelled positions.

Each job plays games of the given sizes (drawn by weight) with the circuit policy of
``hexengine.learning.selfplay`` at a temperature drawn per game, labels each position by
the solver where it proves it and by the game's result elsewhere (with
``--winning-seconds``, a position proved won for its mover also gets its winning moves:
the sibling labels of ``train_value.py --sibling-weight``), and saves its games every
``--save-every`` games to ``OUT/part-SEED-JOB.npz`` (so training can start before the end).

    python scripts/value_data.py --games 4000 --jobs 2 --out data/value
"""
from __future__ import annotations

import multiprocessing
import os
import random
import sys
import time

import click
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.learning import selfplay  # noqa: E402
from hexengine.settings import Settings  # noqa: E402
from scripts.cli_types import NumberList  # noqa: E402


def parse_sizes(text: str) -> list[tuple[int, float]]:
    """'9:2,11:2,7' -> [(9, 2.0), (11, 2.0), (7, 1.0)]."""
    out = []
    for part in text.split(","):
        size, _, weight = part.partition(":")
        out.append((int(size), float(weight or 1)))
    return out


def run_job(job: int, games: int, sizes: list[tuple[int, float]], seed: int, out: str,
            temperatures: list[float], solve_seconds: float, save_every: int,
            engine_seconds: float, engine_settings: tuple[str, ...] = (),
            winning_seconds: float = 0.0) -> int:
    kernels.start(wait=True)
    rng = random.Random(seed * 1000 + job)
    solver = selfplay.new_solver()
    if engine_seconds:  # one engine for every temperature (it has none)
        engine = selfplay.engine_policy(engine_seconds, engine_settings)
        policies = {t: engine for t in temperatures}
    else:
        policies = {t: selfplay.circuit_policy(temperature=t) for t in temperatures}
    played: list[selfplay.Game] = []
    path = os.path.join(out, f"part-{seed}-{job}.npz")
    started = time.monotonic()
    for i in range(games):
        size = rng.choices([s for s, _ in sizes], [w for _, w in sizes])[0]
        temperature = rng.choice(temperatures)
        played.append(selfplay.play_game(size, policies[temperature], rng,
                                         random_moves=rng.choice(selfplay.RANDOM_MOVES),
                                         solver=solver, solve_seconds=solve_seconds,
                                         winning_seconds=winning_seconds))
        if (i + 1) % save_every == 0 or i + 1 == games:
            np.savez_compressed(path + ".tmp.npz", **selfplay.to_arrays(played))
            os.replace(path + ".tmp.npz", path)
            positions = sum(len(g.cells) for g in played)
            print(f"job {job}: {i + 1} games, {positions} positions, "
                  f"{time.monotonic() - started:.0f} s", flush=True)
    return len(played)


@click.command()
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True,
              help="Games per job.")
@click.option("--jobs", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--sizes", default="7:1,8:1,9:3,10:1,11:3,13:1", show_default=True,
              help="Board sizes with their weights.")
@click.option("--temperatures", "temps", type=NumberList(float, minimum=0.0),
              default="0.1,0.2,0.4", show_default=True,
              help="The policy's softmax temperatures (one drawn per game).")
@click.option("--solve-seconds", type=float, default=0.2, show_default=True,
              help="The solver's budget for each position.")
@click.option("--engine-seconds", type=float, default=0.0, show_default=True,
              help="Play the games with the engine's own genmove at this many seconds a "
                   "move (after the random opening moves) instead of the circuit policy.")
@click.option("--engine-set", "engine_set", multiple=True, metavar="NAME=VALUE",
              help="A setting of the engine's player, as param_hexengine takes it (e.g. "
                   "evaluation=net-graph: games of the network's own search).")
@click.option("--winning-seconds", type=click.FloatRange(min=0), default=0.0,
              show_default=True,
              help="Find the winning moves of each position proved won for its mover "
                   "within this many seconds (0: not at all).")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--save-every", type=click.IntRange(min=1), default=50, show_default=True)
@click.option("--out", type=click.Path(file_okay=False), required=True)
def main(games: int, jobs: int, sizes: str, temps: list[float], solve_seconds: float,
         engine_seconds: float, engine_set: tuple[str, ...], winning_seconds: float, seed: int,
         save_every: int, out: str) -> None:
    """Play and label self-play games in ``jobs`` processes."""
    if engine_set and not engine_seconds:
        raise click.BadParameter("engine settings need --engine-seconds (the circuit policy "
                                 "has none)", param_hint="--engine-set")
    try:
        Settings().with_texts(engine_set)  # (refused here, before any game)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--engine-set") from None
    os.makedirs(out, exist_ok=True)
    size_weights = parse_sizes(sizes)
    args = [(job, games, size_weights, seed, out, temps, solve_seconds, save_every,
             engine_seconds, engine_set, winning_seconds) for job in range(jobs)]
    with multiprocessing.Pool(jobs) as pool:
        done = pool.starmap(run_job, args)
    click.echo(f"{sum(done)} games in {out}")


if __name__ == "__main__":
    main()
