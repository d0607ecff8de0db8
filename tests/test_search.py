"""The search on known positions: soundness against plain minimax, wins, blocks, threats."""
import random
import time

import pytest

from hexengine.board import BLACK, WHITE, Board
from hexengine.evaluation import network
from hexengine.positions import random_position
from hexengine.search import WIN, WIN_THRESHOLD, Searcher, minimax_value, score_text


@pytest.mark.parametrize("size,stones,depth", [(3, 2, 3), (4, 5, 3), (4, 8, 4), (5, 12, 3)])
def test_alphabeta_matches_plain_minimax(size, stones, depth):
    rng = random.Random(size * 100 + stones)
    for _ in range(12):
        board = random_position(size, rng, stones)
        colour = board.to_move
        expected = minimax_value(board, colour, depth, "shortest-path")
        searcher = Searcher("shortest-path")
        assert searcher.value(board, colour, depth) == expected
        # the same through iterative deepening with the TT filled by shallower iterations
        searcher = Searcher("shortest-path")
        result = searcher.search(board, colour, max_depth=depth)
        if abs(expected) < WIN_THRESHOLD and result.depth == depth:
            assert result.score == expected


@pytest.mark.parametrize("ordering", ["current", "connected"])
@pytest.mark.parametrize("size,stones,depth", [(4, 5, 3), (5, 12, 3)])
def test_alphabeta_with_current_ordering_matches_plain_minimax(size, stones, depth, ordering):
    rng = random.Random(size * 10 + stones)
    for _ in range(6):
        board = random_position(size, rng, stones)
        colour = board.to_move
        expected = minimax_value(board, colour, depth, "resistance")
        searcher = Searcher("resistance", ordering=ordering)
        assert searcher.value(board, colour, depth) == pytest.approx(expected)


def test_plays_winning_move_at_once():
    board = Board(7)
    for name in ("d1", "d2", "d3", "d5", "d6", "d7"):
        board.play(board.parse_move(name), BLACK)
    board.play(board.parse_move("a1"), WHITE)
    result = Searcher().search(board, BLACK, deadline=time.monotonic() + 5)
    assert board.move_name(result.move) == "d4"
    assert result.score >= WIN_THRESHOLD
    assert score_text(result.score) == "win in 1"


def test_blocks_the_only_defence():
    board = Board(7)
    # white needs only c4 to join a..g on row 4
    for name in ("a4", "b4", "d4", "e4", "f4", "g4"):
        board.play(board.parse_move(name), WHITE)
    board.play(board.parse_move("a1"), BLACK)
    result = Searcher().search(board, BLACK, deadline=time.monotonic() + 5)
    assert board.move_name(result.move) == "c4"


def test_two_threats_is_a_loss():
    # white needs only c2 (row 2) or only c3 (row 3): black cannot stop both
    board = Board(5)
    for name in ("a2", "b2", "d2", "e2", "a3", "b3", "d3", "e3"):
        board.play(board.parse_move(name), WHITE)
    result = Searcher().search(board, BLACK, deadline=time.monotonic() + 5)
    assert result.score <= -WIN_THRESHOLD
    assert board.move_name(result.move) in ("c2", "c3")  # still blocks one


def test_finds_bridge_win_two_moves_deep():
    # 4x4: black b2 and c3 form a bridge (c2/b3), white a4 and d1 sit in the corners.
    # No single black move connects, but black forces a win by playing into the bridges.
    board = Board(4)
    for colour, name in ((BLACK, "b2"), (WHITE, "a4"), (BLACK, "c3"), (WHITE, "d1")):
        board.play(board.parse_move(name), colour)
    assert minimax_value(board, BLACK, 2, "shortest-path") < WIN_THRESHOLD  # not shallow
    result = Searcher().search(board, BLACK, max_depth=5)
    assert result.score >= WIN_THRESHOLD
    # the chosen move really wins: plain minimax proves every white reply loses
    board.play(result.move, BLACK)
    assert minimax_value(board, WHITE, 4, "shortest-path") <= -WIN_THRESHOLD


def test_search_respects_deadline_and_stop_flag():
    import threading
    board = Board(11)
    board.play(board.parse_move("f6"))
    start = time.monotonic()
    Searcher().search(board, WHITE, deadline=start + 0.3)
    assert time.monotonic() - start < 0.3 + 0.5
    stop = threading.Event()
    threading.Timer(0.2, stop.set).start()
    start = time.monotonic()
    result = Searcher().search(board, WHITE, deadline=start + 30, stop=stop)
    assert time.monotonic() - start < 1.2
    assert result.move in board.geo.cells and board.colour_at(result.move) is None


