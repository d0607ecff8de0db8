"""Combinatorial decompositions: a game position whose fill Wolve reports, soundness
against the exhaustive judge of ``test_inferior``, and what the root analysis and the
solver make of them."""
import random

import pytest

from hexengine import kernels
from hexengine.board import BLACK, WHITE
from hexengine.geometry import geometry
from hexengine.knowledge import analysis, inferior, vc
from hexengine.knowledge.decompose import decomposition, fill_decompositions
from hexengine.solver import Solver, VCKnowledge

from .test_inferior import Solver as Judge
from .test_inferior import random_stones, show

# A 9x9 game against Wolve, white to play after black's e6.  Black's chain h4-g5-f6, with
# g7 below it, runs from the white stones f5/g4 to the bottom edge, and both it and the
# bottom edge touch white's e8 and white's right edge: the region between them is black's.
# Wolve's vc-build (Benzene) fills exactly the cells below for black, and h1 i1 h2 i2 h3
# i3 (behind g2, g3, h4) for white.
GAME = "c1 d5 e5 f3 g3 f4 e4 d7 f6 e8 g7 f5 g5 g4 h4 g2 e6"
BLACK_FILL = "a1 b1 i4 h5 i5 g6 h6 i6 f7 h7 i7 f8 g8 h8 i8 e9 f9 g9 h9 i9"
WHITE_FILL = "h1 i1 h2 i2 h3 i3"


@pytest.fixture(scope="module", autouse=True)
def compiled():
    kernels.start(wait=True)


def game_position(moves=GAME, size=9):
    geo = geometry(size, size)
    return geo, geo.stones(moves.split())


def names(geo, bits):
    return {geo.name(c) for c in geo.iter_bits(bits)}


def test_the_fill_wolve_reports_in_a_game_position():
    geo, stones = game_position()
    filled, _ = inferior.fill_in(geo, stones)
    black = vc.build(geo, filled, BLACK, vc.WIDE_LIMITS)
    carrier = decomposition(geo, filled, BLACK, black)
    assert names(geo, carrier) == set("h7 f8 g8 h8 e9 f9 g9 h9".split())  # g7's template
    after, conns, more = fill_decompositions(geo, filled, (BLACK, WHITE), vc.WIDE_LIMITS)
    added = [after[c] & ~stones[c] for c in (0, 1)]
    assert names(geo, added[BLACK]) == set(BLACK_FILL.split())
    assert names(geo, added[WHITE]) == set(WHITE_FILL.split())
    assert more.captured[BLACK] & carrier == carrier
    assert set(conns) == {BLACK, WHITE}  # built on the final position
    assert decomposition(geo, after, BLACK, conns[BLACK]) == 0
    assert decomposition(geo, after, WHITE, conns[WHITE]) == 0


# Two 11x11 positions of games against Wolve (scripts/positions/11x11-games.txt, 44 and 29),
# black to move, where a group lying on an edge line must count as that edge, as Benzene's
# groups do (the edge is their captain).  In the first, black's group d7-g11 (e11-g11 from
# the fill-in) stands on the bottom row, so white's c7 group and white's left edge both
# touch black's bottom and b7, and white's connection from c7 to the left edge lies in the
# corner between them.  In the
# second, white's group h2-k5 stands on the right edge, so the right edge touches black's
# g8 group and f10 touches it too (by a bridge), and both touch black's bottom.  Wolve's
# vc-build fills these cells (of either colour: the dead ones may take either).
GROUP_ON_BOTTOM = ("b7 c9 d9 d8 f7 f6 e7 e6 d7 e8 f8 e9 f9 d4 d5 d6 h5 g6 h6 g7 i7 h4 f4 e10 "
                   "f10 g4 c5 c7", "a8 b8 c8 a9 b9 a10 b10 c10 d10 a11 b11 c11 d11")
GROUP_ON_RIGHT = ("g4 f6 g6 g5 i4 f8 h7 i3 h4 h2 i2 h3 g2 g3 k2 h8 g8 j3 e4 f4 d6 e5 k3 j4 k4 "
                  "j5 d5 d7 j6 k5 e6 e7 f5 f10 b8 c7 b7 h6 i6 i5 c9 c6 h5 g7",
                  "k6 i7 j7 k7 i8 j8 k8 f9 g9 h9 i9 j9 k9 g10 h10 i10 j10 k10 f11 g11 h11 i11 "
                  "j11 k11")


