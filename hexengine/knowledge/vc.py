"""Virtual connections: Anshelevich's H-search with bitboard carriers, edge templates, mustplay.

Everything is per colour.  The nodes are that colour's groups (chains of touching stones, a
group named by its lowest cell), its two edges (``EDGE_START`` = -1, ``EDGE_GOAL`` = -2) and the
empty cells (named by themselves).  A *full* connection (VC) between two nodes with carrier C
(a bitboard of empty cells) means the owner joins them whatever the opponent does, answering
inside C.  A *semi* connection (SC) with key k and carrier C (k in C) means the owner joins them
by playing k first.  Both are sound by construction: every rule below only ever derives real
connections, and the bounds (soft limits, the work cap) only leave connections out.

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

``mustplay`` is the intersection of the opponent's edge-to-edge SC carriers, keys included
(Benzene's ``VCUtil::GetMustplay``).  Any subset of real SCs gives a sound mustplay (a move
outside one SC's carrier loses to its key), so the soft limits only make it larger.
"""
from __future__ import annotations

import functools
import heapq
import time
from dataclasses import dataclass
from typing import Optional

from ..geometry import Geometry

EDGE_START = -1
EDGE_GOAL = -2

_OFF = 2  # node ids run from -2; pair keys use (id + _OFF)


@dataclass(frozen=True)
class Limits:
    """Bounds of one build (Benzene's soft limits and max_ors, plus a global work cap)."""
    max_fulls: int = 10  # full carriers kept per pair
    max_semis: int = 20  # semi carriers kept per pair
    max_ors: int = 4  # semis combined by one OR
    or_candidates: int = 10  # a new semi is combined only with this many smallest of its pair
    and_fulls: int = 4  # carriers per partner used by one AND
    work: int = 150_000  # combination attempts per build; past it the build stops (sound)
    stop_at_win: bool = False  # stop as soon as an edge-to-edge VC is found
    templates: bool = True  # edge templates as base connections
    empty_pairs: bool = False  # derive connections between two empty cells too (Benzene)


DEFAULT_LIMITS = Limits()
# Benzene's H-search: connections between empty cells derived too, with its soft limits.  Its
# carriers reach across the open board, so it sees far more: on 9x9 game positions 6-7 ms for
# both colours instead of 0.8, and a mustplay of 42 cells on average instead of 49; the
# solver proves five 6x6 openings in 7 s instead of 36.  Used where a build is worth the most
# (the search's root, every node of the solver), not at every node of the search.
WIDE_LIMITS = Limits(empty_pairs=True, max_fulls=25, max_semis=50, or_candidates=20,
                     and_fulls=8, work=300_000)

# --- edge templates, in the frame of the top edge ------------------------------------------
# (dcol, drow) offsets from the stone, drow = row index (0 = the row touching the edge); the
# stone itself is at (0, depth - 1).  Hex neighbours in this layout: (±1,0), (0,±1), (1,-1),
# (-1,1), so a cell (c, r) touches (c, r-1) and (c+1, r-1) in the row nearer the edge.
_TEMPLATES: dict[str, tuple[int, tuple[tuple[int, int], ...]]] = {
    # name: (stone row index, carrier cells as (dcol, row)); mirror images are added below
    "II": (1, ((0, 0), (1, 0))),
    # the ziggurat: one cell beside the stone, three below, four on the edge row
    "III-a": (2, ((1, 2), (0, 1), (1, 1), (2, 1), (0, 0), (1, 0), (2, 0), (3, 0))),
    # 4th row: one cell beside the stone, then 5, 6 and 7 cells (H-search finds it on an open
    # board with wide limits: an OR of ziggurat threats)
    "IV-a": (3, ((-1, 3),) + tuple((c, 2) for c in range(-2, 3))
             + tuple((c, 1) for c in range(-2, 4)) + tuple((c, 0) for c in range(-2, 5))),
}


def _mirror_template(row: int, cells):
    """The left-right mirror image in the top-edge frame, stone fixed: a cell at offset
    (c, r) goes to (row - r - c, r)."""
    return tuple((row - r - dc, r) for dc, r in cells)


for _name, (_row, _cells) in list(_TEMPLATES.items()):
    if _name != "II":
        _TEMPLATES[_name + "'"] = (_row, _mirror_template(_row, _cells))


