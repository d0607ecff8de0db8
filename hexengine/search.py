"""Negamax alpha-beta with principal-variation search, iterative deepening and a
transposition table, plus the fixed-depth baselines (plain minimax, random).

The search works on raw bitboards (``stones[colour] |= bit`` / ``^= bit``), never on Board
objects, and never prints: it returns a SearchResult and reports each finished iteration
through an optional callback, which the protocol layer turns into log lines.
"""
from __future__ import annotations

import functools
import random
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from .board import SIDE_KEY, Board, zobrist_keys
from .evaluation import get as get_evaluation
from .evaluation import network, resistance, vc_graph
from .evaluation.shortest_path import NO_PATH, path_cells
from .knowledge import analysis, inferior, responses, vc
from .knowledge.threats import LOST, OPEN, WIN_NOW, EdgeThreats

WIN = 100_000
WIN_THRESHOLD = WIN - 10_000
EXACT, LOWER, UPPER = 0, 1, 2
ANALYSIS_SHARE = 0.25  # of the time budget, at most, for the root's fill-in and H-searches
LEAF_SHARE = 0.05  # of the budget, at most, kept free for the slowest recent leaf
REFRESH_SHARE = 0.3  # rebuild connections below the root when one per root move fits this
MIN_ITERATION_SHARE = 0.05  # of the budget: less left than this, no new iteration starts
# ``root_moves`` -1: the root cut to its first moves by order on boards of 81 to 169 cells
# (9x9 to 13x13), where a first iteration over every move takes most of a short budget and
# the cut won more games against Wolve (docs/search.md): Wolve's 15, and 10 up to 100 cells,
# which won more on 9x9 (on 11x11 it won as many as 15); on larger boards a short budget
# ends inside that first iteration anyway, and a deeper one would start nodes whose
# ordering the clock check does not time; below 9x9 the solver settles most positions
ROOT_MOVES = ((81, 100, 10), (101, 169, 15))  # (cells from, cells to, root moves kept)


def default_root_moves(cells: int) -> int:
    """The root moves ``root_moves -1`` keeps on a board of ``cells`` cells (0: all)."""
    return next((kept for low, high, kept in ROOT_MOVES if low <= cells <= high), 0)


ORDERINGS = ("auto", "current", "connected", "graph", "path", "policy")


class SearchAborted(Exception):
    """Raised inside the tree when the deadline passes or the stop flag is set."""


@dataclass
class SearchResult:
    """What a search found: the move (a cell index) and how it got there."""
    move: int
    score: float = 0.0
    depth: int = 0
    nodes: int = 0
    elapsed: float = 0.0
    pv: list[int] = field(default_factory=list)
    scores: dict[int, float] = field(default_factory=dict)
    complete: bool = True  # False when the last iteration was cut short
    proved: bool = False  # a win/loss score that no width cut or static leaf stands behind
    knowledge: dict[str, int] = field(default_factory=dict)  # what the root analysis found

    @property
    def nps(self) -> float:
        return self.nodes / self.elapsed if self.elapsed > 0 else 0.0


def score_text(score: float) -> str:
    """'win in 3' / 'loss in 2' / '+1.50': a human reading of a search score."""
    if score >= WIN_THRESHOLD:
        return f"win in {int(WIN - score) // 2 + 1}"
    if score <= -WIN_THRESHOLD:
        return f"loss in {(int(WIN + score) + 1) // 2}"
    return f"{score:+.2f}"


