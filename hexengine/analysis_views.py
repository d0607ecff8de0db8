"""What the engine sees in a position, as data for the analysis views (HexGui's analyze menu).

Each function takes a geometry and the stones and returns cell indices and numbers; it never
changes the stones it is given and knows nothing of names or reply formats (the protocol
layer formats them).  Every view is meant for a position that is not decided yet.

Shading: a map's ``shade`` gives each cell a value in [0, 1], 1 for the cells that matter
most (HexGui draws 1 green and 0 blue); ``values`` are the raw numbers behind it.
"""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Optional

from .evaluation import get as get_evaluation
from .evaluation import resistance, two_distance
from .evaluation.shortest_path import NO_PATH, path_cells
from .board import BLACK, WHITE
from . import kernels
from .geometry import Geometry
from .knowledge import analysis, vc

VIEW_SECONDS = 4.0  # an analysis view answers within this (HexGui waits for it)


@dataclass
class CellMap:
    """Per empty cell: a raw value and its shade; ``best`` is the cell with shade 1."""
    values: dict[int, float]
    shade: dict[int, float]
    best: Optional[int] = None


@dataclass
class PathView:
    """One colour's shortest paths: their length in empty cells (own stones are free), the
    cells on any of them and, per cell, the share of the shortest paths through it."""
    colour: int
    distance: int
    cells: int  # bitboard
    share: dict[int, float] = field(default_factory=dict)

    def critical(self) -> list[int]:
        """Cells on every shortest path: blocking one of them lengthens the distance."""
        return sorted(c for c, s in self.share.items() if s > 1 - 1e-9)


@dataclass
class Connection:
    """A full or semi connection between two nodes; ``key`` is the semi's first move."""
    kind: str  # "full" or "semi"
    carrier: int  # bitboard of empty cells (the key included for a semi)
    key: int = -1


def shade(values: dict[int, float], high_is_good: bool = True) -> tuple[dict[int, float],
                                                                          Optional[int]]:
    """Values scaled linearly onto [0, 1] (1 for the best), and the best cell (the lowest
    index among equals); all 1 when every value is the same."""
    if not values:
        return {}, None
    lo, hi = min(values.values()), max(values.values())
    span = hi - lo
    sign = 1.0 if high_is_good else -1.0
    out = {c: 1.0 if span <= 0 else ((v - lo) if high_is_good else (hi - v)) / span
           for c, v in values.items()}
    best = min(values, key=lambda c: (-sign * values[c], c))
    return out, best


def _links(geo: Geometry, own: int, empty: int, cell: int) -> int:
    """Empty cells one step from ``cell`` for its owner: its empty neighbours and the empty
    neighbours of the own groups it touches (a group is crossed at no cost)."""
    near = geo.dilate(1 << cell)
    groups = geo.flood(near & own, own)
    return (near | geo.dilate(groups)) & empty & ~(1 << cell)


