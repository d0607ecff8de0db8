"""What ``genmove`` asks of the solver: whether to try it on this move, and with what
share of the move's budget."""
from __future__ import annotations

import threading
from typing import Callable, Optional

from ..geometry import Geometry
from ..knowledge import hsearch
from . import parallel
from .dfpn import Solver, SolveResult

# Above 9x9, try to solve when at most this many cells are empty: on 11x11 from 41 stones,
# where our solver proves 39 of 40 positions of games against Wolve within 0.2 s and a lost
# game still passed through a win it sees in one of ten; against Wolve two runs won 82
# and 84 of 160 where 30 (the defaults before) won 78 and 81 (docs/strength.md).  10x10
# (from 20 stones, as 9x9) and 13x13 (from 89) are not measured.
SOLVE_EMPTY_CELLS = 80
SOLVE_SHARE = 0.5        # of the move's budget
# Boards up to 6x6 are solved from the first move in a few seconds, and the table keeps what
# each attempt proved: there the solver tries at every move with most of the budget, so the
# engine keeps a won opening won (6x6 against MoHex: 24 of 36 such games won before,
# 34 of 36 with it).
SMALL_BOARD_CELLS = 36
SMALL_BOARD_SHARE = 0.8
# Up to 9x9 the solver tries at every move once EARLY_STONES stones are down: on 9x9 it
# proves most games against Wolve decided between moves 9 and 27, in 0.02 to 1.5 s, so a
# won position is seen there and kept, and the moves it proved to lose are kept from the
# search's root (docs/solver.md).  From 20 stones, not 8: before that it rarely proves
# anything, and the search, whose nodes each build their H-search, needs the time
# (docs/strength.md).  Larger boards are unmeasured: they keep the rule above.
EARLY_BOARD_CELLS = 81
EARLY_STONES = 20


def in_play(geo: Geometry) -> bool:
    """Whether ``genmove`` may ask the solver on this board now: boards up to 6x6 always,
    larger ones once the compiled H-search has loaded (a node of the Python one can outlast
    the whole move on 11x11)."""
    return geo.mask.bit_count() <= SMALL_BOARD_CELLS or hsearch.usable(geo)


def solve_for_move(solver: Solver, geo: Geometry, stones: list[int], colour: int,
                   seconds: float, stop: Optional[threading.Event] = None,
                   progress: Optional[Callable[[dict], None]] = None,
                   early_stones: int = EARLY_STONES, empty_cells: int = SOLVE_EMPTY_CELLS,
                   share: float = SOLVE_SHARE, threads: int = 1) -> Optional[SolveResult]:
    """``genmove``'s first step: when few enough cells are empty (or the board is small),
    give the solver ``share`` of the budget (up to 9x9: from ``early_stones`` stones on;
    larger boards: at most ``empty_cells`` empty; boards up to 6x6 always give it
    ``SMALL_BOARD_SHARE``).  Above 6x6 only once the compiled H-search has loaded: a node
    of the Python one can outlast the whole move on 11x11.
    None when it was not tried; otherwise the result, solved (a win to play, or a loss the
    search should answer as best it can) or not (``winner`` None; ``losing`` still names
    the moves it proved to lose).  ``threads``: processes the solve may use (``parallel``)."""
    empty = geo.mask & ~(stones[0] | stones[1])
    count = empty.bit_count()
    cells = geo.mask.bit_count()
    small = cells <= SMALL_BOARD_CELLS
    early = not small and cells <= EARLY_BOARD_CELLS
    failed = solver.failed_at
    if failed is not None and (failed[0] is not geo or count > failed[1] + 2):
        failed = solver.failed_at = None  # another board or another game
    if seconds <= 0:
        return None
    if not in_play(geo):
        return None
    if early:
        if cells - count < early_stones:
            return None
    elif not small:
        if count > empty_cells:
            return None
        if failed is not None and count > failed[1] - 4:
            return None  # the last attempt, as large as this, failed: wait for a smaller one
    if small:
        share = SMALL_BOARD_SHARE
    if share <= 0:
        return None
    result = parallel.solve(solver, geo, stones, colour, seconds * share, stop, progress,
                            threads)
    if not playable(solver, geo, stones, colour, result) and (stop is None
                                                              or not stop.is_set()):
        solver.failed_at = (geo, count)
    return result


def solve_beside(solver: Solver, geo: Geometry, stones: list[int], colour: int,
                 seconds: float, stop: Optional[threading.Event] = None,
                 early_stones: int = EARLY_STONES, empty_cells: int = SOLVE_EMPTY_CELLS,
                 threads: int = 2) -> Optional[parallel.Beside]:
    """With ``threads`` > 1: the solver on ``threads`` − 1 processes beside the search for
    the whole budget (``parallel.Beside``), or None where ``solve_for_move`` decides
    instead (one thread, no fork here, no compiled H-search above 6x6).  Since the search
    keeps all its time, every board is asked as boards up to 9x9 are (from
    ``early_stones`` stones on; larger ones also once at most ``empty_cells`` are empty),
    and boards up to 6x6 at every move."""
    if threads < 2 or seconds <= 0 or not parallel.can_fork():
        return None
    if not in_play(geo):
        return None
    cells = geo.mask.bit_count()
    if cells > SMALL_BOARD_CELLS:
        count = (geo.mask & ~(stones[0] | stones[1])).bit_count()
        if cells - count < early_stones and count > empty_cells:
            return None
    return parallel.Beside(solver, geo, stones, colour, threads - 1, seconds, stop)


def playable(solver: Solver, geo: Geometry, stones: list[int], colour: int,
             result: SolveResult) -> bool:
    """Whether ``result`` gives genmove a move to play (a proof and an empty cell);
    otherwise it is made unsolved, ``losing`` naming the moves the table proves to lose."""
    empty = geo.mask & ~(stones[0] | stones[1])
    if result.winner is not None and result.move >= 0 and (empty >> result.move) & 1:
        return True
    result.winner = None  # (a proof without a move to play counts as none)
    result.searched = False
    result.losing = solver.settled_moves(geo, stones, colour)[1]
    return False