class Searcher:
    """Iterative-deepening alpha-beta over one evaluation, with a persistent TT."""

    def __init__(self, evaluation: str = "shortest-path", tt_size: int = 1_000_000,
                 width: int = 0, seed: Optional[int] = None, randomize: bool = False,
                 use_tt: bool = True, ordering: str = "auto", knowledge: bool = False,
                 refresh_depth: int = 1, node_connections: bool = True,
                 root_width: int = 0, root_moves: int = 0, root_policy: int = 0,
                 quiescence: bool = False,
                 root_links: bool = False, ply_widths: tuple[int, ...] = (),
                 tempo: float = 0.0, wide_plies: int = 0, reduce_after: int = 0) -> None:
        if ordering not in ORDERINGS:
            raise ValueError(f"ordering must be one of {', '.join(ORDERINGS)}")
        spec = get_evaluation(evaluation)
        self.evaluate = spec.evaluate
        # leaves read their H-search: wired into the board circuit, or as the circuit itself
        self.connected_leaves = spec.connected
        self.graph_circuit = spec.graph
        self.held = vc_graph.Held() if spec.graph else None  # builds kept per ply
        self.leaf_value = spec.leaf  # an undecided connected leaf's value, if not the circuit's
        self.root_wires = spec.root_wires
        # interior nodes read theirs (win in one, loss, mustplay) with either circuit
        self.node_connections = knowledge and node_connections and spec.circuit
        self.connection_cache: dict[int, tuple[float, int, int, int]] = {}
        # nodes up to this many plies below the root build with the wide limits (where the
        # root's build is the wide one), and so do the threats they pass down: Wolve's
        # knowledge where a move's answers are chosen
        self.wide_plies = wide_plies
        # late move reductions: below the root, the moves after the first ``reduce_after``
        # (0: none) are tried one ply shallower, and again at full depth if they beat alpha
        self.reduce_after = reduce_after
        self.wide_cache: dict[int, tuple[float, int, int, int]] = {}
        # nodes' circuits also carry the root's (wide) full connections whose carriers hold
        self.root_links = root_links
        self.node_links: Optional[resistance.Links] = None
        # "current": Six's and Wolve's order, by the current through each cell in both
        # resistance circuits; "path": cells on the shortest paths first.  "auto" takes the
        # order the evaluation names (the current with a circuit, whose solve it shares).
        if ordering == "auto":
            ordering = spec.order
        # "connected": by current too, in circuits wired with the node's own connections
        self.connected_order = ordering == "connected"
        # "graph": by current too, in the circuits on each node's H-search graph (Wolve's)
        self.graph_order = ordering == "graph"
        # "policy": by the value network's move head, read on each node's stones
        self.policy = network.move_head() if ordering == "policy" else None
        self.ordering = ("current" if self.connected_order or self.graph_order
                         or self.policy is not None else ordering)
        self.rank_cache: dict[int, list[int]] = {}  # Zobrist key -> cells by current
        self.tt_size = tt_size
        self.width = width
        self.ply_widths = tuple(ply_widths)  # the widths of plies 1, 2, ... (then ``width``)
        self.root_width = root_width  # root moves kept past depth 2 (0: all of them)
        self.root_moves = root_moves  # root moves searched at all, by order (0: all; -1: auto)
        # moves the root cut left out that the value network's move head ranks highest,
        # searched beside the kept ones (a second opinion on which moves deserve a search)
        self.root_policy = root_policy
        self.root_head = network.move_head() if root_policy else None
        self.quiescence = quiescence  # leaves also score the restoring answer to an intrusion
        # the move's worth, added to a leaf's static value for the side to move: without it
        # a leaf's value swings with its ply's parity by more than the gaps between moves,
        # and leaves of both parities meet (below a forced reply, searched without using
        # depth, and in table entries left by the previous move's search)
        self.tempo = tempo if spec.tempo else 0.0
        # knowledge: fill-in, connections and mustplay at the root, the root's edge-to-edge
        # connections checked at every node (hexengine.knowledge)
        self.knowledge = knowledge
        self.refresh_depth = refresh_depth  # plies below the root that rebuild the mover's
        self.threat_cache: dict[int, EdgeThreats] = {}  # connections, by Zobrist key
        self.root_info: Optional[analysis.RootKnowledge] = None
        self.threats = EdgeThreats.empty()
        self.use_tt = use_tt
        self.randomize = randomize
        self.rng = random.Random(seed)
        self.tt: dict[int, tuple] = {}
        self.generation = 0
        self.eval_cache: dict[int, float] = {}  # Zobrist key -> static value, kept per game
        self.eval_cache_size = 500_000

    # --- public ------------------------------------------------------------------------
    def search(self, board: Board, colour: int, deadline: Optional[float] = None,
               max_depth: int = 64, stop: Optional[threading.Event] = None,
               on_iteration: Optional[Callable[[SearchResult], None]] = None,
               avoid: int = 0) -> SearchResult:
        """Search ``board`` for ``colour`` until ``max_depth``, ``deadline`` or ``stop``;
        root moves in ``avoid`` (a bitboard: moves the solver proved to lose) are left out
        while any other is left."""
        start_time = time.monotonic()
        self._prepare(board, colour, deadline, stop)
        result = self._search(colour, deadline, max_depth, on_iteration, start_time, avoid)
        result.nodes = max(result.nodes, self.nodes)
        result.elapsed = time.monotonic() - start_time
        if self.root_info is not None:
            result.knowledge = self.root_info.counts()
        return result

    # --- internals -----------------------------------------------------------------------
    def _search(self, colour: int, deadline: Optional[float], max_depth: int,
                on_iteration: Optional[Callable[[SearchResult], None]],
                start_time: float, avoid: int = 0) -> SearchResult:
        geo = self.geo
        stones = self.stones
        # immediate facts first: a win now, or the only block of a win next move
        d_own, own_cells = path_cells(geo, stones, colour)
        if d_own == 1:
            move = (own_cells & -own_cells).bit_length() - 1
            return SearchResult(move, WIN, 1, 1, time.monotonic() - start_time, [move],
                                proved=True)
        allowed = geo.mask
        if self.knowledge:
            share = None if deadline is None else start_time + ANALYSIS_SHARE * (
                deadline - start_time)
            info = self.root_info = analysis.analyse_root(geo, stones, colour, share)
            if not info.decided:
                self._set_stones(info.stones)
                stones = self.stones
                allowed = info.moves
                if info.verdict != LOST:  # when lost, search for the most stubborn defence
                    self.threats = info.threats
                if self.root_wires:
                    # the root's connections between groups and edges wire up the circuits
                    self.links = resistance.prepare_links(geo, info.links())
                    self.eval_cache.clear()  # values under other roots' wires
                    self.rank_cache.clear()
                elif self.root_links and self._node_knowledge and analysis.wide_root(geo):
                    # (only a wide root build knows what the nodes' default builds miss)
                    self.node_links = resistance.prepare_links(geo, info.links())
                    self.connection_cache.clear()  # values under other roots' wires
                    self.wide_cache.clear()
                    self.eval_cache.clear()
                d_own, own_cells = path_cells(geo, stones, colour)
        self._threatened = any(self.threats.full) or any(self.threats.semi)
        root_moves = self._ordered_moves(colour, 0, -1, d_own, own_cells, allowed)
        if avoid:
            root_moves = [m for m in root_moves if not (avoid >> m) & 1] or root_moves
        if self.root_info is not None and (deadline is None or self.root_info.build_seconds / 2
                                           * len(root_moves) < REFRESH_SHARE
                                           * (deadline - start_time)):
            self._refresh_plies = self.refresh_depth  # the rebuilds below the root fit
        if not root_moves:  # two winning threats against us: lost, block one anyway
            _, opp_cells = path_cells(geo, stones, 1 - colour)
            move = (opp_cells & -opp_cells).bit_length() - 1
            return SearchResult(move, -(WIN - 1), 1, 1, time.monotonic() - start_time, [move],
                                proved=True)
        if len(root_moves) == 1:
            move = root_moves[0]
            verdict = self.root_info.verdict if self.root_info is not None else OPEN
            if verdict == OPEN:
                return SearchResult(move, self.evaluate(geo, stones, colour), 0, 1, 0.0, [move])
            score = WIN - 2 if verdict == WIN_NOW else -(WIN - 2)  # as the tree scores them
            return SearchResult(move, score, 0, 1, 0.0, [move], proved=True)
        if self.randomize:
            self._shuffle_ties(root_moves, colour)
        best = SearchResult(root_moves[0] if root_moves else -1, 0.0, 0, 0, 0.0,
                            root_moves[:1])
        max_depth = min(max_depth, geo.mask.bit_count())
        set_aside: list[int] = []  # root moves left out of the deeper iterations
        keep = self.root_moves if self.root_moves >= 0 else default_root_moves(
            geo.mask.bit_count())
        if keep and len(root_moves) > keep:
            set_aside = root_moves[keep:]
            del root_moves[keep:]
            if self.root_head is not None:
                added = self._head_picks(colour, set_aside, self.root_policy)
                root_moves.extend(added)
                set_aside = [m for m in set_aside if m not in added]
        for depth in range(1, max_depth + 1):
            iter_start = time.monotonic()
            if deadline is not None and deadline - iter_start < MIN_ITERATION_SHARE * (
                    deadline - start_time):
                # an iteration that cannot finish still pays while time is left: its first
                # root move is the best so far, and any move it proves better is taken
                break
            self._depth_cut = False
            self._width_cut = False
            try:
                score, move, scores = self._root(root_moves, depth, colour)
                complete = True
            except SearchAborted:
                score, move, scores = self._partial
                complete = False
            elapsed = time.monotonic() - start_time
            if move is None:  # aborted before the first root move finished
                best.complete = False
                break
            pv = self._pv(move, colour, depth)
            best = SearchResult(move, score, depth, self.nodes, elapsed, pv, scores, complete)
            if on_iteration is not None:
                on_iteration(best)
            if not complete:
                break
            if score <= -WIN_THRESHOLD and set_aside:
                # every move kept loses: the ones set aside get their deeper search too
                root_moves.extend(set_aside)
                set_aside = []
                continue
            root_moves.remove(move)
            root_moves.insert(0, move)
            if not self._depth_cut:
                break  # every line ends in a decided position: deeper finds nothing new
            if abs(score) >= WIN_THRESHOLD and not self._width_cut and not (
                    score < 0 and set_aside):
                break  # proved: no move was left out on the way
            if (self.root_width and depth >= 2 and len(root_moves) > self.root_width
                    and score > -WIN_THRESHOLD):
                # every root move has had a depth-2 search: deeper ones keep the best
                # (Wolve's root width), best first, so the time goes to depth
                root_moves.sort(key=lambda m: scores.get(m, -WIN - 1), reverse=True)
                set_aside += root_moves[self.root_width:]
                del root_moves[self.root_width:]
        best.proved = abs(best.score) >= WIN_THRESHOLD and best.complete and not (
            self._width_cut or (best.score < 0 and set_aside))
        return best

    def _prepare(self, board: Board, colour: int, deadline: Optional[float],
                 stop: Optional[threading.Event]) -> None:
        self.geo = board.geo
        self.stones = list(board.stones)
        self.hash = board.hash
        self.zobrist = zobrist_keys(board.geo.max_index)
        self.deadline = deadline
        self.stop = stop
        self.leaf_seconds = 0.0  # the slowest recent leaf: no node starts that cannot end
        # (at most LEAF_SHARE of the budget: one slow leaf, a kernel still loading, must not
        # end the search early)
        budget = 0.0 if deadline is None else max(deadline - time.monotonic(), 0.0)
        self.leaf_cap = LEAF_SHARE * budget
        self.nodes = 0
        self.killers: list[list[int]] = [[-1, -1] for _ in range(board.geo.size + 2)]
        self.history = [0] * board.geo.max_index
        self.generation += 1
        self._partial = (0.0, None, {})
        self.centre_order, self.centre_rank = board.geo.centre_order, board.geo.centre_rank
        self.threats = EdgeThreats.empty()
        self.root_info = None
        self.links: Optional[resistance.Links] = None
        if self.node_links is not None:
            self.node_links = None
            self.connection_cache.clear()
            self.wide_cache.clear()
            self.eval_cache.clear()
        self.threat_cache.clear()  # refreshed threats inherit from this root
        self._threatened = False  # self.threats has carriers to check at each node
        self._refresh_plies = 0  # plies below the root that rebuild the mover's connections
        # interior nodes build their own connections where the compiled H-search runs
        self._node_knowledge = self.node_connections and resistance.hsearch.usable(board.geo)
        self._wide_plies = self.wide_plies if analysis.wide_root(board.geo) else 0
        self._depth_cut = False  # a leaf was scored statically in this iteration
        self._width_cut = False  # a node's moves were cut to the width in this iteration

    def _refresh(self, mover: int, ply: int):
        """Entering a node ``ply`` plies deep after ``mover``'s stone: within the refresh
        depth, the threats below it use ``mover``'s connections built afresh (cached per
        position).  Returns what to restore afterwards, or None when nothing changed."""
        if ply > self._refresh_plies:
            return None
        saved = (self.threats, self._threatened)
        key = self.hash ^ (SIDE_KEY if mover == 0 else 0)
        threats = self.threat_cache.get(key)
        if threats is None:
            threats = analysis.refresh_threats(
                self.geo, self.stones, mover, self.threats, self.deadline,
                vc.WIDE_LIMITS if ply <= self._wide_plies else None)
            self.threat_cache[key] = threats
        self.threats = threats
        self._threatened = any(threats.full) or any(threats.semi)
        return saved

    def _set_stones(self, stones: list[int]) -> None:
        """Search ``stones`` (the root after fill-in) instead: the hash follows the stones."""
        self.stones = list(stones)
        h = 0
        for colour in (0, 1):
            keys = self.zobrist[colour]
            bits = stones[colour]
            while bits:
                low = bits & -bits
                h ^= keys[low.bit_length() - 1]
                bits ^= low
        self.hash = h

    def value(self, board: Board, colour: int, depth: int) -> float:
        """The fixed-depth negamax value of a position (no deadline); for testing."""
        self._prepare(board, colour, None, None)
        return self._negamax(depth, -WIN - 1, WIN + 1, colour, 0)

    def _check_time(self) -> None:
        if self.stop is not None and self.stop.is_set():
            raise SearchAborted
        if self.deadline is not None and (time.monotonic() + self.leaf_seconds
                                          >= self.deadline):
            raise SearchAborted

    def _shuffle_ties(self, moves: list[int], colour: int) -> None:
        """Shuffle the root moves that share the leading ordering group."""
        if len(moves) > 1:
            head = moves[:max(2, min(len(moves), 4))]
            self.rng.shuffle(head)
            moves[:len(head)] = head

    def _ordered_moves(self, colour: int, ply: int, tt_move: int,
                       d_own: int, own_cells: int, allowed: int, last: int = -1) -> list[int]:
        """Moves to search, best first; [] when the opponent has two or more winning cells
        (every move loses).  Order: TT move, killers, then by current (``_by_current``) or,
        with path ordering, cells on both colours' shortest paths, on the opponent's, on our
        own, then the rest by centre distance, history breaking ties inside each group.  The
        width limit (if any) cuts the tail below the root; the root keeps every move."""
        geo = self.geo
        stones = self.stones
        d_opp, opp_cells = path_cells(geo, stones, 1 - colour)
        if d_opp == 1:
            if opp_cells & (opp_cells - 1):
                return []
            return [opp_cells.bit_length() - 1]
        empty = allowed & ~(stones[0] | stones[1])
        moves: list[int] = []
        taken = 0
        if tt_move >= 0 and (empty >> tt_move) & 1:
            moves.append(tt_move)
            taken = 1 << tt_move
        for k in self.killers[ply]:
            if k >= 0 and (empty >> k) & 1 and not (taken >> k) & 1:
                moves.append(k)
                taken |= 1 << k
        if self.ordering == "current":
            return self._cut_to_width(
                self._by_current(colour, moves, taken, empty, ply, last), ply)
        hist = self.history
        rank = self.centre_rank
        own_cells &= empty
        opp_cells &= empty
        both = own_cells & opp_cells
        for group in (both, opp_cells & ~both, own_cells & ~both):
            group &= ~taken
            if group:
                cells = []
                while group:
                    low = group & -group
                    cells.append(low.bit_length() - 1)
                    group ^= low
                if len(cells) > 1:
                    cells.sort(key=lambda c: hist[c] * 64 - rank[c], reverse=True)
                moves.extend(cells)
        rest = empty & ~(own_cells | opp_cells | taken)
        if rest:
            tail = [c for c in self.centre_order if (rest >> c) & 1]
            if len(tail) > 1:
                tail.sort(key=lambda c: hist[c], reverse=True)  # stable: centre order kept
            moves.extend(tail)
        return self._cut_to_width(moves, ply)

    def _head_picks(self, colour: int, candidates: list[int], count: int) -> list[int]:
        """The first ``count`` of ``candidates`` by the move head's ranking of the root."""
        inside = set(candidates)
        ranked = self.root_head.ranked_moves(self.geo, self.stones, colour)
        return [m for m in ranked if m in inside][:count]

    def _cut_to_width(self, moves: list[int], ply: int) -> list[int]:
        """The first moves up to the width of this ply; the root is never cut."""
        if not ply:
            width = 0
        elif ply <= len(self.ply_widths):
            width = self.ply_widths[ply - 1]
        else:
            width = self.width
        if width and len(moves) > width:
            del moves[width:]
            self._width_cut = True
        return moves

    def _by_current(self, colour: int, moves: list[int], taken: int,
                    allowed: int, ply: int = 0, last: int = -1) -> list[int]:
        """``moves`` (TT move, killers) then the other empty cells by current, most first
        (or by the move head's logits, with policy ordering).  One resistance solve (or
        one network pass) per position, cached by Zobrist key; the graph circuit's is read
        on the filled board, and keeps the mover's build for the children (``Held``)."""
        key = self.hash ^ (SIDE_KEY if colour else 0)
        ranked = self.rank_cache.get(key)
        if ranked is None:
            if self.policy is not None:
                ranked = self.policy.ranked_moves(self.geo, self.stones, colour)
            elif self.graph_order:
                ranked = vc_graph.rank_moves(self.geo, self._filled(), self.held, ply, colour,
                                             self._parent(colour, last))
            else:
                links = self.links
                if self.connected_order and resistance.hsearch.usable(self.geo):
                    links = resistance.fresh_links(self.geo, self.stones)
                ranked = resistance.rank_moves(self.geo, self.stones, colour, links)
            if len(self.rank_cache) >= self.eval_cache_size // 4:
                self.rank_cache.clear()
            self.rank_cache[key] = ranked
        skip = taken | ~allowed
        moves.extend(cell for cell in ranked if not (skip >> cell) & 1)
        return moves

    def _root(self, moves: list[int], depth: int, colour: int):
        alpha = -WIN - 1
        beta = WIN + 1
        best_move = None
        best_score = -WIN - 1
        scores: dict[int, float] = {}
        stones = self.stones
        zob = self.zobrist[colour]
        self._partial = (best_score, best_move, scores)
        for i, move in enumerate(moves):
            bit = 1 << move
            stones[colour] |= bit
            self.hash ^= zob[move]
            saved = self._refresh(colour, 1)
            try:
                if i == 0:
                    score = -self._negamax(depth - 1, -beta, -alpha, 1 - colour, 1, move)
                else:
                    score = -self._negamax(depth - 1, -alpha - 1, -alpha, 1 - colour, 1, move)
                    if score > alpha:
                        score = -self._negamax(depth - 1, -beta, -alpha, 1 - colour, 1, move)
            finally:
                stones[colour] ^= bit
                self.hash ^= zob[move]
                if saved is not None:
                    self.threats, self._threatened = saved
            scores[move] = score
            if score > best_score:
                best_score = score
                best_move = move
                self._partial = (best_score, best_move, scores)
            if score > alpha:
                alpha = score
        self._store(self.hash ^ (SIDE_KEY if colour else 0), depth, best_score, EXACT, best_move)
        return best_score, best_move, scores

    def _negamax(self, depth: int, alpha: float, beta: float, colour: int, ply: int,
                 last: int = -1) -> float:
        """Negamax value of the current position for ``colour`` to move, ``ply`` deep;
        ``last`` is the cell of the stone just played (−1 when not known)."""
        self.nodes += 1
        # every node: a node costs 20 us to 50 ms (resistance on 52x52), a check 0.2 us
        self._check_time()
        geo = self.geo
        stones = self.stones
        if self._threatened:
            verdict, must = self.threats.status(stones, colour,
                                                geo.mask & ~(stones[0] | stones[1]))
            if verdict:
                return WIN - ply - 2 if verdict > 0 else -(WIN - ply - 2)
        else:
            must = geo.mask
        if depth <= 0:
            self._depth_cut = True
            value = self._leaf(colour, ply, last)
            if self.quiescence and last >= 0 and abs(value) < WIN_THRESHOLD:
                # the last stone broke into a bridge or template II of the side to move:
                # it may also answer by restoring it (the cut is not yet made)
                reply = responses.restoring_reply(geo, stones, colour, last)
                if reply >= 0:
                    stones[colour] |= 1 << reply
                    self.hash ^= self.zobrist[colour][reply]
                    try:
                        restored = -self._leaf(1 - colour, ply + 1, reply)
                    finally:
                        stones[colour] ^= 1 << reply
                        self.hash ^= self.zobrist[colour][reply]
                    if restored > value:
                        value = restored
            return value
        d_own, own_cells = path_cells(geo, stones, colour)
        if d_own == 1:
            return WIN - ply
        if d_own == NO_PATH:
            return -(WIN - ply)
        key = self.hash ^ (SIDE_KEY if colour else 0)
        tt_move = -1
        entry = self.tt.get(key) if self.use_tt else None
        if entry is not None:
            e_depth, e_flag, e_score, e_move, _ = entry
            tt_move = e_move
            if e_depth >= depth:
                if e_score >= WIN_THRESHOLD:
                    e_score -= ply
                elif e_score <= -WIN_THRESHOLD:
                    e_score += ply
                if (e_flag == EXACT or (e_flag == LOWER and e_score >= beta)
                        or (e_flag == UPPER and e_score <= alpha)):
                    # the stored value may rest on static leaves or on a width cut
                    if abs(e_score) < WIN_THRESHOLD:
                        self._depth_cut = True
                    elif self.width or any(self.ply_widths):
                        self._width_cut = True
                    return e_score
        if self._node_knowledge:
            # this node's own connections, as at a leaf (and usually cached from when it was
            # one): a semi between the mover's edges wins, and only the mustplay is searched
            _, own, opp, node_must = self._connections(key, colour, ply <= self._wide_plies,
                                                       ply, last, True)
            decided = _decided_by_connections(own, opp, ply)
            if decided is not None:
                return decided
            must &= node_must
            if not must:
                return -(WIN - ply - 3)
        moves = self._ordered_moves(colour, ply, tt_move, d_own, own_cells, must, last)
        if not moves:
            return -(WIN - ply - 1)
        # with knowledge, a forced reply (the one block of a threat) costs no depth: ladders
        # and other forcing sequences are read to their end
        child = depth if self.knowledge and len(moves) == 1 and self.width != 1 else depth - 1
        alpha0 = alpha
        best = -WIN - 1
        best_move = moves[0]
        zob = self.zobrist[colour]
        other = 1 - colour
        first = True
        refresh = ply < self._refresh_plies
        reduce_after = self.reduce_after if child >= 2 else 0
        for i, move in enumerate(moves):
            bit = 1 << move
            stones[colour] |= bit
            self.hash ^= zob[move]
            saved = self._refresh(colour, ply + 1) if refresh else None
            try:
                if first:
                    score = -self._negamax(child, -beta, -alpha, other, ply + 1, move)
                    first = False
                else:
                    score = alpha + 1
                    if reduce_after and i >= reduce_after:
                        score = -self._negamax(child - 1, -alpha - 1, -alpha, other, ply + 1,
                                               move)
                    if score > alpha:
                        score = -self._negamax(child, -alpha - 1, -alpha, other, ply + 1,
                                               move)
                        if alpha < score < beta:
                            score = -self._negamax(child, -beta, -alpha, other, ply + 1,
                                                   move)
            finally:
                stones[colour] ^= bit
                self.hash ^= zob[move]
                if saved is not None:
                    self.threats, self._threatened = saved
            if score > best:
                best = score
                best_move = move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        killers = self.killers[ply]
                        if killers[0] != move:
                            killers[1] = killers[0]
                            killers[0] = move
                        self.history[move] += depth * depth
                        break
        flag = EXACT if alpha0 < best < beta else (LOWER if best >= beta else UPPER)
        stored = best
        if stored >= WIN_THRESHOLD:
            stored += ply
        elif stored <= -WIN_THRESHOLD:
            stored -= ply
        self._store(key, depth, stored, flag, best_move)
        return best

    def _leaf(self, colour: int, ply: int, last: int = -1) -> float:
        """The static value of the current position for ``colour`` to move, ``ply`` deep
        (``last`` the cell of the stone just played, −1 when not known).
        Leaves repeat through transpositions (the same stones in another order), so their
        values are cached by Zobrist key; a slow evaluation is paid once."""
        geo = self.geo
        stones = self.stones
        key = self.hash ^ (SIDE_KEY if colour else 0)
        cache = self.eval_cache
        value = cache.get(key)
        if value is None:
            if len(cache) >= self.eval_cache_size:
                cache.clear()
            began = time.monotonic()
            if self.links is not None:
                value = resistance.evaluate(geo, stones, colour, self.links)
            elif self.connected_leaves:
                # this leaf's own connections: a semi between the mover's edges wins
                # in one, a full one between the opponent's has lost
                value, own, opp, _ = self._connections(key, colour, ply <= self._wide_plies,
                                                       ply, last)
                decided = _decided_by_connections(own, opp, ply)
                if decided is not None:
                    value = decided
                elif self.leaf_value is not None:  # (it reads the board the circuit read)
                    value = self.leaf_value(geo, self._filled(), colour, value)
            else:
                value = self.evaluate(geo, stones, colour)
            # (a leaf costs ~1 ms on 9x9 and ~40 ms on 52x52, more on a loaded machine)
            self.leaf_seconds = min(self.leaf_cap,
                                    max(time.monotonic() - began, 0.75 * self.leaf_seconds))
            cache[key] = value if abs(value) < WIN_THRESHOLD else (
                value + ply if value > 0 else value - ply)
        elif abs(value) >= WIN_THRESHOLD:  # cached without its ply
            value = value - ply if value > 0 else value + ply
        if abs(value) < WIN_THRESHOLD:
            value += self.tempo
        return value

    def _connections(self, key: int, colour: int, wide: bool = False, ply: int = 0,
                     last: int = -1, inner: bool = False) -> tuple[float, int, int, int]:
        """What the node ``key`` with ``colour`` to move knows, as Wolve's nodes do: its
        dead and captured cells filled in, then ``resistance.connected`` on that board,
        with the vulnerable cells taken out of its mustplay.  Cached by Zobrist key for the
        whole game (a position's knowledge does not depend on the root), or for one search
        when the root's wires join its circuit (``root_links``).  The graph circuit reads
        the position from the builds kept a ply up (``vc_graph.Held``: ``ply`` deep, after
        ``last``), and an ``inner`` node keeps its mover's build for its children."""
        cache = self.wide_cache if wide else self.connection_cache
        entry = cache.get(key)
        if entry is None:
            if len(cache) >= self.eval_cache_size:
                cache.clear()
            geo = self.geo
            filled = self._filled()
            if self.graph_circuit:
                value, own, opp, must = vc_graph.connected(
                    geo, filled, colour, None, self.held, ply, self._parent(colour, last),
                    inner)
            else:
                value, own, opp, must = resistance.connected(
                    geo, filled, colour, self.node_links, vc.WIDE_LIMITS if wide else None)
            if must and self.knowledge and not (own or opp == 2):
                must = must & ~inferior.prunable(geo, filled, colour) or must
            entry = cache[key] = (value, own, opp, must)
        return entry

    def _parent(self, colour: int, last: int) -> Optional[Callable[[], list]]:
        """The filled board a ply up (before ``last``, played by the opponent of
        ``colour``), computed when asked: the position whose kept build serves this one."""
        if last < 0:
            return None
        before = list(self.stones)
        before[1 - colour] &= ~(1 << last)
        return functools.partial(self._filled, before)

    def _filled(self, stones: Optional[list] = None) -> list:
        """The current stones (or ``stones``) with their dead and captured cells filled
        in, the board a node's connections are read on (as they are: without knowledge, or
        with no connections to read, the plain circuit is as cheap as it comes)."""
        stones = self.stones if stones is None else stones
        if self.knowledge and resistance.hsearch.usable(self.geo):
            return inferior.play_fill_in(self.geo, stones)[0]
        return stones

    def _store(self, key: int, depth: int, score: float, flag: int, move: Optional[int]) -> None:
        if not self.use_tt:
            return
        tt = self.tt
        old = tt.get(key)
        if old is not None and old[4] == self.generation and old[0] > depth:
            return  # keep the deeper result of this search
        if len(tt) >= self.tt_size and old is None:
            gen = self.generation
            for k in [k for k, v in tt.items() if v[4] != gen]:
                del tt[k]
            if len(tt) >= self.tt_size * 0.9:
                tt.clear()
        tt[key] = (depth, flag, score, -1 if move is None else move, self.generation)

    def _pv(self, move: int, colour: int, depth: int) -> list[int]:
        """The principal variation: the root move, then TT moves while they are legal."""
        pv = [move]
        stones = list(self.stones)
        h = self.hash
        zob = self.zobrist
        c = colour
        stones[c] |= 1 << move
        h ^= zob[c][move]
        c = 1 - c
        seen = {h}
        for _ in range(depth - 1):
            entry = self.tt.get(h ^ (SIDE_KEY if c else 0))
            if entry is None or entry[3] < 0:
                break
            m = entry[3]
            if (stones[0] | stones[1]) >> m & 1:
                break
            pv.append(m)
            stones[c] |= 1 << m
            h ^= zob[c][m]
            c = 1 - c
            if h in seen:
                break
            seen.add(h)
        return pv


