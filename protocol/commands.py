"""The HTP command table and its handlers.

Every command is registered once with ``@command``; dispatch, ``list_commands`` and
``known_command`` all read the same table, so they cannot drift apart.  Handlers parse and
format only: game rules live in ``hexengine.board``, move choice behind ``hexengine.player``.
A handler either returns the reply text or raises HtpError; in both cases a failed command
leaves the board exactly as it was.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from typing import Callable, Optional, TextIO

import hexengine
from hexengine import analysis_views as views
from hexengine import sgf
from hexengine.board import (BLACK, COLOUR_NAMES, SWAP_PIECES, SWAP_SIDES, WHITE, Board,
                             IllegalMove)
from hexengine.geometry import MAX_SIZE
from hexengine.knowledge.vc import EDGE_GOAL, EDGE_START
from hexengine.player import Player, Settings
from hexengine.search import SearchResult, score_text
from hexengine.timecontrol import GameClock, budget

from .htp import Command, HtpError, QuitSession


@dataclass(frozen=True)
class Spec:
    name: str
    handler: Callable[["Engine", list[str]], str]
    min_args: int
    max_args: int
    usage: str


COMMANDS: dict[str, Spec] = {}


def command(name: str, min_args: int = 0, max_args: int = 0, usage: str = ""):
    """Register a handler in the one command table."""
    def register(func: Callable[["Engine", list[str]], str]):
        COMMANDS[name] = Spec(name, func, min_args, max_args, usage)
        return func
    return register


ANALYZE_COMMANDS = [
    # HexGui analyze-command lines: type/label/command.  HexGui replaces %m by the colour to
    # move, %p by the selected cell and %P by the selected cells (ctrl-click, ctrl-shift-click
    # for more).  HexGui 0.10 draws a gfx reply's INFLUENCE shading and TEXT status but not
    # its LABELs, so the numbers of each map are an entry of their own (pspairs).
    ("param", "Game Param", "param_game"),
    ("param", "Engine Param", "param_hexengine"),
    ("var", "Principal Variation", "hexengine-pv"),
    ("pspairs", "Root Move Scores", "hexengine-scores"),
    ("string", "Evaluation", "hexengine-evaluate"),
    ("string", "Search Info", "hexengine-info"),
    ("string", "Show Board", "showboard"),
    ("gfx", "Shortest Paths", "hexengine-shortest-path %m"),
    ("gfx", "Shortest Paths Both", "hexengine-shortest-path"),
    ("gfx", "Map Current", "hexengine-map current %m"),
    ("pspairs", "Map Current Values", "hexengine-map-values current %m"),
    ("gfx", "Map Two-Distance Black", "hexengine-map two-distance b"),
    ("pspairs", "Map Two-Distance Black Values", "hexengine-map-values two-distance b"),
    ("gfx", "Map Two-Distance White", "hexengine-map two-distance w"),
    ("pspairs", "Map Two-Distance White Values", "hexengine-map-values two-distance w"),
    ("gfx", "Map Move Value", "hexengine-map move-value %m"),
    ("pspairs", "Map Move Value Values", "hexengine-map-values move-value %m"),
    ("gfx", "Try Move", "hexengine-try-move %m %p"),
    ("inferior", "Inferior Cells", "hexengine-inferior %m"),
    ("plist", "VC Mustplay", "vc-get-mustplay %m"),
    ("vc", "VC Between Cells Full", "vc-between-cells-full %m %P"),
    ("vc", "VC Between Cells Semi", "vc-between-cells-semi %m %P"),
    ("vc", "VC Edge To Edge", "hexengine-vc-edges %m"),
    ("vc", "VC Cell To Edges", "hexengine-vc-edges %m %p"),
    ("string", "DFPN Solve State", "dfpn-solve-state %m"),
    ("plist", "DFPN Find Winning", "dfpn-solver-find-winning %m"),
    ("var", "DFPN Get PV", "dfpn-get-pv %m"),
    ("none", "DFPN Clear TT", "dfpn-clear-tt"),
]

SWAP_STYLES = ("swap-pieces", "swap-sides")


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


class Engine:
    """The state behind the protocol: one board, one player, one game clock."""

    def __init__(self, settings: Optional[Settings] = None, allow_swap: bool = False,
                 log: TextIO = sys.stderr, swap_style: str = "swap-pieces",
                 live_gfx: bool = False, log_file: Optional[str] = None,
                 quiet: bool = False) -> None:
        self.player = Player(settings)
        self.allow_swap = allow_swap
        self.swap_style = swap_style
        self.board = Board(11, 11, allow_swap=allow_swap)
        self.clock = GameClock()
        self.setup_moves = 0  # the loaded game's setup stones, which undo cannot take back
        self.log = log
        self.log_file: Optional[str] = None  # None: the stream given as ``log``
        self.quiet = False
        self._default_log = log
        if log_file is not None or quiet:
            self.set_log(log_file, quiet)
        self.last: Optional[SearchResult] = None
        self.last_colour = BLACK
        self.last_root: Optional[tuple[int, int]] = None  # the stones the last search saw
        # live search graphics: genmove writes a gogui-gfx block per finished iteration
        # through ``gfx_out`` (the session's writer) when ``live_gfx`` is on
        self.live_gfx = live_gfx
        self.gfx_out: Optional[Callable[[str], None]] = None

    def set_log(self, log_file: Optional[str], quiet: bool) -> None:
        """Search logs to ``log_file`` (appended; None or '-': the default stream), or
        nowhere when ``quiet``.  Raises HtpError when the file cannot be opened."""
        if log_file == "-":
            log_file = None
        stream: TextIO = self._default_log
        if log_file is not None:  # opened even when quiet: a bad path is refused now
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
        self.log, self.log_file, self.quiet = stream, log_file, quiet
        if old is not stream and old is not self._default_log:
            try:
                old.close()
            except (OSError, ValueError):
                pass

    # --- dispatch -------------------------------------------------------------------------
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

    def _new_board(self, width: int, height: int) -> None:
        self.board = Board(width, height, allow_swap=self.allow_swap)
        self.setup_moves = 0
        self.clock.reset()
        self.last = None
        self.player.reset()
        self.player.prepare(self.board.geo)

    def _move_name(self, move: int) -> str:
        return self.board.move_name(move)

    def _parse_move(self, text: str) -> int:
        try:
            return self.board.parse_move(text)
        except ValueError as exc:
            raise HtpError(f"invalid move: {exc}") from None

    # --- swap policy ----------------------------------------------------------------------
    def _should_swap(self, colour: int) -> bool:
        """Swap when the opening stone is off the board's rim: such openings are strong."""
        board = self.board
        if not board.swap_legal(colour):
            return False
        if self.swap_style == "swap-pieces" and board.width != board.height:
            return False
        _, first = board.history[0]
        c, r = board.geo.coords(first)
        if board.width <= 2 or board.height <= 2:
            return True
        return 0 < c < board.width - 1 and 0 < r < board.height - 1


