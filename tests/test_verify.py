"""The runner's check of records played elsewhere (protocol/match/verify.py): real records from
real matches pass unchanged, and every kind of false record a worker could send is caught."""
from __future__ import annotations

import copy
import json

import pytest

from protocol.match.referee import GameResult, Rules, replay
from protocol.match.runner import MatchConfig
from protocol.match.verify import RecordError, check_record
from tests.test_match import broken, ours, run_match


def _played(out, *args: str) -> tuple[list[dict], list, Rules]:
    proc = run_match(out, *args)
    assert proc.returncode == 0, proc.stderr
    stored = json.loads((out / "match.json").read_text())
    main_time, increment = stored.get("game_time", (0.0, 0.0))
    rules = Rules(stored["width"], stored["height"], stored["time"], 1.0, stored["swap"],
                  main_time=main_time, increment=increment)
    config = MatchConfig(stored["engines"], rules, [tuple(o) for o in stored["openings"]],
                         stored["games"], stored["init"])
    records = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    return records, config.schedule(), rules


@pytest.fixture(scope="module")
def swap_games(tmp_path_factory):
    """Games on 4x4 from a winning opening (on the short diagonal), which our engine
    swaps."""
    out = tmp_path_factory.mktemp("swap")
    openings = out / "openings.txt"
    openings.write_text("b3\n")
    return _played(out, "--engine", f"a={ours('--time', '0.05')}",
                   "--engine", f"b={ours('--time', '0.05')}", "--size", "4", "--swap",
                   "--openings", str(openings), "--games", "2", "--time", "0.3")


@pytest.fixture(scope="module")
def forfeits(tmp_path_factory):
    out = tmp_path_factory.mktemp("forfeit")
    return _played(out, "--engine", f"good={ours('--time', '0.05')}",
                   "--engine", f"bad={broken('illegal')}", "--size", "4", "--games", "2",
                   "--time", "0.3")


@pytest.fixture(scope="module")
def clock_games(tmp_path_factory):
    """Games under a game clock of 1+0.05 s: ours against an engine that takes 0.3 s a
    move, whose clock runs down to the increment (the 1 s grace carries it on)."""
    out = tmp_path_factory.mktemp("clock")
    slow = f"{broken('none')} --delay 0.3"
    return _played(out, "--engine", f"good={ours()}", "--engine", f"slow={slow}",
                   "--size", "5", "--games", "2", "--game-time", "1+0.05")


def test_real_records_pass_unchanged(swap_games, forfeits, clock_games):
    assert clock_games[2].main_time == 1.0 and clock_games[2].increment == 0.05
    assert all("left" in m for r in clock_games[0] for m in r["moves"] if m["by"] != "opening")
    swaps = 0
    for records, schedule, rules in (swap_games, forfeits, clock_games):
        for record in records:
            result = check_record(record, schedule[record["game"]], rules)
            assert {**result.to_json(), "sgf": record["sgf"]} == record
            swaps += any(m["move"] == "swap-pieces" for m in record["moves"])
    assert swaps == 2  # both swap games were swapped
    assert {r["reason"] for r in forfeits[0]} == {"illegal"}


def _empty_cells(record: dict) -> list[str]:
    """The cells still empty at the end of the recorded game."""
    board = replay(GameResult.from_json(record), 4, 4)
    return [board.move_name(c) for c in board.geo.iter_bits(board.empty)]


def _empty_cell(record: dict) -> str:
    return _empty_cells(record)[0]


def _winning(records: list[dict], need_empty: bool = False) -> dict:
    """A game won on the board; with ``need_empty``, one that left a cell empty (a 4x4 game
    may fill the board)."""
    won = [r for r in records if r["reason"] == "connection"]
    if need_empty:
        won = [r for r in won if _empty_cells(r)]
        if not won:
            pytest.skip("both games filled the board: no empty cell to play after the win")
    return won[0]


TAMPERED = {
    "winner swapped": lambda r: r.update(winner=r["loser"], loser=r["winner"]),
    "colour of the winner": lambda r: r.update(
        winner_colour="white" if r["winner_colour"] == "black" else "black"),
    "connection not on the board": lambda r: r["moves"].pop(),
    "move after the win": lambda r: r["moves"].append(
        {**r["moves"][-2], "move": _empty_cell(r)}),
    "occupied cell": lambda r: r["moves"][-1].update(move=r["moves"][-3]["move"]),
    "off the board": lambda r: r["moves"][-1].update(move="e5"),
    "out of turn": lambda r: r["moves"][-1].update(
        colour="white" if r["moves"][-1]["colour"] == "black" else "black"),
    "played by the wrong engine": lambda r: r["moves"][-1].update(
        by=r["loser"] if r["moves"][-1]["by"] == r["winner"] else r["winner"]),
    "over the time limit": lambda r: r["moves"][-1].update(seconds=9.0),
    "negative seconds": lambda r: r["moves"][-1].update(seconds=-0.1),
    "thinking time in all": lambda r: r["seconds"].update({r["winner"]: 5.0}),
    "other opening": lambda r: r.update(opening=["c3"]),
    "other game": lambda r: r.update(game=r["game"] + 1),
    "other engines": lambda r: r.update(black=r["white"]),
    "other size": lambda r: r.update(size="5x5"),
    "forfeit of a finished game": lambda r: r.update(reason="timeout"),
    "unknown reason": lambda r: r.update(reason="agreement"),
    "not a record": lambda r: r.clear(),
}


@pytest.mark.parametrize("how", sorted(TAMPERED))
def test_a_false_record_is_rejected(swap_games, how):
    records, schedule, rules = swap_games
    record = copy.deepcopy(_winning(records, need_empty=how == "move after the win"))
    spec = schedule[record["game"]]
    check_record(copy.deepcopy(record), spec, rules)  # the original passes
    TAMPERED[how](record)
    with pytest.raises(RecordError):
        check_record(record, spec, rules)


CLOCK_TAMPERED = {
    "a move past the clock": lambda r: next(
        m for m in r["moves"] if m["by"] == r["loser"]).update(seconds=2.5),
    "a clock that gained time": lambda r: next(
        m for m in r["moves"] if m["by"] == r["winner"]).update(left=9.0),
    "no clock": lambda r: next(m for m in r["moves"] if m["by"] == r["winner"]).pop("left"),
}


@pytest.mark.parametrize("how", sorted(CLOCK_TAMPERED))
def test_a_false_clock_is_rejected(clock_games, how):
    records, schedule, rules = clock_games
    record = copy.deepcopy(records[0])
    spec = schedule[record["game"]]
    check_record(copy.deepcopy(record), spec, rules)  # the original passes
    CLOCK_TAMPERED[how](record)
    with pytest.raises(RecordError):
        check_record(record, spec, rules)


def test_forfeits_must_fit_the_position(forfeits):
    records, schedule, rules = forfeits
    record = copy.deepcopy(records[0])
    spec = schedule[record["game"]]
    # an illegal move is blamed on the engine to move, never on the other one
    last = record["moves"][-1]["colour"]
    record["moves"].append({"colour": "white" if last == "black" else "black",
                            "move": _empty_cell(record),
                            "by": record["loser"], "seconds": 0.01})
    with pytest.raises(RecordError):
        check_record(record, spec, rules)
