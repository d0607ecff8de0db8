"""Static evaluations of Hex positions, one module each, selected by name.

Every evaluation is a function ``evaluate(geo, stones, colour) -> float``: ``stones`` is the
``[black_bits, white_bits]`` list of a Board, and the score is from ``colour``'s point of view
(positive = good for ``colour``).  Scores must stay well inside ``±WIN_SCORE`` of the search.
"""
from __future__ import annotations

from typing import Callable

from ..geometry import Geometry
from . import adjacency, bridge_distance, centre_progress, resistance, shortest_path, two_distance

Evaluation = Callable[[Geometry, list, int], float]

EVALUATIONS: dict[str, Evaluation] = {
    "shortest-path": shortest_path.evaluate,
    "bridge-distance": bridge_distance.evaluate,
    "adjacency": adjacency.evaluate,
    "centre-progress": centre_progress.evaluate,
    "two-distance": two_distance.evaluate,
    "resistance": resistance.evaluate,
    "vc-resistance": resistance.evaluate_connected,
}

DEFAULT_EVALUATION = "resistance"  # won the 9x9 tournament (README, Strength)


def register(name: str, function: Evaluation) -> None:
    EVALUATIONS[name] = function


def get(name: str) -> Evaluation:
    """The evaluation called ``name``; KeyError lists the known ones."""
    try:
        return EVALUATIONS[name]
    except KeyError:
        raise KeyError(f"unknown evaluation {name!r} (known: {', '.join(EVALUATIONS)})") from None
