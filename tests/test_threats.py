"""EdgeThreats: the root's edge-to-edge carriers kept sound down a line of play."""
from hexengine.board import BLACK, WHITE, Board
from hexengine.knowledge.threats import LOST, OPEN, WIN_NOW, EdgeThreats


def bits(board: Board, *names: str) -> int:
    out = 0
    for name in names:
        out |= 1 << board.parse_move(name)
    return out


def test_full_connection_wins_for_its_owner_until_the_opponent_enters_it():
    board = Board(5)
    carrier = bits(board, "c1", "c2", "c3", "c4", "c5")
    threats = EdgeThreats(([carrier], []), ([], []))
    empty = board.empty
    assert threats.status(board.stones, BLACK, empty) == (WIN_NOW, empty)
    assert threats.status(board.stones, WHITE, empty) == (LOST, 0)
    board.play(board.parse_move("c3"), WHITE)  # white enters the carrier: no longer known
    assert threats.status(board.stones, WHITE, board.empty) == (OPEN, board.empty)
    assert threats.status(board.stones, BLACK, board.empty) == (OPEN, board.empty)


def test_own_stones_in_a_carrier_keep_it():
    board = Board(5)
    carrier = bits(board, "c1", "c2", "c3", "c4", "c5")
    threats = EdgeThreats(([carrier], []), ([], []))
    board.play(board.parse_move("c2"), BLACK)
    assert threats.status(board.stones, WHITE, board.empty)[0] == LOST


def test_semis_make_the_mustplay_and_a_played_key_a_full_connection():
    board = Board(5)
    first = bits(board, "c2", "c3", "b3")
    second = bits(board, "c3", "c4", "d2")
    threats = EdgeThreats(([], []), ([(bits(board, "c3"), first),
                                      (bits(board, "c4"), second)], []))
    verdict, must = threats.status(board.stones, WHITE, board.empty)
    assert verdict == OPEN and must == bits(board, "c3")
    assert threats.status(board.stones, BLACK, board.empty)[0] == WIN_NOW
    board.play(board.parse_move("c3"), WHITE)  # the one cell in both carriers kills both
    assert threats.status(board.stones, BLACK, board.empty) == (OPEN, board.empty)
    board.undo()
    board.play(board.parse_move("c4"), BLACK)  # black played the second key: connected
    assert threats.status(board.stones, WHITE, board.empty) == (LOST, 0)


def test_disjoint_semis_leave_no_defence():
    board = Board(5)
    threats = EdgeThreats(([], []), ([], [(bits(board, "b2"), bits(board, "b2", "a2")),
                                           (bits(board, "d4"), bits(board, "d4", "e4"))]))
    assert threats.status(board.stones, BLACK, board.empty) == (LOST, 0)
