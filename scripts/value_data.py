#!/usr/bin/env python3
"""Make the value network's training data: self-play games with labelled positions.

Each job plays games of the given sizes (drawn by weight) with the circuit policy of
``hexengine.learning.selfplay`` at a temperature drawn per game, labels each position by
the solver where it proves it and by the game's result elsewhere (with
``--winning-seconds``, a position proved won for its mover also gets its winning moves:
the sibling labels of ``train_value.py --sibling-weight``), and saves its games every
``--save-every`` games to ``OUT/part-SEED-JOB.npz`` (so training can start before the end).

``--cluster tcp://HOST:PORT`` plays the same number of games (``--games`` × ``--jobs``) as
tasks of ``--save-every`` games on the workers of a Dask scheduler (the ``[cluster]``
extra, as for ``hex-match --cluster``); each task's games come back and are saved here as
``OUT/part-SEED-tTASK.npz``, and a run again with the same ``--out`` and ``--seed`` plays
only the tasks not saved yet.

    python scripts/value_data.py --games 4000 --jobs 2 --out data/value
    python scripts/value_data.py --games 4000 --jobs 8 --cluster tcp://10.0.0.5:8786 \
        --out data/value
"""
from __future__ import annotations

import multiprocessing
import os
import random
import sys
import time
from typing import Optional

import click
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.learning import selfplay  # noqa: E402
from hexengine.settings import Settings  # noqa: E402
from protocol.match import cluster  # noqa: E402
from protocol.match.runner import MatchError  # noqa: E402
from scripts.cli_types import NumberList  # noqa: E402


def parse_sizes(text: str) -> list[tuple[int, float]]:
    """'9:2,11:2,7' -> [(9, 2.0), (11, 2.0), (7, 1.0)]."""
    out = []
    for part in text.split(","):
        size, _, weight = part.partition(":")
        out.append((int(size), float(weight or 1)))
    return out


class Games:
    """What plays the games of one job or task: its policies, solver and labelling budgets."""

    def __init__(self, sizes: list[tuple[int, float]], temperatures: list[float],
                 solve_seconds: float, engine_seconds: float,
                 engine_settings: tuple[str, ...] = (), winning_seconds: float = 0.0) -> None:
        kernels.start(wait=True)
        self.sizes, self.temperatures = sizes, temperatures
        self.solve_seconds, self.winning_seconds = solve_seconds, winning_seconds
        self.solver = selfplay.new_solver()
        if engine_seconds:  # one engine for every temperature (it has none)
            engine = selfplay.engine_policy(engine_seconds, engine_settings)
            self.policies = {t: engine for t in temperatures}
        else:
            self.policies = {t: selfplay.circuit_policy(temperature=t) for t in temperatures}

    def play(self, rng: random.Random) -> selfplay.Game:
        """One labelled game, its size, temperature and random first moves drawn from
        ``rng``."""
        size = rng.choices([s for s, _ in self.sizes], [w for _, w in self.sizes])[0]
        temperature = rng.choice(self.temperatures)
        return selfplay.play_game(size, self.policies[temperature], rng,
                                  random_moves=rng.choice(selfplay.RANDOM_MOVES),
                                  solver=self.solver, solve_seconds=self.solve_seconds,
                                  winning_seconds=self.winning_seconds)


def run_job(job: int, games: int, sizes: list[tuple[int, float]], seed: int, out: str,
            temperatures: list[float], solve_seconds: float, save_every: int,
            engine_seconds: float, engine_settings: tuple[str, ...] = (),
            winning_seconds: float = 0.0) -> int:
    """Job ``job``: play ``games`` games, saving them every ``save_every`` to its part
    file; returns how many it played."""
    player = Games(sizes, temperatures, solve_seconds, engine_seconds, engine_settings,
                   winning_seconds)
    rng = random.Random(seed * 1000 + job)
    played: list[selfplay.Game] = []
    path = os.path.join(out, f"part-{seed}-{job}.npz")
    started = time.monotonic()
    for i in range(games):
        played.append(player.play(rng))
        if (i + 1) % save_every == 0 or i + 1 == games:
            save_part(path, selfplay.to_arrays(played))
            positions = sum(len(g.cells) for g in played)
            print(f"job {job}: {i + 1} games, {positions} positions, "
                  f"{time.monotonic() - started:.0f} s", flush=True)
    return len(played)


