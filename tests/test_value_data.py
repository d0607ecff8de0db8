"""scripts/value_data.py: self-play games played and labelled as the training reads them."""
from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np

from hexengine.board import Board
from hexengine.evaluation.planes import cells_of, stones_of
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


FEATURES = os.path.join(os.path.dirname(SCRIPT), "value_features.py")


def test_features_are_what_a_search_leaf_reads(tmp_path):
    """scripts/value_features.py: each position's filled board and circuit value are
    ``vc_graph``'s on the board a search leaf reads (``fill_in`` as play fills in); child 0
    is the move played and the others are other empty cells; a position its connections
    decide has no children."""
    from hexengine.evaluation import vc_graph
    from hexengine.knowledge import inferior
    assert run("--games", "3", "--jobs", "1", "--sizes", "6", "--seed", "3",
               "--out", str(tmp_path)).returncode == 0
    out = tmp_path / "features.npz"
    proc = subprocess.run([sys.executable, FEATURES, str(tmp_path / "part-3-0.npz"),
                           "--jobs", "1", "--chunk", "40", "--out", str(out)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    with np.load(out) as data:
        f = {k: data[k] for k in data.files}
    geo = Board(6).geo
    with_children = 0
    for r in range(len(f["size"])):
        stones = stones_of(geo, f["cells"][r])
        mover = int(f["mover"][r])
        filled = inferior.play_fill_in(geo, stones)[0]
        value, own, opp, _ = vc_graph.connected(geo, filled, mover)
        assert np.array_equal(f["filled"][r, :36], cells_of(geo, filled))
        assert f["circuit"][r] == np.float32(value)
        assert f["decided"][r] == (bool(own) or opp == 2)
        if not f["child_ok"][r]:
            continue
        assert not f["decided"][r] and f["ply"][r] >= 3
        with_children += 1
        col, row = (int(v) for v in f["move"][r])
        moves = []
        for k in range(4):
            kid = f["child_cells"][r, k, :36]
            added = np.nonzero((kid != 0) & (f["cells"][r, :36] == 0))[0]
            # the child's own stone is there, as the mover's; fill-in may add others
            assert len(added) >= 1 and set(kid[f["cells"][r, :36] != 0]) <= {1, 2}
            moves.append({int(i) for i in added if kid[i] == mover + 1})
        assert (row * 6 + col) in moves[0]
        assert all(m for m in moves[1:])
    assert with_children >= 5


def test_winning_moves_agree_with_exhaustive_play(tmp_path):
    """``--winning-seconds``: in every position proved won for its mover, each empty cell is
    marked as exhaustive play says (a winning move or a losing one), doubled exactly where
    a search leaf's connections decide the child; other positions carry no marks."""
    from hexengine.evaluation.network import leaf_reading
    from tests.test_solver import exhaustive
    proc = run("--games", "4", "--jobs", "1", "--sizes", "4", "--winning-seconds", "5",
               "--seed", "5", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    with np.load(tmp_path / "part-5-0.npz") as data:
        part = {k: data[k] for k in data.files}
    geo = Board(4).geo
    wins = exhaustive(geo)
    families = decided = 0
    for r in range(len(part["size"])):
        stones = stones_of(geo, part["cells"][r])
        mover = int(part["mover"][r])
        marks = part["wins"][r, :16]
        won = part["proved"][r] and part["label"][r] > 0
        if won and part["ply"][r] >= selfplay.RANDOM_PLIES:  # (past any random move)
            assert marks.any()  # (4×4: found well within the time)
        if not marks.any():
            continue
        assert won
        families += 1
        for i, cell in enumerate(geo.cells):
            if part["cells"][r, i]:
                assert marks[i] == 0
                continue
            child = list(stones)
            child[mover] |= 1 << cell
            assert (marks[i] > 0) == (not wins(child[0], child[1], 1 - mover))
            _, _, own, opp = leaf_reading(geo, child, 1 - mover)
            assert (abs(int(marks[i])) == 2) == (bool(own) or opp == 2)
            decided += abs(int(marks[i])) == 2
    assert families >= 5 and decided >= 5


SIBLINGS = os.path.join(os.path.dirname(SCRIPT), "sibling_accuracy.py")


def test_sibling_accuracy_scores_the_held_out_positions_with_open_pairs(tmp_path):
    """scripts/sibling_accuracy.py: one row per board size, counting exactly the held-out
    positions with an open winning and an open losing move, each share a percentage."""
    assert run("--games", "6", "--jobs", "1", "--sizes", "5", "--winning-seconds", "5",
               "--seed", "2", "--out", str(tmp_path)).returncode == 0
    with np.load(tmp_path / "part-2-0.npz") as data:
        wins, game = data["wins"], data["game"]
    expected = int((((wins == 1).any(1)) & ((wins == -1).any(1)) & (game % 2 == 0)).sum())
    assert expected >= 1
    proc = subprocess.run([sys.executable, SIBLINGS, str(tmp_path), "--holdout", "2",
                           "--evaluations", "vc-graph,resistance"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    rows = [line.split("|")[1:-1] for line in proc.stdout.splitlines()
            if line.startswith("| 5×5")]
    assert len(rows) == 1 and int(rows[0][1]) == expected
    for cell in rows[0][2:]:
        assert 0.0 <= float(cell.strip().rstrip("%")) <= 100.0
