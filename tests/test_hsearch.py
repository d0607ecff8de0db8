"""The compiled H-search (hexengine.knowledge.hsearch) derives exactly what the Python one
(vc._Builder) derives: the same carriers, in the same order, with the same keys, under any
limits.  The Python build is checked for soundness against exhaustive play in test_vc.py, so
equality carries that over."""
import dataclasses
import random

import pytest

from hexengine import kernels
from hexengine.geometry import geometry
from hexengine.positions import random_position
from hexengine.knowledge import hsearch, vc
from hexengine.knowledge.vc import EDGE_GOAL, EDGE_START


@pytest.fixture(scope="module", autouse=True)
def compiled():
    kernels.start(wait=True)
    assert hsearch.ready()


def python_build(geo, stones, colour, limits=None):
    with hsearch.python_only():
        return vc.build(geo, stones, colour, limits)


def random_stones(rng, size, stones=None):
    """(geometry, stones): ``stones`` stones, or up to half the board, alternating colours."""
    board = random_position(size, rng, (0, size * size // 2) if stones is None else stones,
                            undecided=False)
    return board.geo, board.stones


def snapshot(conns):
    """Everything a build derived, as plain data."""
    fulls = {k: list(v) for k, v in conns.fulls.items() if v}
    semis = {k: list(zip(conns.semi_keys[k], v)) for k, v in conns.semis.items() if v}
    return fulls, semis, conns.complete


LIMITS = [
    vc.DEFAULT_LIMITS,
    vc.Limits(max_fulls=2, max_semis=3, max_ors=3, or_candidates=4, and_fulls=2, work=3000),
    vc.Limits(templates=False, stop_at_win=True),
    vc.Limits(max_ors=1, work=500),
    vc.Limits(empty_pairs=True, max_fulls=6, max_semis=12, work=20_000),
    vc.Limits(stone_templates=True),
    vc.Limits(edge_band=True, max_fulls=6, max_semis=12, work=20_000),
    dataclasses.replace(vc.SOLVER_LIMITS, edge_band=True),
    dataclasses.replace(vc.SOLVER_LIMITS, edge_band=True, captured_or=True),
    vc.Limits(captured_or=True, max_fulls=6, max_semis=12, work=20_000),
]


@pytest.mark.parametrize("limits", LIMITS, ids=["default", "tight", "no-templates", "no-or",
                                                "empty-pairs", "stone-templates", "edge-band",
                                                "solver-band", "solver-band-captured",
                                                "captured"])
def test_compiled_build_equals_python_build(limits):
    rng = random.Random(hash(limits) & 0xFFFF)
    for _ in range(60):
        size = rng.choice([1, 2, 3, 4, 5, 6, 7, 8, 9, 11])
        geo, stones = random_stones(rng, size)
        colour = rng.randrange(2)
        compiled = vc.build(geo, stones, colour, limits)
        assert isinstance(compiled, hsearch.CompiledConnections)
        assert snapshot(compiled) == snapshot(python_build(geo, stones, colour, limits))


def test_the_kernels_cells_leave_out_the_padding_where_that_saves_a_word():
    # 8x8 carriers fit one word and 11x11 two without the padding column; elsewhere the
    # kernel keeps the engine's cell bits.  Bitboards and cells go there and back unchanged.
    rng = random.Random(5)
    for size, compact, words in ((7, False, 1), (8, True, 1), (9, False, 2), (11, True, 2),
                                 (13, False, 3)):
        geo = geometry(size, size)
        lay = hsearch.layout(geo)
        assert (lay.compact, lay.words) == (compact, words)
        assert hsearch.Workspace(geo, vc.DEFAULT_LIMITS).C.shape[1] == words
        masks = [rng.getrandbits(geo.max_index) & geo.mask for _ in range(20)]
        assert [lay.from_kernel(lay.to_kernel(m)) for m in masks] == masks
        assert all(lay.to_kernel(m) < 1 << lay.cells for m in masks)
        assert [lay.cell_of[lay.kernel_of[c]] for c in geo.cells] == list(geo.cells)
        assert (lay.rows(masks) == hsearch._rows([lay.to_kernel(m) for m in masks],
                                                 words)).all()


def _workspace_snapshot(ws):
    return [(ws.pair(k), ws.fulls(k), ws.semis(k)) for k in ws.used_slots()], ws.complete


def _fresh_and_extended(geo, stones, colour, limits):
    """Snapshots of a fresh build and of one extended from it by an own stone."""
    ws = hsearch.run(geo, stones, colour, limits, hsearch.Workspace(geo, limits))
    empty = [c for c in geo.cells if not ((stones[0] | stones[1]) >> c) & 1]
    added = 1 << empty[0] if empty else 0
    after = list(stones)
    after[colour] |= added
    before = hsearch.unpack_build(hsearch.pack_build(ws), geo, limits)
    grown = hsearch.run_from(geo, after, colour, limits, before, added, 0,
                             hsearch.Workspace(geo, limits))
    return _workspace_snapshot(ws), _workspace_snapshot(grown)


@pytest.mark.parametrize("size", [3, 5, 7, 8, 9, 10, 11, 12, 13])
def test_each_widths_kernel_builds_what_the_any_width_kernel_builds(size):
    """The kernel compiled for one width of carrier rows (its loops over words unrolled)
    and the one that reads the width from the array derive the same connections, fresh and
    extended from an earlier build; builds on the width's boards use the first once it
    has loaded."""
    kernels.start(wait=True)
    geo = geometry(size, size)
    words = hsearch.Workspace(geo, vc.DEFAULT_LIMITS).C.shape[1]
    assert hsearch._calls_for(words) is hsearch._FAMILIES[words]
    with hsearch.any_width():
        assert hsearch._calls_for(words) is hsearch._GENERIC
    rng = random.Random(size)
    for limits in (vc.DEFAULT_LIMITS, vc.SOLVER_LIMITS,
                   dataclasses.replace(vc.SOLVER_LIMITS, edge_band=True)):
        for _ in range(6):
            _, stones = random_stones(rng, size)
            colour = rng.randrange(2)
            own = _fresh_and_extended(geo, stones, colour, limits)
            with hsearch.any_width():
                assert _fresh_and_extended(geo, stones, colour, limits) == own


def test_a_workspace_too_small_grows_and_gives_the_same_result():
    rng = random.Random(3)
    geo, stones = random_stones(rng, 9, 24)
    key = (geo.width, geo.height, vc.DEFAULT_LIMITS), 0  # black's workspace
    hsearch._WORKSPACES[key] = hsearch.Workspace(geo, vc.DEFAULT_LIMITS, slots=4, events=8)
    ws = hsearch.run(geo, stones, 0, vc.DEFAULT_LIMITS)
    assert ws.slots > 4 and ws.events > 8
    assert snapshot(vc.build(geo, stones, 0)) == snapshot(python_build(geo, stones, 0))


def test_a_build_survives_the_other_colours_build(monkeypatch):
    """Each colour builds in a workspace of its own: the solver and the search read one
    side's connections after building the other's, and a shared workspace would make that
    read build the first side again from scratch."""
    rng = random.Random(5)
    geo, stones = random_stones(rng, 11, 40)
    limits = vc.SOLVER_LIMITS
    black = vc.build(geo, stones, 0, limits)
    white = vc.build(geo, stones, 1, limits)
    runs = []
    real_run = hsearch.run
    with monkeypatch.context() as patch:
        patch.setattr(hsearch, "run", lambda *args, **kwargs: runs.append(args)
                      or real_run(*args, **kwargs))
        black_edges, white_edges = black.edge_semis(), white.edge_semis()
        black_pairs = black.full_pairs()
    assert runs == []
    assert black_edges == vc.build(geo, stones, 0, limits).edge_semis()
    assert white_edges == vc.build(geo, stones, 1, limits).edge_semis()
    assert sorted(black_pairs) == sorted(python_build(geo, stones, 0, limits).full_pairs())


def test_a_fresh_workspace_holds_a_build_at_once():
    # each doubling of a workspace costs a whole build: on a large board, the first
    # genmove's builds would overrun its budget
    rng = random.Random(11)
    for size in (9, 13, 19):
        for limits in (vc.DEFAULT_LIMITS, vc.WIDE_LIMITS):
            for stones_count in (1, 10, 30):
                geo, stones = random_stones(rng, size, stones_count)
                ws = hsearch.Workspace(geo, limits)
                assert hsearch.run(geo, stones, 1, limits, ws) is ws, (size, stones_count)


def test_a_grown_workspace_sets_the_size_of_the_next():
    rng = random.Random(4)
    geo, stones = random_stones(rng, 9, 24)
    small = hsearch.Workspace(geo, vc.DEFAULT_LIMITS, slots=4, events=8)
    grown = hsearch.run(geo, stones, 0, vc.DEFAULT_LIMITS, small)
    assert grown is not small
    fresh = hsearch.Workspace(geo, vc.DEFAULT_LIMITS)
    assert fresh.slots >= grown.slots and fresh.events >= grown.events


def test_the_queries_answer_as_the_python_connections_do():
    rng = random.Random(5)
    for _ in range(30):
        geo, stones = random_stones(rng, rng.choice([4, 6, 9]))
        colour = rng.randrange(2)
        c, p = vc.build(geo, stones, colour), python_build(geo, stones, colour)
        assert c.edge_full() == p.edge_full()
        assert c.edge_full_all() == p.edge_full_all()
        assert c.edge_semis() == p.edge_semis()
        assert c.edge_semis_keyed() == p.edge_semis_keyed()
        assert sorted(c.full_pairs()) == sorted(p.full_pairs())
        assert c.count() == p.count()
        assert c.groups == p.groups and c.group_of == p.group_of
        for a, b in p.full_pairs()[:20]:
            assert c.full(a, b) == p.full(a, b)
            assert c.semi_keyed(a, b) == p.semi_keyed(a, b)
        for cell in geo.cells:
            assert c.node(cell) == p.node(cell)
        assert vc.mustplay(geo, stones, 1 - colour, c) == vc.mustplay(geo, stones, 1 - colour, p)


def test_a_result_read_after_another_build_is_still_its_own():
    """Builds share one workspace; an older result builds itself again before reading."""
    rng = random.Random(9)
    geo, first = random_stones(rng, 7, 14)
    _, second = random_stones(rng, 7, 14)
    a = vc.build(geo, first, 0)
    b = vc.build(geo, second, 0)
    assert snapshot(a) == snapshot(python_build(geo, first, 0))
    assert snapshot(b) == snapshot(python_build(geo, second, 0))
    assert a.edge_semis_keyed() == python_build(geo, first, 0).edge_semis_keyed()


def test_the_incremental_update_of_a_compiled_result():
    rng = random.Random(11)
    for _ in range(20):
        geo, stones = random_stones(rng, 8)
        colour = rng.randrange(2)
        p = python_build(geo, stones, colour)
        empty = [c for c in geo.cells if not (stones[0] | stones[1]) >> c & 1]
        if not empty:
            continue
        move = rng.choice(empty)
        after = list(stones)
        after[1 - colour] |= 1 << move
        up_c = vc.update(vc.build(geo, stones, colour), geo, after, move, 1 - colour)
        up_p = vc.update(p, geo, after, move, 1 - colour)
        assert up_c.fulls == up_p.fulls and up_c.semis == up_p.semis


def test_known_connections_from_the_compiled_build():
    """A bridge, and a stone on row 2 joined to its edge by template II."""
    geo = geometry(5, 5)
    c3, d4, a2 = geo.parse("c3"), geo.parse("d4"), geo.parse("a2")
    stones = [1 << c3 | 1 << d4 | 1 << a2, 0]
    conns = vc.build(geo, stones, 0)
    assert isinstance(conns, hsearch.CompiledConnections)
    assert conns.full(c3, d4)[0] == 1 << geo.parse("d3") | 1 << geo.parse("c4")
    assert conns.full(a2, EDGE_START)[0] == 1 << geo.parse("a1") | 1 << geo.parse("b1")
    assert conns.full(EDGE_START, EDGE_GOAL) == python_build(geo, stones, 0).full(
        EDGE_START, EDGE_GOAL)


def test_big_boards_keep_the_python_closure():
    geo = geometry(30, 30)
    assert geo.max_index > hsearch.MAX_CELLS and not hsearch.usable(geo)
    assert not isinstance(vc.build(geo, [0, 0], 0, dataclasses.replace(
        vc.DEFAULT_LIMITS, work=200)), hsearch.CompiledConnections)


def test_setting_the_board_size_builds_the_template_tables():
    """``Player.prepare`` (run by ``boardsize``) builds the H-search's template tables, so
    the first build on that board (a genmove's or a solve's) finds them made; a player
    without knowledge leaves them alone, and boards past the kernel's reach are skipped."""
    from hexengine.player import Player
    from hexengine.settings import Settings
    geo = geometry(7, 5)
    Player(Settings(knowledge=False)).prepare(geo)
    before = hsearch.stone_tables.cache_info()
    Player().prepare(geo)
    after = hsearch.stone_tables.cache_info()
    assert after.misses == before.misses + 2  # built here, one table per colour
    hsearch.stone_tables(geo, 0)
    hsearch.stone_tables(geo, 1)
    assert hsearch.stone_tables.cache_info().hits == after.hits + 2  # and found made
    big = geometry(30, 30)
    assert big.max_index > hsearch.MAX_CELLS
    Player().prepare(big)
    assert hsearch.stone_tables.cache_info().misses == after.misses


def _extended(rng, geo, stones, colour, limits, plies):
    """(the position ``plies`` random moves on, its build extended from ``stones``'s)."""
    before = hsearch.run(geo, stones, colour, limits, hsearch.Workspace(geo, limits))
    after = list(stones)
    mover = colour
    for _ in range(plies):
        empty = list(geo.iter_bits(geo.mask & ~(after[0] | after[1])))
        if not empty:
            break
        after[mover] |= 1 << rng.choice(empty)
        mover = 1 - mover
    added = after[colour] & ~stones[colour]
    taken = after[1 - colour] & ~stones[1 - colour]
    ws = hsearch.run_from(geo, after, colour, limits, before, added, taken)
    return after, ws


@pytest.mark.parametrize("limits", [vc.WIDE_LIMITS, dataclasses.replace(
    vc.WIDE_LIMITS, edge_band=True), dataclasses.replace(vc.SOLVER_LIMITS, edge_band=True),
    dataclasses.replace(vc.SOLVER_LIMITS, edge_band=True, captured_or=True)],
    ids=["wide", "band", "solver-band", "solver-band-captured"])
def test_a_build_extended_from_an_earlier_one_is_sound(limits):
    """Every carrier of a build made from the build of a position some moves earlier
    (``hsearch.run_from``) is replayed against exhaustive play."""
    from tests.test_vc import check_all_fulls
    rng = random.Random(11)
    checked = 0
    for _ in range(8):
        geo, stones = random_stones(rng, rng.choice([5, 6]), rng.randrange(0, 8))
        colour = rng.randrange(2)
        after, ws = _extended(rng, geo, stones, colour, limits, rng.choice([1, 2, 3, 4]))
        conns = hsearch.CompiledConnections(geo, after, colour, limits, ws)
        checked += check_all_fulls(geo, after, colour, conns, max_cells=9,
                                   through_edges=limits.edge_band or limits.captured_or)
    assert checked > 100


def test_an_extended_build_finds_what_a_fresh_one_finds_in_the_main():
    """From the build two plies up, the pairs joined fully are nearly those of a fresh
    build, and a win for the colour is seen by both."""
    rng = random.Random(12)
    limits = vc.WIDE_LIMITS

    def won(pairs):
        return (EDGE_START, EDGE_GOAL) in pairs or (EDGE_GOAL, EDGE_START) in pairs

    same = total = 0
    for _ in range(20):
        geo, stones = random_stones(rng, 7, rng.randrange(4, 16))
        colour = rng.randrange(2)
        after, ws = _extended(rng, geo, stones, colour, limits, 2)
        extended = set(hsearch.CompiledConnections(geo, after, colour, limits,
                                                   ws).full_pairs())
        fresh = vc.build(geo, after, colour, limits)
        pairs = set(fresh.full_pairs())
        same += len(pairs & extended)
        total += len(pairs | extended)
        assert won(pairs) == won(extended)
    assert same > 0.9 * total


# An 11x11 position of the solver's (from the 11x11 game set), before black h5 and white h4.
_BEFORE_BLACK = ("b1 c1 d1 e1 f1 d2 e3 b4 c4 g4 b5 c5 d5 e5 c6 e6 g6 d7 e7 f7 b8 f8 g8 c9 g9 "
                 "h9 c10 d10 g10 h10 b11 c11 d11 e11 f11 g11 h11 i11 j11")
_BEFORE_WHITE = ("a1 a2 b2 c2 a3 b3 c3 d3 a4 d4 e4 f4 a5 f5 g5 a6 b6 d6 f6 a7 b7 c7 g7 a8 c8 d8 "
                 "e8 h8 a9 d9 e9 f9 k9 a10 b10 e10 f10 i10 k10 a11 k11")


@pytest.mark.parametrize("refresh", [True, False])
def test_an_extended_build_combines_the_carriers_that_move_up(refresh):
    """Black h5 takes some of the carriers white's build two plies up combined (an AND reads
    a pair's first eight fulls, an OR its first twenty semis); with ``refresh_lost`` (the
    solver's limits) the extension combines the ones that move up and finds white's
    edge-to-edge full connection, as a fresh build does.  Without it, it does not.  (With
    the single-stone templates only: a ladder template gives white that connection
    directly.)"""
    geo = geometry(11, 11)
    cells = lambda names: sum(1 << geo.parse(n) for n in names.split())  # noqa: E731
    before = (cells(_BEFORE_BLACK), cells(_BEFORE_WHITE))
    after = (before[0] | cells("h5"), before[1] | cells("h4"))
    limits = dataclasses.replace(vc.SOLVER_LIMITS, stop_at_win=True, refresh_lost=refresh,
                                 stone_templates=False)
    assert vc.build(geo, after, 1, limits).edge_full() is not None
    base = hsearch.run(geo, before, 1, limits, hsearch.Workspace(geo, limits))
    assert hsearch.CompiledConnections(geo, before, 1, limits, base).edge_full() is None
    ws = hsearch.run_from(geo, after, 1, limits, base, cells("h4"), cells("h5"),
                          hsearch.Workspace(geo, limits))
    extended = hsearch.CompiledConnections(geo, after, 1, limits, ws)
    assert (extended.edge_full() is not None) == refresh


@pytest.mark.parametrize("captured", [False, True])
def test_captured_cells_make_a_semi_inside_them_full(captured):
    """With ``captured_or`` (both builds), white's j4 (second row of its east edge) and k5
    (on that edge line) are joined by k3 k4 as well as by the bridge's k4 j5: black's k4 is
    answered at k3 and is then dead.  Without it only the bridge (position 53 of the 11x11
    set, docs/connections.md)."""
    geo = geometry(11, 11)
    moves = "d8 g4 c7 e3 f3 f2 i3 h5 i5 i4 j2 e5 d5 c8 b10 d7 a9 d6 c6 b8".split()
    stones = geo.stones(moves)
    cells = lambda names: sum(1 << geo.parse(n) for n in names.split())  # noqa: E731
    limits = dataclasses.replace(vc.SOLVER_LIMITS, captured_or=captured)
    for conns in (vc.build(geo, stones, 1, limits), python_build(geo, stones, 1, limits)):
        fulls = set(conns.full(geo.parse("j4"), geo.parse("k5")))
        assert cells("k4 j5") in fulls
        assert (cells("k3 k4") in fulls) == captured