def test_win_scores_prefer_faster_wins():
    assert score_text(WIN) == "win in 1"
    assert score_text(WIN - 2) == "win in 2"
    assert score_text(-(WIN - 1)) == "loss in 1"
    assert score_text(-(WIN - 3)) == "loss in 2"


def test_connected_leaves_read_their_own_connections():
    """vc-resistance's leaf facts: a full connection between a colour's edges decides the
    score, a semi one is reported for the search to read as a win in one."""
    from hexengine import kernels
    from hexengine.evaluation import resistance
    kernels.start(wait=True)
    board = Board(3)
    board.play(board.parse_move("b2"))  # template II to both edges: a full connection
    empty = board.empty
    assert resistance.connected(board.geo, board.stones, BLACK) == (
        resistance.CLAMP, 2, 0, empty)
    assert resistance.connected(board.geo, board.stones, WHITE) == (-resistance.CLAMP, 0, 2, 0)
    board = Board(2)  # the first move joins either colour's edges: a semi for both, and
    # the short diagonal is where each must play against the other's
    diagonal = (1 << board.parse_move("b1")) | (1 << board.parse_move("a2"))
    for colour in (BLACK, WHITE):
        assert resistance.connected(board.geo, board.stones, colour)[1:] == (1, 1, diagonal)


@pytest.fixture
def solver():
    """The DFPN solver with the engine's knowledge (the compiled kernels are loaded once
    per session by conftest), as referee of the search's proved results."""
    from hexengine.solver import Solver, knowledge_by_name
    return Solver(knowledge_by_name())


def random_open_positions(size: int, count: int, stones: tuple[int, int], seed: int):
    """``count`` seeded random boards with ``stones`` (a range) stones, those not yet won."""
    rng = random.Random(seed)
    for _ in range(count):
        board = random_position(size, rng, (stones[0], stones[1] - 1), undecided=False)
        if board.winner() is None:
            yield board


def test_vc_resistance_search_proves_only_true_results(solver):
    """Wins and losses the vc-resistance search reports as proved (its leaves read semi and
    full edge connections as decided) agree with the solver on random 5×5 positions."""
    proved = 0
    for board in random_open_positions(5, 40, (2, 9), seed=21):
        colour = board.to_move
        result = Searcher("vc-resistance", knowledge=True, width=6).search(
            board, colour, None, 3)
        if not result.proved:
            continue
        proved += 1
        truth = solver.solve(board.geo, list(board.stones), colour, 30)
        assert truth.winner == (colour if result.score > 0 else 1 - colour)
    assert proved >= 10


@pytest.mark.parametrize("root_links", [False, True])
def test_node_knowledge_keeps_the_winner(solver, root_links):
    """Interior nodes of the vc-resistance search work on their filled-in board and search
    only their own mustplay minus vulnerable cells: searched to the end at full width, the
    result is still the true winner (random 5×5 openings, the solver as referee), and the
    move chosen in a won position wins; also with the root's wires in every node's circuit
    (``root_links``), which change values, never verdicts."""
    checked = 0
    for board in random_open_positions(5, 80, (1, 4), seed=5):
        colour = board.to_move
        searcher = Searcher("vc-resistance", knowledge=True, width=0, root_links=root_links)
        result = searcher.search(board, colour, None, 25)
        if root_links and not searcher.root_info.decided:
            assert searcher.node_links is not None
        checked += _agrees_with_the_solver(solver, board, result)
    assert checked >= 30


def _agrees_with_the_solver(solver, board, result) -> bool:
    """A search run to the end (``result``) names the solver's winner, and its move in a
    won position wins; False when the root's knowledge left one move (not searched)."""
    if result.depth == 0:
        return False
    colour = board.to_move
    assert result.proved
    truth = solver.solve(board.geo, list(board.stones), colour, 30)
    assert truth.winner == (colour if result.score > 0 else 1 - colour)
    if truth.winner == colour:
        after = list(board.stones)
        after[colour] |= 1 << result.move
        assert solver.solve(board.geo, after, 1 - colour, 30).winner == colour
    return True


