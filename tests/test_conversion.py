"""scripts/conversion.py: solved positions from a record, and a configuration judged on them."""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(ROOT, "scripts", "conversion.py")
MOVES = ["c3", "b4", "c2", "d1", "b3", "a4", "c4", "c5", "d4", "d5", "e4"]  # black wins


def run(*args: str) -> str:
    done = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_collect_solves_backwards_and_judge_counts_wins_thrown_away(tmp_path):
    record = {"game": 0, "size": "5x5", "black": "a", "white": "b", "winner": "a",
              "moves": [{"move": m, "by": "ab"[i % 2]} for i, m in enumerate(MOVES)]}
    results = tmp_path / "results.jsonl"
    results.write_text(json.dumps(record) + "\n")
    solved = tmp_path / "solved.jsonl"
    assert "10 solved positions" in run("collect", str(results), "--first", "1", "--limit",
                                        "5", "--out", str(solved))
    items = [json.loads(line) for line in solved.read_text().splitlines()]
    assert [len(item["moves"]) for item in items] == list(range(10, 0, -1))
    last = items[0]  # black to move, one stone from its win
    assert last["to_move"] == 0 and last["winner"] == 0 and last["win_move"] in ("b5", "e4")
    # random moves throw wins away; the default's search proves every one of these
    # positions itself, so none is left for it to choose
    counts = re.search(r"kept (\d+), thrown away (\d+), unsolved (\d+)",
                       run("judge", str(solved), "--set", "algorithm=random", "--set", "seed=1"))
    kept, thrown, unsolved = (int(x) for x in counts.groups())
    won = sum(item["winner"] == item["to_move"] for item in items)
    assert thrown >= 1 and kept + thrown + unsolved == won
    assert "kept 0, thrown away 0, unsolved 0" in run("judge", str(solved))
