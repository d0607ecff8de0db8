"""The solver on several cores: worker processes that search one root together.

Python threads would share one interpreter, so each worker is a process forked from the
engine, starting with a copy of its solver (table and knowledge), and every worker solves
the whole root.  Two things keep them from doing the same work, after SPDFPN (Pawlewicz
and Hayward, "Scalable parallel DFPN search"), whose threads share one table:

- **Busy marks** (``dfpn.BusyMarks``): each worker writes the positions on its current
  path into its own row of memory the workers share.  Choosing a child, a worker counts
  one that another worker is inside as harder (its proof number times one plus a quarter
  for each worker inside, or plus four where the node looks lost for its mover and every
  child must be refuted anyway), so it goes into the next most promising child instead
  where that one is nearly as promising, at the root or deep in the tree, wherever the
  two paths would meet.
- **Traded entries**: every 0.02 s each worker sends every entry it stored since, proofs
  and the proof and disproof numbers of open positions, and takes in the others' (through
  this process, which relays them): a proof always, an open entry unless its own holds a
  proof or more work.  A subtree another worker opened is thus continued where it stands,
  and a proof found by one prunes the others' nodes as their own would.  (Every 0.1 s,
  the workers searched a fifth more positions than one process alone; every 0.02 s, an
  eighth.)

The first worker to decide the root decides it; otherwise (time, or the stop flag) the root
stays unknown.  ``solve`` waits for the workers; ``Beside`` leaves them solving while this
process goes on with the search (genmove with more than one thread).  The solver first
tries alone for 0.3 s, which settles most positions without a fork.  Everything the
workers stored and sent is merged into the engine's solver, so that later questions (the
PV, the next move's solve) find it.  Where ``fork`` is not available, or the root has
fewer than two moves, the solver runs alone.
"""
from __future__ import annotations

import mmap
import multiprocessing
import os
import queue
import sys
import threading
import time
from multiprocessing.connection import Connection, wait
from typing import Callable, Optional

from .. import kernels
from ..geometry import Geometry
from .dfpn import BusyMarks, Solver, SolveResult
from .knowledge import LOSS

POLL = 0.02  # seconds between looks at the stop flag while the workers run
GRACE = 1.0  # seconds past the time limit before the workers are ended regardless
SERIAL_FIRST = 0.3  # seconds the solver tries alone before the workers start
BESIDE_FIRST = 0.05  # the same for a solve beside other work (which waits for it)
TRADE_EVERY = 0.02  # seconds between a worker's trades of entries with the others
# a lone worker (beside the search) trades only for this process's table, which a thread
# of the search's process merges: less often
LONE_TRADE_EVERY = 0.1


def solve(solver: Solver, geo: Geometry, stones: list[int], colour: int,
          seconds: Optional[float] = None, stop: Optional[threading.Event] = None,
          progress: Optional[Callable[[dict], None]] = None,
          threads: int = 1) -> SolveResult:
    """``solver.solve`` on ``threads`` processes (1: in this one).  ``progress`` hears
    from the first, lone part only."""
    started = time.monotonic()
    if threads <= 1 or not can_fork():
        return solver.solve(geo, stones, colour, seconds, stop, progress)
    # most positions are decided at sight, in the table or in a few hundred nodes: alone
    # first (the workers then start from its table)
    first = SERIAL_FIRST if seconds is None else min(SERIAL_FIRST, seconds)
    known = solver.solve(geo, stones, colour, first, stop, progress)
    if known.solved or (stop is not None and stop.is_set()) or (
            seconds is not None and time.monotonic() - started >= seconds):
        known.elapsed = time.monotonic() - started
        return known
    left = None if seconds is None else max(0.0, seconds - (time.monotonic() - started))
    if not _open_root(solver, geo, stones, colour, 2):
        alone = solver.solve(geo, stones, colour, left, stop, progress)
        alone.elapsed = time.monotonic() - started
        return alone
    answers = _run(solver, geo, stones, colour, threads, left, stop)
    return _merged(solver, geo, stones, colour, answers, known, started)


def _open_root(solver: Solver, geo: Geometry, stones: list[int], colour: int,
               moves: int) -> bool:
    """After the lone try: whether the root is worth workers, its knowledge (kept by the
    try) deciding nothing, at least ``moves`` moves to search and none that wins at once
    (the lone search finds that one)."""
    status, _, _, children, _ = solver.expansion(geo, stones, colour)
    return not status and len(children) >= moves and not any(c[1] == LOSS for c in children)