def play_task(task: int, games: int, sizes: list[tuple[int, float]], seed: int,
              temperatures: list[float], solve_seconds: float, engine_seconds: float,
              engine_settings: tuple[str, ...] = (), winning_seconds: float = 0.0
              ) -> tuple[dict, str]:
    """A cluster task: ``games`` games with a seed of their own (the run's ``seed`` and
    ``task``); their arrays and the name of the worker that played them."""
    player = Games(sizes, temperatures, solve_seconds, engine_seconds, engine_settings,
                   winning_seconds)
    rng = random.Random(f"{seed}-task-{task}")
    played = [player.play(rng) for _ in range(games)]
    return selfplay.to_arrays(played), cluster.worker_name() or "?"


def task_path(out: str, seed: int, task: int) -> str:
    return os.path.join(out, f"part-{seed}-t{task}.npz")


def save_part(path: str, arrays: dict) -> None:
    """Write a part file whole or not at all (training may read the folder meanwhile)."""
    np.savez_compressed(path + ".tmp.npz", **arrays)
    os.replace(path + ".tmp.npz", path)


def on_cluster(address: str, timeout: float, total: int, per_task: int, seed: int,
               out: str, options: dict) -> None:
    """``total`` games as tasks of ``per_task`` on the Dask scheduler at ``address``, each
    task's games saved as it comes back; the tasks already saved under ``out`` are not
    played again."""
    counts = [min(per_task, total - start) for start in range(0, total, per_task)]
    todo = [t for t in range(len(counts)) if not os.path.exists(task_path(out, seed, t))]
    if len(todo) < len(counts):
        click.echo(f"{len(counts) - len(todo)} of {len(counts)} tasks saved before")
    try:
        client = cluster.connect(address, timeout)
    except MatchError as exc:
        raise click.ClickException(str(exc)) from None
    by_worker: dict[str, int] = {}
    failed: list[str] = []
    played = 0
    started = time.monotonic()
    try:
        futures = {client.submit(play_task, t, counts[t], seed=seed, pure=False, **options): t
                   for t in todo}
        for future, why in cluster.finished(futures):
            task = futures[future]
            if why is not None:
                failed.append(f"task {task}: {why}")
                click.echo(f"task {task} failed: {why}", err=True)
                continue
            arrays, worker = future.result()
            save_part(task_path(out, seed, task), arrays)
            by_worker[worker] = by_worker.get(worker, 0) + counts[task]
            played += counts[task]
            click.echo(f"task {task} on {worker}: {counts[task]} games, "
                       f"{len(arrays['game'])} positions, {time.monotonic() - started:.0f} s")
    finally:
        cluster.closing(client)
    click.echo(f"{played} games in {out}")
    click.echo(f"workers: {len(by_worker)} (" + ", ".join(
        f"{w} {n}" for w, n in sorted(by_worker.items())) + ")")
    if failed:
        raise click.ClickException(f"{len(failed)} tasks failed (run again to play them): "
                                   + "; ".join(failed))


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
@click.option("--cluster", "cluster_address", default=None, metavar="tcp://HOST:PORT",
              help="Play the games as tasks of --save-every games on this Dask scheduler's "
                   "workers (pip install 'hexengine[cluster]'), --games x --jobs in all.")
@click.option("--connect-timeout", type=float, default=30.0, show_default=True,
              help="Seconds to wait for the scheduler and a worker.")
def main(games: int, jobs: int, sizes: str, temps: list[float], solve_seconds: float,
         engine_seconds: float, engine_set: tuple[str, ...], winning_seconds: float, seed: int,
         save_every: int, out: str, cluster_address: Optional[str],
         connect_timeout: float) -> None:
    """Play and label self-play games in ``jobs`` processes (or on a Dask cluster)."""
    if engine_set and not engine_seconds:
        raise click.BadParameter("engine settings need --engine-seconds (the circuit policy "
                                 "has none)", param_hint="--engine-set")
    try:
        Settings().with_texts(engine_set)  # (refused here, before any game)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--engine-set") from None
    os.makedirs(out, exist_ok=True)
    size_weights = parse_sizes(sizes)
    if cluster_address:
        on_cluster(cluster_address, connect_timeout, games * jobs, save_every, seed, out,
                   dict(sizes=size_weights, temperatures=temps, solve_seconds=solve_seconds,
                        engine_seconds=engine_seconds, engine_settings=engine_set,
                        winning_seconds=winning_seconds))
        return
    args = [(job, games, size_weights, seed, out, temps, solve_seconds, save_every,
             engine_seconds, engine_set, winning_seconds) for job in range(jobs)]
    with multiprocessing.Pool(jobs) as pool:
        done = pool.starmap(run_job, args)
    click.echo(f"{sum(done)} games in {out}")


if __name__ == "__main__":
    main()
