"""The Monte Carlo tree search (``--algorithm mcts``): its kernel's playouts and winner,
its moves in positions with known results, and the engine over the protocol."""
import random
import time

import numpy as np
import pytest

from hexengine import mcts_kernel
from hexengine.board import Board
from hexengine.mcts import MctsSearcher
from hexengine.search import Searcher
from tests.test_search import random_open_positions, solver  # noqa: F401 (a fixture)


def _kernel_board(board: Board) -> np.ndarray:
    size = board.width
    cells = np.zeros(size * size, dtype=np.int8)
    for r in range(size):
        for c in range(size):
            colour = board.colour_at(board.geo.index(c, r))
            cells[r * size + c] = 0 if colour is None else colour + 1
    return cells


def test_neighbours_are_the_boards_in_ring_order():
    """The kernel's neighbour table holds each cell's hex neighbours, each adjacent to the
    next one round the ring (what the playouts' bridge pattern reads)."""
    size = 5
    geo = Board(size).geo
    table = mcts_kernel.neighbours(size)
    for r in range(size):
        for c in range(size):
            cell = geo.index(c, r)
            listed = {int(k) for k in table[r * size + c] if k >= 0}
            expected = {(n // geo.stride) * size + n % geo.stride
                        for n in geo.iter_bits(geo.dilate(1 << cell) & ~(1 << cell))}
            assert listed == expected
            ring = table[r * size + c]
            for k in range(6):
                a, b = ring[k], ring[(k + 1) % 6]
                if a >= 0 and b >= 0:
                    assert b in table[a]


def test_playouts_fill_the_board_and_name_its_winner():
    """A playout fills every empty cell, and the winner it reports is the full board's."""
    rng = random.Random(3)
    size = 6
    nbr = mcts_kernel.neighbours(size)
    n = size * size
    work = [np.empty(n, dtype=np.int32) for _ in range(3)]
    seen = np.empty(n, dtype=np.int8)
    state = np.array([12345], dtype=np.uint64)
    for _ in range(50):
        board = Board(size)
        for _ in range(rng.randrange(0, 8)):
            empty = list(board.geo.iter_bits(board.empty))
            board.play(rng.choice(empty))
            if board.winner() is not None:
                break
        cells = _kernel_board(board)
        colour = board.to_move
        winner = mcts_kernel._playout(cells, size, nbr, colour, -1, work[0], work[1],
                                      work[2], seen, state)
        assert (cells != 0).all()
        full = Board(size)
        for r in range(size):
            for c in range(size):
                full.play(full.geo.index(c, r), int(cells[r * size + c]) - 1)
        assert full.winner() == winner


def test_bridge_intrusions_are_answered():
    """A playout answers the opponent's stone in one of its bridges by the other cell."""
    size = 5
    board = Board(size)
    board.play(board.parse_move("b2"), 0)
    board.play(board.parse_move("c3"), 0)  # bridge b2-c3 through c2 and b3
    board.play(board.parse_move("c2"), 1)  # white intrudes
    nbr = mcts_kernel.neighbours(size)
    n = size * size
    for seed in range(1, 20):
        cells = _kernel_board(board)
        mcts_kernel._playout(cells, size, nbr, 0, 2 + size * 1, np.empty(n, dtype=np.int32),
                             np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int32),
                             np.empty(n, dtype=np.int8), np.array([seed], dtype=np.uint64))
        assert cells[2 * size + 1] == 1  # b3: black's


def test_mcts_finds_winning_moves_on_5x5(solver):
    """With 20,000 playouts (no deadline: deterministic) in won 5×5 positions the root
    knowledge leaves open, the tree search's move wins in most of them (solver as
    referee)."""
    mcts = MctsSearcher(Searcher("vc-graph", knowledge=True, width=15, tempo=0.5), seed=7)
    won = wins = 0
    for board in random_open_positions(5, 200, (1, 5), seed=5):
        colour = board.to_move
        if solver.solve(board.geo, list(board.stones), colour, 30).winner != colour:
            continue
        result = mcts.search(board, colour)
        if result.depth == 0 or result.proved:
            continue  # the knowledge decided it, not the tree
        won += 1
        after = list(board.stones)
        after[colour] |= 1 << result.move
        wins += solver.solve(board.geo, after, 1 - colour, 30).winner == colour
    assert won >= 10
    assert wins >= 0.8 * won


