"""Centre control plus progress toward the goal edges: the quick reference's template
(seed 003).

Each own stone scores 2 / (1 + 0.1 · Manhattan distance from the centre) plus 2 × its
progress (0..1) along its own direction.  Score = own total − opponent total.
"""
from __future__ import annotations

import functools

from ..geometry import Geometry


@functools.lru_cache(maxsize=64)
def _tables(geo: Geometry) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Per cell, the stone value for black and for white."""
    cc, cr = (geo.width - 1) / 2, (geo.height - 1) / 2
    black = [0.0] * geo.max_index
    white = [0.0] * geo.max_index
    for cell in geo.cells:
        c, r = geo.coords(cell)
        centre = 2.0 / (1.0 + 0.1 * (abs(c - cc) + abs(r - cr)))
        black[cell] = centre + 2.0 * (r / (geo.height - 1) if geo.height > 1 else 0.0)
        white[cell] = centre + 2.0 * (c / (geo.width - 1) if geo.width > 1 else 0.0)
    return tuple(black), tuple(white)


def _total(bits: int, table: tuple[float, ...]) -> float:
    total = 0.0
    while bits:
        low = bits & -bits
        total += table[low.bit_length() - 1]
        bits ^= low
    return total


def evaluate(geo: Geometry, stones: list, colour: int) -> float:
    """Own centre + progress value minus the opponent's."""
    tables = _tables(geo)
    return _total(stones[colour], tables[colour]) - _total(stones[1 - colour], tables[1 - colour])
