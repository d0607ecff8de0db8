"""Monte Carlo tree search (``--algorithm mcts``): MoHex's kind of search beside Wolve's.

The root is read as the alpha-beta search reads it (``analysis.analyse_root``: fill-in,
both colours' connections, mustplay less inferior cells); where that decides the move (a
win at sight, a lost position, a single move) the alpha-beta searcher answers, as it
would.  Otherwise the tree starts from the filled-in board with the root's moves as its
children and grows by ``mcts_kernel.run`` (RAVE, playouts that answer bridge and edge
template intrusions) until the deadline; the move played is the root child visited most.
A node visited ``KNOW_AT`` times gets its knowledge (MoHex's knowledge threshold): decided
by its connections, it is scored without playouts; otherwise its moves are cut to its
mustplay less inferior cells.  The solver's proofs come first in ``Player.genmove``, as
for every algorithm.  Figures in docs/mcts.md.
"""
from __future__ import annotations

import threading
import time
from typing import Callable, Optional

import numpy as np

from . import mcts_kernel
from .board import Board
from .evaluation import network
from .knowledge import analysis, inferior, vc
from .knowledge.threats import OPEN
from .search import WIN_THRESHOLD, SearchResult, Searcher

ANALYSIS_SHARE = 0.25  # of the budget, at most, for the root analysis
CAPACITY = 1_000_000  # tree nodes (60 MB of arrays); a full tree stops growing
EXPAND_AT = 4  # visits before a leaf gets its children
RAVE_K = 600.0  # RAVE weight: β = √(K / (3n + K))
EXPLORE = 0.03  # UCB term's factor
FIRST_CHUNK = 64  # iterations of the first kernel call; later ones aim at CHUNK_SECONDS
MIN_CHUNK = 16
CHUNK_SECONDS = 0.02
KNOW_AT = 150  # visits after which a node's moves are cut to its mustplay less inferior cells
KNOWLEDGE_SHARE = 0.3  # of the budget, at most, for the tree's knowledge
PENDING = 64  # nodes waiting for their knowledge before a kernel call returns
KNOWLEDGE_MARGIN = 0.03  # seconds before the deadline past which no node's knowledge is read
PRIOR_WEIGHT = 0.0  # the move head's prior: a bonus PRIOR_WEIGHT · p · √N / (1 + n); 0: none


