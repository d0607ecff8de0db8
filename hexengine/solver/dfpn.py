"""Depth-first proof-number search (DFPN): solves Hex positions outright.

Nagai's DFPN with a bounded transposition table keyed by the position (Zobrist keys of the
stones and the side to move, the 180° rotation folded in), Pawlewicz and Lew's 1+ε
threshold trick, weak disproof numbers (Ueda et al.: max + count - 1 instead of the sum,
so transpositions are not counted over and over), and proof sets (Benzene's idea): every
solved position carries the empty cells its proof depends on.  When a move of the side to
move is proved losing, every other move outside that proof is losing too, so the node's
move list shrinks as the search goes (the mustplay grows out of the proofs).

Conventions: a node is a position with a side to move ``colour``.  ``pn`` is the proof
number of "colour wins", ``dn`` of "colour loses"; ``pn == 0`` is a proved win, ``dn == 0``
a proved loss.  A proof set ``S`` (a bitboard of cells empty in the position) means: the
winner still wins in every position with the same winner stones and side to move that has
the cells of ``S`` empty, whatever else is on the board.  Winner stones are never stored
in it (the search only compares positions with the same winner stones).

What the solver knows of Hex comes from a knowledge object (``solver.knowledge``).
The solver never prints: progress goes through an optional callback.
"""
from __future__ import annotations

import math
import mmap
import threading
import time
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..board import zobrist_keys
from ..geometry import Geometry
from .knowledge import INF, LOSS, WIN, SimpleKnowledge, winning_cells


class Aborted(Exception):
    """The time limit passed or the stop flag was set."""


@dataclass
class SolveResult:
    """The outcome of one solve; ``winner`` is None when the position was not proved."""
    colour: int                      # the side to move
    winner: Optional[int] = None
    move: int = -1                   # a winning move, or the loser's most stubborn move
    pv: list[int] = field(default_factory=list)
    proof: int = 0                   # empty cells the proof depends on
    nodes: int = 0
    elapsed: float = 0.0
    pn: int = 0
    dn: int = 0
    searched: bool = False  # the root was proved move by move (not decided at sight)
    losing: int = 0  # unsolved: moves the table proves to lose (bitboard)

    @property
    def solved(self) -> bool:
        return self.winner is not None


