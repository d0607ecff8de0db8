"""Evaluations on known and random positions: distances against an independent Dijkstra,
colour symmetry, and sane signs."""
import heapq
import itertools
import math
import random

import pytest

from hexengine.board import BLACK, WHITE, Board
from hexengine.evaluation import EVALUATIONS, shortest_path, two_distance
from hexengine.evaluation.shortest_path import NO_PATH
from hexengine.geometry import geometry
from hexengine.positions import random_position


def dijkstra(board: Board, colour: int) -> int:
    """Plain Dijkstra over cells with a virtual source edge: empty 1, own 0, opponent blocks."""
    geo = board.geo
    start, goal = geo.edges[colour]
    dist = {}
    heap = []
    for cell in geo.iter_bits(start):
        owner = board.colour_at(cell)
        if owner == 1 - colour:
            continue
        cost = 0 if owner == colour else 1
        heapq.heappush(heap, (cost, cell))
    while heap:
        d, cell = heapq.heappop(heap)
        if cell in dist:
            continue
        dist[cell] = d
        if (goal >> cell) & 1:
            return d
        for n in geo.neighbours[cell]:
            owner = board.colour_at(n)
            if n in dist or owner == 1 - colour:
                continue
            heapq.heappush(heap, (d + (0 if owner == colour else 1), n))
    return NO_PATH


def random_board(rng: random.Random, width: int, height: int) -> Board:
    """Any number of stones of random colours, won positions too."""
    return random_position(geometry(width, height), rng, (0, width * height),
                           random_colours=1, undecided=False)


def test_layered_distance_matches_dijkstra():
    rng = random.Random(11)
    sizes = [(w, h) for w in range(1, 12) for h in (w, max(1, w - 2), w + 1)]
    for i in range(2000):
        w, h = sizes[i % len(sizes)]
        board = random_board(rng, w, h)
        for colour in (BLACK, WHITE):
            assert shortest_path.distance(board.geo, board.stones, colour) == \
                dijkstra(board, colour), board.render()


def two_distance_potential(board: Board, colour: int) -> tuple[int, int]:
    """Queenbee's potential by plain relaxation, cell by cell, to a fixpoint: an empty cell
    touching the edge (or an own group joined to it) is at 1, any other is 1 + the
    second-smallest distance among its neighbours; an own stone takes its group's smallest
    neighbouring distance (0 when the group touches the edge); opponent stones block."""
    geo = board.geo
    inf = math.inf
    own = board.stones[colour]
    groups = {}
    for cell in geo.iter_bits(own):
        groups[cell] = geo.flood(1 << cell, own)

    def distances(edge: int) -> dict:
        d = {cell: inf for cell in geo.cells if board.colour_at(cell) != 1 - colour}
        changed = True
        while changed:
            changed = False
            for cell in d:
                if board.colour_at(cell) == colour:
                    group = groups[cell]
                    if group & edge:
                        value = 0
                    else:
                        around = geo.dilate(group) & ~group
                        value = min((d[n] for n in geo.iter_bits(around) if n in d
                                     and board.colour_at(n) is None), default=inf)
                else:
                    near = sorted(d[n] for n in geo.neighbours[cell] if n in d)
                    if (edge >> cell) & 1 or (near and near[0] == 0):
                        value = 1
                    else:
                        value = 1 + near[1] if len(near) > 1 else inf
                if value < d[cell]:
                    d[cell] = value
                    changed = True
        return d

    start, goal = geo.edges[colour]
    if geo.flood(start & own, own) & goal:
        return 0, 1
    a, b = distances(start), distances(goal)
    totals = [a[c] + b[c] for c in a if board.colour_at(c) is None]
    best = min(totals, default=inf)
    if best == inf:
        return 100, 0
    return int(best), totals.count(best)


def test_two_distance_matches_cell_by_cell_relaxation():
    rng = random.Random(7)
    sizes = [(w, h) for w in range(1, 10) for h in (w, max(1, w - 2), w + 1)]
    for i in range(600):
        w, h = sizes[i % len(sizes)]
        board = random_board(rng, w, h)
        expected = {c: two_distance_potential(board, c) for c in (BLACK, WHITE)}
        for colour in (BLACK, WHITE):
            (own_p, own_n), (opp_p, opp_n) = expected[colour], expected[1 - colour]
            want = opp_p - own_p + 0.5 * (own_n - opp_n) / (own_n + opp_n + 1)
            got = two_distance.evaluate(board.geo, board.stones, colour)
            assert got == pytest.approx(want), board.render()