def _merged(solver: Solver, geo: Geometry, stones: list[int], colour: int, answers: list,
            known: SolveResult, started: float) -> SolveResult:
    """The root's result from the workers' answers and the lone try before them, kept in
    ``solver``'s table (where their entries are merged already), with the proof's line
    through that table when it reaches further than the worker's."""
    result = _combine(colour, answers)
    result.nodes += known.nodes
    solver.record(geo, stones, colour, result)
    if result.solved:
        line = solver.pv(geo, stones, colour)
        if len(line) > len(result.pv):
            result.pv = line
    result.elapsed = time.monotonic() - started
    return result


class Beside:
    """The root solved on ``workers`` forked processes while this one goes on with other
    work, the search (MoHex's use of its other cores): a short try here first (the table
    or the knowledge may decide it at once), then the workers, relayed by a thread of this
    process.  ``halt`` is set once the root is decided or ``stop`` is, so the other work
    can stop on it; ``result()`` ends the workers and gives what they proved, merged into
    ``solver`` as ``solve`` merges it."""

    def __init__(self, solver: Solver, geo: Geometry, stones: list[int], colour: int,
                 workers: int, seconds: float, stop: Optional[threading.Event] = None) -> None:
        self.started = time.monotonic()
        self.solver, self.geo, self.stones, self.colour = solver, geo, list(stones), colour
        self.halt = _Halt(stop)
        self._ending = threading.Event()
        self._group: Optional[_Workers] = None
        self._thread: Optional[threading.Thread] = None
        self._known = solver.solve(geo, self.stones, colour, min(BESIDE_FIRST, seconds), stop)
        if (self._known.solved or self.halt.is_set()
                or not _open_root(solver, geo, self.stones, colour, 1)):
            self.halt.set()
            return
        left = max(0.0, seconds - (time.monotonic() - self.started))
        self._group = _Workers(solver, geo, self.stones, colour, workers, left)
        self._thread = threading.Thread(target=self._relay, daemon=True)
        self._thread.start()

    def _relay(self) -> None:
        if self._group.relay(lambda: self._ending.is_set() or self.halt.is_set()):
            self.halt.set()

    def result(self) -> SolveResult:
        """The solve's result (``winner`` None unless proved), its workers ended."""
        if self._group is None:
            return self._known
        self._ending.set()
        self._thread.join()
        self._group.close()
        return _merged(self.solver, self.geo, self.stones, self.colour, self._group.answers,
                       self._known, self.started)


class _Halt(threading.Event):
    """An event that also counts as set once ``outer`` is."""

    def __init__(self, outer: Optional[threading.Event]) -> None:
        super().__init__()
        self.outer = outer

    def is_set(self) -> bool:
        return super().is_set() or (self.outer is not None and self.outer.is_set())


def can_fork() -> bool:
    """Whether workers can be forked here: the platform has fork, this process may have
    children (a daemon, such as a Dask worker under its nanny, may not), and the compiled
    kernels are loaded (no loader thread holds a lock a fork would copy)."""
    return ("fork" in multiprocessing.get_all_start_methods()
            and not multiprocessing.current_process().daemon
            and kernels.wait(0.0))


def _run(solver: Solver, geo: Geometry, stones: list[int], colour: int, workers: int,
         seconds: Optional[float], stop: Optional[threading.Event]) -> list:
    """The root solved by ``workers`` forked workers, their entries relayed between them
    and merged into ``solver``; each worker's answer, or for one stopped before it gave
    one (the root decided by another, ``stop``, or GRACE seconds past ``seconds``) no
    verdict with the nodes it last reported, or None where it reported none."""
    group = _Workers(solver, geo, stones, colour, workers, seconds)
    try:
        group.relay(lambda: stop is not None and stop.is_set())
    finally:
        group.close()
    return group.answers