def test_ply_widths_cut_each_ply_to_its_own_width():
    """``ply_widths`` gives plies 1, 2, ... their own width, ``width`` the deeper ones, and
    the root keeps every move: searched to depth 3, no node at ply 1 looks at more than 2
    moves, none at ply 2 at more than 5, and each width is reached somewhere."""
    board = Board(9)
    for move in ("e5", "d6"):
        board.play(board.parse_move(move))
    searcher = Searcher("vc-resistance", knowledge=True, width=5, ply_widths=(2,))
    seen: dict[int, int] = {}
    cut = searcher._cut_to_width

    def spy(moves, ply):
        kept = cut(moves, ply)
        seen[ply] = max(seen.get(ply, 0), len(kept))
        return kept

    searcher._cut_to_width = spy
    result = searcher.search(board, board.to_move, None, 3)
    assert result.depth == 3
    assert seen[0] > 40 and seen[1] == 2 and seen[2] == 5


def test_root_width_narrows_the_root_after_depth_two():
    """With ``root_width`` every root move is searched to depth 2; the deeper iterations
    keep the best ``root_width`` of them by their depth-2 scores, best first."""
    board = Board(9)
    for move in ("e5", "d6"):
        board.play(board.parse_move(move))
    iterations = []
    Searcher("vc-resistance", knowledge=True, width=4, root_width=5).search(
        board, board.to_move, None, 4, on_iteration=iterations.append)
    assert [r.depth for r in iterations] == [1, 2, 3, 4]
    everything = set(iterations[0].scores)
    assert len(everything) > 40 and set(iterations[1].scores) == everything
    by_depth_two = sorted(everything, key=lambda m: -iterations[1].scores[m])
    kept = set(by_depth_two[:5])
    assert set(iterations[2].scores) == kept and set(iterations[3].scores) == kept


def _searched_with_root_order(depth: int, **settings) -> tuple[Searcher, Board, list, list]:
    """A 9x9 middle game searched to ``depth`` with ``settings``: the searcher, the board,
    its iterations and the full root's move order (read by a spy on the ordering)."""
    board = Board(9)
    for move in ("e5", "d6"):
        board.play(board.parse_move(move))
    searcher = Searcher("vc-graph", knowledge=True, width=4, **settings)
    ordered = searcher._ordered_moves
    order: list[int] = []

    def spy(colour, ply, *rest):
        moves = ordered(colour, ply, *rest)
        if not ply and not order:
            order.extend(moves)
        return moves

    searcher._ordered_moves = spy
    iterations: list = []
    searcher.search(board, board.to_move, None, depth, on_iteration=iterations.append)
    return searcher, board, iterations, order


def test_root_moves_searches_the_first_moves_by_order_from_depth_one():
    """With ``root_moves`` the root keeps its first moves in the search's order (the
    graph circuit's current, Wolve's root width) from the first iteration on: each
    iteration scores exactly those, and they are the first of the full root's order."""
    _, _, iterations, order = _searched_with_root_order(3, root_moves=6)
    assert [r.depth for r in iterations] == [1, 2, 3]
    assert len(order) > 40
    assert all(set(r.scores) == set(order[:6]) for r in iterations)


def test_root_policy_adds_the_move_heads_first_picks_among_the_moves_cut():
    """With ``root_policy`` the root searches, beside its first ``root_moves`` by order,
    the moves left out that the value network's move head ranks highest, and no others."""
    searcher, board, iterations, order = _searched_with_root_order(2, root_moves=6,
                                                                   root_policy=3)
    left_out = set(order[6:])
    head = [m for m in network.move_head().ranked_moves(board.geo, searcher.stones,
                                                        board.to_move) if m in left_out]
    assert len(head) > 30
    assert all(set(r.scores) == set(order[:6]) | set(head[:3]) for r in iterations)


@pytest.mark.parametrize("option", ["root_width", "root_moves"])
def test_a_narrowed_root_proves_a_loss_only_over_every_move(solver, option):
    """A lost position searched with one root move kept (after depth 2 with ``root_width``,
    from depth 1 with ``root_moves``): when that move turns out lost, the moves set aside
    are searched again, and the loss is reported as proved only by an iteration over every
    root move (random 5×5 positions the solver proves lost for the side to move)."""
    narrowed = 0
    for board in random_open_positions(5, 200, (1, 5), seed=8):
        colour = board.to_move
        if solver.solve(board.geo, list(board.stones), colour, 30).winner != 1 - colour:
            continue
        iterations = []
        result = Searcher("vc-resistance", knowledge=True, width=0, **{option: 1}).search(
            board, colour, None, 25, on_iteration=iterations.append)
        counts = [len(r.scores) for r in iterations]
        if len(set(counts)) < 2:
            continue
        narrowed += 1
        assert result.score < 0 and result.proved
        assert counts[-1] == max(counts)
    assert narrowed >= 8


