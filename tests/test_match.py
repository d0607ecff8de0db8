"""The match runner: real matches between quick engines, checked through what it writes (SGF,
results.jsonl, summaries), resume after a kill, and adjudication of broken engines."""
from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
import xml.etree.ElementTree as ET

import pytest

from hexengine import sgf
from hexengine.board import BLACK, WHITE
from protocol.match import stats
from protocol.match.referee import GameResult, replay
from tests.htpclient import engine_command

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BROKEN = os.path.join(ROOT, "tests", "engines", "broken_engine.py")


def runner_command() -> list[str]:
    """The installed hex-match if present, else the checkout's script."""
    exe = shutil.which("hex-match")
    return [exe] if exe else [sys.executable, os.path.join(ROOT, "scripts", "match.py")]


def ours(*args: str) -> str:
    return shlex.join(engine_command() + ["--quiet", *args])


def broken(mode: str, after: int = 2) -> str:
    return shlex.join([sys.executable, BROKEN, "--mode", mode, "--after", str(after)])


def run_match(out, *args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(runner_command() + ["--out", str(out), "--quiet", *args],
                          capture_output=True, text=True, timeout=timeout)


def results(out) -> list[GameResult]:
    with open(os.path.join(out, "results.jsonl"), encoding="utf-8") as f:
        return [GameResult.from_json(json.loads(line)) for line in f]


def test_match_records_every_game_as_sgf_and_jsonl(tmp_path):
    proc = run_match(tmp_path, "--engine", f"ab={ours('--time', '0.05')}",
                     "--engine", f"rnd={ours('--algorithm', 'random', '--seed', '4')}",
                     "--size", "4", "--openings", "all", "--games", "8", "--time", "0.3",
                     "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    games = results(tmp_path)
    assert sorted(r.game for r in games) == list(range(8))
    # 4 of the 16 cells, spread over the board, each played twice with the colours exchanged
    by_opening: dict[tuple, list[GameResult]] = {}
    for r in games:
        by_opening.setdefault(tuple(r.opening), []).append(r)
    # one per row, each in another column
    assert sorted(by_opening) == [("a4",), ("b1",), ("c3",), ("d2",)]
    for pair in by_opening.values():
        assert sorted((r.black, r.white) for r in pair) == [("ab", "rnd"), ("rnd", "ab")]
    for r in games:
        # the SGF parses back to the same moves, players and winner
        with open(tmp_path / r.sgf, encoding="utf-8") as f:
            game = sgf.parse(f.read())
        assert game.moves == [(BLACK if m["colour"] == "black" else WHITE, m["move"])
                              for m in r.moves]
        assert (game.properties["PB"], game.properties["PW"]) == (r.black, r.white)
        assert game.properties["RE"] == ("B+" if r.winner_colour == "black" else "W+")
        board = game.to_board()
        assert board.winner() == (BLACK if r.winner_colour == "black" else WHITE)
        assert replay(r, 4, 4).winner() == board.winner()
        assert r.reason == "connection" and r.winner != r.loser
        assert all(m["seconds"] < 0.3 + 1.0 for m in r.moves if m["by"] != "opening")
    assert sum(r.winner == "ab" for r in games) >= 7
    summary = (tmp_path / "summary.md").read_text()
    assert "Elo difference (ab − rnd)" in summary and "likelihood of superiority" in summary
    assert "| ab |" in proc.stdout


@pytest.mark.parametrize("mode,reason", [
    ("crash", "crash"), ("hang", "timeout"), ("illegal", "illegal"), ("offboard", "illegal"),
    ("garbage", "garbage"), ("refuse", "refused"), ("resign", "resignation")])
def test_broken_engine_loses_every_game_and_is_blamed(tmp_path, mode, reason):
    proc = run_match(tmp_path, "--engine", f"good={ours('--time', '0.05')}",
                     "--engine", f"bad={broken(mode)}", "--size", "5", "--games", "4",
                     "--time", "0.2", "--grace", "0.3")
    assert proc.returncode == 0, proc.stderr
    games = results(tmp_path)
    assert len(games) == 4
    for r in games:
        assert (r.winner, r.loser, r.reason) == ("good", "bad", reason), r.detail
        if mode in ("crash", "hang", "garbage"):
            # restarted for every game: one good move from a fresh process, then the fault
            assert sum(1 for m in r.moves if m["by"] == "bad") == 1
    assert f"bad {reason} 4" in (tmp_path / "summary.md").read_text() or reason == "resignation"


def test_engine_that_does_not_start_is_reported(tmp_path):
    proc = run_match(tmp_path, "--engine", f"good={ours()}",
                     "--engine", "bad=/nonexistent/engine --flag", "--size", "3")
    assert proc.returncode != 0
    assert "bad" in proc.stderr and "does not start" in proc.stderr


def _start_background(out, games: int) -> subprocess.Popen:
    cmd = runner_command() + ["--out", str(out), "--quiet",
                              "--engine", f"a={ours('--time', '0.05')}",
                              "--engine", f"b={ours('--time', '0.05', '--width', '3')}",
                              "--size", "5", "--openings", "all", "--games", str(games),
                              "--time", "0.1"]
    # SIGINT as in a terminal, even when the tests run as a background job (which starts
    # with SIGINT ignored, and Python keeps it ignored)
    return subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))


