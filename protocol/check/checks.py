"""The conformance checks: what HexGui and match runners need from an HTP engine.

Each check is a small function of a :class:`Context` that sets up its own position (a fresh
board each time), returns a one-line reason when it passes and raises :class:`Failed` or
:class:`Warned` otherwise.  ``Warned`` is for an optional feature that is missing (or one of
two accepted forms); an engine that crashes or hangs raises ``EngineError``, which the runner
reports as a FAIL of the check that was running.

Conventions checked are HexGui's: cells are a column letter and a row number, ``a1`` the
top-left corner; black joins top and bottom; HexGui sends ``boardsize W H``, ``play black
a1``, ``genmove white``, ``undo``, ``showboard``, ``hexgui-analyze_commands``, ``play white
swap-pieces`` and the line ``# interrupt`` while a command runs.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Callable, Optional

from ..match.controller import EngineError
from .probe import Probe, Reply


class Failed(Exception):
    """The check failed; the message is the reason."""


class Warned(Exception):
    """An optional feature is missing or only partly there; the message is the reason."""


@dataclass
class Context:
    """What a check works with: the engine, board sizes and what earlier checks found."""

    probe: Probe
    size: int = 11                 # board for most checks (HexGui's default)
    small: int = 5                 # board for genmove: every engine answers at once
    interrupt_after: float = 0.5   # seconds of genmove before '# interrupt'
    interrupt_wait: float = 10.0   # longest wait for the interrupted genmove
    dirty: bool = False            # the engine may be out of step: restart before next check
    boardsize_form: Optional[str] = None   # 'boardsize {n} {n}' or 'boardsize {n}'


@dataclass(frozen=True)
class Check:
    """A named check; ``optional`` ones test features an engine may lack (they warn)."""

    name: str
    title: str
    run: Callable[[Context], str]
    optional: bool = False


CHECKS: list[Check] = []


def check(name: str, title: str, optional: bool = False
          ) -> Callable[[Callable[[Context], str]], Callable[[Context], str]]:
    """Register a check function under ``name`` (checks run in registration order)."""
    def register(func: Callable[[Context], str]) -> Callable[[Context], str]:
        CHECKS.append(Check(name, title, func, optional))
        return func
    return register


# ----------------------------------------------------------------------------- helpers

REQUIRED_COMMANDS = ("protocol_version", "name", "version", "known_command", "list_commands",
                     "quit", "boardsize", "clear_board", "play", "genmove")

# HexGui's analyze types (hexgui.htp.AnalyzeType); it reads any other word as 'none'
ANALYZE_TYPES = frozenset((
    "bwboard", "cboard", "dboard", "eplist", "gfx", "group", "hstring", "hpstring",
    "inferior", "move", "none", "param", "plist", "pspairs", "pstring", "string", "sboard",
    "var", "varb", "varc", "varp", "varpo", "varw", "vc"))

# engine parameters that make genmove think longer, for the interrupt check
SLOW_PARAMS = (("param_hexengine", "max_time"), ("param_wolve", "max_time"),
               ("param_mohex", "max_time"))

SWAP_WORDS = ("swap-pieces", "swap", "swap-sides")

_CELL = re.compile(r"([a-z])([1-9][0-9]?)")


def cell(col: int, row: int) -> str:
    """HexGui's name of a cell (0-based column and row): ``a1`` is the top-left corner."""
    return f"{chr(ord('a') + col)}{row + 1}"


def parse_cell(text: str, size: int) -> Optional[tuple[int, int]]:
    """(column, row) of a cell name on a ``size`` board, or None."""
    m = _CELL.fullmatch(text.strip().lower())
    if not m:
        return None
    col, row = ord(m.group(1)) - ord("a"), int(m.group(2)) - 1
    return (col, row) if col < size and row < size else None


def ok(ctx: Context, command: str) -> Reply:
    """Send a command that must succeed."""
    reply = ctx.probe.send(command)
    if not reply.ok:
        raise Failed(f"{command!r} refused: {reply.shown()}")
    return reply


