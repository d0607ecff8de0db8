"""Static evaluations of Hex positions, one module each, selected by name.

Every evaluation is a function ``evaluate(geo, stones, colour) -> float``: ``stones`` is the
``[black_bits, white_bits]`` list of a Board, and the score is from ``colour``'s point of view
(positive = good for ``colour``).  Scores must stay well inside ``±WIN_SCORE`` of the search.
"""
from __future__ import annotations

from typing import Callable

from ..geometry import Geometry
from . import (adjacency, bridge_distance, centre_progress, resistance, shortest_path,
               two_distance, vc_graph)

Evaluation = Callable[[Geometry, list, int], float]

EVALUATIONS: dict[str, Evaluation] = {
    "shortest-path": shortest_path.evaluate,
    "bridge-distance": bridge_distance.evaluate,
    "adjacency": adjacency.evaluate,
    "centre-progress": centre_progress.evaluate,
    "two-distance": two_distance.evaluate,
    "resistance": resistance.evaluate,
    "vc-resistance": resistance.evaluate_connected,
    "vc-graph": vc_graph.evaluate,
}

DEFAULT_EVALUATION = "vc-graph"  # Wolve's circuit on each node's H-search graph; with width
# 15, the solver from 20 stones and the graph's move order it won 13, 13, 10 and 13 of 40
# against Wolve on four opening sets, where vc-resistance won 11, 6, 13, 7 the same day
# (docs/strength.md)


def register(name: str, function: Evaluation) -> None:
    EVALUATIONS[name] = function


def get(name: str) -> Evaluation:
    """The evaluation called ``name``; KeyError lists the known ones."""
    try:
        return EVALUATIONS[name]
    except KeyError:
        raise KeyError(f"unknown evaluation {name!r} (known: {', '.join(EVALUATIONS)})") from None
