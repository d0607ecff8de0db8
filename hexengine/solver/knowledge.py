"""What the DFPN solver knows of Hex: the knowledge object it asks at each node.

``expand(geo, stones, colour)`` decides a position at sight (``WIN`` / ``LOSS`` for the
side to move, with the cells the verdict depends on) or lists the moves worth searching,
best first, with the cells that justify leaving out the others.  ``SimpleKnowledge`` is
self-contained (flood fill, each colour's one-move winning cells, the single block of a
single threat, a double threat as a win); ``VCKnowledge`` adds ``hexengine.knowledge``
(fill-in, the opponent's connections for terminal positions and the mustplay, prunable
cells).  ``knowledge_by_name("auto")`` picks the best available.
"""
from __future__ import annotations

import dataclasses
from typing import NamedTuple, Optional

from ..evaluation import network, vc_graph
from ..evaluation.resistance import rank_moves
from ..geometry import Geometry
from ..knowledge import hsearch
from ..knowledge import inferior  # registers the compiled fill-in before kernels start
from ..knowledge.corners import corner_pockets

INF = 1 << 60  # an infinite proof or disproof number
WIN, LOSS = 1, 2  # statuses, from the point of view of the side to move


def winning_cells(geo: Geometry, own: int, empty: int, colour: int) -> int:
    """Empty cells where ``colour`` (stones ``own``) connects its edges at once; -1 when
    it is already connected."""
    st, gl = geo.edges[colour]
    a = geo.flood(own & st, own)
    b = geo.flood(own & gl, own)
    if a & b:
        return -1
    return empty & (st | geo.dilate(a)) & (gl | geo.dilate(b))


class SimpleKnowledge:
    """Self-contained facts: win by flood fill, one-move wins and the block they force.

    ``expand(geo, stones, colour)`` returns ``(status, proof, best, children, just)``:
    ``status`` WIN / LOSS / 0 for the side to move; when decided, ``proof`` (cells) and
    ``best`` (the winning move, or a blocking move of the loser).  Otherwise ``children``
    lists ``(move, status, proof, pn, dn)`` for the moves worth searching, each as seen by
    the *opponent* who moves next (status WIN: the move loses at once), and ``just`` holds
    the cells that justify leaving out the other moves (-1: all empty cells)."""

    name = "simple"
    quiet_dn = 1  # initial disproof number after a move that threatens nothing (a threat: 1)

    def focus(self, geo: Geometry, seconds: Optional[float] = None) -> float:
        """Set up for a solve of ``seconds`` (None: unbounded) on this board; returns the
        share of a node's live moves the solver is to consider (0: all)."""
        return 0.0

    def focus_first(self, geo: Geometry, seconds: Optional[float] = None) -> float:
        """Seconds of a focused try (``focus`` for a solve that short) before a solve of
        ``seconds`` on this board considers every move; 0: none."""
        return 0.0

    def expand(self, geo: Geometry, stones: list[int], colour: int):
        decided, sight = self._sight(geo, stones, colour)
        if decided is not None:
            return decided
        return 0, 0, -1, self._children(geo, sight, sight.candidates), sight.just

    def _sight(self, geo: Geometry, stones: list[int], colour: int):
        """``(decided, None)`` for a position decided at sight (the ``expand`` answer), else
        ``(None, sight)``: what ``_children`` needs to list the moves."""
        own = stones[colour]
        opp = stones[1 - colour]
        empty = geo.mask & ~(own | opp)
        ost, ogl = geo.edges[colour]
        yst, ygl = geo.edges[1 - colour]
        # our winning cells
        a = geo.flood(own & ost, own)
        b = geo.flood(own & ogl, own)
        if a & b:
            return (WIN, 0, -1, None, 0), None
        da = ost | geo.dilate(a)
        db = ogl | geo.dilate(b)
        mine = empty & da & db
        if mine:
            low = mine & -mine
            return (WIN, low, low.bit_length() - 1, None, 0), None
        # the opponent's winning cells
        ya = geo.flood(opp & yst, opp)
        yb = geo.flood(opp & ygl, opp)
        if ya & yb:
            return (LOSS, 0, -1, None, 0), None
        theirs = empty & (yst | geo.dilate(ya)) & (ygl | geo.dilate(yb))
        if theirs & (theirs - 1):
            two = theirs & -theirs
            two |= (theirs ^ two) & -(theirs ^ two)
            return (LOSS, two, (theirs & -theirs).bit_length() - 1, None, 0), None
        candidates = theirs or empty
        return None, _Sight(own, empty, ost, ogl, a, b, da, db, mine, candidates, theirs)

    def _children(self, geo: Geometry, sight: "_Sight", cells: int) -> list[tuple]:
        """``(move, status, proof, pn, dn)`` for each move in ``cells``, as the opponent
        who moves next sees it (LOSS: the move makes a double threat), threats first, then
        centre first."""
        own, empty, a, b, da, db = sight.own, sight.empty, sight.a, sight.b, sight.da, sight.db
        ost, ogl = sight.ost, sight.ogl
        rank = geo.centre_rank
        children = []
        bits = cells
        while bits:
            low = bits & -bits
            bits ^= low
            m = low.bit_length() - 1
            # our winning cells after m
            na, nb = a, b
            if low & da:
                na = geo.flood(a | low, own | low)
            if low & db:
                nb = geo.flood(b | low, own | low)
            if na is a and nb is b:
                threats = sight.mine  # empty: nothing changes
            else:
                threats = (empty ^ low) & (ost | geo.dilate(na)) & (
                    ogl | geo.dilate(nb))
            if threats & (threats - 1):
                two = threats & -threats
                two |= (threats ^ two) & -(threats ^ two)
                # the opponent moves next and loses: a double threat
                children.append((m, LOSS, two, INF, 0, -1))
            elif threats:
                children.append((m, 0, 0, 1, 1, rank[m] - 1000))
            else:
                children.append((m, 0, 0, 1, self.quiet_dn, rank[m]))
        children.sort(key=lambda c: c[5])
        return [c[:5] for c in children]