def refused(ctx: Context, command: str, why: str) -> Reply:
    """Send a command that must fail (``why`` says why it must)."""
    reply = ctx.probe.send(command)
    if reply.ok:
        raise Failed(f"{command!r} accepted ({why}): {reply.shown()}")
    return reply


def new_board(ctx: Context, size: Optional[int] = None) -> int:
    """An empty board of ``size`` (default ``ctx.size``), by whichever ``boardsize`` form the
    engine takes (HexGui's two-argument one first), then ``clear_board``."""
    n = size or ctx.size
    forms = [ctx.boardsize_form] if ctx.boardsize_form else \
        ["boardsize {n} {n}", "boardsize {n}"]
    last: Optional[Reply] = None
    for form in forms:
        last = ctx.probe.send(form.format(n=n))
        if last.ok:
            ctx.boardsize_form = form
            break
    else:
        assert last is not None
        raise Failed(f"'boardsize {n}' refused: {last.shown()}")
    ok(ctx, "clear_board")
    return n


def showboard(ctx: Context) -> Optional[str]:
    """The ``showboard`` text, or None if the engine has no showboard worth comparing (a
    refusal, or less than two lines)."""
    reply = ctx.probe.send("showboard")
    return reply.text if reply.ok and len(reply.text.splitlines()) >= 2 else None


def setup(ctx: Context) -> tuple[str, str, str]:
    """A fresh board with black on c3 and white on d4; returns (black, white, empty) cells
    (e5 stays empty)."""
    new_board(ctx)
    black, white, empty = cell(2, 2), cell(3, 3), cell(4, 4)
    ok(ctx, f"play black {black}")
    ok(ctx, f"play white {white}")
    return black, white, empty


def assert_unchanged(ctx: Context, before: Optional[str], black: str, white: str,
                     empty: str, after_what: str) -> str:
    """The position set up by :func:`setup` is still there: the same showboard, the stones
    still on their cells (playing on them is refused) and the empty cell still playable."""
    if before is not None:
        now = showboard(ctx)
        if now != before:
            raise Failed(f"showboard differs after {after_what}")
    for colour, stone in (("white", black), ("black", white)):
        reply = ctx.probe.send(f"play {colour} {stone}")
        if reply.ok:
            raise Failed(f"the stone on {stone} is gone after {after_what} "
                         f"('play {colour} {stone}' accepted)")
    reply = ctx.probe.send(f"play black {empty}")
    if not reply.ok:
        raise Failed(f"'play black {empty}' refused after {after_what}: {reply.shown()}")
    return "showboard unchanged" if before is not None else "stones kept (no showboard)"


def error_check(ctx: Context, commands: list[tuple[str, str]], what: str) -> str:
    """Each command must be refused with ``?`` and leave the position as it was."""
    black, white, empty = setup(ctx)
    before = showboard(ctx)
    for command, why in commands:
        refused(ctx, command, why)
    kept = assert_unchanged(ctx, before, black, white, empty, what)
    return f"{len(commands)} refused ({', '.join(repr(c) for c, _ in commands[:3])}" \
           f"{', ...' if len(commands) > 3 else ''}); {kept}"


def param_value(ctx: Context, command: str, name: str) -> Optional[str]:
    """The value of parameter ``name`` in the listing of a ``param_*`` command, or None."""
    reply = ctx.probe.send(command)
    if not reply.ok:
        return None
    for line in reply.text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[-2] == name:
            return words[-1]
        if len(words) == 2 and words[0] == name:     # 'name value' without a type
            return words[1]
    return None


def slow_down(ctx: Context) -> list[str]:
    """Raise the time a move may take to 60 s where the engine has such a setting
    (``SLOW_PARAMS``); the commands that put each one back."""
    p = ctx.probe
    restore = []
    for command, name in SLOW_PARAMS:
        if p.knows(command):
            old = param_value(ctx, command, name)
            if old is not None and p.send(f"{command} {name} 60").ok:
                restore.append(f"{command} {name} {old}")
    return restore