def test_path_cells_lie_on_shortest_paths():
    rng = random.Random(5)
    for _ in range(300):
        board = random_board(rng, 7, 7)
        for colour in (BLACK, WHITE):
            d, cells = shortest_path.path_cells(board.geo, board.stones, colour)
            for cell in board.geo.iter_bits(cells):
                board.play(cell, colour)
                assert shortest_path.distance(board.geo, board.stones, colour) == d - 1
                board.undo()


def mirror(board: Board) -> Board:
    """The same game seen from the other side: transposed, colours exchanged."""
    twin = Board(board.height, board.width)
    for colour in (BLACK, WHITE):
        for cell in board.geo.iter_bits(board.stones[colour]):
            twin.play(board.geo.mirror(cell), 1 - colour)
    return twin


@pytest.mark.parametrize("name", sorted(EVALUATIONS))
def test_finite_and_antisymmetric(name):
    """A static evaluation scores the stones alone: one colour's value is the other's
    negated.  One that counts the side to move (the value network: ``tempo`` False) must
    instead give the same value to a position and its mirror (transposed, colours and
    mover exchanged)."""
    evaluate = EVALUATIONS[name]
    rng = random.Random(3)
    for _ in range(200):
        board = random_board(rng, 7, 7)
        a = evaluate(board.geo, board.stones, BLACK)
        b = evaluate(board.geo, board.stones, WHITE)
        assert math.isfinite(a) and abs(a) < 10_000
        if evaluate.tempo:
            assert a == pytest.approx(-b)
        elif name != "net-circuit":  # (its fill-in and H-search are not exactly
            # mirror-symmetric; its network is: tests/test_value_net.py)
            twin = mirror(board)
            assert evaluate(twin.geo, twin.stones, WHITE) == pytest.approx(a, abs=1e-4)


@pytest.mark.parametrize("name", ["shortest-path", "bridge-distance", "adjacency"])
def test_mirror_position_negates_score(name):
    # transposing the board (col <-> row) and swapping colours is the same game
    evaluate = EVALUATIONS[name]
    rng = random.Random(9)
    for _ in range(100):
        board = random_board(rng, 6, 6)
        mirror = Board(6)
        for colour in (BLACK, WHITE):
            for cell in board.geo.iter_bits(board.stones[colour]):
                mirror.play(board.geo.mirror(cell), 1 - colour)
        assert evaluate(board.geo, board.stones, BLACK) == pytest.approx(
            evaluate(mirror.geo, mirror.stones, WHITE))


@pytest.mark.parametrize("name", ["shortest-path", "bridge-distance"])
def test_nearly_connected_colour_scores_higher(name):
    evaluate = EVALUATIONS[name]
    board = Board(7)
    for cell in ("d1", "d2", "d3", "d4", "d5"):
        board.play(board.parse_move(cell), BLACK)
    for cell in ("a1", "b3"):
        board.play(board.parse_move(cell), WHITE)
    assert evaluate(board.geo, board.stones, BLACK) > 0
    assert evaluate(board.geo, board.stones, WHITE) < 0


def _position(size, black=(), white=()):
    board = Board(size)
    for name in black:
        board.play(board.parse_move(name), BLACK)
    for name in white:
        board.play(board.parse_move(name), WHITE)
    return board


def test_resistance_counts_bridges_and_edge_templates_as_links():
    from hexengine.evaluation.resistance import evaluate, resistance
    # d2 (edge template to the top), bridge d2-c4 over c3/d3, bridge c4-b6 over b5/c5,
    # b6 (edge template to the bottom): black is virtually connected
    chain = ["d2", "c4", "b6"]
    bridged = _position(7, chain, ["g7"])
    solid = _position(7, chain + ["c3", "c5", "d1", "b7"], ["g7"])
    r_bridged = resistance(bridged.geo, bridged.stones, BLACK)
    assert r_bridged < 1.5 * resistance(solid.geo, solid.stones, BLACK)
    for spoiler in ("c3", "c5", "e1"):  # one carrier taken: that link is no longer virtual
        # (the stones still reach the answering cell by their bridges to empty cells, so the
        # resistance grows by half or more, not severalfold)
        broken = _position(7, chain, [spoiler])
        assert resistance(broken.geo, broken.stones, BLACK) > 1.4 * r_bridged
        assert (evaluate(bridged.geo, bridged.stones, BLACK)
                > evaluate(broken.geo, broken.stones, BLACK) + 0.5)


