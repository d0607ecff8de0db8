"""scripts/resist_compare.py: our move values against another engine's eval-resist, over
HTP, on recorded positions.  An engine whose eval-resist is our own evaluation agrees
move for move; the same turned round ranks every move the other way."""
from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "resist_compare.py")
ENGINE = os.path.join(ROOT, "tests", "engines", "resist_engine.py")
GAME = {"game": 1, "black": "a", "white": "b", "size": "5x5", "winner": "a",
        "moves": [{"colour": c, "move": m, "by": "a" if c == "black" else "b"}
                  for c, m in zip(["black", "white"] * 3, ["c3", "b4", "d2", "c2", "b3"])]}


def compare(tmp_path, *engine_args: str) -> tuple[subprocess.CompletedProcess, list]:
    results = tmp_path / "results.jsonl"
    results.write_text(json.dumps(GAME) + "\n")
    out = tmp_path / "out.json"
    env = dict(os.environ, PYTHONPATH=ROOT)
    engine = " ".join([sys.executable, ENGINE, *engine_args])
    proc = subprocess.run([sys.executable, SCRIPT, str(results), "--games", "1", "--plies",
                           "1,2,4", "--empty", "5", "--engine", engine, "--out", str(out)],
                          capture_output=True, text=True, timeout=300, env=env)
    assert proc.returncode == 0, proc.stderr
    return proc, json.loads(out.read_text())


def test_an_engine_reading_our_evaluation_agrees_on_every_move(tmp_path):
    proc, rows = compare(tmp_path)
    assert [len(r["moves"]) for r in rows] == [0, 1, 2, 4]
    assert [r["colour"] for r in rows] == ["b", "w", "b", "b"]
    for row in rows:
        assert len(row["values"]) == 25 - len(row["moves"])
        assert row["rho"] > 0.999
        assert row["top15_shared"] == 15
        for cell in row["values"].values():
            assert abs(cell["ours"] - cell["theirs"]) < 1e-5
    assert "4 positions" in proc.stdout and "same first move 4 (100 %)" in proc.stdout


def test_the_same_evaluation_turned_round_ranks_every_move_the_other_way(tmp_path):
    _, rows = compare(tmp_path, "--negate")
    for row in rows:
        assert row["rho"] < -0.999
        assert row["our_first"] != row["their_first"]
