"""Judging forfeits with another engine's solver: was the engine that failed to move lost?

Wolve and MoHex crash or refuse to move, instead of resigning, once they have proved
themselves lost, and MoHex sometimes does so in positions it has won.  So a forfeit alone
says little; ``hex-match --judge CMD`` has any HTP engine with ``dfpn-solve-state`` (Benzene's
engines, ours) solve the position where each forfeit happened, after the game, on the runner,
outside both engines' clocks.  The verdict, for the engine that forfeited:

- ``proved-lost``: the judge proved the position lost for it (a fair forfeit);
- ``proved-won``: the judge proved it won (the forfeit threw a win away);
- ``not-proved``: the judge did not settle it within its own limit;
- ``judge-error``: the judge crashed, hung past ``--judge-timeout`` or refused the position.

``DfpnJudge`` is also the scripts' way to solve positions with another engine
(``perfect_play.py --solver``, ``solve_games.py --judge``, ``value_positions.py --judge``).
"""
from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Optional, Sequence

from hexengine.board import BLACK, WHITE, Board

from .controller import EngineError, EngineProcess, start_engine
from .referee import COLOUR_NAMES, FORFEITS, GameResult, new_board, play_position, replay

VERDICTS = ("proved-lost", "proved-won", "not-proved", "judge-error")
_WINNERS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}


class JudgeCancelled(Exception):
    """``DfpnJudge.cancel`` stopped the solve (the match is stopping)."""


class DfpnJudge:
    """An HTP engine's ``dfpn-solve-state``: who wins a position (None: not proved).

    The process starts on first use (its ``init`` commands then, e.g. ``param_dfpn
    timelimit 10``) and is kept from position to position; after any failure it is killed
    and started afresh for the next one.  ``timeout`` bounds one whole position (setting
    it up and solving it).  ``dfpn-clear-tt`` before each position makes every verdict
    independent of the ones before (``clear_tt=False`` keeps the proofs, faster on the
    positions of one game).  One position at a time: threads may share a judge, and
    ``cancel`` (from another thread) kills the solve in progress."""

    def __init__(self, command: str, init: Sequence[str] = (), timeout: float = 60.0,
                 name: str = "judge", startup_timeout: float = 30.0,
                 clear_tt: bool = True) -> None:
        self.command = command
        self.init = list(init)
        self.timeout = timeout
        self.clear_tt = clear_tt
        self.name = name
        self.startup_timeout = startup_timeout
        self.cancelled = False
        self._proc: Optional[EngineProcess] = None
        self._quirks: dict[str, bool] = {}
        self._lock = threading.Lock()  # one position at a time
        self._proc_lock = threading.Lock()  # guards _proc against cancel()

    def start(self) -> None:
        """Start the process if it is not running; EngineError if it does not start or
        does not know ``dfpn-solve-state``."""
        if self._proc is not None and self._proc.alive():
            return
        self._drop()
        proc = start_engine(self.command, self.name, self.init, self.startup_timeout)
        ok, known = proc.send("known_command dfpn-solve-state", self.startup_timeout)
        if ok and known.strip().lower() == "false":
            proc.kill()
            raise EngineError("refused", "it does not know dfpn-solve-state")
        with self._proc_lock:
            self._proc = proc
        if self.cancelled:
            self._drop()
            raise JudgeCancelled()

    def winner(self, board: Board, timeout: Optional[float] = None) -> Optional[int]:
        """The colour that wins ``board`` with its side to move, None when the judge does
        not prove it; EngineError when the judge fails (it is then restarted next time),
        JudgeCancelled after ``cancel``."""
        limit = self.timeout if timeout is None else timeout
        with self._lock:
            if self.cancelled:
                raise JudgeCancelled()
            deadline = time.monotonic() + limit
            try:
                self.start()
                proc = self._proc
                assert proc is not None

                def left() -> float:
                    return max(0.001, deadline - time.monotonic())

                new_board(proc, board.width, board.height, self._quirks, left())
                play_position(proc, board, left())
                if self.clear_tt:  # a '?' from a judge without it is fine
                    proc.send("dfpn-clear-tt", left())
                answer = proc.ok(f"dfpn-solve-state {COLOUR_NAMES[board.to_move]}", left())
            except EngineError:
                self._drop()
                if self.cancelled:
                    raise JudgeCancelled() from None
                raise
            # ours says "unknown", Benzene's an empty line when not solved in time
            return _WINNERS.get(answer.strip().lower())

    def solve(self, geo, stones: list[int], colour: int, seconds: float) -> SimpleNamespace:
        """``Solver.solve``'s signature for the scripts: the position of ``stones`` with
        ``colour`` to move; ``.winner`` (None: not proved) and ``.elapsed``."""
        board = Board(geo.width, geo.height)
        for c in (BLACK, WHITE):
            for cell in geo.iter_bits(stones[c]):
                board.play(cell, c)
        board.to_move = colour
        started = time.monotonic()
        winner = self.winner(board, seconds * 3 + 30)
        return SimpleNamespace(winner=winner, elapsed=time.monotonic() - started)

    def cancel(self) -> None:
        """Kill the solve in progress and refuse every later one (the match stops)."""
        self.cancelled = True
        self._drop()

    def close(self) -> None:
        with self._proc_lock:
            proc, self._proc = self._proc, None
        if proc is not None:
            proc.close()

    def _drop(self) -> None:
        with self._proc_lock:
            proc, self._proc = self._proc, None
        if proc is not None:
            proc.kill()


def needs_judging(result: GameResult) -> bool:
    """A forfeit not judged yet."""
    return result.reason in FORFEITS and not result.judged


def judge_result(judge: DfpnJudge, result: GameResult, width: int, height: int) -> bool:
    """Judge a forfeit: set ``result.judged`` and ``judged_detail`` from the judge's solve
    of the final position (the side to move as the game left it).  False (the result left
    as it was) when the judge was cancelled."""
    board = replay(result, width, height)
    loser = 1 - COLOUR_NAMES.index(result.winner_colour)
    started = time.monotonic()
    try:
        winner = judge.winner(board)
    except JudgeCancelled:
        return False
    except EngineError as exc:
        result.judged, result.judged_detail = "judge-error", str(exc)[:200]
        return True
    took = f"{time.monotonic() - started:.1f} s"
    to_move = COLOUR_NAMES[board.to_move]
    if winner is None:
        result.judged = "not-proved"
        result.judged_detail = f"{to_move} to move, not solved ({took})"
    else:
        result.judged = "proved-won" if winner == loser else "proved-lost"
        result.judged_detail = f"{to_move} to move, {COLOUR_NAMES[winner]} wins ({took})"
    return True