@functools.lru_cache(maxsize=64)
def _tables(geo: Geometry):
    """Per-geometry tables: bridges (x, y, carrier) with x < y, and per edge mask the template
    instances (anchor cell, carrier of all template cells)."""
    w, h = geo.width, geo.height
    bridges = []
    for x in geo.cells:
        nx = geo.neighbour_mask[x]
        seen = set()
        for c in geo.neighbours[x]:
            for y in geo.neighbours[c]:
                if y <= x or y in seen or (nx >> y) & 1:
                    continue
                common = nx & geo.neighbour_mask[y]
                if common.bit_count() == 2:
                    seen.add(y)
                    bridges.append((x, y, common))
    # the four edges: a map (col, row) in the top frame -> board (col, row)
    frames = {
        geo.top: lambda c, r: (c, r),
        geo.bottom: lambda c, r: (w - 1 - c, h - 1 - r),
        geo.left: lambda c, r: (r, c),
        geo.right: lambda c, r: (w - 1 - r, h - 1 - c),
    }
    spans = {geo.top: w, geo.bottom: w, geo.left: h, geo.right: h}
    templates = {}
    for edge, to_board in frames.items():
        inst = []
        for name, (row, cells) in _TEMPLATES.items():
            for c0 in range(spans[edge]):
                pts = [(c0 + dc, r) for dc, r in cells]
                stone = to_board(c0, row)
                board = [to_board(c, r) for c, r in pts]
                if not all(0 <= bc < w and 0 <= br < h for bc, br in board + [stone]):
                    continue
                carrier = 0
                for bc, br in board:
                    carrier |= 1 << geo.index(bc, br)
                inst.append((geo.index(*stone), carrier))
        templates[edge] = tuple(inst)
    return tuple(bridges), templates


def bridges(geo: Geometry) -> tuple[tuple[int, int, int], ...]:
    """Every bridge on the board as (cell, cell, its two common neighbours), lower cell
    first."""
    return _tables(geo)[0]


def edge_templates(geo: Geometry) -> dict[int, tuple[tuple[int, int], ...]]:
    """Per edge mask, every edge-template instance on the board as (anchor cell, carrier of
    all the template's other cells): templates II, III-a and IV-a with their mirror images."""
    return _tables(geo)[1]


class Connections:
    """The connections of one colour in one position (the result of ``build``)."""

    def __init__(self, geo: Geometry, stones, colour: int) -> None:
        self.geo = geo
        self.colour = colour
        self.stones = (stones[0], stones[1])
        own = stones[colour]
        self.empty = geo.mask & ~(stones[0] | stones[1])
        self.group_of: dict[int, int] = {}  # own cell -> group id (its lowest cell)
        self.groups: dict[int, int] = {}  # group id -> its cells
        rest = own
        while rest:
            low = rest & -rest
            g = geo.flood(low, own)
            gid = low.bit_length() - 1
            self.groups[gid] = g
            for cell in geo.iter_bits(g):
                self.group_of[cell] = gid
            rest &= ~g
        self.fulls: dict[int, list[int]] = {}  # pair key -> carriers, smallest first
        self.semis: dict[int, list[int]] = {}  # pair key -> carriers (key included)
        self.semi_keys: dict[int, list[int]] = {}  # pair key -> keys, parallel to semis
        self.adj: dict[int, dict[int, list[int]]] = {}  # node -> partner -> full carriers
        self.work = 0
        self.complete = True  # False when the work cap stopped the build

    # --- naming ----------------------------------------------------------------------------
    def node(self, cell: int) -> int:
        """The node of a cell or edge id: its group for an own stone, else itself."""
        return self.group_of.get(cell, cell)

    @staticmethod
    def _key(a: int, b: int) -> int:
        if a > b:
            a, b = b, a
        return (a + _OFF) << 16 | (b + _OFF)

    @staticmethod
    def _unkey(k: int) -> tuple[int, int]:
        return (k >> 16) - _OFF, (k & 0xFFFF) - _OFF

    # --- queries ---------------------------------------------------------------------------
    def edge_full(self) -> Optional[int]:
        """Carrier of the smallest edge-to-edge VC; 0 when the edges are already joined;
        None when no VC is known."""
        lst = self.fulls.get(self._key(EDGE_START, EDGE_GOAL))
        return lst[0] if lst else None

    def edge_semis(self) -> list[int]:
        """Carriers (keys included) of the edge-to-edge SCs."""
        return list(self.semis.get(self._key(EDGE_START, EDGE_GOAL), ()))

    def edge_full_all(self) -> list[int]:
        """Carriers of every edge-to-edge VC kept, smallest first."""
        return list(self.fulls.get(self._key(EDGE_START, EDGE_GOAL), ()))

    def edge_semis_keyed(self) -> list[tuple[int, int]]:
        """(key bit, carrier) of every edge-to-edge SC kept, smallest carrier first."""
        k = self._key(EDGE_START, EDGE_GOAL)
        return [(1 << key, carrier)
                for key, carrier in zip(self.semi_keys.get(k, ()), self.semis.get(k, ()))]

    def full_pairs(self) -> list[tuple[int, int]]:
        """Node pairs with at least one full connection."""
        return [self._unkey(k) for k, lst in self.fulls.items() if lst]

    def full(self, a: int, b: int) -> list[int]:
        """Full carriers between two nodes (any cell of a group names the group)."""
        a, b = self.node(a), self.node(b)
        return list(self.fulls.get(self._key(a, b), ()))

    def semi(self, a: int, b: int) -> list[int]:
        """Semi carriers (keys included) between two nodes."""
        a, b = self.node(a), self.node(b)
        return list(self.semis.get(self._key(a, b), ()))

    def semi_keyed(self, a: int, b: int) -> list[tuple[int, int]]:
        """(key cell, carrier) of every semi connection kept between two nodes."""
        k = self._key(self.node(a), self.node(b))
        return list(zip(self.semi_keys.get(k, ()), self.semis.get(k, ())))

    def count(self) -> tuple[int, int]:
        """(full carriers, semi carriers) kept."""
        return (sum(len(v) for v in self.fulls.values()),
                sum(len(v) for v in self.semis.values()))


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
        if len(sl) > 1:
            self.do_or(a, b, carrier, sl, fl)

    def do_or(self, a: int, b: int, new: int, sl: list[int], fl) -> None:
        """Combine the new semi with up to max_ors - 1 others of its pair."""
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
        if new & suffix[0]:
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
                if i2 == 0:
                    self.add_full(a, b, u2)
                    fl = self.c.fulls.get(self.c._key(a, b))
                    continue
                if depth + 1 < max_depth and not (i2 & suffix[j + 1]):
                    stack.append((j + 1, i2, u2, depth + 1))

    # --- the closure --------------------------------------------------------------------------
    def run(self) -> None:
        c = self.c
        lim = self.lim
        and_n = lim.and_fulls
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
                        if c2 & carrier or c2 & endbit:
                            continue
                        if mid_own:
                            self.add_full(end, z, carrier | c2)
                        else:
                            self.add_semi(end, z, carrier | c2 | midbit, mid)


