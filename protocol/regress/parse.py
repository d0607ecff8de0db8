"""Reading GoGui regression files (``.tst``): HTP commands, some numbered, and the ``#?``
lines that state what the command before them must answer.

The rules are gogui-regress's:

- every non-blank line not starting with ``#`` is an HTP command, sent as written (tabs
  become spaces); a leading number is its id (``10 genmove b``);
- a numbered command is a check; ``#? [PATTERN]`` on the very next line says what its
  answer must be: PATTERN is a regular expression that must match the whole answer
  (``re.fullmatch`` with MULTILINE and DOTALL, as Java's ``matches()``);
- ``#? [PATTERN]*``: a known failure; ``#? [!PATTERN]``: the answer must not match;
- a numbered command without ``#?`` (or with an empty ``#?``) passes if it succeeds.

One addition of ours: ``#? [?PATTERN]`` expects an error reply whose message (the text after
``?``) matches PATTERN; ``#? [?]`` accepts any error.  Without the ``?`` an error reply always
fails the check, whatever the pattern (as in gogui-regress).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

# a pattern of two or more plain words (cells such as ``a1``, ``swap-pieces``) can be compared
# as a set of words (``--set``); anything else stays a regular expression
_WORDS_RE = re.compile(r"[A-Za-z0-9_-]+(?:\s+[A-Za-z0-9_-]+)+")


class TstError(Exception):
    """A regression file that cannot be read: the message names the file and line."""


@dataclass(frozen=True)
class Expectation:
    """What a ``#?`` line asks of the answer."""

    pattern: str               # the regular expression (without brackets, ``!``, ``?``)
    source: str                # the text between the brackets, as written
    negate: bool = False       # ``[!...]``: the answer must not match
    error: bool = False        # ``[?...]``: the command must fail, its message match
    expected_failure: bool = False  # ``[...]*``: a known bug

    def regex(self) -> "re.Pattern[str]":
        """The compiled pattern (whole-answer match, ``^``/``$`` per line, ``.`` any char)."""
        return re.compile(self.pattern, re.MULTILINE | re.DOTALL)

    def words(self) -> Optional[frozenset[str]]:
        """The pattern as a set of words, or None unless it is a list of plain words."""
        if not _WORDS_RE.fullmatch(self.pattern):
            return None
        return frozenset(self.pattern.split())


@dataclass(frozen=True)
class Step:
    """One HTP command of a regression file, with its check if it is one."""

    line: int                  # 1-based line number in the file
    text: str                  # the command as sent (with its id, if any)
    command: str               # the command without its id
    id: Optional[int]          # the numeric id, or None
    expectation: Optional[Expectation] = None

    @property
    def is_check(self) -> bool:
        """Numbered commands and commands followed by ``#?`` are checks."""
        return self.id is not None or self.expectation is not None

    @property
    def label(self) -> str:
        """The check's name in reports: its id, or its line for an unnumbered command."""
        return str(self.id) if self.id is not None else f"line {self.line}"


def parse_expectation(text: str) -> Optional[Expectation]:
    """Parse what follows ``#?``; None for an empty one.  Raises ValueError on bad syntax."""
    text = text.strip()
    if not text:
        return None
    expected_failure = text.endswith("*")
    if expected_failure:
        text = text[:-1].rstrip()
    if not text.startswith("["):
        raise ValueError(f"pattern has no opening bracket: {text!r}")
    if not text.endswith("]"):
        raise ValueError(f"pattern has no closing bracket: {text!r}")
    source = text[1:-1].strip()
    pattern = source
    negate = pattern.startswith("!")
    if negate:
        pattern = pattern[1:]
    error = pattern.startswith("?")
    if error:
        pattern = pattern[1:].strip()
        if not pattern:
            pattern = ".*"
    expectation = Expectation(pattern, source, negate, error, expected_failure)
    try:
        expectation.regex()
    except re.error as exc:
        raise ValueError(f"bad regular expression [{source}]: {exc}") from None
    return expectation


def _split_id(line: str) -> tuple[Optional[int], str]:
    head, _, rest = line.partition(" ")
    if rest and head.isdigit():
        return int(head), rest.strip()
    return None, line


def parse_tst(text: str, name: str = "<tst>") -> list[Step]:
    """The commands of a regression file, in order, each with its ``#?`` check if any."""
    steps: list[Step] = []
    pending: Optional[Step] = None   # the command a ``#?`` on the next line would belong to
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#?"):
            if pending is None:
                raise TstError(f"{name}:{number}: '#?' without a command on the line before")
            try:
                expectation = parse_expectation(line[2:])
            except ValueError as exc:
                raise TstError(f"{name}:{number}: {exc}") from None
            if expectation is not None:
                steps[-1] = Step(pending.line, pending.text, pending.command, pending.id,
                                 expectation)
            pending = None
            continue
        if not line or line.startswith("#"):
            pending = None
            continue
        line = line.replace("\t", " ")
        cmd_id, command = _split_id(line)
        pending = Step(number, line, command, cmd_id)
        steps.append(pending)
    return steps


def read_tst(path: str) -> list[Step]:
    """Read and parse a regression file (TstError if it cannot be read or parsed)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise TstError(f"{path}: cannot read: {exc}") from None
    return parse_tst(text, path)
