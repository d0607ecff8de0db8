"""The DFPN solver: every small opening against an independent exhaustive search, the
published 5×5 result, proof sets, time limits and the stop flag, the player's use, and the
``dfpn-*`` protocol commands (bad input, interruption)."""
import dataclasses
import functools
import random
import re
import threading
import time
from pathlib import Path

import pytest

from hexengine.board import BLACK, WHITE, Board
from hexengine.geometry import geometry
from hexengine.player import Player, Settings
from hexengine.positions import random_position
from hexengine.solver import (KNOWLEDGE, SimpleKnowledge, Solver, knowledge_by_name,
                              winning_cells)
from tests.htpclient import HtpClient

HAVE_VC = type(knowledge_by_name("auto")) is not SimpleKnowledge


# --- an independent exhaustive search ----------------------------------------------------
@functools.lru_cache(maxsize=None)
def exhaustive(geo):
    """``wins(black, white, colour)``: plain negamax over every empty cell with a memo by
    position; a move wins at once when the mover's group through it touches both edges.
    Nothing of the solver's knowledge, only the killer move of each ply tried first."""
    cx, cy = (geo.width - 1) / 2, (geo.height - 1) / 2
    order = sorted(geo.cells, key=lambda i: abs(geo.coords(i)[0] - cx)
                   + abs(geo.coords(i)[1] - cy))
    memo = {}
    killer = [None] * (geo.size + 2)

    def wins(b, w, colour, ply=0):
        key = (b, w, colour)
        r = memo.get(key)
        if r is not None:
            return r
        own = b if colour == BLACK else w
        st, gl = geo.edges[colour]
        occ = b | w
        k = killer[ply]
        r = False
        for m in (order if k is None else [k] + order):
            bit = 1 << m
            if occ & bit:
                continue
            group = geo.flood(bit, own | bit)
            if group & st and group & gl:
                r = True
                break
            child = wins(b | bit, w, WHITE, ply + 1) if colour == BLACK else \
                wins(b, w | bit, BLACK, ply + 1)
            if not child:
                r = True
                killer[ply] = m
                break
        memo[key] = r
        return r
    return wins


def checked_solves(solver, geo, wins, rng, count, stones):
    """Solve ``count`` random positions of ``geo`` (between ``stones`` = (fewest, most)
    stones, a random side to move), each verdict checked against the exhaustive ``wins``;
    yields (board, colour, result)."""
    for _ in range(count):
        board = random_position(geo.width, rng, rng.randint(*stones))
        colour = rng.randint(0, 1)
        result = solver.solve(geo, list(board.stones), colour)
        assert result.solved
        assert (result.winner == colour) == wins(board.stones[0], board.stones[1], colour)
        yield board, colour, result


def _knowledge(name):
    """A knowledge by name, or ``mover``: the default's with the mover's decompositions
    (``VCKnowledge(mover=True)``)."""
    if name != "mover":
        return knowledge_by_name(name)
    if not HAVE_VC:
        pytest.skip("needs hexengine.knowledge (vc, inferior)")
    from hexengine.solver import VCKnowledge
    return VCKnowledge(mover=True)


def connected(geo, stones, colour):
    st, gl = geo.edges[colour]
    return bool(geo.flood(stones[colour] & st, stones[colour]) & gl)


@pytest.mark.parametrize("size", [1, 2, 3, 4])
@pytest.mark.parametrize("knowledge", ["simple", "auto"])
def test_every_opening_matches_exhaustive_search(size, knowledge):
    geo = geometry(size, size)
    wins = exhaustive(geo)
    solver = Solver(_knowledge(knowledge))
    for cell in geo.cells:
        for colour in (BLACK, WHITE):
            stones = [0, 0]
            stones[colour] = 1 << cell
            expected = wins(stones[0], stones[1], 1 - colour)
            if size == 1:
                assert solver.solve(geo, stones, 1 - colour).winner == colour
                continue
            result = solver.solve(geo, stones, 1 - colour)
            assert result.solved
            assert (result.winner == 1 - colour) == expected, geo.name(cell)
            if result.winner == 1 - colour:  # the move it names wins
                child = list(stones)
                child[1 - colour] |= 1 << result.move
                assert connected(geo, child, 1 - colour) or \
                    not wins(child[0], child[1], colour)


def test_4x4_winning_openings_and_find_winning():
    geo = geometry(4, 4)
    solver = Solver(knowledge_by_name("auto"))
    moves, _ = solver.find_winning(geo, [0, 0], BLACK)
    assert sorted(geo.name(m) for m in moves) == ["a4", "b3", "c2", "d1"]
    wins = exhaustive(geo)
    for cell in geo.cells:
        assert (cell in moves) == (not wins(1 << cell, 0, WHITE))


@pytest.mark.parametrize("knowledge,inherit", [("simple", True), ("auto", True),
                                               ("auto", False), ("mover", True)])
