"""A position as the value network's input: planes on the board framed by its edges.

The network always sees the side to move as the player joining the top and bottom rows:
for white to move the board is transposed (cell (col, row) at array position [col, row])
and the colours are exchanged, which Hex's rules leave invariant.  The board is framed by
one row and column on each side: the mover's edges (top and bottom frame rows) count as
the mover's stones, the opponent's edges (left and right frame columns) as the opponent's.
So one fully convolutional network serves every board size.

Planes (``PLANES`` of them, each ``(rows + 2) × (cols + 2)``):
0 the mover's stones and edges, 1 the opponent's stones and edges, 2 empty cells,
3 on the board (1 inside the frame).

Boards are stored compactly as ``cells`` arrays: one int8 per cell in row-major order of
the (untransposed) board, 0 empty, 1 black, 2 white; the training data holds those.
"""
from __future__ import annotations

import functools

import numpy as np

from ..geometry import Geometry

PLANES = 4


@functools.lru_cache(maxsize=64)
def _layout(geo: Geometry) -> tuple[np.ndarray, int]:
    """Each cell's bit index in row-major board order, and the bytes of a bitboard."""
    return np.array(geo.cells, dtype=np.int64), (geo.max_index + 7) // 8


def cells_of(geo: Geometry, stones: list) -> np.ndarray:
    """The board as one int8 per cell, row-major: 0 empty, 1 black, 2 white."""
    order, nbytes = _layout(geo)
    out = np.zeros(geo.size, dtype=np.int8)
    for colour in (0, 1):
        raw = np.frombuffer(stones[colour].to_bytes(nbytes, "little"), dtype=np.uint8)
        bits = np.unpackbits(raw, bitorder="little")
        out[bits[order] == 1] = colour + 1
    return out


def stones_of(geo: Geometry, cells: np.ndarray) -> list[int]:
    """The [black, white] bitboards of a ``cells`` board (``cells_of``'s inverse)."""
    order, _ = _layout(geo)
    stones = [0, 0]
    for i in np.nonzero(cells[:geo.size])[0]:
        stones[int(cells[i]) - 1] |= 1 << int(order[i])
    return stones


@functools.lru_cache(maxsize=64)
def frame(rows: int, cols: int) -> np.ndarray:
    """The planes of an empty ``rows × cols`` board, from the mover's (top-bottom) view."""
    base = np.zeros((PLANES, rows + 2, cols + 2), dtype=np.float32)
    base[0, 0, 1:-1] = 1.0
    base[0, -1, 1:-1] = 1.0
    base[1, 1:-1, 0] = 1.0
    base[1, 1:-1, -1] = 1.0
    base[2, 1:-1, 1:-1] = 1.0
    base[3, 1:-1, 1:-1] = 1.0
    base.flags.writeable = False
    return base


def encode_cells(cells: np.ndarray, width: int, height: int, colour: int) -> np.ndarray:
    """The planes of a ``cells`` board with ``colour`` to move (see the module's text)."""
    board = cells.reshape(height, width)
    if colour == 1:
        board = board.T
        mover, other = 2, 1
    else:
        mover, other = 1, 2
    rows, cols = board.shape
    planes = frame(rows, cols).copy()
    inner = planes[:, 1:-1, 1:-1]
    own = board == mover
    opp = board == other
    inner[0][own] = 1.0
    inner[1][opp] = 1.0
    inner[2][own | opp] = 0.0
    return planes


def encode(geo: Geometry, stones: list, colour: int) -> np.ndarray:
    """The planes of a position with ``colour`` to move."""
    return encode_cells(cells_of(geo, stones), geo.width, geo.height, colour)


def rotate(planes: np.ndarray) -> np.ndarray:
    """The same position turned 180 degrees (Hex's symmetry that keeps each side's edges)."""
    return planes[:, ::-1, ::-1]
