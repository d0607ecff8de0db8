"""Match statistics and openings against known values."""
import math
import random

import pytest

from protocol.match import stats
from protocol.match.openings import (OpeningError, check_opening, every_cell, random_openings,
                                     read_file)


def test_elo_of_known_scores():
    assert stats.elo(0.5) == 0
    assert stats.elo(0.75) == pytest.approx(190.85, abs=0.01)
    assert stats.elo(0.25) == pytest.approx(-190.85, abs=0.01)
    assert stats.elo(1.0) == math.inf and stats.elo(0.0) == -math.inf


def test_elo_interval_is_symmetric_at_even_score_and_finite_below_a_perfect_one():
    e, low, high = stats.elo_interval(20, 20)
    assert e == 0 and low == pytest.approx(-high) and 100 < high < 200
    e, low, high = stats.elo_interval(40, 0)
    assert e == math.inf and high == math.inf and 300 < low < 600
    e, low, high = stats.elo_interval(30, 10)
    assert low < e < high and low > 0  # 75 % of 40 games is significantly better


def test_likelihood_of_superiority():
    assert stats.los(10, 10) == 0.5
    assert stats.los(10, 0) == pytest.approx(0.99922, abs=1e-4)
    assert stats.los(0, 10) == pytest.approx(1 - 0.99922, abs=1e-4)


def test_sprt_decides_both_ways():
    # by hand: p0 = 0.5, p1 = 0.5715; 60 ln(p1/p0) + 40 ln((1-p1)/(1-p0)) = 1.846
    llr, _, _, verdict = stats.sprt(60, 40, 0, 50)
    assert llr == pytest.approx(1.846, abs=1e-3) and verdict == "continue"
    assert stats.sprt(70, 30, 0, 50)[-1] == "H1"
    assert stats.sprt(40, 60, 0, 50)[-1] == "H0"
    assert stats.sprt(11, 9, 0, 50)[-1] == "continue"
    llr, lower, upper, _ = stats.sprt(0, 0, 0, 10)
    assert llr == 0 and lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)


def test_fitted_ratings_recover_known_strengths():
    rng = random.Random(1)
    true = {"a": 200.0, "b": 0.0, "c": -150.0}
    games = []
    for x in true:
        for y in true:
            if x < y:
                p = stats.expected_score(true[x] - true[y])
                for _ in range(2000):
                    games.append((x, y) if rng.random() < p else (y, x))
    ratings = stats.fit_ratings(list(true), games)
    assert sum(r[0] for r in ratings.values()) == pytest.approx(0, abs=1e-6)
    for x in true:
        for y in true:
            fitted = ratings[x][0] - ratings[y][0]
            assert fitted == pytest.approx(true[x] - true[y], abs=25)
    assert all(0 < err < 30 for _, err in ratings.values())


def test_fitted_ratings_stay_finite_for_a_perfect_score():
    ratings = stats.fit_ratings(["a", "b"], [("a", "b")] * 10)
    assert math.isfinite(ratings["a"][0]) and ratings["a"][0] > ratings["b"][0]


def test_openings():
    assert len(every_cell(3, 4)) == 12 and every_cell(3, 4)[0] == ("a1",)
    spread = [o[0] for o in every_cell(9, 9, 20)]
    assert len(set(spread)) == 20
    assert {name[0] for name in spread} == set("abcdefghi")  # every column
    assert {name[1:] for name in spread} == {str(r) for r in range(1, 10)}  # every row
    first = random_openings(2, 10, 5, 5, seed=3)
    assert first == random_openings(2, 10, 5, 5, seed=3)  # reproducible
    assert len(set(first)) == 10 and all(len(o) == 2 for o in first)
    assert check_opening(("C3", "a1"), 5, 5) == ("c3", "a1")
    with pytest.raises(OpeningError, match="occupied"):
        check_opening(("c3", "c3"), 5, 5)
    with pytest.raises(OpeningError, match="ends the game"):
        check_opening(("a1",), 1, 1)


def test_openings_file(tmp_path):
    path = tmp_path / "openings.txt"
    path.write_text("# balanced openings\nb2 c3\n\nd4, a1  # comma separated\n")
    assert read_file(str(path), 5, 5) == [("b2", "c3"), ("d4", "a1")]
    path.write_text("b2\nz9\n")
    with pytest.raises(OpeningError, match=r"openings.txt:2"):
        read_file(str(path), 5, 5)
