"""HTP framing: parse command lines, format replies, and the session loop.

HTP is GTP as Hex programs speak it.  A command is ``[id] name args...``; a reply is
``=[id] text`` or ``?[id] message`` followed by one empty line.  The loop reads stdin on a
thread of its own so that ``# interrupt`` (HexGui's way to stop a running genmove) is seen
while the command is still being handled: it sets that command's ``interrupt`` event.
"""
from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional, TextIO


class HtpError(Exception):
    """A command failed; the message becomes the ``? message`` reply."""


class QuitSession(Exception):
    """Raised by a handler (after its reply is formatted) to end the session."""


@dataclass
class Command:
    """One parsed command line."""
    name: str
    args: list[str]
    id: Optional[str] = None
    interrupt: threading.Event = field(default_factory=threading.Event)


def parse_line(line: str) -> Optional[Command]:
    """A command from one input line, or None for blank lines and comments."""
    line = line.split("#", 1)[0]
    # GTP: control characters other than tab and newline are dropped, tabs become spaces
    line = "".join(ch for ch in line.replace("\t", " ") if ch >= " " or ch == "\n").strip()
    if not line:
        return None
    words = line.split()
    cmd_id = None
    if words[0].isascii() and words[0].isdigit():  # '²' is a digit to Python, not to HTP
        cmd_id = words.pop(0)
        if not words:
            return Command("", [], cmd_id)
    return Command(words[0], words[1:], cmd_id)


def format_reply(ok: bool, text: str, cmd_id: Optional[str] = None) -> str:
    """``=id text`` / ``?id text`` and the closing empty line; no empty line inside."""
    lines = [line.rstrip() for line in text.rstrip().split("\n")]
    rest = [line for line in lines[1:] if line.strip()]
    head = ("=" if ok else "?") + (cmd_id or "")
    if lines[0]:
        head += " " + "\n".join([lines[0]] + rest)
    elif rest:  # the text starts on a line of its own (showboard): no space after '='
        head += "\n" + "\n".join(rest)
    return head + "\n\n"


def format_gfx(text: str) -> str:
    """A live-graphics block as HexGui reads it before a reply: a ``gogui-gfx:`` line, the
    block's lines (blank ones dropped: an empty line ends the block) and one empty line."""
    lines = [line.rstrip() for line in text.strip().split("\n") if line.strip()]
    return "gogui-gfx:\n" + "".join(line + "\n" for line in lines) + "\n"


def is_interrupt(line: str) -> bool:
    """HexGui writes ``# interrupt`` to stop the running command."""
    stripped = line.strip()
    return stripped.startswith("#") and stripped[1:].strip().lower() == "interrupt"


class Session:
    """Runs the read-dispatch-reply loop until ``quit`` or end of input."""

    def __init__(self, handle: Callable[[Command], str], infile: Iterable[str],
                 outfile: TextIO) -> None:
        self.handle = handle
        self.infile = infile
        self.outfile = outfile
        self._queue: "queue.Queue[Optional[Command]]" = queue.Queue()
        # commands read but not yet answered: ``# interrupt`` stops all of them, so it
        # reaches the running genmove even when more commands were queued behind it
        self._unfinished: dict[int, Command] = {}
        self._lock = threading.Lock()

    def _read(self) -> None:
        try:
            for raw in self.infile:
                line = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
                if is_interrupt(line):
                    with self._lock:
                        for pending in self._unfinished.values():
                            pending.interrupt.set()
                    continue
                cmd = parse_line(line)
                if cmd is not None:
                    with self._lock:
                        self._unfinished[id(cmd)] = cmd
                    self._queue.put(cmd)
        except (OSError, ValueError):
            pass
        finally:
            self._queue.put(None)

    def send_gfx(self, text: str) -> None:
        """Write a live-graphics block now (from the running command's thread, so it comes
        before that command's reply)."""
        try:
            self.outfile.write(format_gfx(text))
            self.outfile.flush()
        except (BrokenPipeError, OSError, ValueError):
            pass

    def run(self) -> int:
        """Serve commands; returns the exit status (0)."""
        reader = threading.Thread(target=self._read, name="htp-reader", daemon=True)
        reader.start()
        while True:
            cmd = self._queue.get()
            if cmd is None:
                return 0
            quitting = False
            try:
                if not cmd.name:
                    raise HtpError("empty command")
                reply = format_reply(True, self.handle(cmd), cmd.id)
            except QuitSession:
                reply = format_reply(True, "", cmd.id)
                quitting = True
            except HtpError as exc:
                reply = format_reply(False, str(exc) or "error", cmd.id)
            except Exception as exc:  # an engine bug must not end the game
                reply = format_reply(False, f"internal error: {type(exc).__name__}: {exc}",
                                     cmd.id)
            with self._lock:
                self._unfinished.pop(id(cmd), None)
            try:
                self.outfile.write(reply)
                self.outfile.flush()
            except (BrokenPipeError, OSError):
                return 0
            if quitting:
                return 0
