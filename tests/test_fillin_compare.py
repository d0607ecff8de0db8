"""scripts/fillin_compare.py: two engines' fill-in on the same positions, read over HTP and
counted as the engine computes it in process; an engine that fills nothing shows as such;
``--expand`` takes the positions our solver expands."""
from __future__ import annotations

import os
import shlex
import subprocess
import sys

from hexengine import analysis_views as views
from hexengine.geometry import geometry
from tests.htpclient import engine_command

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "fillin_compare.py")
BLIND = os.path.join(ROOT, "tests", "engines", "broken_engine.py")  # fills nothing
POSITIONS = """# 5x5 positions with dead and captured cells, and one with none
5 b:d3 w:e1 b:d1 w:e4 b:a5 white
5 b:a2 w:d2 b:e4 w:d5 b:c2 white
5 b:c3 w:e3 b:d5 white
5 c3 white
"""


def run(tmp_path, second: str, *args: str) -> subprocess.CompletedProcess:
    path = tmp_path / "five.txt"
    path.write_text(POSITIONS)
    ours = shlex.join(engine_command() + ["--quiet"])
    return subprocess.run(
        [sys.executable, SCRIPT, str(path), "--engine", f"ours={ours}",
         "--engine", f"other={second}", *args],
        capture_output=True, text=True, timeout=120)


def rows(proc: subprocess.CompletedProcess) -> dict[str, list[int]]:
    out = {}
    for line in proc.stdout.splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if line.startswith("| ") and cells[1].replace(",", "").isdigit():
            out[cells[0]] = [int(c.replace(",", "")) for c in cells[1:]]
    return out


def in_process(tmp_path) -> tuple[int, int]:
    """Cells our root analysis fills in the file's positions, and positions with any."""
    sys.path.insert(0, os.path.join(ROOT, "scripts"))
    from solver_race import read_positions
    geo = geometry(5, 5)
    total = positions = 0
    for pos in read_positions(str(tmp_path / "five.txt")):
        stones = geo.stones(placed=pos.moves)
        report = views.inferior(geo, stones, pos.to_move)
        n = sum((report.dead_as[c] | report.captured[c]).bit_count() for c in (0, 1))
        total += n
        positions += n > 0
    return total, positions


def test_our_engine_against_itself_counts_what_it_computes(tmp_path):
    proc = run(tmp_path, shlex.join(engine_command() + ["--quiet"]))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.splitlines()[0] == "4 positions"
    total, _ = in_process(tmp_path)
    assert total > 0
    assert rows(proc) == {"ours": [total, 0], "other": [total, 0]}


def test_an_engine_that_fills_nothing_is_shown_filling_less(tmp_path):
    proc = run(tmp_path, shlex.join([sys.executable, BLIND]), "--show", "1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    total, positions = in_process(tmp_path)
    assert rows(proc) == {"ours": [total, positions], "other": [0, 0]}
    drawn = proc.stdout.split("(= both fill, 1 only ours, 2 only other", 1)[1]
    board = drawn.split("\n")[1:6]
    assert sum(row.count("1") for row in board) > 0  # ours' extra cells marked
    assert all(ch in "BW.1 " for row in board for ch in row)


def test_expand_takes_the_positions_our_solver_expands(tmp_path):
    path = tmp_path / "one.txt"
    path.write_text("4 b2 white\n")
    ours = shlex.join(engine_command() + ["--quiet"])
    proc = subprocess.run(
        [sys.executable, SCRIPT, str(path), "--expand", "10", "--engine", f"a={ours}",
         "--engine", f"b={ours}"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    count = int(proc.stdout.splitlines()[0].split()[0])
    assert count > 1  # the root and the positions below it, each once
    a, b = rows(proc)["a"], rows(proc)["b"]
    assert a == b and a[1] == 0
