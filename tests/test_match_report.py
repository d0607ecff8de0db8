"""hex-match's report page and pictures, and its judge of forfeits, on real matches of quick
engines: the pictures are read back as XML and compared with results.jsonl; the judge's
verdicts are checked on positions whose winner is plain (and solved again here)."""
from __future__ import annotations

import json
import os
import shlex
import sys
import xml.etree.ElementTree as ET

import pytest

from hexengine.board import COLOUR_NAMES
from hexengine.solver import Solver, knowledge_by_name
from protocol.match import stats
from protocol.match.pictures import score_colour
from protocol.match.referee import replay
from tests.test_match import BROKEN, ours, results, run_match

SVG = "{http://www.w3.org/2000/svg}"
XHTML = "{http://www.w3.org/1999/xhtml}"
FIRST = shlex.join([sys.executable, BROKEN])  # plays the first empty cell, row by row
CRASH = shlex.join([sys.executable, BROKEN, "--mode", "crash", "--after", "1"])
JUDGE = shlex.join([sys.executable, "-m", "hexengine", "--quiet"])


def judge_args(seconds: float) -> list[str]:
    return ["--judge", JUDGE, "--judge-init", f"param_hexengine solver_time {seconds:g}"]


def svg(path) -> ET.Element:
    root = ET.parse(path).getroot()
    assert root.tag == f"{SVG}svg"
    return root


def cells(root: ET.Element) -> dict[str, ET.Element]:
    return {g.get("id")[len("cell-"):]: g for g in root.iter(f"{SVG}g")
            if g.get("class") == "cell"}


def rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i:i + 2], 16) for i in (1, 3, 5))


def test_report_pictures_show_the_games(tmp_path):
    """Every opening of 4x4 twice: the board has one hexagon per cell, labelled a-d and 1-4,
    each cell's wins/games and colour are the first engine's games from that cell in
    results.jsonl, and the score line has a point per game ending at the final score."""
    proc = run_match(tmp_path, "--engine", f"first={FIRST}",
                     "--engine", f"rnd={ours('--algorithm', 'random', '--seed', '5')}",
                     "--size", "4", "--openings", "all", "--time", "0.3")
    assert proc.returncode == 0, proc.stderr
    games = results(tmp_path)
    assert len(games) == 32
    board = svg(tmp_path / "openings.svg")
    drawn = cells(board)
    assert sorted(drawn) == sorted(f"{c}{r}" for c in "abcd" for r in range(1, 5))
    for g in drawn.values():
        polygon = g.find(f"{SVG}polygon")
        assert len(polygon.get("points").split()) == 6
    labels = {t.text for t in board.iter(f"{SVG}text")}
    assert set("abcd") | {"1", "2", "3", "4"} <= labels
    scores = set()
    for name, g in drawn.items():
        mine = [r for r in games if r.opening == [name]]
        won = sum(r.winner == "first" for r in mine)
        assert len(mine) == 2
        count = next(t for t in g.iter(f"{SVG}text") if t.get("class") == "count")
        assert count.text == f"{won}/2"
        fill = g.find(f"{SVG}polygon").get("fill")
        assert fill == score_colour(won / 2)
        red, _, blue = rgb(fill)
        assert (blue > red) if won == 2 else (red > blue) if won == 0 else abs(red - blue) < 20
        scores.add(won)
    assert len(scores) > 1, "every opening gave the same result: the test shows nothing"
    chart = svg(tmp_path / "score.svg")
    lines = [p for p in chart.iter(f"{SVG}polyline") if p.get("class") == "score"]
    assert len(lines) == 1 and len(lines[0].get("points").split()) == 32
    wins = sum(r.winner == "first" for r in games)
    p, low, high = stats.score_interval(wins, 32 - wins)
    final = next(t for t in chart.iter(f"{SVG}text") if t.get("class") == "final")
    assert final.text == f"{100 * p:.1f} % [{100 * low:.0f}, {100 * high:.0f}]"
    page = ET.parse(tmp_path / "report.html").getroot()
    assert len(list(page.iter(f"{SVG}svg"))) == 2  # the pictures, inline
    rows = [[td.text for td in tr] for tr in page.iter(f"{XHTML}tr")]
    assert ["first", str(wins), str(32 - wins)] == rows[1][:3]
    assert not (tmp_path / "ratings.svg").exists()


