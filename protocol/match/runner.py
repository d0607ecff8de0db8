"""Running a match or round-robin tournament: schedule, workers, results on disk, resume.

Every game is written the moment it ends: its SGF first, then its line in
``results.jsonl`` (flushed and synced), so an interrupted run loses only the games in play.
Running again with the same output directory plays only the games that are missing; the
directory's ``match.json`` must describe the same match.  With a judge (``judge.py``) each
forfeit is judged before its line is written, and the forfeits of earlier runs that were
not judged are judged first (``judge_stored``; results.jsonl is then rewritten).
"""
from __future__ import annotations

import itertools
import json
import os
import queue
import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Callable, Iterator, NoReturn, Optional

from . import stats
from .controller import EngineProcess, start_engine
from .judge import DfpnJudge, judge_result, needs_judging
from .openings import OpeningError, extend
from .referee import GameResult, GameSpec, Referee, Rules


class MatchError(Exception):
    """The match cannot be run as asked (bad output directory, mismatched resume …)."""


@dataclass
class MatchConfig:
    """Everything that defines a match; two runs with equal configs play the same games."""
    engines: dict[str, str]  # name -> command line, in the order given
    rules: Rules
    openings: list[tuple[str, ...]]
    games: int  # games per pair of engines
    init: dict[str, list[str]] = field(default_factory=dict)  # name -> HTP commands at start
    sprt: Optional[tuple[float, float, float, float]] = None  # elo0, elo1, alpha, beta
    openings_spec: str = ""  # what --openings said (lets a spread of cells be extended)

    def identity(self) -> dict:
        """The part of the config a resumed run must share (stored in match.json)."""
        r = self.rules
        identity = {"engines": self.engines, "init": self.init, "width": r.width,
                    "height": r.height, "time": r.time, "swap": r.swap,
                    "openings": [list(o) for o in self.openings], "games": self.games,
                    "openings_from": self.openings_spec}
        if r.main_time:  # (match.json of matches without a game clock stays as it was)
            identity["game_time"] = [r.main_time, r.increment]
        return identity

    def schedule(self) -> list[GameSpec]:
        """Every pair plays ``games`` games: opening k twice (games 2k, 2k+1) with colours
        exchanged.  Pairs advance together, so a cut-short tournament stays balanced."""
        names = list(self.engines)
        pairs = list(itertools.combinations(names, 2))
        specs: list[GameSpec] = []
        for g in range(self.games):
            k, second = divmod(g, 2)
            opening = self.openings[k % len(self.openings)]
            for a, b in pairs:
                black, white = (a, b) if second == 0 else (b, a)
                specs.append(GameSpec(len(specs), black, white, opening,
                                      k % len(self.openings)))
        return specs


class EnginePool:
    """One worker's engine processes, started on first use and restarted after failures."""

    def __init__(self, config: MatchConfig, log_dir: Optional[str], worker: int) -> None:
        self.config = config
        self.log_dir = log_dir
        self.worker = worker
        self.procs: dict[str, EngineProcess] = {}
        self._lock = threading.Lock()

    def get(self, name: str) -> EngineProcess:
        proc = self.procs.get(name)
        if proc is not None and proc.alive():
            return proc
        if proc is not None:
            self.discard(name)
        stderr = None
        if self.log_dir:
            stderr = open(os.path.join(self.log_dir, f"{name}.{self.worker}.log"), "a",
                          encoding="utf-8")
        try:
            proc = start_engine(self.config.engines[name], name, self.config.init.get(name, []),
                                self.config.rules.startup_timeout, stderr)
        finally:
            if stderr is not None:
                stderr.close()  # the child holds its own copy
        with self._lock:
            self.procs[name] = proc
        return proc

    def discard(self, name: str) -> None:
        with self._lock:
            proc = self.procs.pop(name, None)
        if proc is not None:
            proc.kill()

    def close_all(self) -> None:
        with self._lock:
            procs, self.procs = list(self.procs.values()), {}
        for proc in procs:
            proc.close()

    def kill_all(self) -> None:
        with self._lock:
            procs = list(self.procs.values())
        for proc in procs:
            proc.kill()


