"""The referee: plays one game between two HTP engines and never trusts either of them.

It keeps its own board, checks every move (legal, on the board, in turn), detects the win
itself, and turns every engine failure into a result: an illegal move, a ``?`` reply to
``genmove``, a crash, a hang past the time limit or garbage output loses the game for the
engine that did it, with the reason recorded.

Swaps are passed on by resending the position (``clear_board`` and ``play``), so engines with
different swap dialects stay in step.  On a square board every swap is recorded as
swap-pieces (the opening stone mirrored to the other colour, each engine keeps its colour);
on other boards it is swap-sides and the engines exchange colours.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Callable, Optional

from hexengine import sgf
from hexengine.board import BLACK, SWAP_PIECES, SWAP_SIDES, WHITE, Board, IllegalMove

from .controller import EngineError, EngineProcess

COLOUR_WORDS = ("b", "w")
COLOUR_NAMES = ("black", "white")
SWAP_WORDS = ("swap", "swap-pieces", "swap-sides")
# SGF result suffixes: win by connection, resignation, time, forfeit
RESULT_SUFFIX = {"connection": "", "resignation": "R", "timeout": "T"}
# the ends that an engine's failure causes (not a connection nor a resignation): forfeits
FORFEITS = ("illegal", "refused", "timeout", "crash", "garbage")


@dataclass(frozen=True)
class Rules:
    """What every game of a match shares."""
    width: int
    height: int
    time: float  # seconds per move (without a game clock)
    grace: float = 1.0  # a genmove may take its time + grace before it loses on time
    swap: bool = False
    command_timeout: float = 10.0  # for every command but genmove
    startup_timeout: float = 30.0  # for the first command to a new process
    # a game clock instead of ``time``: each engine's seconds for the whole game, and the
    # seconds added to its clock after each of its moves (Fischer); 0: ``time`` a move
    main_time: float = 0.0
    increment: float = 0.0

    def time_text(self) -> str:
        """'1 s/move', or the game clock: '60 s a game', '60+0.5 s a game'."""
        if not self.main_time:
            return f"{self.time:g} s/move"
        inc = f"+{self.increment:g}" if self.increment else ""
        return f"{self.main_time:g}{inc} s a game"


class Clock:
    """Each engine's time under the rules: ``time`` for every move, or what is left of its
    game clock (spent by each move, never below 0, then the increment added)."""

    def __init__(self, rules: Rules, names: list[str]) -> None:
        self.rules = rules
        self.left = {name: rules.main_time for name in names}

    def allowed(self, name: str) -> float:
        """Seconds ``name``'s next move may take, before the grace."""
        return self.left[name] if self.rules.main_time else self.rules.time

    def spend(self, name: str, used: float) -> None:
        if self.rules.main_time:
            self.left[name] = max(0.0, self.left[name] - used) + self.rules.increment


@dataclass(frozen=True)
class GameSpec:
    """One scheduled game: who plays black and white after the opening."""
    index: int
    black: str
    white: str
    opening: tuple[str, ...] = ()
    opening_index: int = 0


@dataclass
class GameResult:
    """What happened in a game; one line of results.jsonl."""
    game: int
    black: str
    white: str
    opening: list[str]
    opening_index: int
    size: str
    winner: str
    loser: str
    winner_colour: str
    reason: str  # connection, resignation, illegal, refused, timeout, crash, garbage
    detail: str = ""
    moves: list[dict] = field(default_factory=list)  # colour, move, by, seconds
    seconds: dict[str, float] = field(default_factory=dict)  # thinking time per engine
    sgf: str = ""
    # a forfeit's position solved by a judge engine (``judge.py``): proved-lost (for the
    # engine that forfeited), proved-won, not-proved, judge-error; empty when not judged
    judged: str = ""
    judged_detail: str = ""

    def to_json(self) -> dict:
        data = asdict(self)
        for key in ("judged", "judged_detail"):  # games not judged keep their old lines
            if not data[key]:
                del data[key]
        return data

    @classmethod
    def from_json(cls, data: dict) -> "GameResult":
        names = set(cls.__dataclass_fields__)
        return cls(**{k: v for k, v in data.items() if k in names})

    def sgf_text(self, width: int, height: int) -> str:
        """The game as HexGui's SGF: moves, players, result and how it ended."""
        moves = [(BLACK if m["colour"] == "black" else WHITE, m["move"]) for m in self.moves]
        if self.reason == "resignation":
            moves.append((0 if self.winner_colour == "white" else 1, "resign"))
        suffix = RESULT_SUFFIX.get(self.reason, "F")
        props = {"PB": self.black, "PW": self.white,
                 "RE": f"{self.winner_colour[0].upper()}+{suffix}",
                 "GC": f"game {self.game + 1}: {self.winner} wins by {self.reason}"
                       + (f" ({self.detail})" if self.detail else "")
                       + (f"; judged: {self.judged}" if self.judged else "")
                       + (f" ({self.judged_detail})" if self.judged_detail else "")}
        return sgf.dumps(width, height, moves, properties=props)


