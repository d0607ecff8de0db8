"""Anshelevich's H-search in Python: the reference closure, on bitboard carriers.

``vc.build`` runs it until the compiled kernel (``hsearch``) has loaded, and on boards the
kernel does not take; the kernel applies the same rules in the same order, and a test keeps
the two equal.  Both lay the base connections from ``templates`` and fill a
``connections.Connections``.  The rules, all sound by construction (every rule below only
ever derives real connections, and the bounds only leave connections out):

Base connections
    adjacency (empty carrier; a group touching an edge row is adjacent to that edge), bridges
    (two common empty neighbours) between any two nodes, and the edge templates II, III-a
    (ziggurat, both mirror images) and IV-a from a stone or an empty cell to each edge, matched
    wherever their cells hold no opponent stone (own stones inside are free and left out of the
    carrier).
AND rule
    VC(x,m,C1) + VC(m,y,C2), C1 ∩ C2 = ∅, x ∉ C2, y ∉ C1: through an own group m a VC(x,y,C1∪C2);
    through an empty cell m an SC(x,y,C1∪C2∪{m}) with key m.  Never over an edge (Benzene's
    ``and_over_edge`` is off by default: many connections, little use).
OR rule
    SCs between the same two nodes whose carriers have an empty common intersection give a VC
    with the union as carrier.  Each new SC is combined with up to ``max_ors - 1`` of the
    smallest SCs of its pair (``or_candidates``); a combination is dropped as soon as its
    intersection stops shrinking, cannot become empty with the SCs left (their common cells
    meet it), or its union holds an existing full carrier.
The edge band (``Limits.edge_band``, off by default)
    Two second-row anchors at distance 2 joined to one own edge by their bridges, with no
    edge cell in common, get a base VC through the edge; and the AND rule may let C1 and
    C2 share cells that an endpoint or the middle cell captures once played (an empty
    second-row cell's two edge cells), which then join the carrier.
Which pairs
    Derived connections are kept only between pairs with at least one own node (group or
    edge).  Between two empty cells only the base connections (adjacency, bridges) exist; they
    serve as the far half of an AND.  That is most of what matters for joining groups to
    edges, at a fraction of the pairs.
Bounds
    Per pair at most ``max_fulls`` full and ``max_semis`` semi carriers, smallest first; a
    carrier that holds an existing full carrier of its pair is never added, and adding a full
    carrier removes the kept supersets (full and semi).  ``work`` caps the combination
    attempts of one build: when it runs out the build stops and returns what it has.
"""
from __future__ import annotations

import heapq
import time
from typing import Optional

from ..geometry import Geometry
from .connections import EDGE_GOAL, EDGE_START, Connections, Limits
from .templates import second_row, stone_templates, tables


def build(geo: Geometry, stones, colour: int, limits: Limits,
          deadline: Optional[float] = None) -> Connections:
    """H-search for ``colour``: base connections, then AND/OR to a fixed point (or the work
    cap, or ``deadline``, a ``time.monotonic()``: then ``complete`` is False)."""
    conns = Connections(geo, stones, colour)
    b = _Builder(conns, limits, deadline)
    if _add_base(b, conns):
        b.run()
    return conns


