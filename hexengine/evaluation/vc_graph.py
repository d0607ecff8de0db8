"""Resistance on the graph of virtual connections (Six's and Wolve's circuit).

Where ``resistance`` lays its circuit on the board (neighbouring cells conduct, and a
colour's virtual connections are added as wires), this circuit is the H-search's graph: for
each colour its nodes are its groups, the empty cells and its two edges, and two nodes are
joined wherever the H-search (``knowledge.hsearch``, with connections between empty cells
derived too) found a full connection between them.  A link between two empty cells
conducts 1, one between an empty cell and a group or edge 2, one between two groups
nothing (a group touching an edge is the edge's node).  So a bridge or an edge template
from an empty cell counts as adjacency: a cell's distance is counted in safe steps, not in
cells.  The score is log(R_opponent / R_own), as in ``resistance``.

Wolve divides each link's conductance by one more than the number of cells all of that
pair's full carriers share (a bridge conducts a third, a pair joined two disjoint ways
fully); ``set_division`` applies that rule to no link (the default), to the links between
two empty cells, or to every link (``DIVISIONS``).  ``set_band`` adds the edge band's
connections to the builds (``Limits.edge_band``; the default), and ``set_bounds`` chooses
how many carriers a build keeps (``BOUNDS``: Benzene's soft limits by default; fewer make
cheaper builds, hence more nodes in a search's time).

A search keeps builds between plies (``Held``): a position's side to move has no new
stone, so its build is the one of the position a ply up with the connections through the
opponent's new stone dropped (the circuit skips them, ``graph_resistance``'s exclusion);
the mover's build is extended from its own build two plies up (``hsearch.run_from``:
only what its new stone changes goes through the closure again).  Together they take a
fixed-depth search about half the time of two fresh builds at each position.

The circuit is a dense Laplacian of at most cells + 2 nodes, solved by one compiled
Cholesky (numba) straight from the H-search's workspace, so a position costs its two
builds plus ~0.1 ms.  It reads the build through the H-search's accessors (``slot_ends``,
``slot_fulls``, …, inlined when compiled), not through its memory layout.  It registers with
``hexengine.kernels``, which compiles it after the H-search; until then (or on boards the
compiled H-search does not take) ``connected`` falls back to ``resistance.connected``.
"""
from __future__ import annotations

import dataclasses
import math
from typing import Callable, Optional

import numpy as np

from .. import kernels
from ..geometry import Geometry, geometry
from ..knowledge import hsearch
from ..knowledge.connections import DEFAULT_LIMITS, WIDE_LIMITS, Limits
from . import resistance

EMPTY_TO_EMPTY = 1.0
EMPTY_TO_COLOUR = 2.0
LEAK = 1e-9  # to ground at every node: an isolated node keeps the matrix regular
CUT = 1e6  # a resistance above this is a cut: the colour cannot join its edges
# the builds' bounds by name (``set_bounds``), over Benzene's H-search (connections between
# empty cells too): its soft limits (25 full and 50 semi carriers a pair, 20 OR candidates,
# 8 carriers a partner in an AND), the H-search's own defaults, and fewer still
_BOUND_FIELDS = ("max_fulls", "max_semis", "or_candidates", "and_fulls", "work")
BOUNDS = {
    "wide": {},
    "default": {name: getattr(DEFAULT_LIMITS, name) for name in _BOUND_FIELDS},
    "narrow": dict(max_fulls=6, max_semis=12, or_candidates=6, and_fulls=3, work=100_000),
}
_band, _bounds = True, "wide"  # (``set_band``, ``set_bounds``)


def _limits() -> Limits:
    """The builds' limits under the band and bounds settings."""
    return dataclasses.replace(WIDE_LIMITS, edge_band=_band, **BOUNDS[_bounds])


LIMITS = _limits()
DIVISIONS = ("none", "empty", "all")  # the links whose conductance the shared cells divide
DIVISION = 0  # an index into DIVISIONS (``set_division``)


def _root(rep, x):
    """The representative of ``x`` in the union-find ``rep``."""
    while rep[x] != x:
        x = rep[x]
    return x


