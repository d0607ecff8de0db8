"""Solved-position books: the winning move of positions our solver proved offline.

On small boards the first moves are where perfect play fails: at 1 s a move the solver
cannot prove a 6×6 position with 34 empty cells (the hardest opening takes it a minute), and
the search it falls back to can lose a won game there.  A book holds, for the positions of
the first plies, the move the solver proved winning, so ``genmove`` answers them at once;
from there on the solver keeps up.  MoHex keeps an opening book for the same reason.

A book is a JSON file ``data/book-WxH.json`` in this package, built by
``scripts/make_book.py`` (which records how: plies, seconds, the engine's version).  Keys
name the stones (black cells, then white cells, each sorted by name), so a position is found
however its moves were ordered; both the position and its 180° rotation are stored.  Books
are for games without swap, with the colours alternating from black.
"""
from __future__ import annotations

import functools
import json
import os
from typing import Optional

from .board import BLACK, Board
from .geometry import Geometry

DATA = os.path.join(os.path.dirname(__file__), "data")


def position_key(geo: Geometry, black: int, white: int) -> str:
    """'a3 b2|c4': the stones as a book key."""
    def names(bits: int) -> str:
        return " ".join(sorted(geo.name(c) for c in geo.iter_bits(bits)))
    return f"{names(black)}|{names(white)}"


def rotate(geo: Geometry, cell: int) -> int:
    """The cell's image under the 180° rotation, which maps each colour's edges to
    themselves (so a position and its rotation have the same winner)."""
    c, r = geo.coords(cell)
    return geo.index(geo.width - 1 - c, geo.height - 1 - r)


def rotate_bits(geo: Geometry, bits: int) -> int:
    out = 0
    for cell in geo.iter_bits(bits):
        out |= 1 << rotate(geo, cell)
    return out


@functools.lru_cache(maxsize=16)
def load(width: int, height: int) -> dict[str, str]:
    """The book for this board size (empty when there is none)."""
    path = os.path.join(DATA, f"book-{width}x{height}.json")
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        return dict(json.load(f)["moves"])


def lookup(board: Board, colour: int) -> Optional[int]:
    """The book's winning move for ``colour`` to move on ``board``, or None."""
    if board.allow_swap:
        return None
    black, white = board.stones
    if colour != (BLACK if black.bit_count() == white.bit_count() else 1 - BLACK) or \
            black.bit_count() - white.bit_count() not in (0, 1):
        return None
    book = load(board.width, board.height)
    if not book:
        return None
    name = book.get(position_key(board.geo, black, white))
    if name is None:
        return None
    move = board.geo.parse(name)
    return move if (board.empty >> move) & 1 else None