def test_proof_sets_hold_whatever_fills_the_other_cells(knowledge, inherit):
    """A proof set S: the winner still wins when the empty cells outside S are filled with
    anything (same stones, same side to move).  Checked by exhaustive search, with the
    cells a node fills kept filled below it (``inherit_fill``) and without."""
    rng = random.Random(7)
    geo = geometry(4, 4)
    wins = exhaustive(geo)
    solver = Solver(_knowledge(knowledge), inherit_fill=inherit)
    checked = 0
    for board, colour, result in checked_solves(solver, geo, wins, rng, 40, (2, 7)):
        outside = [c for c in geo.iter_bits(board.empty & ~result.proof)]
        for _ in range(4):
            stones = list(board.stones)
            for c in outside:
                pick = rng.randint(0, 2)
                if pick < 2:
                    stones[pick] |= 1 << c
            loser = 1 - result.winner
            if connected(geo, stones, loser):
                continue  # the filling joined the loser's edges for it: not a position
            if connected(geo, stones, result.winner):
                checked += 1
                continue
            assert wins(stones[0], stones[1], colour) == (result.winner == colour)
            checked += 1
    assert checked > 50


@pytest.mark.skipif(not HAVE_VC, reason="needs hexengine.knowledge (vc, inferior)")
def test_the_cells_a_node_fills_stay_filled_below_it():
    """As Benzene's board keeps a node's fill-in on the way down, the solver hands a
    node's filled position to its children: there the knowledge sees stones the real
    position lacks, and every verdict stays the exhaustive one (4x4 and 5x5 openings)."""
    seen = {"nodes": 0, "inherited": 0}

    class Recording(type(knowledge_by_name("auto"))):
        def expand(self, geo, stones, colour):
            seen["nodes"] += 1
            if (stones[0], stones[1]) != (solver.b, solver.w):
                seen["inherited"] += 1
                assert stones[0] & solver.b == solver.b and stones[1] & solver.w == solver.w
                assert not stones[0] & stones[1]
            return super().expand(geo, stones, colour)

    rng = random.Random(11)
    geo = geometry(4, 4)
    wins = exhaustive(geo)
    solver = Solver(Recording())
    for _ in checked_solves(solver, geo, wins, rng, 60, (1, 5)):
        pass
    assert seen["inherited"] > 10, seen
    geo = geometry(5, 5)
    black = "e1 b2 c2 d2 e2 b3 c3 d3 a4 b4 c4 d4 a5".split()  # the published 13
    for cell in ("a1", "c3", "b2", "a5", "e1", "a3"):
        solver = Solver(Recording())
        result = solver.solve(geo, [1 << geo.parse(cell), 0], WHITE)
        assert result.winner == (BLACK if cell in black else WHITE), cell


@pytest.mark.skipif(not HAVE_VC, reason="needs hexengine.knowledge (vc, inferior)")
def test_the_focused_solver_of_large_boards_keeps_every_verdict():
    """From 11x11, in solves of at most 10 s, the solver orders each node's moves by the
    opponent's current and considers only the best share of them (Benzene's widening).
    When the default does so; then, forced on 4x4 and 5x5, its verdicts and moves against
    exhaustive search and the 13 winning 5x5 openings."""
    from hexengine.solver.knowledge import FOCUS_SECONDS, WIDENING, VCKnowledge
    assert VCKnowledge().focus(geometry(11, 11), FOCUS_SECONDS) == WIDENING
    assert VCKnowledge().focus(geometry(11, 11), 3 * FOCUS_SECONDS) == 0.0
    assert VCKnowledge().focus(geometry(11, 11), None) == 0.0
    assert VCKnowledge().focus(geometry(9, 9), 1.0) == 0.0
    rng = random.Random(11)
    geo = geometry(4, 4)
    wins = exhaustive(geo)
    solver = Solver(VCKnowledge(order="blocks"), widening=WIDENING)
    for board, colour, result in checked_solves(solver, geo, wins, rng, 60, (1, 6)):
        if result.winner == colour and result.move >= 0:
            child = list(board.stones)
            child[colour] |= 1 << result.move
            assert connected(geo, child, colour) or not wins(child[0], child[1], 1 - colour)
    geo = geometry(5, 5)
    solver = Solver(VCKnowledge(order="blocks"), widening=WIDENING)
    black = [geo.name(cell) for cell in geo.cells
             if solver.solve(geo, [1 << cell, 0], WHITE, seconds=60).winner == BLACK]
    assert black == "e1 b2 c2 d2 e2 b3 c3 d3 a4 b4 c4 d4 a5".split()


def _game_position(number: int):
    """Position ``number`` of the solver's 11x11 set: (its entry, the board, the stones)."""
    from scripts.solver_race import read_positions
    path = Path(__file__).resolve().parent.parent / "scripts/positions/11x11-games.txt"
    p = read_positions(str(path))[number - 1]
    geo = geometry(p.width, p.height)
    return p, geo, geo.stones(placed=p.moves)


