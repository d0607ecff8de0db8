"""The local answer to an intrusion: the move that restores a bridge or an edge template II.

A stone played into one of the two carrier cells of the opponent's bridge (two of its
stones with two empty common neighbours), or of its template II (a stone on the second row
and the two edge cells below it), threatens to cut; the owner restores the connection by
taking the other cell.  A static evaluation of the position right after the intrusion
counts the cut as made, which flatters the intruder at every odd depth.  The search asks
``restoring_reply`` at its leaves and also scores the position after that answer.
"""
from __future__ import annotations

import functools

from ..geometry import Geometry
from . import templates


@functools.lru_cache(maxsize=64)
def _intrusions(geo: Geometry) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """Per cell m: (owner, stones, other) for each bridge and template II that m is a carrier
    cell of: when ``owner`` (−1: either colour) has every stone of the ``stones`` mask and
    ``other`` is empty, playing ``other`` restores it."""
    table: list[list[tuple[int, int, int]]] = [[] for _ in range(geo.max_index)]

    def add(owner: int, ends: int, carrier: int) -> None:  # either cell answers the other
        a = (carrier & -carrier).bit_length() - 1
        b = carrier.bit_length() - 1
        table[a].append((owner, ends, b))
        table[b].append((owner, ends, a))

    bridges, per_edge = templates.tables(geo)
    for x, y, carrier in bridges:
        add(-1, (1 << x) | (1 << y), carrier)
    for colour in (0, 1):
        for edge in geo.edges[colour]:
            for anchor, carrier in per_edge[edge]:
                if carrier.bit_count() == 2:  # template II only: the others need more
                    add(colour, 1 << anchor, carrier)
    return tuple(tuple(entries) for entries in table)


def restoring_reply(geo: Geometry, stones: list[int], colour: int, intrusion: int) -> int:
    """The cell where ``colour`` restores a bridge or template II of its own that the
    opponent's stone at ``intrusion`` broke into; −1 when it broke into none."""
    own = stones[colour]
    empty = geo.mask & ~(stones[0] | stones[1])
    for owner, ends, other in _intrusions(geo)[intrusion]:
        if (owner < 0 or owner == colour) and own & ends == ends and (empty >> other) & 1:
            return other
    return -1
