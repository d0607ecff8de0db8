"""The first two moves under the swap rule, over the protocol, against published results.

The truth is the position files of ``scripts/positions`` (the 6×6 and 7×7 openings with
their published winners), not the engine's own table: the engine must swap exactly the
openings that win for their player, and open a swap game on a stone that loses.
"""
from __future__ import annotations

import os

import pytest

from hexengine import opening
from hexengine.board import Board
from hexengine.evaluation import network
from hexengine.geometry import geometry, hex_distance

POSITIONS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "scripts", "positions")


def published(size: int) -> dict[str, str]:
    """{opening cell: 'black' or 'white'}, the winner of each one-stone opening."""
    winners = {}
    with open(os.path.join(POSITIONS, f"{size}x{size}-openings.txt")) as f:
        for line in f:
            text = line.split("#", 1)[0].split()
            if text:
                winners[text[1]] = text[-1]
    assert len(winners) == size * size
    return winners


@pytest.mark.parametrize("size", [6, 7])
def test_swaps_exactly_the_openings_that_win(make_engine, size):
    engine = make_engine("--time", "0.05", "--swap")
    engine.ok(f"boardsize {size}")
    wrong = []
    for cell, winner in published(size).items():
        engine.ok("clear_board")
        engine.ok(f"play b {cell}")
        swapped = engine.ok("reg_genmove w") == "swap-pieces"
        if swapped != (winner == "black"):
            wrong.append(cell)
    assert not wrong


def test_a_white_opening_is_judged_as_its_transpose(make_engine):
    # a white stone on (col, row) with black to move is a black stone on (row, col) with
    # white to move, the colours' edges exchanged with the board's rows and columns
    engine = make_engine("--time", "0.05", "--swap")
    engine.ok("boardsize 7")
    geo = geometry(7, 7)
    winners = published(7)
    wrong = []
    for cell in geo.cells:
        engine.ok("clear_board")
        engine.ok(f"play w {geo.name(cell)}")
        swapped = engine.ok("reg_genmove b") == "swap-pieces"
        if swapped != (winners[geo.name(geo.mirror(cell))] == "black"):
            wrong.append(geo.name(cell))
    assert not wrong
    engine.ok("clear_board")
    first = geo.parse(engine.ok("genmove w"))  # white opens: on a losing stone too
    assert winners[geo.name(geo.mirror(first))] == "white"


def test_swap_turned_on_after_the_size_still_answers_in_time(make_engine):
    engine = make_engine("--time", "0.5")
    engine.ok("boardsize 13")
    engine.ok("param_game allow_swap 1")  # (the opening values are read here)
    ok, first, elapsed = engine.timed("genmove b")
    assert ok and elapsed < 0.5 + 0.5
    legal = engine.ok("all_legal_moves").split()
    assert engine.ok("genmove w") in ["swap-pieces"] + legal


@pytest.mark.parametrize("size", [6, 7])
def test_a_swap_game_opens_on_a_losing_stone_that_is_not_swapped(make_engine, size):
    engine = make_engine("--time", "0.2", "--swap")
    engine.ok(f"boardsize {size}")
    first = engine.ok("genmove b")
    assert published(size)[first] == "white"
    assert engine.ok("genmove w") != "swap-pieces"


@pytest.mark.parametrize("size", [9, 11, 13])
def test_a_swap_game_opens_near_even_away_from_the_centre(make_engine, size):
    # the network rates central stones well above even on these boards (as the solved
    # boards are: they win), so the opening nearest to even is far from the centre
    engine = make_engine("--time", "0.5", "--swap")
    engine.ok(f"boardsize {size}")
    ok, first, elapsed = engine.timed("genmove b")
    assert ok and elapsed < 0.5 + 0.5
    geo = geometry(size, size)
    col, row = geo.coords(geo.parse(first))
    centre = (size - 1) // 2
    assert hex_distance(col - centre, row - centre) >= 3, first
    assert abs(opening.opening_value(geo, geo.parse(first)) - 0.5) < 0.1
    assert first not in (geo.name(geo.index(0, 0)), geo.name(geo.index(size - 1, size - 1)))


def test_without_the_network_a_stone_off_the_rim_is_swapped(monkeypatch):
    monkeypatch.setattr(network, "network", lambda *a: None)
    opening._opening_candidates.cache_clear()
    try:
        board = Board(9, 9, allow_swap=True)
        assert opening.first_move(board) is None  # the search's choice
        board.play(board.geo.parse("b2"), 0)
        assert opening.should_swap(board, 1)
        edge = Board(9, 9, allow_swap=True)
        edge.play(edge.geo.parse("a5"), 0)
        assert not opening.should_swap(edge, 1)
        small = Board(7, 7, allow_swap=True)  # the table still decides where it knows
        small.play(small.geo.parse("b2"), 0)
        assert not opening.should_swap(small, 1)
    finally:
        opening._opening_candidates.cache_clear()
