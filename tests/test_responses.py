"""The restoring answer to an intrusion into a bridge or an edge template II."""
from hexengine.board import BLACK, WHITE, Board
from hexengine.knowledge.responses import restoring_reply


def _board(moves: list[tuple[int, str]]) -> Board:
    board = Board(9)
    for colour, name in moves:
        board.play(board.parse_move(name), colour)
    return board


def test_a_bridge_broken_into_is_restored_by_its_other_cell():
    board = _board([(WHITE, "c3"), (WHITE, "d4"), (BLACK, "d3")])
    assert restoring_reply(board.geo, board.stones, WHITE, board.parse_move("d3")) \
        == board.parse_move("c4")
    # not a bridge of the intruder's opponent when one end is missing
    board = _board([(WHITE, "c3"), (BLACK, "d3")])
    assert restoring_reply(board.geo, board.stones, WHITE, board.parse_move("d3")) == -1
    # nor when the other carrier cell is taken already: the bridge is cut
    board = _board([(WHITE, "c3"), (WHITE, "d4"), (BLACK, "d3"), (BLACK, "c4")])
    assert restoring_reply(board.geo, board.stones, WHITE, board.parse_move("d3")) == -1


def test_a_template_two_is_restored_for_its_edge_colour_only():
    board = _board([(BLACK, "e2"), (WHITE, "e1")])
    assert restoring_reply(board.geo, board.stones, BLACK, board.parse_move("e1")) \
        == board.parse_move("f1")
    # a white stone on the second row is not joined to the top edge: nothing to restore
    board = _board([(WHITE, "e2"), (BLACK, "e1")])
    assert restoring_reply(board.geo, board.stones, WHITE, board.parse_move("e1")) == -1
    # white's own template II, to the left edge
    board = _board([(WHITE, "b5"), (BLACK, "a6")])
    assert restoring_reply(board.geo, board.stones, WHITE, board.parse_move("a6")) \
        == board.parse_move("a5")