def check_move(ctx: Context, reply: Reply, size: int, occupied: set[str], colour: str,
               swap_possible: bool = False) -> str:
    """A genmove reply is a legal move: an empty cell on the board (then occupied), or
    ``resign``, or a swap where one is possible."""
    if not reply.ok:
        raise Failed(f"'{reply.command}' refused: {reply.shown()}")
    move = reply.text.strip().lower()
    if move == "resign":
        return "resign"
    if move in SWAP_WORDS:
        if not swap_possible:
            raise Failed(f"'{reply.command}' answered {move!r} where no swap is possible")
        return move
    if parse_cell(move, size) is None:
        raise Failed(f"'{reply.command}' answered {reply.text!r}: not a cell of the "
                     f"{size}x{size} board")
    if move in occupied:
        raise Failed(f"'{reply.command}' answered {move}, an occupied cell")
    other = "white" if colour == "black" else "black"
    after = ctx.probe.send(f"play {other} {move}")
    if after.ok:
        raise Failed(f"{move} is still empty after '{reply.command}' "
                     f"('play {other} {move}' accepted)")
    return move


# ------------------------------------------------------------------------------ checks

@check("framing", "every reply is '='/'?' text closed by one empty line, in step")
def _framing(ctx: Context) -> str:
    p = ctx.probe
    first = p.send("name")
    sent = ["protocol_version", "version", "list_commands", "hexgui-analyze_commands",
            "showboard", "no-such-command-hexcheck", "boardsize 1000 1000"]
    for command in sent:
        p.send(command)
    again = p.send("name")
    if again.text != first.text or not again.ok:
        raise Failed(f"out of step: 'name' answered {again.shown()!r} after {first.shown()!r} "
                     "(an empty line inside a reply, or a reply too many?)")
    return f"{len(sent) + 2} replies read, still in step"


@check("ids", "numbered commands get their number back: '7 name' -> '=7 ...', errors too")
def _ids(ctx: Context) -> str:
    p = ctx.probe
    for command, success in (("7 name", True), ("42 protocol_version", True),
                             ("8 no-such-command-hexcheck", False)):
        number = command.split()[0]
        reply = p.send(command)
        if reply.ok != success:
            raise Failed(f"{command!r} answered {reply.shown()!r}")
        if reply.id != number:
            raise Failed(f"{command!r} answered {reply.status_line[:30]!r}: "
                         f"expected '{'=' if success else '?'}{number}'")
    return "=7, =42 and ?8 echoed"


@check("reply-space", "a space after '='/'?' even when the reply has no text on that line "
       "(HexGui 0.9 reads only '= ' and '? ')", optional=True)
def _reply_space(ctx: Context) -> str:
    new_board(ctx)
    ok(ctx, "play black c3")
    bad = []
    for command in ("clear_board", "showboard", "no-such-command-hexcheck"):
        reply = ctx.probe.send(command)
        if len(reply.status_line) < 2 or reply.status_line[1] != " ":
            bad.append(f"{command!r} -> {reply.status_line[:12]!r}")
    if bad:
        raise Warned("no space after the status: " + ", ".join(bad) +
                     "; HexGui 0.9 calls that an invalid response (later HexGui accepts it)")
    return "'= ' and '? ' throughout"


@check("identity", "protocol_version is 2; name and version answer")
def _identity(ctx: Context) -> str:
    name = ok(ctx, "name").text
    if not name:
        raise Failed("'name' answered nothing")
    version = ok(ctx, "version").text
    proto = ok(ctx, "protocol_version").text
    if proto != "2":
        raise Warned(f"protocol_version is {proto!r}, not '2'")
    return f"{name} {version or '(empty version)'}, protocol 2"


@check("list_commands", "list_commands names the commands a controller needs")
def _list_commands(ctx: Context) -> str:
    commands = ok(ctx, "list_commands").text.split()
    missing = [c for c in REQUIRED_COMMANDS if c not in commands]
    if missing:
        raise Failed(f"missing: {' '.join(missing)}")
    return f"{len(commands)} commands, the {len(REQUIRED_COMMANDS)} required ones among them"


