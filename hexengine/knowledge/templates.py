"""Bridges and edge templates on a board: the patterns behind the H-search's base connections.

A bridge joins two cells through their two common empty neighbours; an edge template joins a
cell to an edge through a fixed carrier (II, III-a, the ziggurat, and IV-a, with their mirror
images).  Both backends of the H-search (``hsearch_python``, ``hsearch``) lay them as base
connections, ``responses`` answers intrusions into them, and ``evaluation.resistance`` wires
them into its circuit.  The tables are built once per board size.
"""
from __future__ import annotations

import functools

from ..geometry import Geometry

# --- edge templates, in the frame of the top edge ------------------------------------------
# (dcol, drow) offsets from the stone, drow = row index (0 = the row touching the edge); the
# stone itself is at (0, depth - 1).  Hex neighbours in this layout: (±1,0), (0,±1), (1,-1),
# (-1,1), so a cell (c, r) touches (c, r-1) and (c+1, r-1) in the row nearer the edge.
_TEMPLATES: dict[str, tuple[int, tuple[tuple[int, int], ...]]] = {
    # name: (stone row index, carrier cells as (dcol, row)); mirror images are added below
    "II": (1, ((0, 0), (1, 0))),
    # the ziggurat: one cell beside the stone, three below, four on the edge row
    "III-a": (2, ((1, 2), (0, 1), (1, 1), (2, 1), (0, 0), (1, 0), (2, 0), (3, 0))),
    # 4th row: one cell beside the stone, then 5, 6 and 7 cells (H-search finds it on an open
    # board with wide limits: an OR of ziggurat threats)
    "IV-a": (3, ((-1, 3),) + tuple((c, 2) for c in range(-2, 3))
             + tuple((c, 1) for c in range(-2, 4)) + tuple((c, 0) for c in range(-2, 5))),
}


def _mirror_template(row: int, cells):
    """The left-right mirror image in the top-edge frame, stone fixed: a cell at offset
    (c, r) goes to (row - r - c, r)."""
    return tuple((row - r - dc, r) for dc, r in cells)


for _name, (_row, _cells) in list(_TEMPLATES.items()):
    if _name != "II":
        _TEMPLATES[_name + "'"] = (_row, _mirror_template(_row, _cells))


@functools.lru_cache(maxsize=64)
def tables(geo: Geometry):
    """Per-geometry tables: bridges (x, y, carrier) with x < y, and per edge mask the template
    instances (anchor cell, carrier of all template cells)."""
    w, h = geo.width, geo.height
    bridges = []
    for x in geo.cells:
        nx = geo.neighbour_mask[x]
        seen = set()
        for c in geo.neighbours[x]:
            for y in geo.neighbours[c]:
                if y <= x or y in seen or (nx >> y) & 1:
                    continue
                common = nx & geo.neighbour_mask[y]
                if common.bit_count() == 2:
                    seen.add(y)
                    bridges.append((x, y, common))
    # the four edges: a map (col, row) in the top frame -> board (col, row)
    frames = {
        geo.top: lambda c, r: (c, r),
        geo.bottom: lambda c, r: (w - 1 - c, h - 1 - r),
        geo.left: lambda c, r: (r, c),
        geo.right: lambda c, r: (w - 1 - r, h - 1 - c),
    }
    spans = {geo.top: w, geo.bottom: w, geo.left: h, geo.right: h}
    templates = {}
    for edge, to_board in frames.items():
        inst = []
        for name, (row, cells) in _TEMPLATES.items():
            for c0 in range(spans[edge]):
                pts = [(c0 + dc, r) for dc, r in cells]
                stone = to_board(c0, row)
                board = [to_board(c, r) for c, r in pts]
                if not all(0 <= bc < w and 0 <= br < h for bc, br in board + [stone]):
                    continue
                carrier = 0
                for bc, br in board:
                    carrier |= 1 << geo.index(bc, br)
                inst.append((geo.index(*stone), carrier))
        templates[edge] = tuple(inst)
    return tuple(bridges), templates


def bridges(geo: Geometry) -> tuple[tuple[int, int, int], ...]:
    """Every bridge on the board as (cell, cell, its two common neighbours), lower cell
    first."""
    return tables(geo)[0]


def edge_templates(geo: Geometry) -> dict[int, tuple[tuple[int, int], ...]]:
    """Per edge mask, every edge-template instance on the board as (anchor cell, carrier of
    all the template's other cells): templates II, III-a and IV-a with their mirror images."""
    return tables(geo)[1]