@pytest.mark.skipif(not HAVE_VC, reason="needs hexengine.knowledge (vc, inferior)")
@pytest.mark.parametrize("number", [30, 42, 49])
def test_11x11_game_positions_get_wolves_verdict(number):
    """Three positions of the 11x11 set (real games; the verdict after '=' is Wolve's
    DFPN's), which the default solver, focused on that board in a 10 s solve, proves in
    under a second."""
    p, geo, stones = _game_position(number)
    result = Solver(knowledge_by_name("auto")).solve(geo, stones, p.to_move, seconds=10)
    assert result.winner == p.expect, p.text


@pytest.mark.skipif(not HAVE_VC, reason="needs hexengine.knowledge (vc, inferior)")
def test_a_long_solve_on_a_large_board_tries_the_focus_first(monkeypatch):
    """From 11x11, a solve longer than FOCUS_SECONDS (or unbounded) first searches focused
    for FOCUS_FIRST seconds, then every move.  Position 16 of the 11x11 set: the focus
    proves it within 1,000 nodes, every move (widening 0) in 3,536.  With a first try too
    short for it, position 48 is proved by the full search after it."""
    from hexengine.solver import knowledge
    from hexengine.solver.knowledge import FOCUS_FIRST, FOCUS_SECONDS, VCKnowledge
    big, nine = geometry(11, 11), geometry(9, 9)
    assert VCKnowledge().focus_first(big, 3 * FOCUS_SECONDS) == FOCUS_FIRST > 0
    assert VCKnowledge().focus_first(big, None) == FOCUS_FIRST
    assert VCKnowledge().focus_first(big, FOCUS_SECONDS) == 0.0  # focused all along
    assert VCKnowledge().focus_first(nine, None) == 0.0
    assert VCKnowledge(order="centre").focus_first(big, None) == 0.0
    p, geo, stones = _game_position(16)
    result = Solver(VCKnowledge()).solve(geo, stones, p.to_move, seconds=30)
    assert result.winner == p.expect and result.nodes < 1000, p.text
    monkeypatch.setattr(knowledge, "FOCUS_FIRST", 0.01)
    seen = []
    focus = VCKnowledge.focus

    def spied(self, g, seconds=None):
        seen.append(seconds)
        return focus(self, g, seconds)

    monkeypatch.setattr(VCKnowledge, "focus", spied)
    p, geo, stones = _game_position(48)
    result = Solver(VCKnowledge()).solve(geo, stones, p.to_move, seconds=30)
    assert result.winner == p.expect, p.text
    assert seen == [0.01, 30]


@pytest.mark.skipif(not HAVE_VC, reason="needs hexengine.knowledge (vc, inferior)")
@pytest.mark.parametrize("number", [23, 24, 69, 70])
def test_ladder_templates_decide_11x11_game_positions_at_sight(number):
    """Positions of the 11x11 set that Wolve decides at its root: white's group joins
    its edge by a ladder to an escape stone (69: along the second line to d4's region;
    70: d7 along the third line to d3; 23 and 24: c9, with d9 behind it, along the second
    line to d4 on the fourth), a ladder template (``derive_templates.py --ladders``, for
    23 and 24 with ``--behind``). With them the solver's first expansion holds white's
    edge-to-edge connection; without them it left 23, 24 and 69 unproved in 30 s."""
    p, geo, stones = _game_position(number)
    result = Solver(knowledge_by_name("auto")).solve(geo, stones, p.to_move, seconds=10)
    assert result.winner == p.expect == WHITE, p.text
    assert result.nodes <= 1 and not result.searched


@pytest.mark.skipif(not HAVE_VC, reason="needs hexengine.knowledge (vc, inferior)")
def test_5x5_black_wins_with_exactly_13_openings():
    geo = geometry(5, 5)
    solver = Solver(knowledge_by_name("auto"))
    black = []
    for cell in geo.cells:
        result = solver.solve(geo, [1 << cell, 0], WHITE, seconds=60)
        assert result.solved, geo.name(cell)
        if result.winner == BLACK:
            black.append(geo.name(cell))
    assert black == "e1 b2 c2 d2 e2 b3 c3 d3 a4 b4 c4 d4 a5".split()