def _link(C, I, S, is_group, k, division):
    """(a, b, conductance) of the node pair of slot ``k``: 1 between two empty cells, 2
    between an empty cell and a group or edge, 0 between two groups or edges; where
    ``division`` says (1: between empty cells, 2: every link), divided by one more than the
    cells all the pair's full carriers share."""
    mi = hsearch.node_cells(S)
    a, b = hsearch.slot_ends(I, S, k)
    ea = a < mi and is_group[a] == 0
    eb = b < mi and is_group[b] == 0
    g = EMPTY_TO_EMPTY if ea and eb else EMPTY_TO_COLOUR if ea or eb else 0.0
    if g != 0.0 and (division == 2 or (division == 1 and ea and eb)):
        g /= 1 + hsearch.fulls_common(C, I, S, k)
    return a, b, g


def _taken(ex, c):
    """Whether cell ``c`` is among the cells of the carrier row ``ex``."""
    return (ex[c >> 6] >> np.uint64(c & 63)) & np.uint64(1) != np.uint64(0)


def _broken(C, I, S, k, ex):
    """Whether every full connection of slot ``k`` runs through a cell of ``ex`` (or an
    end is one)."""
    mi = hsearch.node_cells(S)
    a, b = hsearch.slot_ends(I, S, k)
    if (a < mi and _taken(ex, a)) or (b < mi and _taken(ex, b)):
        return True
    return not hsearch.full_avoiding(C, I, S, k, ex)


def graph_resistance(C, I, S, is_group, G, idx, rep, flow, flows, division, ex, has_ex):
    """The resistance between the colour's edges in the circuit of the build held in
    (C, I, S) (see ``hsearch.Workspace``); ``G``, ``idx`` and ``rep`` are scratch arrays
    (nodes × nodes, nodes, nodes); ``division`` as ``_link`` takes it.  Returns CUT or more
    when the edges are cut apart.
    With ``has_ex``, the build is read for a position where the opponent has since taken
    the cells of ``ex`` (a carrier row): the connections whose carriers or ends hold one are
    gone, the rest stand (a sound part of what a build there would find; a division still
    counts the shared cells of all the pair's carriers).
    With ``flows``, adds to ``flow[cell]`` the current through each empty cell (a unit
    current from edge to edge: what flows in at a cell flows out again, so half the sum
    over its links)."""
    mi = hsearch.node_cells(S)
    nn = mi + 2
    slots = hsearch.slot_count(S)
    for x in range(nn):
        rep[x] = x
    # a group touching an edge (a full connection with an empty carrier) is the edge's node
    for k in range(slots):
        if hsearch.slot_fulls(I, S, k) == 0 or (has_ex and _broken(C, I, S, k, ex)):
            continue
        a, b, g = _link(C, I, S, is_group, k, 0)  # (only whether it conducts at all)
        if g != 0.0:
            continue
        if hsearch.full_is_empty(C, S, k, 0):  # the smallest carrier
            ra = _root(rep, a)
            rb = _root(rep, b)
            if ra != rb:
                if ra >= mi:  # an edge stays the representative
                    rep[rb] = ra
                else:
                    rep[ra] = rb
    for x in range(nn):
        rep[x] = _root(rep, x)
    goal = rep[mi + 1]
    start = rep[mi]
    if start == goal:
        return 0.0
    for x in range(nn):
        idx[x] = -1
    idx[start] = 0
    n = 1
    for c in range(mi):
        if rep[c] == c and c != goal and c != start and (
                is_group[c] or (hsearch.cell_empty(C, S, c)
                                and not (has_ex and _taken(ex, c)))):
            idx[c] = n
            n += 1
    for i in range(n):
        for j in range(n):
            G[i, j] = 0.0
        G[i, i] = LEAK
    for k in range(slots):
        if hsearch.slot_fulls(I, S, k) == 0 or (has_ex and _broken(C, I, S, k, ex)):
            continue
        a, b, g = _link(C, I, S, is_group, k, division)
        if g == 0.0:
            continue
        ia = idx[rep[a]]
        ib = idx[rep[b]]
        if ia >= 0:
            G[ia, ia] += g
        if ib >= 0:
            G[ib, ib] += g
        if ia >= 0 and ib >= 0:
            G[ia, ib] -= g
            G[ib, ia] -= g
    # Cholesky in place (lower), then solve G v = e_0 and return v[0]
    for j in range(n):
        s = G[j, j]
        for k in range(j):
            s -= G[j, k] * G[j, k]
        if s <= 0.0:
            return CUT
        d = math.sqrt(s)
        G[j, j] = d
        for i in range(j + 1, n):
            s = G[i, j]
            for k in range(j):
                s -= G[i, k] * G[j, k]
            G[i, j] = s / d
    # forward L y = e_0, then back L^T v = y
    vec = np.empty(n)
    vec[0] = 1.0 / G[0, 0]
    for i in range(1, n):
        s = 0.0
        for k in range(i):
            s -= G[i, k] * vec[k]
        vec[i] = s / G[i, i]
    for i in range(n - 1, -1, -1):
        s = vec[i]
        for k in range(i + 1, n):
            s -= G[k, i] * vec[k]
        vec[i] = s / G[i, i]
    if flows and vec[0] < CUT:
        for k in range(slots):
            if hsearch.slot_fulls(I, S, k) == 0 or (has_ex and _broken(C, I, S, k, ex)):
                continue
            a, b, g = _link(C, I, S, is_group, k, division)
            if g == 0.0:
                continue
            ia = idx[rep[a]]
            ib = idx[rep[b]]
            va = vec[ia] if ia >= 0 else 0.0
            vb = vec[ib] if ib >= 0 else 0.0
            current = 0.5 * g * abs(va - vb)
            if a < mi and is_group[a] == 0:
                flow[a] += current
            if b < mi and is_group[b] == 0:
                flow[b] += current
    return vec[0]


