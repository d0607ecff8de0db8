"""The first two moves of a game, where the search has nothing to go on: the opening stone
and, under the swap rule, the decision to swap it.

Both read one number per cell: the chance that a lone stone there wins for its player
(``opening_value``).  It is exact where the board's openings are solved: the table
``data/openings.json`` (``scripts/opening_table.py``: our solver on boards up to 6×6, the
published 7×7 results); elsewhere it is the value network's, averaged with the 180° turn
of the position (the network is not exactly symmetric).  Without the value network's
weights the old rule stands: a stone off the rim is swapped.

- Without swap, the opener takes the centre: it wins on every board that has been solved,
  and every strong program opens there.
- With swap, the opener picks a stone the swap cannot profit from: where the result is
  known, a losing cell, the one the network rates highest (an opponent that judges as it
  does swaps it and takes the lost side); elsewhere the cell whose value is nearest to
  even, at or below it where there is one.  The second player swaps exactly the openings
  that win for their player (or that the network rates above even).
- A white stone is judged as its transpose, a black stone with the rows and columns
  exchanged (which exchanges the colours' edges).

docs/opening.md has the measurements.
"""
from __future__ import annotations

import functools
import json
import math
import os
from typing import Optional

import numpy as np

from .board import BLACK, WHITE, Board
from .evaluation import network, planes
from .geometry import Geometry, geometry

TABLE = os.path.join(os.path.dirname(__file__), "data", "openings.json")
BATCH = 64  # positions the network reads at once
MAX_SIDE = 13  # the largest board the network was trained on


@functools.lru_cache(maxsize=1)
def _table() -> dict:
    """{size: rows of 'B'/'W', the winner of each one-stone opening}, from ``TABLE``."""
    if not os.path.exists(TABLE):
        return {}
    with open(TABLE) as handle:
        return {int(size): rows for size, rows in json.load(handle)["winners"].items()}


def solved_winner(geo: Geometry, cell: int) -> Optional[int]:
    """Who wins the opening of a lone black stone on ``cell`` (white to move), where the
    table knows it: BLACK, WHITE or None."""
    if geo.width != geo.height:
        return None
    rows = _table().get(geo.width)
    if rows is None:
        return None
    col, row = geo.coords(cell)
    return BLACK if rows[row][col] == "B" else WHITE


def network_values(geo: Geometry, cells: list[int]) -> Optional[dict[int, float]]:
    """The network's chance that a lone black stone on each of ``cells`` wins with white
    to move (the mean of white's logits of it and of its 180° turn); None without the
    network's weights."""
    net = network.network()
    if net is None:
        return None
    read = sorted(set(cells) | {geo.rotate(c) for c in cells})
    batch = np.stack([planes.encode(geo, [1 << c, 0], WHITE) for c in read])
    logits = np.concatenate([net.logits(batch[i:i + BATCH])
                             for i in range(0, len(read), BATCH)])
    white = dict(zip(read, logits.tolist()))
    return {c: 1.0 / (1.0 + math.exp((white[c] + white[geo.rotate(c)]) / 2)) for c in cells}


def opening_value(geo: Geometry, cell: int) -> Optional[float]:
    """The chance that a lone black stone on ``cell`` wins (white to move): 1 or 0 where
    solved, the network's value elsewhere; None when neither is known."""
    known = solved_winner(geo, cell)
    if known is not None:
        return 1.0 if known == BLACK else 0.0
    values = network_values(geo, [cell])
    return None if values is None else values[cell]


@functools.lru_cache(maxsize=8)
def _opening_candidates(width: int, height: int) -> Optional[tuple[tuple[int, float], ...]]:
    """(cell, value) of the cells a swap game may open on: every cell up to MAX_SIDE, the
    first row beyond it (where the network has not been trained and a full map costs
    seconds; on 11×11 and 13×13 the value nearest to even is on the first two rows)."""
    geo = geometry(width, height)
    cells = list(geo.cells)
    if max(width, height) > MAX_SIDE:
        cells = [geo.index(col, 0) for col in range(width)]
    unknown = [c for c in cells if solved_winner(geo, c) is None]
    net = network_values(geo, unknown) if unknown else {}
    if net is None:
        return None
    return tuple((c, net[c] if c in net else opening_value(geo, c)) for c in cells)


def prepare(geo: Geometry) -> None:
    """Read the opening values a swap game's first move needs, for either colour (0.1-0.5 s
    up to 13×13, ~3 s at 52×52), so that no genmove's clock pays for them."""
    _opening_candidates(geo.width, geo.height)
    if geo.width != geo.height:  # (white's opening is read on the transposed board)
        _opening_candidates(geo.height, geo.width)


def first_move(board: Board, colour: int = BLACK) -> Optional[int]:
    """The move for ``colour`` to open an empty board with, or None when this module has
    no opinion."""
    if board.stones[0] or board.stones[1]:
        return None
    geo = board.geo
    if not board.allow_swap:
        return geo.centre_order[0]
    view = geo if colour == BLACK else geometry(geo.height, geo.width)
    cell = _black_opening(view)
    return cell if cell is None else as_black(view, cell, colour)[1]  # (back, for white)


def _black_opening(geo: Geometry) -> Optional[int]:
    """The stone black opens a swap game of ``geo`` with."""
    candidates = _opening_candidates(geo.width, geo.height)
    if candidates is None:
        return None
    rank = geo.centre_rank
    losing = [c for c, _ in candidates if solved_winner(geo, c) not in (None, BLACK)]
    if losing:  # the most tempting of the lost openings, by the network
        net = network_values(geo, losing) or {c: 0.0 for c in losing}
        return max(losing, key=lambda c: (net[c], -rank[c]))
    # nearest to even, at or below it where there is one: a stone above even is one the
    # engine would swap itself; never an acute corner, lost for black on every board
    # solved (the network rates it near even on 13×13, where it saw few games)
    corners = {geo.index(0, 0), geo.index(geo.width - 1, geo.height - 1)}
    open_to = [cv for cv in candidates if cv[0] not in corners] or list(candidates)
    return min(open_to, key=lambda cv: (cv[1] > 0.5, abs(cv[1] - 0.5), rank[cv[0]]))[0]


def as_black(geo: Geometry, cell: int, colour: int) -> tuple[Geometry, int]:
    """A lone stone of ``colour`` on ``cell`` as the same position with a black stone:
    itself for black; for white, the board transposed (rows for columns), which exchanges
    the two colours' edges."""
    if colour == BLACK:
        return geo, cell
    view = geometry(geo.height, geo.width)
    col, row = geo.coords(cell)
    return view, view.index(row, col)


def should_swap(board: Board, colour: int) -> bool:
    """Whether ``colour`` swaps here: swap is legal and the opening stone is worth more to
    its player than even (an opening by white is judged as its transpose by black)."""
    if not board.swap_legal(colour):
        return False
    opener, first = board.history[0]
    geo, cell = as_black(board.geo, first, opener)
    if geo.width <= 2 or geo.height <= 2:
        if solved_winner(geo, cell) is None:
            return True  # (thin boards off the table, where one stone goes a long way)
    value = opening_value(geo, cell)
    return value > 0.5 if value is not None else off_rim(geo, cell)


def off_rim(geo: Geometry, cell: int) -> bool:
    """Whether ``cell`` is off the board's rim: the swap rule without the network (such
    openings are strong)."""
    col, row = geo.coords(cell)
    return 0 < col < geo.width - 1 and 0 < row < geo.height - 1
