"""The first move of a game, where the search has nothing to go on.

Without the swap rule the first player takes the centre: it wins on every board size that
has been solved (up to 10×10), and every strong program opens there.  With swap, the
first stone is swapped when it is strong, so the search's choice is left alone here (the
player's ``should_swap`` decides the other side of that).
"""
from __future__ import annotations

from typing import Optional

from .board import Board


def first_move(board: Board) -> Optional[int]:
    """The move to open an empty board with, or None when this module has no opinion."""
    if board.stones[0] or board.stones[1] or board.allow_swap:
        return None
    return board.geo.centre_order[0]
