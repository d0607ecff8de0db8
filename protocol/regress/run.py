"""Running regression files: one fresh engine per file, in the file's directory, every
command sent in order and every check judged.

An engine that crashes, hangs past the timeout or answers something that is not HTP ends
its file: the command it failed on is reported as an ``error`` and the rest of the file is
not run.
"""
from __future__ import annotations

import os
import shlex
import shutil
import time
from dataclasses import dataclass, field
from typing import IO, Callable, Optional

from ..match.controller import EngineError, EngineProcess
from .parse import Expectation, Step, TstError, read_tst

PASS = "pass"
FAIL = "FAIL"
XFAIL = "expected failure"
XPASS = "unexpected pass"
ERROR = "error"          # the engine crashed, hung or spoke garbage during this check
OUTCOMES = (PASS, FAIL, XFAIL, XPASS, ERROR)


@dataclass
class CheckResult:
    """The outcome of one check (or of the command the engine broke on)."""

    step: Step
    outcome: str
    ok: bool                 # the engine's reply was ``=`` (False for ``?`` or no reply)
    response: str            # the reply's text (an error's message), or the engine failure
    seconds: float
    as_set: bool = False     # compared as a set of words
    note: str = ""           # a hint for the reader (e.g. "equal as a set: see --set")
    engine_failure: bool = False  # no reply: the engine crashed, hung or spoke garbage

    @property
    def expected(self) -> str:
        """The expectation as written in the file, for reports."""
        exp = self.step.expectation
        if exp is None:
            return "(success)"
        return f"[{exp.source}]" + ("*" if exp.expected_failure else "")


@dataclass
class FileResult:
    """Everything that happened while running one regression file."""

    path: str
    engine: str = ""                      # the engine's name and version
    checks: list[CheckResult] = field(default_factory=list)
    other_errors: list[CheckResult] = field(default_factory=list)  # unnumbered '?' replies
    seconds: float = 0.0
    failure: str = ""                     # why the file stopped early (crash, timeout, ...)
    not_run: int = 0                      # checks left unrun after a failure
    no_engine: bool = False               # the engine command did not start at all

    def count(self, outcome: str) -> int:
        """How many checks ended with ``outcome``."""
        return sum(c.outcome == outcome for c in self.checks)

    @property
    def broken(self) -> bool:
        """The file did not run to its end (engine failure or a file error)."""
        return bool(self.failure)


def matches(expectation: Optional[Expectation], ok: bool, response: str,
            as_set: bool = False) -> bool:
    """Does the reply (``ok``, ``response``) satisfy the expectation?  With no expectation,
    any success does.  ``as_set`` compares a plain word list as a set of words."""
    if expectation is None:
        return ok
    if ok == expectation.error:
        return False
    words = expectation.words() if as_set else None
    if words is not None:
        found = frozenset(response.split()) == words
    else:
        found = expectation.regex().fullmatch(response) is not None
    return found != expectation.negate


def judge(step: Step, ok: bool, response: str, seconds: float,
          as_set: bool = False) -> CheckResult:
    """The outcome of one check from the engine's reply."""
    exp = step.expectation
    use_set = as_set and exp is not None and exp.words() is not None
    passed = matches(exp, ok, response, use_set)
    known_bug = exp is not None and exp.expected_failure
    if passed:
        outcome = XPASS if known_bug else PASS
    else:
        outcome = XFAIL if known_bug else FAIL
    note = ""
    if (not passed and not use_set and exp is not None and exp.words() is not None
            and matches(exp, ok, response, as_set=True)):
        note = "equal as a set of words: see --set"
    return CheckResult(step, outcome, ok, response, seconds, use_set, note)


def resolve_command(command: str) -> str:
    """The engine command with its program made absolute, so that it still starts when the
    engine runs in another directory (the other arguments are passed as they are)."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise EngineError("crash", f"cannot parse engine command {command!r}: {exc}") from None
    if not argv:
        raise EngineError("crash", "empty engine command")
    program = argv[0]
    if os.sep in program or (os.altsep and os.altsep in program):
        if not os.path.isabs(program):
            argv[0] = os.path.abspath(program)
    else:
        found = shutil.which(program)
        if found is None:
            raise EngineError("crash", f"cannot start {command!r}: {program!r} not found")
        argv[0] = found
    return shlex.join(argv)


def run_file(path: str, command: str, *, timeout: float = 60.0, init: tuple[str, ...] = (),
             as_set: bool = False, stderr: Optional[IO[str]] = None,
             on_start: Optional[Callable[[str], None]] = None,
             on_check: Optional[Callable[[CheckResult], None]] = None,
             trace: Optional[Callable[[str], None]] = None) -> FileResult:
    """Run one regression file against a fresh engine started in the file's directory.

    ``init`` commands are sent first (each must succeed); ``on_start`` is called with the
    engine's name and version, ``on_check`` with every check as it is judged; ``trace``
    receives the HTP stream line by line."""
    result = FileResult(path)
    try:
        steps = read_tst(path)
    except TstError as exc:
        result.failure = str(exc)
        return result
    directory = os.path.dirname(os.path.abspath(path))
    started = time.monotonic()
    try:
        engine = EngineProcess(resolve_command(command), os.path.basename(path), stderr,
                               cwd=directory)
    except EngineError as exc:
        result.failure = f"engine does not start: {exc.detail or exc.reason}"
        result.no_engine = True
        result.not_run = sum(s.is_check for s in steps)
        return result

    def send(text: str) -> tuple[bool, str]:
        if trace:
            trace(text)
        ok, reply = engine.send(text, timeout)
        if trace:
            trace(("= " if ok else "? ") + reply.replace("\n", "\n  "))
        return ok, reply

    current: Optional[int] = None       # index of the step being sent
    begin = started
    try:
        ok, name = send("name")
        result.engine = name if ok else "?"
        ok, version = send("version")
        if ok and version:
            result.engine += f" {version}"
        if on_start:
            on_start(result.engine)
        for line in init:
            ok, reply = send(line)
            if not ok:
                raise EngineError("refused", f"--init {line!r}: {reply}")
        for current, step in enumerate(steps):
            begin = time.monotonic()
            ok, reply = send(step.text)
            spent = time.monotonic() - begin
            if step.is_check:
                check = judge(step, ok, reply, spent, as_set)
                result.checks.append(check)
                if on_check:
                    on_check(check)
            elif not ok:
                result.other_errors.append(CheckResult(step, ERROR, ok, reply, spent))
    except EngineError as exc:
        if exc.reason == "timeout":
            detail = f"no answer within {timeout:g} s"
        elif exc.reason == "refused":      # an --init command
            detail = exc.detail
        else:
            reason = {"crash": "engine crashed",
                      "garbage": "engine answered garbage"}.get(exc.reason, exc.reason)
            detail = f"{reason}: {exc.detail}" if exc.detail else reason
        if current is None:
            result.failure = f"before the first command: {detail}"
            rest = 0
        else:
            step = steps[current]
            result.failure = f"line {step.line}: {step.text!r}: {detail}"
            if step.is_check:
                check = CheckResult(step, ERROR, False, detail, time.monotonic() - begin,
                                    engine_failure=True)
                result.checks.append(check)
                if on_check:
                    on_check(check)
            rest = current + 1
        result.not_run = sum(s.is_check for s in steps[rest:])
        engine.kill()
    except BaseException:                  # Ctrl-C: the engine runs in its own session
        engine.kill()
        raise
    else:
        engine.close()
    result.seconds = time.monotonic() - started
    return result
