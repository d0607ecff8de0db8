"""The HTP command table and its handlers.

Every command is registered once with ``@command``; dispatch, ``list_commands`` and
``known_command`` all read the same table, so they cannot drift apart.  Handlers parse and
format only: game rules live in ``hexengine.board``, move choice behind ``hexengine.player``.
A handler either returns the reply text or raises HtpError; in both cases a failed command
leaves the board exactly as it was.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable, Optional, TextIO

import hexengine
from hexengine import sgf
from hexengine.board import (BLACK, COLOUR_NAMES, SWAP_PIECES, SWAP_SIDES, WHITE, Board,
                             IllegalMove)
from hexengine.geometry import MAX_SIZE
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
    # HexGui analyze-command lines: type/label/command
    ("param", "Game Param", "param_game"),
    ("param", "Engine Param", "param_hexengine"),
    ("var", "Principal Variation", "hexengine-pv"),
    ("pspairs", "Root Move Scores", "hexengine-scores"),
    ("string", "Evaluation", "hexengine-evaluate"),
    ("inferior", "Inferior Cells", "hexengine-inferior %m"),
    ("string", "Search Info", "hexengine-info"),
    ("string", "Show Board", "showboard"),
    ("plist", "VC Mustplay", "vc-get-mustplay %m"),
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
                 log: TextIO = sys.stderr, swap_style: str = "swap-pieces") -> None:
        self.player = Player(settings)
        self.allow_swap = allow_swap
        self.swap_style = swap_style
        self.board = Board(11, 11, allow_swap=allow_swap)
        self.clock = GameClock()
        self.log = log
        self.last: Optional[SearchResult] = None
        self.last_colour = BLACK
        self.setup_moves = 0  # the loaded game's setup stones, which undo cannot take back

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

    def report(result: SearchResult) -> None:
        engine.say(_search_line(board, result))

    result = engine.player.genmove(board, colour, seconds, engine._interrupt, report)
    engine.say("genmove {} -> {}: {}".format(COLOUR_NAMES[colour], board.move_name(result.move),
                                             _search_line(board, result)))
    engine.last = result
    engine.last_colour = colour
    return board.move_name(result.move)


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


@command("param_hexengine", 0, 2, "[NAME VALUE]")
def _param_hexengine(engine: Engine, args: list[str]) -> str:
    settings = engine.player.settings
    if not args:
        lines = [f"[{kind}] {name} {value}" for kind, name, value in settings.describe()]
        lines.append(f"[list/{'/'.join(SWAP_STYLES)}] swap_style {engine.swap_style}")
        return "\n".join(lines)
    if len(args) != 2:
        raise HtpError(f"missing value for engine parameter {args[0]!r} "
                       "(usage: param_hexengine [NAME VALUE])")
    name, value = args
    if name == "swap_style":
        if value not in SWAP_STYLES:
            raise HtpError(f"swap_style must be one of {', '.join(SWAP_STYLES)}")
        engine.swap_style = value
        return ""
    try:
        settings.set(name, value)
    except ValueError as exc:
        raise HtpError(str(exc)) from None
    return ""


# --- analysis (HexGui) ----------------------------------------------------------------------
@command("hexgui-analyze_commands")
def _analyze_commands(engine: Engine, args: list[str]) -> str:
    return "\n".join(f"{kind}/{label}/{cmd}" for kind, label, cmd in ANALYZE_COMMANDS)


@command("hexengine-pv")
def _pv(engine: Engine, args: list[str]) -> str:
    last = engine.last
    if last is None:
        return ""
    colour = engine.last_colour
    out = []
    for i, move in enumerate(last.pv):
        out.append(f"{'bw'[(colour + i) % 2]} {engine.board.move_name(move)}")
    return " ".join(out)


@command("hexengine-scores")
def _scores(engine: Engine, args: list[str]) -> str:
    last = engine.last
    if last is None:
        return ""
    return " ".join(f"{engine.board.move_name(m)} {score_text(s)}"
                    for m, s in sorted(last.scores.items(), key=lambda kv: -kv[1]))


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
    (Benzene's codes): ``fdb``/``fdw`` dead (filled black/white), ``fcb``/``fcw`` captured,
    ``iv[k1-k2]`` vulnerable for COLOUR with its killers.  Empty once the game is over."""
    colour = parse_colour(args[0])
    board = engine.board
    if board.winner() is not None:
        return ""
    from hexengine.knowledge import inferior
    geo = board.geo
    filled, inf = inferior.fill_in(geo, board.stones)
    codes: dict[int, str] = {}
    for code, bits in (("fdb", inf.dead_as[BLACK]), ("fdw", inf.dead_as[WHITE]),
                       ("fcb", inf.captured[BLACK]), ("fcw", inf.captured[WHITE])):
        for cell in geo.iter_bits(bits):
            codes[cell] = code
    if not any(board.geo.flood(geo.edges[c][0], filled[c]) & geo.edges[c][1] for c in (0, 1)):
        kill = inferior.killers(geo, filled, colour)
        for cell in inferior.prunable_with_killers(geo, filled, colour):
            codes[cell] = "iv[" + "-".join(geo.name(k) for k in geo.iter_bits(kill[cell])) + "]"
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