class ResultStore:
    """results.jsonl and one SGF per game in the output directory."""

    def __init__(self, out_dir: str, config: MatchConfig) -> None:
        self.out_dir = out_dir
        self.config = config
        self.path = os.path.join(out_dir, "results.jsonl")
        self._lock = threading.Lock()
        os.makedirs(out_dir, exist_ok=True)
        self._check_config()
        self.results: dict[int, GameResult] = {}
        self._load()

    def _check_config(self) -> None:
        """A new directory gets match.json; an old one must hold the same match, or the
        same with fewer games per pair (then it is extended: the games played keep their
        openings and colours, the new ones continue the openings in order)."""
        path = os.path.join(self.out_dir, "match.json")
        identity = self.config.identity()
        self.extended_from: Optional[int] = None
        if not os.path.exists(path):
            self._write_identity(path)
            return
        try:
            with open(path, encoding="utf-8") as f:
                stored = json.load(f)
            old_games = int(stored["games"])
            old_openings = [tuple(o) for o in stored["openings"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise MatchError(f"cannot read {path}: {exc}") from None
        # openings_from is a note (older directories lack it): the lists are compared
        differ = sorted(k for k in set(stored) | set(identity)
                        if k not in ("games", "openings", "openings_from")
                        and stored.get(k) != identity.get(k))
        if differ:
            self._refuse(", ".join(differ))
        games = self.config.games
        if games < old_games:
            self._refuse(f"games ({old_games} per pair there, {games} asked: a match can be "
                         f"extended, not shortened)")
        if games == old_games and old_openings == self.config.openings:
            return
        try:
            openings = extend(self.config.openings_spec, self.config.rules.width,
                              self.config.rules.height, old_openings, old_games,
                              stored.get("openings_from"), self.config.openings, games)
        except OpeningError as exc:
            self._refuse(f"openings ({exc})")
        old = MatchConfig(self.config.engines, self.config.rules, old_openings, old_games,
                          self.config.init).schedule()
        self.config.openings = openings
        if self.config.schedule()[:len(old)] != old:
            self.config.openings = old_openings
            self._refuse("openings (the games already played would change)")
        if games > old_games:
            self.extended_from = old_games
        if self.config.identity() != stored:
            self._write_identity(path)

    def _refuse(self, what: str) -> NoReturn:
        raise MatchError(f"{self.out_dir} holds a different match (differs in: {what}); "
                         f"use another --out directory")

    def _write_identity(self, path: str) -> None:
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(self.config.identity(), f, indent=1)
            f.write("\n")
        os.replace(tmp, path)

    def _load(self) -> None:
        """Finished games from an earlier run; a torn last line (killed mid-write) is dropped."""
        if not os.path.exists(self.path):
            return
        good_lines = []
        total = len(self.config.schedule())
        with open(self.path, encoding="utf-8") as f:
            for line in f:
                try:
                    result = GameResult.from_json(json.loads(line))
                except (ValueError, TypeError):
                    continue
                if 0 <= result.game < total and result.game not in self.results:
                    self.results[result.game] = result
                    good_lines.append(line if line.endswith("\n") else line + "\n")
        with open(self.path, "w", encoding="utf-8") as f:
            f.writelines(good_lines)

    def add(self, result: GameResult) -> bool:
        """Write a finished game; False (nothing written) if that game is already there."""
        r = self.config.rules
        with self._lock:
            if result.game in self.results:
                return False
        result.sgf = f"game-{result.game + 1:05d}.sgf"
        with open(os.path.join(self.out_dir, result.sgf), "w", encoding="utf-8") as f:
            f.write(result.sgf_text(r.width, r.height))
        line = json.dumps(result.to_json(), separators=(",", ":")) + "\n"
        # a Ctrl-C or kill between the line and the memory would leave the summary (written
        # from memory) a game short of results.jsonl: memory first, signals held meanwhile
        with self._lock, _signals_held():
            self.results[result.game] = result
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(line)
                f.flush()
                os.fsync(f.fileno())
        return True

    def all(self) -> list[GameResult]:
        with self._lock:
            return [self.results[k] for k in sorted(self.results)]

    def rewrite(self, changed: list[GameResult]) -> None:
        """Write results.jsonl anew (at once: a new file replaces it) after the results in
        ``changed``, already in ``results``, were changed, and their SGFs."""
        r = self.config.rules
        for result in changed:
            with open(os.path.join(self.out_dir, result.sgf), "w", encoding="utf-8") as f:
                f.write(result.sgf_text(r.width, r.height))
        tmp = self.path + ".tmp"
        with self._lock, _signals_held():
            with open(tmp, "w", encoding="utf-8") as f:
                for game in sorted(self.results):
                    f.write(json.dumps(self.results[game].to_json(), separators=(",", ":"))
                            + "\n")
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, self.path)


@contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block is done (where the platform can hold them;
    only the main thread receives them, and the cluster runner records games there)."""
    held = {signal.SIGINT, signal.SIGTERM}
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def sprt_state(config: MatchConfig, results: list[GameResult]) -> Optional[tuple]:
    """(wins, losses, LLR, lower, upper, verdict) of the first engine against the second."""
    if config.sprt is None or len(config.engines) != 2:
        return None
    first = next(iter(config.engines))
    wins = sum(1 for r in results if r.winner == first)
    losses = len(results) - wins
    return (wins, losses) + stats.sprt(wins, losses, *config.sprt)


class Match:
    """Plays the missing games of a config with ``jobs`` workers in parallel; ``judge``
    judges every forfeit before it is recorded."""

    def __init__(self, config: MatchConfig, out_dir: str, jobs: int = 1,
                 engine_logs: bool = False,
                 on_result: Optional[Callable[[GameResult, list[GameResult]], None]] = None,
                 judge: Optional[DfpnJudge] = None) -> None:
        self.config = config
        self.judge = judge
        self.store = ResultStore(out_dir, config)
        self.jobs = max(1, jobs)
        self.log_dir = os.path.join(out_dir, "logs") if engine_logs else None
        if self.log_dir:
            os.makedirs(self.log_dir, exist_ok=True)
        self.on_result = on_result
        self.stop = threading.Event()
        self.stopped_by_sprt = False
        self._pools: list[EnginePool] = []
        self._record_lock = threading.Lock()  # one game recorded and reported at a time

    def pending(self) -> list[GameSpec]:
        done = self.store.results
        return [spec for spec in self.config.schedule() if spec.index not in done]

    def _decided(self) -> bool:
        state = sprt_state(self.config, self.store.all())
        return state is not None and state[-1] != "continue"

    def run(self) -> list[GameResult]:
        """Play until every game is done, the SPRT decides, or Ctrl-C (then re-raised after
        the engines are stopped; finished games are already on disk)."""
        if self._decided():
            self.stopped_by_sprt = True
            return self.store.all()
        todo: "queue.Queue[GameSpec]" = queue.Queue()
        for spec in self.pending():
            todo.put(spec)
        workers = []
        for w in range(min(self.jobs, todo.qsize())):
            pool = EnginePool(self.config, self.log_dir, w)
            self._pools.append(pool)
            thread = threading.Thread(target=self._work, args=(todo, pool),
                                      name=f"match-worker-{w}", daemon=True)
            thread.start()
            workers.append(thread)
        try:
            for thread in workers:
                while thread.is_alive():
                    thread.join(0.2)
        except KeyboardInterrupt:
            self.stop.set()
            if self.judge is not None:
                self.judge.cancel()  # a game being judged is kept, not judged
            for pool in self._pools:
                pool.kill_all()
            for thread in workers:
                thread.join(5)
            raise
        return self.store.all()

    def _work(self, todo: "queue.Queue[GameSpec]", pool: EnginePool) -> None:
        referee = Referee(self.config.rules, pool.get, pool.discard)
        try:
            while not self.stop.is_set():
                try:
                    spec = todo.get_nowait()
                except queue.Empty:
                    break
                result = referee.play(spec, self.stop.is_set)
                if result is None or self.stop.is_set():
                    break
                if self.record(result):
                    for other in self._pools:
                        if other is not pool:
                            other.kill_all()
        finally:
            pool.close_all()

    def unjudged(self) -> list[GameResult]:
        """The stored forfeits a judge has not judged (none without a judge)."""
        if self.judge is None:
            return []
        return [r for r in self.store.all() if needs_judging(r)]

    def judge_stored(self) -> int:
        """Judge the forfeits of earlier runs that were not judged (played without
        ``--judge``, or cut short while judging); results.jsonl and their SGFs are
        rewritten, also when Ctrl-C stops it.  Returns how many were judged."""
        changed: list[GameResult] = []
        r = self.config.rules
        try:
            for result in self.unjudged():
                if self.stop.is_set() or not judge_result(self.judge, result, r.width,
                                                          r.height):
                    break
                changed.append(result)
        finally:
            if changed:
                self.store.rewrite(changed)
        return len(changed)

    def record(self, result: GameResult) -> bool:
        """Keep a finished game and report it, a forfeit judged first; True when the SPRT
        has now decided (the match is then stopped)."""
        if self.judge is not None and needs_judging(result):
            r = self.config.rules
            judge_result(self.judge, result, r.width, r.height)  # outside both clocks
        with self._record_lock:
            if not self.store.add(result):
                return False
            if self.on_result is not None:
                self.on_result(result, self.store.all())
            decided = self._decided()
        if decided:
            self.stopped_by_sprt = True
            self.stop.set()
        return decided