def shortest_paths(geo: Geometry, stones: list, colour: int) -> PathView:
    """``colour``'s shortest paths (the seed player's Dijkstra, own stones free): the distance,
    the cells on any shortest path, and the share of the shortest paths through each cell
    (paths counted as sequences of empty cells, one per step)."""
    d, cells = path_cells(geo, stones, colour)
    view = PathView(colour, d, cells)
    if d in (0, NO_PATH) or not cells:
        return view
    own = stones[colour]
    empty = geo.mask & ~(stones[0] | stones[1])
    start, goal = geo.edges[colour]
    # each path cell's step (1..d): its distance from the start edge, found breadth-first
    # through the path cells (a cell at step k follows a linked cell at step k - 1)
    step: dict[int, int] = {}
    near_start = geo.dilate(geo.flood(start & own, own)) | start
    layer = list(geo.iter_bits(cells & near_start))
    links = {c: _links(geo, own, empty, c) & cells for c in geo.iter_bits(cells)}
    seen = 0
    k = 1
    while layer:
        for c in layer:
            step[c] = k
            seen |= 1 << c
        nxt = 0
        for c in layer:
            nxt |= links[c]
        nxt &= ~seen
        layer = list(geo.iter_bits(nxt))
        k += 1
    by_step: dict[int, list[int]] = {}
    for c, k in step.items():
        by_step.setdefault(k, []).append(c)
    near_goal = geo.dilate(geo.flood(goal & own, own)) | goal
    forward: dict[int, int] = {}
    for c in by_step.get(1, ()):
        forward[c] = 1
    for k in range(2, d + 1):
        for c in by_step.get(k, ()):
            forward[c] = sum(forward[p] for p in by_step.get(k - 1, ()) if (links[c] >> p) & 1)
    backward: dict[int, int] = {}
    for c in by_step.get(d, ()):
        backward[c] = 1 if (near_goal >> c) & 1 else 0
    for k in range(d - 1, 0, -1):
        for c in by_step.get(k, ()):
            backward[c] = sum(backward[n] for n in by_step.get(k + 1, ()) if (links[c] >> n) & 1)
    total = sum(forward.get(c, 0) * backward.get(c, 0) for c in by_step.get(1, ()))
    if total:
        view.share = {c: forward.get(c, 0) * backward.get(c, 0) / total for c in step}
    return view


def current_map(geo: Geometry, stones: list, colour: int) -> tuple[CellMap, float, float]:
    """The current through each empty cell in both resistance circuits (each carrying a
    unit current: a cell's value is in [0, 2]), and the resistances of ``colour`` and its
    opponent."""
    r_own, r_opp, current = resistance.cell_currents(geo, stones, colour)
    shades, best = shade(current)
    return CellMap(current, shades, best), r_own, r_opp


def two_distance_map(geo: Geometry, stones: list, colour: int) -> CellMap:
    """Each empty cell's two-distance potential for ``colour`` (distance to one edge plus
    distance to the other, the opponent always blocking the best way on); lower is better,
    so the lowest potential is shaded 1."""
    pot = two_distance.potentials(geo, stones, colour)
    shades, best = shade({c: float(p) for c, p in pot.items()}, high_is_good=False)
    return CellMap({c: float(p) for c, p in pot.items()}, shades, best)


def move_value_map(geo: Geometry, stones: list, colour: int, evaluation: str,
                   seconds: Optional[float] = None,
                   stop: Optional[threading.Event] = None) -> tuple[CellMap, float]:
    """The static value (``evaluation``, from ``colour``'s side) of the position after
    ``colour`` plays each empty cell, and the value of the position as it is.  After
    ``seconds`` or once ``stop`` is set the cells not yet evaluated are left out: an
    interactive view answers in time with what it has.  Until its kernel has loaded an
    evaluation may answer with a stand-in (``vc-graph`` with the board's circuit): when a
    kernel loads during the map, the map is made again, so that one function gave every
    value.  With a deadline, half of it may go to waiting for the kernels to load."""
    deadline = None if seconds is None else time.monotonic() + seconds
    if seconds is not None:
        kernels.wait(seconds / 2, stop=stop)
    evaluate = get_evaluation(evaluation)
    empty = geo.mask & ~(stones[0] | stones[1])
    while True:
        loaded = kernels.status()
        board = [stones[0], stones[1]]
        values: dict[int, float] = {}
        for cell in geo.iter_bits(empty):
            if (stop is not None and stop.is_set()) or \
                    (deadline is not None and time.monotonic() >= deadline):
                break
            board[colour] = stones[colour] | (1 << cell)
            values[cell] = float(evaluate(geo, board, colour))
        now = float(evaluate(geo, list(stones), colour))
        if kernels.status() == loaded:
            break
    shades, best = shade(values)
    return CellMap(values, shades, best), now


