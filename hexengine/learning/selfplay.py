"""Self-play games and labelled positions for training the value network.

A game is played by a cheap stochastic policy: each move is drawn with probability
proportional to ``exp(value / temperature)`` over the one-ply values of a policy evaluation
(the board circuit by default, ~0.1 ms a position), after ``random_moves`` opening moves
drawn uniformly.  Its positions are then labelled from the end backwards: by the DFPN
solver where it proves the position within ``solve_seconds`` (exact), otherwise by the
game's result (the policy's outcome, a noisy but unbiased target for the position's value
under that play).  Labels are from the side to move's view: +1 it wins, -1 it loses.

With ``winning_seconds`` each position proved won for its mover also gets its winning
moves (``Solver.find_winning``): every empty cell is then a child with a known result, the
siblings a search must tell apart, with an exact answer; and whether a search leaf's
connections already decide that child (``network.leaf_reading``), where no evaluation is
asked.
"""
from __future__ import annotations

import glob
import math
import os
import random
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

import numpy as np

from ..board import Board
from ..evaluation import get as get_evaluation
from ..evaluation.network import leaf_reading
from ..evaluation.planes import cells_of
from ..geometry import Geometry
from ..solver import Solver, knowledge_by_name

MAX_SIDE = 13  # the data's boards are at most this wide and high
MAX_CELLS = MAX_SIDE * MAX_SIDE
RANDOM_MOVES = (1, 2, 3)  # how many first moves of a data game are drawn at random
RANDOM_PLIES = max(RANDOM_MOVES)  # from this ply on, every move is the policy's

Policy = Callable[[Board, int, random.Random], int]


def circuit_policy(evaluation: str = "resistance", temperature: float = 0.4) -> Policy:
    """A policy drawing each move by the softmax of its one-ply ``evaluation`` values."""
    evaluate = get_evaluation(evaluation)

    def choose(board: Board, colour: int, rng: random.Random) -> int:
        geo = board.geo
        moves = board.legal_moves(colour)
        values = []
        black, white = board.stones
        for move in moves:
            bit = 1 << move
            stones = [black | bit, white] if colour == 0 else [black, white | bit]
            values.append(-evaluate(geo, stones, 1 - colour))
        top = max(values)
        weights = [math.exp((v - top) / temperature) for v in values]
        return rng.choices(moves, weights)[0]

    return choose


def engine_policy(seconds: float = 0.1, texts: Sequence[str] = ()) -> Policy:
    """A policy asking the engine's own player (``genmove`` at ``seconds`` a move, under the
    default settings changed by ``texts``, ``NAME=VALUE`` items as ``Settings.with_texts``
    reads them): slower than the circuit's, but its games look like real ones."""
    from ..player import Player
    from ..settings import Settings
    player = Player(Settings().with_texts(texts))
    last = [0]  # the move number of the previous call: a smaller one starts a new game

    def choose(board: Board, colour: int, rng: random.Random) -> int:
        if board.move_number() <= last[0]:
            player.reset()  # a new game: the search's tables start afresh
        last[0] = board.move_number()
        result = player.genmove(board, colour, seconds)
        choose.score = None if result.proved else result.score  # (what the search saw)
        return result.move

    choose.player = player  # type: ignore[attr-defined]  (what it plays under)
    choose.score = None  # type: ignore[attr-defined]  the last search's score, if unproved
    return choose


@dataclass
class Game:
    """One self-play game: its size, the positions' boards and movers, the moves played,
    and each position's label and whether the solver proved it."""
    size: int
    cells: list = field(default_factory=list)  # int8 arrays, one per position
    movers: list = field(default_factory=list)
    moves: list = field(default_factory=list)  # (col, row) of the move played there
    labels: list = field(default_factory=list)
    proved: list = field(default_factory=list)
    scores: list = field(default_factory=list)  # the engine's search score for the mover, or nan
    wins: list = field(default_factory=list)  # int8 arrays like cells: 1 a winning move,
    # -1 a losing one, 2 and -2 the same decided by the child's connections, 0 occupied or
    # not known (the position not proved won for its mover)
    winner: int = -1