@pytest.mark.skipif(not HAVE_VC, reason="needs hexengine.knowledge (vc, inferior)")
@pytest.mark.parametrize("option", ["own_semis", "mover"])
def test_own_semi_connections_as_wins_at_sight_keep_results_and_proofs(option):
    """``VCKnowledge(own_semis=True)``: a mover holding an edge-to-edge semi connection wins
    at its key; ``mover=True`` also fills the mover's decompositions first.  Winners and
    proof sets against exhaustive search on random 4x4 positions, and the 13 black 5x5
    openings; some positions are decided that way."""
    from hexengine.solver import VCKnowledge
    options = {option: True}
    rng = random.Random(11)
    geo = geometry(4, 4)
    wins = exhaustive(geo)
    at_sight = 0
    for _ in range(40):
        board = random_position(4, rng, rng.randint(2, 7))
        colour = rng.randint(0, 1)
        known = VCKnowledge(**options)
        status, proof, best, _, _ = known.expand(geo, list(board.stones), colour)
        result = Solver(known).solve(geo, list(board.stones), colour)
        assert result.solved
        assert (result.winner == colour) == wins(board.stones[0], board.stones[1], colour)
        if status == 1 and best >= 0 and board.empty >> best & 1:
            at_sight += 1
            child = list(board.stones)
            child[colour] |= 1 << best  # the key wins
            assert connected(geo, child, colour) or not wins(child[0], child[1], 1 - colour)
            for c in geo.iter_bits(board.empty & ~proof & ~(1 << best)):
                other = list(child)
                other[1 - colour] |= 1 << c  # an opponent stone outside the proof
                assert connected(geo, other, colour) or \
                    not wins(other[0], other[1], 1 - colour)
    assert at_sight >= 3
    geo5 = geometry(5, 5)
    solver = Solver(VCKnowledge(**options))
    black = [geo5.name(c) for c in geo5.cells
             if solver.solve(geo5, [1 << c, 0], WHITE, seconds=60).winner == BLACK]
    assert black == "e1 b2 c2 d2 e2 b3 c3 d3 a4 b4 c4 d4 a5".split()


@pytest.mark.skipif(not HAVE_VC, reason="needs hexengine.knowledge (vc, inferior)")
def test_the_movers_decompositions_prove_an_11x11_position_the_default_does_not():
    """Position 45 of the 11x11 set: Wolve fills the top region for black after j3 by a
    decomposition that needs black's connections *through the edge*; with the mover's
    decompositions and the edge band (a larger work cap) the solver proves it in about a
    hundred nodes, where the default leaves it unproved in 10 s (docs/solver.md)."""
    from hexengine.knowledge import vc
    from hexengine.solver import VCKnowledge
    p, geo, stones = _game_position(45)
    limits = dataclasses.replace(vc.SOLVER_LIMITS, stop_at_win=True, edge_band=True,
                                 work=3_000_000)
    result = Solver(VCKnowledge(limits=limits, mover=True)).solve(geo, stones, p.to_move,
                                                                 seconds=30)
    assert result.winner == p.expect == BLACK, p.text
    assert result.nodes < 1000


@pytest.mark.parametrize("cell,black_wins", [("c3", True), ("a1", False), ("e1", True),
                                             ("a2", False)])
def test_5x5_openings_subset_with_simple_knowledge_pv_replays_to_a_win(cell, black_wins):
    geo = geometry(5, 5)
    solver = Solver(knowledge_by_name("auto" if HAVE_VC else "simple"))
    if not HAVE_VC and cell != "c3":
        pytest.skip("too slow without the connection engine")
    result = solver.solve(geo, [1 << geo.parse(cell), 0], WHITE, seconds=60)
    assert result.winner == (BLACK if black_wins else WHITE)
    # replay the PV: it must end with the winner connected
    board = Board(5)
    board.play(geo.parse(cell), BLACK)
    for move in result.pv:
        board.play(move, board.to_move)
    winner = board.winner()
    if winner is None:  # the PV may stop at a proved position: the solver must agree
        again = solver.solve(geo, list(board.stones), board.to_move)
        winner = again.winner
    assert winner == result.winner


def test_time_limit_and_stop_flag_leave_it_unsolved():
    geo = geometry(9, 9)
    solver = Solver(knowledge_by_name("simple"))
    started = time.monotonic()
    result = solver.solve(geo, [1 << geo.parse("a1"), 0], WHITE, seconds=0.3)
    assert time.monotonic() - started < 1.0
    assert result.winner is None and result.nodes > 0
    stop = threading.Event()
    threading.Timer(0.3, stop.set).start()
    started = time.monotonic()
    result = solver.solve(geo, [0, 0], BLACK, stop=stop)
    assert time.monotonic() - started < 1.5
    assert result.winner is None
    moves, _ = solver.find_winning(geo, [0, 0], BLACK, seconds=0.3)
    assert moves is None


def test_small_table_still_solves_correctly():
    geo = geometry(4, 4)
    wins = exhaustive(geo)
    solver = Solver(knowledge_by_name("simple"), tt_size=200)
    for cell in geo.cells:
        result = solver.solve(geo, [1 << cell, 0], WHITE)
        assert (result.winner == WHITE) == wins(1 << cell, 0, WHITE)
    assert solver.evictions > 0
    assert len(solver.tt) <= 200


