"""Corner pockets (``hexengine.knowledge.corners``): the cells they fill, where they do not
apply, and, since we have no proof of our own, solving with and without them."""
from __future__ import annotations

import random

import pytest

from hexengine import kernels
from hexengine.board import BLACK, WHITE
from hexengine.geometry import geometry
from hexengine.knowledge.corners import corner_patterns, corner_pockets
from hexengine.solver import Solver as DFPN
from hexengine.solver import VCKnowledge
from hexengine.solver.knowledge import winning_cells

from .test_inferior import Solver, names, placed_positions, position, show


def test_a_third_row_stone_fills_the_acute_corner_behind_it():
    # white d5 beside the corner f6 (6x6, after the opening a3): Benzene's compute-fillin
    # fills f4 f5 f6 white and d6 e6 black, leaving e5
    geo, stones = position(6, "a3", "d5")
    after, (black, white) = corner_pockets(geo, stones)
    assert names(geo, white) == {"f4", "f5", "f6"} and names(geo, black) == {"d6", "e6"}
    assert after == [stones[BLACK] | black, stones[WHITE] | white]
    # black b3 beside a1: a1 b1 c1 black, a2 a3 white; b2, c2 and d1 stay empty
    geo, stones = position(5, "b3", "")
    _, (black, white) = corner_pockets(geo, stones)
    assert names(geo, black) == {"a1", "b1", "c1"} and names(geo, white) == {"a2", "a3"}
    # every board from 4x4 has the pattern at each acute corner of each colour's edges
    for width, height in ((4, 4), (7, 5), (11, 11)):
        patterns = corner_patterns(width, height)
        assert sorted(p.colour for p in patterns) == [BLACK, BLACK, WHITE, WHITE]
        for p in patterns:
            assert p.own | p.other | p.stone == p.own ^ p.other ^ p.stone  # disjoint
            assert (p.own | p.other) & ~p.empty == 0
    assert corner_patterns(3, 3) == ()


@pytest.mark.parametrize("black,white", [
    ("b3 c2", ""),  # c2 taken: not sound without it empty (two 6x6 openings go wrong)
    ("b3", "d1"),  # d1 taken
    ("b3", "b2"),  # the key cell taken
    ("", "b3"),  # the stone the other colour's
    ("b2", ""),  # no stone on the third row
])
def test_no_pocket_without_its_stone_and_empty_cells(black, white):
    geo, stones = position(6, black, white)
    _, (b, w) = corner_pockets(geo, stones)
    assert b == w == 0, (names(geo, b), names(geo, w))


def pocket_positions(geo, rng, count, lo, hi, connected):
    """``count`` positions holding one corner pocket (its stone placed, its cells empty)
    with lo..hi random stones elsewhere, neither side connected."""
    shapes = [(pat.colour, pat.stone, pat.empty, pat)
              for pat in corner_patterns(geo.width, geo.height)]
    for stones, _ in placed_positions(geo, rng, shapes, count, lo, hi, connected):
        yield stones


@pytest.mark.parametrize("size,count,lo,hi", [(4, 300, 0, 6), (5, 40, 9, 13)])
def test_corner_pockets_never_change_the_winner(size, count, lo, hi):
    """Filled or not, the same winner whoever moves (the exhaustive judge)."""
    geo = geometry(size, size)
    judge = Solver(geo)
    rng = random.Random(size * 7 + 3)
    for stones in pocket_positions(geo, rng, count, lo, hi,
                                   lambda s, c: judge.connected(s[c], c)):
        after, _ = corner_pockets(geo, stones)
        for to_move in (BLACK, WHITE):
            assert judge.winner(stones, to_move) == judge.winner(after, to_move), (
                f"{'bw'[to_move]} to move:\n{show(geo, stones)}")


def test_corner_pockets_never_change_the_winner_on_6x6():
    """The same on 6x6, judged by the solver without the pockets."""
    kernels.start(wait=True)
    geo = geometry(6, 6)
    rng = random.Random(66)

    def connected(stones, colour):
        return winning_cells(geo, stones[colour], geo.mask & ~(stones[0] | stones[1]),
                             colour) == -1

    def winner(stones, to_move):
        result = DFPN(VCKnowledge(corners=False)).solve(geo, list(stones), to_move, 60)
        assert result.winner is not None
        return result.winner

    for stones in pocket_positions(geo, rng, 12, 6, 14, connected):
        after, _ = corner_pockets(geo, stones)
        for to_move in (BLACK, WHITE):
            assert winner(stones, to_move) == winner(after, to_move), (
                f"{'bw'[to_move]} to move:\n{show(geo, stones)}")
