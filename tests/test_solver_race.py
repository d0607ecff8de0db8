"""scripts/solver_race.py: two engines' dfpn-solve-state raced over a position file, the
table it prints, the JSON it writes, and a wrong engine caught by its exit status."""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

from tests.htpclient import engine_command

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RACE = os.path.join(ROOT, "scripts", "solver_race.py")
BROKEN = os.path.join(ROOT, "tests", "engines", "broken_engine.py")
POSITIONS = """# two 4x4 positions: an opening that loses, and one won for the side to move
4 a1 white = white
4 b:d1 w:a1 black = black
"""


def race(tmp_path, second: str, *args: str) -> tuple[subprocess.CompletedProcess, dict]:
    path = tmp_path / "four.txt"
    path.write_text(POSITIONS)
    out = tmp_path / "race.json"
    ours = shlex.join(engine_command())
    proc = subprocess.run(
        [sys.executable, RACE, str(path), "--cap", "10", "--json", str(out),
         "--engine", f"ours={ours}", "--init", "ours=param_hexengine solver_time {cap}",
         "--engine", f"other={second}", *args],
        capture_output=True, text=True, timeout=60)
    return proc, (json.loads(out.read_text()) if out.exists() else {})


def test_race_of_our_engine_against_itself(tmp_path):
    proc, record = race(tmp_path, shlex.join(engine_command() + ["--quiet"]))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    lines = proc.stdout.splitlines()
    assert "| position | known | ours | s | nodes | other | s | nodes | ours/other |" in lines
    rows = [line for line in lines if line.startswith("| 4 ")]
    assert [row.split(" | ")[:3] for row in rows] == [["| 4 a1 white", "white", "white"],
                                                      ["| 4 d1 a1 black", "black", "black"]]
    assert all(row.split(" | ")[5] == row.split(" | ")[2] for row in rows)  # other agrees
    summary = next(line for line in lines if line.startswith("| four.txt |"))
    cells = [c.strip() for c in summary.strip("|").split("|")]
    assert cells[:3] == ["four.txt", "10", "2 of 2"] and cells[5] == "2 of 2"
    assert cells[-1] == "0" and "DISAGREEMENT" not in proc.stdout + proc.stderr
    assert record["engines"]["ours"]["init"] == ["param_hexengine solver_time 10"]
    answers = [p["answers"] for p in record["files"][0]["positions"]]
    assert [a["ours"]["winner"] for a in answers] == [1, 0]
    assert all(a["ours"]["nodes"] and a["other"]["nodes"] is None for a in answers)  # --quiet
    assert record["disagreements"] == []


def test_race_catches_a_wrong_engine(tmp_path):
    wrong = shlex.join([sys.executable, BROKEN, "--solve", "white"])
    proc, record = race(tmp_path, wrong, "--no-rows")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    said = "4 d1 a1 black): ours says black, other says white"
    assert said in proc.stdout and said in proc.stderr
    assert "other says white, the file says black" in proc.stdout
    assert "4 a1 white" not in "".join(record["disagreements"])  # right there, by chance
    assert len(record["disagreements"]) == 2
    assert "| position |" not in proc.stdout  # --no-rows: the summary only
    summary = next(line for line in proc.stdout.splitlines() if line.startswith("| four.txt"))
    assert summary.rstrip().endswith("| **2** |")
