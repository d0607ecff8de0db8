"""The check of the search's choice: before ``genmove`` answers, the solver tries to refute
the moves the search likes best (to prove the position after one won for the opponent);
a refuted move gives way to the next that is not, and a move proved to win is played.
Before the search, the probe: the solver tries the position itself for a moment.

Why: in the games the default lost against Wolve, the move that threw a won position away
was a blunder the search's leaves could not see and the solver refutes in a fraction of a
second (on 9×9 six of fourteen in at most 0.26 s, on 11×11 five of nine in at most 0.23 s),
in the middle game, before the solver is asked to prove the root (docs/solver.md,
"The check of the search's choice").  Refuting one move is a narrower proof than solving
the root: the opponent needs one reply that wins.  And where the middle game's position
is proved at all, it mostly is within a few hundredths of a second (the probe).
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Optional

from ..geometry import Geometry
from .dfpn import Solver, SolveResult
from .policy import SMALL_BOARD_CELLS, in_play, playable

CHECK_SHARE = 0.25  # of genmove's budget, taken from the search's
PROBE_SHARE = 0.1   # of genmove's budget, at most, for the probe (out of the check's share)
CHECK_FROM = 8      # stones on the board before the check runs: earlier it refutes nothing
MAX_CANDIDATES = 4  # moves checked at most, best by the search's scores first
MIN_SECONDS = 0.01  # a check with less time left is not begun
FIRST_SLICE = 0.02  # seconds each candidate gets in the first round, doubled each round


@dataclass
class Checked:
    """The check's verdict: the move to play, whether the solver proved it wins, the
    moves it proved to lose (a bitboard) and how many moves it checked."""
    move: int
    won: bool
    losing: int
    checked: int


def wanted(geo: Geometry, stones: list[int], share: float, from_stones: int) -> bool:
    """Whether ``genmove`` checks its choice here: a share to spend, a board above 6×6
    (smaller ones give the solver most of every move already) with the compiled H-search,
    and at least ``from_stones`` stones down."""
    if share <= 0 or geo.mask.bit_count() <= SMALL_BOARD_CELLS or not in_play(geo):
        return False
    return (stones[0] | stones[1]).bit_count() >= from_stones


def probe(solver: Solver, geo: Geometry, stones: list[int], colour: int, seconds: float,
          stop: Optional[threading.Event] = None) -> SolveResult:
    """The probe, before the search where the check runs: the solver tries the position
    itself for ``seconds``.  Where it proves, it mostly proves within a few hundredths of
    a second, even in the middle game (a connection the H-search sees whole, a short
    forcing line); a win found then is played as a proof instead of left to the search.
    The result as ``solve_for_move``'s: a move to play, or unsolved with ``losing``."""
    result = solver.solve(geo, stones, colour, seconds=seconds, stop=stop)
    playable(solver, geo, stones, colour, result)
    return result


ROOT = -1  # the position itself, as one of the check's items


def check_choice(solver: Solver, geo: Geometry, stones: list[int], colour: int,
                 candidates: list[int], deadline: float,
                 stop: Optional[threading.Event] = None) -> Checked:
    """Try to refute ``candidates`` (the search's choice first) until ``deadline``, in
    rounds: each round gives every candidate not yet refuted a slice of time, twice the
    last round's (the solver's table keeps the work between slices), so a sibling proved
    to win at once is not left waiting behind a choice slow to refute.  A move proved to
    win is played at once.  Once every candidate checked is refuted, the position itself
    has the rest of the time (the winning move may lie outside them; a position proved
    lost ends the check).  Else the first candidate not refuted is played (the search's
    choice unless refuted; past the checked ones if all of them were), or the search's
    choice when every move is refuted."""
    items = list(candidates[:MAX_CANDIDATES])
    empty = geo.mask & ~(stones[0] | stones[1])
    losing = 0
    tried: set[int] = set()
    share = FIRST_SLICE
    while items:
        for item in list(items):
            left = deadline - time.monotonic()
            if left < MIN_SECONDS or (stop is not None and stop.is_set()):
                return _fallback(candidates, losing, tried)
            seconds = min(share, left)
            if item == ROOT:
                result = solver.solve(geo, stones, colour, seconds=seconds, stop=stop)
                if result.winner == colour and result.move >= 0 and (empty >> result.move) & 1:
                    return Checked(result.move, True, losing, len(tried))
                if result.winner is not None:
                    losing |= solver.settled_moves(geo, stones, colour)[1]
                    return _fallback(candidates, losing, tried)
                continue
            after = list(stones)
            after[colour] |= 1 << item
            tried.add(item)
            result = solver.solve(geo, after, 1 - colour, seconds=seconds, stop=stop)
            if result.winner == 1 - colour:
                losing |= 1 << item
                items.remove(item)
                if not items:
                    items.append(ROOT)
            elif result.winner == colour:
                return Checked(item, True, losing, len(tried))
        share *= 2
    return _fallback(candidates, losing, tried)


def _fallback(candidates: list[int], losing: int, tried: set[int]) -> Checked:
    """No move proved to win: the first candidate not proved to lose, or the search's
    choice when all of them are."""
    rest = [m for m in candidates if not (losing >> m) & 1]
    return Checked(rest[0] if rest else candidates[0], False, losing, len(tried))
