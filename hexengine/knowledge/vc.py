"""Virtual connections, the front: ``build``, ``mustplay`` and ``update`` over two H-searches.

Anshelevich's H-search with bitboard carriers and edge templates has two backends that
derive exactly the same connections: the compiled kernel (``hsearch``, ~15× faster) once it
has loaded, on boards it takes, and the Python closure (``hsearch_python``, the reference)
otherwise.  What a connection is (node ids, ``Limits``, ``Connections``) lives in
``connections``, the bridge and edge-template tables in ``templates``; both backends import
those, never this front.  Callers use this module: ``vc.build``, ``vc.mustplay``,
``vc.update``, and the names re-exported here (``vc.Limits``, ``vc.EDGE_GOAL``, …).

``mustplay`` is the intersection of the opponent's edge-to-edge SC carriers, keys included
(Benzene's ``VCUtil::GetMustplay``).  Any subset of real SCs gives a sound mustplay (a move
outside one SC's carrier loses to its key), so the soft limits only make it larger.
"""
from __future__ import annotations

from typing import Optional

from ..geometry import Geometry
from . import hsearch, hsearch_python
from .connections import (DEFAULT_LIMITS, EDGE_GOAL, EDGE_START, SOLVER_LIMITS, WIDE_LIMITS,
                          Connections, Limits)

__all__ = ["DEFAULT_LIMITS", "EDGE_GOAL", "EDGE_START", "SOLVER_LIMITS", "WIDE_LIMITS",
           "Connections", "Limits", "build", "mustplay", "update"]


def build(geo: Geometry, stones, colour: int, limits: Optional[Limits] = None,
          deadline: Optional[float] = None) -> Connections:
    """H-search for ``colour``: base connections, then AND/OR to a fixed point (or the work
    cap).  Every connection reported is a real one.  Once the compiled kernel has loaded
    (``hsearch``), it builds the same connections ~15× faster and ``deadline`` is not
    needed; until then the Python closure (``hsearch_python``) builds them."""
    lim = limits or DEFAULT_LIMITS
    if hsearch.usable(geo):
        return hsearch.CompiledConnections(geo, stones, colour, lim)
    return hsearch_python.build(geo, stones, colour, lim, deadline)


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
