"""The solver's builds kept packed and extended (``knowledge.build_cache``): they are sound,
they start from the nearest kept build, and a packed build extends as the workspace did."""
import dataclasses
import random

from hexengine.geometry import geometry
from hexengine.knowledge import hsearch, vc
from hexengine.knowledge.build_cache import BuildCache
from tests.test_hsearch import random_stones
from tests.test_vc import check_all_fulls

LIMITS = dataclasses.replace(vc.SOLVER_LIMITS, stop_at_win=True)


def _cells(geo, names: str) -> int:
    return sum(1 << geo.parse(n) for n in names.split())


def test_a_grandchild_is_built_from_its_grandparent_and_a_same_position_from_itself():
    geo = geometry(7, 7)
    cache = BuildCache()
    root = [_cells(geo, "d4"), _cells(geo, "c5")]
    cache.build(geo, root, 1, LIMITS)
    grandchild = [root[0] | _cells(geo, "e3"), root[1] | _cells(geo, "d3")]
    cache.build(geo, grandchild, 1, LIMITS)
    assert cache.stats == {"fresh": 1, "extended": 1}
    cache.build(geo, grandchild, 0, LIMITS)  # the other colour: nothing kept to start from
    assert cache.stats == {"fresh": 2, "extended": 1}
    again = cache.build(geo, grandchild, 1, LIMITS)
    assert cache.stats == {"fresh": 2, "extended": 2}
    fresh = vc.build(geo, grandchild, 1, LIMITS)
    assert set(again.full_pairs()) == set(fresh.full_pairs())


def test_an_own_stone_gone_is_no_base():
    """A sibling (the built colour's stone elsewhere) is not a position before this one:
    its connections may run through a stone that is not there."""
    geo = geometry(7, 7)
    cache = BuildCache()
    cache.build(geo, [_cells(geo, "d4"), _cells(geo, "c5 e3")], 1, LIMITS)
    cache.build(geo, [_cells(geo, "d4"), _cells(geo, "c5 b6")], 1, LIMITS)
    assert cache.stats == {"fresh": 2, "extended": 0}


def test_a_packed_build_extends_as_its_workspace_does():
    rng = random.Random(5)
    for _ in range(6):
        geo, stones = random_stones(rng, 7, rng.randrange(2, 14))
        colour = rng.randrange(2)
        ws = hsearch.run(geo, stones, colour, LIMITS, hsearch.Workspace(geo, LIMITS))
        if hsearch.CompiledConnections(geo, stones, colour, LIMITS, ws).edge_full() is not None:
            continue
        empty = list(geo.iter_bits(geo.mask & ~(stones[0] | stones[1])))
        own, opp = rng.sample(empty, 2)
        after = list(stones)
        after[colour] |= 1 << own
        after[1 - colour] |= 1 << opp
        direct = hsearch.run_from(geo, after, colour, LIMITS, ws, 1 << own, 1 << opp,
                                  hsearch.Workspace(geo, LIMITS))
        pairs = set(hsearch.CompiledConnections(geo, after, colour, LIMITS, direct).full_pairs())
        before = hsearch.unpack_build(hsearch.pack_build(ws), geo, LIMITS)
        unpacked = hsearch.run_from(geo, after, colour, LIMITS, before, 1 << own, 1 << opp,
                                    hsearch.Workspace(geo, LIMITS))
        assert set(hsearch.CompiledConnections(geo, after, colour, LIMITS,
                                               unpacked).full_pairs()) == pairs
        assert hsearch.pack_build(ws).nbytes < (ws.C.nbytes + ws.I.nbytes) / 4


def test_the_cache_s_builds_along_a_game_are_sound():
    """Every carrier of up to 9 cells of each build, replayed against exhaustive play,
    along random games where each build starts from the one two plies up."""
    rng = random.Random(7)
    checked = extended = 0
    for _ in range(6):
        geo, stones = random_stones(rng, rng.choice([5, 6]), rng.randrange(0, 6))
        cache = BuildCache()
        stones = list(stones)
        mover = rng.randrange(2)
        for _ in range(6):
            empty = list(geo.iter_bits(geo.mask & ~(stones[0] | stones[1])))
            if len(empty) < 2:
                break
            colour = 1 - mover
            conns = cache.build(geo, stones, colour, LIMITS)
            if conns.edge_full() is None:
                checked += check_all_fulls(geo, stones, colour, conns, max_cells=9)
            stones[mover] |= 1 << rng.choice(empty)
            mover = 1 - mover
        extended += cache.stats["extended"]
    assert checked > 100 and extended > 10


def test_a_fresh_start_of_the_solver_forgets_its_builds():
    """``dfpn-clear-tt`` (``Solver.clear``) and a new game start without kept builds, so a
    timed solve after them owes nothing to the one before."""
    from hexengine.solver import Solver, knowledge_by_name
    geo = geometry(5, 5)
    knowledge = knowledge_by_name()
    solver = Solver(knowledge)
    for forget in (solver.clear, solver.new_game):
        assert solver.solve(geo, [_cells(geo, "a5"), 0], 1).winner is not None
        assert len(knowledge.builds) > 0
        forget()
        assert len(knowledge.builds) == 0
