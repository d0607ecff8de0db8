"""Combinatorial decompositions: a region the owner of a virtual connection may fill.

Henderson, Arneson and Hayward ("Solving 8x8 Hex", IJCAI 2009) split the board where a
colour X has two nodes g1, g2 (groups or edges) that both touch the same two opponent nodes
h1, h2 (groups or edges; *touch* also counts a bridge whose two cells are empty, since
whoever takes one of them keeps the two touching).  The cycle g1 - h1 - g2 - h2 closes off a
region.  If X has a full connection between g1 and g2 whose carrier lies inside that
region, the opponent can do nothing there: its stones inside can reach h1 or h2 but never
join them across X's connection, and X needs nothing inside but that connection.  So X may
fill the carrier, and fill-in then finds the rest of the region dead.

A node is a group or an edge, and a group with a stone on an edge line is that edge (Benzene's
edges are the captains of the groups they touch): what touches the group touches the edge.
Counting them apart missed most of the regions Wolve fills on 11x11 game positions.

The region is found as Benzene does: the empty cells that cannot be reached from X's
other edge(s) through empty cells and X stones without passing a cell next to g1 or g2.
The carrier filled depends on X's stones, the opponent's nodes h1, h2 and empty cells only;
more opponent stones never undo it (touching stays touching), so a proof that uses the fill
needs only the carrier empty, which fill-in's proof support already records.
"""
from __future__ import annotations

import functools
import time
from typing import Callable, Optional

from ..geometry import Geometry
from . import inferior, templates, vc


@functools.lru_cache(maxsize=64)
def _second_lines(geo: Geometry) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per edge mask (top, bottom, left, right): (cell, its two neighbours on the edge line)
    for every cell one line in from that edge with two neighbours on it."""
    out = []
    for edge in (geo.top, geo.bottom, geo.left, geo.right):
        pairs = []
        for cell in geo.cells:
            if (edge >> cell) & 1:
                continue
            on = geo.neighbour_mask[cell] & edge
            if on.bit_count() == 2:
                pairs.append((cell, on))
        out.append(tuple(pairs))
    return tuple(out)


def _groups(geo: Geometry, stones: int) -> list[int]:
    out = []
    rest = stones
    while rest:
        g = geo.flood(rest & -rest, stones)
        out.append(g)
        rest &= ~g
    return out


def decomposition(geo: Geometry, stones: list[int], colour: int,
                  conns: vc.Connections) -> int:
    """A carrier ``colour`` may fill by a combinatorial decomposition (0 when none).

    ``conns`` are ``colour``'s connections in this position."""
    own, opp = stones[colour], stones[1 - colour]
    empty = geo.mask & ~(own | opp)
    if conns.edge_full() is not None:
        return 0
    edge_masks = {geo.top: 0, geo.bottom: 1, geo.left: 2, geo.right: 3}
    lines = _second_lines(geo)
    own_edges = geo.edges[colour]
    opp_edges = geo.edges[1 - colour]
    opp_groups = _groups(geo, opp)

    # every opponent node as a bit: groups 0..n-1, then its two edges; a group with a stone
    # on one of its edge lines is joined to that edge, so it is that edge's node (as in
    # Benzene, whose edges are the captains of the groups they touch)
    n = len(opp_groups)
    group_bit = {}
    for i, g in enumerate(opp_groups):
        on = [j for j, e in enumerate(opp_edges) if g & e]
        group_bit[g] = 1 << (n + on[0]) if len(on) == 1 else 1 << i

    def opp_nodes_touching(cells: int, edge: Optional[int]) -> int:
        """The opponent nodes that ``cells`` (an own group) or own ``edge`` touch."""
        found = 0
        if edge is not None:
            found |= 3 << n  # an edge touches both of the other colour's edges at the corners
            near = edge
            for cell, on in lines[edge_masks[edge]]:
                if (opp >> cell) & 1 and on & empty == on:
                    near |= 1 << cell
        else:
            near = geo.dilate(cells)
            for cell in geo.iter_bits(cells):
                for y, carrier in _bridges(geo)[cell]:
                    if (opp >> y) & 1 and carrier & empty == carrier:
                        near |= 1 << y
            for j, e in enumerate(opp_edges):
                if cells & e:
                    found |= 1 << (n + j)
                    continue
                for cell, on in lines[edge_masks[e]]:
                    if (cells >> cell) & 1 and on & empty == on:
                        found |= 1 << (n + j)
                        break
        hit = near & opp
        if hit:
            for g, bit in group_bit.items():
                if g & hit:
                    found |= bit
        return found

    nodes = []  # (node id for conns, cells, own edge mask or None, opponent nodes touched)
    own_groups = _groups(geo, own)
    for j, e in enumerate(own_edges):  # an edge with the own groups that lie on it
        on = [g for g in own_groups if g & e]
        touched = opp_nodes_touching(0, e)
        for g in on:
            touched |= opp_nodes_touching(g, None)
        nodes.append((vc.EDGE_START if j == 0 else vc.EDGE_GOAL, sum(on), e, touched))
    for g in own_groups:
        if g & (own_edges[0] | own_edges[1]):
            continue
        touched = opp_nodes_touching(g, None)
        if touched & (touched - 1):
            nodes.append(((g & -g).bit_length() - 1, g, None, touched))
    if len(nodes) <= 2:
        return 0
    passable = empty | own
    for i in range(len(nodes)):
        a_id, a_cells, a_edge, a_touch = nodes[i]
        for j in range(i):
            b_id, b_cells, b_edge, b_touch = nodes[j]
            common = a_touch & b_touch
            if not common & (common - 1):
                continue
            carriers = [c for c in conns.full(a_id, b_id) if c]
            if not carriers:
                continue
            stop = geo.dilate(a_cells | b_cells)
            for e in (a_edge, b_edge):
                if e is not None:
                    stop |= e
            reached = 0
            for e in own_edges:
                if e in (a_edge, b_edge):
                    continue
                frontier = e & passable & ~reached
                reached |= frontier
                while frontier:
                    frontier = geo.dilate(frontier & ~stop) & passable & ~reached
                    reached |= frontier
            region = empty & ~reached
            for c in carriers:
                if not c & ~region:
                    return c
    return 0


