"""Bridges and edge templates on a board: the patterns behind the H-search's base connections.

A bridge joins two cells through their two common empty neighbours; an edge template joins a
cell to an edge through a fixed carrier (II, III-a, the ziggurat, and IV-a, with their mirror
images).  Both backends of the H-search (``hsearch_python``, ``hsearch``) lay them as base
connections, ``responses`` answers intrusions into them, and ``evaluation.resistance`` wires
them into its circuit.  The tables are built once per board size.

*Stone templates* (``stone_templates``) join an anchor cell to its edge only where further
own stones stand in the template too.  They are not drawn by hand: our solver derives them
(``scripts/derive_templates.py``: minimal carriers that H-search's AND and OR rules do not
find by themselves) into ``data/edge-templates.json``, and ``tests/test_templates.py`` proves
each one again.  The H-search lays them as base connections under ``Limits.stone_templates``.
"""
from __future__ import annotations

import functools
import json
from pathlib import Path

from ..geometry import Geometry, geometry

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI", 7: "VII"}
STONE_TEMPLATES_FILE = Path(__file__).resolve().parent.parent / "data" / "edge-templates.json"

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


def mirror_offsets(row: int, cells):
    """The left-right mirror image in the top-edge frame, the anchor at (0, ``row``) fixed: a
    cell at offset (c, r) goes to (row - r - c, r)."""
    return tuple((row - r - dc, r) for dc, r in cells)


for _name, (_row, _cells) in list(_TEMPLATES.items()):
    if _name != "II":
        _TEMPLATES[_name + "'"] = (_row, mirror_offsets(_row, _cells))


def _frames(geo: Geometry) -> dict:
    """Per edge mask: (map from a top-frame (col, row) to the board's, the edge's length)."""
    w, h = geo.width, geo.height
    return {
        geo.top: (lambda c, r: (c, r), w),
        geo.bottom: (lambda c, r: (w - 1 - c, h - 1 - r), w),
        geo.left: (lambda c, r: (r, c), h),
        geo.right: (lambda c, r: (w - 1 - r, h - 1 - c), h),
    }


def _placements(geo: Geometry, shapes) -> dict[int, list[tuple[int, int, int]]]:
    """Per edge mask, each shape (anchor row, helper stones, carrier; offsets from the
    anchor in the top-edge frame) in turn at every column where it fits on the board, as
    (anchor cell, carrier mask, helper mask)."""
    out = {}
    for edge, (to_board, span) in _frames(geo).items():
        # the frame's (col, row) -> board index is affine: one column along the edge and
        # one row away from it each move every cell by a fixed index step
        origin = geo.index(*to_board(0, 0))
        (c1, r1), (c2, r2), (c0, r0) = to_board(1, 0), to_board(0, 1), to_board(0, 0)
        step = (c1 - c0) + (r1 - r0) * geo.stride
        down = (c2 - c0) + (r2 - r0) * geo.stride
        depth = geo.height if edge in (geo.top, geo.bottom) else geo.width
        inst = []
        for row, stones, carrier in shapes:
            cols = [dc for dc, _ in stones + carrier] + [0]
            first, last = -min(cols), span - 1 - max(cols)
            if first > last or max([r for _, r in stones + carrier] + [row]) >= depth:
                continue
            anchor = origin + first * step + row * down
            cells = sum(1 << (anchor + dc * step + (r - row) * down) for dc, r in carrier)
            helpers = sum(1 << (anchor + dc * step + (r - row) * down) for dc, r in stones)
            for k in range(last - first + 1):
                shift = k * step
                if shift >= 0:
                    inst.append((anchor + shift, cells << shift, helpers << shift))
                else:
                    inst.append((anchor + shift, cells >> -shift, helpers >> -shift))
        out[edge] = inst
    return out


