"""hex-match --cluster on a real Dask cluster: a scheduler and worker processes started here on
127.0.0.1 (``python -m distributed.cli.dask_scheduler`` / ``dask_worker``, what the ``dask
scheduler`` / ``dask worker`` commands run).  Games are played on the workers and checked
through what the runner writes, as in test_match.py; faults are real: a worker killed
mid-game, the scheduler killed mid-match, Ctrl-C, an address where nothing listens."""
from __future__ import annotations

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time

import numpy as np
import pytest
from distributed import Client

from hexengine import sgf
from hexengine.board import BLACK, WHITE
from hexengine.learning import selfplay
from protocol.match.referee import Rules, replay
from protocol.match.runner import MatchConfig
from protocol.match.verify import check_record
from tests.test_match import BROKEN, ours, results, run_match, runner_command


class DaskCluster:
    """A scheduler and ``workers`` single-thread workers (no nanny, so a killed worker stays
    dead), all in their own process groups; ``close`` kills what is left."""

    def __init__(self, directory, workers: int = 2) -> None:
        self.directory = directory
        directory.mkdir(parents=True, exist_ok=True)
        scheduler_file = directory / "scheduler.json"
        self.scheduler = self._spawn("scheduler", "distributed.cli.dask_scheduler",
                                     "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
                                     "--scheduler-file", str(scheduler_file))
        self.workers: list[subprocess.Popen] = []
        self.address = self._address(scheduler_file)
        for i in range(workers):
            self.workers.append(self._spawn(
                f"worker{i}", "distributed.cli.dask_worker", self.address, "--nthreads", "1",
                "--no-nanny", "--no-dashboard", "--name", f"w{i}",
                "--local-directory", str(directory / f"w{i}")))
        with Client(self.address, timeout=30) as client:
            client.wait_for_workers(workers, timeout=60)

    def _spawn(self, name: str, module: str, *args: str) -> subprocess.Popen:
        log = open(self.directory / f"{name}.log", "w", encoding="utf-8")
        try:
            return subprocess.Popen([sys.executable, "-m", module, *args],
                                    stdout=log, stderr=subprocess.STDOUT,
                                    start_new_session=True)
        finally:
            log.close()

    def _address(self, path) -> str:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            assert self.scheduler.poll() is None, "the scheduler did not start"
            try:
                return json.loads(path.read_text())["address"]
            except (OSError, ValueError, KeyError):
                time.sleep(0.05)
        raise AssertionError("no scheduler address after 60 s")

    @property
    def worker_pids(self) -> list[int]:
        return [w.pid for w in self.workers]

    def close(self) -> None:
        for proc in self.workers + [self.scheduler]:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    dask = DaskCluster(tmp_path_factory.mktemp("dask"))
    yield dask
    dask.close()


@pytest.fixture
def own_cluster(tmp_path):
    """A cluster of two workers for one test that kills part of it."""
    dask = DaskCluster(tmp_path / "dask")
    yield dask
    dask.close()


def slow_engine(delay: float, trace) -> str:
    """Plays the first empty cell after ``delay`` seconds, tracing every genmove."""
    return shlex.join([sys.executable, BROKEN, "--mode", "none", "--delay", str(delay),
                       "--trace", str(trace)])


def broken(mode: str) -> str:
    """Misbehaves from its first genmove (so the game does not depend on which process of
    which worker plays it)."""
    return shlex.join([sys.executable, BROKEN, "--mode", mode, "--after", "1"])


def traced(pid_file, command: str) -> str:
    """``command`` run through sh, which first notes its parent: the process that started
    the engine."""
    return shlex.join(["sh", "-c", f'echo $PPID >> {shlex.quote(str(pid_file))}; '
                                   f'exec {command}'])


def _wait_for_lines(path, count: int, proc: subprocess.Popen, limit: float = 60) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if path.exists() and len(path.read_text().splitlines()) >= count:
            return
        assert proc.poll() is None, proc.communicate()[1]
        time.sleep(0.02)
    raise AssertionError(f"fewer than {count} games in {limit} s")


