"""Electrical resistance (Anshelevich; Six, Wolve): a colour's board as a circuit.

Cells are nodes.  Between neighbouring cells the conductance is 1 for two empty cells, 2 when
one holds an own stone, and STRONG between two own stones (a group acts as one node);
opponent stones conduct nothing.  Each edge is a terminal joined to the cells of its row:
1 to an empty cell, STRONG to an own stone (which touches the edge).  With unit voltage
across the terminals the current I gives R = 1 / I; the score is log(R_opponent / R_own), so
many parallel, short ways to connect make a low resistance.

Virtual connections are strong links too, which is what makes this evaluation sharp: two own
stones with both cells of a bridge between them empty, and an own stone on the second row
whose two edge cells are empty (the edge template), are joined with conductance WIRE (STRONG
by default, as if they touched; ``set_wire``).  Overlapping carriers are not checked: it is
an evaluation, not a proof.

The Laplacian is symmetric positive definite (a cell held by the opponent becomes an identity
row), so it is solved by Cholesky (LAPACK ``dposv`` from scipy), about twice as fast as
numpy's LU solve at 11x11; at these sizes one dense LAPACK call beats any sparse or iterative
method driven from Python.  Past DENSE_LIMIT cells the dense solve grows too slow (cubic), so
big boards use scipy's sparse LU instead (a 52x52 evaluation takes milliseconds, not seconds).
"""
from __future__ import annotations

import functools
import math
from typing import Optional

import numpy as np
from scipy.linalg.lapack import dposv as _posv
from scipy.sparse import csc_matrix
from scipy.sparse.linalg import spsolve

from .. import kernels
from ..geometry import Geometry, geometry
from ..knowledge import hsearch
from ..knowledge.connections import Limits
from ..knowledge.templates import edge_templates
from . import circuit

STRONG = 50.0  # own–own and virtual-connection conductance: groups act as single nodes
REACH = 5.0  # a stone's bridge to an empty cell: a virtual link, weaker than a wire (its
# carrier may be shared with other links, which the circuit cannot see)
EDGE_REACH = STRONG  # an empty second-row cell's template to its edge
WIRE = STRONG  # a virtual connection from an own stone: a bridge to another stone, an edge
# template, an H-search full connection (set per search: ``set_wire``)
# The move order reads the currents of a plainer circuit: with virtual links to empty cells
# as weak as a plain neighbour, the current concentrates where the fight is.  Measured on
# 354 positions of Wolve's games (scripts/ordering.py): its move is among our first 6 cells
# 71 % of the time with these, 52 % with the evaluation's own REACH and EDGE_REACH, while
# for choosing a move by the value one ply deep the evaluation's are the better ones.
ORDER_REACH = 0.5
ORDER_EDGE_REACH = 0.5
CLAMP = 12.0  # |score| never exceeds this (a cut-off colour has infinite resistance)
DENSE_LIMIT = 300  # cells; bigger boards (18x18 on) are solved as sparse systems (measured
# crossover: dense 1.4 ms vs sparse 2.4 ms at 17x17, 4.7 vs 2.9 ms at 19x19)
_BRIDGES = ((1, 1), (-1, 2), (2, -1))  # (dcol, drow) to the bridge partner, one per pair
_NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