def test_judge_proves_a_crash_in_a_lost_position_and_not_in_a_won_one(tmp_path):
    """On 4x4 white holds a2-b2-c2 with d1 and d2 free: black to move has lost.  The
    crashing engine as black crashes there (proved lost); as white it crashes after black's
    b1, with white to move and winning (proved won: a forfeit of a won position)."""
    openings = tmp_path / "openings.txt"
    openings.write_text("a1 a2 b4 b2 c4 c2\n")
    out = tmp_path / "out"
    proc = run_match(out, "--engine", f"crash={CRASH}", "--engine", f"first={FIRST}",
                     "--size", "4", "--openings", str(openings), "--time", "0.3",
                     *judge_args(10))
    assert proc.returncode == 0, proc.stderr
    games = sorted(results(out), key=lambda r: r.game)
    assert [(r.black, r.reason, r.judged) for r in games] == [
        ("crash", "crash", "proved-lost"), ("first", "crash", "proved-won")]
    solver = Solver(knowledge_by_name())
    for r in games:  # the final positions, solved here: the verdicts hold
        board = replay(r, 4, 4)
        winner = solver.solve(board.geo, board.stones, board.to_move, seconds=10).winner
        assert COLOUR_NAMES[winner] == "white" and board.to_move == (
            0 if r.black == "crash" else 1)
        assert r.judged_detail.startswith(f"{COLOUR_NAMES[board.to_move]} to move, white wins")
        assert f"judged: {r.judged}" in (out / r.sgf).read_text()
    summary = (out / "summary.md").read_text()
    assert "| first | 2 | 0 | 0 | 1 | 0 | 1 | 0 | 0 |" in summary
    assert ("Counting only forfeits proved lost (1 game, 1 unproved forfeit left out): "
            "crash 0 – 1 first") in summary
    # the forfeit of the won position is crash's win on the board
    assert ("Scoring each forfeit as judged, a forfeit of a won position as a win for the "
            "side that forfeited (2 games, 0 unproved forfeits left out): crash 1 – 1 first"
            ) in summary
    page = ET.parse(out / "report.html").getroot()
    headings = [th.text for th in page.iter(f"{XHTML}th")]
    assert "forfeit proved lost" in headings and "forfeit of a won position" in headings
    series = [p.get("data-series") for p in svg(out / "score.svg").iter(f"{SVG}polyline")
              if p.get("class") == "score"]
    assert series == ["crash, all games", "crash, proved only"]


def test_forfeits_played_before_are_judged_later_and_unclear_ones_stay_unproved(tmp_path):
    """A 9x9 match played without a judge, then the same command with one: its two
    forfeits are judged and results.jsonl rewritten (the games unchanged); the judge has
    0.05 s, far too little to solve a 9x9 board of two stones: not proved."""
    openings = tmp_path / "openings.txt"
    openings.write_text("e5\n")
    args = ["--engine", f"crash={CRASH}", "--engine", f"first={FIRST}", "--size", "9",
            "--openings", str(openings), "--time", "0.3"]
    first = run_match(tmp_path / "out", *args)
    assert first.returncode == 0, first.stderr
    before = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").open()]
    assert len(before) == 2 and not any("judged" in game for game in before)
    assert "forfeit proved lost" not in (tmp_path / "out" / "summary.md").read_text()
    proc = run_match(tmp_path / "out", *args, *judge_args(0.05))
    assert proc.returncode == 0, proc.stderr
    assert "judging 2 forfeits" in proc.stderr
    after = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").open()]
    assert [game.pop("judged") for game in after] == ["not-proved", "not-proved"]
    assert [game.pop("judged_detail")[:21] for game in after] == [
        "black to move, not so", "white to move, not so"]
    assert after == before
    assert "judged: not-proved" in (tmp_path / "out" / "game-00001.sgf").read_text()
    assert "(0 games, 2 unproved forfeits left out): no game to count" in proc.stdout