@pytest.mark.parametrize("moves, fill", [GROUP_ON_BOTTOM, GROUP_ON_RIGHT],
                         ids=["opponent-group-on-its-edge", "own-group-on-its-edge"])
def test_a_group_on_an_edge_line_counts_as_that_edge(moves, fill):
    geo, stones = game_position(moves, 11)
    filled, _ = inferior.fill_in(geo, stones)
    after, _, more = fill_decompositions(geo, filled, (BLACK, WHITE), vc.WIDE_LIMITS)
    added = (after[0] | after[1]) & ~(filled[0] | filled[1])
    assert names(geo, added) == set(fill.split())
    assert more.captured[WHITE]  # white's carrier, counted as captured


def test_nothing_to_decompose_on_an_open_board():
    geo, stones = game_position("e5 c3")
    for colour in (BLACK, WHITE):
        assert decomposition(geo, stones, colour, vc.build(geo, stones, colour)) == 0
    after, conns, more = fill_decompositions(geo, stones, (BLACK, WHITE))
    assert after == stones and more.captured == (0, 0) and set(conns) == {BLACK, WHITE}


def test_a_won_colour_stops_the_work():
    geo, stones = game_position("c3", 5)  # black's c3 on 5x5: joined to both edges
    assert vc.build(geo, stones, BLACK, vc.WIDE_LIMITS).edge_full() is not None
    after, conns, more = fill_decompositions(geo, stones, (BLACK, WHITE), vc.WIDE_LIMITS)
    assert list(conns) == [BLACK] and after == stones and more.captured == (0, 0)


@pytest.mark.parametrize("size,count,lo,hi,least", [(4, 2000, 3, 10, 15), (5, 300, 8, 16, 8)])
def test_filling_a_decomposition_never_changes_the_winner(size, count, lo, hi, least):
    geo = geometry(size, size)
    rng = random.Random(size * 31 + 5)
    judge = Judge(geo)
    fired = 0
    for _ in range(count):
        stones, _ = inferior.fill_in(geo, random_stones(geo, rng, lo, hi))
        if judge.connected(stones[0], BLACK) or judge.connected(stones[1], WHITE):
            continue
        for colour in (BLACK, WHITE):
            carrier = decomposition(geo, stones, colour,
                                    vc.build(geo, stones, colour, vc.WIDE_LIMITS))
            if not carrier:
                continue
            fired += 1
            assert not carrier & (stones[0] | stones[1])
            after = list(stones)
            after[colour] |= carrier
            for to_move in (BLACK, WHITE):
                assert judge.winner(stones, to_move) == judge.winner(after, to_move), (
                    f"{'bw'[colour]} decomposition changed the winner:\n{show(geo, stones)}\n"
                    f"{show(geo, after)}")
    assert fired >= least  # the test must see decompositions, not pass vacuously


def test_the_root_searches_no_cell_of_a_decomposed_region():
    geo, stones = game_position()
    info = analysis.analyse_root(geo, stones, WHITE)
    region = set(BLACK_FILL.split()) | set(WHITE_FILL.split())
    assert not names(geo, info.moves) & region
    assert names(geo, info.stones[BLACK] & ~stones[BLACK]) == set(BLACK_FILL.split())
    assert info.counts()["captured"] >= len("h7 f8 g8 h8 e9 f9 g9 h9".split())


def test_the_solver_proves_a_game_position_wolve_proves():
    """Black to move wins (Wolve's DFPN plays g5 and proves it in 1.6 s).  Without
    decompositions and dominated cells our solver had not proved it in 60 s; with them it
    takes a few seconds here."""
    geo, stones = game_position("c1 d5 e5 f3 g3 f4 e4 d7 f6 e8 g7 f5")
    result = Solver(VCKnowledge()).solve(geo, stones, BLACK, 120)
    assert result.winner == BLACK
    assert result.pv and result.pv[0] == result.move