def test_proofs_are_kept_and_cleared():
    geo = geometry(4, 4)
    solver = Solver(knowledge_by_name("simple"))
    first = solver.solve(geo, [1 << geo.parse("b2"), 0], WHITE)
    again = solver.solve(geo, [1 << geo.parse("b2"), 0], WHITE)
    assert again.winner == first.winner and again.nodes <= 2
    # the rotated position is the same entry
    rotated = solver.solve(geo, [1 << geo.parse("c3"), 0], WHITE)
    assert rotated.winner == first.winner and rotated.nodes <= 2
    solver.clear()
    assert not solver.tt
    assert solver.solve(geo, [1 << geo.parse("b2"), 0], WHITE).nodes > 2


def test_knowledge_names():
    assert "simple" in KNOWLEDGE and "auto" in KNOWLEDGE
    with pytest.raises(ValueError):
        knowledge_by_name("oracle")


def test_decided_position_and_winning_cells():
    geo = geometry(3, 3)
    stones = [sum(1 << geo.parse(c) for c in ("b1", "b2", "b3")), 0]
    assert winning_cells(geo, stones[0], 0, BLACK) == -1
    assert Solver().solve(geo, stones, WHITE).winner == BLACK
    assert Solver().pv(geo, stones, WHITE) == []


# --- the player --------------------------------------------------------------------------
@pytest.mark.parametrize("size,opening", [(3, None), (4, "b2"), (4, "a4")])
def test_genmove_plays_a_proved_win(size, opening):
    board = Board(size)
    if opening:
        board.play(board.parse_move(opening), BLACK)
    colour = board.to_move
    geo = board.geo
    wins = exhaustive(geo)
    if not wins(board.stones[0], board.stones[1], colour):
        colour = 1 - colour  # play the winning side of this position
    player = Player(Settings(max_time=2))
    # the winning side keeps winning, whatever the other side plays
    rng = random.Random(size)
    while board.winner() is None:
        result = player.genmove(board, colour, 2.0)
        board.play(result.move, colour)
        if board.winner() is not None:
            break
        assert not wins(board.stones[0], board.stones[1], 1 - colour)
        board.play(rng.choice(list(geo.iter_bits(board.empty))), 1 - colour)
    assert board.winner() == colour


def test_settled_moves_agree_with_exhaustive_search():
    """After a solve, the moves the table marks winning and losing really are."""
    geo = geometry(4, 4)
    wins = exhaustive(geo)
    rng = random.Random(8)
    marked = 0
    for _ in range(40):
        board = random_position(4, rng, rng.randint(1, 6))
        colour = board.to_move
        solver = Solver(knowledge_by_name("auto"))
        solver.solve(geo, board.stones, colour)
        winning, losing = solver.settled_moves(geo, board.stones, colour)
        assert not winning & losing
        for m in geo.iter_bits(winning | losing):
            child = list(board.stones)
            child[colour] |= 1 << m
            won = connected(geo, child, colour) or not wins(child[0], child[1], 1 - colour)
            assert won == bool((winning >> m) & 1), geo.name(m)
            marked += 1
    assert marked > 20


def test_search_leaves_out_the_moves_to_avoid():
    from hexengine.search import Searcher
    board = Board(5)
    board.play(board.parse_move("c3"), BLACK)
    searcher = Searcher("resistance", knowledge=True, width=6)
    free = list(board.geo.iter_bits(board.empty))
    first = searcher.search(board, WHITE, max_depth=2)
    best = first.move
    avoid = 1 << best
    assert searcher.search(board, WHITE, max_depth=2, avoid=avoid).move != best
    keep = min(m for m in first.scores if m != best)  # a root move the search considers
    only = board.empty & ~(1 << keep)
    assert searcher.search(board, WHITE, max_depth=2, avoid=only).move == keep
    # nothing left: the search plays anyway
    assert searcher.search(board, WHITE, max_depth=2, avoid=board.empty).move in free


@pytest.mark.skipif(not HAVE_VC, reason="needs the connection engine")
def test_genmove_on_9x9_keeps_a_win_the_solver_sees_early():
    """A 9×9 position from a game against Wolve, after 10 moves: black (to move) has won,
    which the solver proves in a fraction of a second; with the search alone the engine
    played f6 and lost.  genmove must play a winning move."""
    board = Board(9)
    for name in "h2 g4 h5 h3 c6 b8 d7 d6 c7 c9".split():
        board.play(board.parse_move(name))
    geo = board.geo
    referee = Solver(knowledge_by_name("auto"))
    assert referee.solve(geo, board.stones, BLACK, 60).winner == BLACK
    result = Player(Settings(max_time=3)).genmove(board, BLACK, 3.0)
    child = list(board.stones)
    child[BLACK] |= 1 << result.move
    assert Solver(knowledge_by_name("auto")).solve(geo, child, WHITE, 60).winner == BLACK, \
        geo.name(result.move)


