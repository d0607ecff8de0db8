"""Electrical resistance (Anshelevich; Six, Wolve): a colour's board as a circuit.

Cells are nodes; between neighbouring cells the conductance is 1 for two empty cells, 2 when
one holds an own stone, and very large between two own stones (a group is one node, in
effect); opponent stones conduct nothing.  Each edge is a terminal joined to its row of cells
the same way.  With unit voltage across the terminals the current I gives R = 1 / I; the score
is log(R_opponent / R_own), so many parallel, short ways to connect make a low resistance.
The linear system is solved with numpy (a dense solve is fastest at these sizes).
"""
from __future__ import annotations

import functools
import math

import numpy as np

from ..geometry import Geometry

STONE_LINK = 50.0  # own–own conductance: groups act as single nodes
CLAMP = 12.0  # |score| never exceeds this (a cut-off colour has infinite resistance)


@functools.lru_cache(maxsize=64)
def _tables(geo: Geometry):
    """Index arrays for one board size: neighbour pairs and edge rows, in cell order."""
    pos = {cell: i for i, cell in enumerate(geo.cells)}
    pairs = [(pos[a], pos[b]) for a in geo.cells for b in geo.neighbours[a] if a < b]
    ia = np.array([p[0] for p in pairs], dtype=np.intp)
    ib = np.array([p[1] for p in pairs], dtype=np.intp)
    cells = np.array(geo.cells, dtype=np.intp)
    edges = []
    for colour in (0, 1):
        start, goal = geo.edges[colour]
        edges.append((np.array([(start >> c) & 1 for c in geo.cells], dtype=float),
                      np.array([(goal >> c) & 1 for c in geo.cells], dtype=float)))
    nbytes = (geo.max_index + 7) // 8
    return ia, ib, cells, edges, nbytes


def _bits(value: int, nbytes: int, cells: np.ndarray) -> np.ndarray:
    raw = np.frombuffer(value.to_bytes(nbytes, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[cells].astype(float)


def resistance(geo: Geometry, stones: list, colour: int) -> float:
    """Resistance between ``colour``'s two edges (inf when it is cut off)."""
    ia, ib, cells, edges, nbytes = _tables(geo)
    own = _bits(stones[colour], nbytes, cells)
    opp = _bits(stones[1 - colour], nbytes, cells)
    open_ = 1.0 - opp
    n = len(cells)
    # per-node weight: 1 empty, 2 own, 0 opponent; a pair conducts the larger of the two,
    # and two own stones conduct STONE_LINK
    w = open_ * (1.0 + own)
    g = np.maximum(w[ia], w[ib]) * open_[ia] * open_[ib]
    g = np.where(own[ia] * own[ib] > 0, STONE_LINK, g)
    start, goal = edges[colour]
    g_src = start * w
    g_snk = goal * w
    lap = np.zeros((n, n))
    lap[ia, ib] = -g
    lap[ib, ia] = -g
    diag = -lap.sum(axis=1) + g_src + g_snk + 1e-9
    lap[np.arange(n), np.arange(n)] = diag
    try:
        v = np.linalg.solve(lap, g_src)
    except np.linalg.LinAlgError:
        return math.inf
    current = float(np.dot(g_src, 1.0 - v))
    return 1.0 / current if current > 1e-12 else math.inf


def evaluate(geo: Geometry, stones: list, colour: int) -> float:
    """log(R_opponent / R_own), clamped to ±CLAMP."""
    r_own = resistance(geo, stones, colour)
    r_opp = resistance(geo, stones, 1 - colour)
    if math.isinf(r_own) and math.isinf(r_opp):
        return 0.0
    if math.isinf(r_own):
        return -CLAMP
    if math.isinf(r_opp):
        return CLAMP
    return max(-CLAMP, min(CLAMP, math.log(r_opp / r_own)))