class Solver:
    """DFPN over raw bitboards with a transposition table that lives across solves."""

    def __init__(self, knowledge=None, tt_size: int = 400_000, epsilon: float = 0.25,
                 weak: bool = True, widening: Optional[float] = None,
                 inherit_fill: bool = True) -> None:
        self.knowledge = knowledge if knowledge is not None else SimpleKnowledge()
        self.tt_size = tt_size
        self.epsilon = epsilon
        self.weak = weak
        # the share of a node's live moves considered, best first (Benzene's focused
        # DFPN: widening base 1, factor 0.25); None: the knowledge's for the board and
        # the solve's time limit
        self.widening = widening
        self._widen = 0.0
        self.use_history = True  # moves that won elsewhere are tried first
        self.inherit_fill = inherit_fill  # a node's filled cells stay filled below it
        self.history = [0] * 4096
        self.tt: dict[int, tuple] = {}
        # knowledge of interior positions (what expanding them found), by table key
        self.expansions: dict[int, tuple] = {}
        self.expansion_size = 60_000
        self.failed_at: Optional[tuple] = None  # (geometry, empty cells) of a failed try
        self.nodes = 0
        self.evictions = 0
        self._tables: dict[int, tuple] = {}
        # a parallel solve's worker (``parallel``): the entries it stores are noted in the
        # journal, and ``exchange`` is called every ``exchange_every`` seconds to trade them
        # (the worker sets both; the interval is ``parallel``'s)
        self.journal: Optional[dict[int, tuple]] = None
        self.exchange: Optional[Callable[[], None]] = None
        self.exchange_every = 0.0
        # a parallel worker's view of where the others are searching (``BusyMarks``)
        self.busy: Optional["BusyMarks"] = None
        self.root_key = -1

    # --- public ------------------------------------------------------------------------
    def clear(self) -> None:
        """Forget every proof (``dfpn-clear-tt``), and the builds the knowledge keeps."""
        self.tt.clear()
        self.expansions.clear()
        self._forget_builds()
        self.history = [0] * 4096  # by cell index (52×52 needs 2,756)

    def new_game(self) -> None:
        """Forget the knowledge of interior positions (a few KB a game, seldom met again in
        another game) but keep the proofs."""
        self.expansions.clear()
        self._forget_builds()

    def _forget_builds(self) -> None:
        builds = getattr(self.knowledge, "builds", None)
        if builds is not None:
            builds.clear()

    def solve(self, geo: Geometry, stones: list[int], colour: int,
              seconds: Optional[float] = None, stop: Optional[threading.Event] = None,
              progress: Optional[Callable[[dict], None]] = None,
              progress_every: float = 1.0) -> SolveResult:
        """Solve the position with ``colour`` to move, within ``seconds`` or until ``stop``.
        The result's ``winner`` is None unless it was proved."""
        started = time.monotonic()
        first = self.knowledge.focus_first(geo, seconds) if self.widening is None else 0.0
        if first:
            # Benzene's focus for a few seconds first, then every move; the kept
            # expansions list their moves in the focus's order, so they go
            result = self._solve(geo, stones, colour, first, stop, progress, progress_every,
                                 started, first)
            if result.solved or (stop is not None and stop.is_set()) or (
                    seconds is not None and time.monotonic() - started >= seconds):
                return result
            self.expansions.clear()
            nodes = result.nodes
            result = self._solve(geo, stones, colour, seconds, stop, progress,
                                 progress_every, started, seconds)
            result.nodes += nodes
            return result
        return self._solve(geo, stones, colour, seconds, stop, progress, progress_every,
                           started, seconds)

    def _solve(self, geo: Geometry, stones: list[int], colour: int, seconds: Optional[float],
               stop: Optional[threading.Event], progress: Optional[Callable[[dict], None]],
               progress_every: float, started: float, focus: Optional[float]) -> SolveResult:
        """``solve`` with the knowledge focused as for a solve of ``focus`` seconds."""
        self._setup(geo, stones, stop, progress, progress_every, started, seconds, focus)
        self.root_key = self._key(colour)[0]
        result = SolveResult(colour)
        done = self._decided(colour)
        if done is not None:
            result.winner = done
        else:
            try:
                self._mid(colour, INF, INF)
            except Aborted:
                pass
            entry = self._lookup(colour)
            if entry is not None:
                pn, dn, proof, best = entry
                result.pn, result.dn = pn, dn
                if pn == 0 or dn == 0:
                    result.winner = colour if pn == 0 else 1 - colour
                    result.proof = proof
                    result.move = best
                    result.searched = self.tt[self.root_key][4] > 1
            result.pv = self._pv(colour)
            if result.pv and result.move < 0:
                result.move = result.pv[0]
        result.nodes = self.nodes
        result.elapsed = time.monotonic() - started
        return result

    def find_winning(self, geo: Geometry, stones: list[int], colour: int,
                     seconds: Optional[float] = None, stop: Optional[threading.Event] = None,
                     progress: Optional[Callable[[dict], None]] = None
                     ) -> tuple[Optional[list[int]], int]:
        """Every winning move for ``colour`` to move: (moves in cell order, nodes), or
        (None, nodes) when time ran out or the stop flag was set first."""
        started = time.monotonic()
        deadline = None if seconds is None else started + seconds
        empty = geo.mask & ~(stones[0] | stones[1])
        stones = list(stones)
        winning: list[int] = []
        nodes = 0
        allowed = empty  # moves not yet shown to lose by another move's proof
        for m in geo.iter_bits(empty):
            if not (allowed >> m) & 1:
                continue
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                return None, nodes
            stones[colour] |= 1 << m
            try:
                res = self.solve(geo, stones, 1 - colour, left, stop, progress)
            finally:
                stones[colour] &= ~(1 << m)
            nodes += res.nodes
            if res.winner is None:
                return None, nodes
            if res.winner == colour:
                winning.append(m)
            else:
                allowed &= res.proof | (1 << m)
        return winning, nodes

    def settled_moves(self, geo: Geometry, stones: list[int], colour: int) -> tuple[int, int]:
        """(winning, losing) moves for ``colour`` to move, as bitboards: the empty cells whose
        position after the move the table holds proved (no search)."""
        self._setup(geo, stones, None, None, 1.0, time.monotonic(), None, None)
        h, hr = self.h, self.hr
        zob, zrot = self.zob[colour], self.zrot[colour]
        winning = losing = 0
        for m in geo.iter_bits(geo.mask & ~(stones[0] | stones[1])):
            self.h, self.hr = h ^ zob[m], hr ^ zrot[m]
            entry = self._lookup(1 - colour)
            if entry is not None:
                if entry[0] == 0:
                    losing |= 1 << m  # the opponent, to move, has won
                elif entry[1] == 0:
                    winning |= 1 << m
        self.h, self.hr = h, hr
        return winning, losing

    def expansion(self, geo: Geometry, stones: list[int], colour: int) -> tuple:
        """What the knowledge says of this position, ``(status, proof, best, children,
        just)``: from the expansions kept by an earlier solve of it, else asked afresh."""
        self._setup(geo, stones, None, None, 1.0, time.monotonic(), None, None)
        key, flip = self._key(colour)
        cached = self.expansions.get(key)
        if cached is not None and cached[0] == flip:
            return cached[1]
        return self.knowledge.expand(geo, list(stones), colour)

    def merge(self, entries: dict[int, tuple]) -> None:
        """Take another solver's positions (same board, same keys) into the table: every
        proof, and an unproved entry where this table holds no proof and no entry that
        cost more work."""
        tt = self.tt
        for key, entry in entries.items():
            if entry[0] and entry[1]:
                old = tt.get(key)
                if old is not None and (old[0] == 0 or old[1] == 0 or old[4] > entry[4]):
                    continue
            tt[key] = entry
        if len(self.tt) > self.tt_size:
            self._evict()

    def record(self, geo: Geometry, stones: list[int], colour: int, result: SolveResult) -> None:
        """Keep a proved result of this position, found elsewhere, in the table."""
        if result.winner is None:
            return
        self._setup(geo, stones, None, None, 1.0, time.monotonic(), None, None)
        key, flip = self._key(colour)
        pn, dn = (0, INF) if result.winner == colour else (INF, 0)
        self._store(key, flip, pn, dn, result.proof, result.move, max(result.nodes, 2))

    def pv(self, geo: Geometry, stones: list[int], colour: int) -> list[int]:
        """The proof's principal variation from the table (no search)."""
        self._setup(geo, stones, None, None, 1.0, time.monotonic(), None, None)
        if self._decided(colour) is not None:
            return []
        return self._pv(colour)

    # --- set-up --------------------------------------------------------------------------
    def _setup(self, geo, stones, stop, progress, progress_every, started, seconds,
               focus) -> None:
        if getattr(self, "geo", None) is not geo:  # keys and proofs belong to one board size
            self.clear()
        self.geo = geo
        self.b, self.w = stones[0], stones[1]
        self._widen = self.knowledge.focus(geo, focus)
        if self.widening is not None:
            self._widen = self.widening
        tables = self._tables.get(geo.max_index)
        if tables is None:
            last = geo.cells[-1]
            zob = zobrist_keys(geo.max_index)
            rot = tuple(tuple(z[last - i] if 0 <= last - i < geo.max_index else 0
                              for i in range(geo.max_index)) for z in zob)
            tables = (zob, rot)
            if len(self._tables) >= 64:  # one entry per board layout: capped like geometry()
                self._tables.clear()
            self._tables[geo.max_index] = tables
        self.zob, self.zrot = tables
        h = hr = 0
        for colour, bits in enumerate(stones):
            for i in geo.iter_bits(bits):
                h ^= self.zob[colour][i]
                hr ^= self.zrot[colour][i]
        self.h, self.hr = h, hr
        self.stop = stop
        self.deadline = None if seconds is None else started + seconds
        self.progress = progress
        self.progress_every = progress_every
        self.next_report = started + progress_every
        self.next_exchange = started + self.exchange_every
        self.started = started
        self.nodes = 0
        self.root_bounds = (1, 1)

    def _decided(self, colour: int) -> Optional[int]:
        geo = self.geo
        empty = geo.mask & ~(self.b | self.w)
        for c, own in ((0, self.b), (1, self.w)):
            if winning_cells(geo, own, empty, c) == -1:
                return c
        return None

    def _key(self, colour: int) -> tuple[int, bool]:
        side = 0x9E3779B97F4A7C15 if colour else 0
        h, hr = self.h ^ side, self.hr ^ side
        return (hr, True) if hr < h else (h, False)

    def _lookup(self, colour: int):
        key, flip = self._key(colour)
        entry = self.tt.get(key)
        if entry is None:
            return None
        pn, dn, proof, best, _ = entry
        if flip:
            proof = self.geo.rotate_bits(proof)
            if best >= 0:
                best = self.geo.rotate(best)
        return pn, dn, proof, best

    def _store(self, key: int, flip: bool, pn: int, dn: int, proof: int, best: int,
               work: int) -> None:
        if flip:
            proof = self.geo.rotate_bits(proof)
            if best >= 0:
                best = self.geo.rotate(best)
        tt = self.tt
        if self.journal is not None:  # a parallel worker: a proof merged in stays
            old = tt.get(key)
            if old is not None and (old[0] == 0 or old[1] == 0) and pn and dn:
                return
        entry = tt[key] = (pn, dn, proof, best, work)
        if self.journal is not None and key != self.root_key:
            self.journal[key] = entry
        if len(tt) > self.tt_size:
            self._evict()

    def _evict(self) -> None:
        """Keep the half of the table that cost the most work; proofs count double."""
        tt = self.tt
        scored = sorted(tt.items(),
                        key=lambda kv: kv[1][4] * (2 if kv[1][0] == 0 or kv[1][1] == 0 else 1))
        for k, _ in scored[:len(scored) // 2]:
            del tt[k]
        self.evictions += 1

    def _check(self) -> None:
        now = time.monotonic()
        if self.stop is not None and self.stop.is_set():
            raise Aborted
        if self.deadline is not None and now >= self.deadline:
            raise Aborted
        if self.exchange is not None and now >= self.next_exchange:
            self.next_exchange = now + self.exchange_every
            self.exchange()
        if self.progress is not None and now >= self.next_report:
            self.next_report = now + self.progress_every
            pn, dn = self.root_bounds
            self.progress({"nodes": self.nodes, "time": now - self.started,
                           "pn": pn, "dn": dn, "tt": len(self.tt)})

    # --- the search ----------------------------------------------------------------------
    def _mid(self, colour: int, thpn: int, thdn: int, root: bool = True,
             fill: Optional[tuple[int, int, int]] = None):
        """Search until pn >= thpn or dn >= thdn; returns (pn, dn, proof).  ``fill``: the
        cells the ancestors' knowledge filled, kept down the tree as Benzene's board keeps
        them (both colours' stones with them, and the empty cells they rest on)."""
        self.nodes += 1
        self._check()  # every node: one expansion (a wide H-search) costs far more
        start_nodes = self.nodes
        key, flip = self._key(colour)
        cached = self.expansions.get(key)
        if cached is not None and cached[0] == flip:
            status, proof, best, children, just = cached[1]
            fill = cached[2]
        else:
            knowledge = self.knowledge
            stones = [self.b, self.w] if fill is None else [fill[0], fill[1]]
            exp = knowledge.expand(self.geo, stones, colour)
            status, proof, best, children, just = exp
            if fill is not None:
                # what the inherited cells rest on joins every proof made at this node
                sup = fill[2]
                if status:
                    proof |= sup
                else:
                    if just >= 0:
                        just |= sup
                    children = [c if not c[1] else (c[0], c[1], c[2] | sup) + c[3:]
                                for c in children]
                exp = (status, proof, best, children, just)
            if self.inherit_fill and not status:  # (without it, fill is never given)
                more = getattr(knowledge, "fill_out", None)
                if more is not None:
                    fill = (more[0], more[1], more[2] | (fill[2] if fill else 0))
            if not status:
                if len(self.expansions) >= self.expansion_size:
                    self.expansions.clear()
                self.expansions[key] = (flip, exp, fill)
        if status:
            pn, dn = (0, INF) if status == WIN else (INF, 0)
            self._store(key, flip, pn, dn, proof, best, 1)
            return pn, dn, proof
        if self.use_history and len(children) > 1:
            hist = self.history
            children = sorted(children, key=lambda c: (0 if c[1] else 1, -hist[c[0]]))
        tt = self.tt
        zob = self.zob[colour]
        zrot = self.zrot[colour]
        side_child = 0x9E3779B97F4A7C15 if not colour else 0  # the opponent moves next
        h, hr = self.h, self.hr
        n = len(children)
        moves = [0] * n
        ckeys = [0] * n
        cflip = [False] * n
        cpn = [0] * n
        cdn = [0] * n
        cproof = [0] * n
        for i, (m, st, pr, p0, d0) in enumerate(children):
            moves[i] = m
            k1 = h ^ zob[m] ^ side_child
            k2 = hr ^ zrot[m] ^ side_child
            if k2 < k1:
                ckeys[i], cflip[i] = k2, True
            else:
                ckeys[i] = k1
            if st:
                cpn[i], cdn[i] = (0, INF) if st == WIN else (INF, 0)
                cproof[i] = pr
            else:
                cpn[i], cdn[i] = p0, d0
        if just < 0:
            just = self.geo.mask & ~(self.b | self.w)
        eps1 = 1.0 + self.epsilon
        while True:
            # refresh from the table (transpositions solved elsewhere), prune by proofs
            allowed = -1
            lost_proof = just
            win_i = -1
            for i in range(n):
                e = tt.get(ckeys[i])
                if e is not None:
                    p, d = e[0], e[1]
                    if p == 0 or d == 0:
                        pr = e[2]
                        if cflip[i] and pr:
                            pr = self.geo.rotate_bits(pr)
                        cproof[i] = pr
                    cpn[i], cdn[i] = p, d
                d = cdn[i]
                if d == 0:  # the opponent loses after this move: we win
                    if win_i < 0 or (cproof[i].bit_count() < cproof[win_i].bit_count()):
                        win_i = i
                elif cpn[i] == 0:  # this move loses; so does every move outside its proof
                    allowed &= cproof[i] | (1 << moves[i])
                    lost_proof |= cproof[i]
            if win_i >= 0:
                m = moves[win_i]
                self.history[m] += 1
                proof = cproof[win_i] | (1 << m)
                self._store(key, flip, 0, INF, proof, m, self.nodes - start_nodes + 1)
                return 0, INF, proof
            pn = INF
            dn = 0
            best_i = -1
            dn2 = INF
            pmax = 0
            alive = 0
            window = n
            if self._widen:
                live = 0
                for i in range(n):
                    if cpn[i] != 0 and (allowed >> moves[i]) & 1:
                        live += 1
                if live > 2:
                    window = 1 + math.ceil(live * self._widen)  # at least 2
            for i in range(n):
                if cpn[i] == 0 or not (allowed >> moves[i]) & 1:
                    continue
                if alive >= window:
                    break
                d = cdn[i]
                p = cpn[i]
                dn += p
                alive += 1
                if p > pmax:
                    pmax = p
                if d < pn:
                    dn2 = pn
                    pn = d
                    best_i = i
                elif d < dn2:
                    dn2 = d
            if best_i < 0:  # every move loses
                # the loser's most stubborn move: the one whose refutation needs most cells
                worst = max(range(n), key=lambda i: cproof[i].bit_count()) if n else -1
                bm = moves[worst] if worst >= 0 else -1
                self._store(key, flip, INF, 0, lost_proof, bm, self.nodes - start_nodes + 1)
                return INF, 0, lost_proof
            if self.weak and alive:  # weak proof numbers (Ueda et al.): transpositions
                dn = pmax + alive - 1  # are not counted twice
            if dn > INF:
                dn = INF - 1
            if root:
                self.root_bounds = (pn, dn)
            if pn >= thpn or dn >= thdn:
                self._store(key, flip, pn, dn, 0, moves[best_i],
                            self.nodes - start_nodes + 1)
                return pn, dn, 0
            busy = self.busy
            if busy is not None and busy.inside(ckeys[best_i]):
                best_i, dn2 = busy.elsewhere(n, ckeys, cpn, cdn, moves, allowed, thpn,
                                             lost=pn >= dn)
            # the child's thresholds (its pn is our dn's share, its dn our pn)
            c_thpn = thdn - dn + cpn[best_i]
            if c_thpn > INF:
                c_thpn = INF
            c_thdn = thpn if dn2 >= INF else min(thpn, int(dn2 * eps1) + 1)
            m = moves[best_i]
            bit = 1 << m
            if colour:
                self.w |= bit
            else:
                self.b |= bit
            self.h = h ^ zob[m]
            self.hr = hr ^ zrot[m]
            marked = busy.enter(ckeys[best_i]) if busy is not None else None
            cfill = None
            if fill is not None and not ((fill[0] | fill[1]) >> m) & 1:
                cfill = (fill[0] | bit, fill[1], fill[2]) if not colour else \
                    (fill[0], fill[1] | bit, fill[2])
            try:
                p, d, pr = self._mid(1 - colour, c_thpn, c_thdn, False, cfill)
            finally:
                if marked is not None:
                    busy.leave(marked)
                if colour:
                    self.w ^= bit
                else:
                    self.b ^= bit
                self.h, self.hr = h, hr
            cpn[best_i], cdn[best_i] = p, d
            if p == 0 or d == 0:
                cproof[best_i] = pr

    def _pv(self, colour: int) -> list[int]:
        """Follow the table's best moves while the positions are solved."""
        pv: list[int] = []
        saved = (self.b, self.w, self.h, self.hr)
        try:
            while len(pv) < self.geo.size:
                entry = self._lookup(colour)
                if entry is None:  # a position the knowledge decides at sight
                    status, _, best, _, _ = self.knowledge.expand(
                        self.geo, [self.b, self.w], colour)
                    entry = (0, INF, 0, best) if status == WIN else \
                        (INF, 0, 0, best) if status == LOSS else None
                if entry is None:
                    break
                pn, dn, _, best = entry
                if (pn != 0 and dn != 0) or best < 0:
                    break
                if not ((self.geo.mask & ~(self.b | self.w)) >> best) & 1:
                    break
                pv.append(best)
                if colour:
                    self.w |= 1 << best
                else:
                    self.b |= 1 << best
                self.h ^= self.zob[colour][best]
                self.hr ^= self.zrot[colour][best]
                colour = 1 - colour
                if self._decided(0) is not None or self._decided(1) is not None:
                    break
        finally:
            self.b, self.w, self.h, self.hr = saved
        return pv


class BusyMarks:
    """Where the workers of a parallel solve are searching, in memory they share (the
    virtual proof numbers of SPDFPN, Pawlewicz and Hayward).

    Each worker writes only its own row: the table keys of the positions on its current
    path, by slot.  A worker choosing a child reads the others' rows: a child another worker
    is inside counts as harder (its proof number multiplied by 1 + a quarter for each worker
    inside it; by 1 + 4 where the node looks lost for its mover, since every child must then
    be refuted), so the second worker goes into the next most promising child where that
    one is nearly as promising, deep in the tree as well as at the root.  The marks only steer
    the choice; a stale or overwritten mark costs time, never a wrong proof."""

    SLOTS = 1 << 14
    # a quarter, not a whole worker (x2): on the 7x7 openings 1.10 times one process's
    # positions against 1.13, 1.56x against 1.53x (five paired runs each, docs/solver.md)
    PENALTY = 0.25
    # where the node looks lost for its mover (pn >= dn) every child must be refuted, so a
    # second worker is sent to a sibling far more readily: 1.60x and 1.57x against 1.54x
    # and 1.51x on the 7x7 openings, the runs alternating (docs/solver.md)
    LOST_PENALTY = 4.0

    def __init__(self, rows: memoryview, worker: int, workers: int) -> None:
        slots = self.SLOTS
        self.mine = rows[worker * slots:(worker + 1) * slots]
        self.others = [rows[w * slots:(w + 1) * slots] for w in range(workers) if w != worker]

    @classmethod
    def shared(cls, workers: int) -> mmap.mmap:
        """Memory for ``workers`` rows, shared with the processes forked after this."""
        return mmap.mmap(-1, 8 * cls.SLOTS * workers)

    def inside(self, key: int) -> int:
        """How many other workers have this position on their path."""
        slot = (key >> 20) & (self.SLOTS - 1)
        return sum(1 for row in self.others if row[slot] == key)

    def enter(self, key: int) -> tuple[int, int]:
        slot = (key >> 20) & (self.SLOTS - 1)
        before = self.mine[slot]
        self.mine[slot] = key
        return slot, before

    def leave(self, marked: tuple[int, int]) -> None:
        self.mine[marked[0]] = marked[1]

    def elsewhere(self, n: int, ckeys: list, cpn: list, cdn: list, moves: list, allowed: int,
                  thpn: int, lost: bool = False) -> tuple[int, int]:
        """The child to search with the others' marks counted, and the second smallest
        marked proof number (the child's threshold), among the live children; only a
        child below ``thpn`` is chosen, so that the search always moves on.  ``lost``: the
        node looks lost for its mover (pn >= dn), where a mark weighs ``LOST_PENALTY``."""
        penalty = self.LOST_PENALTY if lost else self.PENALTY
        best_i, best, second = -1, INF, INF
        for i in range(n):
            if cpn[i] == 0 or not (allowed >> moves[i]) & 1:
                continue
            d = cdn[i]
            e = min(d * (1 + penalty * self.inside(ckeys[i])), INF)
            if d < thpn and (best_i < 0 or e < best):
                if best_i >= 0 and best < second:
                    second = best
                best_i, best = i, e
            elif e < second:
                second = e
        return best_i, second