def connections_between(geo: Geometry, stones: list, colour: int, a: int,
                        b: int) -> list[Connection]:
    """``colour``'s full connections, then its semi connections, between two nodes (a cell,
    any stone of an own group, or ``vc.EDGE_START``/``vc.EDGE_GOAL``), smallest carriers first,
    from one H-search build.  Two stones of one group are joined by a full connection with an
    empty carrier.  Between two empty cells H-search keeps only the base connections."""
    conns = vc.build(geo, stones, colour)
    if conns.node(a) == conns.node(b):
        return [Connection("full", 0)]
    out = [Connection("full", carrier) for carrier in conns.full(a, b)]
    out += [Connection("semi", carrier, key) for key, carrier in conns.semi_keyed(a, b)]
    return out


def fully_connected(geo: Geometry, stones: list, colour: int, a: int) -> list[int]:
    """The nodes (cells, groups by their lowest stone, ``vc.EDGE_START``/``vc.EDGE_GOAL``)
    that ``colour``'s H-search build joins to ``a`` (a cell, a stone of an own group or an
    edge) by a full connection, Benzene's ``vc-connected-to-full``; ``a``'s own group is
    not listed."""
    conns = vc.build(geo, stones, colour)
    node = conns.node(a)
    out = set()
    for x, y in conns.full_pairs():
        if node in (x, y) and x != y:
            out.add(y if x == node else x)
    return sorted(out)


@dataclass
class TriedMove:
    """A move played on a copy of the position: both colours' shortest paths and the static
    value for the mover, before and after."""
    before: tuple[PathView, PathView]
    after: tuple[PathView, PathView]
    value_before: float
    value_after: float


def try_move(geo: Geometry, stones: list, colour: int, cell: int,
             evaluation: str) -> TriedMove:
    """What ``colour`` playing ``cell`` (empty) changes: shortest paths and static value."""
    evaluate = get_evaluation(evaluation)
    after = [stones[0], stones[1]]
    after[colour] |= 1 << cell
    return TriedMove(
        (shortest_paths(geo, stones, 0), shortest_paths(geo, stones, 1)),
        (shortest_paths(geo, after, 0), shortest_paths(geo, after, 1)),
        float(evaluate(geo, list(stones), colour)), float(evaluate(geo, after, colour)))



# HexGui's names of the edges, as (owner, the H-search's node for it)
EDGES = {"north": (BLACK, vc.EDGE_START), "south": (BLACK, vc.EDGE_GOAL),
         "west": (WHITE, vc.EDGE_START), "east": (WHITE, vc.EDGE_GOAL)}


def edge_names(colour: int) -> dict[int, str]:
    """``colour``'s two edge nodes (``vc.EDGE_START``, ``vc.EDGE_GOAL``) by their HTP
    names."""
    return {node: name for name, (owner, node) in EDGES.items() if owner == colour}


def static_value(geo: Geometry, stones: list, colour: int, evaluation: str) -> float:
    """The static value of the position for ``colour`` by ``evaluation``."""
    return float(get_evaluation(evaluation)(geo, stones, colour))


def mustplay(geo: Geometry, stones: list, colour: int) -> int:
    """The cells ``colour`` must play in (the intersection of the opponent's edge-to-edge
    semi-connection carriers), as a bitboard."""
    return vc.mustplay(geo, stones, colour)


@dataclass
class InferiorView:
    """The inferior cells for the colour to move: cells filled as dead or captured (by the
    colour they take), and moves pruned as vulnerable or dominated (each with the bitboard
    of the moves that kill or dominate it)."""
    dead_as: tuple[int, int]
    captured: tuple[int, int]
    vulnerable: dict[int, int]
    dominated: dict[int, int]


def inferior(geo: Geometry, stones: list, colour: int) -> InferiorView:
    """The root analysis's fill-in and pruning, as the search sees them."""
    report = analysis.inferior_report(geo, stones, colour)
    inf = report.filled
    return InferiorView((inf.dead_as[BLACK], inf.dead_as[WHITE]),
                        (inf.captured[BLACK], inf.captured[WHITE]),
                        dict(report.vulnerable), dict(report.dominated))