# --- protocol ----------------------------------------------------------------------------
def test_dfpn_commands(make_engine):
    engine = make_engine("--time", "1")
    engine.ok("boardsize 4")
    engine.ok("play b a4")
    assert engine.ok("dfpn-solve-state white") == "black"
    assert engine.ok("dfpn-solve-state black") == "black"
    pv = engine.ok("dfpn-get-pv white").split()
    assert pv and all(len(m) == 2 for m in pv)
    engine.ok("undo")
    assert engine.ok("dfpn-solver-find-winning black") == "d1 c2 b3 a4"
    engine.ok("play b b2")
    assert engine.ok("dfpn-solve-state w") == "white"
    assert engine.ok("dfpn-solver-find-winning white").split()  # some reply wins
    assert engine.ok("dfpn-solver-find-winning black").split()  # black to move again wins
    assert engine.ok("dfpn-clear-tt") == ""
    assert engine.ok("dfpn-get-pv white") == ""  # nothing known after clearing
    engine.ok("param_hexengine solver_time 7.5")
    assert "solver_time 7.5" in engine.ok("param_hexengine")
    for name in ("dfpn-solve-state", "dfpn-solver-find-winning", "dfpn-get-pv",
                 "dfpn-clear-tt"):
        assert engine.ok(f"known_command {name}") == "true"
    assert "dfpn-solve-state %m" in engine.ok("hexgui-analyze_commands")


@pytest.mark.parametrize("cmd,words", [
    ("dfpn-solve-state", ["wrong number"]),
    ("dfpn-solve-state red", ["invalid colour"]),
    ("dfpn-solve-state black white", ["wrong number"]),
    ("dfpn-solver-find-winning", ["wrong number"]),
    ("dfpn-solver-find-winning 3", ["invalid colour"]),
    ("dfpn-get-pv", ["wrong number"]),
    ("dfpn-get-pv x", ["invalid colour"]),
    ("dfpn-clear-tt now", ["wrong number"]),
    ("param_hexengine solver_time 0", ["solver_time"]),
    ("param_hexengine solver_time soon", ["solver_time"]),
])
def test_dfpn_bad_input_leaves_the_board(make_engine, cmd, words):
    engine = make_engine("--time", "1")
    engine.ok("boardsize 5")
    engine.ok("play b c3")
    before = engine.ok("showboard")
    message = engine.error(cmd)
    for word in words:
        assert word in message, message
    assert engine.ok("showboard") == before


def test_dfpn_on_a_finished_game(make_engine):
    engine = make_engine("--time", "1")
    engine.ok("boardsize 3")
    for cell in ("b1", "b2", "b3"):
        engine.ok(f"play b {cell}")
    before = engine.ok("showboard")
    for cmd in ("dfpn-solve-state white", "dfpn-solver-find-winning white",
                "dfpn-get-pv black"):
        assert "game is over" in engine.error(cmd)
    assert engine.ok("showboard") == before


# white to move after black e5: with black to move the solver proves black's win at once
# (d5 joins both edges by derived 5th-row templates)
@pytest.mark.parametrize("cmd,reply", [("dfpn-solve-state white", (True, "unknown")),
                                       ("dfpn-solver-find-winning white", (False, None))])
def test_interrupted_solve(make_engine, cmd, reply):
    engine = make_engine("--time", "1")
    engine.ok("boardsize 9")
    engine.ok("play b e5")
    engine.ok("param_hexengine solver_time 60")
    before = engine.ok("showboard")
    started = time.monotonic()
    engine.write(f"5 {cmd}\n")
    time.sleep(1.0)
    engine.write("# interrupt\n")
    interrupted = time.monotonic()
    ok, text, cmd_id = engine.read_reply(timeout=10)
    assert time.monotonic() - interrupted < 1.0
    assert time.monotonic() - started >= 0.9
    assert cmd_id == "5" and ok == reply[0]
    if ok:
        assert text == reply[1]
    else:
        assert "interrupted" in text
    assert engine.ok("showboard") == before
    assert engine.ok("name") == "hexengine"


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_VC, reason="needs hexengine.knowledge (vc, inferior)")
def test_6x6_every_opening():
    """All 36 one-stone 6×6 openings (about two minutes): black wins with these 24, the
    set MoHex's DFPN solver gives on this machine."""
    geo = geometry(6, 6)
    solver = Solver(knowledge_by_name("auto"))
    black = []
    for cell in geo.cells:
        result = solver.solve(geo, [1 << cell, 0], WHITE, seconds=300)
        assert result.solved, geo.name(cell)
        if result.winner == BLACK:
            black.append(geo.name(cell))
    assert black == ("f1 b2 c2 d2 e2 f2 a3 b3 c3 d3 e3 f3 a4 b4 c4 d4 e4 f4 "
                     "a5 b5 c5 d5 e5 a6").split()