@functools.lru_cache(maxsize=64)
def _tables(geo: Geometry):
    """Index arrays for one board size, in cell order: neighbour pairs, bridge pairs with
    their carriers, and per colour the edge rows and edge templates."""
    pos = {cell: i for i, cell in enumerate(geo.cells)}
    n = len(geo.cells)
    cells = np.array(geo.cells, dtype=np.intp)
    nbytes = (geo.max_index + 7) // 8

    def at(c: int, r: int) -> int:
        return pos[geo.index(c, r)] if 0 <= c < geo.width and 0 <= r < geo.height else -1

    pairs = [(pos[a], pos[b]) for a in geo.cells for b in geo.neighbours[a] if a < b]
    bridges = []
    for cell in geo.cells:
        c, r = geo.coords(cell)
        for dc, dr in _BRIDGES:
            partner = at(c + dc, r + dr)
            carriers = [at(c + ac, r + ar) for ac, ar in _NEIGHBOURS
                        if (dc - ac, dr - ar) in _NEIGHBOURS]
            if partner >= 0 and all(x >= 0 for x in carriers):
                bridges.append((pos[cell], partner, carriers[0], carriers[1]))
    edges = []
    for colour in (0, 1):
        sides = []
        for edge in geo.edges[colour]:
            row = _bits(edge, nbytes, cells)
            templates = []  # (second-row cell, its two edge cells)
            for cell in geo.cells:
                if (edge >> cell) & 1:
                    continue
                on_edge = [pos[x] for x in geo.neighbours[cell] if (edge >> x) & 1]
                if len(on_edge) == 2:
                    templates.append((pos[cell], on_edge[0], on_edge[1]))
            t = np.array(templates, dtype=np.intp).reshape(-1, 3)
            # the deeper templates (ziggurat, IV-a) from an own stone: anchor positions and
            # a template-by-cell matrix of their carriers
            deep = [(pos[anchor], carrier) for anchor, carrier in edge_templates(geo)[edge]
                    if carrier.bit_count() > 2]
            anchors = np.array([a for a, _ in deep], dtype=np.intp)
            carriers = np.array([_bits(carrier, nbytes, cells) for _, carrier in deep],
                                dtype=float).reshape(-1, n)
            sides.append((row, t[:, 0], t[:, 1], t[:, 2], anchors, carriers))
        edges.append(tuple(sides))
    p = np.array(pairs, dtype=np.intp).reshape(-1, 2)
    b = np.array(bridges, dtype=np.intp).reshape(-1, 4)
    # coordinates of the sparse matrix entries (links both ways, then the diagonal), in the
    # order _resistances lays out their values
    diagonal = np.arange(n)
    sparse_at = (np.concatenate((p[:, 0], p[:, 1], b[:, 0], b[:, 1], diagonal)),
                 np.concatenate((p[:, 1], p[:, 0], b[:, 1], b[:, 0], diagonal)))
    return n, p[:, 0], p[:, 1], b.T, edges, cells, nbytes, sparse_at


