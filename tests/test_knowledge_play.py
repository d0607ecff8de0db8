"""The search with knowledge on small boards whose every answer an exhaustive solver knows:
it keeps won positions won, and its root analysis never throws a winning move away."""
import random
import time

import pytest

from hexengine.board import Board
from hexengine.knowledge.analysis import analyse_root
from hexengine.knowledge.threats import LOST, WIN_NOW
from hexengine.positions import random_position
from hexengine.search import WIN_THRESHOLD, Searcher
from tests.test_inferior import Solver


def won_positions(size: int, count: int, seed: int, stones: tuple[int, int]):
    """Random undecided positions the side to move wins, with their winning moves, chosen
    so that at most a third of the empty cells win (a careless move loses)."""
    rng = random.Random(seed)
    board = Board(size)
    solver = Solver(board.geo)
    found = 0
    while found < count:
        board = random_position(size, rng, stones)
        mover = board.to_move
        winning = []
        for cell in board.geo.iter_bits(board.empty):
            after = list(board.stones)
            after[mover] |= 1 << cell
            if solver.winner(after, 1 - mover) == mover:
                winning.append(cell)
        if winning and len(winning) * 3 <= board.empty.bit_count():
            found += 1
            yield board, set(winning), solver


@pytest.mark.parametrize("size,seed,stones,count", [(4, 1, (4, 9), 40), (5, 2, (11, 14), 25)])
def test_root_analysis_keeps_a_winning_move_and_its_verdicts_are_true(size, seed, stones,
                                                                     count):
    verdicts = 0
    for board, winning, solver in won_positions(size, count, seed, stones):
        info = analyse_root(board.geo, board.stones, board.to_move)
        assert info.verdict != LOST
        if not info.decided:
            assert {c for c in board.geo.iter_bits(info.moves)} & winning, board.render()
        if info.verdict == WIN_NOW:  # a connection or a semi's key: every root move wins
            assert set(board.geo.iter_bits(info.moves)) <= winning, board.render()
            verdicts += 1
    assert verdicts  # the positions include connections the board does not show yet


@pytest.mark.parametrize("size,seed", [(5, 3)])
def test_genmove_wins_won_positions_and_plays_them_out(size, seed):
    """Against every reply the solver judges, the engine's moves keep the position won to
    the end of the game."""
    for board, winning, solver in won_positions(size, 6, seed, (11, 13)):
        us = board.to_move
        searcher = Searcher("resistance", knowledge=True)
        while board.winner() is None:
            if board.to_move == us:
                result = searcher.search(board, us, deadline=time.monotonic() + 0.3)
                board.play(result.move, us)
                if board.winner() is None:
                    assert solver.winner(board.stones, 1 - us) == us, board.render()
            else:  # the opponent tries its most stubborn move: any legal one that the
                # solver cannot refute quickly is as good; take the first by index
                board.play(next(board.geo.iter_bits(board.empty)), 1 - us)
        assert board.winner() == us


def test_search_sees_a_connection_the_board_does_not_show():
    """Black c2 and c4 on 5x5 with both bridges and both edge templates free: black is
    connected whatever white does, so white to move is lost (found by knowledge at once)."""
    board = Board(5)
    for name in ("c2", "b4"):
        board.play(board.parse_move(name), 0)
    board.play(board.parse_move("e5"), 1)
    info = analyse_root(board.geo, board.stones, 1)
    assert info.verdict == LOST
    result = Searcher("resistance", knowledge=True).search(board, 1,
                                                           deadline=time.monotonic() + 1)
    assert result.score <= -WIN_THRESHOLD


def test_solver_from_sets_when_genmove_first_asks_the_solver():
    """On 9x9 ``genmove`` gives the solver a share of its budget from ``solver_from``
    stones on: eight stones are enough at the default (8), not at 9."""
    from hexengine.player import Player, Settings
    board = Board(9)
    for move in ("e5", "d6", "c7", "f4", "g3", "b8", "h2", "a9"):
        board.play(board.parse_move(move))
    calls = {}
    for start in (8, 9):
        # (the check of the search's choice would call the solver too)
        settings = Settings(check_share=0).with_text("solver_from", str(start))
        player = Player(settings)
        solver = player.solver()
        real = solver.solve

        def spy(*args, _start=start, _real=real, **kwargs):
            calls[_start] = calls.get(_start, 0) + 1
            return _real(*args, **kwargs)

        solver.solve = spy
        result = player.genmove(board, board.to_move, 0.4)
        assert board.empty >> result.move & 1
    assert calls == {8: 1}
