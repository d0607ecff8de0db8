"""A small pexpect driver for the installed ``hexengine`` command, shared by the tests."""
from __future__ import annotations


import shutil
import sys
import tempfile
import time
from typing import Optional

import pexpect



def engine_command() -> list[str]:
    """The installed console script if present, else ``python -m hexengine``."""
    exe = shutil.which("hexengine")
    return [exe] if exe else [sys.executable, "-m", "hexengine"]


class HtpClient:
    """Drives one engine process over HTP: ``send`` returns (ok, text, id)."""

    def __init__(self, *args: str, timeout: float = 30.0) -> None:
        # stderr shares the pty with stdout, so search logs go to a file instead
        self.log = tempfile.NamedTemporaryFile("r", prefix="hexengine-", suffix=".log")
        if "--log" not in args and "--quiet" not in args:
            args = args + ("--log", self.log.name)
        cmd = engine_command() + list(args)
        self.proc = pexpect.spawn(cmd[0], cmd[1:], encoding="utf-8", timeout=timeout,
                                  echo=False)
        self.proc.delaybeforesend = None

    def write(self, line: str) -> None:
        self.proc.send(line)

    def read_reply(self, timeout: Optional[float] = None) -> tuple[bool, str, str]:
        self.proc.expect(r"([=?])(\d*)(.*?)\r?\n\r?\n", timeout=timeout)
        text = self.proc.match.group(3)
        if text.startswith(" "):
            text = text[1:]
        return self.proc.match.group(1) == "=", text.replace("\r\n", "\n"), \
            self.proc.match.group(2)

    def send(self, line: str, timeout: Optional[float] = None) -> tuple[bool, str]:
        self.write(line.rstrip("\n") + "\n")
        ok, text, _ = self.read_reply(timeout)
        return ok, text

    def ok(self, line: str, timeout: Optional[float] = None) -> str:
        """Send a command that must succeed; return its reply text."""
        ok, text = self.send(line, timeout)
        assert ok, f"{line!r} failed: {text}"
        return text

    def error(self, line: str, timeout: Optional[float] = None) -> str:
        """Send a command that must fail; return its error message."""
        ok, text = self.send(line, timeout)
        assert not ok, f"{line!r} should have failed but answered {text!r}"
        assert text, f"{line!r} failed without a message"
        return text

    def timed(self, line: str, timeout: Optional[float] = None) -> tuple[bool, str, float]:
        start = time.monotonic()
        ok, text = self.send(line, timeout)
        return ok, text, time.monotonic() - start

    def close(self) -> int:
        if self.proc.isalive():
            self.proc.sendeof()
            self.proc.expect(pexpect.EOF, timeout=10)
        self.proc.close()
        self.log.close()
        return self.proc.exitstatus
