"""Rule tests: win detection against an independent flood fill, Zobrist hashing, cell names.

The reference here shares nothing with ``hexengine``: it works on (col, row) pairs with the
hex neighbours (±1, 0), (0, ±1), (+1, −1), (−1, +1) and a plain BFS.
"""
import random
from collections import deque

import pytest

from hexengine.board import BLACK, WHITE, Board
from hexengine.geometry import column_index, column_letters, geometry

HEX_NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))


def connected(stones: set, colour: int, width: int, height: int) -> bool:
    """Independent check: do ``stones`` (a set of (col, row)) join ``colour``'s edges?

    Black joins row 0 to row height-1, white joins column 0 to column width-1."""
    if colour == BLACK:
        start = [(c, 0) for c in range(width) if (c, 0) in stones]
        def at_goal(c, r): return r == height - 1
    else:
        start = [(0, r) for r in range(height) if (0, r) in stones]
        def at_goal(c, r): return c == width - 1
    seen = set(start)
    todo = deque(start)
    while todo:
        c, r = todo.popleft()
        if at_goal(c, r):
            return True
        for dc, dr in HEX_NEIGHBOURS:
            nxt = (c + dc, r + dr)
            if nxt in stones and nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return False


def play_random_game(board: Board, rng: random.Random, out_of_turn: bool = False):
    """Fill the board at random, checking Board.winner() after every move.

    Returns the independently computed winner (the first colour to connect)."""
    width, height = board.width, board.height
    geo = board.geo
    cells = [(c, r) for r in range(height) for c in range(width)]
    rng.shuffle(cells)
    stones = (set(), set())
    first = None
    colour = BLACK
    for c, r in cells:
        if out_of_turn:
            colour = rng.randrange(2)
        board.play(geo.index(c, r), colour)
        stones[colour].add((c, r))
        if first is None and connected(stones[colour], colour, width, height):
            first = colour
        assert board.winner() == first, (
            f"{width}x{height} after {len(board.history)} moves: engine says "
            f"{board.winner()}, flood fill says {first}")
        colour = 1 - colour
    # a filled board: exactly one colour connects, and it is the one that connected first
    black = connected(stones[BLACK], BLACK, width, height)
    white = connected(stones[WHITE], WHITE, width, height)
    assert black != white, f"{width}x{height} full board: black {black}, white {white}"
    assert first == (BLACK if black else WHITE)
    assert board.connects(first) and not board.connects(1 - first)
    assert not board.empty
    return first


# thousands of games in all, fewer on the big boards so the whole file stays fast
GAMES = {1: 50, 2: 300, 3: 500, 4: 500, 5: 500, 6: 500, 7: 400, 8: 400, 9: 300, 10: 250,
         11: 200, 12: 160, 13: 120}


@pytest.mark.parametrize("size", sorted(GAMES))
def test_win_detection_square(size):
    rng = random.Random(1000 + size)
    wins = [0, 0]
    for _ in range(GAMES[size]):
        board = Board(size)
        wins[play_random_game(board, rng)] += 1
    if size > 1:
        assert wins[BLACK] and wins[WHITE], wins  # both colours do win sometimes


@pytest.mark.parametrize("width,height", [(1, 5), (5, 1), (2, 7), (5, 8), (8, 5), (3, 13),
                                          (13, 4), (9, 6)])
def test_win_detection_non_square(width, height):
    rng = random.Random(width * 100 + height)
    for _ in range(150):
        play_random_game(Board(width, height), rng)


@pytest.mark.parametrize("size", [3, 5, 8, 11])
def test_win_detection_stones_out_of_turn(size):
    """HexGui sets up positions with either colour at any time: first to connect wins."""
    rng = random.Random(77 + size)
    for _ in range(100):
        play_random_game(Board(size), rng, out_of_turn=True)


def test_win_detection_survives_undo():
    """Undoing back past the winning move clears the winner; replaying restores it."""
    rng = random.Random(5)
    for size in (4, 7, 11):
        for _ in range(30):
            board = Board(size)
            first = play_random_game(board, rng)
            history = list(board.history)
            winners = []
            replay = Board(size)
            for colour, move in history:
                replay.play(move, colour)
                winners.append(replay.winner())
            for i in range(len(history) - 1, -1, -1):
                assert board.winner() == winners[i]
                board.undo()
            assert board.winner() is None and board.stones == [0, 0] and board.hash == 0
            assert winners[-1] == first


