"""The derived edge templates with helper stones (``data/edge-templates.json``): each one
proved again, needed, and laid by both H-search backends on every edge."""
from __future__ import annotations

import dataclasses

import pytest

from hexengine import kernels
from hexengine.geometry import geometry
from hexengine.knowledge import hsearch, hsearch_python, templates, vc
from hexengine.knowledge.vc import EDGE_GOAL, EDGE_START
from hexengine.solver import Solver, VCKnowledge
from tests.test_vc import holds

SHAPES = templates.stone_template_shapes()
# the default run proves every 20th template again and the slow run all of them
SAMPLE = SHAPES[::20]
WITH = vc.SOLVER_LIMITS
WITHOUT = dataclasses.replace(vc.SOLVER_LIMITS, stone_templates=False)


@pytest.fixture(scope="module", autouse=True)
def compiled():
    kernels.start(wait=True)


def test_the_file_holds_templates_of_several_stones():
    assert len(SHAPES) >= 20
    assert all(stones for _, _, stones, _ in SHAPES)
    assert WITH.stone_templates and not vc.WIDE_LIMITS.stone_templates


@pytest.mark.parametrize("shape", [pytest.param(s, id=s[0], marks=() if s in SAMPLE
                                                 else pytest.mark.slow) for s in SHAPES])
def test_each_template_is_won_and_needed(shape):
    """On its board (every other cell the opponent's, the opponent to move) the anchor joins
    its edge: our solver proves it without the stone templates (so no template proves
    itself), exhaustive play too where the carrier is small; the H-search with them finds
    it, and without any one helper the board is lost.  (That the H-search without them
    does not find it was true on the board it was derived on; under the build's limits the
    answer can depend on the board's size, so it is not asserted.)"""
    name, row, stones, carrier = shape
    geo, board, anchor = templates.proof_board(row, stones, carrier)
    solver = Solver(VCKnowledge(limits=WITHOUT))
    assert solver.solve(geo, board, 1, seconds=60).winner == 0
    if len(carrier) <= 12:
        empty = geo.mask & ~(board[0] | board[1])
        assert holds(geo, board[0], empty, 1 << anchor, geo.top, {})
    empty = geo.mask & ~(board[0] | board[1])
    assert empty in vc.build(geo, board, 0, WITH).full(anchor, EDGE_START)
    for dc, r in stones:
        helper = 1 << geo.index(geo.coords(anchor)[0] + dc, r)
        weaker = [board[0] & ~helper, board[1] | helper]
        solver.clear()
        assert solver.solve(geo, weaker, 1, seconds=60).winner == 1, (name, dc, r)


def _on_edge(geo, edge, col, row):
    """A top-frame (col, row) as seen from ``edge``."""
    w, h = geo.width, geo.height
    c, r = {"top": (col, row), "bottom": (w - 1 - col, h - 1 - row), "left": (row, col),
            "right": (w - 1 - row, h - 1 - col)}[edge]
    return geo.index(c, r)


EDGES = ["top", "bottom", "left", "right"]


@pytest.mark.parametrize("edge,quarter", [
    pytest.param(edge, quarter, marks=() if quarter == EDGES.index(edge) else pytest.mark.slow)
    for edge in EDGES for quarter in range(4)])
def test_every_template_is_laid_on_every_edge_by_both_backends(edge, quarter):
    """Each template placed on an 11x11 board against each edge (15x15 for the few too wide
    for it: a ladder's mirror image spans more columns), the opponent on every other cell
    of the template's rows: the anchor's full connection to that edge is there with the
    template's carrier, the compiled and the Python build agree (on every 20th), and one
    more opponent stone in the carrier takes it away.  Each quarter of the templates on
    each edge is one case; the default run lays every template on one edge (quarter i on
    edge i, about a minute of builds), the slow run on all four."""
    colour = 0 if edge in ("top", "bottom") else 1
    node = EDGE_START if edge in ("top", "left") else EDGE_GOAL
    for i, (name, row, stones, carrier) in enumerate(SHAPES[quarter::4]):
        cols = [dc for dc, _ in carrier + stones]
        n = 11 if max(cols) - min(cols) < 11 else 15
        geo = geometry(n, n)
        c0 = n // 2 - (min(cols) + max(cols)) // 2
        anchor = _on_edge(geo, edge, c0, row)
        own = 1 << anchor
        for dc, r in stones:
            own |= 1 << _on_edge(geo, edge, c0 + dc, r)
        cells = 0
        for dc, r in carrier:
            cells |= 1 << _on_edge(geo, edge, c0 + dc, r)
        rows = 0
        for r in range(max(r for _, r in carrier + stones) + 1):
            for c in range(n):
                rows |= 1 << _on_edge(geo, edge, c, r)
        board = [0, 0]
        board[colour] = own
        board[1 - colour] = rows & ~(own | cells)
        built = vc.build(geo, board, colour, WITH)
        assert isinstance(built, hsearch.CompiledConnections)
        assert any(f & cells == f for f in built.full(anchor, node)), name
        if i % 5 == 0:  # every 20th template, on each edge; a Python build takes ~50 ms
            reference = hsearch_python.build(geo, board, colour, WITH)
            assert sorted(built.full(anchor, node)) == sorted(reference.full(anchor, node))
        intruder = cells & -cells
        board[1 - colour] |= intruder
        after = vc.build(geo, board, colour, WITH).full(anchor, node)
        assert cells not in after and all(not f & intruder for f in after), name
