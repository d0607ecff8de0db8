"""The compiled fill-in (hexengine.knowledge.fillin_kernel) fills exactly what the Python
one (inferior.fill_in) fills, and finds exactly the dominated moves it finds: the same
cells, coloured alike, recorded alike.  The Python code is checked for soundness against
exhaustive play in test_inferior.py, so equality carries that over."""
import random
import time

import pytest

from hexengine import kernels
from hexengine.geometry import geometry
from hexengine.knowledge import fillin_kernel, inferior
from hexengine.positions import random_position

SIZES = [1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 13, 19]
CAPTORS = [(0, 1), (1, 0), (0,), (1,), ()]


@pytest.fixture(scope="module", autouse=True)
def compiled():
    kernels.start(wait=True)
    assert inferior.compiled()


def python(call, *args):
    with fillin_kernel.python_only():
        assert not inferior.compiled()
        return call(*args)


def test_compiled_fill_in_equals_python_fill_in():
    rng = random.Random(11)
    filled = 0
    for _ in range(600):
        size = rng.choice(SIZES)
        board = random_position(size, rng, (0, size * size * 2 // 3), undecided=False)
        captors = rng.choice(CAPTORS)
        got = inferior.fill_in(board.geo, board.stones, captors)
        assert got == python(inferior.fill_in, board.geo, board.stones, captors)
        filled += got[1].dead != 0 or got[1].captured != (0, 0)
    assert filled > 200  # most positions fill something: the comparison has teeth


def test_compiled_dominated_equals_python_dominated():
    rng = random.Random(12)
    found = 0
    for _ in range(300):
        size = rng.choice(SIZES)
        board = random_position(size, rng, (0, size * size // 2), undecided=False)
        stones = inferior.fill_in(board.geo, board.stones)[0]
        empty = board.geo.mask & ~(stones[0] | stones[1])
        # every empty cell, or a random part (over 64 candidates: more than one kernel call)
        candidates = empty if rng.random() < 0.5 else empty & rng.getrandbits(
            board.geo.max_index)
        colour = rng.randrange(2)
        got = inferior.dominated(board.geo, stones, colour, candidates)
        assert got == python(inferior.dominated, board.geo, stones, colour, candidates)
        assert inferior.prunable_moves(board.geo, stones, colour, candidates) == python(
            inferior.prunable_moves, board.geo, stones, colour, candidates)
        found += bool(got[0])
    assert found > 50


def test_a_move_dominates_a_candidate_of_an_earlier_kernel_call():
    """The kernel takes the candidates CHUNK at a time: a move in the second chunk whose
    fill-in fills a candidate of the first (the last one) still dominates it."""
    geo = geometry(13, 13)
    x = geo.parse("f6")
    ring = [geo.index(geo.coords(x)[0] + dc, geo.coords(x)[1] + dr)
            for dc, dr in inferior.DIRS]
    black = sum(1 << ring[d] for d in (3, 4, 5))  # three in a row: a fourth makes x dead
    a = ring[0]
    assert a == x + 1
    before = [c for c in geo.cells if c < x and not black >> c & 1]
    candidates = sum(1 << c for c in before[:fillin_kernel.CHUNK - 1]) | 1 << x | 1 << a
    got, reads = inferior.dominated(geo, [black, 0], 0, candidates)
    assert got[x] == 1 << a
    assert (got, reads) == python(inferior.dominated, geo, [black, 0], 0, candidates)


def test_a_passed_deadline_stops_dominated_between_chunks():
    geo = geometry(13, 13)
    empty = geo.mask
    got, reads = inferior.dominated(geo, [0, 0], 0, empty, deadline=time.monotonic() - 1)
    assert got == {} and reads == {}
