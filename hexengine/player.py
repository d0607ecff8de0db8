"""The one interface the protocol uses to get a move: settings in, SearchResult out.

``Player.genmove(board, colour, seconds, stop)`` hides which algorithm answers (iterative
alpha-beta, plain minimax, random), so the search can grow without the protocol changing.
"""
from __future__ import annotations

import dataclasses
import random
import threading
import time
from typing import Callable, Optional, TypeVar

from . import book, kernels, opening
from .board import Board
from .evaluation import EVALUATIONS, network, resistance, two_distance, vc_graph
from .geometry import Geometry
from .knowledge import hsearch
from .mcts import MctsSearcher
from .search import WIN, Searcher, SearchResult, minimax_root
from .settings import Settings
from .solver import (Solver, SolveResult, knowledge_by_name, parallel, playable,
                     solve_beside, solve_for_move)
from .solver.check import check_choice, probe, wanted
from .solver.policy import SMALL_BOARD_CELLS

T = TypeVar("T")
QUICK_TRY = 0.3  # seconds of a small board's solve on the Python code while the kernels load
LOAD_WAIT_SHARE = 0.5  # of a genmove's budget, at most, spent waiting for the compiled
# kernels (~1 s for all of them from their disk cache): the rest at 5x the nodes is worth more


class Player:
    """Chooses moves for the engine under its current settings."""

    def __init__(self, settings: Optional[Settings] = None) -> None:
        self.use(settings or Settings())
        self._searcher: Optional[Searcher] = None
        self._searcher_key: Optional[Settings] = None
        self._mcts: Optional[MctsSearcher] = None
        self.rng = random.Random(self.settings.seed)
        self._solver: Optional[Solver] = None
        kernels.start()  # the compiled kernels load (or compile) while the engine waits

    def configure(self, name: str, text: str) -> None:
        """Set one setting from its text form (ValueError says what was wrong) and apply
        it at once."""
        self.use(self.settings.with_text(name, text))

    def use(self, settings: Settings) -> None:
        """Play under ``settings`` from now on (the searcher follows at the next search);
        ValueError, with the settings unchanged, for what the installation cannot do."""
        if settings.ordering == "policy":
            network.move_head()
        self.settings = settings
        self.apply_settings()

    def apply_settings(self) -> None:
        """Apply the settings the evaluations read process-wide (the circuit's ``wire``, the
        graph circuit's band, division and bounds), so that the analysis views score as the
        next search will; call after changing one."""
        resistance.set_wire(self.settings.wire)
        vc_graph.set_band(self.settings.graph_band)
        vc_graph.set_division(self.settings.graph_division)
        vc_graph.set_bounds(self.settings.graph_bounds)

    def solver(self) -> Solver:
        """The DFPN solver; its proofs last for the game (and the next ones)."""
        if self._solver is None:
            self._solver = Solver(knowledge_by_name())
        return self._solver

    def solve_soon(self, attempt: Callable[[float], T], settled: Callable[[T], bool],
                   seconds: float, stop: Optional[threading.Event] = None,
                   cells: int = 0) -> T:
        """``attempt(seconds)`` (a solve whose table is kept between calls) within
        ``seconds``.  A just-started engine waits up to a share of them for the solver's
        compiled kernels (H-search, fill-in: ~15x and ~5x their Python speed, and the
        dominated cells pruned only once the fill-in has loaded); on boards of at most
        SMALL_BOARD_CELLS ``cells`` it first tries QUICK_TRY seconds on the Python code,
        which settles most of their positions in a few nodes, and waits only if that did
        not (``settled`` says whether a result did)."""
        end = time.monotonic() + seconds
        kernels.prefer("hsearch", "fillin")
        loaded = all(kernels.wait(0.0, k) for k in ("hsearch", "fillin"))
        if not loaded and 0 < cells <= SMALL_BOARD_CELLS:
            first = attempt(min(QUICK_TRY, seconds))
            if settled(first) or (stop is not None and stop.is_set()):
                return first
        for kernel in ("hsearch", "fillin"):
            kernels.wait(LOAD_WAIT_SHARE * (end - time.monotonic()), kernel, stop)
        return attempt(max(0.0, end - time.monotonic()))

    def solve_state(self, board: Board, colour: int, stop: Optional[threading.Event] = None,
                    progress: Optional[Callable[[dict], None]] = None
                    ) -> tuple[SolveResult, int]:
        """``dfpn-solve-state``: solve ``board`` with ``colour`` to move within
        ``solver_time`` on ``threads`` processes.  The result and the nodes of all tries."""
        def run(seconds: float) -> tuple[SolveResult, int]:
            result = parallel.solve(self.solver(), board.geo, list(board.stones), colour,
                                    seconds, stop, progress, self.settings.threads)
            return result, result.nodes

        return self._counted_solve(run, lambda r: r.winner is not None, board, stop)

    def find_winning(self, board: Board, colour: int, stop: Optional[threading.Event] = None,
                     progress: Optional[Callable[[dict], None]] = None
                     ) -> tuple[Optional[list[int]], int]:
        """``dfpn-solver-find-winning``: every winning move of ``colour`` (None when
        ``solver_time`` or ``stop`` came first) and the nodes of all tries."""
        def run(seconds: float) -> tuple[Optional[list[int]], int]:
            return self.solver().find_winning(board.geo, list(board.stones), colour, seconds,
                                              stop, progress)

        return self._counted_solve(run, lambda found: found is not None, board, stop)

    def _counted_solve(self, run: Callable[[float], tuple[T, int]],
                       settled: Callable[[T], bool], board: Board,
                       stop: Optional[threading.Event]) -> tuple[T, int]:
        """``run`` (an answer and the nodes it took) through ``solve_soon`` within
        ``solver_time`` (a just-started engine may try twice): its answer and the nodes of
        all tries."""
        nodes = 0

        def attempt(seconds: float) -> T:
            nonlocal nodes
            answer, spent = run(seconds)
            nodes += spent
            return answer

        answer = self.solve_soon(attempt, settled, self.settings.solver_time, stop,
                                 board.geo.size)
        return answer, nodes

    def ready(self, seconds: float, stop: Optional[threading.Event] = None) -> dict[str, str]:
        """Wait up to ``seconds`` (or until ``stop``) for every compiled kernel to load, as
        UCI's ``isready``: a genmove timed afterwards times the search, not the loading.
        Returns each kernel's state (``kernels.status``); loading began with the player."""
        kernels.wait(seconds, stop=stop)
        return kernels.status()

    def reset(self) -> None:
        """Forget learned state (the search's tables, the solver's knowledge of interior
        positions; its proofs stay) and reseed: a new game."""
        self._searcher = None
        if self._solver is not None:
            self._solver.new_game()
        self.rng = random.Random(self.settings.seed)

    def searcher(self) -> Searcher:
        """The searcher for the current settings: kept (with its tables) while the rows it
        depends on are unchanged."""
        key = self.settings.search_key()
        if self._searcher is None or key != self._searcher_key:
            self._searcher = Searcher(**key.search_options())
            self._searcher_key = key
            self._mcts = None
            self.rng = random.Random(key.seed)
        return self._searcher

    def tree_searcher(self) -> MctsSearcher:
        """The Monte Carlo tree searcher (``algorithm mcts``), with the alpha-beta searcher
        for the roots its knowledge decides."""
        fallback = self.searcher()
        if self._mcts is None:
            self._mcts = MctsSearcher(fallback, self.settings.seed)
        return self._mcts

    def should_swap(self, board: Board, colour: int) -> bool:
        """Whether ``colour`` swaps here (``opening.should_swap``), where the swap style
        is possible on this board."""
        if self.settings.swap_style == "swap-pieces" and board.width != board.height:
            return False
        return opening.should_swap(board, colour)

    def prepare(self, geo: Geometry) -> None:
        """Build the tables a board size needs (the circuit's: 0.2 s at 52x52, more while
        the kernels load beside it; the H-search's templates: 0.1-0.5 s up to 24x24; a swap
        game's opening values: up to 0.5 s to 13x13, ~3 s at 52x52) when the size is set,
        so that no genmove's or solve's clock pays for them."""
        if EVALUATIONS[self.settings.evaluation].circuit:
            resistance.prepare(geo)
        if self.settings.knowledge:
            hsearch.prepare(geo)
        if self.settings.allow_swap:
            opening.prepare(geo)

    def genmove(self, board: Board, colour: int, seconds: float,
                stop: Optional[threading.Event] = None,
                on_iteration: Optional[Callable[[SearchResult], None]] = None) -> SearchResult:
        """Best move for ``colour`` within ``seconds`` (or until ``stop`` is set).

        The board must not be decided and must have an empty cell."""
        s = self.settings
        started = time.monotonic()
        if s.algorithm == "random":
            cells = list(board.geo.iter_bits(board.empty))
            move = self.rng.choice(cells)
            return SearchResult(move, 0.0, 0, 1, time.monotonic() - started, [move])
        if s.algorithm == "minimax":
            depth = min(s.max_depth, 64)
            result = minimax_root(board, colour, depth, s.evaluation, started + seconds, stop)
            result.elapsed = time.monotonic() - started
            return result
        # a solved-position book, then the solver when the position is small enough to
        # hope (neither for fixed-depth baselines, nor without knowledge): a proved win is
        # played by its smallest proof; a proved loss by the move whose refutation needs the
        # most cells (inside the mustplay: the opponent has the most to prove); anything
        # else is left to the search
        knows = s.max_depth >= 64 and s.knowledge
        first = opening.first_move(board, colour) if knows else None
        if first is not None:  # (a win where the board is solved; not claimed as proved)
            return SearchResult(first, 0.0, 0, 0, time.monotonic() - started, [first])
        known = book.lookup(board, colour) if knows else None
        if known is not None:  # a win, in at most as many moves as there are empty cells
            return SearchResult(known, WIN - board.empty.bit_count(), 0, 0,
                                time.monotonic() - started, [known], proved=True)
        # a just-started engine waits for its compiled kernels, all waits together at most
        # a share of the budget (they load beside the search and slow it while they do)
        loaded_by = started + LOAD_WAIT_SHARE * seconds
        if knows and board.geo.size > SMALL_BOARD_CELLS:
            # above 6x6 the solver needs the compiled H-search (``solve_for_move``)
            kernels.wait(loaded_by - time.monotonic(), "hsearch", stop)
        # with more than one thread the solver runs beside the search for the whole
        # budget, on the other processes; else it takes its share first
        beside = None if not knows or s.solver_share <= 0 else solve_beside(
            self.solver(), board.geo, board.stones, colour, seconds, stop,
            early_stones=s.solver_from, empty_cells=s.solver_empty, threads=s.threads)
        solved = None if not knows or beside is not None else solve_for_move(
            self.solver(), board.geo, board.stones, colour, seconds, stop,
            early_stones=s.solver_from, empty_cells=s.solver_empty, share=s.solver_share,
            threads=s.threads)
        if beside is not None and beside.halt.is_set():
            solved = self._beside_result(beside, board, colour)
            beside = None
        if solved is not None and (solved.winner == colour or solved.searched):
            return _proved(solved, colour, started)
        spec = EVALUATIONS[s.evaluation]
        if spec.circuit:
            # a just-started engine may still be loading its compiled kernels; the board
            # size's tables come first (built already if ``prepare`` was called)
            self.prepare(board.geo)
            loaded = kernels.wait(loaded_by - time.monotonic(), spec.kernel, stop)
            if not loaded and stop is not None and stop.is_set():
                # interrupted while they load: the knowledge would take a second in Python
                if beside is not None:
                    beside.result()
                move = quick_move(board, colour)
                return SearchResult(move, 0.0, 0, 0, time.monotonic() - started, [move])
        self.apply_settings()
        searcher = self.tree_searcher() if s.algorithm == "mcts" else self.searcher()
        if beside is None:
            # (with the root not given to the solver, a share of the budget may go to the
            # solver's check of the search's choice)
            checks = (knows and solved is None and s.algorithm == "alphabeta"
                      and wanted(board.geo, board.stones, s.check_share, s.check_from))
            deadline = started + seconds * ((1.0 - s.check_share) if checks else 1.0)
            if checks and s.probe_share > 0:
                # the probe's time comes out of the check's share, not the search's
                begun = time.monotonic()
                solved = probe(self.solver(), board.geo, board.stones, colour,
                               seconds * min(s.probe_share, s.check_share), stop)
                if solved.winner == colour or solved.searched:
                    return _proved(solved, colour, started)
                checks = solved.winner is None  # (a loss the table held: every move loses)
                deadline = (min(deadline + time.monotonic() - begun, started + seconds)
                            if checks else started + seconds)
            searched = searcher.search(board, colour, deadline, s.max_depth, stop,
                                       on_iteration, solved.losing if solved else 0)
            if not checks or searched.proved:
                return searched
            return self._checked(searched, board, colour, started + seconds, stop)
        # (the moves earlier solves proved to lose stay out of the search's root)
        losing = self.solver().settled_moves(board.geo, board.stones, colour)[1]
        try:
            searched = searcher.search(board, colour, started + seconds, s.max_depth,
                                       beside.halt, on_iteration, losing)
        finally:
            solved = self._beside_result(beside, board, colour)
        if solved.winner == colour or solved.searched:
            return _proved(solved, colour, started)
        return not_losing(searched, solved.losing, board)

    def _checked(self, searched: SearchResult, board: Board, colour: int, deadline: float,
                 stop: Optional[threading.Event]) -> SearchResult:
        """The search's choice after the solver's check (``solver.check``): kept unless
        refuted, then the next best by the search's scores that is not."""
        others = sorted((m for m in searched.scores if m != searched.move),
                        key=lambda m: searched.scores[m], reverse=True)
        checked = check_choice(self.solver(), board.geo, board.stones, colour,
                               [searched.move] + others, deadline, stop)
        if checked.won:
            return SearchResult(checked.move, WIN - board.empty.bit_count(), searched.depth,
                                searched.nodes, searched.elapsed, [checked.move],
                                searched.scores, proved=True)
        if checked.move == searched.move:
            return searched
        return dataclasses.replace(searched, move=checked.move, pv=[checked.move],
                                   score=searched.scores.get(checked.move, 0.0))

    def _beside_result(self, beside: parallel.Beside, board: Board, colour: int
                       ) -> SolveResult:
        """The solve beside the search, ended: a proof with a move to play, or none."""
        result = beside.result()
        playable(self.solver(), board.geo, board.stones, colour, result)
        return result