class _Builder:
    """One run of H-search filling a Connections object."""

    def __init__(self, conns: Connections, limits: Limits,
                 deadline: Optional[float] = None) -> None:
        self.c = conns
        self.lim = limits
        self.queue: list = []
        self.seq = 0
        self.budget = limits.work
        self.deadline = deadline  # time.monotonic() at which the build stops where it is
        self.won = False
        # with captured_or: each empty second-row cell's captured edge cells (``_captured``)
        self.or_captured: dict[int, int] = {}

    def out_of_time(self) -> bool:
        """Past the deadline: the build is marked incomplete (what it holds stays sound)."""
        if self.deadline is not None and time.monotonic() > self.deadline:
            self.c.complete = False
            return True
        return False

    # --- adding ---------------------------------------------------------------------------
    def add_full(self, a: int, b: int, carrier: int) -> None:
        if a == b:
            return
        c = self.c
        k = c._key(a, b)
        lst = c.fulls.get(k)
        if lst is None:
            lst = c.fulls[k] = []
            c.adj.setdefault(a, {})[b] = lst
            c.adj.setdefault(b, {})[a] = lst
        else:
            for d in lst:
                if d & carrier == d:
                    return
            if any(d & carrier == carrier for d in lst):
                lst[:] = [d for d in lst if d & carrier != carrier]
            if len(lst) >= self.lim.max_fulls:
                if carrier.bit_count() >= lst[-1].bit_count():
                    return
                lst.pop()
        n = carrier.bit_count()
        i = len(lst)
        while i and lst[i - 1].bit_count() > n:
            i -= 1
        lst.insert(i, carrier)
        sl = c.semis.get(k)
        if sl and any(s & carrier == carrier for s in sl):
            keys = c.semi_keys[k]
            keep = [j for j, s in enumerate(sl) if s & carrier != carrier]
            c.semis[k] = [sl[j] for j in keep]
            c.semi_keys[k] = [keys[j] for j in keep]
        if a < 0 and b < 0:
            self.won = True
        self.seq += 1
        heapq.heappush(self.queue, (n, self.seq, a, b, carrier))

    def add_semi(self, a: int, b: int, carrier: int, key: int) -> None:
        c = self.c
        k = c._key(a, b)
        fl = c.fulls.get(k)
        if fl:
            for d in fl:
                if d & carrier == d:
                    return
        sl = c.semis.get(k)
        if sl is None:
            sl = c.semis[k] = []
            c.semi_keys[k] = []
        else:
            for s in sl:
                if s & carrier == s:
                    return
            keys = c.semi_keys[k]
            if any(s & carrier == carrier for s in sl):
                keep = [j for j, s in enumerate(sl) if s & carrier != carrier]
                sl = c.semis[k] = [sl[j] for j in keep]
                keys = c.semi_keys[k] = [keys[j] for j in keep]
            if len(sl) >= self.lim.max_semis:
                if carrier.bit_count() >= sl[-1].bit_count():
                    return
                sl.pop()
                keys.pop()
        keys = c.semi_keys[k]
        n = carrier.bit_count()
        i = len(sl)
        while i and sl[i - 1].bit_count() > n:
            i -= 1
        sl.insert(i, carrier)
        keys.insert(i, key)
        cap = self.or_captured.get(a, 0) | self.or_captured.get(b, 0)
        if len(sl) > 1:
            self.do_or(a, b, carrier, sl, fl, cap)
        if cap and not carrier & ~cap:  # a semi inside what its ends capture is full
            self.add_full(a, b, carrier | cap)

    def do_or(self, a: int, b: int, new: int, sl: list[int], fl, cap: int = 0) -> None:
        """Combine the new semi with up to max_ors - 1 others of its pair; an intersection
        inside ``cap`` (what the ends capture) counts as empty, ``cap`` joining the carrier."""
        others = [s for s in sl if s != new][: self.lim.or_candidates]
        if not others:
            return
        m = len(others)
        suffix = [0] * (m + 1)
        acc = -1
        suffix[m] = -1
        for j in range(m - 1, -1, -1):
            acc &= others[j]
            suffix[j] = acc
        if new & suffix[0] & ~cap:
            return  # some cell lies in every carrier: no OR can empty the intersection
        max_depth = self.lim.max_ors - 1
        fl = self.c.fulls.get(self.c._key(a, b))
        stack = [(0, new, new, 0)]
        while stack:
            start, inter, union, depth = stack.pop()
            for j in range(start, m):
                self.budget -= 1
                t = others[j]
                i2 = inter & t
                if i2 == inter:
                    continue
                u2 = union | t
                if fl and any(d & u2 == d for d in fl):
                    continue
                if not i2 & ~cap:
                    self.add_full(a, b, u2 | cap if i2 else u2)
                    fl = self.c.fulls.get(self.c._key(a, b))
                    continue
                if depth + 1 < max_depth and not (i2 & suffix[j + 1] & ~cap):
                    stack.append((j + 1, i2, u2, depth + 1))

    # --- the closure --------------------------------------------------------------------------
    def run(self) -> None:
        c = self.c
        lim = self.lim
        and_n = lim.and_fulls
        captured = _captured(c) if lim.edge_band or lim.captured_or else {}
        if lim.captured_or:
            self.or_captured = captured
        if not lim.edge_band:
            captured = {}  # (the AND shares captured cells only with the band)
        adj = c.adj
        groups = c.groups
        queue = self.queue
        deadline = self.deadline
        pops = 0
        while queue:
            pops += 1
            if deadline is not None and not pops & 63 and time.monotonic() > deadline:
                c.complete = False  # out of time: what is kept is sound, just less
                break
            if self.budget <= 0:
                c.complete = False
                break
            if self.won and lim.stop_at_win:
                c.complete = False
                break
            _, _, a, b, carrier = heapq.heappop(queue)
            lst = c.fulls.get(c._key(a, b))
            if not lst or carrier not in lst:
                continue  # superseded by a smaller carrier
            for mid, end in ((a, b), (b, a)):
                if mid < 0:
                    continue  # no AND over an edge
                partners = adj.get(mid)
                if not partners:
                    continue
                mid_own = mid in groups
                end_empty = end >= 0 and end not in groups
                endbit = (1 << end) if end_empty else 0
                midbit = 0 if mid_own else 1 << mid
                shared = captured.get(end, 0) | captured.get(mid, 0)
                for z, lst2 in list(partners.items()):
                    if z == end:
                        continue
                    z_empty = z >= 0 and z not in groups
                    if z_empty:
                        if end_empty and not lim.empty_pairs:
                            continue  # no derived empty-empty connections
                        if carrier >> z & 1:
                            continue
                    self.budget -= len(lst2)
                    for c2 in lst2[:and_n]:
                        if c2 & endbit:
                            continue
                        both = carrier | c2
                        if c2 & carrier:
                            # only cells an endpoint or the middle captures, then all of them
                            cap = shared | captured.get(z, 0)
                            if c2 & carrier & ~cap or (cap >> mid) & 1 or (
                                    z >= 0 and (cap >> z) & 1) or (end >= 0 and (cap >> end) & 1):
                                continue
                            both |= cap
                        if mid_own:
                            self.add_full(end, z, both)
                        else:
                            self.add_semi(end, z, both | midbit, mid)