@functools.lru_cache(maxsize=1)
def stone_template_shapes() -> tuple[tuple[str, int, tuple, tuple], ...]:
    """The derived templates as (name, anchor row, helper stones, carrier), offsets (dcol,
    row) in the top-edge frame from the anchor's column, mirror images included."""
    if not STONE_TEMPLATES_FILE.exists():
        return ()
    shapes = []
    for t in json.loads(STONE_TEMPLATES_FILE.read_text()):
        row = t["row"]
        stones = tuple(map(tuple, t["stones"]))
        carrier = tuple(map(tuple, t["carrier"]))
        shapes.append((t["name"], row, stones, carrier))
        mirrored = (mirror_offsets(row, stones), mirror_offsets(row, carrier))
        if (sorted(mirrored[0]), sorted(mirrored[1])) != (sorted(stones), sorted(carrier)):
            shapes.append((t["name"] + "'", row) + mirrored)
    return tuple(shapes)


@functools.lru_cache(maxsize=64)
def stone_templates(geo: Geometry) -> dict[int, tuple[tuple[int, int, int], ...]]:
    """Per edge mask, every stone-template instance on the board as (anchor cell, carrier of
    its empty cells, mask of the helper stones it needs)."""
    shapes = [(row, stones, carrier) for _, row, stones, carrier in stone_template_shapes()]
    return {edge: tuple(inst) for edge, inst in _placements(geo, shapes).items()}


@functools.lru_cache(maxsize=64)
def tables(geo: Geometry):
    """Per-geometry tables: bridges (x, y, carrier) with x < y, and per edge mask the template
    instances (anchor cell, carrier of all template cells)."""
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
    shapes = [(row, (), cells) for row, cells in _TEMPLATES.values()]
    templates = {edge: tuple((anchor, carrier) for anchor, carrier, _ in inst)
                 for edge, inst in _placements(geo, shapes).items()}
    return tuple(bridges), templates


def bridges(geo: Geometry) -> tuple[tuple[int, int, int], ...]:
    """Every bridge on the board as (cell, cell, its two common neighbours), lower cell
    first."""
    return tables(geo)[0]


def edge_templates(geo: Geometry) -> dict[int, tuple[tuple[int, int], ...]]:
    """Per edge mask, every edge-template instance on the board as (anchor cell, carrier of
    all the template's other cells): templates II, III-a and IV-a with their mirror images."""
    return tables(geo)[1]


@functools.lru_cache(maxsize=64)
def second_row(geo: Geometry) -> dict[int, tuple[tuple[int, int], ...]]:
    """Per edge mask, each cell of the row beside the edge with its two neighbours on the
    edge row (template II's carrier), by cell."""
    out = {}
    for edge in (geo.top, geo.bottom, geo.left, geo.right):
        out[edge] = tuple((c, geo.neighbour_mask[c] & edge) for c in geo.cells
                          if not edge >> c & 1
                          and (geo.neighbour_mask[c] & edge).bit_count() == 2)
    return out


def proof_board(row: int, stones, carrier) -> tuple[Geometry, list[int], int]:
    """The board on which a template (offsets from its anchor in the top-edge frame) is a
    game: the anchor on ``row`` joined to the last row by an own stone below it (or, for a
    template reaching past the anchor's row, by a column below its stone behind the
    anchor), the helper stones, and every cell outside the carrier the opponent's.  The
    template holds exactly when black wins it with white to move.  Returns the board, the
    stones (black, white) and the anchor."""
    cols = [dc for dc, _ in list(stones) + list(carrier)] + [0]
    lo = min(cols)
    deepest = max([r for _, r in list(stones) + list(carrier)] + [row])
    geo = geometry(max(cols) - lo + 1, deepest + 2)
    anchor = geo.index(-lo, row)
    below = 0  # the column of stones runs down from the anchor, or from its stone behind
    if deepest > row:
        below = next(dc for dc, r in stones if r == row + 1 and dc in (0, -1))
    black = 1 << anchor
    for r in range(row + 1 + (deepest > row), deepest + 2):
        black |= 1 << geo.index(below - lo, r)
    for dc, r in stones:
        black |= 1 << geo.index(dc - lo, r)
    empty = 0
    for dc, r in carrier:
        empty |= 1 << geo.index(dc - lo, r)
    return geo, [black, geo.mask & ~(black | empty)], anchor
