#!/usr/bin/env python3
"""How well do our move order and our evaluation predict a strong engine's moves?

Reads match records (hex-match's results.jsonl) and, at every position where ENGINE chose a
move after thinking at least ``--min-seconds`` (a move it searched, not one it had already
solved), asks two questions of our knowledge:

- order: where does ENGINE's move come in ``rank_moves`` (the current-based order that the
  search's width keeps the first cells of)?
- value: where does it come when every move is scored by the static evaluation of the
  position after it (the choice of a one-ply search)?
- graph: in the order of ``vc_graph.rank_moves`` (the default evaluation's move order)?
- policy: in the order of the value network's move head (``ordering policy``), where the
  weights (``--weights``, the shipped ones by default) have one?

It prints the share of positions where the move is in our first 1, 3, 6 and 10.  A width-6
search never sees a reply outside the first 6 of the order, which is why the order's top-6
share matters.

    python scripts/ordering.py matches/ours-wolve-9x9/results.jsonl --engine wolve
"""
from __future__ import annotations

import json
import os
import sys

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.board import Board  # noqa: E402
from hexengine.evaluation import network, resistance, vc_graph  # noqa: E402

TOPS = (1, 3, 6, 10)


def games_of(paths: list[str], engine: str):
    """The records (results.jsonl lines) of the games ENGINE played."""
    for path in paths:
        with open(path) as f:
            for line in f:
                game = json.loads(line)
                if engine in (game["black"], game["white"]):
                    yield game


def positions(paths: list[str], engine: str, min_seconds: float):
    """(board, colour to move, the engine's move) for each thought-out move of ENGINE."""
    for game in games_of(paths, engine):
        width, height = (int(x) for x in game["size"].split("x"))
        board = Board(width, height)
        for i, m in enumerate(game["moves"]):
            move = board.parse_move(m["move"])
            if m["by"] == engine and m.get("seconds", 0.0) >= min_seconds:
                yield board.copy(), i % 2, move
            board.play(move)


def shares(ranks: list[int]) -> str:
    return " ".join(f"top{k} {sum(r < k for r in ranks) / len(ranks):.3f}" for k in TOPS)


@click.command()
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--engine", required=True, help="The engine whose moves are predicted.")
@click.option("--min-seconds", type=float, default=0.3, show_default=True)
@click.option("--weights", default=network.DEFAULT_WEIGHTS, show_default=True,
              help="The network whose move head is scored.")
def main(results: tuple[str, ...], engine: str, min_seconds: float, weights: str) -> None:
    kernels.start(wait=True)  # (the compiled H-search, which the graph order reads)
    order_ranks, value_ranks, graph_ranks, policy_ranks = [], [], [], []
    net = network.network(weights)
    head = net if net is not None and net.policy is not None else None
    for board, colour, move in positions(list(results), engine, min_seconds):
        geo, stones = board.geo, board.stones
        ranked = resistance.rank_moves(geo, stones, colour)
        order_ranks.append(ranked.index(move))
        graph_ranks.append(vc_graph.rank_moves(geo, stones).index(move))
        if head is not None:
            policy_ranks.append(head.ranked_moves(geo, stones, colour).index(move))
        scored = []
        for cell in geo.iter_bits(board.empty):
            after = list(stones)
            after[colour] |= 1 << cell
            scored.append((-resistance.evaluate(geo, after, 1 - colour), cell))
        scored.sort(reverse=True)
        value_ranks.append([c for _, c in scored].index(move))
    if not order_ranks:
        raise click.ClickException(f"no thought-out moves of {engine!r} in the records")
    print(f"{len(order_ranks)} positions")
    print(f"order: {shares(order_ranks)}")
    print(f"value: {shares(value_ranks)}")
    print(f"graph: {shares(graph_ranks)}")
    if policy_ranks:
        print(f"policy: {shares(policy_ranks)}")


if __name__ == "__main__":
    main()