@pytest.mark.parametrize("fault", ["hang", "crash"])
def test_a_broken_judge_does_not_break_the_match(tmp_path, fault):
    openings = tmp_path / "openings.txt"
    openings.write_text("a1 a2 b4 b2 c4 c2\n")
    judge = shlex.join([sys.executable, BROKEN, "--solve", fault])
    proc = run_match(tmp_path / "out", "--engine", f"crash={CRASH}",
                     "--engine", f"first={FIRST}", "--size", "4", "--openings", str(openings),
                     "--time", "0.3", "--judge", judge, "--judge-timeout", "0.5")
    assert proc.returncode == 0, proc.stderr
    games = results(tmp_path / "out")
    assert [r.judged for r in games] == ["judge-error", "judge-error"]
    assert all(r.judged_detail.startswith("timeout" if fault == "hang" else "crash")
               for r in games)
    assert "| first | 2 | 0 | 0 | 0 | 0 | 0 | 2 | 0 |" in proc.stdout


def test_a_judge_without_a_solver_is_refused_before_any_game(tmp_path):
    judge = shlex.join([sys.executable, BROKEN, "--solve", "refuse"])
    proc = run_match(tmp_path / "out", "--engine", f"crash={CRASH}",
                     "--engine", f"first={FIRST}", "--size", "3", "--judge", judge)
    assert proc.returncode == 1
    assert "does not know dfpn-solve-state" in proc.stderr
    assert not os.path.exists(tmp_path / "out")


def test_summary_gives_each_engines_time_per_move(tmp_path):
    """summary.md names each engine's mean and longest time per move, from its genmoves
    in results.jsonl (not the opening moves): an engine that takes 0.25 s a move shows it,
    one that answers at once does not."""
    slow = shlex.join([sys.executable, BROKEN, "--delay", "0.25"])
    proc = run_match(tmp_path, "--engine", f"slow={slow}", "--engine", f"quick={FIRST}",
                     "--size", "3", "--openings", "all", "--games", "4", "--time", "1")
    assert proc.returncode == 0, proc.stderr
    games = results(tmp_path)
    line = next(l for l in (tmp_path / "summary.md").read_text().splitlines()
                if l.startswith("Time per move: "))
    for name in ("slow", "quick"):
        times = [m["seconds"] for r in games for m in r.moves if m["by"] == name]
        assert times and all(m["by"] in ("slow", "quick", "opening")
                             for r in games for m in r.moves)
        assert (f"{name} {sum(times) / len(times):.2f} s mean, {max(times):.2f} s longest "
                f"({len(times)} moves)") in line
        assert (min(times) >= 0.25) == (name == "slow")


def test_a_tournament_scores_a_forfeit_of_a_won_position_for_the_side_that_forfeited():
    from protocol.match.referee import GameResult
    from protocol.match.report import as_judged, tournament_summary

    def game(n, winner, loser, reason, judged=""):
        return GameResult(n, winner, loser, [], n, "5x5", winner, loser, "black", reason,
                          judged=judged)

    games = [game(0, "a", "b", "connection"), game(1, "a", "b", "crash", "proved-won"),
             game(2, "a", "c", "crash", "proved-lost"), game(3, "c", "b", "crash",
                                                            "not-proved")]
    judged = as_judged(games)
    assert [(r.winner, r.loser) for r in judged] == [("a", "b"), ("b", "a"), ("a", "c")]
    assert judged[1].winner_colour == "white"
    text = tournament_summary(["a", "b", "c"], games, "t")
    assert "Rating list scoring each forfeit as judged" in text and "(3 games)" in text