class _Forfeit(Exception):
    """The engine playing ``colour`` loses the game now."""

    def __init__(self, colour: int, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.colour = colour
        self.reason = reason
        self.detail = detail


class Referee:
    """Plays games between engines supplied by ``get_engine(name)``.

    ``discard_engine(name)`` is called for an engine that failed, so it is restarted before
    its next game."""

    def __init__(self, rules: Rules, get_engine: Callable[[str], EngineProcess],
                 discard_engine: Callable[[str], None]) -> None:
        self.rules = rules
        self.get_engine = get_engine
        self.discard_engine = discard_engine
        self._dialect: dict[str, dict[str, bool]] = {}  # per engine name: what it refused

    # --- talking to one engine ----------------------------------------------------------
    def _engine(self, name: str, colour: int) -> EngineProcess:
        try:
            return self.get_engine(name)
        except EngineError as exc:
            raise _Forfeit(colour, exc.reason, f"{name}: {exc.detail or exc.reason}") from None

    def _quirks(self, engine: EngineProcess) -> dict[str, bool]:
        return self._dialect.setdefault(engine.name, {})

    def _optional(self, engine: EngineProcess, command: str) -> bool:
        """Send a command the engine may not know (time, swap settings); False if refused."""
        ok, _ = engine.send(command, self.rules.command_timeout)
        return ok

    def _setup(self, engine: EngineProcess, board: Board, swap_allowed: bool) -> None:
        """Bring ``engine`` to the referee's position (used at the start and after a swap)."""
        r = self.rules
        new_board(engine, r.width, r.height, self._quirks(engine), r.command_timeout)
        self._optional(engine, f"param_game allow_swap {int(swap_allowed)}")
        if r.main_time:  # sudden death: the whole game's time, no byo-yomi
            self._optional(engine, f"time_settings {r.main_time:g} 0 0")
        else:
            self._optional(engine, f"time_settings 0 {r.time:g} 1")
        play_position(engine, board, r.command_timeout)

    def _time_left(self, engine: EngineProcess, colour: int, left: float) -> None:
        """GTP's ``time_left C T 1`` (T seconds for one move; with a game clock ``C T 0``,
        T what is left of it); Benzene takes only C T."""
        quirks = self._quirks(engine)
        word = COLOUR_WORDS[colour]
        stones = 0 if self.rules.main_time else 1
        seconds = f"{round(left, 3):g}"
        if not quirks.get("time_left_two_args"):
            if self._optional(engine, f"time_left {word} {seconds} {stones}"):
                return
            quirks["time_left_two_args"] = True
        self._optional(engine, f"time_left {word} {seconds}")

    # --- one game -------------------------------------------------------------------------
    def play(self, spec: GameSpec, should_stop: Callable[[], bool] = lambda: False
             ) -> Optional[GameResult]:
        """Play ``spec`` to the end; None if ``should_stop`` became true (game abandoned)."""
        r = self.rules
        board = Board(r.width, r.height, allow_swap=r.swap)
        players = [spec.black, spec.white]  # colour -> engine name; swap-sides exchanges them
        moves: list[dict] = []
        seconds = {spec.black: 0.0, spec.white: 0.0}
        clock = Clock(r, players)
        for i, name in enumerate(spec.opening):
            colour = BLACK if i % 2 == 0 else WHITE
            board.play(board.parse_move(name), colour)
            moves.append({"colour": COLOUR_NAMES[colour], "move": name, "by": "opening"})
        try:
            for colour in (BLACK, WHITE):
                self._talk(players[colour], colour,
                           lambda e: self._setup(e, board, r.swap))
            while board.winner() is None:
                if should_stop():
                    return None
                colour = board.to_move
                name = players[colour]
                move, word, used = self._genmove(board, name, colour, clock.allowed(name))
                seconds[name] = seconds.get(name, 0.0) + used
                clock.spend(name, used)
                record = {"colour": COLOUR_NAMES[colour], "move": "", "by": name,
                          "seconds": round(used, 3)}
                if r.main_time:
                    record["left"] = round(clock.left[name], 3)
                if move in (SWAP_PIECES, SWAP_SIDES):
                    board.play(move, colour)
                    record["move"] = board.move_name(move)
                    if word != record["move"]:
                        record["said"] = word
                    moves.append(record)
                    if move == SWAP_SIDES:
                        players.reverse()
                    for c in (BLACK, WHITE):
                        self._talk(players[c], c, lambda e: self._setup(e, board, False))
                    continue
                board.play(move, colour)
                record["move"] = board.move_name(move)
                moves.append(record)
                if board.winner() is None:
                    other = 1 - colour
                    self._talk(players[other], other, lambda e: e.ok(
                        f"play {COLOUR_WORDS[colour]} {record['move']}", r.command_timeout))
            winner_colour = board.winner()
            reason, detail = "connection", ""
        except _Forfeit as forfeit:
            if should_stop():
                return None
            winner_colour = 1 - forfeit.colour
            reason, detail = forfeit.reason, forfeit.detail
        assert winner_colour is not None
        return GameResult(
            game=spec.index, black=spec.black, white=spec.white, opening=list(spec.opening),
            opening_index=spec.opening_index, size=f"{r.width}x{r.height}",
            winner=players[winner_colour], loser=players[1 - winner_colour],
            winner_colour=COLOUR_NAMES[winner_colour], reason=reason, detail=detail,
            moves=moves, seconds={k: round(v, 3) for k, v in seconds.items()})

    def _talk(self, name: str, colour: int, action: Callable[[EngineProcess], object]) -> None:
        """Run ``action`` on the engine; any failure forfeits the game for it."""
        engine = self._engine(name, colour)
        try:
            action(engine)
        except EngineError as exc:
            self.discard_engine(name)
            raise _Forfeit(colour, exc.reason, exc.detail) from None

    def _genmove(self, board: Board, name: str, colour: int,
                 allowed: float) -> tuple[int, str, float]:
        """Ask for a move within ``allowed`` seconds (and the grace) and check it; returns
        (move, what the engine said, seconds)."""
        r = self.rules
        engine = self._engine(name, colour)
        word = COLOUR_WORDS[colour]
        try:
            self._time_left(engine, colour, allowed)
            started = time.monotonic()
            ok, text = engine.send(f"genmove {word}", allowed + r.grace)
            used = time.monotonic() - started
        except EngineError as exc:
            self.discard_engine(name)
            detail = exc.detail
            if exc.reason == "timeout":
                detail = (f"no move within {allowed:g} s + {r.grace:g} s grace"
                          + (" (its game clock)" if r.main_time else ""))
            raise _Forfeit(colour, exc.reason, detail) from None
        said = text.strip()
        if not ok:
            raise _Forfeit(colour, "refused", f"genmove {word} answered '? {said}'")
        low = said.lower()
        if low == "resign":
            raise _Forfeit(colour, "resignation", "")
        if low in SWAP_WORDS:
            if not board.swap_legal(colour):
                raise _Forfeit(colour, "illegal", f"{said}: swap is not legal here")
            move = SWAP_PIECES if board.width == board.height else SWAP_SIDES
            return move, low, used
        if not said or len(said.split()) != 1:
            raise _Forfeit(colour, "illegal", f"not a move: {said[:60]!r}")
        try:
            move = board.parse_move(low)
            reason = board.check(colour, move)
        except ValueError as exc:
            raise _Forfeit(colour, "illegal", f"{said[:60]}: {exc}") from None
        if reason is not None:
            raise _Forfeit(colour, "illegal", f"{said}: {reason}")
        return move, low, used


def new_board(engine: EngineProcess, width: int, height: int, quirks: dict[str, bool],
              timeout: float) -> None:
    """``boardsize W H`` and ``clear_board``; an engine that refuses two arguments on a
    square board (Benzene's dialect) gets ``boardsize N``, now and ever after (``quirks``)."""
    if not quirks.get("boardsize_one_arg"):
        ok, text = engine.send(f"boardsize {width} {height}", timeout)
        if not ok:
            if width != height:
                raise EngineError("refused", f"boardsize {width} {height}: {text}")
            quirks["boardsize_one_arg"] = True
    if quirks.get("boardsize_one_arg"):
        engine.ok(f"boardsize {width}", timeout)
    engine.ok("clear_board", timeout)


def play_position(engine: EngineProcess, board: Board, timeout: float) -> None:
    """Play ``board``'s stones on the engine's empty board (see ``_position``)."""
    for colour, move in _position(board):
        engine.ok(f"play {COLOUR_WORDS[colour]} {board.move_name(move)}", timeout)


def _position(board: Board) -> list[tuple[int, int]]:
    """The moves that rebuild ``board``: its history, or after a swap its stones alone (a
    swap is always the second move, so one stone, and its colour leaves the right side to
    move)."""
    if any(move < 0 for _, move in board.history):
        return [(colour, cell) for colour in (BLACK, WHITE)
                for cell in board.geo.iter_bits(board.stones[colour])]
    return list(board.history)


def replay(result: GameResult, width: int, height: int, swap: bool = True) -> Board:
    """The final board of a recorded game (for checks and reports)."""
    board = Board(width, height, allow_swap=swap)
    for m in result.moves:
        colour = BLACK if m["colour"] == "black" else WHITE
        try:
            board.play(board.parse_move(m["move"]), colour)
        except (ValueError, IllegalMove) as exc:
            raise ValueError(f"game {result.game}: {exc}") from None
    return board
