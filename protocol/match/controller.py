"""The controller side of HTP: run an engine process and talk to it with time limits.

Failures are reported as EngineError with a short reason (``crash``, ``timeout``,
``garbage``, ``refused``) so that a match referee can turn them into results.
"""
from __future__ import annotations

import os
import queue
import shlex
import subprocess
import threading
import time
from typing import IO, Optional


class EngineError(Exception):
    """The engine crashed, hung, refused a command or answered something that is not HTP."""

    def __init__(self, reason: str, detail: str = "") -> None:
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


class EngineProcess:
    """One HTP engine subprocess; ``send`` returns (ok, text) or raises EngineError.

    The engine runs in a session of its own, so a Ctrl-C meant for the match runner does not
    reach it (the runner decides when engines stop).  Its stderr goes to ``stderr`` (a file)
    or nowhere; it runs in ``cwd`` (default: the caller's directory)."""

    def __init__(self, command: str, name: str = "engine",
                 stderr: Optional[IO[str]] = None, cwd: Optional[str] = None) -> None:
        self.command = command
        self.name = name
        try:
            self.proc = subprocess.Popen(
                shlex.split(command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=stderr if stderr is not None else subprocess.DEVNULL,
                text=True, bufsize=1, start_new_session=True, cwd=cwd)
        except (OSError, ValueError) as exc:
            raise EngineError("crash", f"cannot start {command!r}: {exc}") from None
        self._lines: "queue.Queue[Optional[str]]" = queue.Queue()
        threading.Thread(target=self._pump, name=f"pump-{name}", daemon=True).start()

    def _pump(self) -> None:
        assert self.proc.stdout is not None
        try:
            for line in self.proc.stdout:
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def _next_line(self, deadline: float) -> str:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise EngineError("timeout", "no answer in time")
        try:
            line = self._lines.get(timeout=remaining)
        except queue.Empty:
            raise EngineError("timeout", "no answer in time") from None
        if line is None:
            self._lines.put(None)  # stay at end of file for later calls
            try:
                status = self.proc.wait(timeout=1)
            except subprocess.TimeoutExpired:
                status = None
            raise EngineError("crash", f"engine closed its output (exit status {status})")
        return line

    def write(self, line: str) -> None:
        """Write one line to the engine without waiting for a reply (``# interrupt``)."""
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError("crash", "engine closed its input") from None

    def read_reply(self, timeout: float = 30.0, command: str = "") -> list[str]:
        """The next reply as the engine wrote it: its lines from the ``=``/``?`` line up to
        (not including) the empty line that ends it.  Blank lines before it are skipped."""
        deadline = time.monotonic() + timeout
        line = self._next_line(deadline)
        while not line.strip():
            line = self._next_line(deadline)
        if line[0] not in "=?":
            raise EngineError("garbage", f"unexpected output {line[:60]!r} to {command!r}")
        lines = [line]
        while True:
            nxt = self._next_line(deadline)
            if not nxt:  # only an empty line ends a reply: Benzene's multi-line replies
                break    # hold lines of one space (its showboard begins with one)
            lines.append(nxt)
        return lines

    def send(self, command: str, timeout: float = 30.0) -> tuple[bool, str]:
        """Send one command and wait at most ``timeout`` seconds for its whole reply."""
        self.write(command)
        lines = self.read_reply(timeout, command)
        body = [lines[0][1:].lstrip("0123456789").strip()] + lines[1:]
        return lines[0][0] == "=", "\n".join(body).strip()

    def ok(self, command: str, timeout: float = 30.0) -> str:
        """Send a command that must succeed; a ``?`` reply raises EngineError('refused')."""
        ok, text = self.send(command, timeout)
        if not ok:
            raise EngineError("refused", f"{command!r}: {text}")
        return text

    def alive(self) -> bool:
        return self.proc.poll() is None

    def close(self) -> None:
        """Ask politely (``quit``, then end of input), then kill."""
        try:
            if self.proc.poll() is None and self.proc.stdin:
                self.proc.stdin.write("quit\n")
                self.proc.stdin.flush()
                self.proc.stdin.close()
            self.proc.wait(timeout=2)
        except Exception:  # the engine may be hung or gone already
            self.kill()

    def kill(self) -> None:
        """Kill the engine and everything it started."""
        try:
            os.killpg(self.proc.pid, 9)
        except (ProcessLookupError, PermissionError, OSError):
            try:
                self.proc.kill()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass


def start_engine(command: str, name: str, init: list[str], timeout: float,
                 stderr: Optional[IO[str]] = None) -> EngineProcess:
    """Start an engine and check it speaks HTP (``name``), then send its ``init`` commands;
    on any failure the process is killed and EngineError raised."""
    proc = EngineProcess(command, name, stderr)
    try:
        proc.ok("name", timeout)
        for line in init:
            proc.ok(line, timeout)
    except EngineError:
        proc.kill()
        raise
    return proc
