"""Two-distance (Queenbee): how far each empty cell is from an edge when the opponent always
blocks the best way on.

A cell next to the edge (or to own stones joined to it) is at distance 1; any other empty cell
is one more than the second-best of its neighbours, because the opponent can cut the best one.
Own stones are passed through at no cost; opponent stones block.  A cell's potential is the
sum of its distances to both of the colour's edges; the colour's value is its best potential,
with the number of cells reaching it as a tie-break (more ways in is better).

Computed as bitboard layers: the cells of distance k+1 are the empty cells with at least two
neighbours among the cells of distance <= k, counted bit-parallel over the six shifts.
Neighbouring own stones are counted one by one (a group is not contracted to one node), which
makes a cell touching a group on two sides a little closer than Queenbee would say.
"""
from __future__ import annotations

from ..geometry import Geometry

UNREACHABLE = 100  # potential of a colour that cannot reach its edges any more


def _layers(geo: Geometry, own: int, empty: int, edge: int) -> list[int]:
    """Bitboards of the empty cells at two-distance 1, 2, 3 … from ``edge``."""
    s = geo.stride
    s1 = s - 1
    mask = geo.mask
    reached = geo.flood(edge & own, own)  # own stones joined to the edge: distance 0
    near = (reached | reached << 1 | reached >> 1 | reached << s | reached >> s
            | reached << s1 | reached >> s1)
    new = empty & (edge | near)
    layers = []
    while new:
        layers.append(new)
        reached |= new
        # own stones touching the new layer join it at no cost
        reached = geo.flood(reached, reached | own)
        ones = twos = 0
        for x in (reached << 1, reached >> 1, reached << s, reached >> s,
                  reached << s1, reached >> s1):
            twos |= ones & x
            ones |= x
        new = twos & empty & ~reached & mask
    return layers


def _value(geo: Geometry, stones: list, colour: int) -> tuple[int, int]:
    """(best potential, number of empty cells with it) for ``colour``."""
    own = stones[colour]
    start, goal = geo.edges[colour]
    if geo.flood(start & own, own) & goal:
        return 0, 1
    empty = geo.mask & ~(stones[0] | stones[1])
    a = _layers(geo, own, empty, start)
    b = _layers(geo, own, empty, goal)
    for total in range(2, len(a) + len(b) + 1):
        cells = 0
        for i in range(max(1, total - len(b)), min(len(a), total - 1) + 1):
            cells |= a[i - 1] & b[total - i - 1]
        if cells:
            return total, cells.bit_count()
    return UNREACHABLE, 0


def evaluate(geo: Geometry, stones: list, colour: int) -> float:
    """Opponent's best potential minus own, plus a tie-break in (-0.5, 0.5) for more cells
    at the best potential."""
    own_p, own_n = _value(geo, stones, colour)
    opp_p, opp_n = _value(geo, stones, 1 - colour)
    return float(opp_p - own_p) + 0.5 * (own_n - opp_n) / (own_n + opp_n + 1)