@pytest.mark.parametrize("opening", ["e2", "e1", "a5"])
def test_a_proved_loss_is_answered_with_the_most_stubborn_move(opening):
    """White to move after these 5×5 openings has lost.  genmove answers with the move
    whose refutation needs the most cells, every candidate's refutation proved afresh.
    (After b3, c3 or d3 black's semi connections leave white an empty mustplay: lost at
    sight, and the search picks the answer.)"""
    board = Board(5)
    board.play(board.geo.parse(opening))
    player = Player(Settings(max_time=5))
    result = player.genmove(board, WHITE, 5.0)
    assert result.proved and result.score < 0
    geo = board.geo
    from hexengine.knowledge import vc
    must = vc.mustplay(geo, board.stones, WHITE)
    assert (must >> result.move) & 1
    sizes = {}
    for cell in geo.iter_bits(must):
        stones = list(board.stones)
        stones[WHITE] |= 1 << cell
        refutation = Solver(knowledge_by_name()).solve(geo, stones, BLACK, 20)
        assert refutation.winner == BLACK
        sizes[cell] = refutation.proof.bit_count() if refutation.searched else -1
    assert sizes[result.move] == max(sizes.values())


def _lost_three_by_three(tmp_path):
    """A 3×3 game's record (results.jsonl in ``tmp_path``): black, the engine "ours", opens
    in the corner on the empty board (a win) and loses once white holds b2."""
    import json
    moves = [("black", "a1"), ("white", "b2"), ("black", "c1"), ("white", "a2"),
             ("black", "b3"), ("white", "c2")]
    game = {"game": 0, "black": "ours", "white": "other", "size": "3x3", "winner": "other",
            "reason": "connection",
            "moves": [{"colour": c, "move": m, "by": "ours" if c == "black" else "other"}
                      for c, m in moves]}
    results = tmp_path / "results.jsonl"
    results.write_text(json.dumps(game) + "\n")
    return results