def _bits(value: int, nbytes: int, cells: np.ndarray) -> np.ndarray:
    raw = np.frombuffer(value.to_bytes(nbytes, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[cells].astype(float)


class Links:
    """Extra wires for each colour's circuit: known full connections between its groups and
    edges, each with its carrier, a wire while no opponent stone lies in the carrier.

    Made once per search root from H-search (``prepare_links``); asked at every leaf."""

    __slots__ = ("ends", "carriers", "compiled")

    def __init__(self, ends, carriers, compiled) -> None:
        self.ends = ends  # per colour: (a, b) position arrays; b < 0 names an edge (-1, -2)
        self.carriers = carriers  # per colour: links-by-cells 0/1 matrix of the carriers
        self.compiled = compiled  # the same for the compiled circuit: (colour, a, b) rows,
        # carrier offsets, carrier cells


def prepare_links(geo: Geometry, links) -> Links:
    """``links[colour]`` is a list of (cell, cell or -1/-2 for the start/goal edge, carrier
    bitboard); cells in position order for the circuit."""
    n, *_, cells, nbytes, _ = _tables(geo)
    pos = {cell: i for i, cell in enumerate(geo.cells)}
    ends, carriers = [], []
    rows, offsets, members = [], [0], []
    for colour in (0, 1):
        for a, b, carrier in links[colour]:
            rows.append((colour, pos[a], pos[b] if b >= 0 else b))
            members.extend(pos[x] for x in geo.iter_bits(carrier))
            offsets.append(len(members))
    compiled = (np.array(rows, dtype=np.int64).reshape(-1, 3), np.array(offsets, dtype=np.int64),
                np.array(members, dtype=np.int64))
    for colour in (0, 1):
        lst = links[colour]
        a = np.array([pos[x] for x, _, _ in lst], dtype=np.intp)
        b = np.array([pos[y] if y >= 0 else y for _, y, _ in lst], dtype=np.intp)
        if lst:
            m = np.stack([_bits(c, nbytes, cells) for _, _, c in lst])
        else:
            m = np.zeros((0, n))
        ends.append((a, b))
        carriers.append(m)
    return Links(ends, carriers, compiled)


_NO_LINKS = (np.zeros((0, 3), dtype=np.int64), np.zeros(1, dtype=np.int64),
             np.zeros(0, dtype=np.int64))
_NO_ENERGY = np.zeros(0)


@functools.lru_cache(maxsize=64)
def _compiled_tables(geo: Geometry) -> tuple:
    """``_tables`` in the compiled circuit's layout (see ``circuit.solve``)."""
    n, ia, ib, (ba, bb, c1, c2), edges, cells, nbytes, _ = _tables(geo)
    pairs = np.sort(np.stack((ia, ib), axis=1), axis=1).astype(np.int64)
    bridges = np.stack((ba, bb, c1, c2), axis=1).astype(np.int64).reshape(-1, 4)
    rows = np.zeros((4, n), dtype=np.uint8)
    tpl, deep, offsets, members = [], [], [0], []
    for colour in (0, 1):
        for side, (row, t_cell, t1, t2, anchors, carriers) in enumerate(edges[colour]):
            tag = colour * 2 + side
            rows[tag] = row > 0
            tpl.extend((tag, int(x), int(y), int(z)) for x, y, z in zip(t_cell, t1, t2))
            for anchor, carrier in zip(anchors, carriers):
                deep.append((tag, int(anchor)))
                members.extend(np.flatnonzero(carrier).tolist())
                offsets.append(len(members))
    span = max([int(abs(a - b)) for a, b in pairs] + [int(abs(a - b)) for a, b in zip(ba, bb)]
               + [0])
    return (cells.astype(np.int64), nbytes, pairs, bridges, rows,
            np.array(tpl, dtype=np.int64).reshape(-1, 4),
            np.array(deep, dtype=np.int64).reshape(-1, 2), np.array(offsets, dtype=np.int64),
            np.array(members, dtype=np.int64), span)


def set_wire(conductance: float) -> None:
    """The conductance of every virtual connection from an own stone (``WIRE``)."""
    global WIRE
    WIRE = float(conductance)


def prepare(geo: Geometry) -> None:
    """Build this board size's tables now (they are cached; 0.2 s at 52x52)."""
    _compiled_tables(geo)


def _solve_compiled(geo: Geometry, stones: list, first: int, flows: bool,
                    links: Optional[Links], reach: float, edge_reach: float) -> tuple:
    """``_resistances`` by the compiled circuit (``circuit.solve``)."""
    cells, nbytes, pairs, bridges, rows, tpl, deep, deep_off, deep_idx, span = \
        _compiled_tables(geo)
    raw_b = np.frombuffer(stones[0].to_bytes(nbytes, "little"), dtype=np.uint8)
    raw_w = np.frombuffer(stones[1].to_bytes(nbytes, "little"), dtype=np.uint8)
    lk, lk_off, lk_idx = _NO_LINKS if links is None else links.compiled
    out = np.empty(2)
    energy = np.zeros(cells.shape[0]) if flows else _NO_ENERGY  # written only with flows
    circuit.solve(raw_b, raw_w, cells, first, reach, edge_reach, STRONG, WIRE, flows, pairs,
                  bridges, rows, tpl, deep, deep_off, deep_idx, lk, lk_off, lk_idx, span, out,
                  energy)
    if flows:
        return float(out[0]), float(out[1]), energy
    return float(out[0]), float(out[1])


def _warm_up_circuit() -> None:
    """The compiled circuit's first solve, on a 2x2 board: numba compiles it in the kernels'
    loading thread, and the circuit is ready only if this works."""
    geo = geometry(2, 2)
    _solve_compiled(geo, [1 << geo.cells[0], 0], 0, True, None, 1.0, 1.0)


kernels.warm_up("circuit", _warm_up_circuit)


def _resistances(geo: Geometry, stones: list, first: int, flows: bool = False,
                 links: Optional[Links] = None, reach: float = REACH,
                 edge_reach: float = EDGE_REACH) -> tuple:
    """Resistances of ``first`` and of its opponent, built side by side as a (2, n, n) stack
    so that each numpy call serves both colours.  With ``flows`` a third item is added: per
    cell (in cell order) the current through it in both circuits, each circuit carrying a
    unit current (Six's and Wolve's "energy"), the measure of how much a cell matters.

    The compiled circuit answers once it is ready (``circuit``); this numpy one until then."""
    if circuit.ready():
        return _solve_compiled(geo, stones, first, flows, links, reach, edge_reach)
    n, ia, ib, (ba, bb, c1, c2), edges, cells, nbytes, sparse_at = _tables(geo)
    own = np.stack((_bits(stones[first], nbytes, cells),
                    _bits(stones[1 - first], nbytes, cells)))
    empty = 1.0 - own[0] - own[1]
    w = empty + 2.0 * own  # a pair conducts the larger weight of its ends, 0 if one is out
    wa, wb = w[:, ia], w[:, ib]
    g = np.maximum(wa, wb) * ((wa * wb) > 0)
    g += (STRONG - 2.0) * (own[:, ia] * own[:, ib])
    gb = (WIRE * own[:, ba] * own[:, bb] + reach * (own[:, ba] * empty[bb]
          + empty[ba] * own[:, bb])) * (empty[c1] * empty[c2])
    out = []
    energy = np.zeros(n) if flows else None
    if n > DENSE_LIMIT:
        diag = [np.bincount(ia, g[k], n) + np.bincount(ib, g[k], n) + np.bincount(ba, gb[k], n)
                + np.bincount(bb, gb[k], n) for k in (0, 1)]
    else:
        lap = np.zeros((2, n, n))
        lap[:, ia, ib] = -g
        lap[:, ib, ia] = -g
        lap[:, ba, bb] = -gb
        lap[:, bb, ba] = -gb
        diag = -lap.sum(axis=2)
    for k, colour in enumerate((first, 1 - first)):
        (start, s_cell, s1, s2, s_anchor, s_carrier), \
            (goal, t_cell, t1, t2, t_anchor, t_carrier) = edges[colour]
        ok = own[k]
        to_edge = empty + STRONG * ok  # an own stone on its edge is joined to it
        g_src = start * to_edge
        g_src[s_cell] += (WIRE * ok[s_cell] + edge_reach * empty[s_cell]) * empty[s1] \
            * empty[s2]
        g_goal = goal * to_edge
        g_goal[t_cell] += (WIRE * ok[t_cell] + edge_reach * empty[t_cell]) * empty[t1] \
            * empty[t2]
        # own stones on the 3rd and 4th rows join their edge through the ziggurat and
        # template IV-a while no opponent stone is in the carrier
        theirs = own[1 - k]
        if s_anchor.size:
            held = ok[s_anchor] * (s_carrier @ theirs == 0)
            g_src += np.bincount(s_anchor, WIRE * held, n)
        if t_anchor.size:
            held = ok[t_anchor] * (t_carrier @ theirs == 0)
            g_goal += np.bincount(t_anchor, WIRE * held, n)
        extra = None
        if links is not None and links.carriers[colour].shape[0]:
            la, lb = links.ends[colour]
            live = WIRE * (links.carriers[colour] @ theirs == 0)
            g_src += np.bincount(la, live * (lb == -1), n)
            g_goal += np.bincount(la, live * (lb == -2), n)
            inner = lb >= 0
            if inner.any():
                extra = (la[inner], lb[inner], live[inner])
        d = diag[k] + g_src + g_goal + own[1 - k] + 1e-9  # opponent: identity rows
        if extra is not None:
            ea, eb, ev = extra
            d = d + np.bincount(ea, ev, n) + np.bincount(eb, ev, n)
        if n > DENSE_LIMIT:
            data = np.concatenate((-g[k], -g[k], -gb[k], -gb[k], d))
            matrix = csc_matrix((data, sparse_at), shape=(n, n))
            if extra is not None:
                matrix = matrix - csc_matrix((np.concatenate((ev, ev)), (
                    np.concatenate((ea, eb)), np.concatenate((eb, ea)))), shape=(n, n))
            v = spsolve(matrix, g_src)
            if not np.all(np.isfinite(v)):
                out.append(math.inf)
                continue
        else:
            a = lap[k]
            if extra is not None:
                np.subtract.at(a, (ea, eb), ev)
                np.subtract.at(a, (eb, ea), ev)
            a.flat[::n + 1] = d
            _, v, info = _posv(a.T, g_src, overwrite_a=1)  # a is symmetric: a.T is its
            # Fortran-ordered view, which LAPACK factors in place
            if info != 0:
                out.append(math.inf)
                continue
        current = float(g_src @ (1.0 - v))
        out.append(1.0 / current if current > 1e-12 else math.inf)
        if flows and current > 1e-12:
            pair = g[k] * np.abs(v[ia] - v[ib]) / current
            bridge = gb[k] * np.abs(v[ba] - v[bb]) / current
            energy += (np.bincount(ia, pair, n) + np.bincount(ib, pair, n)
                       + np.bincount(ba, bridge, n) + np.bincount(bb, bridge, n)
                       + (g_src * (1.0 - v) + g_goal * v) / current)
    if flows:
        return out[0], out[1], energy
    return out[0], out[1]


def resistance(geo: Geometry, stones: list, colour: int) -> float:
    """Resistance between ``colour``'s two edges (inf when it is cut off)."""
    return _resistances(geo, stones, colour)[0]


def evaluate(geo: Geometry, stones: list, colour: int, links: Optional[Links] = None) -> float:
    """log(R_opponent / R_own), clamped to ±CLAMP."""
    r_own, r_opp = _resistances(geo, stones, colour, links=links)
    return _score(r_own, r_opp)


WIRES_PER_PAIR = 3  # full carriers per pair of groups/edges wired by evaluate_connected


@functools.lru_cache(maxsize=64)
def _positions(geo: Geometry) -> np.ndarray:
    """Each cell's position in the circuit (−1 off the board)."""
    pos = np.full(geo.max_index, -1, dtype=np.int64)
    for i, cell in enumerate(geo.cells):
        pos[cell] = i
    return pos


_NO_CARRIERS = np.zeros(0, dtype=np.int64)


def connected(geo: Geometry, stones: list, colour: int, extra: Optional[Links] = None,
              limits: Optional[Limits] = None) -> tuple[float, int, int, int]:
    """``evaluate_connected``'s score, what joins each colour's edges in the same H-search
    (2 a full connection, 1 a semi, 0 neither) and the mustplay: (score, colour's,
    opponent's, the empty cells ``colour`` must play in).  The mustplay is the intersection
    of the opponent's edge-to-edge semi carriers (every empty cell when it has none, none
    when it has a full connection).  The search reads a node from it: a semi connection for
    the side to move is a win in one, a full one for the opponent a loss, and only the
    mustplay's cells are worth searching.  ``extra`` wires (the root's connections, each
    while no opponent stone lies in its carrier) join the circuits beside the position's
    own.  ``limits`` are the H-search's (``vc.DEFAULT_LIMITS`` when None)."""
    empty = geo.mask & ~(stones[0] | stones[1])
    if not (circuit.ready() and hsearch.usable(geo)):
        return evaluate(geo, stones, colour), 0, 0, empty
    edges = [0, 0]
    threats = [-1, -1]
    links = fresh_links(geo, stones, edges, threats, limits)
    own, opp = edges[colour], edges[1 - colour]
    must = 0 if opp == 2 else empty & threats[1 - colour]
    if own == 2 or opp == 2:  # decided: a full connection between a colour's edges
        return (CLAMP if own == 2 else -CLAMP), own, opp, must
    if extra is not None:
        links = _joined(extra, links)
    r_own, r_opp = _solve_compiled(geo, stones, colour, False, links, REACH, EDGE_REACH)
    return _score(r_own, r_opp), own, opp, must


def _joined(first: Links, second: Links) -> Links:
    """One set of compiled wires: ``first``'s, then ``second``'s (carrier-free)."""
    rows_a, off_a, idx_a = first.compiled
    rows_b = second.compiled[0]
    rows = np.concatenate((rows_a, rows_b))
    off = np.concatenate((off_a, np.full(rows_b.shape[0], off_a[-1], dtype=np.int64)))
    return Links(None, None, (rows, off, idx_a))


def fresh_links(geo: Geometry, stones: list, edges: Optional[list] = None,
                threats: Optional[list] = None, limits: Optional[Limits] = None) -> Links:
    """Both colours' full connections between groups and edges, built now by the compiled
    H-search, as wires (no carriers to check: they hold in this position); ``edges`` and
    ``threats`` as in ``hsearch.wires``.  Needs the compiled kernels (``hsearch.usable``)."""
    rows = hsearch.wires(geo, stones, _positions(geo), WIRES_PER_PAIR, limits, edges=edges,
                         threats=threats)
    return Links(None, None, (rows, np.zeros(rows.shape[0] + 1, dtype=np.int64),
                              _NO_CARRIERS))


def evaluate_connected(geo: Geometry, stones: list, colour: int) -> float:
    """``evaluate`` with both colours' connections built afresh for this very position
    (compiled H-search) wired into their circuits: Wolve's evaluation.  Every full
    connection between two groups, or a group and an edge, conducts like a wire; a colour
    with a full connection between its edges scores ±CLAMP.  Until the compiled kernels
    are loaded (or on boards past ``hsearch.MAX_CELLS``) it is ``evaluate``."""
    return connected(geo, stones, colour)[0]


def rank_moves(geo: Geometry, stones: list, colour: int,
               links: Optional[Links] = None) -> list[int]:
    """The empty cells ranked by the current through them in both circuits, most first (the
    move ordering of Six and Wolve; cells that carry no current in either circuit, such as
    dead cells, come last).  The circuits are the ordering's (ORDER_REACH)."""
    *_, energy = _resistances(geo, stones, colour, flows=True, links=links,
                              reach=ORDER_REACH, edge_reach=ORDER_EDGE_REACH)
    *_, cells, nbytes, _ = _tables(geo)
    empty = geo.mask & ~(stones[0] | stones[1])
    free = _bits(empty, nbytes, cells) > 0
    picked = np.flatnonzero(free)
    order = picked[np.argsort(-energy[picked], kind="stable")]
    return cells[order].tolist()


def _score(r_own: float, r_opp: float) -> float:
    if math.isinf(r_own) and math.isinf(r_opp):
        return 0.0
    if math.isinf(r_own):
        return -CLAMP
    if math.isinf(r_opp):
        return CLAMP
    return max(-CLAMP, min(CLAMP, math.log(r_opp / r_own)))


def cell_currents(geo: Geometry, stones: list, colour: int) -> tuple[float, float,
                                                                     dict[int, float]]:
    """(resistance of ``colour``, resistance of its opponent, current through each empty
    cell): the current is the sum over both circuits, each carrying a unit current, so a
    cell's value lies in [0, 2] (the measure the ``current`` move order ranks by, in its
    circuit; the resistances are the evaluation's)."""
    r_own, r_opp = _resistances(geo, stones, colour)
    *_, energy = _resistances(geo, stones, colour, flows=True, reach=ORDER_REACH,
                              edge_reach=ORDER_EDGE_REACH)
    *_, cells, nbytes, _ = _tables(geo)
    empty = geo.mask & ~(stones[0] | stones[1])
    # a cell's energy counts the current of every link at it: what flows in and out again
    return r_own, r_opp, {int(cell): float(e) / 2.0 for cell, e in zip(cells, energy)
                          if (empty >> int(cell)) & 1}
