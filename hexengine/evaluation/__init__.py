"""Static evaluations of Hex positions, one module each, selected by name.

Every evaluation is a function ``evaluate(geo, stones, colour) -> float``: ``stones`` is the
``[black_bits, white_bits]`` list of a Board, and the score is from ``colour``'s point of view
(positive = good for ``colour``).  Scores must stay well inside ``±WIN_SCORE`` of the search.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

from ..geometry import Geometry
from . import (adjacency, bridge_distance, centre_progress, network, resistance,
               shortest_path, two_distance, vc_graph)

Evaluation = Callable[[Geometry, list, int], float]


@dataclass(frozen=True)
class EvaluationSpec:
    """An evaluation and what the search and player must know of it, so that no caller
    checks evaluation names.  Calling the spec evaluates."""
    name: str
    evaluate: Evaluation
    circuit: bool = False  # solves a resistance circuit: tables built per board size, a
    # compiled kernel to await, and interior nodes that can read their own connections
    root_wires: bool = False  # the root's connections wire the board circuit at every node
    connected: bool = False  # leaves read their own H-search (a won or lost leaf is seen)
    graph: bool = False  # the circuit is laid on the H-search's graph (Six's, Wolve's)
    order: str = "path"  # the move order that ``ordering auto`` picks with it
    kernel: str = ""  # the compiled kernel a fresh engine's genmove awaits ("": all)
    # the value of a connected leaf its connections leave open, from the position and its
    # circuit's value, where it is not that value (the learned evaluation's); None: it is
    leaf: Optional[Callable[[Geometry, list, int, float], float]] = None
    tempo: bool = True  # leaves gain the tempo setting (False: the value counts the mover)

    def __call__(self, geo: Geometry, stones: list, colour: int) -> float:
        return self.evaluate(geo, stones, colour)


EVALUATIONS: dict[str, EvaluationSpec] = {}


def register(name: str, function: Evaluation, **capabilities) -> None:
    """Add an evaluation under ``name`` with its capabilities (EvaluationSpec's fields)."""
    EVALUATIONS[name] = EvaluationSpec(name, function, **capabilities)


register("shortest-path", shortest_path.evaluate)
register("bridge-distance", bridge_distance.evaluate)
register("adjacency", adjacency.evaluate)
register("centre-progress", centre_progress.evaluate)
register("two-distance", two_distance.evaluate)
register("resistance", resistance.evaluate, circuit=True, root_wires=True, order="current",
         kernel="circuit")
register("vc-resistance", resistance.evaluate_connected, circuit=True, connected=True,
         order="current")
register("vc-graph", vc_graph.evaluate, circuit=True, connected=True, graph=True,
         order="graph")
register("net", network.evaluate, tempo=False)
register("net-graph", network.evaluate, circuit=True, connected=True, graph=True,
         order="graph", leaf=network.leaf, tempo=False)
register("mix-graph", network.evaluate, circuit=True, connected=True, graph=True,
         order="graph", leaf=network.mixed_leaf, tempo=False)
register("net-circuit", network.corrected, circuit=True, connected=True, graph=True,
         order="graph", leaf=network.corrected_leaf, tempo=False)

DEFAULT_EVALUATION = "vc-graph"  # Wolve's circuit on each node's H-search graph; with width
# 15, the solver from 20 stones and the graph's move order it won 13, 13, 10 and 13 of 40
# against Wolve on four opening sets, where vc-resistance won 11, 6, 13, 7 the same day
# (docs/strength.md)


def get(name: str) -> EvaluationSpec:
    """The evaluation called ``name``; KeyError lists the known ones."""
    try:
        return EVALUATIONS[name]
    except KeyError:
        raise KeyError(f"unknown evaluation {name!r} (known: {', '.join(EVALUATIONS)})") from None
