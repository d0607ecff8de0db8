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

DEFAULT_EVALUATION = "vc-resistance"  # resistance won the 9x9 tournament; wired with each
# leaf's own connections it beat it 25-15 and scored 17/80 against Wolve to its 10/80
# (README, Strength)


def register(name: str, function: Evaluation) -> None:
    EVALUATIONS[name] = function


def get(name: str) -> Evaluation:
    """The evaluation called ``name``; KeyError lists the known ones."""
    try:
        return EVALUATIONS[name]
    except KeyError:
        raise KeyError(f"unknown evaluation {name!r} (known: {', '.join(EVALUATIONS)})") from None
