"""Corner pockets: the acute corner behind a third-row stone, filled for both colours.

An X stone S on the third row from X's edge, one cell from an acute corner, with the
eight cells between it, the corner and the fourth edge cell empty (the top edge and the
corner a1 drawn, X black)::

    a1 b1 c1 d1          X  X  X  .
      a2 b2 c2             Y  k  .
        a3 b3                Y  S

a1, b1 and c1 are filled with X and a2, a3 with Y; k (b2), c2 and d1 stay empty.  What
is left is one decision at k: X there joins S to X's edge, Y there joins c2 to Y's edge.
Benzene's fill-in fills such pockets too (its ``compute-fillin`` after a3 d5 on 6x6: f4
f5 f6 white, d6 e6 black, e5 left).  We have no proof of our own that the filling never
changes the winner; it is checked by solving, with and without it, positions that hold
the pattern with the rest of the board at random (tests/test_corners.py; while it was
written 1,350 positions on 4x4 to 7x7, none changed).  Without c2 and d1 empty it is not
sound: the solver then proves two 6x6 openings for the wrong side.

Only the solver fills them (``solver.knowledge.VCKnowledge``, after fill-in); a
proof that counts on them holds the cells around them (its fill-in closure), so the
pattern's empty cells stay empty wherever the proof is used.
"""
from __future__ import annotations

import functools
from typing import NamedTuple

from ..geometry import Geometry, geometry

BLACK = 0
WHITE = 1


class CornerPattern(NamedTuple):
    """One placement (bitboards): with ``colour``'s stone on ``stone`` and ``empty``
    empty, ``own`` is filled with ``colour`` and ``other`` with the opponent."""
    colour: int
    stone: int
    empty: int
    own: int
    other: int


@functools.lru_cache(maxsize=64)
def corner_patterns(width: int, height: int) -> tuple[CornerPattern, ...]:
    """The pattern at each acute corner of each colour's edges.  Built in the edge's own
    frame: x along the edge towards the corner (the corner at x = L - 1), y away from it;
    a cell's neighbours there are (x, y +- 1), (x +- 1, y), (x - 1, y - 1), (x + 1, y + 1)."""
    geo = geometry(width, height)
    w, h = width, height
    frames = (
        (WHITE, h, lambda x, y: (w - 1 - y, x)),   # the right edge, corner bottom right
        (WHITE, h, lambda x, y: (y, h - 1 - x)),   # the left edge, corner a1
        (BLACK, w, lambda x, y: (x, h - 1 - y)),   # the bottom edge, corner bottom right
        (BLACK, w, lambda x, y: (w - 1 - x, y)),   # the top edge, corner a1
    )
    if min(w, h) < 4:
        return ()
    out = []
    for colour, length, place in frames:
        last = length - 1

        def bits(*cells: tuple[int, int]) -> int:
            return sum(1 << geo.index(*place(x, y)) for x, y in cells)

        own = bits((last - 2, 0), (last - 1, 0), (last, 0))
        other = bits((last, 1), (last, 2))
        empty = own | other | bits((last - 1, 1), (last - 2, 1), (last - 3, 0))
        out.append(CornerPattern(colour, bits((last - 1, 2)), empty, own, other))
    return tuple(out)


def corner_pockets(geo: Geometry, stones: list[int]) -> tuple[list[int], tuple[int, int]]:
    """``stones`` with every matching corner pocket filled (new list) and the cells filled
    black, white."""
    black, white = stones
    filled = [0, 0]
    for pat in corner_patterns(geo.width, geo.height):
        mine = black if pat.colour == BLACK else white
        if mine & pat.stone and not (black | white) & pat.empty:
            filled[pat.colour] |= pat.own
            filled[1 - pat.colour] |= pat.other
            black, white = stones[BLACK] | filled[BLACK], stones[WHITE] | filled[WHITE]
    return [black, white], (filled[BLACK], filled[WHITE])