def test_resistance_of_a_won_and_a_cut_off_colour():
    from hexengine.evaluation.resistance import CLAMP, evaluate, resistance
    board = _position(5, ["c1", "c2", "c3", "c4", "c5"], ["a1"])
    assert resistance(board.geo, board.stones, WHITE) > 1e6  # cut off
    assert evaluate(board.geo, board.stones, BLACK) == CLAMP
    assert evaluate(board.geo, board.stones, WHITE) == -CLAMP


def test_resistance_sparse_solve_agrees_with_dense(monkeypatch):
    from hexengine.evaluation import resistance as res
    rng = random.Random(11)
    boards = [random_board(rng, size, size) for size in (3, 5, 7, 9) for _ in range(8)]
    with res.circuit.numpy_only():
        dense = [res.evaluate(b.geo, b.stones, BLACK) for b in boards]
        monkeypatch.setattr(res, "DENSE_LIMIT", 0)
        sparse = [res.evaluate(b.geo, b.stones, BLACK) for b in boards]
    assert sparse == pytest.approx(dense, abs=1e-6)


def test_wire_sets_what_a_virtual_connection_conducts():
    """``wire`` is the conductance of a stone's virtual connections: black's bridge from a
    second-row stone to another stone conducts less at wire 1 than at the default, so black's
    resistance rises; a position with no virtual connection of black's keeps its value."""
    from hexengine import kernels
    from hexengine.evaluation import resistance as res
    kernels.start(wait=True)
    bridged, plain = Board(7), Board(7)
    for board, moves in ((bridged, ("d2", "e3")), (plain, ("d4", "a7"))):
        for move in moves:
            board.play(board.parse_move(move), BLACK)
    values = {}
    for wire in (res.STRONG, 1.0):
        res.set_wire(wire)
        try:
            values[wire] = [res.resistance(b.geo, b.stones, BLACK) for b in (bridged, plain)]
        finally:
            res.set_wire(res.STRONG)
    assert values[1.0][0] > values[res.STRONG][0] * 1.05
    assert values[1.0][1] == pytest.approx(values[res.STRONG][1])


def test_compiled_circuit_agrees_with_numpy():
    """The compiled band solver (with far wires by Woodbury) solves the same circuit as the
    numpy one: resistances and per-cell currents, with and without the root's wires."""
    import numpy as np

    from hexengine import kernels
    from hexengine.evaluation import circuit
    from hexengine.evaluation import resistance as res
    from hexengine.knowledge import analysis
    kernels.start(wait=True)
    assert circuit.ready()
    rng = random.Random(17)
    far_wires = 0
    for size in (2, 4, 7, 9, 11, 19):
        for _ in range(6):
            board = random_board(rng, size, size)
            if board.winner() is not None:
                continue
            colour = board.to_move
            info = analysis.analyse_root(board.geo, board.stones, colour, None)
            links = None if info.decided else res.prepare_links(board.geo, info.links())
            if links is not None:
                rows = links.compiled[0]
                far_wires += int(np.sum((rows[:, 2] >= 0)
                                        & (np.abs(rows[:, 1] - rows[:, 2]) > 2 * size - 1)))
            for wire, wires, first in itertools.product((res.STRONG, 5.0, 0.0), (None, links),
                                                        (BLACK, WHITE)):
                res.set_wire(wire)
                try:
                    compiled = res._resistances(board.geo, board.stones, first, True, wires)
                    with circuit.numpy_only():
                        plain = res._resistances(board.geo, board.stones, first, True, wires)
                finally:
                    res.set_wire(res.STRONG)
                for a, b in zip(compiled[:2], plain[:2]):
                    if math.isinf(a) or math.isinf(b) or a > 1e6:  # cut off
                        assert b > 1e6 and a > 1e6
                    else:
                        assert a == pytest.approx(b, rel=1e-9)
                assert compiled[2] == pytest.approx(plain[2], abs=1e-8)
    assert far_wires > 0  # the Woodbury update was exercised


