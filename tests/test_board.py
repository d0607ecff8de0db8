"""Board unit tests: make/undo, the swap rule, legality messages, copies and rendering."""
import random

import pytest

from hexengine.board import BLACK, SWAP_PIECES, SWAP_SIDES, WHITE, Board, IllegalMove


def snapshot(board: Board):
    return (list(board.stones), board.to_move, list(board.history), board.hash, board.key(),
            board.winner(), board.render())


def cell(board: Board, name: str) -> int:
    return board.parse_move(name)


def test_new_board_black_to_move():
    board = Board(7)
    assert board.to_move == BLACK and board.history == [] and board.winner() is None
    assert board.empty == board.geo.mask and board.move_number() == 0


def test_boards_of_one_size_share_one_geometry():
    # every table cached per geometry (templates, the H-search's, the fill-in's) is made
    # once per board size, not once per game
    assert Board(9).geo is Board(9).geo
    assert Board(9).geo is not Board(11).geo
    assert Board(9, 7).geo is Board(9, 7).geo


def test_play_alternates_and_accepts_out_of_turn():
    board = Board(5)
    board.play(cell(board, "c3"))
    assert board.colour_at(cell(board, "c3")) == BLACK and board.to_move == WHITE
    board.play(cell(board, "a1"), BLACK)  # black again, out of turn
    assert board.colour_at(cell(board, "a1")) == BLACK and board.to_move == WHITE
    board.play(cell(board, "e5"), WHITE)
    board.play(cell(board, "e4"), WHITE)
    assert board.to_move == BLACK
    assert board.stone_count(BLACK) == 2 and board.stone_count(WHITE) == 2


def test_make_undo_restores_everything():
    rng = random.Random(3)
    board = Board(6, 4)
    snaps = [snapshot(board)]
    cells = list(board.geo.cells)
    rng.shuffle(cells)
    for c in cells:
        board.play(c, rng.randrange(2))
        snaps.append(snapshot(board))
    for i in range(len(cells), 0, -1):
        assert snapshot(board) == snaps[i]
        board.undo()
    assert snapshot(board) == snaps[0]
    with pytest.raises(IndexError):
        board.undo()


@pytest.mark.parametrize("name,reason", [("c3", "occupied")])
def test_occupied(name, reason):
    board = Board(5)
    board.play(cell(board, "c3"))
    before = snapshot(board)
    with pytest.raises(IllegalMove, match=reason):
        board.play(cell(board, name), WHITE)
    assert snapshot(board) == before


def test_off_board_and_malformed():
    board = Board(5, 3)
    for text in ("f1", "a4", "a0", "zz1", "", "c", "3", "swap"):
        with pytest.raises(ValueError):
            board.parse_move(text)
    with pytest.raises(IllegalMove, match="off the board"):
        board.play(board.geo.max_index + 5)
    with pytest.raises(IllegalMove, match="off the board"):
        board.play(5)  # a padding bit (col 5 of row 0 with stride 6)
    assert board.history == []


# --- swap -----------------------------------------------------------------------------
def test_swap_pieces_mirrors_and_black_moves():
    board = Board(7, allow_swap=True)
    board.play(cell(board, "c4"))  # col 2, row 3
    assert SWAP_PIECES in board.legal_moves() and SWAP_SIDES in board.legal_moves()
    before = snapshot(board)
    board.play(SWAP_PIECES, WHITE)
    assert board.colour_at(cell(board, "c4")) is None
    assert board.colour_at(cell(board, "d3")) == WHITE  # col 3, row 2
    assert board.stone_count(BLACK) == 0 and board.stone_count(WHITE) == 1
    assert board.to_move == BLACK
    assert board.history[-1] == (WHITE, SWAP_PIECES)
    # same hash as a white stone simply placed on d3
    plain = Board(7)
    plain.play(cell(plain, "d3"), WHITE)
    assert board.hash == plain.hash
    board.undo()
    assert snapshot(board) == before


def test_swap_sides_keeps_board_and_swapper_moves_again():
    board = Board(7, allow_swap=True)
    board.play(cell(board, "c4"))
    before = snapshot(board)
    board.play(SWAP_SIDES, WHITE)
    assert board.colour_at(cell(board, "c4")) == BLACK
    assert board.stones == before[0] and board.hash == before[3]
    assert board.to_move == WHITE
    board.undo()
    assert snapshot(board) == before