_kernel = graph_resistance


def _compile(compilers: kernels.Compilers) -> None:
    """Replace the kernel's functions by compiled ones (numba compiles at the first call)."""
    global _kernel, _root, _link, _taken, _broken
    jit, inline = compilers.jit, compilers.inline
    _root, _link = jit(_root), jit(_link)  # callees first
    _taken = inline(_taken)
    _broken = jit(_broken)
    _kernel = jit(graph_resistance)


def _warm_up() -> None:
    """The kernel's first solve, on a 3x3 board: numba compiles it in the loading thread."""
    geo = geometry(3, 3)
    _resistances(geo, [1 << geo.cells[4], 0], LIMITS, True)


ready = kernels.register("vc_graph", _compile)  # after the H-search it reads (imported)
kernels.warm_up("vc_graph", _warm_up)


_SCRATCH: dict[int, tuple] = {}
_NO_CELLS = {w: np.zeros(w, np.uint64) for w in range(1, 12)}  # an empty exclusion row


def _scratch(geo: Geometry) -> tuple:
    nn = geo.max_index + 2
    arrays = _SCRATCH.get(nn)
    if arrays is None:
        arrays = _SCRATCH[nn] = (np.zeros((nn, nn)), np.zeros(nn, np.int64),
                                 np.zeros(nn, np.int64), np.zeros(nn))
    return arrays


def _resistances(geo: Geometry, stones: list, limits, flows: bool = False,
                 held: Optional["Held"] = None, ply: int = 0, colour: int = 0,
                 parent: Optional[Callable[[], list]] = None, keep: bool = False
                 ) -> tuple[list, list, list, np.ndarray]:
    """Both colours' resistance, what joins their edges and their threat carrier (as
    ``hsearch.edge_state`` reads them), from one build each; and, with ``flows``, the
    current through each cell summed over both circuits (``flow[cell]``).
    With ``held`` (the position ``ply`` deep, ``colour`` to move, ``parent`` giving the
    stones one ply up): the other colour's build is read from the one kept a ply up where
    it still holds (``Held.read``), and with ``keep`` (a position whose children will be
    read) the mover's is kept for the next ply."""
    G, idx, rep, flow = _scratch(geo)
    flow[:] = 0.0
    r, edges, threats = [0.0, 0.0], [0, 0], [-1, -1]
    for c in (0, 1):
        ws, taken = None, 0
        if held is not None:
            if c == colour:
                ws, taken = held.read(geo, stones, c, limits, ply - 1, parent)
            else:
                ws = held.build(geo, stones, c, limits, ply, keep)
        if ws is None:
            ws = hsearch.run(geo, stones, c, limits)
        edges[c], threats[c] = hsearch.edge_state(ws, True, taken)
        ex = _NO_CELLS[ws.C.shape[1]] if not taken else ws.row(taken)
        r[c] = float(_kernel(ws.C, ws.I, ws.S, ws.is_group, G, idx, rep, flow, flows,
                             DIVISION, ex, bool(taken)))
    return r, edges, threats, hsearch.layout(geo).by_cell(flow) if flows else flow


