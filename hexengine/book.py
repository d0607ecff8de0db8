"""Solved-position books: the winning move of positions our solver proved offline.

On small boards the first moves are where perfect play fails: at 1 s a move the solver
cannot prove a 6×6 position with 34 empty cells (the hardest opening takes it a minute), and
the search it falls back to can lose a won game there.  A book holds, for the positions of
the first plies, the move the solver proved winning, so ``genmove`` answers them at once;
from there on the solver keeps up.  MoHex keeps an opening book for the same reason.

A book is a gzipped JSON file ``data/book-WxH.json.gz`` in this package, built by
``scripts/make_book.py`` (which records how: plies, seconds, the engine's version).  Keys
name the stones (black cells, then white cells, each sorted by name), so a position is found
however its moves were ordered; of a position and its 180° rotation only the key that sorts
first is stored.
"""
from __future__ import annotations

import functools
import gzip
import json
import os
from typing import Optional

from .board import BLACK, WHITE, Board
from .geometry import Geometry

DATA = os.path.join(os.path.dirname(__file__), "data")


def position_key(geo: Geometry, black: int, white: int) -> str:
    """'a3 b2|c4': the stones as a book key."""
    def names(bits: int) -> str:
        return " ".join(sorted(geo.name(c) for c in geo.iter_bits(bits)))
    return f"{names(black)}|{names(white)}"


def canonical(geo: Geometry, black: int, white: int) -> tuple[str, bool]:
    """The key a book stores a position under: its own or its rotation's, whichever sorts
    first, and whether it is the rotation's (then the stored move is rotated too)."""
    key = position_key(geo, black, white)
    turned = position_key(geo, geo.rotate_bits(black), geo.rotate_bits(white))
    return (turned, True) if turned < key else (key, False)


@functools.lru_cache(maxsize=16)
def load(width: int, height: int) -> dict[str, str]:
    """The book for this board size, by canonical key (empty when there is none)."""
    path = os.path.join(DATA, f"book-{width}x{height}.json.gz")
    if not os.path.exists(path):
        return {}
    with gzip.open(path, "rt", encoding="utf-8") as f:
        return dict(json.load(f)["moves"])


def lookup(board: Board, colour: int) -> Optional[int]:
    """The book's winning move for ``colour`` to move on ``board``, or None.  The position
    and the side to move decide the winner, so the swap rule does not matter: the book has
    no empty board, and a swapped position (a lone white stone, black to move) is not in
    it."""
    black, white = board.stones
    lead = black.bit_count() - white.bit_count()  # colours alternating from black: 0 or 1
    if lead not in (0, 1) or colour != (WHITE if lead else BLACK):
        return None
    book = load(board.width, board.height)
    if not book:
        return None
    key, turned = canonical(board.geo, black, white)
    name = book.get(key)
    if name is None:
        return None
    move = board.geo.parse(name)
    if turned:
        move = board.geo.rotate(move)
    return move if (board.empty >> move) & 1 else None
