"""The runner's check of a game record played elsewhere (on a cluster worker).

A record is accepted only if it is a game of the schedule played by the rules: the runner
replays every move on its own board (in turn, legal, by the engine that held that colour,
within the time limit), and the result must follow from the final position: a connection
only when the board shows it, a forfeit only while the game was still open, a resignation or
an illegal move only by the engine to move.  So a worker cannot report a result it did not
play.  The accepted result is rebuilt from the checked fields alone.
"""
from __future__ import annotations

from numbers import Real

from hexengine.board import SWAP_SIDES, Board, IllegalMove

from .referee import COLOUR_NAMES, FORFEITS, Clock, GameResult, GameSpec, Rules

# every way a game can end, and those that only the engine to move can cause
REASONS = {"connection", "resignation", *FORFEITS}
BY_ENGINE_TO_MOVE = {"resignation", "illegal"}
SLACK = 0.01  # recorded seconds are rounded to milliseconds
CLOCK_ROUNDING = 0.0015  # a clock reading against ours: three roundings to the millisecond


class RecordError(ValueError):
    """The record is not a game of this match played by its rules; the message says why."""


def _colour(word: object, where: str) -> int:
    if word not in COLOUR_NAMES:
        raise RecordError(f"{where}: colour {word!r} is neither black nor white")
    return COLOUR_NAMES.index(word)


def check_record(data: object, spec: GameSpec, rules: Rules) -> GameResult:
    """The result of ``spec`` reported in ``data`` (a results.jsonl object), checked move by
    move; raises RecordError naming the first thing that is wrong."""
    if not isinstance(data, dict):
        raise RecordError(f"game {spec.index + 1}: the record is not an object")
    try:
        claimed = GameResult.from_json(data)
    except TypeError as exc:
        raise RecordError(f"game {spec.index + 1}: {exc}") from None
    where = f"game {spec.index + 1}"
    expected = {"game": spec.index, "black": spec.black, "white": spec.white,
                "opening": list(spec.opening), "opening_index": spec.opening_index,
                "size": f"{rules.width}x{rules.height}"}
    for key, value in expected.items():
        if getattr(claimed, key) != value:
            raise RecordError(f"{where}: {key} is {getattr(claimed, key)!r}, the schedule "
                              f"says {value!r}")
    if not isinstance(claimed.moves, list):
        raise RecordError(f"{where}: moves is not a list")
    board = Board(rules.width, rules.height, allow_swap=rules.swap)
    players = [spec.black, spec.white]
    seconds = {spec.black: 0.0, spec.white: 0.0}
    moves: list[dict] = []
    clock = Clock(rules, players)
    for i, m in enumerate(claimed.moves):
        at = f"{where}, move {i + 1}"
        if not isinstance(m, dict) or not isinstance(m.get("move"), str):
            raise RecordError(f"{at}: not a move record")
        if board.winner() is not None:
            raise RecordError(f"{at}: played after the game was won")
        colour = _colour(m.get("colour"), at)
        if colour != board.to_move:
            raise RecordError(f"{at}: {COLOUR_NAMES[colour]} played out of turn")
        try:
            move = board.parse_move(m["move"])
            board.play(move, colour)
        except (ValueError, IllegalMove) as exc:
            raise RecordError(f"{at}: {m['move']!r} is illegal: {exc}") from None
        if m["move"] != board.move_name(move):
            raise RecordError(f"{at}: {m['move']!r} is not written as the referee writes it")
        record = {"colour": COLOUR_NAMES[colour], "move": m["move"], "by": m.get("by")}
        if i < len(spec.opening):
            if m["move"] != spec.opening[i] or m.get("by") != "opening":
                raise RecordError(f"{at}: the opening is {' '.join(spec.opening)}")
        else:
            if m.get("by") != players[colour]:
                raise RecordError(f"{at}: {COLOUR_NAMES[colour]} was {players[colour]}, "
                                  f"not {m.get('by')!r}")
            used = m.get("seconds")
            limit = clock.allowed(players[colour]) + rules.grace + SLACK
            if isinstance(used, bool) or not isinstance(used, Real) or not 0 <= used <= limit:
                raise RecordError(f"{at}: {used!r} seconds is not a move within the time")
            record["seconds"] = used
            seconds[players[colour]] += used
            clock.spend(players[colour], used)
            if rules.main_time:
                # the referee's reading, from unrounded times; ours starts from its reading
                # before this move, so they differ by three roundings to the millisecond
                left, count = m.get("left"), clock.left[players[colour]]
                if (isinstance(left, bool) or not isinstance(left, Real)
                        or abs(left - count) > CLOCK_ROUNDING):
                    raise RecordError(f"{at}: the clock left {left!r} s, the moves leave "
                                      f"{count:.3f} s")
                record["left"] = left
                clock.left[players[colour]] = left
            if isinstance(m.get("said"), str):
                record["said"] = m["said"]
        moves.append(record)
        if move == SWAP_SIDES:
            players.reverse()
    if len(moves) < len(spec.opening):
        raise RecordError(f"{where}: the opening was not played out")
    winner = board.winner()
    if claimed.reason not in REASONS:
        raise RecordError(f"{where}: unknown reason {claimed.reason!r}")
    winner_colour = _colour(claimed.winner_colour, where)
    if claimed.reason == "connection":
        if winner != winner_colour:
            raise RecordError(f"{where}: {claimed.winner_colour} does not connect on the "
                              f"final board")
    else:
        if winner is not None:
            raise RecordError(f"{where}: {COLOUR_NAMES[winner]} had already connected, "
                              f"the game cannot end by {claimed.reason}")
        if claimed.reason in BY_ENGINE_TO_MOVE and 1 - winner_colour != board.to_move:
            raise RecordError(f"{where}: {claimed.reason} by the engine not to move")
    if (claimed.winner, claimed.loser) != (players[winner_colour], players[1 - winner_colour]):
        raise RecordError(f"{where}: {claimed.winner_colour} was {players[winner_colour]}, "
                          f"not {claimed.winner!r}")
    totals = claimed.seconds if isinstance(claimed.seconds, dict) else {}
    for name, used in seconds.items():
        given = totals.get(name)
        moved = sum(1 for m in moves if m["by"] == name)
        if (isinstance(given, bool) or not isinstance(given, Real)
                or abs(given - used) > 0.0005 * moved + 0.001):
            raise RecordError(f"{where}: {name} thought {given!r} s in all, its moves add up "
                              f"to {used:.3f} s")
        seconds[name] = given  # the referee's sum of unrounded times
    return GameResult(
        game=spec.index, black=spec.black, white=spec.white, opening=list(spec.opening),
        opening_index=spec.opening_index, size=f"{rules.width}x{rules.height}",
        winner=players[winner_colour], loser=players[1 - winner_colour],
        winner_colour=COLOUR_NAMES[winner_colour], reason=claimed.reason,
        detail=str(claimed.detail)[:500], moves=moves,
        seconds={k: round(v, 3) for k, v in seconds.items()})

