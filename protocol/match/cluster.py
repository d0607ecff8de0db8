"""``hex-match --cluster``: the games of a match as tasks on a Dask distributed cluster.

Each game is one task (``remote.play``) on a worker, which starts the engines with the
match's commands and returns the game record.  This side keeps everything else: at most
``jobs`` games in flight, every returned record checked move by move (``verify.py``) before
it is kept, results.jsonl and the SGFs, resume, the SPRT stop, Ctrl-C.  Faults:

- a worker that dies mid-game: the scheduler plays the game again on another worker (Dask's
  ``allowed-failures``, 3 by default, bounds how often); past that the game is left unplayed
  and named, for a later run to play;
- an exception inside the task: Dask retries it ``RETRIES`` times, then the same;
- a record that fails the check: played again, at most ``RETRIES`` times;
- the scheduler lost: the run stops (MatchError) with every finished game kept.

With ``--judge`` the forfeits are judged here, on the runner, after their records are
checked: in a thread of their own, one at a time, while the main loop goes on handing out
games (the workers never see the judge).

Dask is imported only here and only when ``--cluster`` is given (``pip install '.[cluster]'``).
"""
from __future__ import annotations

import logging
import time
import uuid
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import Any, Callable, Iterable, Iterator, Optional

from .judge import DfpnJudge, needs_judging
from .referee import GameResult, GameSpec
from .remote import play, preflight
from .runner import Match, MatchConfig, MatchError
from .verify import RecordError, check_record

RETRIES = 2  # task exceptions and rejected records, per game
POLL = 0.05  # seconds between looks at the games in flight


def _dask():
    try:
        import distributed
    except ImportError:
        raise MatchError("--cluster needs Dask distributed: pip install 'hexengine[cluster]' "
                         "(or '.[cluster]' from a checkout)") from None
    return distributed