# --- standard commands ----------------------------------------------------------------------
@command("protocol_version")
def _protocol_version(engine: Engine, args: list[str]) -> str:
    return "2"


@command("name")
def _name(engine: Engine, args: list[str]) -> str:
    return "hexengine"


@command("version")
def _version(engine: Engine, args: list[str]) -> str:
    return hexengine.__version__


@command("known_command", 1, 1, "COMMAND")
def _known_command(engine: Engine, args: list[str]) -> str:
    return "true" if args[0] in COMMANDS else "false"


@command("list_commands")
def _list_commands(engine: Engine, args: list[str]) -> str:
    return "\n".join(sorted(COMMANDS))


@command("quit")
def _quit(engine: Engine, args: list[str]) -> str:
    raise QuitSession


@command("boardsize", 1, 2, "WIDTH [HEIGHT]")
def _boardsize(engine: Engine, args: list[str]) -> str:
    words = args[0].lower().split("x") if len(args) == 1 and "x" in args[0].lower() else args
    try:
        sizes = [int(w) for w in words]
    except ValueError:
        raise HtpError(f"invalid board size: {' '.join(args)}") from None
    if len(sizes) == 1:
        sizes.append(sizes[0])
    if len(sizes) != 2 or not all(1 <= s <= MAX_SIZE for s in sizes):
        raise HtpError(f"unacceptable size: {' '.join(args)} (each side 1..{MAX_SIZE})")
    engine._new_board(sizes[0], sizes[1])
    return ""


@command("clear_board")
def _clear_board(engine: Engine, args: list[str]) -> str:
    engine._new_board(engine.board.width, engine.board.height)
    return ""


@command("play", 2, 2, "COLOUR MOVE")
def _play(engine: Engine, args: list[str]) -> str:
    colour = parse_colour(args[0])
    if args[1].lower() in ("resign", "pass"):
        raise HtpError(f"illegal move: {args[1]} is not a move on the board")
    move = engine._parse_move(args[1])
    try:
        engine.board.play(move, colour)
    except IllegalMove as exc:
        raise HtpError(f"illegal move: {exc}") from None
    return ""


def _choose(engine: Engine, colour: int) -> str:
    """The move ``colour`` should play here, as a name ('resign' when already lost)."""
    board = engine.board
    winner = board.winner()
    if winner is not None:
        if winner != colour:
            return "resign"
        if not board.empty:
            raise HtpError(f"game is over ({COLOUR_NAMES[winner]} won)")
    if engine._should_swap(colour):
        return engine.swap_style
    if not board.empty:
        raise HtpError("board is full")
    seconds = budget(engine.player.settings.max_time, engine.clock, colour,
                     board.empty.bit_count())

    live = engine.gfx_out if engine.live_gfx else None
    blocks = 0

    def report(result: SearchResult) -> None:
        nonlocal blocks
        engine.say(_search_line(board, result))
        if live is not None:
            live(_live_block(board, colour, result))
            blocks += 1

    root = (board.stones[0], board.stones[1])
    result = engine.player.genmove(board, colour, seconds, engine._interrupt, report)
    if live is not None and not blocks:  # solved, forced or not iterated: one block anyway
        live(_live_block(board, colour, result))
    engine.say("genmove {} -> {}: {}".format(COLOUR_NAMES[colour], board.move_name(result.move),
                                             _search_line(board, result)))
    engine.last = result
    engine.last_colour = colour
    engine.last_root = root
    return board.move_name(result.move)


