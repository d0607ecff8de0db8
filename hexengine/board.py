"""The Hex position: bitboards, make/undo, win detection, Zobrist hash and the swap rule."""
from __future__ import annotations

import random
from typing import Iterator, Optional

from .geometry import Geometry, column_letters, geometry

BLACK = 0
WHITE = 1
COLOUR_NAMES = ("black", "white")

SWAP_PIECES = -1
SWAP_SIDES = -2
SPECIAL_MOVES = {SWAP_PIECES: "swap-pieces", SWAP_SIDES: "swap-sides"}


class IllegalMove(ValueError):
    """A move that the rules forbid in this position; the message says why."""


def opponent(colour: int) -> int:
    return 1 - colour


_ZOBRIST: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {}


def zobrist_keys(max_index: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Fixed pseudo-random 64-bit keys per (colour, cell index); the same every run."""
    keys = _ZOBRIST.get(max_index)
    if keys is None:
        rng = random.Random(0x4E58 + max_index)
        keys = tuple(tuple(rng.getrandbits(64) for _ in range(max_index)) for _ in range(2))
        if len(_ZOBRIST) >= 64:  # one table per board layout: a cap, as for geometry()
            _ZOBRIST.clear()
        _ZOBRIST[max_index] = keys  # type: ignore[assignment]
    return keys  # type: ignore[return-value]


SIDE_KEY = 0x9E3779B97F4A7C15


class Board:
    """A W×H Hex position with full history.

    ``stones[colour]`` is a bitboard.  ``play`` accepts either colour at any time (HexGui
    sets up positions that way); ``to_move`` is the colour after the last move's player.
    """

    def __init__(self, width: int = 11, height: Optional[int] = None,
                 allow_swap: bool = False) -> None:
        self.geo: Geometry = geometry(width, height if height is not None else width)
        self.allow_swap = allow_swap
        self._zobrist = zobrist_keys(self.geo.max_index)
        self.clear()

    # --- state ---------------------------------------------------------------------
    def clear(self) -> None:
        """Empty the board; black to move."""
        self.stones = [0, 0]
        self.to_move = BLACK
        self.history: list[tuple[int, int]] = []
        self.hash = 0
        self._winners: list[Optional[int]] = [None]
        self._to_move_stack: list[int] = []

    @property
    def width(self) -> int:
        return self.geo.width

    @property
    def height(self) -> int:
        return self.geo.height

    def copy(self) -> "Board":
        other = Board.__new__(Board)
        other.geo = self.geo
        other.allow_swap = self.allow_swap
        other._zobrist = self._zobrist
        other.stones = list(self.stones)
        other.to_move = self.to_move
        other.history = list(self.history)
        other.hash = self.hash
        other._winners = list(self._winners)
        other._to_move_stack = list(self._to_move_stack)
        return other

    @property
    def empty(self) -> int:
        """Bitboard of empty cells."""
        return self.geo.mask & ~(self.stones[0] | self.stones[1])

    def colour_at(self, cell: int) -> Optional[int]:
        bit = 1 << cell
        if self.stones[BLACK] & bit:
            return BLACK
        if self.stones[WHITE] & bit:
            return WHITE
        return None

    def key(self) -> int:
        """Zobrist hash of stones and side to move (the transposition-table key)."""
        return self.hash ^ (SIDE_KEY if self.to_move == WHITE else 0)

    def stone_count(self, colour: int) -> int:
        return self.stones[colour].bit_count()

    def move_number(self) -> int:
        return len(self.history)

    # --- rules ------------------------------------------------------------------------
    def winner(self) -> Optional[int]:
        """The colour that has joined its edges, or None while the game goes on."""
        return self._winners[-1]

    def connects(self, colour: int) -> bool:
        """Whether ``colour``'s stones join its two edges (full flood fill)."""
        start, goal = self.geo.edges[colour]
        return bool(self.geo.flood(start, self.stones[colour]) & goal)

    def swap_legal(self, colour: Optional[int] = None) -> bool:
        """Swap is the second move only, when allowed, by the player who did not open."""
        if not self.allow_swap or len(self.history) != 1 or self.winner() is not None:
            return False
        first_colour, first_move = self.history[0]
        if first_move < 0:
            return False
        return colour is None or colour != first_colour

    def check(self, colour: int, move: int) -> Optional[str]:
        """Why ``colour`` may not play ``move`` here, or None if the move is legal."""
        if move in SPECIAL_MOVES:
            if not self.allow_swap:
                return "swap is not allowed in this game (param_game allow_swap 1)"
            if len(self.history) != 1 or self.history[0][1] < 0:
                return "swap is only legal as the second move"
            if self.winner() is not None:
                return "game is over"
            if colour == self.history[0][0]:
                return f"{COLOUR_NAMES[colour]} opened and cannot swap"
            if move == SWAP_PIECES and self.width != self.height:
                return "swap-pieces needs a square board"
            return None
        if not (0 <= move < self.geo.max_index) or not (self.geo.mask >> move) & 1:
            return "off the board"
        if ((self.stones[0] | self.stones[1]) >> move) & 1:
            return "occupied"
        return None

    def play(self, move: int, colour: Optional[int] = None) -> None:
        """Play ``move`` for ``colour`` (default: the side to move); raises IllegalMove."""
        if colour is None:
            colour = self.to_move
        reason = self.check(colour, move)
        if reason is not None:
            raise IllegalMove(f"{COLOUR_NAMES[colour]} {self.move_name(move)} ({reason})")
        self._to_move_stack.append(self.to_move)
        if move >= 0:
            self.stones[colour] |= 1 << move
            self.hash ^= self._zobrist[colour][move]
            prev = self._winners[-1]
            if prev is None:
                group = self.geo.flood(1 << move, self.stones[colour])
                start, goal = self.geo.edges[colour]
                if group & start and group & goal:
                    prev = colour
            self._winners.append(prev)
            self.to_move = 1 - colour
        elif move == SWAP_PIECES:
            (first_colour, first), = self.history
            image = self.geo.mirror(first)
            self.stones[first_colour] &= ~(1 << first)
            self.hash ^= self._zobrist[first_colour][first]
            self.stones[1 - first_colour] |= 1 << image
            self.hash ^= self._zobrist[1 - first_colour][image]
            self._winners.append(self._full_winner())
            self.to_move = first_colour
        else:  # SWAP_SIDES: board unchanged, the swapping colour moves again
            self._winners.append(self._winners[-1])
            self.to_move = colour
        self.history.append((colour, move))

    def undo(self) -> tuple[int, int]:
        """Take back the last move; raises IndexError when there is none."""
        if not self.history:
            raise IndexError("no move to undo")
        colour, move = self.history.pop()
        self._winners.pop()
        self.to_move = self._to_move_stack.pop()
        if move >= 0:
            self.stones[colour] &= ~(1 << move)
            self.hash ^= self._zobrist[colour][move]
        elif move == SWAP_PIECES:
            first_colour, first = self.history[0]
            image = self.geo.mirror(first)
            self.stones[1 - first_colour] &= ~(1 << image)
            self.hash ^= self._zobrist[1 - first_colour][image]
            self.stones[first_colour] |= 1 << first
            self.hash ^= self._zobrist[first_colour][first]
        return colour, move

    def _full_winner(self) -> Optional[int]:
        for colour in (BLACK, WHITE):
            if self.connects(colour):
                return colour
        return None

    def legal_moves(self, colour: Optional[int] = None) -> list[int]:
        """Empty cells (in index order), plus swap moves when swap is legal now."""
        moves = list(self.geo.iter_bits(self.empty))
        if self.swap_legal(self.to_move if colour is None else colour):
            if self.width == self.height:
                moves.append(SWAP_PIECES)
            moves.append(SWAP_SIDES)
        return moves

    # --- names ------------------------------------------------------------------------
    def move_name(self, move: int) -> str:
        if move in SPECIAL_MOVES:
            return SPECIAL_MOVES[move]
        if 0 <= move < self.geo.max_index and (self.geo.mask >> move) & 1:
            return self.geo.name(move)
        return f"#{move}"

    def parse_move(self, text: str) -> int:
        """A cell name or 'swap-pieces'/'swap-sides' -> move int; ValueError otherwise."""
        low = text.strip().lower()
        for move, name in SPECIAL_MOVES.items():
            if low == name:
                return move
        return self.geo.parse(low)

    def moves_played(self) -> Iterator[tuple[int, str]]:
        for colour, move in self.history:
            yield colour, self.move_name(move)

    # --- display ------------------------------------------------------------------------
    def render(self) -> str:
        """Hex-shaped text board: rows shift right, letters above and below, numbers beside.

        Black stones are X (joining top and bottom), white stones O (left and right).
        """
        geo = self.geo
        labels = [column_letters(c) for c in range(geo.width)]
        cw = max(len(x) for x in labels)
        nw = len(str(geo.height))
        step = cw + 1
        head = " " * (nw + 2) + " ".join(f"{x:<{cw}}" for x in labels)
        lines = [head.rstrip()]
        for r in range(geo.height):
            row = []
            for c in range(geo.width):
                colour = self.colour_at(r * geo.stride + c)
                row.append(f"{'.' if colour is None else 'XO'[colour]:<{cw}}")
            pad = " " * ((r * step) // 2)
            lines.append(f"{pad}{r + 1:>{nw}} \\{' '.join(row).rstrip()}\\ {r + 1}")
        tail_pad = " " * ((geo.height * step) // 2 + nw + 2)
        lines.append((tail_pad + " ".join(f"{x:<{cw}}" for x in labels)).rstrip())
        return "\n".join(lines)