@check("known_command", "known_command is true for every listed command, false otherwise")
def _known_command(ctx: Context) -> str:
    commands = ok(ctx, "list_commands").text.split()
    wrong = [c for c in commands if ok(ctx, f"known_command {c}").text.lower() != "true"]
    if wrong:
        raise Failed(f"false for listed: {' '.join(wrong[:5])}{' ...' if len(wrong) > 5 else ''}")
    fake = ok(ctx, "known_command no-such-command-hexcheck").text.lower()
    if fake != "false":
        raise Failed(f"'known_command no-such-command-hexcheck' answered {fake!r}")
    return f"true for all {len(commands)}, false for an unknown one"


@check("boardsize", "'boardsize N N' (HexGui) and 'boardsize N' (GTP) both set the size")
def _boardsize(ctx: Context) -> str:
    n = ctx.size
    two = ctx.probe.send(f"boardsize {n} {n}")
    one = ctx.probe.send(f"boardsize {n}")
    if not two.ok and not one.ok:
        raise Failed(f"both refused: {one.shown()}")
    last = cell(n - 1, n - 1)
    form = "boardsize {n} {n}" if two.ok else "boardsize {n}"
    ctx.boardsize_form = form
    new_board(ctx)
    ok(ctx, f"play black {last}")
    refused(ctx, f"play white {cell(n, 0)}", "off the board")
    if not two.ok:
        raise Warned(f"'boardsize {n} {n}' refused ({two.shown()}): HexGui sends two numbers")
    if not one.ok:
        raise Warned(f"'boardsize {n}' refused ({one.shown()}); 'boardsize {n} {n}' works")
    return f"both forms; {last} on the board, {cell(n, 0)} off it"


@check("clear_board", "clear_board empties the board")
def _clear_board(ctx: Context) -> str:
    new_board(ctx)
    empty = showboard(ctx)
    ok(ctx, "play black c3")
    ok(ctx, "play white d4")
    ok(ctx, "clear_board")
    if empty is not None and showboard(ctx) != empty:
        raise Failed("showboard after clear_board differs from the empty board's")
    ok(ctx, "play white c3")
    ok(ctx, "play black d4")
    return "stones gone" + (", showboard as empty" if empty is not None else "")


@check("play", "play takes b, w, black, white and cells a1 to the far corner")
def _play(ctx: Context) -> str:
    n = new_board(ctx)
    before = showboard(ctx)
    moves = [("b", cell(0, 0)), ("w", cell(n - 1, 0)), ("black", cell(0, n - 1)),
             ("white", cell(n - 1, n - 1)), ("B", cell(1, 1)), ("W", cell(2, 1))]
    lower = [m for m in moves if m[0].islower()]
    for colour, where in lower:
        ok(ctx, f"play {colour} {where}")
    upper = [ctx.probe.send(f"play {colour} {where}").ok for colour, where in moves[4:]]
    if before is not None and showboard(ctx) == before:
        raise Failed("showboard did not change after the moves")
    if not all(upper):
        raise Warned("lower-case colours work; 'B'/'W' refused")
    return f"{', '.join(f'{c} {w}' for c, w in lower)} (and B, W) accepted"


@check("orientation", "a1 is top-left, letters are columns and black joins top to bottom "
       "(a black column a1..aN wins by final_score)", optional=True)
def _orientation(ctx: Context) -> str:
    if not ctx.probe.knows("final_score"):
        raise Warned("no final_score: orientation not checked")
    n = new_board(ctx)
    for row in range(n):
        ok(ctx, f"play black {cell(0, row)}")
        if row < n - 1:
            ok(ctx, f"play white {cell(2, row)}")
    score = ok(ctx, "final_score").text
    if not score.upper().startswith("B+"):
        raise Failed(f"black on a1..{cell(0, n - 1)} should have won; final_score {score!r}")
    return f"black column a1..{cell(0, n - 1)}: final_score {score}"


@check("illegal-occupied", "playing on an occupied cell is refused; the position stays")
def _illegal_occupied(ctx: Context) -> str:
    return error_check(ctx, [("play white c3", "c3 is black's"),
                             ("play black d4", "d4 is white's"),
                             ("play black c3", "c3 is black's")], "occupied-cell moves")