def play_game(size: int, policy: Policy, rng: random.Random, random_moves: int = 2,
              solver: Optional[Solver] = None, solve_seconds: float = 0.2,
              misses: int = 2, winning_seconds: float = 0.0) -> Game:
    """Play one game of ``size``×``size`` with ``policy`` and label its positions; with
    ``winning_seconds``, find the winning moves of each position proved won for its mover
    past the random first moves (within that many seconds each, else none are kept)."""
    board = Board(size)
    game = Game(size)
    colour = 0
    history = []  # (stones, mover, move, the engine's search score or nan)
    while board.winner() is None:
        score = math.nan
        if len(history) < random_moves:
            move = rng.choice(board.legal_moves(colour))
        else:
            move = policy(board, colour, rng)
            seen = getattr(policy, "score", None)
            score = math.nan if seen is None else float(seen)
        history.append((list(board.stones), colour, move, score))
        board.play(move, colour)
        colour = 1 - colour
    game.winner = board.winner()
    geo = board.geo
    labels = [1.0 if mover == game.winner else -1.0 for _, mover, _, _ in history]
    proved = [False] * len(history)
    if solver is not None:
        solver.clear()
        failed = 0
        for i in range(len(history) - 1, -1, -1):
            stones, mover, _, _ = history[i]
            result = solver.solve(geo, stones, mover, seconds=solve_seconds)
            if result.winner is None:
                failed += 1
                if failed >= misses:
                    break
                continue
            failed = 0
            labels[i] = 1.0 if result.winner == mover else -1.0
            proved[i] = True
    wins = [np.zeros(geo.size, np.int8) for _ in history]
    if solver is not None and winning_seconds > 0:
        for i in range(len(history) - 1, random_moves - 1, -1):
            if proved[i] and labels[i] > 0:
                stones, mover, _, _ = history[i]
                wins[i] = winning_cells(geo, stones, mover,
                                        solver.find_winning(geo, stones, mover,
                                                            seconds=winning_seconds)[0])
    for (stones, mover, move, score), label, sure, won in zip(history, labels, proved, wins):
        game.scores.append(score)
        game.cells.append(cells_of(geo, stones))
        game.movers.append(mover)
        game.moves.append(geo.coords(move))
        game.labels.append(label)
        game.proved.append(sure)
        game.wins.append(won)
    return game


def winning_cells(geo: Geometry, stones: list[int], mover: int,
                  winning: Optional[list[int]]) -> np.ndarray:
    """``cells_of``'s layout with 1 on the ``winning`` moves and -1 on the other empty
    cells, doubled where the child's connections decide it as a search leaf reads them
    (all 0 where ``winning`` is None: not known)."""
    out = np.zeros(geo.size, np.int8)
    if winning is None:
        return out
    won = set(winning)
    for i, cell in enumerate(geo.cells):
        if ((stones[0] | stones[1]) >> cell) & 1:
            continue
        child = list(stones)
        child[mover] |= 1 << cell
        _, _, own, opp = leaf_reading(geo, child, 1 - mover)
        out[i] = (1 if cell in won else -1) * (2 if own or opp == 2 else 1)
    return out


def to_arrays(games: list[Game]) -> dict[str, np.ndarray]:
    """The games' positions as arrays (what ``np.savez`` stores and training reads):
    ``size``, ``cells`` (padded to MAX_CELLS), ``mover``, ``move`` (col, row), ``label``,
    ``proved``, ``ply``, ``game`` (the game's index), ``score`` (the engine's search
    score for the mover where the engine chose the move unproved, else nan) and ``wins``
    (each move's result where known, padded like ``cells``: ``Game.wins``)."""
    rows = sum(len(g.cells) for g in games)
    out = {
        "size": np.zeros(rows, np.int8), "cells": np.zeros((rows, MAX_CELLS), np.int8),
        "mover": np.zeros(rows, np.int8), "move": np.zeros((rows, 2), np.int8),
        "label": np.zeros(rows, np.float32), "proved": np.zeros(rows, np.bool_),
        "ply": np.zeros(rows, np.int16), "game": np.zeros(rows, np.int32),
        "score": np.full(rows, np.nan, np.float32),
        "wins": np.zeros((rows, MAX_CELLS), np.int8),
    }
    r = 0
    for index, g in enumerate(games):
        for ply, (cells, mover, move, label, sure, score, won) in enumerate(
                zip(g.cells, g.movers, g.moves, g.labels, g.proved, g.scores, g.wins)):
            out["size"][r] = g.size
            out["cells"][r, :cells.size] = cells
            out["mover"][r] = mover
            out["move"][r] = move
            out["label"][r] = label
            out["proved"][r] = sure
            out["ply"][r] = ply
            out["game"][r] = index
            out["score"][r] = score
            out["wins"][r, :won.size] = won
            r += 1
    return out


def load_parts(paths: list[str]) -> dict[str, np.ndarray]:
    """The part files (``to_arrays``, saved by ``scripts/value_data.py``) under ``paths``
    (files, or folders of ``*.npz``) joined, each part's game indices shifted past the
    previous parts' so that they stay unique."""
    files = sorted(f for p in paths for f in (glob.glob(os.path.join(p, "*.npz"))
                                               if os.path.isdir(p) else [p]))
    parts, offset = [], 0
    for name in files:
        with np.load(name) as data:
            part = {k: data[k] for k in data.files}
        part.setdefault("score", np.full(len(part["game"]), np.nan, np.float32))  # (older)
        part.setdefault("wins", np.zeros((len(part["game"]), MAX_CELLS), np.int8))
        part["game"] = part["game"] + offset
        offset = int(part["game"].max()) + 1 if len(part["game"]) else offset
        parts.append(part)
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def new_solver() -> Solver:
    """A solver with the engine's default knowledge and a modest table."""
    return Solver(knowledge_by_name(), tt_size=200_000)
