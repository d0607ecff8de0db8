"""scripts/value_data.py: self-play games played and labelled as the training reads them."""
from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np

from hexengine.board import Board
from hexengine.evaluation.planes import cells_of
from hexengine.learning import selfplay

SCRIPT = os.path.join(os.path.dirname(os.path.dirname(__file__)), "scripts", "value_data.py")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          timeout=300)


def test_engine_games_under_other_settings_are_whole_and_labelled(tmp_path):
    proc = run("--games", "2", "--jobs", "1", "--sizes", "5", "--engine-seconds", "0.02",
               "--engine-set", "evaluation=net-graph", "--seed", "7", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    with np.load(tmp_path / "part-7-0.npz") as data:
        part = {k: data[k] for k in data.files}
    assert set(part["game"].tolist()) == {0, 1}
    for game in (0, 1):
        rows = np.nonzero(part["game"] == game)[0]
        board = Board(5)
        for r in rows:  # each position is the previous one plus the move played there
            assert np.array_equal(part["cells"][r, :25], cells_of(board.geo, board.stones))
            col, row = part["move"][r]
            board.play(board.geo.index(int(col), int(row)), int(part["mover"][r]))
        winner = board.winner()
        assert winner is not None  # played to the end
        # the last mover won, and every label is the solver's or the game's: ±1
        assert set(np.abs(part["label"][rows]).tolist()) == {1.0}
        assert part["label"][rows[-1]] == 1.0 and part["mover"][rows[-1]] == winner


def test_the_engine_policy_plays_under_the_settings_given():
    policy = selfplay.engine_policy(0.01, ("evaluation=net-graph", "width=8"))
    assert policy.player.settings.evaluation == "net-graph"
    assert policy.player.settings.width == 8
    board = Board(5)
    assert policy(board, 0, random.Random(1)) in board.legal_moves(0)


def test_engine_settings_without_engine_games_are_refused(tmp_path):
    proc = run("--games", "1", "--engine-set", "evaluation=net-graph",
               "--out", str(tmp_path / "out"))
    assert proc.returncode == 2 and "--engine-seconds" in proc.stderr


def test_a_bad_engine_setting_is_refused_before_any_game(tmp_path):
    proc = run("--games", "1", "--engine-seconds", "0.02", "--engine-set", "evaluation=bogus",
               "--out", str(tmp_path / "out"))
    assert proc.returncode == 2
    assert "evaluation must be one of" in proc.stderr
    assert not (tmp_path / "out").exists()