@check("illegal-offboard", "cells off the board are refused; the position stays")
def _illegal_offboard(ctx: Context) -> str:
    n = ctx.size
    return error_check(ctx, [(f"play white {cell(n, 0)}", "column off the board"),
                             (f"play white {cell(0, n)}", "row off the board"),
                             ("play white a0", "row 0"),
                             ("play white z99", "far off the board")], "off-board moves")


@check("illegal-malformed", "malformed cells and missing arguments are refused; the position "
       "stays")
def _illegal_malformed(ctx: Context) -> str:
    return error_check(ctx, [("play white 1a", "not a cell"), ("play white e", "no row"),
                             ("play white 55", "no column"), ("play white", "no cell"),
                             ("play", "no arguments")], "malformed moves")


@check("illegal-colour", "unknown colours are refused; the position stays")
def _illegal_colour(ctx: Context) -> str:
    return error_check(ctx, [("play x e6", "x is no colour"), ("play red e6", "red is no colour"),
                             ("play empty e6", "empty is no player")], "bad colours")


@check("bad-boardsize", "impossible board sizes are refused; the position stays")
def _bad_boardsize(ctx: Context) -> str:
    return error_check(ctx, [("boardsize 0", "size 0"), ("boardsize -3", "negative size"),
                             ("boardsize abc", "not a number"),
                             ("boardsize 1000", "no engine plays 1000x1000")], "bad boardsize")


@check("unknown-command", "an unknown command gets '?'; the position stays")
def _unknown_command(ctx: Context) -> str:
    return error_check(ctx, [("no-such-command-hexcheck", "unknown"),
                             ("no-such-command-hexcheck b c3", "unknown, with arguments")],
                       "unknown commands")


@check("undo", "undo takes back the last move")
def _undo(ctx: Context) -> str:
    new_board(ctx)
    empty_undo = ctx.probe.send("undo")
    black, white, empty = setup(ctx)
    before = showboard(ctx)
    ok(ctx, f"play black {empty}")
    ok(ctx, "undo")
    if before is not None and showboard(ctx) != before:
        raise Failed("showboard after play+undo differs from before the move")
    ok(ctx, f"play black {empty}")    # empty again
    for colour, stone in (("white", black), ("black", white)):
        if ctx.probe.send(f"play {colour} {stone}").ok:
            raise Failed(f"undo took more than one move: {stone} is empty")
    if empty_undo.ok:
        raise Warned("undo works, but 'undo' on an empty board answered '=' (nothing to undo)")
    return "one move taken back" + (", showboard as before" if before is not None else "") + \
        "; undo on an empty board refused"


@check("swap", "with swap allowed, white may answer black's first stone with swap-pieces",
       optional=True)
def _swap(ctx: Context) -> str:
    p = ctx.probe
    old = param_value(ctx, "param_game", "allow_swap") if p.knows("param_game") else None
    allowed = p.send("param_game allow_swap 1").ok if old is not None else False
    try:
        new_board(ctx)
        ok(ctx, "play black c3")
        accepted = None
        tried = []
        for word in ("swap-pieces", "swap"):
            reply = p.send(f"play white {word}")
            tried.append(f"'play white {word}' -> {reply.shown()}")
            if reply.ok:
                accepted = word
                break
        if accepted is None:
            raise Warned("no swap: " + "; ".join(tried))
        # the game goes on: a move on an empty cell is taken
        ok(ctx, "play black e5")
    finally:
        if old is not None and allowed and old != "1":
            p.send(f"param_game allow_swap {old}")
    how = "'param_game allow_swap 1', " if allowed else ""
    return f"{how}'play white {accepted}' accepted after one stone"


@check("genmove", "genmove answers a legal empty cell (or resign), which is then occupied")
def _genmove(ctx: Context) -> str:
    n = new_board(ctx, ctx.small)
    first = check_move(ctx, ctx.probe.send("genmove black"), n, set(), "black")
    new_board(ctx, ctx.small)
    ok(ctx, "play black a1")
    second = check_move(ctx, ctx.probe.send("genmove w"), n, {"a1"}, "white",
                        swap_possible=True)
    return f"{n}x{n}: 'genmove black' -> {first}, after a1 'genmove w' -> {second}"


@check("interrupt", "'# interrupt' during a long genmove gets its answer within 1 s",
       optional=True)
