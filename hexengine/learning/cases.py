"""Proved positions as the JSON of the checking files (``tests/data/value_positions*.json``).

A case is ``{"size", "to_move": "b"|"w", "black": [cells], "white": [cells], "winner"}``
(plus any extra fields, e.g. ``proved``); boards are the int8 ``cells`` rows of the
training data (``hexengine.evaluation.planes``).
"""
from __future__ import annotations

import numpy as np

from ..board import Board


def case_of(size: int, cells: np.ndarray, mover: int, mover_wins: bool, **extra) -> dict:
    """The case of a ``size``×``size`` board's ``cells`` with ``mover`` to move."""
    board = Board(size)
    case = {"size": size, "to_move": "bw"[mover], "black": [], "white": [], **extra}
    for index, value in enumerate(cells[:size * size].tolist()):
        if value:
            row, col = divmod(index, size)
            case["black" if value == 1 else "white"].append(
                board.move_name(board.geo.index(col, row)))
    case["winner"] = "bw"[mover if mover_wins else 1 - mover]
    return case


def board_of(case: dict) -> tuple[Board, int, bool]:
    """The case's board, the colour to move and whether that colour wins."""
    board = Board(case["size"])
    for colour, key in ((0, "black"), (1, "white")):
        for name in case[key]:
            board.play(board.parse_move(name), colour)
    return board, "bw".index(case["to_move"]), case["winner"] == case["to_move"]
