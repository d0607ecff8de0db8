"""The one interface the protocol uses to get a move: settings in, SearchResult out.

``Player.genmove(board, colour, seconds, stop)`` hides which algorithm answers (iterative
alpha-beta, plain minimax, random), so the search can grow without the protocol changing.
"""
from __future__ import annotations

import random
import threading
import time
from dataclasses import dataclass, fields
from typing import Callable, Optional

from . import book, kernels
from .board import Board
from .geometry import Geometry
from .evaluation import DEFAULT_EVALUATION, EVALUATIONS, resistance
from .search import ORDERINGS, WIN, Searcher, SearchResult, minimax_root
from .solver import (EARLY_STONES, SOLVE_SHARE, Solver, knowledge_by_name,
                     solve_for_move)

ALGORITHMS = ("alphabeta", "minimax", "random")
_NUMBER_RANGES = {"wire": (0.0, 1000.0), "tempo": (0.0, resistance.CLAMP),
                  "solver_share": (0.0, 1.0)}  # settings that
# take any number in a range


@dataclass
class Settings:
    """Engine settings, shown and changed through ``param_hexengine``."""
    algorithm: str = "alphabeta"
    evaluation: str = DEFAULT_EVALUATION
    max_time: float = 10.0
    max_depth: int = 64
    width: int = 15  # Wolve's ply width (docs/strength.md)
    ply_widths: str = "none"  # widths of plies 1, 2, ... below the root ("10,8"); then width
    root_width: int = 0  # root moves kept past depth 2, best first (0: every one)
    quiescence: bool = False  # leaves also score the answer that restores a broken bridge
    root_links: bool = True  # nodes' circuits also carry the root's full connections
    ordering: str = "auto"
    seed: int = 0
    randomize: bool = False
    tt_size: int = 1_000_000
    knowledge: bool = True  # fill-in, connections and mustplay (hexengine.knowledge)
    refresh_depth: int = 1  # plies below the root whose nodes rebuild the mover's connections
    node_connections: bool = True  # interior nodes read their own H-search (resistance evals)
    solver_time: float = 60.0
    solver_from: int = EARLY_STONES  # stones on the board (up to 9x9) before genmove tries
    # the solver with a share of its budget
    solver_share: float = SOLVE_SHARE  # that share on boards larger than 6x6
    wire: float = resistance.STRONG  # conductance of a virtual connection from a stone
    tempo: float = 0.5  # added to a leaf's static value for the side to move (docs/strength.md)
    wide_plies: int = 0  # nodes this many plies below the root build the wide H-search

    def set(self, name: str, text: str) -> None:
        """Set one setting from its text form; ValueError says what was wrong."""
        kinds = {f.name: f.type for f in fields(self)}
        if name not in kinds:
            raise ValueError(f"unknown parameter {name!r}")
        if name == "algorithm":
            if text not in ALGORITHMS:
                raise ValueError(f"algorithm must be one of {', '.join(ALGORITHMS)}")
            value: object = text
        elif name == "evaluation":
            if text not in EVALUATIONS:
                raise ValueError(f"evaluation must be one of {', '.join(EVALUATIONS)}")
            value = text
        elif name == "ordering":
            if text not in ORDERINGS:
                raise ValueError(f"ordering must be one of {', '.join(ORDERINGS)}")
            value = text
        elif kinds[name] in ("bool", bool):  # every switch, so a new one cannot be missed
            if text not in ("0", "1", "true", "false"):
                raise ValueError(f"{name} must be 0 or 1")
            value = text in ("1", "true")
        elif name == "ply_widths":
            parts = [] if text == "none" else [p for p in text.split(",") if p.strip()]
            try:
                numbers = [int(p) for p in parts]
            except ValueError:
                raise ValueError(f"ply_widths must be integers separated by commas, not "
                                 f"{text!r}") from None
            if any(n < 0 for n in numbers):
                raise ValueError("ply_widths must be at least 0")
            value = ",".join(str(n) for n in numbers) or "none"
        elif name in _NUMBER_RANGES:
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"{name} must be a number, not {text!r}") from None
            low, high = _NUMBER_RANGES[name]
            if not low <= value <= high:
                raise ValueError(f"{name} must be between {low:g} and {high:g}")
        elif name in ("max_time", "solver_time"):
            try:
                value = float(text)
            except ValueError:
                raise ValueError(f"{name} must be a number of seconds, not {text!r}") from None
            if not 0 < value <= 86400:
                raise ValueError(f"{name} must be > 0 and at most 86400")
        else:
            try:
                value = int(text)
            except ValueError:
                raise ValueError(f"{name} must be an integer, not {text!r}") from None
            low = 0 if name in ("width", "root_width", "seed", "refresh_depth",
                                "solver_from", "wide_plies") else 1
            if value < low:
                raise ValueError(f"{name} must be at least {low}")
        setattr(self, name, value)

    def widths_below_root(self) -> tuple[int, ...]:
        """``ply_widths`` as numbers: the widths of plies 1, 2, ... (() when "none")."""
        return () if self.ply_widths == "none" else tuple(
            int(w) for w in self.ply_widths.split(","))

    def describe(self) -> list[tuple[str, str, str]]:
        """(type, name, value) triples in HexGui's parameter-list form."""
        out = []
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "algorithm":
                kind = "list/" + "/".join(ALGORITHMS)
            elif f.name == "evaluation":
                kind = "list/" + "/".join(EVALUATIONS)
            elif f.name == "ordering":
                kind = "list/" + "/".join(ORDERINGS)
            elif isinstance(value, bool):
                kind, value = "bool", int(value)
            else:
                kind = "string"
            out.append((kind, f.name, str(value)))
        return out


