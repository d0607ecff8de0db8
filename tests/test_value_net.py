"""The learned value network: its input planes, its numpy forward pass, the shipped
weights on solver-proved positions, and its use by the engine over the protocol."""
from __future__ import annotations

import json
import os
import random

import numpy as np
import pytest

from hexengine.board import Board
from hexengine.evaluation import network, planes
from hexengine.geometry import geometry, hex_distance
from hexengine.learning.cases import board_of

DATA = os.path.join(os.path.dirname(__file__), "data", "value_positions.json")


def random_board(size, stones: int, seed: int) -> Board:
    """``stones`` random stones, alternately black and white, on a ``size`` board (N or
    (width, height))."""
    rng = random.Random(seed)
    board = Board(*size) if isinstance(size, tuple) else Board(size)
    cells = list(board.geo.cells)
    rng.shuffle(cells)
    for i, cell in enumerate(cells[:stones]):
        board.play(cell, i % 2)
    return board


@pytest.mark.parametrize("size,stones,seed", [(5, 6, 1), (9, 20, 2), (11, 33, 3)])
def test_planes_see_the_mover_as_black(size, stones, seed):
    """White to move on a board is black to move on its transpose with colours exchanged:
    the network must see the same planes for both."""
    board = random_board(size, stones, seed)
    geo = board.geo
    twin = Board(size)
    for colour in (0, 1):
        for cell in geo.iter_bits(board.stones[colour]):
            c, r = geo.coords(cell)
            twin.play(geo.index(r, c), 1 - colour)
    assert np.array_equal(planes.encode(geo, board.stones, 1),
                          planes.encode(geo, twin.stones, 0))
    assert not np.array_equal(planes.encode(geo, board.stones, 0),
                              planes.encode(geo, board.stones, 1))


@pytest.mark.parametrize("size,stones,seed", [(5, 6, 1), (11, 40, 2), ((9, 5), 12, 3)])
def test_cells_and_stones_are_each_others_inverse(size, stones, seed):
    board = random_board(size, stones, seed)
    cells = planes.cells_of(board.geo, board.stones)
    assert planes.stones_of(board.geo, cells) == list(board.stones)


def test_planes_frame_the_board_with_the_movers_edges():
    geo = geometry(3, 3)
    board = Board(3)
    board.play(geo.index(0, 0), 0)  # a1 black
    x = planes.encode(geo, board.stones, 0)
    assert x.shape == (planes.PLANES, 5, 5)
    assert x[0, 0, 1:4].tolist() == [1, 1, 1] and x[0, 4, 1:4].tolist() == [1, 1, 1]
    assert x[1, 1:4, 0].tolist() == [1, 1, 1] and x[1, 1:4, 4].tolist() == [1, 1, 1]
    assert x[0, 1, 1] == 1 and x[2, 1, 1] == 0 and x[2].sum() == 8 and x[3].sum() == 9
    y = planes.encode(geo, board.stones, 1)  # white to move: black's a1 is the opponent's
    assert y[1, 1, 1] == 1 and y[0, 1, 1] == 0


def test_hex_convolution_reads_exactly_the_hex_neighbours():
    """The seven taps against the engine's own neighbour table."""
    size = 6
    geo = geometry(size, size)
    rng = np.random.default_rng(4)
    x = rng.normal(size=(1, 1, size, size)).astype(np.float32)
    weight = rng.normal(size=(1, 7)).astype(np.float32)
    centre, rest = weight[0, 0], weight[0, 1:]
    out = network._hex_conv(x, weight, np.zeros(1, np.float32))[0, 0]
    for cell in geo.cells:
        c, r = geo.coords(cell)
        got = out[r, c]
        taps = {(dr, dc): w for (dr, dc), w in zip(network.TAPS[1:], rest)}
        want = centre * x[0, 0, r, c]
        for nb in geo.neighbours[cell]:
            nc, nr = geo.coords(nb)
            want += taps[(nr - r, nc - c)] * x[0, 0, nr, nc]
        assert got == pytest.approx(want, abs=1e-5)


def shipped():
    net = network.network()
    if net is None:
        pytest.fail(f"no weights at {network.DEFAULT_WEIGHTS}")
    return net


def test_shipped_weights_are_small_and_load():
    assert os.path.getsize(network.DEFAULT_WEIGHTS) < 10_000_000
    net = shipped()
    assert net.blocks >= 1 and net.channels >= 8


