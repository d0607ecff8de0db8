"""Random positions from a caller's seeded RNG, for tests, benchmarks and match openings.

The draws come in one fixed order, so a seed gives the same positions wherever it is used
(hex-match's random openings among them): the cells shuffled, then the stone count when
it is a range, then, stone by stone, the colours that are drawn.
"""
from __future__ import annotations

import random
from typing import Union

from .board import Board
from .geometry import Geometry, geometry


def random_position(board_size: Union[int, Geometry], rng: random.Random,
                    stones: Union[int, tuple[int, int]], *, random_colours: float = 0.0,
                    undecided: bool = True) -> Board:
    """A board (``board_size``: N for N×N, or a Geometry) with ``stones`` stones, or a
    count drawn from the inclusive range ``(lo, hi)``, on random cells.

    Colours alternate from black; ``random_colours`` is the share of stones whose colour is
    drawn instead (1: every stone's).  With ``undecided`` the whole draw is repeated until
    neither side has joined its edges; otherwise the position may be won."""
    geo = geometry(board_size, board_size) if isinstance(board_size, int) else board_size
    while True:
        board = Board(geo.width, geo.height)
        cells = list(geo.cells)
        rng.shuffle(cells)
        count = stones if isinstance(stones, int) else rng.randint(*stones)
        for i, cell in enumerate(cells[:count]):
            drawn = random_colours >= 1 or (random_colours > 0 and rng.random() < random_colours)
            board.play(cell, rng.randint(0, 1) if drawn else i % 2)
        if not undecided or board.winner() is None:
            return board
