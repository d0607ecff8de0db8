"""The circuit on the H-search's graph (``evaluation.vc_graph``): the compiled solve against a
dense numpy solve of the same graph read pair by pair, known positions, and play over HTP."""
import functools
import math
import random

import numpy as np
import pytest

from hexengine.board import BLACK, WHITE
from hexengine.evaluation import resistance, vc_graph
from hexengine.knowledge import vc
from hexengine.positions import random_position
from tests.test_evaluations import _position


def _reference_resistance(geo, stones, colour, division="none", taken=0):
    """The same circuit built independently: every node pair with a full connection
    (``Connections.full_pairs``), groups touching an edge merged into it, a dense solve
    (positions without a winner: no group touches both edges); with ``division``, the
    links it names conduct 1 / (1 + the cells all their carriers share) of their base.
    With ``taken`` (cells the opponent has since played), the connections of ``stones``
    that avoid them."""
    conns = vc.build(geo, stones, colour, vc_graph.LIMITS)
    empty = geo.mask & ~(stones[0] | stones[1] | taken)
    start, goal = geo.edges[colour]
    node_of = {}
    for gid, cells in conns.groups.items():
        node_of[gid] = vc.EDGE_START if cells & start else vc.EDGE_GOAL if cells & goal else gid
    nodes = {vc.EDGE_START: 0, vc.EDGE_GOAL: 1}
    for cell in geo.iter_bits(empty):
        nodes[cell] = len(nodes)
    for gid, node in node_of.items():
        if node == gid:
            nodes[gid] = len(nodes)
    n = len(nodes)
    lap = np.zeros((n, n))
    for a, b in conns.full_pairs():
        if any((x >= 0 and (taken >> x) & 1) for x in (a, b)) or all(
                c & taken for c in conns.full(a, b)):
            continue
        empty_a = a >= 0 and (empty >> a) & 1
        empty_b = b >= 0 and (empty >> b) & 1
        if not (empty_a or empty_b):
            continue
        g = 1.0 if empty_a and empty_b else 2.0
        if division == "all" or (division == "empty" and empty_a and empty_b):
            g /= 1 + bin(functools.reduce(int.__and__, conns.full(a, b))).count("1")
        i, j = nodes[node_of.get(a, a)], nodes[node_of.get(b, b)]
        lap[i, i] += g
        lap[j, j] += g
        lap[i, j] -= g
        lap[j, i] -= g
    keep = [k for k in range(n) if k != 1]  # the goal edge is grounded
    sub = lap[np.ix_(keep, keep)] + vc_graph.LEAK * np.eye(n - 1)
    current = np.zeros(n - 1)
    current[0] = 1.0
    return float(np.linalg.solve(sub, current)[0])


def _keep_circuit_settings(monkeypatch) -> None:
    """The process-wide circuit settings come back as they were after the test."""
    for name in ("LIMITS", "DIVISION", "_band", "_bounds"):
        monkeypatch.setattr(vc_graph, name, getattr(vc_graph, name))


@pytest.mark.parametrize("division, band, bounds",
                         [(d, False, "wide") for d in vc_graph.DIVISIONS]
                         + [("none", True, "wide"), ("all", True, "wide"),
                            ("none", True, "narrow")])