def test_network_judges_proved_positions():
    """Positions the solver proved, from games the network never trained on: the network's
    sign must agree with the proof far more often than chance, on every size."""
    with open(DATA) as f:
        cases = json.load(f)
    net = shipped()
    by_size: dict[int, list[bool]] = {}
    for case in cases:
        board, mover, wins = board_of(case)
        right = (net.logit(board.geo, board.stones, mover) > 0) == wins
        by_size.setdefault(case["size"], []).append(right)
    for size, hits in by_size.items():
        assert len(hits) >= 20
        assert sum(hits) / len(hits) >= 0.75, f"{size}x{size}: {sum(hits)}/{len(hits)}"


@pytest.mark.parametrize("setting", ["evaluation net-graph", "evaluation net-circuit",
                                     "ordering policy"])
def test_engine_searches_with_the_network(engine, setting):
    """With the network's value at the leaves, or its move head ordering each node."""
    engine.ok(f"param_hexengine {setting}")
    assert setting in engine.ok("param_hexengine")
    engine.ok("boardsize 7")
    for cell in ("d1", "d2", "d3", "d5", "d6", "d7"):
        engine.ok(f"play b {cell}")
    engine.ok("play w a1")
    assert engine.ok("genmove w") == "d4"  # the one block
    engine.ok("play b a2")
    engine.ok("undo")
    engine.ok("undo")
    assert engine.ok("genmove b") == "d4"  # the win
    engine.ok("clear_board")
    engine.ok("boardsize 9")
    engine.ok("play b e5")
    legal = engine.ok("all_legal_moves").split()
    ok, move, elapsed = engine.timed("genmove w")
    assert ok and move in legal
    assert elapsed < 1.5


@pytest.mark.parametrize("size,within", [(9, 2), (11, 2), (13, 3)])
def test_first_move_without_swap_is_central(engine, size, within):
    engine.ok(f"boardsize {size}")
    move = engine.ok("genmove b")
    geo = geometry(size, size)
    c, r = geo.coords(Board(size).parse_move(move))
    centre = (size - 1) // 2
    assert hex_distance(c - centre, r - centre) <= within, move


def transposed(board: Board) -> Board:
    """The same position with rows and columns exchanged and the colours swapped."""
    geo = board.geo
    twin = Board(board.height, board.width)
    for colour in (0, 1):
        for cell in geo.iter_bits(board.stones[colour]):
            c, r = geo.coords(cell)
            twin.play(twin.geo.index(r, c), 1 - colour)
    return twin


@pytest.mark.parametrize("size,stones,seed", [(7, 8, 1), (9, 20, 2), (11, 31, 3),
                                              ((7, 9), 12, 4), ((9, 5), 10, 5)])
def test_move_head_reads_white_as_the_transposed_black(size, stones, seed):
    """The move head ranks exactly the empty cells, and white's ranking on a board is
    black's on its transpose, cell for cell (rectangular boards too)."""
    net = shipped()
    board = random_board(size, stones, seed)
    geo = board.geo
    white = net.ranked_moves(geo, board.stones, 1)
    assert sorted(white) == sorted(geo.iter_bits(board.empty))
    twin = transposed(board)
    black = net.ranked_moves(twin.geo, twin.stones, 0)
    flip = {cell: twin.geo.index(*reversed(geo.coords(cell))) for cell in geo.cells}
    assert [flip[c] for c in white[:10]] == black[:10]


def test_move_head_blocks_the_one_cell_that_saves_the_game():
    """Black's chain joins top and bottom but for one cell two or more rows from either
    edge; white, to move, must take that cell (any other move loses at once).  The move
    head's first choice must be it in nearly every such position."""
    net = shipped()
    hits = []
    for seed in range(40):
        rng = random.Random(seed)
        size = rng.choice([7, 9, 11])
        board = Board(size)
        geo = board.geo
        col, gap = rng.randrange(1, size - 1), rng.randrange(2, size - 2)
        for row in range(size):
            if row != gap:
                board.play(geo.index(col, row), 0)
        others = [c for c in geo.cells if geo.coords(c)[0] != col]
        rng.shuffle(others)
        for cell in others[:size - 2]:
            board.play(cell, 1)
        hits.append(net.ranked_moves(geo, board.stones, 1)[0] == geo.index(col, gap))
    assert sum(hits) >= 36, f"{sum(hits)} of {len(hits)}"


