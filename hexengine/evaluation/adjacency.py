"""Edge proximity plus adjacency bonus: the 7×7 pygame player's heuristic (seed 001),
generalised to any W×H board and both colours.

Each own stone scores how far it has advanced across the board along its own direction
(closer to the far edge scores more, as in the seed) plus a bonus for each own neighbour.
Score = own total − opponent total.
"""
from __future__ import annotations

import functools

from ..geometry import Geometry

ADJACENCY_BONUS = 1.0


@functools.lru_cache(maxsize=64)
def _tables(geo: Geometry) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Per cell, the progress value for black (by row) and for white (by column)."""
    black = [0.0] * geo.max_index
    white = [0.0] * geo.max_index
    for cell in geo.cells:
        c, r = geo.coords(cell)
        black[cell] = float(r)
        white[cell] = float(c)
    return tuple(black), tuple(white)


def _side(geo: Geometry, own: int, progress: tuple[float, ...]) -> float:
    total = 0.0
    nmask = geo.neighbour_mask
    bits = own
    while bits:
        low = bits & -bits
        cell = low.bit_length() - 1
        bits ^= low
        total += progress[cell] + ADJACENCY_BONUS * (nmask[cell] & own).bit_count()
    return total


def evaluate(geo: Geometry, stones: list, colour: int) -> float:
    """Own edge proximity + adjacency minus the opponent's."""
    tables = _tables(geo)
    own = _side(geo, stones[colour], tables[colour])
    opp = _side(geo, stones[1 - colour], tables[1 - colour])
    return own - opp
