"""Board geometry: cell indices, names, neighbour tables and edge masks, cached per size.

Cells are bit positions in a padded layout: cell (col, row) is bit ``row * stride + col``
with ``stride = width + 1``.  The extra padding column means every hex neighbour is a
plain shift (±1, ±stride, ±(stride - 1)) and shifts that leave the board land on padding
bits, which ``mask`` removes.  Moves inside the engine are these ints; names exist only at
the protocol edge.
"""
from __future__ import annotations

import functools
import re
from typing import Iterable

MAX_SIZE = 52  # columns past z use letter pairs; 52 keeps every board printable and fast

_NAME_RE = re.compile(r"^([a-zA-Z]{1,3})([0-9]{1,3})$")


def column_letters(col: int) -> str:
    """0-based column -> bijective base-26 letters: 0 -> 'a', 25 -> 'z', 26 -> 'aa'."""
    n = col + 1
    out = ""
    while n > 0:
        n, rem = divmod(n - 1, 26)
        out = chr(ord("a") + rem) + out
    return out


def column_index(letters: str) -> int:
    """Bijective base-26 letters -> 0-based column ('a' -> 0, 'aa' -> 26)."""
    n = 0
    for ch in letters.lower():
        n = n * 26 + (ord(ch) - ord("a") + 1)
    return n - 1


class Geometry:
    """Everything about a W×H board that does not depend on the stones on it."""

    def __init__(self, width: int, height: int) -> None:
        if not (1 <= width <= MAX_SIZE and 1 <= height <= MAX_SIZE):
            raise ValueError(f"board size {width}x{height} out of range 1..{MAX_SIZE}")
        self.width = width
        self.height = height
        self.stride = stride = width + 1
        self.cells: tuple[int, ...] = tuple(
            r * stride + c for r in range(height) for c in range(width)
        )
        self.size = len(self.cells)
        self.mask = sum(1 << i for i in self.cells)
        self.top = sum(1 << c for c in range(width))
        self.bottom = sum(1 << ((height - 1) * stride + c) for c in range(width))
        self.left = sum(1 << (r * stride) for r in range(height))
        self.right = sum(1 << (r * stride + width - 1) for r in range(height))
        # edges[colour] = (start edge, goal edge); black 0 joins rows, white 1 joins columns
        self.edges = ((self.top, self.bottom), (self.left, self.right))
        self.max_index = height * stride
        nbrs: list[tuple[int, ...]] = [()] * self.max_index
        nmask = [0] * self.max_index
        for i in self.cells:
            c, r = self.coords(i)
            lst = []
            for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
                cc, rr = c + dc, r + dr
                if 0 <= cc < width and 0 <= rr < height:
                    lst.append(rr * stride + cc)
            nbrs[i] = tuple(lst)
            nmask[i] = sum(1 << j for j in lst)
        self.neighbours: tuple[tuple[int, ...], ...] = tuple(nbrs)
        self.neighbour_mask: tuple[int, ...] = tuple(nmask)
        self._names = {i: self._make_name(i) for i in self.cells}

    # --- coordinates and names -------------------------------------------------------
    def coords(self, cell: int) -> tuple[int, int]:
        """Cell index -> (col, row), both 0-based."""
        return cell % self.stride, cell // self.stride

    def index(self, col: int, row: int) -> int:
        """(col, row), 0-based -> cell index; raises ValueError off the board."""
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise ValueError(f"({col}, {row}) is off the {self.width}x{self.height} board")
        return row * self.stride + col

    def _make_name(self, cell: int) -> str:
        c, r = self.coords(cell)
        return f"{column_letters(c)}{r + 1}"

    def name(self, cell: int) -> str:
        """Cell index -> 'a1'-style name."""
        return self._names[cell]

    def parse(self, text: str) -> int:
        """'c3' / 'C3' / 'aa12' -> cell index; raises ValueError for anything else."""
        m = _NAME_RE.match(text.strip())
        if not m:
            raise ValueError(f"not a cell: {text!r}")
        col = column_index(m.group(1))
        row = int(m.group(2)) - 1
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise ValueError(f"{text} is off the {self.width}x{self.height} board")
        return row * self.stride + col

    def stones(self, moves: Iterable[str] = (),
               placed: Iterable[tuple[int, str]] = ()) -> list[int]:
        """Black's and white's stones from cell names: ``moves`` played in turn from black,
        ``placed`` as (colour, name) pairs (colour 0 black).  Scripts build positions of
        game records and position files this way; raises ValueError for a bad name."""
        stones = [0, 0]
        for i, name in enumerate(moves):
            stones[i % 2] |= 1 << self.parse(name)
        for colour, name in placed:
            stones[colour] |= 1 << self.parse(name)
        return stones

    def mirror(self, cell: int) -> int:
        """Reflect across the long diagonal (col <-> row): the swap-pieces image of a cell."""
        c, r = self.coords(cell)
        return self.index(r, c)

    def rotate(self, cell: int) -> int:
        """The cell's image under the 180° rotation, which maps each colour's edges onto
        themselves (a position and its rotation have the same winner)."""
        return self.cells[-1] - cell

    def rotate_bits(self, bits: int) -> int:
        """``rotate`` of every cell in ``bits``: the bit string reversed."""
        n = self.cells[-1] + 1
        return int(format(bits, f"0{n}b")[::-1], 2) if bits else 0

    # --- move order ------------------------------------------------------------------
    @functools.cached_property
    def centre_order(self) -> tuple[int, ...]:
        """The cells by hex distance from the board's centre, ties in cell order: the move
        order of last resort for the search and the solver (central moves win more)."""
        cc, cr = (self.width - 1) / 2, (self.height - 1) / 2

        def distance(cell: int) -> float:
            c, r = self.coords(cell)
            return hex_distance(c - cc, r - cr)

        return tuple(sorted(self.cells, key=distance))

    @functools.cached_property
    def centre_rank(self) -> tuple[int, ...]:
        """Each cell's place in ``centre_order``, indexed by cell (0 on padding bits)."""
        rank = [0] * self.max_index
        for i, cell in enumerate(self.centre_order):
            rank[cell] = i
        return tuple(rank)

    # --- bitboard helpers --------------------------------------------------------------
    def dilate(self, bits: int) -> int:
        """Bits plus all their hex neighbours, clipped to the board."""
        s = self.stride
        return (
            bits | bits << 1 | bits >> 1 | bits << s | bits >> s
            | bits << (s - 1) | bits >> (s - 1)
        ) & self.mask

    def flood(self, seed: int, within: int) -> int:
        """All cells of ``within`` connected to ``seed`` (seed ∩ within) through ``within``."""
        s = self.stride
        s1 = s - 1
        region = seed & within
        while True:
            grown = (
                region | region << 1 | region >> 1 | region << s | region >> s
                | region << s1 | region >> s1
            ) & within
            if grown == region:
                return region
            region = grown

    def iter_bits(self, bits: int):
        """Yield the cell index of every set bit, lowest first."""
        while bits:
            low = bits & -bits
            yield low.bit_length() - 1
            bits ^= low


def hex_distance(dc: float, dr: float) -> float:
    """The fewest steps between two cells (col, row) that lie (``dc``, ``dr``) apart: a cell
    touches (±1, 0), (0, ±1), (+1, −1) and (−1, +1)."""
    return max(abs(dc), abs(dr), abs(dc + dr))


@functools.lru_cache(maxsize=64)
def geometry(width: int, height: int) -> Geometry:
    """The shared, cached Geometry for a board size."""
    return Geometry(width, height)
