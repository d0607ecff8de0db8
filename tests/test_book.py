"""The solved-position books: every entry is a proved win, lookups find them whatever the
move order, and genmove plays them over the protocol."""
import random

import pytest

from hexengine import book
from hexengine.board import BLACK, WHITE, Board
from hexengine.geometry import geometry
from hexengine.solver import Solver, knowledge_by_name


def _board(size: int, key: str) -> Board:
    """The position a book key names, its stones played in alternation from black."""
    black, white = ([n for n in part.split(" ") if n] for part in key.split("|"))
    board = Board(size)
    for i in range(max(len(black), len(white))):
        if i < len(black):
            board.play(board.parse_move(black[i]), BLACK)
        if i < len(white):
            board.play(board.parse_move(white[i]), WHITE)
    return board


def _entries_hold(size: int, count: int, seconds: float, seed: int) -> int:
    """Checks ``count`` random entries of a book with a fresh solver: after the book's move
    the opponent to move loses.  Returns how many were checked."""
    moves = book.load(size, size)
    rng = random.Random(seed)
    keys = rng.sample(sorted(moves), min(count, len(moves)))
    solver = Solver(knowledge_by_name())
    geo = geometry(size, size)
    for key in keys:
        board = _board(size, key)
        colour = board.to_move
        move = board.parse_move(moves[key])
        assert (board.empty >> move) & 1, key
        stones = list(board.stones)
        stones[colour] |= 1 << move
        result = solver.solve(geo, stones, 1 - colour, seconds)
        assert result.winner == colour, f"{key}: {moves[key]} is not a proved win"
    return len(keys)


def _covers_every_opening(size: int) -> None:
    """Every one-stone opening has an entry, or (black won it) every reply does."""
    moves = book.load(size, size)
    geo = geometry(size, size)
    for cell in geo.cells:
        if book.canonical(geo, 1 << cell, 0)[0] not in moves:
            for reply in geo.cells:
                if reply != cell:
                    assert book.canonical(geo, 1 << cell, 1 << reply)[0] in moves


def test_the_5x5_book_covers_every_opening_and_its_moves_win():
    _covers_every_opening(5)
    assert _entries_hold(5, 150, 30.0, seed=5) == 150


def test_the_6x6_book_covers_every_opening_and_a_sample_wins():
    _covers_every_opening(6)
    # the positions with one stone are the hardest (a minute for some); a random sample
    # is mostly deeper ones
    assert _entries_hold(6, 12, 120.0, seed=6) == 12


@pytest.mark.slow
def test_every_6x6_one_stone_entry_wins():
    moves = book.load(6, 6)
    geo = geometry(6, 6)
    solver = Solver(knowledge_by_name())
    for cell in geo.cells:
        board = Board(6)
        board.play(cell, BLACK)
        move = book.lookup(board, WHITE)
        if move is not None:
            stones = [1 << cell, 1 << move]
            assert solver.solve(geo, stones, BLACK, 600).winner == WHITE, geo.name(cell)


def test_lookup_ignores_move_order_and_finds_rotations():
    moves = book.load(5, 5)
    key = next(k for k in sorted(moves) if len(k.replace("|", " ").split()) >= 3
               and book.canonical(geometry(5, 5), *_board(5, k).stones)[0] == k)
    board = _board(5, key)
    other = Board(5)  # the same stones, played in another order
    black, white = ([n for n in part.split(" ") if n] for part in key.split("|"))
    for i in reversed(range(max(len(black), len(white)))):
        if i < len(black):
            other.play(other.parse_move(black[i]), BLACK)
        if i < len(white):
            other.play(other.parse_move(white[i]), WHITE)
    colour_to_move = colour = board.to_move  # the colours alternated from black
    assert book.lookup(board, colour) == book.lookup(other, colour) \
        == board.parse_move(moves[key])
    geo = board.geo
    turned = Board(5)  # the 180° rotation: the book answers with the rotated move
    for bits, colour in ((board.stones[BLACK], BLACK), (board.stones[WHITE], WHITE)):
        for cell in geo.iter_bits(bits):
            turned.play(geo.rotate(cell), colour)
    assert book.lookup(turned, colour_to_move) == geo.rotate(board.parse_move(moves[key]))


def test_lookup_declines_what_the_book_does_not_cover():
    board = Board(5)
    board.play(board.parse_move("a1"), BLACK)
    assert book.lookup(board, WHITE) is not None
    assert book.lookup(board, BLACK) is None  # not black's turn
    assert book.lookup(Board(9), BLACK) is None  # no 9x9 book
    swap = Board(5, allow_swap=True)
    assert book.lookup(swap, BLACK) is None  # the empty board with swap


def test_genmove_plays_the_book_move_over_the_protocol(make_engine):
    geo = geometry(6, 6)
    opening = next(c for c in geo.cells
                   if book.lookup(_board(6, f"{geo.name(c)}|"), WHITE) is not None)
    expected = geo.name(book.lookup(_board(6, f"{geo.name(opening)}|"), WHITE))
    engine = make_engine("--time", "1")
    engine.ok("boardsize 6")
    engine.ok(f"play b {geo.name(opening)}")
    assert engine.ok("genmove w") == expected
    engine.ok("undo")
    engine.ok("param_hexengine knowledge 0")  # the plain search has no book
    assert engine.ok("genmove w") in {geo.name(c) for c in geo.cells if c != opening}