def _bytes(ws) -> int:
    return ws.C.nbytes + ws.I.nbytes


class Held:
    """One build kept per ply of a search, so that a position the opponent has entered
    by one stone (or a few: its fill-in) is read from the build of the position before
    (Benzene's incremental update for the opponent's move) instead of built afresh.

    A position's mover has a stone more: its build is extended from its own build kept
    two plies up (Benzene's incremental build for one's own move), and kept at its ply
    where the position's children will read it; the other colour's build is the one
    kept a ply up, with the connections through the mover's new stones dropped.  Both
    are sound, and miss only what the soft limits had left out before.  Held by one
    searcher; positions are matched by their stones, and the kept builds start again on
    another board or other limits."""

    PLIES = 24  # kept for the first plies only (forced lines run deep)
    # and no more workspaces than this holds (with Benzene's limits one is 4 MB on 9x9,
    # 45 on 19x19)
    BYTES = 96 << 20

    def __init__(self) -> None:
        self._geo: Optional[Geometry] = None  # the board and limits of every kept build
        self._limits: Optional[Limits] = None
        self._at: dict[int, tuple] = {}  # ply -> (colour, own, opp, workspace)

    def build(self, geo: Geometry, stones: list, colour: int, limits, ply: int,
              keep: bool = True):
        """``colour``'s build of ``stones``, extended from the one kept two plies up where
        that is ``colour``'s of a position before this one (``hsearch.run_from``), and
        with ``keep`` kept at ``ply`` (below ``PLIES``, and while the workspaces fit in
        ``BYTES``)."""
        if geo is not self._geo or limits is not self._limits:
            self._geo, self._limits = geo, limits
            self._at.clear()
        target = None
        if keep:
            entry = self._at.get(ply)
            if entry is not None:
                target = entry[3]
            elif ply < self.PLIES and sum(_bytes(e[3]) for e in self._at.values()) <= self.BYTES:
                target = hsearch.Workspace(geo, limits)
        before = self._at.get(ply - 2)
        own, opp = stones[colour], stones[1 - colour]
        if (before is not None and before[0] == colour and not before[1] & ~own
                and not before[2] & ~opp and before[3] is not target):
            ws = hsearch.run_from(geo, stones, colour, limits, before[3], own & ~before[1],
                                  opp & ~before[2], target)
        else:
            ws = hsearch.run(geo, stones, colour, limits, target)
        if target is not None:
            self._at[ply] = (colour, own, opp, ws)
        return ws

    def read(self, geo: Geometry, stones: list, colour: int, limits, ply: int,
             parent: Optional[Callable[[], list]]) -> tuple:
        """(the build kept at ``ply`` and the cells the opponent has taken since, as a
        bitboard) where that build is ``colour``'s of a position with the same stones of
        ``colour`` and some of the opponent's; else the ``parent`` position's build is made
        there first; (None, 0) when that does not hold either."""
        if ply >= self.PLIES or ply < 0:
            return None, 0
        for attempt in (0, 1):
            entry = self._at.get(ply)
            if (entry is not None and geo is self._geo and limits is self._limits
                    and entry[0] == colour and entry[1] == stones[colour]
                    and not entry[2] & ~stones[1 - colour]):
                return entry[3], stones[1 - colour] & ~entry[2]
            if attempt or parent is None:
                break
            self.build(geo, parent(), colour, limits, ply)
        return None, 0


def set_band(on: bool) -> None:
    """Whether the circuit's builds join second-row cells through their edge and let an AND
    share the edge cells a second-row cell captures (``Limits.edge_band``): more of the
    connections along each edge that Wolve's build holds, for about twice a build's cost."""
    global _band, LIMITS
    _band = on
    LIMITS = _limits()