class _Sight(NamedTuple):
    """A position not decided at sight, as ``SimpleKnowledge._children`` reads it: the
    mover's stones, the empty cells, its edges, the cells flooded from them and their
    neighbourhoods, its one-move winning cells (none), the moves worth listing and the
    cells that justify leaving out the rest (the single block of a single threat)."""
    own: int
    empty: int
    ost: int
    ogl: int
    a: int
    b: int
    da: int
    db: int
    mine: int
    candidates: int
    just: int


# --- knowledge from the connection and inferior-cell engines ------------------------------
ORDERS = ("auto", "centre", "current", "blocks", "policy")  # VCKnowledge's node move orders
# Boards of at least this many cells (11x11 on), in solves of at most FOCUS_SECONDS, order a
# node's moves by the current through the opponent's connections ("blocks") and the solver
# widens over them as Benzene does (WIDENING): on the 80 11x11 positions at 10 s, 67 proved
# in 190-205 s against 61-62 in 229-236 s; at 30 s it proves fewer of the hard ones (3-5 of
# 13 against 7), and on the 49 7x7 openings it took 2.6x the time (docs/solver.md)
FOCUS_FROM_CELLS = 121
FOCUS_SECONDS = 10.0
WIDENING = 0.25  # the share of a node's live moves considered (Benzene's widening factor)
# Longer solves on those boards (or unbounded ones) try focused for this long first, then
# search every move: the focus proves some positions in a fraction of the time and misses
# others (the 80 11x11 positions at 30 s in process: 170-172 s with a first try of 2, 3
# or 4 s against 189 s without; docs/solver.md)
FOCUS_FIRST = 3.0


