"""Two-distance (Queenbee): how far each empty cell is from an edge when the opponent always
blocks the best way on.

A cell next to the edge (or to own stones joined to it) is at distance 1; any other empty cell
is one more than the second-best of its neighbours, because the opponent can cut the best one.
Own stones are passed through at no cost; opponent stones block.  A cell's potential is the
sum of its distances to both of the colour's edges; the colour's value is its best potential,
with the number of cells reaching it as a tie-break (more ways in is better).

Computed as bitboard layers: the cells of distance k+1 are the empty cells with at least two
neighbours among the cells of distance <= k.  The "at least one / at least two neighbours"
masks are kept up to date from each new layer alone (bit-parallel over the six shifts), so a
layer costs a few dozen big-int operations.  Neighbouring own stones are counted one by one
(a group is not contracted to one node), which makes a cell touching a group on two sides a
little closer than Queenbee would say.

Both edges grow in lockstep and stop as soon as the best potential is known: a cell of
potential t has both distances below t, so once each side has t - 1 layers every such cell
is found (about 40 % fewer layers than growing both sides to the end).
"""
from __future__ import annotations

from ..geometry import Geometry

UNREACHABLE = 100  # potential of a colour that cannot reach its edges any more


def _side(s: int, own: int, empty: int, edge: int, flood) -> list[int]:
    """State after the first layer from an edge: [layer, reached, ones, twos]."""
    s1 = s - 1
    r = flood(edge & own, own)
    x1 = r << 1; x2 = r >> 1; x3 = r << s; x4 = r >> s; x5 = r << s1; x6 = r >> s1
    a = x1 | x2
    c = x3 | x4
    e = x5 | x6
    ac = a | c
    ones = ac | e
    twos = x1 & x2 | x3 & x4 | x5 & x6 | a & c | e & ac
    return [empty & (edge | ones), r, ones, twos]


def _grow(s: int, own: int, empty: int, st: list[int]) -> int:
    """Advance a side's state by one layer in place; returns the new layer (0 = done)."""
    s1 = s - 1
    new, reached, ones, twos = st
    reached |= new
    added = new
    while True:
        x1 = added << 1; x2 = added >> 1; x3 = added << s
        x4 = added >> s; x5 = added << s1; x6 = added >> s1
        # cells with >= 1 and >= 2 of the six shifted copies, counted pairwise
        a = x1 | x2
        c = x3 | x4
        e = x5 | x6
        ac = a | c
        o = ac | e
        twos |= x1 & x2 | x3 & x4 | x5 & x6 | a & c | e & ac | ones & o
        ones |= o
        extra = o & own & ~reached
        if not extra:
            break
        while True:  # the own groups touched join the layer at no cost
            grown = (extra | extra << 1 | extra >> 1 | extra << s | extra >> s
                     | extra << s1 | extra >> s1) & own & ~reached
            if grown == extra:
                break
            extra = grown
        reached |= extra
        added = extra
    new = twos & empty & ~reached
    st[0] = new
    st[1] = reached
    st[2] = ones
    st[3] = twos
    return new


def _value(geo: Geometry, stones: list, colour: int, empty: int) -> tuple[int, int]:
    """(best potential, number of empty cells with it) for ``colour``."""
    own = stones[colour]
    start, goal = geo.edges[colour]
    s = geo.stride
    flood = geo.flood
    sa = _side(s, own, empty, start, flood)
    if sa[1] & goal:
        return 0, 1
    sb = _side(s, own, empty, goal, flood)
    if not (sa[0] and sb[0]):
        return UNREACHABLE, 0
    a = [sa[0]]
    b = [sb[0]]
    la = lb = 1
    t = 2
    met = False
    while True:
        # both sides have t - 1 layers (or stopped growing): every cell of potential t is
        # known.  Until the two reached areas meet no cell has both distances < t.
        if met or (sa[0] | sa[1]) & (sb[0] | sb[1]) & empty:
            met = True
            cells = 0
            for i in range(max(1, t - lb), min(la, t - 1) + 1):
                cells |= a[i - 1] & b[t - i - 1]
            if cells:
                return t, cells.bit_count()
        grew = False
        for st, layers in ((sa, a), (sb, b)):
            if st[0] and _grow(s, own, empty, st):
                layers.append(st[0])
                grew = True
        la, lb = len(a), len(b)
        if not grew and t >= la + lb:
            return UNREACHABLE, 0
        t += 1


def evaluate(geo: Geometry, stones: list, colour: int) -> float:
    """Opponent's best potential minus own, plus a tie-break in (-0.5, 0.5) for more cells
    at the best potential."""
    empty = geo.mask & ~(stones[0] | stones[1])
    own_p, own_n = _value(geo, stones, colour, empty)
    opp_p, opp_n = _value(geo, stones, 1 - colour, empty)
    return float(opp_p - own_p) + 0.5 * (own_n - opp_n) / (own_n + opp_n + 1)


def potentials(geo: Geometry, stones: list, colour: int) -> dict[int, int]:
    """Each empty cell's two-distance potential for ``colour``: its two-distance to the start
    edge plus its two-distance to the goal edge (both sides grown to the end).  Cells that
    cannot reach both edges are left out; the smallest value is the one ``evaluate`` uses."""
    empty = geo.mask & ~(stones[0] | stones[1])
    own = stones[colour]
    s = geo.stride
    sides: list[dict[int, int]] = []
    for edge in geo.edges[colour]:
        state = _side(s, own, empty, edge, geo.flood)
        dist: dict[int, int] = {}
        layer, k = state[0], 1
        while layer:
            for cell in geo.iter_bits(layer):
                dist[cell] = k
            layer = _grow(s, own, empty, state)
            k += 1
        sides.append(dist)
    start, goal = sides
    return {cell: d + goal[cell] for cell, d in start.items() if cell in goal}