def set_bounds(name: str) -> None:
    """How many carriers the circuit's builds keep (one of ``BOUNDS``)."""
    global _bounds, LIMITS
    if name not in BOUNDS:
        raise ValueError(f"bounds must be one of {', '.join(BOUNDS)}")
    _bounds = name
    LIMITS = _limits()


def set_division(name: str) -> None:
    """Which links the cells their carriers share divide (one of ``DIVISIONS``)."""
    global DIVISION
    DIVISION = DIVISIONS.index(name)


def usable(geo: Geometry) -> bool:
    """Whether this circuit answers on ``geo`` (else ``connected`` is the board circuit's)."""
    return ready() and hsearch.usable(geo)


def connected(geo: Geometry, stones: list, colour: int, limits: Optional[Limits] = None,
              held: Optional[Held] = None, ply: int = 0,
              parent: Optional[Callable[[], list]] = None,
              keep: bool = False) -> tuple[float, int, int, int]:
    """As ``resistance.connected`` (score, what joins ``colour``'s edges, what joins the
    opponent's, the mustplay), the score from this circuit.  A search passes its ``held``
    builds, the position's ``ply``, its ``parent`` and ``keep`` (see ``_resistances``)."""
    if not usable(geo):
        return resistance.connected(geo, stones, colour, None, limits)
    empty = geo.mask & ~(stones[0] | stones[1])
    (r_b, r_w), edges, threats, _ = _resistances(geo, stones, limits or LIMITS, False,
                                                 held, ply, colour, parent, keep)
    own, opp = edges[colour], edges[1 - colour]
    must = 0 if opp == 2 else empty & threats[1 - colour]
    if own == 2 or opp == 2:
        return (resistance.CLAMP if own == 2 else -resistance.CLAMP), own, opp, must
    r_own, r_opp = (r_b, r_w) if colour == 0 else (r_w, r_b)
    return score(r_own, r_opp), own, opp, must


def score(r_own: float, r_opp: float) -> float:
    """log(R_opp / R_own), clamped; a cut colour's resistance is infinite."""
    own_cut, opp_cut = r_own >= CUT, r_opp >= CUT
    if own_cut or opp_cut:
        return 0.0 if own_cut and opp_cut else (
            -resistance.CLAMP if own_cut else resistance.CLAMP)
    if r_own <= 0.0:
        return resistance.CLAMP
    if r_opp <= 0.0:
        return -resistance.CLAMP
    return max(-resistance.CLAMP, min(resistance.CLAMP, math.log(r_opp / r_own)))


def evaluate(geo: Geometry, stones: list, colour: int) -> float:
    """The score of ``connected`` for ``colour`` to move (no fill-in: the search fills)."""
    return connected(geo, stones, colour)[0]


def build_currents(geo: Geometry, builds: list) -> np.ndarray:
    """The current through each cell (``flow[cell]``) summed over the circuits of the
    given builds (``hsearch.CompiledConnections``, e.g. the solver's own), each carrying
    a unit current between its colour's edges."""
    G, idx, rep, flow = _scratch(geo)
    flow[:] = 0.0
    for conns in builds:
        ws = conns.workspace()
        _kernel(ws.C, ws.I, ws.S, ws.is_group, G, idx, rep, flow, True, DIVISION,
                _NO_CELLS[ws.C.shape[1]], False)
    return hsearch.layout(geo).by_cell(flow).copy()


def rank_moves(geo: Geometry, stones: list, held: Optional[Held] = None, ply: int = 0,
               colour: int = 0, parent: Optional[Callable[[], list]] = None) -> list[int]:
    """The empty cells by the current through them in both colours' circuits, most first
    (Wolve's move order; cells no current reaches, such as dead ones, last).  A search
    passes its ``held`` builds and the position's ``ply``, side to move and ``parent``: the
    position's children are read from the mover's build, kept (``_resistances``)."""
    if not usable(geo):
        return resistance.rank_moves(geo, stones, 0)
    *_, flow = _resistances(geo, stones, LIMITS, True, held, ply, colour, parent,
                            held is not None)
    cells = list(geo.iter_bits(geo.mask & ~(stones[0] | stones[1])))
    cells.sort(key=lambda c: -flow[c])
    return cells