def test_root_links_only_where_the_root_build_is_the_wide_one():
    """The root's wires join the nodes' circuits only on boards whose root H-search is the
    wide one (up to 10x10): on larger boards the root builds what every node builds."""
    for size, wired in ((9, True), (11, False)):
        board = Board(size)
        for move in ("c3", "e5", "f4"):
            board.play(board.parse_move(move))
        searcher = Searcher("vc-resistance", knowledge=True, width=4, root_links=True)
        searcher.search(board, board.to_move, None, 2)
        assert (searcher.node_links is not None) == wired, size
        plain = Searcher("vc-resistance", knowledge=True, width=4, root_links=False)
        plain.search(board, board.to_move, None, 2)
        assert plain.node_links is None


def test_tempo_is_added_to_every_static_leaf_for_the_side_to_move():
    """``tempo`` is the move's worth: a static leaf gains it for the side to move, so one
    ply deeper (the opponent to move at the leaves) the root's value loses it; a proved
    result is not shifted."""
    board = Board(9)
    for move in ("e5", "d6"):
        board.play(board.parse_move(move))
    plain = Searcher("vc-resistance", knowledge=True)
    tempo = Searcher("vc-resistance", knowledge=True, tempo=0.5)
    colour = board.to_move
    assert tempo.value(board, colour, 0) == pytest.approx(plain.value(board, colour, 0) + 0.5)
    assert tempo.value(board, colour, 1) == pytest.approx(plain.value(board, colour, 1) - 0.5)
    won = Board(3)
    for move in ("b1", "a3", "b2", "c1"):  # black to move joins b2 to its far edge at b3
        won.play(won.parse_move(move))
    assert plain.value(won, won.to_move, 0) >= WIN_THRESHOLD
    assert tempo.value(won, won.to_move, 0) == plain.value(won, won.to_move, 0)


def test_wide_plies_see_a_connection_the_default_node_build_misses():
    """From a game against Wolve (white to move): b7 joins white's edges by a connection
    that only the wide H-search (connections between empty cells too) derives.  With
    ``wide_plies 1`` the nodes a ply below the root build it, so depth 1 proves the win;
    with the default node build, depth 1 sees no win.  Boards above 10x10 keep the default."""
    board = Board(9)
    for move in "i1 e5 g5 g4 f4 f5 d5 d6 c6 c7 i3 g3 i2 h6 h4 f7 a8".split():
        board.play(board.parse_move(move))
    white = board.to_move
    assert white == 1
    plain = Searcher("vc-resistance", knowledge=True, width=6, root_links=True, tempo=0.5)
    result = plain.search(board, white, None, 1)
    assert result.score < WIN_THRESHOLD and not result.proved
    wide = Searcher("vc-resistance", knowledge=True, width=6, root_links=True, tempo=0.5,
                    wide_plies=1)
    result = wide.search(board, white, None, 1)
    assert result.proved and result.score >= WIN_THRESHOLD
    assert board.move_name(result.move) == "b7"
    big = Board(11)
    big.play(big.parse_move("f6"))
    wide.search(big, big.to_move, None, 1)
    assert wide._wide_plies == 0


def test_late_move_reductions_keep_the_winner(solver):
    """``reduce_after 1`` (every move but the first tried a ply shallower first): searched
    to the end at full width on random 5×5 openings, the result is still the true winner
    (the solver as referee), and a move chosen in a won position wins."""
    checked = 0
    for board in random_open_positions(5, 40, (1, 4), seed=7):
        colour = board.to_move
        result = Searcher("vc-graph", knowledge=True, width=0, tempo=0.5,
                          reduce_after=1).search(board, colour, None, 25)
        checked += _agrees_with_the_solver(solver, board, result)
    assert checked >= 15


def test_late_move_reductions_search_fewer_nodes_at_the_same_depth():
    """At a fixed depth of 4 on 7×7 positions, ``reduce_after 2`` reaches the same depth
    with fewer nodes than the full search of every kept move."""
    fewer = 0
    for moves in ("d4 c5 e3", "c3 d4 e4 d5 c5"):
        board = Board(7)
        for move in moves.split():
            board.play(board.parse_move(move))
        counts = []
        for reduce_after in (0, 2):
            searcher = Searcher("vc-graph", knowledge=True, width=8, tempo=0.5,
                                reduce_after=reduce_after)
            result = searcher.search(board, board.to_move, None, 4)
            assert result.depth == 4 or result.proved
            counts.append(result.nodes)
        fewer += counts[1] < counts[0]
    assert fewer == 2
