"""The engine under test, as the checks see it: commands sent with a time limit, replies
kept as written (the ``=``/``?`` line with its id) as well as parsed.

Built on the match runner's :class:`EngineProcess`; an engine that crashes, hangs or answers
something that is not HTP raises :class:`EngineError`, which the runner turns into a FAIL of
the check that was running.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import IO, Callable, Optional

from ..match.controller import EngineError, EngineProcess


@dataclass
class Reply:
    """One reply: success or error, its text (id and status stripped) and its raw lines."""

    command: str
    ok: bool
    text: str
    id: str              # the id the reply carries ('' without)
    lines: list[str]     # as the engine wrote them, without the closing empty line
    seconds: float

    @property
    def status_line(self) -> str:
        """The first line as written: ``=7 text``, ``= text``, ``=`` ..."""
        return self.lines[0]

    def shown(self) -> str:
        """The reply on one line, shortened, for reasons in reports."""
        first = self.text.splitlines()[0] if self.text else ""
        if len(first) > 50:
            first = first[:47] + "..."
        more = " ..." if "\n" in self.text else ""
        return f"{'=' if self.ok else '?'} {first}{more}".rstrip()


def parse_reply(command: str, lines: list[str], seconds: float) -> Reply:
    """A :class:`Reply` from the raw lines of one reply."""
    head = lines[0]
    rest = head[1:]
    digits = len(rest) - len(rest.lstrip("0123456789"))
    body = [rest[digits:].strip()] + lines[1:]
    return Reply(command, head[0] == "=", "\n".join(body).strip(), rest[:digits], lines,
                 seconds)


class Probe:
    """One engine process under test; ``restart`` replaces it with a fresh one."""

    def __init__(self, command: str, timeout: float = 30.0, stderr: Optional[IO[str]] = None,
                 trace: Optional[Callable[[str], None]] = None) -> None:
        self.command = command
        self.timeout = timeout
        self.stderr = stderr
        self.trace = trace
        self.engine: Optional[EngineProcess] = None
        self._commands: Optional[list[str]] = None

    def start(self) -> str:
        """Start the engine and ask its ``name`` (it must answer); returns the name."""
        self.engine = EngineProcess(self.command, "engine", self.stderr)
        reply = self.send("name")
        self._commands = None
        return reply.text

    def alive(self) -> bool:
        """Is there a running engine?"""
        return self.engine is not None and self.engine.alive()

    def restart(self) -> str:
        """Kill the engine (it crashed, hung or is out of step) and start a fresh one."""
        self.kill()
        return self.start()

    def _engine(self) -> EngineProcess:
        if self.engine is None:
            raise EngineError("crash", "engine not running")
        return self.engine

    def send(self, command: str, timeout: Optional[float] = None) -> Reply:
        """Send one command and read its whole reply."""
        self.write(command)
        return self.read(command, timeout)

    def write(self, line: str) -> None:
        """Write one line without reading a reply."""
        if self.trace:
            self.trace(">> " + line)
        self._engine().write(line)

    def read(self, command: str, timeout: Optional[float] = None) -> Reply:
        """Read the reply to ``command``, already written."""
        start = time.monotonic()
        lines = self._engine().read_reply(self.timeout if timeout is None else timeout,
                                          command)
        if self.trace:
            for line in lines:
                self.trace("<< " + line)
        return parse_reply(command, lines, time.monotonic() - start)

    def commands(self) -> list[str]:
        """The engine's ``list_commands`` (empty if it fails), asked once per engine."""
        if self._commands is None:
            reply = self.send("list_commands")
            self._commands = reply.text.split() if reply.ok else []
        return self._commands

    def knows(self, name: str) -> bool:
        """Does ``list_commands`` name ``name``?"""
        return name in self.commands()

    def close(self) -> None:
        """Stop the engine politely (``quit``), killing it if it does not go."""
        if self.engine is not None:
            self.engine.close()
            self.engine = None

    def kill(self) -> None:
        """Kill the engine at once."""
        if self.engine is not None:
            self.engine.kill()
            self.engine = None
