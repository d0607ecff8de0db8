#!/usr/bin/env python3
"""How soon ``genmove`` answers after ``# interrupt``, on a warm or a cold kernel cache.

Each trial starts a fresh engine of this checkout (``python -m hexengine --time 60``), sets
up a 13x13 opening, sends ``genmove w`` and, ``--after`` seconds later, ``# interrupt``,
then times the reply.  With ``--cold`` each engine gets an empty numba cache
(``NUMBA_CACHE_DIR`` a new temporary folder), as on a fresh install, so its compiled kernels
are being compiled while it searches:

    python scripts/interrupt_latency.py --cold --after 1.5 --after 5 --after 15
    python scripts/interrupt_latency.py --after 1.5 --repeat 3

Exit status 1 when any reply came later than ``--limit`` seconds after its interrupt.
"""
from __future__ import annotations

import os
import shlex
import shutil
import sys
import tempfile
import time

import click

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from protocol.match.controller import EngineProcess  # noqa: E402

SETUP = ["boardsize 13 13", "play b g7", "play w f8", "play b e9"]


def trial(after: float, cold: bool) -> tuple[float, str]:
    """One fresh engine: (seconds from ``# interrupt`` to the reply, the reply)."""
    cache = tempfile.mkdtemp(prefix="numba-cache-") if cold else None
    env = [f"PYTHONPATH={ROOT}"] + ([f"NUMBA_CACHE_DIR={cache}"] if cache else [])
    engine = EngineProcess(shlex.join(["env", *env, sys.executable, "-m", "hexengine",
                                       "--time", "60", "--quiet"]), "timed")
    try:
        for line in SETUP:
            engine.ok(line, 60)
        engine.write("genmove w")
        time.sleep(after)
        engine.write("# interrupt")
        sent = time.monotonic()
        reply = engine.read_reply(120)[0]
        late = time.monotonic() - sent
        engine.close()
        return late, reply
    finally:
        engine.kill()
        if cache:
            shutil.rmtree(cache, ignore_errors=True)


@click.command()
@click.option("--after", type=float, multiple=True, default=(1.5,), show_default=True,
              help="Seconds into genmove to interrupt (repeatable).")
@click.option("--cold", is_flag=True, help="An empty numba cache for each engine.")
@click.option("--repeat", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--limit", type=float, default=0.5, show_default=True,
              help="Seconds after the interrupt within which the reply must come.")
def main(after: tuple[float, ...], cold: bool, repeat: int, limit: float) -> None:
    """Time genmove's answer to # interrupt in fresh engines."""
    print(f"{'cold' if cold else 'warm'} kernel cache, 13x13, genmove w interrupted")
    print("| interrupt after s | answer | seconds after # interrupt |")
    print("|---|---|---|")
    worst = 0.0
    for seconds in after:
        for _ in range(repeat):
            late, reply = trial(seconds, cold)
            worst = max(worst, late)
            print(f"| {seconds:g} | `{reply}` | {late:.2f} |", flush=True)
    print(f"slowest: {worst:.2f} s ({'within' if worst <= limit else 'over'} {limit:g} s)")
    sys.exit(0 if worst <= limit else 1)


if __name__ == "__main__":
    main()