class MctsSearcher:
    """MCTS over the root the knowledge leaves open; ``fallback`` (an alpha-beta
    ``Searcher``) answers where the root knowledge decides the move."""

    def __init__(self, fallback: Searcher, seed: int = 0, capacity: int = CAPACITY,
                 prior_weight: float = PRIOR_WEIGHT) -> None:
        self.fallback = fallback
        self.prior_weight = prior_weight
        self.head = None
        if prior_weight > 0:
            try:
                self.head = network.move_head()
            except ValueError:  # weights without a move head: no priors
                self.prior_weight = 0.0
        self.seed = seed or 0x9E3779B97F4A7C15
        self.capacity = capacity
        self._tree: Optional[tuple] = None
        self._tables: dict[int, np.ndarray] = {}
        self.known = 0  # nodes given their knowledge, last search

    def search(self, board: Board, colour: int, deadline: Optional[float] = None,
               max_depth: int = 64, stop: Optional[threading.Event] = None,
               on_iteration: Optional[Callable[[SearchResult], None]] = None,
               avoid: int = 0) -> SearchResult:
        """The most visited root move after searching until ``deadline`` or ``stop``
        (without a deadline, 20,000 playouts); root moves in ``avoid`` are left out while
        another is left."""
        started = time.monotonic()
        geo = board.geo
        if geo.width != geo.height:
            return self.fallback.search(board, colour, deadline, max_depth, stop,
                                        on_iteration, avoid)
        share = None if deadline is None else started + ANALYSIS_SHARE * (deadline - started)
        info = analysis.analyse_root(geo, list(board.stones), colour, share)
        moves = info.moves & ~avoid or info.moves
        if info.decided or info.verdict != OPEN or moves.bit_count() <= 1:
            return self.fallback.search(board, colour, deadline, max_depth, stop,
                                        on_iteration, avoid)
        size = geo.width
        cells = np.zeros(size * size, dtype=np.int8)
        allowed = np.zeros(size * size, dtype=np.uint8)
        index = {}
        for r in range(size):
            for c in range(size):
                cell = geo.index(c, r)
                k = r * size + c
                index[k] = cell
                if (info.stones[0] >> cell) & 1:
                    cells[k] = 1
                elif (info.stones[1] >> cell) & 1:
                    cells[k] = 2
                elif (moves >> cell) & 1:
                    allowed[k] = 1
        nbr = self._tables.get(size)
        if nbr is None:
            nbr = self._tables[size] = mcts_kernel.neighbours(size)
        stats, links, used = self._fresh_tree()
        self._expand_root(geo, info.stones, colour, stats, links, used, allowed, index)
        state = np.array([self.seed], dtype=np.uint64)
        pending = np.zeros(PENDING, dtype=np.int32)
        pending_n = np.zeros(1, dtype=np.int64)
        chunk = FIRST_CHUNK
        playouts = 0
        deepest = 0
        knowing = 0.0  # seconds spent on the tree's knowledge
        budget = None if deadline is None else deadline - started
        self.known = 0
        while True:
            began = time.monotonic()
            before = int(stats[0, mcts_kernel.VISITS])
            deepest = max(deepest, mcts_kernel.run(
                stats, links, used, cells, size, nbr, colour, chunk, EXPAND_AT, RAVE_K,
                EXPLORE, state, KNOW_AT, pending, pending_n, self.prior_weight))
            done = int(stats[0, mcts_kernel.VISITS]) - before
            playouts += done
            now = time.monotonic()
            per = (now - began) / max(done, 1)  # seconds a playout
            if pending_n[0]:
                if budget is None or knowing < KNOWLEDGE_SHARE * budget:
                    until = None if deadline is None else deadline - KNOWLEDGE_MARGIN
                    self.known += self._know(geo, info.stones, colour, stats, links, index,
                                             pending[:pending_n[0]], until)
                    knowing += time.monotonic() - now
                pending_n[0] = 0
                now = time.monotonic()
            if (stop is not None and stop.is_set()) or (
                    deadline is None and playouts >= 20_000):
                break
            if deadline is not None:
                left = deadline - now
                if left <= MIN_CHUNK * per * 1.5:
                    break
                chunk = max(MIN_CHUNK, min(int(min(CHUNK_SECONDS, left / 2) / per), 1 << 16))
        self.seed = int(state[0])
        result = self._result(stats, links, index, playouts, deepest, started)
        result.knowledge = info.counts()
        return result

    def _know(self, geo, root_stones: list[int], colour: int, stats: np.ndarray,
              links: np.ndarray, index: dict, nodes: np.ndarray,
              until: Optional[float] = None) -> int:
        """Each node's knowledge, as the alpha-beta search reads its nodes: its fill-in,
        then both colours' connections; a node they decide is marked won or lost for its
        mover, in another the children outside its mustplay less its inferior cells are
        marked pruned.  Stops at ``until``; returns how many nodes it read."""
        move_col, parent_col = mcts_kernel.MOVE, mcts_kernel.PARENT
        read = 0
        for v in nodes:
            if until is not None and time.monotonic() >= until:
                break
            read += 1
            v = int(v)
            line = []
            node = v
            while node > 0:
                line.append(index[int(links[node, move_col])])
                node = int(links[node, parent_col])
            stones = list(root_stones)
            mover = colour
            for cell in reversed(line):
                stones[mover] |= 1 << cell
                mover = 1 - mover
            filled = inferior.play_fill_in(geo, stones)[0]
            empty = geo.mask & ~(filled[0] | filled[1])
            if not empty:
                continue
            theirs = vc.build(geo, filled, 1 - mover)
            if theirs.edge_full_all():  # decided: the tree scores it without playouts
                links[v, mcts_kernel.FLAGS] |= mcts_kernel.LOST
                continue
            ours = vc.build(geo, filled, mover)
            if ours.edge_full_all() or ours.edge_semis_keyed():
                links[v, mcts_kernel.FLAGS] |= mcts_kernel.WON
                continue
            must = vc.mustplay(geo, filled, mover, theirs) & empty
            keep = must & ~inferior.prunable(geo, filled, mover) or must
            first, count = int(links[v, 0]), int(links[v, 1])
            for c in range(first, first + count):
                if not (keep >> index[int(links[c, move_col])]) & 1:
                    links[c, mcts_kernel.FLAGS] |= mcts_kernel.PRUNED
            self._set_priors(geo, stones, mover, stats, links, v, index)
        return read

    def _set_priors(self, geo, stones: list[int], mover: int, stats: np.ndarray,
                    links: np.ndarray, node: int, index: dict) -> None:
        """The move head's probabilities of the node's moves, as their priors."""
        if self.head is None:
            return
        probabilities = self.head.move_probabilities(geo, stones, mover)
        first, count = int(links[node, 0]), int(links[node, 1])
        for c in range(first, first + count):
            stats[c, mcts_kernel.PRIOR] = probabilities.get(
                index[int(links[c, mcts_kernel.MOVE])], 0.0)

    def _expand_root(self, geo, stones: list[int], colour: int, stats: np.ndarray,
                     links: np.ndarray, used: np.ndarray, allowed: np.ndarray,
                     index: dict) -> None:
        """The root's children (its allowed moves), with their priors."""
        cells = np.flatnonzero(allowed)
        count = len(cells)
        stats[1:1 + count] = 0.0
        links[1:1 + count] = 0
        links[1:1 + count, mcts_kernel.MOVE] = cells
        links[0, 0], links[0, 1] = 1, count
        used[0] = 1 + count
        self._set_priors(geo, stones, colour, stats, links, 0, index)

    def _fresh_tree(self) -> tuple:
        """The tree arrays, allocated once and reset for each search."""
        if self._tree is None:
            self._tree = mcts_kernel.new_tree(self.capacity)
        stats, links, used = self._tree
        stats[0] = 0.0
        links[0] = (0, 0, -1, -1, 0)
        used[0] = 1
        return stats, links, used

    def _result(self, stats: np.ndarray, links: np.ndarray, index: dict, playouts: int,
                deepest: int, started: float) -> SearchResult:
        first, count = int(links[0, 0]), int(links[0, 1])
        children = range(first, first + count)
        scores = {}
        for c in children:
            n = stats[c, mcts_kernel.VISITS]
            if n > 0:
                scores[index[int(links[c, mcts_kernel.MOVE])]] = _score(stats[c, 1] / n)
        best = max(children, key=lambda c: stats[c, mcts_kernel.VISITS])
        pv = []
        node = best
        while True:
            pv.append(index[int(links[node, mcts_kernel.MOVE])])
            f, k = int(links[node, 0]), int(links[node, 1])
            if not k or len(pv) >= 12:
                break
            node = max(range(f, f + k), key=lambda c: stats[c, mcts_kernel.VISITS])
            if stats[node, mcts_kernel.VISITS] < 10:
                break
        n = stats[best, mcts_kernel.VISITS]
        rate = stats[best, mcts_kernel.WINS] / n if n else 0.5
        return SearchResult(pv[0], _score(rate), deepest, playouts,
                            time.monotonic() - started, pv, scores)


def _score(rate: float) -> float:
    """A win rate as a search score: its logit, kept below the proved scores."""
    rate = min(max(rate, 1e-3), 1 - 1e-3)
    return max(-WIN_THRESHOLD / 2, min(WIN_THRESHOLD / 2, float(np.log(rate / (1 - rate)))))