def connect(address: str, timeout: float):
    """A Dask client of the scheduler at ``address`` with at least one worker; MatchError
    with the reason when there is none within ``timeout`` seconds."""
    distributed = _dask()
    logging.getLogger("distributed").setLevel(logging.CRITICAL)  # our messages say it
    try:
        client = distributed.Client(address, timeout=timeout, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise MatchError(f"cannot reach the Dask scheduler at {address} within {timeout:g} s: "
                         f"{exc}") from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        client.close()
        raise MatchError(f"the Dask scheduler at {address} has no worker after {timeout:g} s "
                         f"({exc})") from None
    return client


class ClusterMatch(Match):
    """A Match whose games are played by the workers of a Dask cluster."""

    def __init__(self, config: MatchConfig, out_dir: str, client, jobs: Optional[int] = None,
                 on_result: Optional[Callable[[GameResult, list[GameResult]], None]] = None,
                 judge: Optional[DfpnJudge] = None) -> None:
        self.client = client
        if jobs is None:
            jobs = max(1, sum(client.nthreads().values()))
        super().__init__(config, out_dir, jobs, False, on_result, judge)
        self.unplayed: list[str] = []  # games given up on, with the reason
        self._judging: list[Future] = []  # forfeits being judged, then recorded

    def check_workers(self) -> None:
        """Every worker must start every engine; MatchError naming the first that cannot."""
        answers = self.client.run(preflight, self.config)
        for worker, failed in sorted(answers.items()):
            for name, why in failed.items():
                raise MatchError(f"engine {name} does not start on worker {worker}: {why}")

    def run(self) -> list[GameResult]:
        """Play the missing games on the cluster; raises MatchError when the scheduler is lost
        and KeyboardInterrupt on Ctrl-C, after the games in flight are called off."""
        if self._decided():
            self.stopped_by_sprt = True
            return self.store.all()
        distributed = _dask()
        run_id = uuid.uuid4().hex[:12]
        stop_name = f"hex-match-stop-{run_id}"
        stop_event = distributed.Event(stop_name, client=self.client)
        todo = deque(self.pending())
        tries: dict[int, int] = {}
        running: dict = {}  # future -> spec

        def submit(spec: GameSpec) -> None:
            tries[spec.index] = tries.get(spec.index, 0) + 1
            key = f"hex-match-{run_id}-game-{spec.index + 1}-{tries[spec.index]}"
            future = self.client.submit(play, self.config, spec, stop_name, key=key,
                                        pure=False, retries=RETRIES)
            running[future] = spec

        judges = ThreadPoolExecutor(1, "hex-match-judge") if self.judge else None
        try:
            while (todo or running) and not self.stop.is_set():
                try:
                    while todo and len(running) < self.jobs:
                        if self.client.status != "running":
                            raise self._lost(f"game {todo[0].index + 1} was next")
                        submit(todo.popleft())
                    done = [f for f in running if f.status != "pending"]
                    if not done:
                        self.stop.wait(POLL)
                        continue
                    for future in done:
                        spec = running.pop(future)
                        again = self._collect(future, spec, tries[spec.index], judges)
                        if again and not self.stop.is_set():
                            todo.append(spec)
                except MatchError:
                    raise
                except Exception as exc:  # a call into a client whose scheduler is gone
                    # (a result fetched just as the scheduler died fails with a closed
                    # connection before the client's status has changed)
                    if self.client.status != "running" or isinstance(
                            exc, _dask().comm.CommClosedError):
                        raise self._lost(f"{type(exc).__name__}") from None
                    raise
            self._finish_judging(judges, cancel=False)
        except BaseException:
            self._call_off(stop_event, running)
            self._finish_judging(judges, cancel=True)
            raise
        self._call_off(stop_event, running)
        return self.store.all()

    def _finish_judging(self, judges: Optional[ThreadPoolExecutor], cancel: bool) -> None:
        """Wait for the forfeits being judged to be recorded; ``cancel`` stops the judge
        first (they are then recorded unjudged, for a later run to judge)."""
        if judges is None:
            return
        if cancel and self.judge is not None:
            self.judge.cancel()
        while self._judging:
            finished, _ = wait(self._judging, timeout=POLL * 10)
            for future in finished:
                self._judging.remove(future)
                future.result()  # an error in recording is the run's error
        judges.shutdown()

    def _collect(self, future, spec: GameSpec, tries: int,
                 judges: Optional[ThreadPoolExecutor] = None) -> bool:
        """Keep the game a finished task played; True if it must be played again."""
        where = f"game {spec.index + 1}"
        if future.status == "cancelled" or (future.status != "finished"
                                            and self.client.status != "running"):
            raise self._lost(f"{where} was in play")
        if future.status == "error":
            exc = future.exception()
            if isinstance(exc, _dask().KilledWorker):
                why = "the workers playing it died every time (Dask's allowed-failures)"
            else:
                why = f"the task failed {RETRIES + 1} times: {type(exc).__name__}: {exc}"
            self.unplayed.append(f"{where}: {why}")
            return False
        if future.status != "finished":  # "lost": the result went down with its worker
            if tries > RETRIES:
                self.unplayed.append(f"{where}: its result was lost {tries} times")
                return False
            return True
        data = future.result()
        if data is None:  # abandoned because the run is stopping
            return False
        try:
            result = check_record(data, spec, self.config.rules)
        except RecordError as exc:
            if tries > RETRIES:
                self.unplayed.append(f"{where}: rejected record: {exc}")
                return False
            return True
        if judges is not None and needs_judging(result):
            self._judging.append(judges.submit(self.record, result))
        else:
            self.record(result)
        return False

    @staticmethod
    def _lost(what: str) -> MatchError:
        return MatchError(f"lost the Dask scheduler ({what}); finished games are kept, run "
                          f"the same command to resume")

    def _call_off(self, stop_event, running: dict) -> None:
        """Tell the workers to abandon the games in flight and forget them."""
        if not running:
            return
        try:
            stop_event.set()
            self.client.cancel(list(running))
        except Exception:  # the scheduler may be gone already
            pass
        running.clear()


def finished(futures: Iterable) -> Iterator[tuple[Any, Optional[str]]]:
    """Each of ``futures`` (a script's tasks) as it finishes, looked at every POLL seconds,
    with why it failed (its exception, or that it was cancelled), or None when it has a
    result."""
    pending = list(futures)
    while pending:
        done = [f for f in pending if f.done()]
        if not done:
            time.sleep(POLL)
        for future in done:
            pending.remove(future)
            if future.status == "finished":
                yield future, None
                continue
            try:  # failed on every try, or cancelled
                why = repr(future.exception())
            except Exception as exc:  # (a cancelled task has no exception)
                why = type(exc).__name__
            yield future, why


def worker_name() -> Optional[str]:
    """The name of the Dask worker running this task; None outside a worker."""
    try:
        from distributed import get_worker
        return str(get_worker().name)
    except (ImportError, ValueError):  # not on a worker
        return None


def closing(client) -> None:
    """Close the client; one that lost its scheduler is left to the process exit (closing
    it would wait out its reconnection attempts)."""
    if client.status != "running":
        return
    try:
        client.close(timeout=2)
    except Exception:  # the scheduler may be gone: there is nothing left to close cleanly
        pass