def _start(out, *args: str) -> subprocess.Popen:
    return subprocess.Popen(runner_command() + ["--out", str(out), "--quiet", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _each_once_and_valid(out, games: int, rules: Rules) -> list:
    """Every game of the schedule exactly once in results.jsonl, each a valid game."""
    records = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert sorted(r["game"] for r in records) == list(range(games))
    stored = json.loads((out / "match.json").read_text())
    config = MatchConfig(stored["engines"], rules, [tuple(o) for o in stored["openings"]],
                         stored["games"], stored["init"])
    schedule = config.schedule()
    for record in records:
        assert check_record(record, schedule[record["game"]], rules).winner == record["winner"]
    return records


def test_cluster_match_plays_on_the_workers_and_records_as_locally(cluster, tmp_path):
    pids = tmp_path / "engine-parents.txt"
    args = ["--size", "4", "--openings", "all", "--games", "8", "--time", "0.3"]
    proc = run_match(tmp_path / "cluster",
                     "--engine", f"ab={traced(pids, ours('--time', '0.05'))}",
                     "--engine", f"rnd={traced(pids, ours('--algorithm', 'random'))}",
                     *args, "--jobs", "2", "--cluster", cluster.address)
    assert proc.returncode == 0, proc.stderr
    out = tmp_path / "cluster"
    games = results(out)
    assert sorted(r.game for r in games) == list(range(8))
    # every engine was started by a worker, and both workers played
    assert {int(p) for p in pids.read_text().split()} == set(cluster.worker_pids)
    for r in games:
        with open(out / r.sgf, encoding="utf-8") as f:
            game = sgf.parse(f.read())
        assert game.moves == [(BLACK if m["colour"] == "black" else WHITE, m["move"])
                              for m in r.moves]
        assert replay(r, 4, 4).winner() == (BLACK if r.winner_colour == "black" else WHITE)
        assert r.reason == "connection"
    assert sum(r.winner == "ab" for r in games) >= 7
    assert "8 of 8 games" in (out / "summary.md").read_text()
    # the same match played locally writes the same files with the same fields
    local = run_match(tmp_path / "local", "--engine", f"ab={ours('--time', '0.05')}",
                      "--engine", f"rnd={ours('--algorithm', 'random')}", *args)
    assert local.returncode == 0, local.stderr
    remote_lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    local_lines = [json.loads(x) for x in
                   (tmp_path / "local" / "results.jsonl").read_text().splitlines()]
    assert {tuple(line) for line in remote_lines} == {tuple(line) for line in local_lines}
    assert ({tuple(m) for line in remote_lines for m in line["moves"]}
            == {tuple(m) for line in local_lines for m in line["moves"]})
    assert (set(json.loads((out / "match.json").read_text()))
            == set(json.loads((tmp_path / "local" / "match.json").read_text())))
    assert sorted(os.listdir(out)) == sorted(os.listdir(tmp_path / "local"))


@pytest.mark.parametrize("mode,reason", [
    ("crash", "crash"), ("hang", "timeout"), ("illegal", "illegal")])
def test_engine_failure_on_a_worker_is_adjudicated_as_locally(cluster, tmp_path, mode, reason):
    args = ["--engine", f"good={broken('none')}", "--engine", f"bad={broken(mode)}",
            "--size", "5", "--games", "2", "--time", "0.2", "--grace", "0.3"]
    remote = run_match(tmp_path / "cluster", *args, "--cluster", cluster.address, "--jobs", "2")
    local = run_match(tmp_path / "local", *args)
    assert remote.returncode == 0 and local.returncode == 0, remote.stderr + local.stderr
    unseconded = [
        [{**r.to_json(), "moves": [{k: v for k, v in m.items() if k != "seconds"}
                                   for m in r.moves], "seconds": None}
         for r in sorted(results(tmp_path / where), key=lambda r: r.game)]
        for where in ("cluster", "local")]
    assert unseconded[0] == unseconded[1]
    assert [(r["loser"], r["reason"]) for r in unseconded[0]] == [("bad", reason)] * 2


def test_forfeits_on_a_cluster_are_judged_on_the_runner(cluster, tmp_path):
    """The crashing engine forfeits a lost and a won 4x4 position on the workers; the judge
    (our engine, started only by the runner) gives the same verdicts as locally."""
    openings = tmp_path / "openings.txt"
    openings.write_text("a1 a2 b4 b2 c4 c2\n")  # black to move has lost
    first = shlex.join([sys.executable, BROKEN])
    remote = run_match(tmp_path / "out", "--engine", f"crash={broken('crash')}",
                       "--engine", f"first={first}", "--size", "4", "--openings",
                       str(openings), "--time", "0.3", "--cluster", cluster.address,
                       "--jobs", "1", "--judge", f"{sys.executable} -m hexengine --quiet",
                       "--judge-init", "param_hexengine solver_time 10")
    assert remote.returncode == 0, remote.stderr
    games = sorted(results(tmp_path / "out"), key=lambda r: r.game)
    assert [(r.black, r.reason, r.judged) for r in games] == [
        ("crash", "crash", "proved-lost"), ("first", "crash", "proved-won")]
    assert "forfeit proved lost" in (tmp_path / "out" / "report.html").read_text()


def test_ctrl_c_on_a_cluster_match_keeps_finished_games_and_resumes(cluster, tmp_path):
    args = ["--engine", f"a={ours('--time', '0.05')}",
            "--engine", f"b={ours('--time', '0.05', '--width', '3')}",
            "--size", "5", "--openings", "all", "--games", "10", "--time", "0.1",
            "--jobs", "2", "--cluster", cluster.address]
    proc = _start(tmp_path, *args)
    _wait_for_lines(tmp_path / "results.jsonl", 2, proc)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    before = (tmp_path / "results.jsonl").read_text().splitlines()
    assert 2 <= len(before) < 10
    assert f"{len(before)} of 10 games" in (tmp_path / "summary.md").read_text()
    again = run_match(tmp_path, *args)
    assert again.returncode == 0, again.stderr
    assert (tmp_path / "results.jsonl").read_text().splitlines()[:len(before)] == before
    _each_once_and_valid(tmp_path, 10, Rules(5, 5, 0.1))
    assert len(list(tmp_path.glob("game-*.sgf"))) == 10


def test_sprt_stops_a_cluster_match(cluster, tmp_path):
    proc = run_match(tmp_path, "--engine", f"ab={ours('--time', '0.05')}",
                     "--engine", f"rnd={ours('--algorithm', 'random', '--seed', '7')}",
                     "--size", "5", "--openings", "all", "--games", "50", "--time", "0.3",
                     "--sprt", "0 100", "--jobs", "2", "--cluster", cluster.address)
    assert proc.returncode == 0, proc.stderr
    games = results(tmp_path)
    assert 5 <= len(games) < 50
    assert len({r.game for r in games}) == len(games)
    assert "accept H1" in proc.stdout and "Stopped early" in proc.stdout


def _most_games_at_once(trace) -> int:
    """From an engine trace: the most games that were under way at the same moment (a game
    is a run of one worker's genmoves with the stones growing)."""
    games: dict[int, list[list[float]]] = {}  # worker -> [start, end] of each game
    last: dict[int, int] = {}
    for line in trace.read_text().splitlines():
        ppid, stones, when = int(line.split()[0]), int(line.split()[1]), float(line.split()[2])
        if ppid not in last or stones <= last[ppid]:
            games.setdefault(ppid, []).append([when, when])
        games[ppid][-1][1] = when
        last[ppid] = stones
    spans = [span for spans in games.values() for span in spans]
    return max(sum(1 for s in spans if s[0] <= t <= s[1]) for t, _ in spans)


@pytest.mark.parametrize("jobs", [1, 2])
def test_jobs_caps_the_games_in_flight(cluster, tmp_path, jobs):
    trace = tmp_path / "genmoves.txt"
    proc = run_match(tmp_path / "out", "--engine", f"a={slow_engine(0.03, trace)}",
                     "--engine", f"b={slow_engine(0.03, trace)}", "--size", "4",
                     "--games", "4", "--time", "0.5", "--jobs", str(jobs),
                     "--cluster", cluster.address)
    assert proc.returncode == 0, proc.stderr
    assert len(results(tmp_path / "out")) == 4
    assert _most_games_at_once(trace) == jobs


def test_a_worker_killed_mid_game_loses_only_that_game(own_cluster, tmp_path):
    trace = tmp_path / "genmoves.txt"
    out = tmp_path / "match"
    proc = _start(out, "--engine", f"a={slow_engine(0.06, trace)}",
                  "--engine", f"b={slow_engine(0.06, trace)}", "--size", "4",
                  "--openings", "all", "--games", "6", "--time", "0.5",
                  "--jobs", "2", "--cluster", own_cluster.address)
    _wait_for_lines(out / "results.jsonl", 1, proc)
    victim = own_cluster.workers[0]
    deadline = time.monotonic() + 30
    while True:  # wait until the victim is early in a game, then kill it
        moves = [line.split() for line in trace.read_text().splitlines()]
        last = [int(stones) for ppid, stones, _ in moves if int(ppid) == victim.pid][-1:]
        if last and 2 <= last[0] <= 6:
            break
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.01)
    engines = _children(victim.pid)
    assert engines, "the worker had no engines running"
    os.kill(victim.pid, signal.SIGKILL)
    victim.wait(10)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    _each_once_and_valid(out, 6, Rules(4, 4, 0.5))
    assert len(list(out.glob("game-*.sgf"))) == 6
    # the worker's engines saw their input close and ended
    deadline = time.monotonic() + 10
    while any(os.path.exists(f"/proc/{pid}") and _state(pid) != "Z" for pid in engines):
        assert time.monotonic() < deadline, "engines of the killed worker still run"
        time.sleep(0.1)


def _children(pid: int) -> list[int]:
    out = subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True,
                         text=True).stdout
    return [int(p) for p in out.split()]


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"


