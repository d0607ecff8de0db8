"""What a cluster worker runs for ``hex-match --cluster``: one game, with the engines started
on the worker by the match's own commands.

Each worker thread keeps its engine processes from game to game, as a local worker thread
does, and restarts an engine after it failed.  The game is refereed here as it would be
locally; the runner checks the record again when it comes back (``verify.py``).  This module
imports Dask only to read the run's stop flag, so it loads wherever the package does.
"""
from __future__ import annotations

import threading
import time
from typing import Optional

from .controller import EngineError, start_engine
from .referee import GameSpec, Referee
from .runner import EnginePool, MatchConfig

STOP_POLL = 1.0  # seconds between two looks at the run's stop flag
_local = threading.local()


def _players(config: MatchConfig) -> tuple[EnginePool, Referee]:
    """This thread's engines and referee for ``config``'s engines and rules."""
    key = (tuple(config.engines.items()),
           tuple((name, tuple(lines)) for name, lines in sorted(config.init.items())),
           config.rules)
    held = getattr(_local, "held", None)
    if held is None or held[0] != key:
        if held is not None:
            held[1].close_all()
        pool = EnginePool(config, None, threading.get_ident())
        held = (key, pool, Referee(config.rules, pool.get, pool.discard))
        _local.held = held
    return held[1], held[2]


class StopFlag:
    """``should_stop`` for the referee: the run's Dask Event, read at most once a second.
    A worker that can no longer reach the scheduler stops too (nobody waits for the game)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.stopped = False
        self._next = 0.0
        self._event = None

    def __call__(self) -> bool:
        if self.stopped or time.monotonic() < self._next:
            return self.stopped
        self._next = time.monotonic() + STOP_POLL
        try:
            from distributed import Event
            if self._event is None:
                self._event = Event(self.name)
            self.stopped = bool(self._event.is_set())
        except (OSError, TimeoutError):
            self.stopped = True
        return self.stopped


def play(config: MatchConfig, spec: GameSpec, stop_name: str) -> Optional[dict]:
    """Play ``spec`` and return its results.jsonl object, or None when the run stopped."""
    pool, referee = _players(config)
    result = referee.play(spec, StopFlag(stop_name))
    if result is None:
        pool.close_all()  # abandoned mid-game: the engines hold a half-played position
        return None
    return result.to_json()


def preflight(config: MatchConfig) -> dict[str, str]:
    """Start each engine once on this worker: engine name -> why it does not start."""
    failed = {}
    for name, command in config.engines.items():
        try:
            start_engine(command, name, config.init.get(name, []),
                         config.rules.startup_timeout).close()
        except EngineError as exc:
            failed[name] = f"{command}: {exc}"
    return failed