def _add_base(b: _Builder, conns: Connections) -> bool:
    """Adjacencies, bridges and edge templates; False when the deadline cut it short
    (checked between groups and rows of cells: a 52x52 board's base takes 0.2 s)."""
    geo = conns.geo
    colour = conns.colour
    opp = conns.stones[1 - colour]
    empty = conns.empty
    start, goal = geo.edges[colour]
    nmask = geo.neighbour_mask
    add = b.add_full
    for gid, g in conns.groups.items():
        if g & start:
            add(gid, EDGE_START, 0)
        if g & goal:
            add(gid, EDGE_GOAL, 0)
        for e in geo.iter_bits(geo.dilate(g) & empty):
            add(gid, e, 0)
        if b.out_of_time():
            return False
    row = -1
    for e in geo.iter_bits(empty):
        if e // geo.stride != row:
            row = e // geo.stride
            if b.out_of_time():
                return False
        if start >> e & 1:
            add(e, EDGE_START, 0)
        if goal >> e & 1:
            add(e, EDGE_GOAL, 0)
        for n in geo.iter_bits(nmask[e] & empty):
            if n > e:
                add(e, n, 0)
    all_bridges, templates = tables(geo)
    node = conns.node
    blocked = opp
    for x, y, carrier in all_bridges:
        if carrier & empty != carrier or (blocked >> x) & 1 or (blocked >> y) & 1:
            continue
        add(node(x), node(y), carrier)
    if b.out_of_time():
        return False
    if not b.lim.templates:
        return True
    for edge, edge_node in ((start, EDGE_START), (goal, EDGE_GOAL)):
        for anchor, carrier in templates[edge]:
            if (blocked >> anchor) & 1 or carrier & blocked:
                continue
            add(node(anchor), edge_node, carrier & empty)
    if b.lim.stone_templates:
        own = conns.stones[colour]
        derived = stone_templates(geo)
        for edge, edge_node in ((start, EDGE_START), (goal, EDGE_GOAL)):
            for anchor, carrier, helpers in derived[edge]:
                if helpers & own != helpers or (blocked >> anchor) & 1 or carrier & blocked:
                    continue
                add(node(anchor), edge_node, carrier & empty)
    if b.lim.edge_band:
        _add_band(b, conns)
    return not b.out_of_time()


def _add_band(b: _Builder, conns: Connections) -> None:
    """Two second-row anchors (own stones or empty cells) joined to the same own edge by
    their bridges, with no edge cell in common, are joined to each other through the edge,
    as through an own group (what Benzene's ladder patterns give)."""
    opp = conns.stones[1 - conns.colour]
    empty = conns.empty
    rows = second_row(conns.geo)
    for edge in conns.geo.edges[conns.colour]:
        items = [(c, conns.node(c), pair) for c, pair in rows[edge]
                 if not (opp >> c) & 1 and pair & empty == pair]
        near = conns.geo.neighbour_mask
        for i, (cx, x, px) in enumerate(items):
            for cy, y, py in items[i + 1:]:
                if x != y and near[cx] & near[cy] and not px & py:
                    b.add_full(x, y, px | py)


def _captured(conns: Connections) -> dict[int, int]:
    """Each empty second-row cell's two edge cells, both empty: once the cell is played
    they are captured (an opponent stone on one, answered on the other, is dead: its other
    two neighbours touch each other), so two connections through the cell may share them."""
    empty = conns.empty
    rows = second_row(conns.geo)
    out: dict[int, int] = {}
    for edge in conns.geo.edges[conns.colour]:
        for c, pair in rows[edge]:
            if (empty >> c) & 1 and pair & empty == pair:
                out[c] = out.get(c, 0) | pair
    return out