@functools.lru_cache(maxsize=64)
def _bridges(geo: Geometry) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Per cell, its bridges as (partner, the two common neighbours): ``templates.bridges`` by
    cell, both ways."""
    per: list[list[tuple[int, int]]] = [[] for _ in range(geo.max_index)]
    for x, y, common in templates.bridges(geo):
        per[x].append((y, common))
        per[y].append((x, common))
    return tuple(tuple(p) for p in per)


def fill_decompositions(geo: Geometry, stones: list[int], colours: tuple[int, ...],
                        limits: Optional[vc.Limits] = None, rounds: int = 8,
                        deadline: Optional[float] = None, edge: bool = True,
                        build: Callable[..., vc.Connections] = vc.build
                        ) -> tuple[list[int], dict[int, vc.Connections], inferior.Inferior]:
    """``stones`` (already filled in) with the carrier of every decomposition of
    ``colours`` filled, and fill-in after each one (``edge``: with edge-row cells, as in
    ``inferior.fill_in``).

    Returns the new stones; the connections of each colour in ``colours`` built on them
    (when a colour's edges are joined the work stops and only its connections are
    returned); and what was filled, the carriers counting as captured by their colour.
    ``build`` makes the connections (``vc.build``, or a ``BuildCache``'s)."""
    stones = list(stones)
    found = inferior.NOTHING_FILLED
    for _ in range(rounds):
        conns: dict[int, vc.Connections] = {}
        for c in colours:
            built = build(geo, stones, c, limits, deadline)
            if built.edge_full() is not None:
                return stones, {c: built}, found
            if deadline is not None and time.monotonic() > deadline:
                conns[c] = built  # out of time: no decomposition searched (sound: less fill)
                continue
            carrier = decomposition(geo, stones, c, built)
            if carrier:
                stones[c] |= carrier
                stones, more = inferior.fill_in(geo, stones, edge=edge)
                found = found.union(more).union(inferior.Inferior(
                    0, (carrier, 0) if c == 0 else (0, carrier), (0, 0)))
                break
            conns[c] = built
        else:
            return stones, conns, found
    return stones, {}, found