def test_degenerate_boards():
    board = Board(1)
    board.play(board.geo.index(0, 0))
    assert board.winner() == BLACK  # one cell touches all four edges; black moved
    board = Board(1)
    board.play(board.geo.index(0, 0), WHITE)
    assert board.winner() == WHITE
    # 1 column: black needs every cell, white wins with any stone
    board = Board(1, 4)
    board.play(board.geo.index(0, 2), WHITE)
    assert board.winner() == WHITE
    # 1 row: black wins with any stone
    board = Board(4, 1)
    board.play(board.geo.index(2, 0), BLACK)
    assert board.winner() == BLACK


def test_acute_corner_is_not_adjacent():
    """(0,0) and (1,1) are not neighbours; (1,0) and (0,1) are."""
    board = Board(2)
    geo = board.geo
    board.play(geo.index(0, 0), BLACK)
    board.play(geo.index(1, 1), BLACK)
    assert board.winner() is None
    board = Board(2)
    board.play(geo.index(1, 0), BLACK)
    board.play(geo.index(0, 1), BLACK)
    assert board.winner() == BLACK


# --- Zobrist -----------------------------------------------------------------------------
@pytest.mark.parametrize("size", [2, 5, 11, 13])
def test_zobrist_undo_and_transpositions(size):
    rng = random.Random(size)
    for _ in range(40):
        board = Board(size)
        geo = board.geo
        cells = list(geo.cells)
        rng.shuffle(cells)
        n = rng.randrange(1, len(cells) + 1)
        seq = [(cell, i % 2) for i, cell in enumerate(cells[:n])]
        hashes = [board.hash]
        keys = [board.key()]
        for cell, colour in seq:
            board.play(cell, colour)
            hashes.append(board.hash)
            keys.append(board.key())
        # the same stones in another order give the same hash (and the same key when the
        # same side is to move)
        other = Board(size)
        shuffled = list(seq)
        rng.shuffle(shuffled)
        for cell, colour in shuffled:
            other.play(cell, colour)
        assert other.hash == board.hash
        assert other.stones == board.stones
        if other.to_move == board.to_move:
            assert other.key() == board.key()
        # undo walks back through exactly the same hashes
        for i in range(n, 0, -1):
            assert board.hash == hashes[i] and board.key() == keys[i]
            board.undo()
        assert board.hash == hashes[0] == 0
        assert board.key() == keys[0]


def test_zobrist_distinguishes_colour_and_side():
    board = Board(5)
    cell = board.geo.index(2, 2)
    board.play(cell, BLACK)
    black_hash = board.hash
    board.undo()
    board.play(cell, WHITE)
    assert board.hash != black_hash
    board = Board(5)
    board.play(cell, BLACK)  # white to move
    k1 = board.key()
    board.to_move = BLACK
    assert board.key() != k1


# --- cell names ----------------------------------------------------------------------------
@pytest.mark.parametrize("name,col,row", [("a1", 0, 0), ("z9", 25, 8), ("aa1", 26, 0),
                                          ("ab28", 27, 27), ("b3", 1, 2)])
def test_cell_names_round_trip(name, col, row):
    geo = geometry(28, 28)
    cell = geo.parse(name)
    assert geo.coords(cell) == (col, row)
    assert geo.name(cell) == name
    assert geo.parse(name.upper()) == cell


def test_column_letters_bijective():
    assert [column_letters(i) for i in (0, 25, 26, 27, 51, 52, 701, 702)] == \
        ["a", "z", "aa", "ab", "az", "ba", "zz", "aaa"]
    for i in range(800):
        assert column_index(column_letters(i)) == i


@pytest.mark.parametrize("width,height", [(1, 1), (5, 8), (8, 5), (28, 3), (52, 52)])
def test_every_cell_name_round_trips(width, height):
    geo = geometry(width, height)
    names = set()
    for cell in geo.cells:
        name = geo.name(cell)
        names.add(name)
        assert geo.parse(name) == cell
    assert len(names) == width * height


@pytest.mark.parametrize("text", ["", "a", "1", "a0", "1a", "f12", "l1", "a-1", "a 1",
                                  "aaaa1", "a1b", "ä1"])
def test_bad_cell_names(text):
    geo = geometry(11, 11)
    with pytest.raises(ValueError):
        geo.parse(text)