def test_swap_on_diagonal_and_after_swap_play_continues():
    board = Board(5, allow_swap=True)
    board.play(cell(board, "c3"))
    board.play(SWAP_PIECES)
    assert board.colour_at(cell(board, "c3")) == WHITE and board.to_move == BLACK
    board.play(cell(board, "b2"))
    assert board.to_move == WHITE
    assert SWAP_PIECES not in board.legal_moves()
    board.undo()
    board.undo()
    assert board.colour_at(cell(board, "c3")) == BLACK and board.to_move == WHITE


@pytest.mark.parametrize("setup,colour,move,reason", [
    ([], WHITE, SWAP_PIECES, "swap"),                       # first move
    (["c3"], WHITE, SWAP_PIECES, "not allowed"),            # not allowed
    (["c3", "d4"], BLACK, SWAP_PIECES, "second move"),      # third move
    (["c3", "d4"], BLACK, SWAP_SIDES, "second move"),
    (["c3"], BLACK, SWAP_PIECES, "opened"),                 # by the opener
])
def test_swap_rejected(setup, colour, move, reason):
    board = Board(5, allow_swap=reason != "not allowed")
    for name in setup:
        board.play(cell(board, name))
    before = snapshot(board)
    with pytest.raises(IllegalMove, match=reason):
        board.play(move, colour)
    assert snapshot(board) == before
    assert SWAP_PIECES not in board.legal_moves(colour)


def test_swap_twice_rejected():
    board = Board(5, allow_swap=True)
    board.play(cell(board, "c3"))
    board.play(SWAP_SIDES)
    with pytest.raises(IllegalMove):
        board.play(SWAP_PIECES, BLACK)
    with pytest.raises(IllegalMove):
        board.play(SWAP_SIDES, BLACK)


def test_swap_pieces_non_square():
    board = Board(5, 7, allow_swap=True)
    board.play(cell(board, "b2"))
    assert SWAP_PIECES not in board.legal_moves() and SWAP_SIDES in board.legal_moves()
    with pytest.raises(IllegalMove, match="square"):
        board.play(SWAP_PIECES, WHITE)
    board.play(SWAP_SIDES, WHITE)
    assert board.to_move == WHITE


def test_copy_is_independent():
    board = Board(5, allow_swap=True)
    board.play(cell(board, "c3"))
    twin = board.copy()
    twin.play(SWAP_PIECES)
    twin.play(cell(twin, "a1"))
    assert board.history == [(BLACK, cell(board, "c3"))]
    assert board.colour_at(cell(board, "c3")) == BLACK and board.to_move == WHITE
    twin.undo()
    twin.undo()
    assert snapshot(twin) == snapshot(board)


def test_move_names():
    board = Board(28, 3)
    assert board.move_name(cell(board, "AB3")) == "ab3"
    assert board.move_name(SWAP_PIECES) == "swap-pieces"
    assert board.parse_move(" Swap-Sides ") == SWAP_SIDES


def test_geometry_stones_match_the_board():
    board = Board(9)
    moves = ["e5", "d6", "c7", "b9"]
    for name in moves:
        board.play(cell(board, name))
    assert board.geo.stones(moves) == list(board.stones)
    placed = [(WHITE, "d6"), (BLACK, "e5"), (WHITE, "b9"), (BLACK, "c7")]
    assert board.geo.stones(placed=placed) == list(board.stones)
    with pytest.raises(ValueError):
        board.geo.stones(["e5", "j1"])


def test_render_shape():
    board = Board(28, 3)
    board.play(cell(board, "aa3"))
    board.play(cell(board, "ab1"))
    text = board.render()
    lines = text.split("\n")
    assert len(lines) == 3 + 2
    assert lines[0].split() == lines[-1].split()
    assert lines[0].split()[26:] == ["aa", "ab"]
    rows = [line.split("\\")[1].split() for line in lines[1:-1]]
    assert rows[0][27] == "O" and rows[2][26] == "X"
    assert all(len(r) == 28 for r in rows)
    # each row is indented further than the one above (the hex shape)
    indents = [len(line) - len(line.lstrip()) for line in lines[1:-1]]
    assert indents == sorted(indents) and indents[0] < indents[-1]
