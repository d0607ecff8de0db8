"""Running the checks against one engine: each check on its own fresh position, a crash,
hang or garbage reply made a FAIL of that check (and the engine started afresh for the
next), a bug in a check reported as that check's FAIL rather than a traceback."""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import IO, Callable, Iterable, Optional

from ..match.controller import EngineError
from ..regress.run import resolve_command
from .checks import CHECKS, Check, Context, Failed, Warned
from .probe import Probe

PASS = "pass"
WARN = "warn"
FAIL = "FAIL"
OUTCOMES = (PASS, WARN, FAIL)


@dataclass
class CheckResult:
    """The outcome of one check."""

    check: Check
    outcome: str
    reason: str
    seconds: float

    @property
    def name(self) -> str:
        return self.check.name


@dataclass
class RunResult:
    """Everything one run found."""

    command: str
    engine: str = ""                  # name and version
    results: list[CheckResult] = field(default_factory=list)
    failure: str = ""                 # the engine did not start at all
    seconds: float = 0.0

    def count(self, outcome: str) -> int:
        """How many checks ended with ``outcome``."""
        return sum(r.outcome == outcome for r in self.results)


def select_checks(only: Iterable[str] = (), skip: Iterable[str] = ()) -> list[Check]:
    """The checks named in ``only`` (all if empty) less those in ``skip``, in their order;
    an unknown name raises ValueError."""
    only, skip = list(only), list(skip)
    names = {c.name for c in CHECKS}
    unknown = [n for n in only + skip if n not in names]
    if unknown:
        raise ValueError(f"unknown check {unknown[0]!r} (known: {', '.join(c.name for c in CHECKS)})")
    return [c for c in CHECKS if (not only or c.name in only) and c.name not in skip]


def _engine_failure(exc: EngineError, timeout: float) -> str:
    if exc.reason == "timeout":
        return f"no answer within {timeout:g} s"
    if exc.reason == "crash":
        return f"engine crashed: {exc.detail}" if exc.detail else "engine crashed"
    if exc.reason == "garbage":
        return f"not HTP: {exc.detail}"
    return str(exc)


def run_checks(command: str, checks: Optional[list[Check]] = None, *, timeout: float = 30.0,
               init: tuple[str, ...] = (), size: int = 11, interrupt_after: float = 0.5,
               stderr: Optional[IO[str]] = None,
               on_start: Optional[Callable[[str], None]] = None,
               on_result: Optional[Callable[[CheckResult], None]] = None,
               trace: Optional[Callable[[str], None]] = None) -> RunResult:
    """Run ``checks`` (default: all) against the engine ``command`` starts.

    ``init`` commands are sent after every start and must succeed; ``timeout`` bounds every
    reply; ``on_start`` gets the engine's name and version, ``on_result`` every result as it
    comes, ``trace`` the HTP stream."""
    checks = list(CHECKS) if checks is None else checks
    result = RunResult(command)
    started = time.monotonic()
    probe: Optional[Probe] = None

    def start() -> None:
        assert probe is not None
        probe.restart()
        for line in init:
            reply = probe.send(line)
            if not reply.ok:
                raise EngineError("refused", f"--init {line!r}: {reply.shown()}")

    try:
        probe = Probe(resolve_command(command), timeout, stderr, trace)
        start()
        version = probe.send("version")
        name = probe.send("name")
        result.engine = f"{name.text} {version.text if version.ok else ''}".strip()
    except EngineError as exc:
        result.failure = f"engine does not start: {exc.detail or exc.reason}"
        if probe is not None:
            probe.kill()
        result.seconds = time.monotonic() - started
        return result
    if on_start:
        on_start(result.engine)
    ctx = Context(probe, size=size, interrupt_after=interrupt_after)
    try:
        for number, item in enumerate(checks):
            begin = time.monotonic()
            if ctx.dirty or not probe.alive():
                try:
                    start()
                    ctx.dirty = False
                except EngineError as exc:
                    reason = f"engine does not restart: {exc.detail or exc.reason}"
                    for rest in checks[number:]:
                        done = CheckResult(rest, FAIL, reason, 0.0)
                        result.results.append(done)
                        if on_result:
                            on_result(done)
                    break
            try:
                outcome, reason = PASS, item.run(ctx)
            except Failed as exc:
                outcome, reason = FAIL, str(exc)
            except Warned as exc:
                outcome, reason = WARN, str(exc)
            except EngineError as exc:
                outcome, reason = FAIL, _engine_failure(exc, timeout)
                ctx.dirty = True
            except Exception as exc:     # a bug in a check must not hide the others
                outcome, reason = FAIL, f"check error: {type(exc).__name__}: {exc}"
                ctx.dirty = True
            done = CheckResult(item, outcome, reason, time.monotonic() - begin)
            result.results.append(done)
            if on_result:
                on_result(done)
    finally:                             # also on Ctrl-C: the engine has a session of its own
        if ctx.dirty:
            probe.kill()
        else:
            probe.close()
    result.seconds = time.monotonic() - started
    return result