def test_without_numba_the_numpy_circuit_answers():
    """No numba (or a failed compile): loading finishes at once, unready, and the
    evaluation still answers, from the numpy circuit."""
    import subprocess
    import sys
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "from hexengine.board import Board\n"
        "from hexengine.evaluation import circuit, resistance\n"
        "from hexengine import kernels\nkernels.start(wait=True)\n"
        "assert kernels.wait(0.1) and not circuit.ready()\n"
        "b = Board(5); b.play(b.parse_move('c3'))\n"
        "print(round(resistance.evaluate(b.geo, b.stones, 0), 6))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    from hexengine.evaluation import circuit, resistance
    board = _position(5, ["c3"], [])
    with circuit.numpy_only():
        expected = resistance.evaluate(board.geo, board.stones, BLACK)
    assert float(out.stdout) == pytest.approx(expected, abs=1e-5)


def test_current_ranking_has_every_empty_cell_once():
    from hexengine.evaluation.resistance import rank_moves
    rng = random.Random(13)
    for _ in range(100):
        board = random_board(rng, 6, 6)
        for colour in (BLACK, WHITE):
            ranked = rank_moves(board.geo, board.stones, colour)
            assert sorted(ranked) == list(board.geo.iter_bits(board.empty))


def test_current_ranks_the_only_crossing_first_and_a_dead_corner_last():
    from hexengine.evaluation.resistance import rank_moves
    # c3 is black's one gap and white's one way across column c; a1 sits between a black
    # stone on black's edge and a white stone on white's edge, so no current passes it
    board = _position(5, ["c1", "c2", "c4", "c5", "b1"], ["a2", "e3"])
    for colour in (BLACK, WHITE):
        ranked = rank_moves(board.geo, board.stones, colour)
        assert board.move_name(ranked[0]) == "c3"
        assert board.move_name(ranked[-1]) == "a1"


def test_astar_distance_matches_the_layered_distance():
    """Seed 004's A* and the bitboard layers agree on thousands of positions, cut-off
    colours included."""
    from hexengine.evaluation import astar
    rng = random.Random(404)
    cut_off = 0
    for i in range(2500):
        size = 3 + i % 11
        board = random_board(rng, size, size + rng.choice((0, 0, 1, -1)) if size > 3 else size)
        for colour in (BLACK, WHITE):
            expected = shortest_path.distance(board.geo, board.stones, colour)
            assert astar.distance(board.geo, board.stones, colour) == expected
            cut_off += expected == NO_PATH
    assert cut_off > 100  # the blocked case was really exercised


def test_root_wires_count_at_a_node_only_while_their_carriers_hold():
    """``resistance.connected`` with the root's full connections as extra wires (the
    search's ``root_links``): the verdicts and the mustplay are the node's own, unchanged;
    the value changes where a wire the node's own build lacks still holds; and once an
    opponent stone lies in every root wire's carrier, the value is the node's own again."""
    from hexengine import kernels
    from hexengine.evaluation import resistance as res
    from hexengine.knowledge import analysis
    kernels.start(wait=True)
    rng = random.Random(23)
    changed = broken = 0
    while changed < 5 or broken < 5:
        board = random_position(9, rng, (6, 20), undecided=False)
        if board.winner() is not None:
            continue
        colour = board.to_move
        info = analysis.analyse_root(board.geo, board.stones, colour, None)
        if info.decided:
            continue
        stones = info.stones
        extra = res.prepare_links(board.geo, info.links())
        own = res.connected(board.geo, stones, colour)
        wired = res.connected(board.geo, stones, colour, extra)
        assert wired[1:] == own[1:]
        if own[1] or own[2] == 2:
            continue
        if wired[0] != pytest.approx(own[0], abs=1e-9):
            changed += 1
            # an opponent stone in each carrier (of either colour's wires) breaks them all
            after = list(stones)
            for wire_colour, wires in enumerate(info.links()):
                for _, _, carrier in wires:
                    if not carrier & after[1 - wire_colour]:
                        free = carrier & ~(after[0] | after[1])
                        if free:
                            after[1 - wire_colour] |= free & -free
            if any(board.geo.flood(board.geo.edges[c][0], after[c]) & board.geo.edges[c][1]
                   for c in (BLACK, WHITE)):
                continue
            plain = res.connected(board.geo, after, colour)
            assert res.connected(board.geo, after, colour, extra)[0] == pytest.approx(
                plain[0], abs=1e-9)
            broken += 1