@pytest.mark.parametrize("over_htp", [False, True])
def test_perfect_play_script_finds_where_a_lost_game_turned(tmp_path, over_htp):
    """``scripts/perfect_play.py --turning-points`` on a 3×3 game: black (the engine) starts
    on the empty board, a win, opens in the corner and has lost once white holds b2.  The
    same verdicts come from another engine's ``dfpn-solve-state`` over HTP (``--solver``;
    here our own engine as that other)."""
    import subprocess
    import sys
    from pathlib import Path
    results = _lost_three_by_three(tmp_path)
    script = Path(__file__).resolve().parent.parent / "scripts" / "perfect_play.py"
    external = ["--solver", f"{sys.executable} -m hexengine --quiet",
                "--solver-init", "param_hexengine solver_time {seconds}"] if over_htp else []
    out = subprocess.run([sys.executable, str(script), str(results), "--engine", "ours",
                          "--turning-points", "--from", "0", *external,
                          "--blunders", str(tmp_path / "blunders.txt")], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "won at move 0" in out.stdout and "lost at move 2" in out.stdout
    assert "last won at move 0 (a1 played)" in out.stdout
    assert "1 games lost, 1 of them from a position proved won" in out.stdout
    assert "first turn proved lost: 1 games, move 2 in the median" in out.stdout
    sys.path.insert(0, str(script.parent))
    from solver_race import read_positions
    (blunder,) = read_positions(str(tmp_path / "blunders.txt"))
    assert blunder.moves == [] and blunder.expect == 0  # the empty board, black wins


def test_probe_rate_script_counts_proofs_by_stones_on_the_board(tmp_path):
    """``scripts/probe_rate.py`` on the lost 3×3 game: the engine's turn on the empty board
    is proved won, its turn with two stones (white holding b2) proved lost, its turn with
    four won again (white's a2 let c2 in)."""
    import subprocess
    import sys
    from pathlib import Path
    results = _lost_three_by_three(tmp_path)
    script = Path(__file__).resolve().parent.parent / "scripts" / "probe_rate.py"
    out = subprocess.run([sys.executable, str(script), str(results), "--engine", "ours",
                          "--bands", "0,2,4,5", "--seconds", "5"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0].startswith("0-1 stones: 1 positions, proved won 1, lost 0, not proved 0")
    assert lines[1].startswith("2-3 stones: 1 positions, proved won 0, lost 1, not proved 0")
    assert lines[2].startswith("4-4 stones: 1 positions, proved won 1, lost 0, not proved 0")


def test_solve_games_script_proves_game_positions_as_the_judge_does(tmp_path):
    """``scripts/solve_games.py`` on a 4×4 game: every position after 3 and 5 moves is
    judged by another engine's ``dfpn-solve-state`` (our own engine over HTP), then proved
    by the solver; the verdicts agree, and a position is counted once."""
    import json
    import subprocess
    import sys
    from pathlib import Path
    moves = [("black", "b3"), ("white", "c2"), ("black", "c3"), ("white", "b2"),
             ("black", "a2"), ("white", "d2"), ("black", "a4")]
    game = {"game": 0, "black": "ours", "white": "other", "size": "4x4", "winner": "ours",
            "reason": "connection",
            "moves": [{"colour": c, "move": m, "by": "ours" if c == "black" else "other"}
                      for c, m in moves]}
    results = tmp_path / "results.jsonl"
    results.write_text((json.dumps(game) + "\n") * 2)  # the same game twice
    script = Path(__file__).resolve().parent.parent / "scripts" / "solve_games.py"
    out = subprocess.run([sys.executable, str(script), str(results), "--plies", "3,5",
                          "--limit", "20", "--judge", f"{sys.executable} -m hexengine --quiet",
                          "--judge-init", "param_hexengine solver_time {seconds}"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "proved 2 of 2 positions within 20 s (0 against the judge)" in out.stdout
    assert "  3 b3 c2 c3: white to move" in out.stdout


def test_genmove_leaves_larger_boards_to_the_search_until_the_h_search_is_compiled():
    """Before the compiled H-search has loaded, one solver node on 11x11 can outlast a
    whole move (a game was lost on time so): the solver is asked only on boards up to 6x6
    then, and on every board once it has loaded."""
    from hexengine import kernels
    from hexengine.knowledge import hsearch
    from hexengine.solver import solve_for_move
    kernels.start(wait=True)
    geo = geometry(11, 11)
    stones = [0, 0]
    for i, cell in enumerate(geo.cells[:100]):  # a full-looking board, 21 cells empty
        stones[(i + i // 11) % 2] |= 1 << cell
    small = geometry(4, 4)
    with hsearch.python_only():
        assert solve_for_move(Solver(knowledge_by_name()), geo, stones, BLACK, 1.0) is None
        assert solve_for_move(Solver(knowledge_by_name()), small, [0, 0], BLACK, 1.0) \
            is not None
    assert solve_for_move(Solver(knowledge_by_name()), geo, stones, BLACK, 1.0) is not None


def test_a_just_started_engine_solves_as_one_whose_kernels_have_loaded():
    """``dfpn-solve-state`` sent the moment the engine starts waits for the compiled
    H-search and fill-in (dominated cells are pruned only once the fill-in has loaded), so
    it searches exactly the nodes of the same solve run again later."""
    client = HtpClient()
    try:
        for line in ("boardsize 7", "play b a1", "param_hexengine solver_time 60"):
            client.ok(line)
        counts = []
        for _ in range(2):
            client.ok("dfpn-clear-tt")
            assert client.ok("dfpn-solve-state white", timeout=90) == "white"
            client.ok("version")  # the log is written before the reply
            log = Path(client.log.name).read_text()
            found = re.findall(r"to move: white \(nodes (\d+)", log)
            counts.append(int(found[-1]))
        assert counts[0] == counts[1]
    finally:
        client.close()


@pytest.mark.parametrize("cells, settles, attempts", [
    (36, True, ["quick"]),  # 6x6: the Python code settles it at once, no wait
    (36, False, ["quick", "wait", "wait", "rest"]),  # not settled: the waits, the rest
    (49, True, ["wait", "wait", "rest"]),  # 7x7: the waits (H-search, fill-in) first
])
def test_a_small_board_is_tried_on_the_python_code_before_waiting_for_the_kernels(
        monkeypatch, cells, settles, attempts):
    """``Player.solve_soon`` in an engine whose kernels are still loading: boards up to 6x6
    get QUICK_TRY seconds of the Python code first and wait only if that settled nothing;
    larger ones wait for the kernels first; one whose kernels have loaded never waits."""
    from hexengine import kernels, player
    seen = []

    def wait(timeout, kernel="", stop=None):
        if timeout > 0:
            seen.append("wait")
        return False  # (still loading)

    monkeypatch.setattr(kernels, "wait", wait)

    def attempt(seconds):
        seen.append("quick" if seconds <= player.QUICK_TRY else "rest")
        return settles if seen[-1] == "quick" else True

    assert player.Player().solve_soon(attempt, bool, 10.0, None, cells)
    assert seen == attempts
    seen.clear()
    monkeypatch.setattr(kernels, "wait", lambda timeout, kernel="", stop=None: True)
    player.Player().solve_soon(attempt, bool, 10.0, None, cells)
    assert seen == ["rest"]  # loaded: one attempt with the whole budget


def test_a_focused_11x11_solve_runs_on_the_python_h_search(monkeypatch):
    """Before the compiled H-search has loaded (a script that solves at once), the builds
    are Python ones: the focused order of a short 11×11 solve, which reads a compiled
    build's circuit, then orders centre-first instead of failing."""
    from hexengine.knowledge import hsearch
    monkeypatch.setattr(hsearch, "ready", lambda: False)
    geo = geometry(11, 11)
    moves = ["f6", "e7", "d4", "g3", "c8", "h5", "e5", "f4", "f5", "g4"]
    solver = Solver(knowledge_by_name())
    result = solver.solve(geo, geo.stones(moves), BLACK, seconds=0.5)
    assert result.nodes >= 1 and result.winner in (None, BLACK, WHITE)
