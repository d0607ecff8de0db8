"""The engine end of HTP: the one command table, the state behind it, and dispatch.

Every command is registered once with ``@command`` (with its HexGui analyze-menu lines, if
any) by the module of its subsystem (``game_commands``, ``param_commands``,
``search_commands``, ``view_commands``, ``vc_commands``, ``solver_commands``; ``commands``
loads them all).  Dispatch, ``list_commands``, ``known_command`` and
``hexgui-analyze_commands`` read the same table, so they cannot drift apart.  A handler
parses and formats only; it returns the reply text or raises HtpError, and a failed
command leaves the board exactly as it was.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Callable, Optional, TextIO

from hexengine.board import BLACK, COLOUR_NAMES, WHITE, Board
from hexengine.player import Player
from hexengine.search import SearchResult
from hexengine.settings import Settings
from hexengine.timecontrol import GameClock

from .htp import Command, HtpError

Handler = Callable[["Engine", list[str]], str]
MenuLine = tuple[str, str, str]  # HexGui's analyze-command line: type, label, command


@dataclass(frozen=True)
class Spec:
    name: str
    handler: Handler
    min_args: int
    max_args: int
    usage: str


COMMANDS: dict[str, Spec] = {}
# HexGui analyze-command lines in menu order: type/label/command.  HexGui replaces %m by the
# colour to move, %p by the selected cell and %P by the selected cells (ctrl-click,
# ctrl-shift-click for more).
ANALYZE_MENU: list[MenuLine] = []


def command(name: str, min_args: int = 0, max_args: int = 0, usage: str = "",
            menu: tuple[MenuLine, ...] = ()) -> Callable[[Handler], Handler]:
    """Register a handler in the one command table, with its analyze-menu lines."""
    def register(func: Handler) -> Handler:
        COMMANDS[name] = Spec(name, func, min_args, max_args, usage)
        ANALYZE_MENU.extend(menu)
        return func
    return register


def parse_colour(text: str) -> int:
    low = text.lower()
    if low in ("b", "black"):
        return BLACK
    if low in ("w", "white"):
        return WHITE
    raise HtpError(f"invalid colour: {text!r} (expected b, black, w or white)")


def parse_bool(name: str, text: str) -> bool:
    if text.lower() in ("1", "true", "on", "yes"):
        return True
    if text.lower() in ("0", "false", "off", "no"):
        return False
    raise HtpError(f"{name} must be 0 or 1, not {text!r}")


def parse_count(text: str, what: str, low: int = 0, why: str = "") -> int:
    """An integer of at least ``low``; HtpError names ``what`` and the input."""
    try:
        value = int(text)
    except ValueError:
        raise HtpError(f"invalid {what}: {text!r}") from None
    if value < low:
        raise HtpError(f"invalid {what}: {value}{why}")
    return value


def parse_seconds(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise HtpError(f"invalid {what}: {text!r}") from None
    if value < 0 or value != value or value == float("inf"):
        raise HtpError(f"invalid {what}: {text!r}")
    return value


class Engine:
    """The state behind the protocol: one board, one player, one game clock."""

    def __init__(self, settings: Optional[Settings] = None,
                 log: TextIO = sys.stderr) -> None:
        self.player = Player(settings)
        self.board = Board(11, 11, allow_swap=self.player.settings.allow_swap)
        self.clock = GameClock()
        self.setup_moves = 0  # the loaded game's setup stones, which undo cannot take back
        self.log = log
        self._default_log = log
        s = self.player.settings
        if s.log_file != "-" or s.quiet:
            self.set_log(s.log_file, s.quiet)
        self.last: Optional[SearchResult] = None
        self.last_colour = BLACK
        self.last_root: Optional[tuple[int, int]] = None  # the stones the last search saw
        # live search graphics: genmove writes a gogui-gfx block per finished iteration
        # through ``gfx_out`` (the session's writer) when the live_gfx setting is on
        self.gfx_out: Optional[Callable[[str], None]] = None
        if self.settings.allow_swap:
            self.player.prepare(self.board.geo)

    @property
    def settings(self) -> Settings:
        return self.player.settings

    def configure(self, name: str, text: str) -> None:
        """Set one engine setting (``param_hexengine NAME VALUE``) and apply it."""
        s = self.settings
        try:
            new = s.with_text(name, text)
            if name in ("log_file", "quiet"):  # a bad path is refused before anything changes
                self.set_log(new.log_file, new.quiet)
            self.player.use(new)  # (refuses what this installation cannot play under)
        except ValueError as exc:
            raise HtpError(str(exc)) from None
        self.board.allow_swap = new.allow_swap
        if new.allow_swap and not s.allow_swap:  # (the swap game's opening values)
            self.player.prepare(self.board.geo)

    def set_log(self, log_file: str, quiet: bool) -> None:
        """Search logs to ``log_file`` (appended; '-': the default stream), or nowhere when
        ``quiet``.  Raises HtpError when the file cannot be opened."""
        stream: TextIO = self._default_log
        if log_file != "-":  # opened even when quiet: a bad path is refused now
            try:
                stream = open(log_file, "a", encoding="utf-8")
            except OSError as exc:
                raise HtpError(f"cannot open log file {log_file}: "
                               f"{exc.strerror or exc}") from None
        if quiet:
            if stream is not self._default_log:
                stream.close()
            # nowhere: an in-memory buffer grew by about 10 KB a game (scripts/soak.py)
            stream = open(os.devnull, "w", encoding="utf-8")
        old = self.log
        self.log = stream
        if old is not stream and old is not self._default_log:
            try:
                old.close()
            except (OSError, ValueError):
                pass

    def handle(self, cmd: Command) -> str:
        spec = COMMANDS.get(cmd.name)
        if spec is None:
            raise HtpError(f"unknown command: {cmd.name}")
        n = len(cmd.args)
        if n < spec.min_args or n > spec.max_args:
            usage = f"{spec.name} {spec.usage}".strip()
            raise HtpError(f"wrong number of arguments to {spec.name} (usage: {usage})")
        self._interrupt = cmd.interrupt
        return spec.handler(self, cmd.args)

    def say(self, text: str) -> None:
        try:
            self.log.write(text + "\n")
            self.log.flush()
        except (OSError, ValueError):
            pass

    def new_board(self, width: int, height: int) -> None:
        self.board = Board(width, height, allow_swap=self.settings.allow_swap)
        self.setup_moves = 0
        self.clock.reset()
        self.last = None
        self.player.reset()
        self.player.prepare(self.board.geo)

    def parse_move(self, text: str) -> int:
        try:
            return self.board.parse_move(text)
        except ValueError as exc:
            raise HtpError(f"invalid move: {exc}") from None

    def cell(self, text: str) -> int:
        """A cell on this board (not an edge, not a swap move)."""
        try:
            return self.board.geo.parse(text)
        except ValueError as exc:
            raise HtpError(f"invalid cell: {exc}") from None

    def holder(self, cell: int) -> Optional[int]:
        """The colour of the stone on ``cell``, or None."""
        stones = self.board.stones
        return BLACK if (stones[BLACK] >> cell) & 1 else \
            WHITE if (stones[WHITE] >> cell) & 1 else None

    def require_open(self) -> None:
        """Views and the solver need open play: a decided game is refused."""
        winner = self.board.winner()
        if winner is not None:
            raise HtpError(f"game is over ({COLOUR_NAMES[winner]} won)")

    def open_position(self, text: str) -> int:
        """The colour argument of a view, on a game that is not decided."""
        colour = parse_colour(text)
        self.require_open()
        return colour
