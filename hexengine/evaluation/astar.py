"""The shortest-path distance by A* (seed 004's design), kept beside the layered BFS.

Same costs as ``shortest_path``: own stones 0, empty cells 1, opponent stones blocked; the
search starts from every usable cell of the start edge and stops at the goal edge.

Heuristic: a path from row r to the far edge enters every row between them (a hex step
changes the row by at most one), and entering a row that holds no own stone costs at least 1.
So h(cell) = the number of rows beyond the cell's own row with no own stone (columns for
white).  It is consistent: a step forward into row r+1 costs at least the 1 by which h may
drop, a sideways step leaves h alone, a step back raises it.  Hence the first goal cell taken
from the queue carries the optimal distance.

``scripts/bench.py`` times both: the bitboard layers are faster in Python (a few dozen big-int
operations against a heap step per cell), so the engine uses ``shortest_path``; this module is
the independent second implementation the tests hold it against.
"""
from __future__ import annotations

import functools
import heapq

from ..geometry import Geometry
from .shortest_path import NO_PATH


@functools.lru_cache(maxsize=64)
def _lines(geo: Geometry, colour: int) -> tuple[list[int], list[int]]:
    """Per cell its line (row for black, column for white), and each line's bitboard."""
    stride = geo.stride
    if colour == 0:  # black: rows, top to bottom
        line_of = [i // stride for i in range(geo.max_index)]
        masks = [sum(1 << (r * stride + c) for c in range(geo.width)) for r in range(geo.height)]
    else:  # white: columns, left to right
        line_of = [i % stride for i in range(geo.max_index)]
        masks = [sum(1 << (r * stride + c) for r in range(geo.height)) for c in range(geo.width)]
    return line_of, masks


def distance(geo: Geometry, stones: list, colour: int) -> int:
    """Empty cells ``colour`` still needs to connect its edges, by A*."""
    own = stones[colour]
    opp = stones[1 - colour]
    start, goal = geo.edges[colour]
    line_of, line_masks = _lines(geo, colour)
    lines = len(line_masks)
    # beyond[k] = lines after line k that hold no own stone
    beyond = [0] * lines
    for k in range(lines - 2, -1, -1):
        beyond[k] = beyond[k + 1] + (0 if own & line_masks[k + 1] else 1)
    best: dict[int, int] = {}
    heap: list[tuple[int, int, int]] = []
    for cell in geo.iter_bits(start & ~opp):
        g = 0 if (own >> cell) & 1 else 1
        if g < best.get(cell, NO_PATH):
            best[cell] = g
            heapq.heappush(heap, (g + beyond[line_of[cell]], g, cell))
    neighbours = geo.neighbours
    closed = set()
    while heap:
        _, g, cell = heapq.heappop(heap)
        if cell in closed:
            continue
        closed.add(cell)
        if (goal >> cell) & 1:
            return g
        for nxt in neighbours[cell]:
            if nxt in closed or (opp >> nxt) & 1:
                continue
            ng = g + (0 if (own >> nxt) & 1 else 1)
            if ng < best.get(nxt, NO_PATH):
                best[nxt] = ng
                heapq.heappush(heap, (ng + beyond[line_of[nxt]], ng, nxt))
    return NO_PATH