def _proved(solved: SolveResult, colour: int, started: float) -> SearchResult:
    """The solver's move as genmove's answer: a proved win by its smallest proof, a proved
    loss by the most stubborn move.  (A loss seen at sight has no stubborn move: the search
    picks one inside the opponent's connection by its evaluation.)"""
    n = len(solved.pv)
    score = WIN - max(n - 1, 0) if solved.winner == colour else -(WIN - max(n, 1))
    return SearchResult(solved.move, score, n, solved.nodes, time.monotonic() - started,
                        solved.pv or [solved.move], proved=True)


def not_losing(searched: SearchResult, losing: int, board: Board) -> SearchResult:
    """The search's move, unless the solver beside it proved that move to lose while it
    searched: then the best-scored root move not proved to lose (the centre-most empty
    cell not proved to lose if the search scored none)."""
    if not (losing >> searched.move) & 1:
        return searched
    scored = [m for m in searched.scores if not (losing >> m) & 1]
    if scored:
        move = max(scored, key=lambda m: searched.scores[m])
    else:
        free = board.empty & ~losing
        if not free:
            return searched
        move = next(m for m in board.geo.centre_order if (free >> m) & 1)
    return dataclasses.replace(searched, move=move, pv=[move],
                               score=searched.scores.get(move, 0.0))


def quick_move(board: Board, colour: int) -> int:
    """A move at once, without search or connections: the empty cell with the lowest sum of
    both colours' two-distance potentials (the cell that matters most to both sides), the
    centre-most among equals."""
    geo = board.geo
    mine = two_distance.potentials(geo, board.stones, colour)
    theirs = two_distance.potentials(geo, board.stones, 1 - colour)
    far = 2 * geo.width * geo.height  # a cell that cannot reach both edges for a colour
    rank = geo.centre_rank
    return min(geo.iter_bits(board.empty),
               key=lambda c: (mine.get(c, far) + theirs.get(c, far), rank[c]))
