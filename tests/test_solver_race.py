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


POSITION_SET = os.path.join(ROOT, "scripts", "position_set.py")


def test_position_set_takes_the_first_proved_positions_of_each_game(tmp_path):
    """scripts/position_set.py on two 5x5 games (one with a swap, skipped) with our engine
    as the judge: every other ply from the 7th, the first two proved of the game, written
    as a file solver_race.py reads, each verdict the exhaustive 5x5 result."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from solver_race import read_positions

    from hexengine.geometry import geometry
    from tests.test_solver import exhaustive

    game = ["c3", "b4", "b3", "d2", "c2", "c1", "d1", "e1", "a2", "b2", "a3", "e2"]
    results = tmp_path / "results.jsonl"
    results.write_text("\n".join(json.dumps({
        "size": "5x5", "moves": [{"move": m} for m in moves]})
        for moves in (["c3", "swap-pieces", "d4"], game)) + "\n")
    out = tmp_path / "set.txt"
    ours = shlex.join(engine_command())
    proc = subprocess.run(
        [sys.executable, POSITION_SET, str(results), "--judge", ours,
         "--judge-init", "param_hexengine solver_time {seconds}", "--limit", "5",
         "--from", "7", "--every", "2", "--jobs", "2", "--out", str(out)],
        capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    positions = read_positions(str(out))
    assert [len(p.moves) for p in positions] == [7, 9]  # the first two proved, in ply order
    geo = geometry(5, 5)
    for p in positions:
        assert p.moves == [(i % 2, m) for i, m in enumerate(game[:len(p.moves)])]
        assert p.to_move == len(p.moves) % 2
        stones = geo.stones(placed=p.moves)
        mover_wins = exhaustive(geo)(stones[0], stones[1], p.to_move)
        assert p.expect == (p.to_move if mover_wins else 1 - p.to_move)
    assert "game 2 ply 7" in proc.stdout and "game 1" not in proc.stdout


GENMOVE_CHECK = os.path.join(ROOT, "scripts", "genmove_check.py")


def test_genmove_check_counts_the_wins_an_engine_keeps(tmp_path):
    """scripts/genmove_check.py with our engine playing and judging: on the won 4x4
    positions (the lost one is skipped) every move keeps the win; an engine that always
    plays the first empty cell throws one away."""
    path = tmp_path / "four.txt"
    path.write_text(POSITIONS + "4 a1 c2 black = white\n")
    ours = shlex.join(engine_command())
    args = [str(path), "--judge", ours, "--judge-init", "param_hexengine solver_time {seconds}",
            "--limit", "10"]
    proc = subprocess.run([sys.executable, GENMOVE_CHECK, *args, "--engine",
                           shlex.join(engine_command() + ["--time", "1"])],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "2 won positions: kept 2 (100 %), thrown away 0, unknown 0, errors 0" in proc.stdout
    first = shlex.join([sys.executable, BROKEN, "--mode", "none"])
    proc = subprocess.run([sys.executable, GENMOVE_CHECK, *args, "--engine", first],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "4 a1 white: b1" in proc.stdout and "thrown away 1" in proc.stdout
