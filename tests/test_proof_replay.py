"""The 5×5 proofs played out: from every one-stone opening the proved winner follows its
proof move by move against every kind of defence, and must win on the board; and the whole
proof tree, the loser trying every reply.

The loser's moves are not limited to what the solver searched (its mustplay, minus the
cells it proved inferior, cut by proof sets): a random defender plays any empty cell, a
stubborn one the move whose refutation the solver found hardest, a searching one our
alpha-beta choice.  At each of its turns the winner asks the solver again (its table keeps
the proofs): the position must still be proved won, and the move it answers is played.
A proof that leaned on a wrong connection, a wrong mustplay or an unsound pruning would
meet a defence it did not cover and lose the game here.
"""
import random

import pytest

from hexengine.board import BLACK, WHITE, Board
from hexengine.geometry import geometry
from hexengine.player import Player, Settings
from hexengine.solver import WIN, Solver, knowledge_by_name

# published: black (first, joining rows 1 and 5) wins 5×5 with exactly these openings
BLACK_WINS_5X5 = set("e1 b2 c2 d2 e2 b3 c3 d3 a4 b4 c4 d4 a5".split())


def connected(geo, own: int, colour: int) -> bool:
    start, goal = geo.edges[colour]
    return bool(geo.flood(start & own, own) & goal)


def play_out(solver: Solver, opening: str, defend, rng: random.Random) -> tuple[int, int]:
    """Play the opening's game to the end, the proved winner following the solver and the
    loser ``defend``ing; returns (proved winner, winner on the board)."""
    board = Board(5)
    geo = board.geo
    board.play(geo.parse(opening))
    first = solver.solve(geo, list(board.stones), WHITE, 60)
    assert first.winner is not None, opening
    winner = first.winner
    colour = WHITE
    while not any(connected(geo, board.stones[c], c) for c in (BLACK, WHITE)):
        if colour == winner:
            result = solver.solve(geo, list(board.stones), colour, 60)
            assert result.winner == winner, (opening, board.stones)
            move = result.move
        else:
            move = defend(board, colour, rng)
        assert (board.empty >> move) & 1
        board.play(move)
        colour = 1 - colour
    on_board = BLACK if connected(geo, board.stones[BLACK], BLACK) else WHITE
    return winner, on_board


def random_defence(board, colour, rng):
    return rng.choice(list(board.geo.iter_bits(board.empty)))


def stubborn_defence(solver):
    def defend(board, colour, rng):
        result = solver.solve(board.geo, list(board.stones), colour, 60)
        assert result.winner == 1 - colour
        return result.move
    return defend


def search_defence():
    player = Player(Settings(max_time=0.2, knowledge=True))

    def defend(board, colour, rng):
        return player.searcher().search(board, colour, None, 2).move
    return defend


OPENINGS = [geometry(5, 5).name(c) for c in geometry(5, 5).cells]


@pytest.mark.parametrize("kind", ["random", "stubborn", "search"])
def test_every_5x5_proof_holds_when_played_out(kind):
    solver = Solver(knowledge_by_name())
    rng = random.Random(hash(kind) & 0xFFFF)
    defend = {"random": random_defence, "stubborn": stubborn_defence(solver),
              "search": search_defence()}[kind]
    for opening in OPENINGS:
        for _ in range(3 if kind == "random" else 1):
            proved, on_board = play_out(solver, opening, defend, rng)
            assert proved == on_board, opening
            assert (proved == BLACK) == (opening in BLACK_WINS_5X5), opening


def test_every_5x5_proof_tree_replayed_against_every_reply():
    """The whole proof tree: from every opening, the loser tries every empty cell at each
    of its turns (not just what the solver searched) and the winner answers with the
    solver's move, until the board is won or the knowledge decides the position at sight
    (a full connection, or fill-in joining the edges: the connections are checked against
    exhaustive play in test_vc.py, with the default limits and the solver's).  About
    1,430 positions (1,690 before the solver kept a node's filled cells filled below it,
    its winning moves now reaching positions decided at sight sooner; 2,450 before the
    derived edge templates with helper stones, 4,800 with ORs of at most four semis,
    24,000 before the solver's H-search derived connections between empty cells: it
    decides more at sight each time)."""
    geo = geometry(5, 5)
    solver = Solver(knowledge_by_name())
    knowledge = solver.knowledge
    total = 0
    for opening in geo.cells:
        winner = solver.solve(geo, [1 << opening, 0], WHITE, 60).winner
        assert (winner == BLACK) == (geo.name(opening) in BLACK_WINS_5X5)
        seen = set()
        stack = [(1 << opening, 0, WHITE)]
        while stack:
            black, white, to_move = stack.pop()
            if (black, white, to_move) in seen:
                continue
            seen.add((black, white, to_move))
            if connected(geo, black, BLACK) or connected(geo, white, WHITE):
                assert connected(geo, (black, white)[winner], winner)
                continue
            status = knowledge.expand(geo, [black, white], to_move)[0]
            if status:
                assert (status == WIN) == (to_move == winner)
                continue
            if to_move == winner:
                result = solver.solve(geo, [black, white], to_move, 60)
                assert result.winner == winner
                replies = [result.move]
            else:
                replies = list(geo.iter_bits(geo.mask & ~(black | white)))
            for m in replies:
                if to_move == BLACK:
                    stack.append((black | 1 << m, white, WHITE))
                else:
                    stack.append((black, white | 1 << m, BLACK))
        total += len(seen)
    assert total > 1_300


@pytest.mark.slow
def test_5x5_proofs_hold_against_many_random_defences():
    solver = Solver(knowledge_by_name())
    rng = random.Random(2)
    for opening in OPENINGS:
        for _ in range(40):
            proved, on_board = play_out(solver, opening, random_defence, rng)
            assert proved == on_board, opening
