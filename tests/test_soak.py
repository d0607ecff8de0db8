"""scripts/soak.py, the long-run check, on a few small games: it reports the memory figures
when every move is legal, and fails loudly on an engine that plays an illegal move."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.test_match import BROKEN, ROOT, ours

SOAK = os.path.join(ROOT, "scripts", "soak.py")


def soak(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, SOAK, *args], capture_output=True, text=True,
                          timeout=120)


def test_soak_plays_games_in_one_process_and_reports_memory(tmp_path):
    figures = tmp_path / "soak.json"
    proc = soak("--engine", ours(), "--games", "4", "--size", "5", "--time", "0.05",
                "--every", "2", "--json", str(figures))
    assert proc.returncode == 0, proc.stderr
    assert "4 games" in proc.stdout and "all legal" in proc.stdout
    data = json.loads(figures.read_text())
    assert set(data["rss_mb"]) == {"start", "first_game", "middle", "end", "game 2", "game 4"}
    assert all(20 < mb < 2000 for mb in data["rss_mb"].values())
    assert data["moves"] >= 4 * 3  # no 5x5 game is won in fewer than 5 stones


def test_soak_fails_on_an_illegal_move():
    proc = soak("--engine", f"{sys.executable} {BROKEN} --mode illegal --after 3",
                "--games", "2", "--size", "5", "--time", "0.05")
    assert proc.returncode == 1
    assert "FAILED" in proc.stderr and "occupied" in proc.stderr


@pytest.mark.slow
def test_memory_is_flat_after_warm_up(tmp_path):
    """The long run (about 25 minutes): between game 50 and game 300 of 9x9 at 0.05 s a move
    the engine's resident memory grows by at most 4 MiB (every cache capped, nothing kept
    per game)."""
    figures = tmp_path / "soak.json"
    proc = subprocess.run([sys.executable, SOAK, "--engine", ours(), "--games", "300",
                           "--size", "9", "--time", "0.05", "--every", "50", "--json",
                           str(figures)], capture_output=True, text=True, timeout=7200)
    assert proc.returncode == 0, proc.stderr
    rss = json.loads(figures.read_text())["rss_mb"]
    assert rss["game 300"] - rss["game 50"] <= 4.0, rss