class _Workers:
    """``workers`` processes forked to solve one root, and this process's side of them:
    the relay of their entries (each merged into ``solver`` and passed to the others) and
    their answers."""

    def __init__(self, solver: Solver, geo: Geometry, stones: list[int], colour: int,
                 workers: int, seconds: Optional[float]) -> None:
        context = multiprocessing.get_context("fork")
        self.solver = solver
        self.deadline = None if seconds is None else time.monotonic() + seconds + GRACE
        self.processes: list = []
        self.pipes: list[Connection] = []
        self.senders: list[threading.Thread] = []
        self.outboxes: list[queue.SimpleQueue] = []
        self.answers: list = [None] * workers
        self.counts = [0] * workers  # each worker's nodes, as it last reported them
        self.rows = BusyMarks.shared(workers)
        try:
            for index in range(workers):
                mine, theirs = context.Pipe()
                self.pipes.append(mine)
                process = context.Process(target=_work, daemon=True, args=(
                    solver, geo, stones, colour, seconds, theirs, list(self.pipes),
                    self.rows, index, workers))
                process.start()
                theirs.close()
                self.processes.append(process)
            # a sender thread per worker, so that the relay never waits on a full pipe
            for pipe in self.pipes:
                self.outboxes.append(queue.SimpleQueue())
                self.senders.append(threading.Thread(
                    target=_send_all, args=(pipe, self.outboxes[-1]), daemon=True))
                self.senders[-1].start()
        except BaseException:
            self.close()
            raise

    def relay(self, stopped: Callable[[], bool]) -> bool:
        """Relay until a worker decides the root (True), every worker has answered or
        died, ``stopped()`` or the deadline (False)."""
        pipes, outboxes = self.pipes, self.outboxes
        waiting = dict(zip(pipes, range(len(pipes))))
        while waiting:
            if stopped() or (self.deadline is not None and time.monotonic() > self.deadline):
                return False
            for pipe in wait(list(waiting), timeout=POLL):
                i = waiting[pipe]
                try:
                    kind, body = pipe.recv()
                except (EOFError, OSError):  # the worker died without answering
                    del waiting[pipe]
                    continue
                if kind == "nodes":
                    self.counts[i] = body
                    continue
                if kind == "stored":
                    self.solver.merge(body)
                    for j, box in enumerate(outboxes):
                        if j != i and pipes[j] in waiting:
                            box.put(body)
                    continue
                del waiting[pipe]
                self.answers[i] = body
                if body[0] is not None:
                    return True  # the root is decided
        return False

    def close(self) -> None:
        """End the workers and the senders; a worker stopped before it answered counts with
        the nodes it last reported."""
        for process in self.processes:
            if process.is_alive():
                process.terminate()
        for process in self.processes:
            process.join()
        for box in self.outboxes:
            box.put(None)
        for sender in self.senders:
            sender.join(1.0)
        for pipe in self.pipes:
            pipe.close()
        self.rows.close()
        for i, answer in enumerate(self.answers):
            if answer is None and self.counts[i]:  # (stopped: its nodes count as searched)
                self.answers[i] = (None, -1, 0, self.counts[i], [])


def _send_all(pipe: Connection, box: "queue.SimpleQueue") -> None:
    """Send what comes into ``box`` down ``pipe`` until None comes (or the pipe breaks)."""
    while True:
        body = box.get()
        if body is None:
            return
        try:
            pipe.send(("stored", body))
        except (OSError, ValueError, TypeError):  # (the worker or the pipe is gone)
            return


def _work(solver: Solver, geo: Geometry, stones: list[int], colour: int,
          seconds: Optional[float], pipe: Connection, engine_ends: list[Connection],
          rows: mmap.mmap, index: int, workers: int) -> None:
    """Worker ``index`` of ``workers``: solve the root, marking its path in its row of
    ``rows`` and trading entries through ``pipe``; last send ("done", (winner, move,
    proof, nodes, pv)).  It ends when the engine does."""
    # a fork's copy of the engine's streams may hold unwritten output, which the exit
    # would write a second time; the worker itself writes nothing
    sys.stdout = sys.stderr = open(os.devnull, "w")
    for end in engine_ends:  # (held open here, they would keep a dead engine's pipes up)
        end.close()
    engine = os.getppid()
    solver.journal = {}
    solver.exchange_every = TRADE_EVERY if workers > 1 else LONE_TRADE_EVERY
    solver.busy = BusyMarks(memoryview(rows).cast("Q"), index, workers)

    def exchange() -> None:
        if os.getppid() != engine:  # the engine is gone
            os._exit(0)
        while pipe.poll():  # (read first: the relay may be waiting to send)
            _, body = pipe.recv()
            solver.merge(body)
        if solver.journal:
            pipe.send(("stored", solver.journal))
            solver.journal = {}
        pipe.send(("nodes", solver.nodes))

    solver.exchange = exchange
    result = solver.solve(geo, stones, colour, seconds)
    if solver.journal:
        pipe.send(("stored", solver.journal))
    pipe.send(("done", (result.winner, result.move, result.proof, result.nodes, result.pv)))
    pipe.close()


def _combine(colour: int, answers: list) -> SolveResult:
    """The root's result from the workers' answers: the first that decided it."""
    result = SolveResult(colour, searched=True)
    result.nodes = sum(a[3] for a in answers if a is not None)
    for answer in answers:
        if answer is not None and answer[0] is not None:
            result.winner, result.move, result.proof, _, result.pv = answer
            return result
    result.searched = False
    return result
