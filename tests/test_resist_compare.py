"""scripts/resist_compare.py: our move values against another engine's eval-resist, over
HTP, on recorded positions.  An engine whose eval-resist is our own evaluation agrees
move for move; the rank correlation reads ties and reversed orders as it should."""
from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.htpclient import engine_command

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "resist_compare.py")
ENGINE = os.path.join(ROOT, "tests", "engines", "resist_engine.py")
GAME = {"game": 1, "black": "a", "white": "b", "size": "5x5", "winner": "a",
        "moves": [{"colour": c, "move": m, "by": "a" if c == "black" else "b"}
                  for c, m in zip(["black", "white"] * 3, ["c3", "b4", "d2", "c2", "b3"])]}


def compare(tmp_path) -> tuple[subprocess.CompletedProcess, list]:
    results = tmp_path / "results.jsonl"
    results.write_text(json.dumps(GAME) + "\n")
    out = tmp_path / "out.json"
    env = dict(os.environ, PYTHONPATH=ROOT)
    engine = f"{sys.executable} {ENGINE}"
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


def test_an_engine_without_eval_resist_is_named_not_a_traceback(tmp_path):
    results = tmp_path / "results.jsonl"
    results.write_text(json.dumps(GAME) + "\n")
    ours = " ".join(engine_command() + ["--quiet"])
    proc = subprocess.run([sys.executable, SCRIPT, str(results), "--plies", "2",
                           "--engine", ours], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=ROOT))
    assert proc.returncode == 1
    assert "needs vc-build and eval-resist" in proc.stderr and "Traceback" not in proc.stderr
    bad = subprocess.run([sys.executable, SCRIPT, str(results), "--plies", "2,x",
                          "--engine", ours], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "numbers joined by commas" in bad.stderr


def test_the_rank_correlation_reads_ties_and_reversed_orders():
    from scripts.resist_compare import spearman
    assert spearman([0.3, 0.1, 0.3, 0.2], [1.0, -2.0, 1.0, 0.5]) > 0.999  # ties: one rank
    assert abs(spearman([0.3, 0.1, 0.3, 0.2], [4.0, 1.0, 3.0, 2.0]) - 0.9487) < 1e-3
    values = [0.5, -0.2, 0.1, 0.9, 0.0]
    assert spearman(values, [2 * v + 1 for v in values]) > 0.999
    assert spearman(values, [-v for v in values]) < -0.999
    assert spearman(values, [1.0] * 5) != spearman(values, [1.0] * 5)  # nan: one is constant