def _num(value: float, signed: bool = False) -> str:
    """Two decimals without a negative zero ('-0.00' would read as a loss)."""
    value = round(value, 2) + 0.0
    return f"{value:+.2f}" if signed else f"{value:.2f}"


def _score_label(score: float) -> str:
    """A search score as one short word for a board label: '+0.41', 'W3' (win in 3 moves of
    the mover), 'L2' (loss in 2)."""
    text = score_text(score)
    if text.startswith("win"):
        return "W" + text.split()[-1]
    if text.startswith("loss"):
        return "L" + text.split()[-1]
    return _num(score, True)


def _live_block(board: Board, colour: int, r: SearchResult) -> str:
    """A finished iteration as HexGui's alpha-beta live graphics (``ab``): the PV, every
    searched root move with its score, and the search line as status text."""
    var = " ".join(f"{'BW'[(colour + i) % 2]} {board.move_name(m)}" for i, m in enumerate(r.pv))
    labels = " ".join(f"{board.move_name(m)} {_score_label(v)}"
                      for m, v in sorted(r.scores.items(), key=lambda kv: (-kv[1], kv[0])))
    return f"ab VAR {var}\nLABEL {labels}\nTEXT {_search_line(board, r)}"


def _search_line(board: Board, r: SearchResult) -> str:
    pv = " ".join(board.move_name(m) for m in r.pv)
    done = "" if r.complete else " (partial)"
    known = "".join(f" {name} {count}" for name, count in r.knowledge.items())
    return (f"depth {r.depth}{done} nodes {r.nodes} time {r.elapsed:.2f}s "
            f"nps {r.nps:.0f} score {score_text(r.score)}{known} pv {pv}")


@command("genmove", 1, 1, "COLOUR")
def _genmove(engine: Engine, args: list[str]) -> str:
    colour = parse_colour(args[0])
    name = _choose(engine, colour)
    if name != "resign":
        engine.board.play(engine.board.parse_move(name), colour)
    return name


@command("reg_genmove", 1, 1, "COLOUR")
def _reg_genmove(engine: Engine, args: list[str]) -> str:
    return _choose(engine, parse_colour(args[0]))


@command("undo")
def _undo(engine: Engine, args: list[str]) -> str:
    if engine.setup_moves and len(engine.board.history) <= engine.setup_moves:
        raise HtpError("cannot undo: only the setup stones of the loaded game are left")
    try:
        engine.board.undo()
    except IndexError:
        raise HtpError("cannot undo: no move has been played") from None
    return ""


@command("showboard")
def _showboard(engine: Engine, args: list[str]) -> str:
    board = engine.board
    winner = board.winner()
    status = (f"{COLOUR_NAMES[winner]} has won" if winner is not None
              else f"{COLOUR_NAMES[board.to_move]} to move")
    return (f"\n{board.render()}\n"
            f"black X (top-bottom): {board.stone_count(BLACK)} stones, "
            f"white O (left-right): {board.stone_count(WHITE)} stones, "
            f"move {board.move_number()}, {status}")


@command("final_score")
def _final_score(engine: Engine, args: list[str]) -> str:
    winner = engine.board.winner()
    if winner is None:
        raise HtpError("game is not over")
    return "B+" if winner == BLACK else "W+"


@command("all_legal_moves", 0, 1, "[COLOUR]")
def _all_legal_moves(engine: Engine, args: list[str]) -> str:
    board = engine.board
    colour = parse_colour(args[0]) if args else board.to_move
    if board.winner() is not None:
        return ""
    return " ".join(board.move_name(m) for m in board.legal_moves(colour))


@command("loadsgf", 1, 2, "FILE [MOVE_NUMBER]")
def _loadsgf(engine: Engine, args: list[str]) -> str:
    limit = None
    if len(args) == 2:
        try:
            number = int(args[1])
        except ValueError:
            raise HtpError(f"invalid move number: {args[1]!r}") from None
        if number < 1:
            raise HtpError(f"invalid move number: {number} (counting starts at 1)")
        limit = number - 1
    try:
        with open(args[0], encoding="utf-8", errors="replace") as f:
            game = sgf.parse(f.read())
    except OSError as exc:
        raise HtpError(f"cannot read {args[0]}: {exc.strerror or exc}") from None
    except sgf.SgfError as exc:
        raise HtpError(f"cannot load {args[0]}: {exc}") from None
    if not (1 <= game.width <= MAX_SIZE and 1 <= game.height <= MAX_SIZE):
        raise HtpError(f"cannot load {args[0]}: board size {game.width}x{game.height}")
    try:
        board = game.to_board(allow_swap=True, limit=limit)
    except sgf.SgfError as exc:
        raise HtpError(f"cannot load {args[0]}: {exc}") from None
    # a game that was swapped was played with the swap rule: so is its continuation
    engine.allow_swap = engine.allow_swap or game.swapped()
    board.allow_swap = engine.allow_swap
    engine.board = board
    engine.setup_moves = len(game.setup)
    engine.clock.reset()
    engine.last = None
    engine.player.reset()
    return ""