def _interrupt(ctx: Context) -> str:
    p = ctx.probe
    restore = slow_down(ctx)
    try:
        name = ok(ctx, "name").text
        n = new_board(ctx)
        stones = [cell(0, 0), cell(n - 1, n - 1), cell(1, 2)]
        ok(ctx, f"play black {stones[0]}")
        ok(ctx, f"play white {stones[1]}")
        ok(ctx, f"play black {stones[2]}")
        started = time.monotonic()
        p.write("genmove white")
        try:
            early = p.read("genmove white", timeout=ctx.interrupt_after)
        except EngineError as exc:
            if exc.reason != "timeout":
                raise
        else:
            raise Warned(f"genmove answered {early.shown()!r} in "
                         f"{time.monotonic() - started:.2f} s, before the interrupt: not "
                         "measured (slow the engine with --init)")
        p.write("# interrupt")
        sent = time.monotonic()
        try:
            reply = p.read("genmove white", timeout=ctx.interrupt_wait)
        except EngineError as exc:
            if exc.reason != "timeout":
                raise
            ctx.dirty = True
            raise Warned(f"no answer within {ctx.interrupt_wait:g} s of '# interrupt' "
                         f"(sent {ctx.interrupt_after:g} s into genmove)") from None
        delay = time.monotonic() - sent
        # an engine that answered the comment line would now be one reply ahead
        after = p.send("name")
        if after.text != name:
            ctx.dirty = True
            raise Failed(f"out of step after the interrupt: 'name' got {after.shown()!r} "
                         "(a reply to the '# interrupt' line?)")
        if not reply.ok:
            raise Warned(f"interrupted genmove answered an error after {delay:.2f} s: "
                         f"{reply.shown()}")
        move = check_move(ctx, reply, n, set(stones), "white")
    finally:
        for command in restore:
            if p.alive() and not ctx.dirty:
                p.send(command)
    if delay > 1.0:
        raise Warned(f"answered {move} {delay:.2f} s after '# interrupt' (over 1 s)")
    return f"answered {move} {delay:.2f} s after '# interrupt' (sent " \
           f"{ctx.interrupt_after:g} s into genmove)"


@check("time", "time_settings, time_left (GTP 'C T S' and Benzene 'C T') and a game time",
       optional=True)
def _time(ctx: Context) -> str:
    p = ctx.probe
    new_board(ctx)
    have, missing = [], []
    for command, label in (("time_settings 1800 0 0", "time_settings"),
                           ("time_left b 1790 0", "time_left C T S"),
                           ("time_left w 1790", "time_left C T")):
        (have if p.send(command).ok else missing).append(label)
    game_time = None
    if p.knows("param_game"):
        old = param_value(ctx, "param_game", "game_time")
        if old is not None:
            if p.send("param_game game_time 1800").ok:
                game_time = "param_game game_time"
                p.send(f"param_game game_time {old}")
    if game_time is None and p.knows("level"):
        game_time = "level (not sent)"
    (have if game_time else missing).append(game_time or "level/param_game game_time")
    ok(ctx, "play black c3")        # still in step and playing
    if missing:
        raise Warned(f"missing: {', '.join(missing)}; has: {', '.join(have) or 'none'}")
    return ", ".join(have)


CLOCK_LEFT = 0.5  # seconds left on the game clock in the ``clock`` check
CLOCK_SLACK = 1.0  # and how much longer its genmove may take before it warns


@check("clock", f"with {CLOCK_LEFT:g} s left on a game clock (time_settings 600 0 0, "
       f"time_left) genmove answers within {CLOCK_LEFT + CLOCK_SLACK:g} s", optional=True)
