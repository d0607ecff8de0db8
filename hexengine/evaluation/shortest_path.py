"""Shortest-path distance (the seed player's Dijkstra), computed as bitboard BFS layers.

A colour's distance is the least number of empty cells it must still fill to join its two
edges: own stones cost 0, empty cells 1, opponent stones block.  Because costs are 0 or 1 the
Dijkstra frontier is a sequence of layers; each layer is one dilation of a bitboard followed by
a flood through own stones, so a whole distance costs a few dozen big-int operations.
"""
from __future__ import annotations

from ..geometry import Geometry

NO_PATH = 1000  # the colour is cut off: its opponent has already won


def _layers(geo: Geometry, own: int, empty: int, start: int, goal: int) -> tuple[int, list[int]]:
    """Distance from ``start`` edge to ``goal`` edge, and the reached set after each layer."""
    s = geo.stride
    s1 = s - 1
    passable = own | empty
    region = geo.flood(start & own, own)
    layers = [region]
    dist = 0
    while not region & goal:
        grown = (region | region << 1 | region >> 1 | region << s | region >> s
                 | region << s1 | region >> s1) & empty
        grown |= region | (start & empty)
        # pass through own stones touching the new layer (zero cost)
        while True:
            more = (grown | grown << 1 | grown >> 1 | grown << s | grown >> s
                    | grown << s1 | grown >> s1) & own
            if not more & ~grown:
                break
            grown |= more
        grown &= passable
        if grown == region:
            return NO_PATH, layers
        region = grown
        layers.append(region)
        dist += 1
    return dist, layers


def distance(geo: Geometry, stones: list, colour: int) -> int:
    """Empty cells ``colour`` still needs to connect its edges (0 = connected)."""
    own = stones[colour]
    empty = geo.mask & ~(stones[0] | stones[1])
    start, goal = geo.edges[colour]
    return _layers(geo, own, empty, start, goal)[0]


def evaluate(geo: Geometry, stones: list, colour: int) -> float:
    """Opponent's distance minus own distance (the seed's score)."""
    return float(distance(geo, stones, 1 - colour) - distance(geo, stones, colour))


def path_cells(geo: Geometry, stones: list, colour: int) -> tuple[int, int]:
    """(distance, bitboard of empty cells lying on some shortest path of ``colour``)."""
    own = stones[colour]
    empty = geo.mask & ~(stones[0] | stones[1])
    start, goal = geo.edges[colour]
    d, fwd = _layers(geo, own, empty, start, goal)
    if d == NO_PATH or d == 0:
        return d, 0
    _, bwd = _layers(geo, own, empty, goal, start)
    cells = 0
    # an empty cell first reached at forward layer k lies on a shortest path iff it is
    # first reached at backward layer d - k + 1
    for k in range(1, d + 1):
        new_f = fwd[k] & ~fwd[k - 1] & empty
        j = d - k + 1
        if j < len(bwd):
            cells |= new_f & bwd[j] & ~bwd[j - 1]
    return d, cells