def test_engine_plays_mcts_over_the_protocol(make_engine):
    """``--algorithm mcts`` answers genmove with a legal move inside its budget plus
    0.5 s, on 9x9 and 11x11, and keeps the game going."""
    engine = make_engine("--time", "1", "--algorithm", "mcts")
    engine.ok("hexengine-ready 300", timeout=320)
    for size in (9, 11):
        engine.ok("boardsize %d" % size)
        engine.ok("play b e5")
        played = {"e5"}
        for colour in ("w", "b", "w"):
            began = time.monotonic()
            move = engine.ok("genmove " + colour)
            assert time.monotonic() - began < 1.5
            assert move not in played
            played.add(move)
        assert engine.ok("showboard")


def test_edge_template_intrusions_are_answered():
    """A playout answers the opponent's stone in a second-row stone's template to its
    edge by the other edge cell."""
    size = 5
    board = Board(size)
    board.play(board.parse_move("b2"), 0)  # black's template to the top edge: b1, c1
    board.play(board.parse_move("b1"), 1)  # white intrudes
    nbr = mcts_kernel.neighbours(size)
    n = size * size
    for seed in range(1, 20):
        cells = _kernel_board(board)
        mcts_kernel._playout(cells, size, nbr, 0, 1, np.empty(n, dtype=np.int32),
                             np.empty(n, dtype=np.int32), np.empty(n, dtype=np.int32),
                             np.empty(n, dtype=np.int8), np.array([seed], dtype=np.uint64))
        assert cells[2] == 1  # c1: black's


def test_tree_knowledge_prunes_and_decides_nodes():
    """Nodes visited often enough get their knowledge: on a 7x7 middle game some
    children are pruned (outside the mustplay or inferior) or nodes decided by their
    connections, and the search still answers with a root move."""
    board = Board(7)
    for move in "d4 c5 e3 d3 c4".split():
        board.play(board.parse_move(move))
    mcts = MctsSearcher(Searcher("vc-graph", knowledge=True, width=15, tempo=0.5), seed=3)
    result = mcts.search(board, board.to_move)
    assert mcts.known > 0
    stats, links, used = mcts._tree
    flags = links[:int(used[0]), mcts_kernel.FLAGS]
    assert ((flags & mcts_kernel.PRUNED) != 0).any() or (
        (flags & (mcts_kernel.WON | mcts_kernel.LOST)) != 0).any()
    assert (board.empty >> result.move) & 1


def test_move_head_probabilities_follow_its_ranking():
    """The priors the tree can take from the move head (``mcts.PRIOR_WEIGHT``): a
    distribution over the empty cells, in the order of the head's ranking."""
    from hexengine.evaluation import network
    head = network.move_head()
    board = Board(9)
    for move in "e5 d6 c7".split():
        board.play(board.parse_move(move))
    stones, colour = list(board.stones), board.to_move
    probabilities = head.move_probabilities(board.geo, stones, colour)
    assert set(probabilities) == set(board.geo.iter_bits(board.empty))
    assert abs(sum(probabilities.values()) - 1.0) < 1e-9
    ranked = head.ranked_moves(board.geo, stones, colour)
    values = [probabilities[cell] for cell in ranked]
    assert values == sorted(values, reverse=True)
    mcts = MctsSearcher(Searcher("vc-graph", knowledge=True, width=15, tempo=0.5), seed=3,
                        prior_weight=0.05)
    result = mcts.search(board, colour)
    assert (board.empty >> result.move) & 1