class VCKnowledge(SimpleKnowledge):
    """``SimpleKnowledge`` plus ``hexengine.knowledge``: fill-in, with the corner pockets
    (``corners``: ``knowledge.corners``) and the opponent's
    combinatorial decompositions filled too (``decompose``), the opponent's virtual
    connections (a full edge-to-edge connection is a lost position, its semi connections
    give the mustplay, and an empty mustplay is lost too), optionally our own (a semi
    connection wins at its key), and the prunable cells: vulnerable ones and, with
    ``dominated``, the cells another candidate's fill-in would fill (by default once the
    compiled fill-in has loaded: one fill-in per candidate at every node cuts the nodes by
    a fifth to a third, and costs more than it saves in Python).  With ``mover``, the
    mover's decompositions are filled too and its build read as ``own_semis`` reads it:
    on 11x11 that decides far more nodes at sight, at twice a node's cost and more, which
    the smaller trees do not repay (docs/solver.md), so it is off by default.

    Proof sets stay exact: fill-in, dead and vulnerable cells are decided by the six
    neighbours of a cell (an edge-row cell by its ring and two stones, ``edge_reads``; a
    corner pocket's cells by their neighbours), so a proof that used them also holds the
    filled cells and the empty cells around them, and a connection's proof is its carrier."""

    name = "vc"
    fill_out = None  # after an open expand: (black, white, support) of the filled position
    forced_cheap = True  # a forced block is searched without building connections

    def __init__(self, own_semis: bool = False, fill: bool = True, prune: bool = True,
                 limits=None, order: str = "auto", dominated: Optional[bool] = None,
                 decompose: bool = True, corners: bool = True, mover: bool = False) -> None:
        self.dominated = dominated
        self.decompose = decompose
        self.mover = mover
        self.corners = corners
        self.order = order
        self._auto_order = "centre"  # what "auto" means in this solve (``focus``)
        try:
            from ..knowledge import vc
        except ImportError:  # fill-in and pruning alone
            vc = None
        self.vc = vc
        self.inferior = inferior
        if vc is not None:
            from ..knowledge.build_cache import BuildCache
            from ..knowledge.decompose import fill_decompositions
            self.decompositions = fill_decompositions
            self.builds = BuildCache()  # a node's builds start from its grandparent's
        if vc is None:
            self.name = "inferior"
        self.own_semis = own_semis
        self.fill = fill
        self.prune = prune
        if limits is None and vc is not None:
            # the build stops at the first edge-to-edge full connection: the node is lost at
            # sight, and what else it would derive goes unread (the 36 6x6 openings: the
            # same 8,014 nodes, their builds 0.92x the time; 7x7 a1 c4 e4 b1 g7 d3 c2 a4:
            # 45,693 nodes to 43,503, the first carrier found proving as well as the smallest)
            limits = dataclasses.replace(vc.SOLVER_LIMITS, stop_at_win=True)
        self.limits = limits

    def expand(self, geo: Geometry, stones: list[int], colour: int):
        self.fill_out = None
        decided, sight = self._sight(geo, stones, colour)
        if decided is not None:
            return decided
        just = sight.just
        if self.forced_cheap and not sight.candidates & (sight.candidates - 1):
            # a single block of a one-move threat: no connections needed
            return 0, 0, -1, self._children(geo, sight, sight.candidates), just
        empty = sight.empty
        filled = list(stones)
        support = 0
        sup = [0, 0]
        theirs = mine = None
        if self.fill:
            filled, inf = self.inferior.fill_in(geo, list(stones))
            edge = inf.edge
            if self.corners:
                filled, edge = self._corner_pockets(geo, filled, edge)
            if self.decompose and self.vc is not None:
                sides = (1 - colour, colour) if self.mover else (1 - colour,)
                filled, conns, more = self.decompositions(geo, filled, sides,
                                                          self.limits, build=self.builds.build)
                theirs = conns.get(1 - colour)
                mine = conns.get(colour)
                edge = (edge[0] | more.edge[0], edge[1] | more.edge[1])
            added = (filled[0] | filled[1]) & empty
            if added:
                # what a proof for each colour needs of the fill-in: the cells filled with
                # that colour and, through the neighbourhoods their patterns read, the other
                # filled cells those depend on (cells filled for the loser need nothing: the
                # winner never counts on them); an edge-row cell's pattern reads n and s,
                # which need not touch it
                sup = [self._closure(geo, (filled[c] | self.inferior.edge_reads(
                    geo, edge[c])) & added, added, empty) for c in (0, 1)]
                support = sup[1 - colour]  # the node's default winner: the opponent
                fempty = empty & ~added
                # fill-in may have joined a side's edges
                for c in (0, 1):
                    if winning_cells(geo, filled[c], fempty, c) == -1:
                        if c == colour:
                            m = (added & filled[c]) or fempty or empty
                            m &= -m
                            return WIN, sup[colour], m.bit_length() - 1, None, 0
                        return LOSS, support, (empty & -empty).bit_length() - 1, None, 0
        fempty = geo.mask & ~(filled[0] | filled[1])
        if fempty != empty:  # the filled position, for the solver to keep below this node
            self.fill_out = (filled[0], filled[1], sup[0] | sup[1])
        if self.vc is None:
            return self._pruned(geo, stones, filled, colour, sight, fempty, just, support,
                                empty)
        if theirs is None and (mine is None or mine.edge_full() is None):
            theirs = self.builds.build(geo, filled, 1 - colour, self.limits)
        carrier = None if theirs is None else theirs.edge_full()
        if carrier is not None:
            m = (carrier & fempty) or fempty
            return LOSS, (carrier & empty) | support, (m & -m).bit_length() - 1, None, 0
        if self.own_semis or mine is not None:
            if mine is None:
                mine = self.builds.build(geo, filled, colour, self.limits)
            carrier = mine.edge_full()
            if carrier is not None:  # a full connection: every move wins, take one inside
                m = (carrier & fempty) or fempty
                return WIN, (carrier & empty) | sup[colour], (m & -m).bit_length() - 1, None, 0
            keyed = mine.edge_semis_keyed()
            if keyed:
                key, semi = min(keyed, key=lambda ks: ks[1].bit_count())
                return WIN, (semi & empty) | sup[colour], key.bit_length() - 1, None, 0
        # the mustplay, justified by as few semi carriers as give the same intersection
        semis = sorted(theirs.edge_semis(), key=int.bit_count)
        must = fempty
        for c in semis:
            if must & ~c:
                must &= c
                just |= c
        if not must:  # every move misses one of the semi connections: lost
            m = (semis[0] & fempty) or fempty
            return LOSS, (just & empty) | support, (m & -m).bit_length() - 1, None, 0
        return self._pruned(geo, stones, filled, colour, sight, must, just, support, empty,
                            theirs)

    def focus(self, geo: Geometry, seconds: Optional[float] = None) -> float:
        focused = (geo.width * geo.height >= FOCUS_FROM_CELLS and seconds is not None
                   and seconds <= FOCUS_SECONDS)
        self._auto_order = "blocks" if focused else "centre"
        return WIDENING if focused and self.order == "auto" else 0.0

    def focus_first(self, geo: Geometry, seconds: Optional[float] = None) -> float:
        if (self.order != "auto" or geo.width * geo.height < FOCUS_FROM_CELLS
                or (seconds is not None and seconds <= FOCUS_SECONDS)):
            return 0.0
        return FOCUS_FIRST

    def _corner_pockets(self, geo: Geometry, filled: list[int], edge: tuple[int, int]
                        ) -> tuple[list[int], tuple[int, int]]:
        """``filled`` with the corner pockets filled (``knowledge.corners``), and fill-in
        after each round (a pocket fills once: its cells are among those it needs empty)."""
        while True:
            more, cells = corner_pockets(geo, filled)
            if not cells[0] | cells[1]:
                return filled, edge
            filled, inf = self.inferior.fill_in(geo, more)
            edge = (edge[0] | inf.edge[0], edge[1] | inf.edge[1])

    @staticmethod
    def _closure(geo: Geometry, seed: int, added: int, empty: int) -> int:
        """``seed`` grown through the filled cells ``added`` next to it, with the
        neighbourhoods: the empty cells a local pattern verdict on ``seed`` depends on."""
        if not seed:
            return 0
        region = seed
        while True:
            grown = region | (geo.dilate(region) & added)
            if grown == region:
                return (region | geo.dilate(region)) & empty
            region = grown

    def _pruned(self, geo, stones, filled, colour, sight, must, just, support, empty,
                theirs=None):
        """The children inside ``must`` less the prunable cells, best first (``theirs``:
        the opponent's connections, which the ``blocks`` order reads)."""
        pruned = 0
        if self.prune and must & (must - 1):
            inf = self.inferior
            dominated = inf.compiled() if self.dominated is None else self.dominated
            if dominated:
                region = 0
                kept, reads = inf.prunable_moves(geo, filled, colour, must)
                for b, by in kept.items():
                    pruned |= 1 << b
                    for a in geo.iter_bits(by):
                        region |= reads.get(a, 0)
                region |= pruned
            else:
                pruned = region = inf.prunable(geo, filled, colour) & must
            if pruned == must:
                pruned = 0
            must &= ~pruned
        if pruned:
            support |= self._closure(geo, region, (filled[0] | filled[1]) & empty, empty)
        just = (just & empty) | support
        kept = self._children(geo, sight, must & sight.candidates) or self._children(
            geo, sight, sight.candidates)
        order = self.order
        if order == "auto":
            order = self._auto_order
        if order == "blocks" and not isinstance(theirs, hsearch.CompiledConnections):
            order = "centre"  # (its circuit reads the compiled build's workspace)
        if order != "centre" and len(kept) > 1:
            if order == "current":
                ranked = rank_moves(geo, filled, colour)
            elif order == "blocks":
                # where the opponent's connections carry the most current: its circuit
                # over the build just made (0.2 ms; a build of both colours' for the
                # circuits of vc_graph.rank_moves cost 17 ms on 11x11)
                flow = vc_graph.build_currents(geo, [theirs])
                ranked = sorted(geo.iter_bits(must), key=lambda c: -flow[c])
            else:
                ranked = network.move_head().ranked_moves(geo, stones, colour)
            pos = {cell: i for i, cell in enumerate(ranked)}
            far = len(pos)
            kept.sort(key=lambda c: (0 if c[1] else 1, c[4], pos.get(c[0], far)))
        return 0, 0, -1, kept, just


# --- knowledge by name --------------------------------------------------------------------
KNOWLEDGE = ("auto", "simple", "vc")


def knowledge_by_name(name: str = "auto") -> SimpleKnowledge:
    """``simple``: the self-contained facts above; ``vc``: the connection and inferior-cell
    engines of ``hexengine.knowledge``; ``auto``: ``vc`` when they are there."""
    if name not in KNOWLEDGE:
        raise ValueError(f"knowledge must be one of {', '.join(KNOWLEDGE)}")
    if name in ("auto", "vc"):
        try:
            return VCKnowledge()
        except ImportError:
            if name == "vc":
                raise
    return SimpleKnowledge()
