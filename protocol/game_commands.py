"""The game's commands: identification, board and moves, genmove, SGF, the game clock."""
from __future__ import annotations

import hexengine
from hexengine import sgf
from hexengine.board import BLACK, COLOUR_NAMES, WHITE, IllegalMove
from hexengine.geometry import MAX_SIZE
from hexengine.search import SearchResult
from hexengine.timecontrol import budget

from .engine import (ANALYZE_MENU, COMMANDS, Engine, command, parse_colour, parse_count,
                     parse_seconds)
from .formatting import live_block, search_line
from .htp import HtpError, QuitSession

READY_SECONDS = 60.0  # hexengine-ready's wait by default (a cold disk cache compiles ~12 s)


@command("protocol_version")
def _protocol_version(engine: Engine, args: list[str]) -> str:
    return "2"


@command("name")
def _name(engine: Engine, args: list[str]) -> str:
    return "hexengine"


@command("version")
def _version(engine: Engine, args: list[str]) -> str:
    return hexengine.__version__


@command("hexengine-ready", 0, 1, "[SECONDS]")
def _ready(engine: Engine, args: list[str]) -> str:
    """Wait (at most SECONDS, 60 by default) until the compiled kernels have loaded; each
    kernel's state, e.g. "circuit compiled hsearch compiled ..."."""
    seconds = parse_seconds(args[0], "seconds") if args else READY_SECONDS
    states = engine.player.ready(seconds, engine._interrupt)
    return " ".join(f"{name} {state}" for name, state in states.items())


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
    engine.new_board(sizes[0], sizes[1])
    return ""


@command("clear_board")
def _clear_board(engine: Engine, args: list[str]) -> str:
    engine.new_board(engine.board.width, engine.board.height)
    return ""


@command("play", 2, 2, "COLOUR MOVE")
def _play(engine: Engine, args: list[str]) -> str:
    colour = parse_colour(args[0])
    if args[1].lower() in ("resign", "pass"):
        raise HtpError(f"illegal move: {args[1]} is not a move on the board")
    move = engine.parse_move(args[1])
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
    if engine.player.should_swap(board, colour):
        return engine.settings.swap_style
    if not board.empty:
        raise HtpError("board is full")
    seconds = budget(engine.player.settings.max_time, engine.clock, colour,
                     board.empty.bit_count())

    live = engine.gfx_out if engine.settings.live_gfx else None
    blocks = 0

    def report(result: SearchResult) -> None:
        nonlocal blocks
        engine.say(search_line(board, result))
        if live is not None:
            live(live_block(board, colour, result))
            blocks += 1

    root = (board.stones[0], board.stones[1])
    result = engine.player.genmove(board, colour, seconds, engine._interrupt, report)
    if live is not None and not blocks:  # solved, forced or not iterated: one block anyway
        live(live_block(board, colour, result))
    engine.say("genmove {} -> {}: {}".format(COLOUR_NAMES[colour], board.move_name(result.move),
                                             search_line(board, result)))
    engine.last = result
    engine.last_colour = colour
    engine.last_root = root
    return board.move_name(result.move)




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


@command("showboard", menu=(("string", "Show Board", "showboard"),))
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
        limit = parse_count(args[1], "move number", 1, " (counting starts at 1)") - 1
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
    if game.swapped():
        engine.configure("allow_swap", "1")
    board.allow_swap = engine.settings.allow_swap
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
@command("time_left", 2, 3, "COLOUR SECONDS [STONES]")
def _time_left(engine: Engine, args: list[str]) -> str:
    colour = parse_colour(args[0])
    seconds = parse_seconds(args[1], "time")
    stones = parse_count(args[2], "stone count") if len(args) == 3 else 0
    engine.clock.left[colour] = seconds
    engine.clock.stones_left[colour] = stones
    return ""


@command("time_settings", 3, 3, "MAIN_TIME BYO_YOMI_TIME BYO_YOMI_STONES")
def _time_settings(engine: Engine, args: list[str]) -> str:
    main = parse_seconds(args[0], "main time")
    byo = parse_seconds(args[1], "byo-yomi time")
    stones = parse_count(args[2], "byo-yomi stones")
    engine.clock.set(main, byo, stones)
    return ""


@command("hexgui-analyze_commands")
def _analyze_commands(engine: Engine, args: list[str]) -> str:
    """The analyze menu for HexGui: every subsystem's lines, from the command table."""
    return "\n".join(f"{kind}/{label}/{cmd}" for kind, label, cmd in ANALYZE_MENU)