@command("savesgf", 1, 1, "FILE")
def _savesgf(engine: Engine, args: list[str]) -> str:
    text = sgf.board_to_sgf(engine.board, {"PB": "black", "PW": "white"})
    try:
        with open(args[0], "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as exc:
        raise HtpError(f"cannot write {args[0]}: {exc.strerror or exc}") from None
    return ""


# --- time --------------------------------------------------------------------------------
def _seconds(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise HtpError(f"invalid {what}: {text!r}") from None
    if value < 0 or value != value or value == float("inf"):
        raise HtpError(f"invalid {what}: {text!r}")
    return value


@command("time_left", 2, 3, "COLOUR SECONDS [STONES]")
def _time_left(engine: Engine, args: list[str]) -> str:
    colour = parse_colour(args[0])
    seconds = _seconds(args[1], "time")
    stones = 0
    if len(args) == 3:
        try:
            stones = int(args[2])
        except ValueError:
            raise HtpError(f"invalid stone count: {args[2]!r}") from None
        if stones < 0:
            raise HtpError(f"invalid stone count: {stones}")
    engine.clock.left[colour] = seconds
    engine.clock.stones_left[colour] = stones
    return ""


@command("time_settings", 3, 3, "MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES")
def _time_settings(engine: Engine, args: list[str]) -> str:
    main = _seconds(args[0], "main time")
    byo = _seconds(args[1], "byo-yomi time")
    try:
        stones = int(args[2])
    except ValueError:
        raise HtpError(f"invalid byo-yomi stones: {args[2]!r}") from None
    if stones < 0:
        raise HtpError(f"invalid byo-yomi stones: {stones}")
    clock = engine.clock
    clock.reset()
    if main == 0 and byo == 0:
        clock.main_time = None  # no time limit
    else:
        clock.main_time = main
    clock.byoyomi = byo
    clock.byoyomi_stones = stones
    return ""


# --- parameters ---------------------------------------------------------------------------
@command("param_game", 0, 2, "[NAME VALUE]")
def _param_game(engine: Engine, args: list[str]) -> str:
    if not args:
        game_time = engine.clock.main_time
        return "\n".join([
            f"[bool] allow_swap {int(engine.allow_swap)}",
            f"[string] game_time {0 if game_time is None else game_time:g}",
        ])
    if len(args) != 2:
        raise HtpError(f"missing value for game parameter {args[0]!r} "
                       "(usage: param_game [NAME VALUE])")
    name, value = args
    if name == "allow_swap":
        engine.allow_swap = parse_bool(name, value)
        engine.board.allow_swap = engine.allow_swap
    elif name == "game_time":
        seconds = _seconds(value, "game_time")
        engine.clock.reset()
        engine.clock.main_time = seconds if seconds > 0 else None
        engine.clock.byoyomi = 0.0
        engine.clock.byoyomi_stones = 0
    else:
        raise HtpError(f"unknown game parameter {name!r} (known: allow_swap, game_time)")
    return ""


def _engine_params(engine: Engine) -> list[tuple[str, str, str]]:
    """(type, name, value) of the settings that live in the protocol layer: the swap rule,
    the swap answer, live graphics and where logs go."""
    return [
        ("bool", "allow_swap", str(int(engine.allow_swap))),
        (f"list/{'/'.join(SWAP_STYLES)}", "swap_style", engine.swap_style),
        ("bool", "live_gfx", str(int(engine.live_gfx))),
        ("string", "log_file", engine.log_file or "-"),
        ("bool", "quiet", str(int(engine.quiet))),
    ]


@command("param_hexengine", 0, 2, "[NAME VALUE]")
def _param_hexengine(engine: Engine, args: list[str]) -> str:
    """Without arguments every engine setting as ``[type] name value`` (HexGui's parameter
    dialog): the search settings, then those of the protocol layer; with two, set one."""
    settings = engine.player.settings
    if not args:
        rows = settings.describe() + _engine_params(engine)
        return "\n".join(f"[{kind}] {name} {value}" for kind, name, value in rows)
    if len(args) != 2:
        raise HtpError(f"missing value for engine parameter {args[0]!r} "
                       "(usage: param_hexengine [NAME VALUE])")
    name, value = args
    if name == "swap_style":
        if value not in SWAP_STYLES:
            raise HtpError(f"swap_style must be one of {', '.join(SWAP_STYLES)}")
        engine.swap_style = value
    elif name == "allow_swap":
        engine.allow_swap = parse_bool(name, value)
        engine.board.allow_swap = engine.allow_swap
    elif name == "live_gfx":
        engine.live_gfx = parse_bool(name, value)
    elif name == "quiet":
        engine.set_log(engine.log_file, parse_bool(name, value))
    elif name == "log_file":
        engine.set_log(value, engine.quiet)
    else:
        try:
            settings.set(name, value)
        except ValueError as exc:
            known = [n for _, n, _ in settings.describe() + _engine_params(engine)]
            raise HtpError(f"{exc} (known: {', '.join(known)})" if "unknown" in str(exc)
                           else str(exc)) from None
        engine.player.apply_settings()
    return ""


# --- analysis (HexGui) ----------------------------------------------------------------------
@command("hexgui-analyze_commands")
def _analyze_commands(engine: Engine, args: list[str]) -> str:
    return "\n".join(f"{kind}/{label}/{cmd}" for kind, label, cmd in ANALYZE_COMMANDS)


def _last_from_here(engine: Engine) -> Optional[int]:
    """How many PV moves of the last search are already on the board: 0 when the board is
    the position searched, 1 when it is that position plus the chosen move (genmove played
    it), None when there was no search or the board has changed since."""
    last, root = engine.last, engine.last_root
    if last is None or root is None:
        return None
    stones = (engine.board.stones[0], engine.board.stones[1])
    if stones == root:
        return 0
    if last.pv:
        after = list(root)
        after[engine.last_colour] |= 1 << last.pv[0]
        if stones == tuple(after):
            return 1
    return None


@command("hexengine-pv")
def _pv(engine: Engine, args: list[str]) -> str:
    """The last search's principal variation from the current position on, as HexGui's
    ``var`` type reads it: cells only, the colour to move first (the move genmove played
    is left out); empty when the board is not the one searched."""
    done = _last_from_here(engine)
    if done is None:
        return ""
    return " ".join(engine.board.move_name(m) for m in engine.last.pv[done:])


@command("hexengine-scores")
def _scores(engine: Engine, args: list[str]) -> str:
    """The last search's root moves with their scores (``pspairs``: cell and one word each,
    best first); empty when the board is not the one searched nor the one after its move."""
    if _last_from_here(engine) is None:
        return ""
    return " ".join(f"{engine.board.move_name(m)} {_score_label(s)}"
                    for m, s in sorted(engine.last.scores.items(), key=lambda kv: -kv[1]))


@command("hexengine-info")
def _info(engine: Engine, args: list[str]) -> str:
    if engine.last is None:
        return "no search yet"
    return _search_line(engine.board, engine.last)


@command("hexengine-evaluate", 0, 1, "[COLOUR]")
def _evaluate(engine: Engine, args: list[str]) -> str:
    board = engine.board
    colour = parse_colour(args[0]) if args else board.to_move
    from hexengine.evaluation import get
    name = engine.player.settings.evaluation
    value = get(name)(board.geo, board.stones, colour)
    return f"{name} {COLOUR_NAMES[colour]} {value:+.3f}"


# --- solver (Benzene's dfpn-* names and replies) -------------------------------------------
def _solver_position(engine: Engine, args: list[str]) -> int:
    """The colour to move from the argument; refuses a finished game."""
    colour = parse_colour(args[0])
    winner = engine.board.winner()
    if winner is not None:
        raise HtpError(f"game is over ({COLOUR_NAMES[winner]} won)")
    return colour


def _solver_progress(engine: Engine, what: str):
    def report(info: dict) -> None:
        engine.say(f"{what}: nodes {info['nodes']} time {info['time']:.1f}s "
                   f"root pn {info['pn']} dn {info['dn']} tt {info['tt']}")
    return report


@command("dfpn-solve-state", 1, 1, "COLOUR")
def _dfpn_solve_state(engine: Engine, args: list[str]) -> str:
    colour = _solver_position(engine, args)
    board = engine.board
    solver = engine.player.solver()
    result = solver.solve(board.geo, list(board.stones), colour,
                          engine.player.settings.solver_time, engine._interrupt,
                          _solver_progress(engine, "dfpn-solve-state"))
    verdict = "unknown" if result.winner is None else COLOUR_NAMES[result.winner]
    pv = " ".join(board.move_name(m) for m in result.pv)
    engine.say(f"dfpn-solve-state {COLOUR_NAMES[colour]} to move: {verdict} "
               f"(nodes {result.nodes} time {result.elapsed:.2f}s"
               f"{' interrupted' if engine._interrupt.is_set() else ''}) pv {pv}")
    return verdict


@command("dfpn-solver-find-winning", 1, 1, "COLOUR")
def _dfpn_find_winning(engine: Engine, args: list[str]) -> str:
    colour = _solver_position(engine, args)
    board = engine.board
    solver = engine.player.solver()
    seconds = engine.player.settings.solver_time
    moves, nodes = solver.find_winning(board.geo, list(board.stones), colour, seconds,
                                       engine._interrupt,
                                       _solver_progress(engine, "dfpn-solver-find-winning"))
    if moves is None:
        why = "interrupted" if engine._interrupt.is_set() else \
            f"not solved within solver_time {seconds:g}s"
        raise HtpError(f"{why} (nodes {nodes})")
    names = " ".join(board.move_name(m) for m in moves)
    engine.say(f"dfpn-solver-find-winning {COLOUR_NAMES[colour]}: [{names}] (nodes {nodes})")
    return names


@command("dfpn-get-pv", 1, 1, "COLOUR")
def _dfpn_get_pv(engine: Engine, args: list[str]) -> str:
    colour = _solver_position(engine, args)
    board = engine.board
    pv = engine.player.solver().pv(board.geo, list(board.stones), colour)
    return " ".join(board.move_name(m) for m in pv)


@command("dfpn-clear-tt")
def _dfpn_clear_tt(engine: Engine, args: list[str]) -> str:
    engine.player.solver().clear()
    return ""


@command("hexengine-inferior", 1, 1, "COLOUR")
def _inferior(engine: Engine, args: list[str]) -> str:
    """Fill-in and pruned moves for COLOUR to move, as HexGui's ``inferior`` type draws them
    (Benzene's codes): ``fdb``/``fdw`` dead (filled black/white), ``fcb``/``fcw`` captured
    (combinatorial decompositions' carriers included), ``iv[k1-k2]`` vulnerable for COLOUR
    with its killers, ``id[d1-d2]`` dominated with the moves dominating it (HexGui reads
    ``iv``, ``ir`` and ``id``).  Empty once the game is over."""
    colour = parse_colour(args[0])
    board = engine.board
    if board.winner() is not None:
        return ""
    from hexengine.knowledge import analysis
    geo = board.geo
    report = analysis.inferior_report(geo, board.stones, colour)
    inf = report.filled
    codes: dict[int, str] = {}
    for code, bits in (("fdb", inf.dead_as[BLACK]), ("fdw", inf.dead_as[WHITE]),
                       ("fcb", inf.captured[BLACK]), ("fcw", inf.captured[WHITE])):
        for cell in geo.iter_bits(bits):
            codes[cell] = code
    for code, cells in (("iv", report.vulnerable), ("id", report.dominated)):
        for cell, by in cells.items():
            codes[cell] = code + "[" + "-".join(geo.name(k) for k in geo.iter_bits(by)) + "]"
    return " ".join(f"{geo.name(cell)} {codes[cell]}" for cell in sorted(codes))


# --- virtual connections (Benzene's names and reply formats) --------------------------------
@command("vc-get-mustplay", 1, 1, "COLOUR")
def _vc_mustplay(engine: Engine, args: list[str]) -> str:
    """The cells COLOUR must play in (the intersection of the opponent's edge-to-edge semi
    connection carriers), space-separated; empty when COLOUR has already lost."""
    colour = parse_colour(args[0])
    from hexengine.knowledge import vc
    board = engine.board
    cells = vc.mustplay(board.geo, board.stones, colour)
    return " ".join(board.geo.name(c) for c in board.geo.iter_bits(cells))


# --- analysis views (HexGui: gfx, pspairs and vc replies) -----------------------------------
EDGE_NAMES = {"north": (BLACK, EDGE_START), "south": (BLACK, EDGE_GOAL),
              "west": (WHITE, EDGE_START), "east": (WHITE, EDGE_GOAL)}  # HexGui's names
MAPS = ("current", "two-distance", "move-value")


def _require_open(engine: Engine) -> None:
    """Views need open play: a decided game is refused."""
    winner = engine.board.winner()
    if winner is not None:
        raise HtpError(f"game is over ({COLOUR_NAMES[winner]} won)")


def _open_position(engine: Engine, text: str) -> int:
    """The colour argument of a view, on a game that is not decided."""
    colour = parse_colour(text)
    _require_open(engine)
    return colour


def _cell(engine: Engine, text: str) -> int:
    """A cell on this board (not an edge, not a swap move)."""
    try:
        return engine.board.geo.parse(text)
    except ValueError as exc:
        raise HtpError(f"invalid cell: {exc}") from None


def _holder(engine: Engine, cell: int) -> Optional[int]:
    stones = engine.board.stones
    return BLACK if (stones[BLACK] >> cell) & 1 else WHITE if (stones[WHITE] >> cell) & 1 \
        else None


def _gfx(engine: Engine, shade: dict[int, float], status: str,
         labels: Optional[dict[int, str]] = None) -> str:
    """A gfx reply: LABEL first (HexGui 0.10 reads only from INFLUENCE to TEXT, so a LABEL
    line before INFLUENCE is skipped there and kept for GoGui-style readers), INFLUENCE with
    values in [0, 1] (0 blue, 1 green in HexGui), TEXT for the status bar."""
    name = engine.board.geo.name
    lines = []
    if labels:
        lines.append("LABEL " + " ".join(f"{name(c)} {t}" for c, t in sorted(labels.items())))
    lines.append("INFLUENCE " + " ".join(f"{name(c)} {min(1.0, max(0.0, v)):.3f}"
                                         for c, v in sorted(shade.items())))
    lines.append("TEXT " + status)
    return "\n".join(lines)


def _pairs(engine: Engine, labels: dict[int, str]) -> str:
    name = engine.board.geo.name
    return " ".join(f"{name(c)} {t}" for c, t in sorted(labels.items()))


def _both_paths_shade(black: views.PathView, white: views.PathView) -> dict[int, float]:
    """Black's path cells 0 (blue), white's 1 (green), cells on both 0.5."""
    out = {c: 0.0 for c in black.share} if black.share else {}
    for c in white.share:
        out[c] = 0.5 if c in out else 1.0
    return out


@command("hexengine-shortest-path", 0, 1, "[COLOUR]")
def _shortest_path(engine: Engine, args: list[str]) -> str:
    """The shortest paths of COLOUR (own stones free), each cell shaded by the share of
    the shortest paths through it (1, green: on every one), or with no argument both
    colours' path cells (black's blue, white's green, both teal); distances as status."""
    board = engine.board
    if args:
        colour = _open_position(engine, args[0])
        view = views.shortest_paths(board.geo, board.stones, colour)
        critical = [board.geo.name(c) for c in view.critical()]
        other = views.shortest_paths(board.geo, board.stones, 1 - colour)
        status = (f"{COLOUR_NAMES[colour]} shortest paths: {view.distance} empty cells to "
                  f"connect, {len(view.share)} cells on them, on every one: "
                  f"{' '.join(critical) or 'none'} (green); "
                  f"{COLOUR_NAMES[1 - colour]} needs {other.distance}")
        return _gfx(engine, view.share, status,
                    {c: _num(s) for c, s in view.share.items()})
    _require_open(engine)
    black, white = (views.shortest_paths(board.geo, board.stones, c) for c in (BLACK, WHITE))
    status = (f"shortest paths: black {black.distance} empty cells (blue), white "
              f"{white.distance} (green), cells on both teal")
    return _gfx(engine, _both_paths_shade(black, white), status)


def _map(engine: Engine, args: list[str]) -> tuple[views.CellMap, dict[int, str], str]:
    """One evaluation map for the map commands: (map, labels, status text)."""
    kind = args[0].lower()
    if kind not in MAPS:
        raise HtpError(f"unknown map {args[0]!r} (known: {', '.join(MAPS)})")
    colour = _open_position(engine, args[1])
    board = engine.board
    geo, who = board.geo, COLOUR_NAMES[colour]
    if kind == "current":
        cells, r_own, r_opp = views.current_map(geo, board.stones, colour)
        labels = {c: _num(v) for c, v in cells.values.items()}
        status = (f"current through each empty cell, both circuits (green most): top "
                  f"{geo.name(cells.best)} {cells.values[cells.best]:.2f}; resistance "
                  f"{who} {r_own:.2f}, {COLOUR_NAMES[1 - colour]} {r_opp:.2f}")
    elif kind == "two-distance":
        cells = views.two_distance_map(geo, board.stones, colour)
        other = views.two_distance_map(geo, board.stones, 1 - colour)
        labels = {c: f"{v:.0f}" for c, v in cells.values.items()}
        if cells.best is None:
            status = f"{who} two-distance: no cell reaches both edges"
        else:
            best = cells.values[cells.best]
            count = sum(1 for v in cells.values.values() if v == best)
            theirs = (f"{other.values[other.best]:.0f}" if other.best is not None
                      else "none")
            status = (f"{who} two-distance potential per cell (green lowest): best {best:.0f} "
                      f"at {count} cells; {COLOUR_NAMES[1 - colour]}'s best {theirs}")
    else:
        name = engine.player.settings.evaluation
        cells, now = views.move_value_map(geo, board.stones, colour, name)
        labels = {c: _num(v, True) for c, v in cells.values.items()}
        status = (f"{name} value for {who} after {who} plays each cell (green best): best "
                  f"{geo.name(cells.best)} {cells.values[cells.best]:+.2f}, now {now:+.2f}")
    return cells, labels, status


@command("hexengine-map", 2, 2, "MAP COLOUR")
def _map_gfx(engine: Engine, args: list[str]) -> str:
    """An evaluation map as gfx shading: ``current`` (resistance current through each empty
    cell), ``two-distance`` (COLOUR's potential per cell), ``move-value`` (the static value
    after COLOUR plays each cell)."""
    cells, labels, status = _map(engine, args)
    return _gfx(engine, cells.shade, status, labels)


@command("hexengine-map-values", 2, 2, "MAP COLOUR")
def _map_values(engine: Engine, args: list[str]) -> str:
    """The numbers of ``hexengine-map MAP COLOUR`` as cell-value pairs (``pspairs``)."""
    _, labels, _ = _map(engine, args)
    return _pairs(engine, labels)


@command("hexengine-try-move", 2, 2, "COLOUR CELL")
def _try_move(engine: Engine, args: list[str]) -> str:
    """What COLOUR playing CELL would change (the board stays as it is): both colours'
    shortest paths after it (gfx shading as ``hexengine-shortest-path``), the distances
    before and after and the static value for COLOUR as status text."""
    colour = _open_position(engine, args[0])
    cell = _cell(engine, args[1])
    holder = _holder(engine, cell)
    name = engine.board.geo.name(cell)
    if holder is not None:
        raise HtpError(f"{name} is occupied ({COLOUR_NAMES[holder]})")
    board = engine.board
    evaluation = engine.player.settings.evaluation
    t = views.try_move(board.geo, board.stones, colour, cell, evaluation)
    black, white = t.after
    if black.distance == 0 or white.distance == 0:
        verdict = f"{COLOUR_NAMES[colour]} wins with {name}"
    else:
        verdict = (f"to connect black {t.before[0].distance}->{black.distance}, white "
                   f"{t.before[1].distance}->{white.distance}")
    status = (f"{COLOUR_NAMES[colour]} {name}: {verdict}; {evaluation} "
              f"{_num(t.value_before, True)}->{_num(t.value_after, True)}; paths after it: "
              f"black blue, white green, both teal")
    return _gfx(engine, _both_paths_shade(black, white), status,
                {cell: _num(t.value_after, True)})


def _endpoint(engine: Engine, text: str, colour: int) -> tuple[int, str]:
    """A connection end for COLOUR: an edge of its own (HexGui's north/south/west/east) or a
    cell that is empty or holds its stone; (node for H-search, name for the reply)."""
    low = text.lower()
    if low in EDGE_NAMES:
        owner, node = EDGE_NAMES[low]
        if owner != colour:
            raise HtpError(f"{low} is {COLOUR_NAMES[owner]}'s edge, not "
                           f"{COLOUR_NAMES[colour]}'s")
        return node, low
    cell = _cell(engine, text)
    holder = _holder(engine, cell)
    name = engine.board.geo.name(cell)
    if holder is not None and holder != colour:
        raise HtpError(f"{name} holds a {COLOUR_NAMES[holder]} stone, not a "
                       f"{COLOUR_NAMES[colour]} one")
    return cell, name


def _vc_lines(engine: Engine, colour: int, a: tuple[int, str], b: tuple[int, str],
              kinds: tuple[str, ...]) -> list[str]:
    """COLOUR's connections of the given kinds between two ends (node, name), one line each
    as HexGui's vc parser reads them: ``colour from to kind source [ carrier ] [ stones ]``
    and, for a semi, its key.  HexGui 0.10's board has no edge fields (a VC to ``north``
    throws when shown), so an edge end is written as a cell: a cell-to-edge connection as
    ``cell cell`` with source ``to-EDGE``, an edge-to-edge one as its key (semi) or first
    carrier cell twice with source ``EDGE-EDGE``; cell to cell has source ``hsearch``."""
    geo = engine.board.geo
    found = views.connections_between(geo, engine.board.stones, colour, a[0], b[0])
    if a[0] < 0 <= b[0]:
        a, b = b, a
    lines = []
    for kind in kinds:
        for con in found:
            if con.kind != kind:
                continue
            cells = [geo.name(c) for c in geo.iter_bits(con.carrier)]
            if b[0] >= 0:
                ends, source = f"{a[1]} {b[1]}", "hsearch"
            elif a[0] >= 0:
                ends, source = f"{a[1]} {a[1]}", f"to-{b[1]}"
            else:
                end = geo.name(con.key) if con.kind == "semi" else cells[0]
                ends, source = f"{end} {end}", f"{a[1]}-{b[1]}"
            key = f" {geo.name(con.key)}" if con.kind == "semi" else ""
            lines.append(f"{COLOUR_NAMES[colour]} {ends} {con.kind} {source} "
                         f"[{''.join(' ' + c for c in cells)} ] [ ]{key}")
    return lines


def _between(engine: Engine, args: list[str], kind: str) -> str:
    colour = _open_position(engine, args[0])
    a, b = (_endpoint(engine, x, colour) for x in args[1:])
    if a[0] == b[0]:
        raise HtpError(f"two different cells or edges are needed, not {a[1]} twice")
    return "\n".join(_vc_lines(engine, colour, a, b, (kind,)))


@command("vc-between-cells-full", 3, 3, "COLOUR CELL CELL")
def _vc_between_full(engine: Engine, args: list[str]) -> str:
    """COLOUR's full connections between two cells or edges (Benzene's command, HexGui's
    ``vc`` type): one per line, ``colour from to full hsearch [ carrier ] [ ]``."""
    return _between(engine, args, "full")


@command("vc-between-cells-semi", 3, 3, "COLOUR CELL CELL")
def _vc_between_semi(engine: Engine, args: list[str]) -> str:
    """COLOUR's semi connections between two cells or edges, as ``vc-between-cells-full``
    with the key (the move that completes it) after the empty stone list."""
    return _between(engine, args, "semi")


@command("hexengine-vc-edges", 1, 2, "COLOUR [CELL]")
def _vc_edges(engine: Engine, args: list[str]) -> str:
    """COLOUR's full and semi connections between its two edges (a full one: COLOUR has won
    with best play), or with CELL from that cell to each of its edges, in the form of
    ``vc-between-cells-full`` (HexGui 0.10 cannot select an edge, so its menu uses these)."""
    colour = _open_position(engine, args[0])
    edges = [(node, name) for name, (owner, node) in EDGE_NAMES.items() if owner == colour]
    kinds = ("full", "semi")
    if len(args) == 1:
        return "\n".join(_vc_lines(engine, colour, edges[0], edges[1], kinds))
    cell = _endpoint(engine, args[1], colour)
    return "\n".join(line for edge in edges
                     for line in _vc_lines(engine, colour, cell, edge, kinds))