def test_losing_the_scheduler_stops_the_match_and_keeps_finished_games(own_cluster, tmp_path):
    trace = tmp_path / "genmoves.txt"
    proc = _start(tmp_path, "--engine", f"a={slow_engine(0.02, trace)}",
                  "--engine", f"b={slow_engine(0.02, trace)}", "--size", "4",
                  "--openings", "all", "--games", "40", "--time", "0.5",
                  "--jobs", "2", "--cluster", own_cluster.address, "--cluster-timeout", "2")
    _wait_for_lines(tmp_path / "results.jsonl", 3, proc)
    os.killpg(own_cluster.scheduler.pid, signal.SIGKILL)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 1
    assert "lost the Dask scheduler" in err
    records = [json.loads(x) for x in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert 3 <= len(records) < 40
    assert f"{len(records)} of 40 games" in (tmp_path / "summary.md").read_text()
    for r in records:
        assert (tmp_path / r["sgf"]).exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_scheduler_is_a_clear_error_at_start(tmp_path):
    address = f"tcp://127.0.0.1:{_free_port()}"
    started = time.monotonic()
    proc = run_match(tmp_path / "out", "--engine", f"a={ours()}", "--engine", f"b={ours()}",
                     "--size", "3", "--cluster", address, "--cluster-timeout", "1")
    assert proc.returncode == 1
    assert f"cannot reach the Dask scheduler at {address}" in proc.stderr
    assert time.monotonic() - started < 30
    assert not (tmp_path / "out").exists()


def test_without_dask_cluster_is_refused_and_local_matches_still_run(tmp_path):
    blocker = tmp_path / "nodask" / "distributed"
    blocker.mkdir(parents=True)
    (blocker / "__init__.py").write_text("raise ImportError('no dask here')\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(blocker.parent)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    base = runner_command() + ["--quiet", "--engine", f"a={ours('--time', '0.05')}",
                               "--engine", f"b={ours('--algorithm', 'random')}",
                               "--size", "3", "--games", "2", "--time", "0.3"]
    refused = subprocess.run(base + ["--out", str(tmp_path / "c"), "--cluster",
                                     "tcp://127.0.0.1:8786"],
                             capture_output=True, text=True, env=env, timeout=60)
    assert refused.returncode == 1
    assert "--cluster needs Dask distributed: pip install" in refused.stderr
    local = subprocess.run(base + ["--out", str(tmp_path / "l")], capture_output=True,
                           text=True, env=env, timeout=60)
    assert local.returncode == 0, local.stderr
    assert len(results(tmp_path / "l")) == 2


def test_solve_script_spreads_openings_over_the_workers(cluster):
    """``scripts/solve.py --cluster``: every 5×5 opening solved as a task on the workers,
    the verdicts those of the solver at home (13 black wins, as exhaustive play says)."""
    script = os.path.join(os.path.dirname(os.path.dirname(__file__)), "scripts", "solve.py")
    done = subprocess.run([sys.executable, script, "--size", "5", "--limit", "60",
                           "--cluster", cluster.address], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    solved = [line for line in lines if line.split()[1:2] in (["black"], ["white"])]
    assert len(solved) == 25
    assert all(line.endswith((" on w0", " on w1")) for line in solved), solved
    black = next(line for line in lines if line.startswith("black wins with"))
    assert black.split(":")[0] == "black wins with 13"
    assert sorted(black.split(":")[1].split()) == sorted(
        "e1 b2 c2 d2 e2 b3 c3 d3 a4 b4 c4 d4 a5".split())
    workers = next(line for line in lines if line.startswith("workers:"))
    # (both usually; tasks of earlier tests on this cluster may hold one of them)
    assert workers.startswith(("workers: 1 (", "workers: 2 (")), workers


def test_value_data_plays_its_games_on_the_workers_and_resumes(cluster, tmp_path):
    """``scripts/value_data.py --cluster``: the games come back from the workers as part
    files that training reads (each position labelled for its mover, a finished game's
    last mover the winner); a second run with the same --out plays only what is missing."""
    script = os.path.join(os.path.dirname(os.path.dirname(__file__)), "scripts",
                          "value_data.py")
    out = tmp_path / "data"
    command = [sys.executable, script, "--games", "2", "--jobs", "2", "--save-every", "1",
               "--sizes", "5", "--solve-seconds", "0.05", "--seed", "3", "--out", str(out),
               "--cluster", cluster.address]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    parts = sorted(p.name for p in out.glob("*.npz"))
    assert parts == [f"part-3-t{t}.npz" for t in range(4)]
    lines = done.stdout.splitlines()
    assert sum(line.startswith("task ") and " on w" in line for line in lines) == 4, lines
    assert "4 games in" in done.stdout
    table = selfplay.load_parts([str(out)])
    assert sorted(set(table["game"].tolist())) == [0, 1, 2, 3]
    assert set(table["size"].tolist()) == {5}
    assert set(np.abs(table["label"]).tolist()) <= {1.0}
    for game in range(4):
        rows = np.nonzero(table["game"] == game)[0]
        last = rows[np.argmax(table["ply"][rows])]
        assert table["label"][last] == 1.0  # its mover made the winning connection
    (out / "part-3-t2.npz").unlink()
    again = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert again.returncode == 0, again.stderr
    assert "3 of 4 tasks saved before" in again.stdout
    assert "1 games in" in again.stdout
    assert (out / "part-3-t2.npz").exists()


def test_solve_script_names_an_unreachable_scheduler():
    script = os.path.join(os.path.dirname(os.path.dirname(__file__)), "scripts", "solve.py")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    done = subprocess.run([sys.executable, script, "--size", "4", "--connect-timeout", "2",
                           "--cluster", f"tcp://127.0.0.1:{port}"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode != 0
    assert "Dask scheduler" in done.stderr and "Traceback" not in done.stderr