def test_policy_ordering_is_refused_where_the_weights_have_no_move_head(monkeypatch):
    from hexengine.player import Player
    from hexengine.search import Searcher

    arrays = dict(np.load(network.DEFAULT_WEIGHTS))
    for name in ("policy.w", "policy.b"):
        arrays.pop(name, None)
    headless = network.ValueNetwork(arrays)
    monkeypatch.setattr(network, "network", lambda path=network.DEFAULT_WEIGHTS: headless)
    player = Player()
    with pytest.raises(ValueError, match="move head"):
        player.configure("ordering", "policy")
    assert player.settings.ordering == "auto"
    with pytest.raises(ValueError, match="move head"):
        Searcher("vc-graph", ordering="policy")


def circuit_reading(weight: float, column: float) -> network.ValueNetwork:
    """The shipped value network made to read the circuit: ``column`` in every hidden
    unit's new input and the circuit's value added at ``weight``."""
    with np.load(network.DEFAULT_WEIGHTS) as data:
        arrays = {name: data[name] for name in data.files}
    fc1 = arrays["fc1.w"]
    arrays["fc1.w"] = np.concatenate([fc1, np.full((fc1.shape[0], 1), column, np.float32)],
                                     axis=1)
    arrays["circuit.w"] = np.array(weight, np.float32)
    return network.ValueNetwork(arrays)


def test_a_network_reading_the_circuit_adds_its_value_with_its_weight():
    """With a zero column, the circuit's value moves the logit by exactly its weight times
    the value; with another column, through the hidden layer too; without the value such
    a network refuses to run."""
    board = random_board(9, 14, 6)
    x = planes.encode(board.geo, board.stones, 0)[None]
    base = float(shipped().logits(x)[0])
    net = circuit_reading(0.75, 0.0)
    for value in (-3.0, 0.0, 2.5):
        got = float(net.logits(x, np.array([value]))[0])
        assert got == pytest.approx(base + 0.75 * value, abs=1e-4)
    bent = circuit_reading(0.75, 1.0)
    assert float(bent.logits(x, np.array([2.5]))[0]) != pytest.approx(base + 0.75 * 2.5,
                                                                     abs=1e-3)
    with pytest.raises(ValueError):
        net.logit(board.geo, board.stones, 0)


def test_shipped_circuit_network_corrects_the_circuit():
    """The shipped net-circuit weights read the circuit; a position is judged as a search
    leaf judges it (filled in, its circuit solved; decided by its connections where they
    decide it); and they name the winner of the proved positions as well as the value
    network is required to."""
    from hexengine.evaluation import vc_graph
    from hexengine.knowledge import inferior
    net = network.circuit_network()
    assert net.circuit is not None
    assert os.path.getsize(network.CIRCUIT_WEIGHTS) < 10_000_000
    open_seen = decided_seen = 0
    for seed in range(12):
        board = random_board(9, 10 + 4 * seed, seed)
        if board.winner() is not None:
            continue
        geo = board.geo
        filled = inferior.play_fill_in(geo, board.stones)[0]
        value, own, opp, _ = vc_graph.connected(geo, filled, 0)
        got = network.corrected(geo, board.stones, 0)
        if own == 2 or opp == 2:
            decided_seen += 1
            assert got == value and abs(value) == pytest.approx(12.0)
        else:
            open_seen += 1
            assert got == pytest.approx(net.logit(geo, filled, 0, value))
    assert open_seen and decided_seen
    with open(DATA) as f:
        cases = json.load(f)
    by_size: dict[int, list[bool]] = {}
    for case in cases:
        board, mover, wins = board_of(case)
        right = (network.corrected(board.geo, board.stones, mover) > 0) == wins
        by_size.setdefault(case["size"], []).append(right)
    for size, hits in by_size.items():
        assert sum(hits) / len(hits) >= 0.75, f"{size}x{size}: {sum(hits)}/{len(hits)}"


def test_the_circuit_reading_network_sees_a_position_and_its_mirror_alike():
    """Given the same circuit value, the network gives a position with black to move and
    its mirror (transposed, colours exchanged) with white to move the same logit."""
    net = network.circuit_network()
    for seed, value in ((1, -2.0), (2, 0.3), (3, 4.0)):
        board = random_board(9, 12 + seed, seed)
        twin = transposed(board)
        assert net.logit(twin.geo, twin.stones, 1, value) == pytest.approx(
            net.logit(board.geo, board.stones, 0, value), abs=1e-4)