def _decided_by_connections(own: int, opp: int, ply: int) -> Optional[float]:
    """A node's value from its connections (``Searcher._connections``), ``ply`` deep, when
    they decide it: a semi (or full) connection between the mover's edges wins in one, a
    full one between the opponent's has lost; None otherwise."""
    if own:
        return WIN - ply - 1
    if opp == 2:
        return -(WIN - ply - 2)
    return None


def _minimax(board: Board, colour: int, depth: int, evaluation: str,
             deadline: Optional[float] = None, stop: Optional[threading.Event] = None):
    """Plain negamax without pruning, TT or ordering; returns (value, best move, nodes).

    Same conventions as Searcher: a side whose distance is 1 wins (WIN - ply); a side facing
    two or more winning cells of the opponent loses; a side with no path has lost."""
    geo = board.geo
    evaluate = get_evaluation(evaluation)
    stones = list(board.stones)
    nodes = 0

    def rec(d: int, c: int, ply: int) -> tuple[float, int]:
        nonlocal nodes
        nodes += 1
        if ((stop is not None and stop.is_set())
                or (deadline is not None and time.monotonic() >= deadline)):
            raise SearchAborted
        if d <= 0:
            return evaluate(geo, stones, c), -1
        d_own, own_cells = path_cells(geo, stones, c)
        if d_own == 1:
            return WIN - ply, (own_cells & -own_cells).bit_length() - 1
        if d_own == NO_PATH:
            return -(WIN - ply), -1
        d_opp, opp_cells = path_cells(geo, stones, 1 - c)
        if d_opp == 1 and opp_cells & (opp_cells - 1):
            return -(WIN - ply - 1), (opp_cells & -opp_cells).bit_length() - 1
        best, best_move = -WIN - 1.0, -1
        # the one cell that stops a win next move is forced (every other move loses)
        candidates = opp_cells if d_opp == 1 else geo.mask & ~(stones[0] | stones[1])
        for m in geo.iter_bits(candidates):
            stones[c] |= 1 << m
            v = -rec(d - 1, 1 - c, ply + 1)[0]
            stones[c] ^= 1 << m
            if v > best:
                best, best_move = v, m
        return best, best_move

    value, move = rec(depth, colour, 0)
    return value, move, nodes


def minimax_value(board: Board, colour: int, depth: int, evaluation: str) -> float:
    """The plain-minimax value of a position: the reference the search must match."""
    return _minimax(board, colour, depth, evaluation)[0]


def minimax_root(board: Board, colour: int, depth: int, evaluation: str,
                 deadline: Optional[float] = None,
                 stop: Optional[threading.Event] = None) -> SearchResult:
    """The baseline player: plain minimax (no pruning, TT or ordering) deepened one ply at a
    time up to ``depth``; the deepest search finished before ``deadline``/``stop`` answers."""
    result = None
    for d in range(1, max(1, depth) + 1):
        try:
            value, move, nodes = _minimax(board, colour, d, evaluation, deadline, stop)
        except SearchAborted:
            break
        result = SearchResult(move, value, d, nodes, 0.0, [move])
        if abs(value) >= WIN_THRESHOLD:
            break
    if result is None:  # not even depth 1 finished: the first empty cell
        move = (board.empty & -board.empty).bit_length() - 1
        result = SearchResult(move, 0.0, 0, 0, 0.0, [move], complete=False)
    return result