LOAD_WAIT_SHARE = 0.6  # of a genmove's budget, at most, spent waiting for the compiled
# kernels (~0.2-0.5 s to load from their disk cache): the rest at 5x the nodes is worth more


class Player:
    """Chooses moves for the engine under its current settings."""

    def __init__(self, settings: Optional[Settings] = None) -> None:
        self.settings = settings or Settings()
        self._searcher: Optional[Searcher] = None
        self._searcher_key: tuple = ()
        self.rng = random.Random(self.settings.seed)
        self._solver: Optional[Solver] = None
        kernels.start()  # the compiled kernels load (or compile) while the engine waits
        self.apply_settings()

    def apply_settings(self) -> None:
        """Apply the settings the evaluation reads process-wide (the circuit's ``wire``), so
        that the analysis views score as the next search will; call after changing one."""
        resistance.set_wire(self.settings.wire)

    def solver(self) -> Solver:
        """The DFPN solver; its proofs last for the game (and the next ones)."""
        if self._solver is None:
            self._solver = Solver(knowledge_by_name())
        return self._solver

    def reset(self) -> None:
        """Forget learned state (TT) and reseed: a new game."""
        self._searcher = None
        self.rng = random.Random(self.settings.seed)

    def searcher(self) -> Searcher:
        s = self.settings
        key = (s.evaluation, s.tt_size, s.width, s.seed, s.randomize, s.ordering, s.knowledge,
               s.refresh_depth, s.node_connections, s.root_width, s.quiescence, s.root_links,
               s.wire, s.ply_widths, s.tempo, s.wide_plies)
        if self._searcher is None or key != self._searcher_key:
            self._searcher = Searcher(s.evaluation, s.tt_size, s.width, s.seed, s.randomize,
                                      ordering=s.ordering, knowledge=s.knowledge,
                                      refresh_depth=s.refresh_depth,
                                      node_connections=s.node_connections,
                                      root_width=s.root_width,
                                      quiescence=s.quiescence,
                                      root_links=s.root_links,
                                      ply_widths=s.widths_below_root(), tempo=s.tempo,
                                      wide_plies=s.wide_plies)
            self._searcher_key = key
            self.rng = random.Random(s.seed)
        return self._searcher

    def prepare(self, geo: Geometry) -> None:
        """Build the tables a board size needs (0.2 s at 52x52, more while the kernels
        load beside it) when the size is set, so that no genmove's clock pays for them."""
        if EVALUATIONS[self.settings.evaluation].circuit:
            resistance.prepare(geo)

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
        known = None if s.max_depth < 64 or not s.knowledge else book.lookup(board, colour)
        if known is not None:  # a win, in at most as many moves as there are empty cells
            return SearchResult(known, WIN - board.empty.bit_count(), 0, 0,
                                time.monotonic() - started, [known], proved=True)
        solved = None if s.max_depth < 64 or not s.knowledge else solve_for_move(
            self.solver(), board.geo, board.stones, colour, seconds, stop,
            early_stones=s.solver_from, share=s.solver_share)
        if solved is not None and (solved.winner == colour or solved.searched):
            # (a loss seen at sight has no stubborn move: the search picks one inside the
            # opponent's connection by its evaluation)
            n = len(solved.pv)
            score = WIN - max(n - 1, 0) if solved.winner == colour else -(WIN - max(n, 1))
            return SearchResult(solved.move, score, n, solved.nodes,
                                time.monotonic() - started, solved.pv or [solved.move],
                                proved=True)
        spec = EVALUATIONS[s.evaluation]
        if spec.circuit:
            # a just-started engine may still be loading its compiled kernels; the board
            # size's tables come first (built already if ``prepare`` was called)
            self.prepare(board.geo)
            kernels.wait(LOAD_WAIT_SHARE * (started + seconds - time.monotonic()),
                         spec.kernel)
        self.apply_settings()
        return self.searcher().search(board, colour, started + seconds, s.max_depth, stop,
                                      on_iteration, solved.losing if solved else 0)