def build(geo: Geometry, stones, colour: int, limits: Optional[Limits] = None,
          deadline: Optional[float] = None) -> Connections:
    """H-search for ``colour``: base connections, then AND/OR to a fixed point (or the work
    cap).  Every connection reported is a real one.  Once the compiled kernel has loaded
    (``hsearch``), it builds the same connections ~15× faster and ``deadline`` is not
    needed."""
    lim = limits or DEFAULT_LIMITS
    from . import hsearch
    if hsearch.usable(geo):
        return hsearch.CompiledConnections(geo, stones, colour, lim)
    conns = Connections(geo, stones, colour)
    b = _Builder(conns, lim, deadline)
    if _add_base(b, conns):
        b.run()
    return conns


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
    all_bridges, templates = _tables(geo)
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
    return not b.out_of_time()


def mustplay(geo: Geometry, stones, colour: int,
             opponent: Optional[Connections] = None) -> int:
    """Empty cells ``colour`` (to move) must play in: the intersection of the opponent's
    edge-to-edge SC carriers (keys included); all empty cells when the opponent has none;
    0 when the opponent already has an edge-to-edge VC (``colour`` has lost)."""
    conns = opponent if opponent is not None else build(geo, stones, 1 - colour)
    empty = geo.mask & ~(stones[0] | stones[1])
    if conns.edge_full() is not None:
        return 0
    m = empty
    for s in conns.edge_semis():
        m &= s
    return m


def update(conns: Connections, geo: Geometry, stones_after, move: int, mover: int,
           limits: Optional[Limits] = None) -> Connections:
    """Connections after ``mover`` played ``move`` (``stones_after`` holds the move).

    Opponent's move (mover != conns.colour): every connection whose carrier holds ``move``
    is dropped (one mask test each), and so is every connection of the node ``move`` (it was
    an empty cell).  What remains is exact: each kept connection is still real, because its
    carrier is untouched.  The result is a sound *subset* of a full build: connections that a
    build would now find afresh (e.g. a carrier that the soft limits had left out) are not
    re-derived.

    Own move: the new stone merges groups, so the connections are rebuilt (``build``); the
    result equals a full build.
    """
    if mover == conns.colour:
        return build(geo, stones_after, mover, limits)
    bit = 1 << move
    out = Connections.__new__(Connections)
    out.geo = geo
    out.colour = conns.colour
    out.stones = (stones_after[0], stones_after[1])
    out.empty = conns.empty & ~bit
    out.group_of = conns.group_of
    out.groups = conns.groups
    out.work = conns.work
    out.complete = conns.complete
    fulls = {}
    adj: dict[int, dict[int, list[int]]] = {}
    for k, lst in conns.fulls.items():
        a, b = Connections._unkey(k)
        if a == move or b == move:
            continue
        kept = [c for c in lst if not c & bit]
        if kept:
            fulls[k] = kept
            adj.setdefault(a, {})[b] = kept
            adj.setdefault(b, {})[a] = kept
    semis = {}
    semi_keys = {}
    for k, lst in conns.semis.items():
        a, b = Connections._unkey(k)
        if a == move or b == move:
            continue
        keys = conns.semi_keys[k]
        idx = [i for i, c in enumerate(lst) if not c & bit]
        if idx:
            semis[k] = [lst[i] for i in idx]
            semi_keys[k] = [keys[i] for i in idx]
    out.fulls = fulls
    out.semis = semis
    out.semi_keys = semi_keys
    out.adj = adj
    return out
