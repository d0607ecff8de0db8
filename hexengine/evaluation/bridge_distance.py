"""Shortest-path distance that counts bridges and edge templates as free connections.

The plain distance (``shortest_path``) only sees stones that touch.  Strong Hex play leans on
virtual connections: two own stones with two empty common neighbours (a bridge) cannot be cut,
nor can a stone on the second row whose two edge neighbours are empty (the edge template).
Here both are zero-cost links, so a colour whose chain is joined by bridges already counts as
connected.  Overlapping carriers are not checked: it is an evaluation, not a proof.
"""
from __future__ import annotations

import functools

from ..geometry import Geometry
from .shortest_path import NO_PATH


def _shift(bits: int, k: int) -> int:
    return bits << k if k >= 0 else bits >> -k


@functools.lru_cache(maxsize=64)
def _bridge_specs(stride: int) -> tuple[tuple[int, int, int], ...]:
    """(offset to the bridge partner, offsets of its two carrier cells) for the six bridges."""
    s = stride
    nb = {(1, 0): 1, (-1, 0): -1, (0, 1): s, (0, -1): -s, (1, -1): 1 - s, (-1, 1): s - 1}
    specs = []
    for (dc, dr) in ((1, 1), (-1, -1), (2, -1), (-2, 1), (1, -2), (-1, 2)):
        carriers = [off for (ac, ar), off in nb.items()
                    if (dc - ac, dr - ar) in nb]
        specs.append((dc + dr * s, carriers[0], carriers[1]))
    return tuple(specs)


def _edge_template(geo: Geometry, own: int, empty: int, edge: int) -> int:
    """Own stones off ``edge`` with two empty neighbours on it (bridged to the edge)."""
    s = geo.stride
    free = edge & empty
    ones = twos = 0
    for k in (1, -1, s, -s, 1 - s, s - 1):
        x = _shift(free, -k)
        twos |= ones & x
        ones |= x
    return twos & own & ~edge


def _vc_flood(geo: Geometry, region: int, own: int, empty: int, specs) -> int:
    """Grow ``region`` through own stones that touch it or are bridged to it."""
    s = geo.stride
    s1 = s - 1
    while True:
        grown = (region | region << 1 | region >> 1 | region << s | region >> s
                 | region << s1 | region >> s1) & own
        stones = region & own
        if stones:
            for d, c1, c2 in specs:
                base = stones & _shift(empty, -c1) & _shift(empty, -c2)
                if base:
                    grown |= _shift(base, d) & own
        grown |= region
        if grown == region:
            return region
        region = grown


def distance(geo: Geometry, stones: list, colour: int) -> int:
    """Empty cells ``colour`` still needs, counting bridges and edge templates as links."""
    own = stones[colour]
    empty = geo.mask & ~(stones[0] | stones[1])
    start, goal = geo.edges[colour]
    specs = _bridge_specs(geo.stride)
    s = geo.stride
    s1 = s - 1
    passable = own | empty
    region = _vc_flood(geo, (start & own) | _edge_template(geo, own, empty, start),
                       own, empty, specs)
    goal_zone = goal | _edge_template(geo, own, empty, goal)
    dist = 0
    while not region & goal_zone:
        grown = (region | region << 1 | region >> 1 | region << s | region >> s
                 | region << s1 | region >> s1) & empty
        grown |= region | (start & empty)
        grown = _vc_flood(geo, grown, own, empty, specs) & passable
        if grown == region:
            return NO_PATH
        region = grown
        dist += 1
    return dist


def evaluate(geo: Geometry, stones: list, colour: int) -> float:
    """Opponent's bridge distance minus own."""
    return float(distance(geo, stones, 1 - colour) - distance(geo, stones, colour))
