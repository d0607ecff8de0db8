"""The check of the search's choice: before ``genmove`` answers, the solver tries to refute
the move the search chose (to prove the position after it won for the opponent), and if it
does, the next move by the search's scores, and so on while the check's time lasts.

Why: in the games the default lost against Wolve, the move that threw a won position away
was a blunder the search's leaves could not see and the solver refutes in a fraction of a
second (on 9×9 six of fourteen in at most 0.26 s, on 11×11 five of nine in at most 0.23 s),
in the middle game, before the solver is asked to prove the root (docs/solver.md,
"The check of the search's choice").  Refuting one move is a narrower proof than solving
the root: the opponent needs one reply that wins.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Optional

from ..geometry import Geometry
from ..knowledge import hsearch
from .dfpn import Solver
from .policy import SMALL_BOARD_CELLS

CHECK_SHARE = 0.25  # of genmove's budget, taken from the search's
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
    if share <= 0 or geo.mask.bit_count() <= SMALL_BOARD_CELLS or not hsearch.usable(geo):
        return False
    return (stones[0] | stones[1]).bit_count() >= from_stones


def check_choice(solver: Solver, geo: Geometry, stones: list[int], colour: int,
                 candidates: list[int], deadline: float,
                 stop: Optional[threading.Event] = None) -> Checked:
    """Try to refute ``candidates`` (the search's choice first) until ``deadline``, in
    rounds: each round gives every candidate not yet refuted a slice of time, twice the
    last round's (the solver's table keeps the work between slices), so a sibling proved
    to win at once is not left waiting behind a choice slow to refute.  A candidate proved
    to win is played at once; at the end the first candidate not refuted (the search's
    choice unless refuted; past the checked ones if all of them were), or the search's
    choice when every move is refuted."""
    open_ = list(candidates[:MAX_CANDIDATES])
    losing = 0
    tried: set[int] = set()
    share = FIRST_SLICE
    while open_:
        for move in list(open_):
            left = deadline - time.monotonic()
            if left < MIN_SECONDS or (stop is not None and stop.is_set()):
                open_ = []
                break
            after = list(stones)
            after[colour] |= 1 << move
            tried.add(move)
            result = solver.solve(geo, after, 1 - colour, seconds=min(share, left), stop=stop)
            if result.winner == 1 - colour:
                losing |= 1 << move
                open_.remove(move)
            elif result.winner == colour:
                return Checked(move, True, losing, len(tried))
        share *= 2
    rest = [m for m in candidates if not (losing >> m) & 1]
    return Checked(rest[0] if rest else candidates[0], False, losing, len(tried))
