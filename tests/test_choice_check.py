"""The solver's check of the search's choice (``hexengine.solver.check``): a move the solver
refutes is replaced by the next best, in process and over the protocol.

The position is from a 9x9 game the engine lost against Wolve: white to move wins (with b7,
among others, checked by Wolve's DFPN), and the search alone played h3, which the solver
refutes in a few dozen nodes."""
import time

from hexengine import kernels
from hexengine.board import BLACK, WHITE, Board
from hexengine.player import Player
from hexengine.settings import Settings
from hexengine.solver import Solver, knowledge_by_name
from hexengine.solver.check import check_choice, wanted

MOVES = "f3 e5 f5 f4 d5 d6 c6 c7 g4 g3 a8".split()


def _board(moves: list[str] = MOVES, size: int = 9) -> Board:
    board = Board(size)
    for move in moves:
        board.play(board.parse_move(move))
    return board


def _loses(board: Board, move: str, seconds: float = 10.0) -> bool:
    """Whether our solver proves ``move`` loses for the side to move."""
    geo = board.geo
    after = list(board.stones)
    after[board.to_move] |= 1 << geo.parse(move)
    result = Solver(knowledge_by_name()).solve(geo, after, 1 - board.to_move, seconds=seconds)
    return result.winner == 1 - board.to_move


def _check(names: list[str], seconds: float):
    """check_choice on the position, white to move, the candidates by name, ``seconds``
    to spend; the check and the cells of the names."""
    kernels.start(wait=True)
    board = _board()
    cells = [board.geo.parse(name) for name in names]
    checked = check_choice(Solver(knowledge_by_name()), board.geo, board.stones, WHITE,
                           cells, time.monotonic() + seconds)
    return checked, cells


def test_a_refuted_choice_gives_way_to_the_next():
    checked, (h3, b7) = _check(["h3", "b7"], 20)
    assert checked.move == b7 and checked.losing == 1 << h3 and checked.checked == 2
    assert not _loses(_board(), "b7")


def test_when_every_candidate_is_refuted_the_position_itself_has_the_rest():
    # h3 is refuted within a tenth of a second, the position proved won in a few seconds
    checked, (h3,) = _check(["h3"], 60)
    assert checked.won and checked.move != h3 and checked.losing & 1 << h3
    assert not _loses(_board(), _board().geo.name(checked.move))


def test_when_every_candidate_is_refuted_in_a_short_check_the_search_choice_stands():
    checked, (h3,) = _check(["h3"], 0.5)
    assert checked.move == h3 and checked.losing == 1 << h3 and not checked.won


def test_an_expired_check_plays_the_search_choice_unchecked():
    checked, (h3, _) = _check(["h3", "b7"], -1)
    assert checked.move == h3 and checked.checked == 0 and checked.losing == 0


# white to move wins here; the search's f4 takes the solver most of a second to refute, its
# sibling e6 is proved to win in a few dozen nodes (both checked by Wolve's DFPN)
SLOW = "a7 b8 c8 e5 c7 c6 b5 b7 h3 f6 g6 h4 f5".split()


def test_a_sibling_proved_to_win_is_not_left_behind_a_choice_slow_to_refute():
    kernels.start(wait=True)
    board = _board(SLOW)
    f4, e6 = board.geo.parse("f4"), board.geo.parse("e6")
    checked = check_choice(Solver(knowledge_by_name()), board.geo, board.stones, WHITE,
                           [f4, e6], time.monotonic() + 30)
    # in rounds of growing slices e6 is proved while f4 is still open: f4 not refuted yet
    assert checked.move == e6 and checked.won and checked.losing == 0
    assert not _loses(board, "e6")


def test_where_the_check_runs():
    kernels.start(wait=True)
    board = _board()
    assert wanted(board.geo, board.stones, 0.25, 8)
    assert not wanted(board.geo, board.stones, 0.25, 12)  # too few stones
    assert not wanted(board.geo, board.stones, 0.0, 8)    # no share
    six = _board("c3 d4 b2 e5 a1 f6 a6 b6".split(), 6)
    assert not wanted(six.geo, six.stones, 0.25, 8)        # the solver owns small boards


def test_genmove_over_the_protocol_does_not_play_the_refuted_move(make_engine):
    engine = make_engine("--time", "2", "--quiet")
    engine.ok("param_hexengine check_share 0.5")
    engine.ok("boardsize 9")
    for i, move in enumerate(MOVES):
        engine.ok(f"play {'bw'[i % 2]} {move}")
    move = engine.ok("genmove w", timeout=10).strip()
    assert move != "h3"
    assert not _loses(_board(), move), move
    engine.ok("showboard")  # still answering, the game state kept


# black to move (8 stones, before the root solver's 20) wins (with d5 or c6, checked by Wolve's
# DFPN), which our solver proves in under a tenth of a second; without the probe the search
# takes its three quarters of the budget first
PROBED = "g6 h2 e4 e3 g2 f4 f3 e5".split()


def test_the_probe_plays_a_win_the_solver_proves_at_once():
    kernels.start(wait=True)
    board = _board(PROBED)
    result = Player(Settings()).genmove(board, BLACK, 3.0)
    assert result.proved and result.elapsed < 1.0  # the probe's share: 0.3 s at most
    assert not _loses(board, board.geo.name(result.move))
