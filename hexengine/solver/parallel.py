"""The solver on several cores: the root's moves shared out among worker processes.

Python threads would share one interpreter, so each worker is a process forked from the
engine: it starts with a copy of the solver (its table and knowledge), solves the root
restricted to its share of the moves (``Solver.solve(moves=...)``), and sends back its
verdict and the positions it proved.  The root's moves are dealt out best-first in turn,
so each share holds some of the likeliest moves.

- A share that holds a winning move proves the root won: the other workers stop.
- When every share loses, the root is lost; its proof is the union of theirs (each holds
  the proofs of its own moves and the cells that justify leaving out the rest).
- Otherwise (time, or the stop flag) the root stays unknown.

The proved positions of every worker are merged into the engine's solver, so that later
questions (the PV, the next move's solve) find them.  Where ``fork`` is not available,
or the root has fewer than two moves to share, the solver runs alone.
"""
from __future__ import annotations

import multiprocessing
import threading
import time
from multiprocessing.connection import Connection, wait
from typing import Callable, Optional

from ..geometry import Geometry
from .dfpn import Solver, SolveResult
from .knowledge import LOSS

POLL = 0.02  # seconds between looks at the stop flag while the workers run


def solve(solver: Solver, geo: Geometry, stones: list[int], colour: int,
          seconds: Optional[float] = None, stop: Optional[threading.Event] = None,
          progress: Optional[Callable[[dict], None]] = None,
          threads: int = 1) -> SolveResult:
    """``solver.solve`` on ``threads`` processes (1: in this one)."""
    started = time.monotonic()
    if threads <= 1 or "fork" not in multiprocessing.get_all_start_methods():
        return solver.solve(geo, stones, colour, seconds, stop, progress)
    # decided at sight or already in the table: no workers needed
    known = solver.solve(geo, stones, colour, 0.0)
    if known.solved:
        known.elapsed = time.monotonic() - started
        return known
    status, _, _, children, _ = solver.knowledge.expand(geo, list(stones), colour)
    if status or len(children) < 2 or any(c[1] == LOSS for c in children):
        return solver.solve(geo, stones, colour, seconds, stop, progress)
    shares = [0] * min(threads, len(children))
    for i, child in enumerate(children):
        shares[i % len(shares)] |= 1 << child[0]
    left = None if seconds is None else max(0.0, seconds - (time.monotonic() - started))
    results = _run(solver, geo, stones, colour, shares, left, stop)
    result = _combine(colour, results)
    for answer in results:
        if answer is not None:
            solver.merge(answer[5])
    solver.record(geo, stones, colour, result)
    if result.solved and result.winner == colour and not result.pv:
        result.pv = [result.move]
    result.elapsed = time.monotonic() - started
    return result


def _run(solver: Solver, geo: Geometry, stones: list[int], colour: int, shares: list[int],
         seconds: Optional[float], stop: Optional[threading.Event]) -> list:
    """Each share solved in a forked worker; a worker's answer, or None where it did not
    answer (stopped once another share won, or by ``stop``)."""
    context = multiprocessing.get_context("fork")
    workers, pipes = [], []
    for share in shares:
        receive, send = context.Pipe(duplex=False)
        worker = context.Process(target=_work, daemon=True,
                                 args=(solver, geo, stones, colour, share, seconds, send))
        worker.start()
        send.close()
        workers.append(worker)
        pipes.append(receive)
    answers: list = [None] * len(shares)
    waiting = dict(zip(pipes, range(len(shares))))
    try:
        while waiting:
            if stop is not None and stop.is_set():
                break
            for pipe in wait(list(waiting), timeout=POLL):
                i = waiting.pop(pipe)
                try:
                    answers[i] = pipe.recv()
                except EOFError:  # the worker died without answering
                    continue
                if answers[i][0] == colour:  # a winning move: the root is won
                    waiting.clear()
                    break
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.terminate()
        for worker, pipe in zip(workers, pipes):
            worker.join()
            pipe.close()
    return answers


def _work(solver: Solver, geo: Geometry, stones: list[int], colour: int, share: int,
          seconds: Optional[float], send: Connection) -> None:
    """A worker: solve the root restricted to ``share``; send (winner, move, proof, nodes,
    pv, proved positions)."""
    before = dict(solver.tt)  # (the engine's solver has these already)
    result = solver.solve(geo, stones, colour, seconds, moves=share)
    found = {k: e for k, e in solver.proved_entries().items() if before.get(k) is not e}
    send.send((result.winner, result.move, result.proof, result.nodes, result.pv, found))
    send.close()


def _combine(colour: int, answers: list) -> SolveResult:
    """The root's result from the shares' answers (see the module's text)."""
    result = SolveResult(colour, searched=True)
    result.nodes = sum(a[3] for a in answers if a is not None)
    for answer in answers:
        if answer is not None and answer[0] == colour:
            result.winner, result.move, result.proof, _, result.pv, _ = answer
            return result
    if answers and all(a is not None and a[0] == 1 - colour for a in answers):
        result.winner = 1 - colour
        for answer in answers:
            result.proof |= answer[2]
        # the most stubborn move: the one of the share whose refutation needs most cells
        stubborn = max(answers, key=lambda a: a[2].bit_count())
        result.move = stubborn[1]
        result.pv = stubborn[4]
        return result
    result.searched = False
    return result