def _wait_for_lines(path, count: int, proc: subprocess.Popen, limit: float = 60) -> None:
    """Until ``count`` games are in ``path`` and the match still runs (to be interrupted)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                enough = sum(1 for _ in f) >= count
        else:
            enough = False
        # checked after the file: a match that ended meanwhile is never taken for running
        assert proc.poll() is None, "the match ended before it could be interrupted"
        if enough:
            return
        time.sleep(0.05)
    raise AssertionError(f"fewer than {count} games in {limit} s")


def test_resume_after_kill_keeps_finished_games(tmp_path):
    args = ["--engine", f"a={ours('--time', '0.05')}",
            "--engine", f"b={ours('--time', '0.05', '--width', '3')}",
            "--size", "5", "--openings", "all", "--games", "12", "--time", "0.1"]
    proc = _start_background(tmp_path, 12)
    jsonl = tmp_path / "results.jsonl"
    _wait_for_lines(jsonl, 3, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait(10)
    before = jsonl.read_text().splitlines()
    assert 3 <= len(before) < 12
    with open(jsonl, "a", encoding="utf-8") as f:
        f.write('{"game": 11, "black": "a", "whi')  # a line torn by the kill
    again = run_match(tmp_path, *args)
    assert again.returncode == 0, again.stderr
    after = jsonl.read_text().splitlines()
    assert after[:len(before)] == before  # finished games kept as they were
    assert sorted(json.loads(line)["game"] for line in after) == list(range(12))
    assert len(list(tmp_path.glob("game-*.sgf"))) == 12


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_ctrl_c_loses_no_finished_game(tmp_path, stop):
    # 400 games (forty 5x5 games take about 3 s): a loaded machine that looks late at the
    # file must still find the match running when the signal goes
    proc = _start_background(tmp_path, 400)
    _wait_for_lines(tmp_path / "results.jsonl", 2, proc)
    proc.send_signal(stop)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    games = results(tmp_path)
    assert 2 <= len(games) < 400
    for r in games:
        assert (tmp_path / r.sgf).exists()
    assert f"{len(games)} of 400 games" in (tmp_path / "summary.md").read_text()
    assert "resume" in err


def test_resume_refuses_a_different_match(tmp_path):
    first = run_match(tmp_path, "--engine", f"a={ours('--time', '0.05')}",
                      "--engine", f"b={ours('--algorithm', 'random')}", "--size", "3",
                      "--games", "2", "--time", "0.2")
    assert first.returncode == 0, first.stderr
    second = run_match(tmp_path, "--engine", f"a={ours('--time', '0.05')}",
                       "--engine", f"b={ours('--algorithm', 'random')}", "--size", "4",
                       "--games", "2", "--time", "0.2")
    assert second.returncode != 0
    assert "different match" in second.stderr and "width" in second.stderr


@pytest.mark.parametrize("openings", ["all", "random:2"])
def test_a_finished_match_extends_with_more_games(tmp_path, openings):
    args = ["--engine", f"ab={ours('--time', '0.05')}",
            "--engine", f"rnd={ours('--algorithm', 'random', '--seed', '3')}",
            "--size", "4", "--openings", openings, "--time", "0.3"]
    first = run_match(tmp_path, *args, "--games", "3")
    assert first.returncode == 0, first.stderr
    before = (tmp_path / "results.jsonl").read_text().splitlines()
    assert len(before) == 3
    longer = run_match(tmp_path, *args, "--games", "6")
    assert longer.returncode == 0, longer.stderr
    assert "extending" in longer.stderr and "from 3 to 6 games" in longer.stderr
    lines = (tmp_path / "results.jsonl").read_text().splitlines()
    assert lines[:3] == before  # the games played stay as they were
    games = sorted(results(tmp_path), key=lambda r: r.game)
    assert [r.game for r in games] == list(range(6))
    # opening k is games 2k and 2k+1 with the colours exchanged, across the old end too
    for k in range(3):
        a, b = games[2 * k], games[2 * k + 1]
        assert a.opening == b.opening and a.opening_index == b.opening_index == k
        assert (a.black, a.white) == (b.white, b.black)
    assert len({tuple(r.opening) for r in games}) == 3  # three different openings
    stored = json.loads((tmp_path / "match.json").read_text())
    assert stored["games"] == 6 and stored["openings"][:2] == [g.opening for g in games[:4:2]]
    assert "6 of 6 games" in (tmp_path / "summary.md").read_text()
    again = run_match(tmp_path, *args, "--games", "6")  # nothing left to play
    assert again.returncode == 0 and len(results(tmp_path)) == 6


def _extension_args(extra: list[str]) -> list[str]:
    values = {"--size": "4", "--openings": "random:2", "--games": "2", "--time": "0.3",
              "--seed": "1"}
    values.update(dict(zip(extra[::2], extra[1::2])))
    out = ["--engine", f"ab={ours('--time', '0.05')}",
           "--engine", f"rnd={ours('--algorithm', 'random')}"]
    for key, value in values.items():
        out += [key, value]
    return out


@pytest.fixture(scope="module")
def finished_match(tmp_path_factory):
    """One finished 2-game match, copied by each test that tries to change it."""
    out = tmp_path_factory.mktemp("finished")
    first = run_match(out, *_extension_args([]))
    assert first.returncode == 0, first.stderr
    return out


@pytest.mark.parametrize("change,field", [
    (["--games", "1"], "games"), (["--games", "4", "--time", "0.2"], "time"),
    (["--games", "4", "--seed", "9"], "openings"),
    (["--games", "4", "--size", "5"], "height, width")])
def test_extending_refuses_any_other_change(tmp_path, finished_match, change, field):
    out = tmp_path / "match"
    shutil.copytree(finished_match, out)
    before = (out / "results.jsonl").read_text()
    proc = run_match(out, *_extension_args(change))
    assert proc.returncode == 1
    assert "different match" in proc.stderr and f"differs in: {field}" in proc.stderr
    assert (out / "results.jsonl").read_text() == before and len(results(out)) == 2


def test_swap_is_passed_on_by_resending_the_position(tmp_path):
    openings = tmp_path / "openings.txt"
    openings.write_text("b3\nc2  # winning stones (4x4's short diagonal): our engine swaps them\n")
    out = tmp_path / "out"
    proc = run_match(out, "--engine", f"pieces={ours('--time', '0.05', '--swap')}",
                     "--engine", f"sides={ours('--time', '0.05', '--swap', '--swap-style', 'swap-sides')}",
                     "--size", "4", "--openings", str(openings), "--swap", "--time", "0.3")
    assert proc.returncode == 0, proc.stderr
    games = results(out)
    assert len(games) == 4
    for r in games:
        assert r.reason == "connection"
        swap = r.moves[1]
        assert swap["move"] == "swap-pieces" and swap["by"] == r.white
        assert swap.get("said", "swap-pieces") == ("swap-sides" if r.white == "sides"
                                                   else "swap-pieces")
        board = sgf.parse((out / r.sgf).read_text()).to_board()
        first = board.geo.parse(r.opening[0])
        assert board.colour_at(board.geo.mirror(first)) == WHITE  # the stone changed sides


def test_swap_sides_on_a_non_square_board_exchanges_engines(tmp_path):
    proc = run_match(tmp_path, "--engine", f"x={ours('--time', '0.05', '--swap', '--swap-style', 'swap-sides')}",
                     "--engine", f"y={ours('--time', '0.05', '--swap', '--swap-style', 'swap-sides')}",
                     "--size", "4x3", "--openings", "all", "--games", "24", "--swap",
                     "--time", "0.3")
    assert proc.returncode == 0, proc.stderr
    swapped = [r for r in results(tmp_path) if len(r.moves) > 1
               and r.moves[1]["move"] == "swap-sides"]
    assert swapped, "no engine swapped"
    for r in swapped:
        # black joins the short way on 4x3 and wins: after swap-sides that is the swapper
        assert r.winner_colour == "black" and r.winner == r.white


def test_round_robin_tournament_report(tmp_path):
    proc = run_match(tmp_path, "--engine", f"ab={ours('--time', '0.05')}",
                     "--engine", f"mm={ours('--algorithm', 'minimax', '--depth', '1')}",
                     "--engine", f"rnd={ours('--algorithm', 'random')}",
                     "--size", "4", "--openings", "all", "--games", "4", "--time", "0.3",
                     "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    games = results(tmp_path)
    assert len(games) == 12
    pairs = {frozenset((r.black, r.white)) for r in games}
    assert pairs == {frozenset(p) for p in (("ab", "mm"), ("ab", "rnd"), ("mm", "rnd"))}
    summary = (tmp_path / "summary.md").read_text()
    assert "Rating list" in summary
    for name in ("ab", "mm", "rnd"):
        assert f"### {name} —" in summary
    rows = (tmp_path / "summary.csv").read_text().splitlines()
    assert rows[0] == "engine,opponent,won,lost,total,win_rate" and len(rows) == 7
    ab_vs_rnd = next(row.split(",") for row in rows if row.startswith("ab,rnd,"))
    assert int(ab_vs_rnd[2]) + int(ab_vs_rnd[3]) == 4
    # the rating chart: each engine's fitted Elo and interval, best first
    svg = "{http://www.w3.org/2000/svg}"
    chart = ET.parse(tmp_path / "ratings.svg").getroot()
    drawn = [(g.get("id"), next(t.text for t in g.iter(f"{svg}text") if t.get("class") == "elo"))
             for g in chart.iter(f"{svg}g") if g.get("class") == "rating"]
    fitted = stats.fit_ratings(["ab", "mm", "rnd"], [(r.winner, r.loser) for r in games])
    best_first = sorted(fitted, key=lambda name: -fitted[name][0])
    assert drawn == [(f"rating-{name}", f"{fitted[name][0]:+.0f} ± {fitted[name][1]:.0f}")
                     for name in best_first]
    series = [p.get("data-series") for p in ET.parse(tmp_path / "score.svg").getroot().iter(
        f"{svg}polyline") if p.get("class") == "score"]
    assert series == ["ab", "mm", "rnd"]
    page = ET.parse(tmp_path / "report.html").getroot()
    assert len(list(page.iter(f"{svg}svg"))) == 3


def test_sprt_stops_when_decided(tmp_path):
    proc = run_match(tmp_path, "--engine", f"ab={ours('--time', '0.05')}",
                     "--engine", f"rnd={ours('--algorithm', 'random', '--seed', '7')}",
                     "--size", "5", "--openings", "all", "--games", "50", "--time", "0.3",
                     "--sprt", "0 100")
    assert proc.returncode == 0, proc.stderr
    games = results(tmp_path)
    assert 5 <= len(games) < 50
    assert "accept H1" in proc.stdout and "Stopped early" in proc.stdout


@pytest.mark.parametrize("args,message", [
    (["--engine", "a=x"], "at least two engines"),
    (["--engine", "a=x", "--engine", "a=y"], "given twice"),
    (["--engine", "a=x", "--engine", "noequals"], "NAME=VALUE"),
    (["--engine", "a=x", "--engine", "b=y", "--size", "0"], "1..52"),
    (["--engine", "a=x", "--engine", "b=y", "--size", "9y9"], "N or WxH"),
    (["--engine", "a=x", "--engine", "b=y", "--sprt", "5"], "elo0 elo1"),
    (["--engine", "a=x", "--engine", "b=y", "--openings", "random:0"], "at least 1 ply"),
    (["--engine", "a=x", "--engine", "b=y", "--openings", "/no/such/file"], "cannot read"),
    (["--engine", "a=x", "--engine", "b=y", "--init", "c=name"], "no engine called c"),
    (["--engine", "a=x", "--engine", "b=y", "--judge-init", "name"], "--judge-init needs"),
])
def test_usage_errors_name_the_problem(tmp_path, args, message):
    proc = run_match(tmp_path, *args)
    assert proc.returncode == 2
    assert message in proc.stderr


def test_engines_with_benzene_dialect_get_commands_they_accept(tmp_path):
    # Benzene takes 'boardsize N' and 'time_left C T' only; the runner falls back to them
    strict = shlex.join([sys.executable, BROKEN, "--strict"])
    proc = run_match(tmp_path, "--engine", f"strict={strict}",
                     "--engine", f"ours={ours('--time', '0.05')}", "--size", "4",
                     "--games", "2", "--time", "0.3", "--engine-logs")
    assert proc.returncode == 0, proc.stderr
    assert all(r.reason == "connection" for r in results(tmp_path))
    log = (tmp_path / "logs" / "strict.0.log").read_text().splitlines()
    assert "boardsize 4" in log
    assert "time_left b 0.3" in log or "time_left w 0.3" in log
    # each refused once, then never sent again
    assert log.count("boardsize 4 4") == 1
    assert sum(1 for line in log if line.startswith("time_left") and line.endswith(" 1")) == 1


def test_a_game_clock_is_sent_spent_and_runs_out(tmp_path):
    """--game-time 1+0.1: the engines hear the clock (time_settings 1 0 0, then time_left
    with what is left), each move's record carries the clock after it, and an engine that
    takes 0.45 s a move loses on time once its clock, less the grace, is gone."""
    slow = shlex.join([sys.executable, BROKEN, "--delay", "0.45"])
    proc = run_match(tmp_path, "--engine", f"slow={slow}",
                     "--engine", f"ours={ours()}", "--size", "7", "--games", "2",
                     "--game-time", "1+0.1", "--grace", "0.2", "--engine-logs")
    assert proc.returncode == 0, proc.stderr
    games = results(tmp_path)
    assert len(games) == 2
    for r in games:
        assert (r.loser, r.reason) == ("slow", "timeout"), r
        assert "game clock" in r.detail
        slow_moves = [m for m in r.moves if m.get("by") == "slow"]
        # 1.0, 0.65, 0.3 (the move overruns it within the grace: 0 left, plus 0.1), 0.1
        # left before each move: the fourth cannot be made within 0.1 s and the grace
        assert len(slow_moves) == 3
        assert [m["left"] for m in slow_moves] == pytest.approx([0.65, 0.3, 0.1], abs=0.05)
    log = (tmp_path / "logs" / "slow.0.log").read_text().splitlines()
    assert "time_settings 1 0 0" in log
    lefts = [float(line.split()[2]) for line in log if line.startswith("time_left")]
    assert lefts[:4] == pytest.approx([1.0, 0.65, 0.3, 0.1], abs=0.05)
    assert all(line.endswith(" 0") for line in log if line.startswith("time_left"))
    summary = (tmp_path / "summary.md").read_text()
    assert "1+0.1 s a game" in summary.splitlines()[0]


def test_our_engine_keeps_within_a_game_clock(tmp_path):
    """Against itself on 8x8 with 4 s a game each, our engine spreads the clock over its
    moves (time_left with no stones: main time) and never runs out."""
    proc = run_match(tmp_path, "--engine", f"a={ours()}", "--engine", f"b={ours('--width', '5')}",
                     "--size", "8", "--openings", "all", "--games", "2", "--game-time", "4",
                     "--grace", "0.5", timeout=240)
    assert proc.returncode == 0, proc.stderr
    for r in results(tmp_path):
        assert r.reason == "connection", r
        for name in (r.black, r.white):
            moves = [m for m in r.moves if m.get("by") == name]
            assert sum(m["seconds"] for m in moves) <= 4.0
            lefts = [m["left"] for m in moves]
            assert lefts == sorted(lefts, reverse=True) and lefts[-1] > 0


def test_game_time_needs_a_positive_main_time(tmp_path):
    for text in ("0", "abc", "-5+1", "10+-1", "inf"):
        proc = run_match(tmp_path, "--engine", f"a={ours()}", "--engine", f"b={ours()}",
                         "--size", "4", "--game-time", text)
        assert proc.returncode == 2, text
        assert "--game-time" in proc.stderr and "Traceback" not in proc.stderr


def test_by_opening_script_lists_the_openings_an_engine_drops_first(tmp_path):
    """``scripts/by_opening.py`` on hand-made records: with a3 ours loses as black where the
    opponent wins, with c3 both win as black; a3 comes first, and the totals add up."""
    def game(opening, black, white, winner_colour):
        return {"black": black, "white": white, "opening": [opening],
                "winner_colour": winner_colour, "moves": []}
    records = [game("c3", "ours", "wolve", "black"), game("c3", "wolve", "ours", "black"),
               game("a3", "ours", "wolve", "white"), game("a3", "wolve", "ours", "black"),
               game("a3", "ours", "other", "black")]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    script = os.path.join(ROOT, "scripts", "by_opening.py")
    out = subprocess.run([sys.executable, script, str(path), "--engine", "ours"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    rows = [line for line in out.stdout.splitlines() if line.startswith("| ") and "/" in line]
    assert rows == ["| a3 | 1/2 | 1/1 |", "| c3 | 1/1 | 1/1 |", "| all | 2/3 | 2/2 |"]
    missing = subprocess.run([sys.executable, script, str(path), "--engine", "nobody"],
                             capture_output=True, text=True, timeout=60)
    assert missing.returncode != 0 and "no game of 'nobody'" in missing.stderr