def _clock(ctx: Context) -> str:
    p = ctx.probe
    restore = slow_down(ctx)  # (its own limit must not be what keeps the move short)
    try:
        n = new_board(ctx)
        stones = [cell(n // 2, n // 2)]
        ok(ctx, f"play black {stones[0]}")
        settings = p.send("time_settings 600 0 0").ok
        told = (p.send(f"time_left w {CLOCK_LEFT:g} 0").ok
                or p.send(f"time_left w {CLOCK_LEFT:g}").ok)
        if not told:
            raise Warned("time_left refused in both forms: no clock to keep")
        started = time.monotonic()
        p.write("genmove white")
        try:
            reply = p.read("genmove white", timeout=CLOCK_LEFT + 10)
        except EngineError as exc:
            if exc.reason != "timeout":
                raise
            ctx.dirty = True
            raise Warned(f"no answer within {CLOCK_LEFT + 10:g} s with {CLOCK_LEFT:g} s "
                         "left on its clock") from None
        used = time.monotonic() - started
        if not reply.ok:  # (what a genmove answers is the genmove check's to judge)
            raise Warned(f"genmove answered {reply.shown()} with {CLOCK_LEFT:g} s left")
        move = reply.text
    finally:
        if p.alive() and not ctx.dirty:
            p.send("time_settings 0 1 0")  # GTP's "no time limits" again
            for command in restore:
                p.send(command)
    how = "" if settings else " (no time_settings: time_left alone)"
    if used > CLOCK_LEFT + CLOCK_SLACK:
        raise Warned(f"answered {move} after {used:.2f} s with {CLOCK_LEFT:g} s left on its "
                     f"clock{how}")
    return f"answered {move} in {used:.2f} s with {CLOCK_LEFT:g} s left{how}"


@check("showboard", "showboard answers a multi-line board that changes with the moves")
def _showboard(ctx: Context) -> str:
    new_board(ctx)
    empty = ctx.probe.send("showboard")
    if not empty.ok:
        raise Warned(f"no showboard: {empty.shown()} (HexGui sends it after every move)")
    ok(ctx, "play black c3")
    board = ok(ctx, "showboard").text
    lines = board.splitlines()
    if len(lines) < 2:
        raise Failed(f"showboard is one line: {board[:40]!r}")
    if board == empty.text:
        raise Failed("showboard did not change after 'play black c3'")
    return f"{len(lines)} lines, changed by a move"


@check("analyze-commands", "hexgui-analyze_commands lines are type/label/command with HexGui "
       "types and known commands", optional=True)
def _analyze_commands(ctx: Context) -> str:
    p = ctx.probe
    reply = p.send("hexgui-analyze_commands")
    if not reply.ok:
        raise Warned(f"no hexgui-analyze_commands: {reply.shown()}")
    problems, labels, count = [], set(), 0
    unusual = []
    for number, line in enumerate(reply.text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        count += 1
        parts = line.split("/")
        if not 3 <= len(parts) <= 5:
            problems.append(f"line {number} {line[:40]!r}: not type/label/command")
            continue
        kind, label, command = parts[0], parts[1], parts[2]
        words = command.split()
        if kind not in ANALYZE_TYPES:
            unusual.append(f"{kind!r} ({label})")
        if not words:
            problems.append(f"line {number}: no command")
        elif not (p.knows(words[0]) or p.send(f"known_command {words[0]}").text == "true"):
            problems.append(f"line {number}: {words[0]!r} is not a known command")
        if label in labels:
            problems.append(f"line {number}: label {label!r} twice (HexGui drops the second)")
        labels.add(label)
    if problems:
        raise Failed("; ".join(problems[:3]) + (f" (+{len(problems) - 3} more)"
                                                if len(problems) > 3 else ""))
    if count == 0:
        raise Warned("hexgui-analyze_commands lists nothing")
    if unusual:
        raise Warned(f"{count} entries; types HexGui does not know (shown as 'none'): "
                     + ", ".join(unusual[:4]))
    return f"{count} entries, all well-formed with known commands"


@check("quit", "quit answers '=' and the engine exits")
def _quit(ctx: Context) -> str:
    p = ctx.probe
    reply = p.send("quit")
    ctx.dirty = True                   # whatever happens, a later check needs a new engine
    if not reply.ok:
        raise Failed(f"'quit' refused: {reply.shown()}")
    engine = p.engine
    assert engine is not None
    deadline = time.monotonic() + 5
    while engine.alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    if engine.alive():
        raise Failed("the engine still runs 5 s after 'quit'")
    return f"'=' and exit status {engine.proc.returncode}"
