"""scripts/vc_compare.py: our H-search build against another engine's over HTP, pair by
pair.  Our own engine as the other, with the same bounds, joins exactly the same pairs;
with wider bounds in process, ours joins pairs it does not."""
from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.htpclient import engine_command

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "vc_compare.py")
POSITION = "7 d4 c5 e3 b4 c3 black\n"


def run(tmp_path, *args: str) -> subprocess.CompletedProcess:
    positions = tmp_path / "positions.txt"
    positions.write_text("# one position\n" + POSITION)
    ours = " ".join(engine_command() + ["--quiet"])
    return subprocess.run([sys.executable, SCRIPT, str(positions), *args, "--engine", ours],
                          capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=ROOT))


def counts(text: str) -> dict[str, int]:
    found = re.search(r"theirs (\d+), ours (\d+), both (\d+); theirs only (\d+), "
                      r"ours only (\d+)", text)
    assert found, text
    return dict(zip(("theirs", "ours", "both", "theirs_only", "ours_only"),
                    map(int, found.groups())))


def test_the_same_build_over_htp_joins_the_same_pairs(tmp_path):
    for colour in ("black", "white"):
        proc = run(tmp_path, "1", "--moves", "d3 e4", "--colour", colour,
                   "--limits", "default", "--no-fill")
        assert proc.returncode == 0, proc.stderr
        c = counts(proc.stdout)
        assert c["theirs"] == c["ours"] == c["both"] > 20, c
        assert c["theirs_only"] == c["ours_only"] == 0


def test_wider_bounds_in_process_join_pairs_the_other_does_not(tmp_path):
    proc = run(tmp_path, "1", "--limits", "solver")
    assert proc.returncode == 0, proc.stderr
    c = counts(proc.stdout)
    assert c["ours_only"] > 0
    assert c["both"] + c["theirs_only"] == c["theirs"]
    assert c["both"] + c["ours_only"] == c["ours"]


def test_a_position_not_in_the_file_or_an_occupied_move_is_refused(tmp_path):
    proc = run(tmp_path, "2")
    assert proc.returncode == 2 and "has 1 position(s), no position 2" in proc.stderr
    proc = run(tmp_path, "1", "--moves", "d4")
    assert proc.returncode == 2 and "d4 is not empty" in proc.stderr
    assert "Traceback" not in proc.stderr