def test_compiled_circuit_matches_a_dense_solve_of_the_same_graph(division, band, bounds,
                                                                  monkeypatch):
    from hexengine import kernels
    kernels.start(wait=True)
    assert vc_graph.ready()
    rng = random.Random(5)
    compared = 0
    _keep_circuit_settings(monkeypatch)
    vc_graph.set_division(division)
    vc_graph.set_band(band)
    vc_graph.set_bounds(bounds)
    for size in (3, 5, 7, 9):
        for _ in range(25):
            board = random_position(size, rng, (0, size * size // 2), random_colours=1,
                                    undecided=False)
            if board.winner() is not None:
                continue
            (r_b, r_w), *_ = vc_graph._resistances(board.geo, board.stones,
                                                   vc_graph.LIMITS)
            for colour, r in ((BLACK, r_b), (WHITE, r_w)):
                expected = _reference_resistance(board.geo, board.stones, colour,
                                                 division)
                if expected >= vc_graph.CUT or r >= vc_graph.CUT:
                    assert expected >= vc_graph.CUT and r >= vc_graph.CUT
                else:
                    assert r == pytest.approx(expected, rel=1e-6, abs=1e-9)
                compared += 1
    assert compared > 150


def test_a_kept_build_read_past_the_opponents_stone_is_the_build_less_that_stone():
    # Held: the build of a position, read for the position after an opponent's stone,
    # keeps exactly the connections that avoid it (against a dense solve of those), and
    # is not used where the colour's own stones differ
    from hexengine import kernels
    kernels.start(wait=True)
    rng = random.Random(11)
    held = vc_graph.Held()
    compared = 0
    for size in (5, 7, 9):
        for _ in range(20):
            board = random_position(size, rng, (0, size * size // 3), random_colours=1,
                                    undecided=False)
            if board.winner() is not None:
                continue
            geo, before = board.geo, board.stones
            empty = geo.mask & ~(before[0] | before[1])
            colour = rng.randrange(2)
            cell = rng.choice(list(geo.iter_bits(empty)))
            after = list(before)
            after[1 - colour] |= 1 << cell
            held.build(geo, before, colour, vc_graph.LIMITS, 0)
            ws, taken = held.read(geo, after, colour, vc_graph.LIMITS, 0, None)
            assert taken == 1 << cell
            (r_b, r_w), *_ = vc_graph._resistances(geo, after, vc_graph.LIMITS, False,
                                                   held, 1, colour, None)
            r = (r_b, r_w)[colour]
            expected = _reference_resistance(geo, before, colour, "none", 1 << cell)
            if expected >= vc_graph.CUT or r >= vc_graph.CUT:
                assert expected >= vc_graph.CUT and r >= vc_graph.CUT
            else:
                assert r == pytest.approx(expected, rel=1e-6, abs=1e-9)
            own_moved = list(before)
            own_moved[colour] |= 1 << cell
            assert held.read(geo, own_moved, colour, vc_graph.LIMITS, 0, None) == (None, 0)
            compared += 1
    assert compared > 40


def test_kept_builds_stay_within_their_memory_and_follow_the_board(monkeypatch):
    from hexengine import kernels
    kernels.start(wait=True)
    small, large = _position(5, ["c3"]), _position(7, ["d4"])
    held = vc_graph.Held()
    monkeypatch.setattr(vc_graph.Held, "BYTES", 0)  # one workspace, then none kept
    held.build(small.geo, small.stones, WHITE, vc_graph.LIMITS, 0)
    held.build(small.geo, small.stones, WHITE, vc_graph.LIMITS, 1)
    assert held.read(small.geo, small.stones, WHITE, vc_graph.LIMITS, 0, None)[1] == 0
    assert held.read(small.geo, small.stones, WHITE, vc_graph.LIMITS, 0, None)[0] is not None
    assert held.read(small.geo, small.stones, WHITE, vc_graph.LIMITS, 1, None) == (None, 0)
    held.build(large.geo, large.stones, WHITE, vc_graph.LIMITS, 1)  # another board: anew
    assert held.read(small.geo, small.stones, WHITE, vc_graph.LIMITS, 0, None) == (None, 0)
    assert held.read(large.geo, large.stones, WHITE, vc_graph.LIMITS, 1, None)[0] is not None


def test_the_division_weakens_a_bridge_to_a_third(monkeypatch):
    # black e5 with an empty board around: with every link divided, e5's bridges conduct a
    # third and the circuit's resistance rises; the empty board stays even either way
    from hexengine import kernels
    kernels.start(wait=True)
    monkeypatch.setattr(vc_graph, "DIVISION", vc_graph.DIVISION)  # (restored afterwards)
    board = _position(9, ["e5"])
    vc_graph.set_division("none")
    plain = vc_graph._resistances(board.geo, board.stones, vc_graph.LIMITS)[0]
    vc_graph.set_division("all")
    divided = vc_graph._resistances(board.geo, board.stones, vc_graph.LIMITS)[0]
    empty = _position(9, [])
    assert vc_graph.connected(empty.geo, empty.stones, BLACK)[0] == pytest.approx(0.0,
                                                                           abs=1e-9)
    assert divided[0] > plain[0] and divided[1] > plain[1]


def test_a_central_stone_outscores_an_edge_stone_and_the_empty_board_is_even():
    from hexengine import kernels
    kernels.start(wait=True)

    def score(*black):
        board = _position(9, black)
        return vc_graph.connected(board.geo, board.stones, BLACK)[0]

    assert score() == pytest.approx(0.0, abs=1e-9)
    assert score("e5") > score("e2") > score("a1") > 0
    assert score("e5") > score("a5")


def test_an_edge_to_edge_chain_of_templates_and_bridges_is_a_win():
    # d2 (template II to the top), bridges d2-c4 and c4-b6, b6 (template II to the bottom)
    from hexengine import kernels
    kernels.start(wait=True)
    board = _position(7, ["d2", "c4", "b6"], ["g7"])
    value, own, opp, must = vc_graph.connected(board.geo, board.stones, BLACK)
    assert (value, own) == (resistance.CLAMP, 2)
    value, own, opp, must = vc_graph.connected(board.geo, board.stones, WHITE)
    assert (value, opp, must) == (-resistance.CLAMP, 2, 0)
    # 5x5: c2 and b4 (templates II to their edges) bridged over b3/c3; white takes b3, so
    # black's one semi connection has the key c3, which white must take
    broken = _position(5, ["c2", "b4"], ["b3"])
    value, own, opp, must = vc_graph.connected(broken.geo, broken.stones, WHITE)
    assert opp == 1 and math.isfinite(value) and abs(value) < resistance.CLAMP
    assert must >> broken.parse_move("c3") & 1
    assert not must >> broken.parse_move("e5") & 1


def test_plays_over_htp_inside_its_budget(make_engine):
    engine = make_engine("--time", "0.5")
    engine.ok("boardsize 9")
    engine.ok("param_hexengine evaluation vc-graph")
    engine.ok("play b c1")
    for colour in ("w", "b", "w"):
        legal = engine.ok("all_legal_moves").split()
        ok, move, elapsed = engine.timed(f"genmove {colour}")
        assert ok and move in legal
        assert move not in engine.ok("all_legal_moves").split()  # it was played
        assert elapsed < 0.5 + 0.5, f"{elapsed:.2f}s for a 0.5 s budget"
    assert "[list/" in engine.ok("param_hexengine") and "vc-graph" in engine.ok(
        "param_hexengine")


def test_graph_order_ranks_the_only_crossing_first():
    # c3 is black's one gap and white's one way across column c (unlike the board circuit,
    # the graph joins the dead corner a1 to whatever black's top group reaches: the search
    # fills such cells in before it asks)
    from hexengine import kernels
    kernels.start(wait=True)
    board = _position(5, ["c1", "c2", "c4", "c5", "b1"], ["a2", "e3"])
    ranked = vc_graph.rank_moves(board.geo, board.stones)
    assert board.move_name(ranked[0]) == "c3"
    assert sorted(ranked) == sorted(board.geo.iter_bits(board.empty))


def test_the_band_adds_connections_along_the_edges_and_changes_the_circuit(monkeypatch):
    # on the empty 9x9 board the band joins second-row cells through their edge: more fully
    # joined pairs for the circuit, and a different resistance
    from hexengine import kernels
    from hexengine.knowledge import hsearch
    kernels.start(wait=True)
    _keep_circuit_settings(monkeypatch)
    board = _position(9, [])

    def joined() -> int:
        ws = hsearch.run(board.geo, board.stones, BLACK, vc_graph.LIMITS)
        return sum(1 for k in ws.used_slots() if ws.fulls(k))

    def resistance_now() -> float:
        return vc_graph._resistances(board.geo, board.stones, vc_graph.LIMITS)[0][0]

    vc_graph.set_band(False)
    plain_pairs, plain = joined(), resistance_now()
    vc_graph.set_band(True)
    band_pairs, band = joined(), resistance_now()
    assert band_pairs > plain_pairs + 50
    assert band < plain


def test_narrower_bounds_keep_fewer_carriers(monkeypatch):
    # graph_bounds: fewer carriers a pair, the cheaper builds; a name not in BOUNDS is refused
    from hexengine import kernels
    from hexengine.knowledge import hsearch
    kernels.start(wait=True)
    _keep_circuit_settings(monkeypatch)
    rng = random.Random(17)
    for _ in range(10):
        board = random_position(9, rng, (10, 30), undecided=False)
        counts = {}
        for bounds in ("wide", "narrow"):
            vc_graph.set_bounds(bounds)
            ws = hsearch.run(board.geo, board.stones, BLACK, vc_graph.LIMITS)
            counts[bounds] = sum(len(ws.fulls(k)) for k in ws.used_slots())
        assert counts["narrow"] < counts["wide"]
    with pytest.raises(ValueError):
        vc_graph.set_bounds("wider")
    assert vc_graph.LIMITS.max_fulls == 6  # the last good setting stands
