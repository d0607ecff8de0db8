#!/usr/bin/env python3
"""Check a finished match for perfect play: did ENGINE hold the win in every game it started
on the winning side?

Each game's opening (the moves marked ``opening`` in results.jsonl) is solved with the DFPN
solver; the side to move after it wins or loses against best play.  A game in which ENGINE
had the winning side and lost is a perfect-play failure, listed with its moves.  So is a game
it won only because the opponent failed to move (crash, refusal) in a position the opponent
had won: MoHex fails in won positions as well as lost ones, so every forfeit's final position
is solved too.  Games whose opening the solver does not settle in ``--limit`` seconds are
counted apart.

    python scripts/perfect_play.py matches/ours-wolve-5x5/results.jsonl --engine ours

On boards too big to solve openings, ``--forfeits-only`` checks just the games ENGINE won by
the opponent's forfeit: was the opponent's position lost when it failed to move?

    python scripts/perfect_play.py matches/ours-vs-wolve-9x9/results.jsonl --engine ours \
        --forfeits-only

``--turning-points`` asks where ENGINE's lost games were decided: at each of its turns from
move ``--from`` on, the position is solved in ``--limit`` seconds, until the solver proves
it lost; a win proved before that is a win ENGINE threw away, and the last turn proved won
is where it threw it (``--blunders FILE`` writes those positions in the position files'
format, for ``genmove_check.py``).

    python scripts/perfect_play.py matches/ours-vs-wolve-9x9/results.jsonl --engine ours \
        --turning-points --limit 1.5

``--solver CMD`` solves the turning points with another HTP engine's ``dfpn-solve-state
COLOUR`` instead (Benzene's engines and ours answer it), ``--solver-init`` setting its time
limit, e.g. for Wolve ``--solver-init "param_dfpn timelimit {seconds}"`` (``{seconds}`` is
``--limit``); for ours ``"param_hexengine solver_time {seconds}"``.
"""
from __future__ import annotations

import json
import os
import sys

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.board import BLACK, WHITE  # noqa: E402
from hexengine.geometry import geometry  # noqa: E402
from hexengine.solver import Solver, knowledge_by_name  # noqa: E402
from protocol.match.judge import DfpnJudge  # noqa: E402

COLOURS = {"black": BLACK, "white": WHITE}


def _geometry(game: dict):
    """The board of a results.jsonl record (its ``size`` is WIDTHxHEIGHT)."""
    width, height = (int(x) for x in game["size"].split("x"))
    return geometry(width, height)


def _opening(game: dict) -> tuple[str, ...]:
    """The record's opening moves (those the runner played, not the engines)."""
    return tuple(m["move"] for m in game["moves"] if m["by"] == "opening")


@click.command()
@click.argument("results", type=click.Path(exists=True, dir_okay=False))
@click.option("--engine", required=True, help="The engine whose play is checked.")
@click.option("--limit", type=float, default=120.0, show_default=True,
              help="Seconds to solve each opening.")
@click.option("--forfeits-only", is_flag=True,
              help="Only check the games ENGINE won by a forfeit (any board size).")
@click.option("--turning-points", is_flag=True,
              help="For each game ENGINE lost: the first of its turns proved won (a win "
                   "thrown away) and the first proved lost.")
@click.option("--from", "first", type=int, default=6, show_default=True,
              help="With --turning-points: the first move number (0-based) solved.")
@click.option("--solver", "solver_command", default=None, metavar="CMD",
              help="With --turning-points: solve with this HTP engine's dfpn-solve-state.")
@click.option("--solver-init", multiple=True, metavar="HTP",
              help="Commands sent to --solver once ({seconds} is --limit); repeatable.")
@click.option("--blunders", type=click.Path(dir_okay=False, writable=True), default=None,
              help="With --turning-points: write the last position of each lost game "
                   "proved won at ENGINE's turn (a position file of genmove_check.py).")
def main(results: str, engine: str, limit: float, forfeits_only: bool,
         turning_points: bool, first: int, solver_command: str | None,
         solver_init: tuple[str, ...], blunders: str | None) -> None:
    with open(results) as f:
        games = [json.loads(line) for line in f if line.strip()]
    kernels.start(wait=True)  # the compiled H-search, as the engine's solver uses it
    solver = Solver(knowledge_by_name())
    if forfeits_only:
        sys.exit(check_forfeits(games, engine, solver, limit))
    if turning_points:
        if solver_command:
            external = DfpnJudge(solver_command, [c.format(seconds=limit) for c in solver_init],
                                 name="solver", clear_tt=False)
            try:
                sys.exit(check_turning_points(games, engine, limit, first, lambda: external,
                                              blunders))
            finally:
                external.close()
        sys.exit(check_turning_points(games, engine, limit, first, blunders=blunders))
    verdicts: dict[tuple[str, ...], int | None] = {}
    winning_side = lost = unknown = forfeits = forfeits_unknown = 0
    failures = []
    for game in games:
        if engine not in (game["black"], game["white"]):
            continue
        geo = _geometry(game)
        opening = _opening(game)
        if (game["size"],) + opening not in verdicts:
            stones = geo.stones(opening)
            to_move = BLACK if len(opening) % 2 == 0 else WHITE
            verdicts[(game["size"],) + opening] = solver.solve(
                geo, stones, to_move, seconds=limit).winner
        winner = verdicts[(game["size"],) + opening]
        if winner is None:
            unknown += 1
            continue
        ours = COLOURS["black" if game["black"] == engine else "white"]
        if ours != winner:
            continue
        winning_side += 1
        if game["winner"] != engine:
            lost += 1
            failures.append((game, "lost"))
        elif game["reason"] != "connection":
            # the opponent failed to move; MoHex does so in won positions too, so the
            # final position says whether ours still held the win
            final = _final_verdict(solver, game, limit)
            if final == ours:
                forfeits += 1
            elif final is None:
                forfeits_unknown += 1
            else:
                lost += 1
                failures.append((game, "the win was lost; the opponent forfeited a won game"))
    print(f"{engine}: {winning_side} games on the winning side of a solved opening, "
          f"{winning_side - lost - forfeits_unknown} held the win "
          f"({winning_side - lost - forfeits - forfeits_unknown} to a connection, {forfeits} "
          f"to the opponent's forfeit in a position it had lost), {lost} did not; "
          f"{forfeits_unknown} forfeits in unsolved positions; "
          f"{unknown} games with unsolved openings")
    for game, why in failures:
        moves = " ".join(m["move"] for m in game["moves"])
        print(f"  game {game['game']} ({game['reason']}; {why}): {moves}")
    sys.exit(1 if lost else 0)


def _final_verdict(solver: Solver, game: dict, limit: float):
    """The winner of the game's final position with the side that did not move to move."""
    geo = _geometry(game)
    moves = [m["move"] for m in game["moves"]]
    return solver.solve(geo, geo.stones(moves), len(moves) % 2, seconds=limit).winner


def check_forfeits(games: list[dict], engine: str, solver: Solver, limit: float) -> int:
    """Print, for each game ENGINE won by a forfeit, whether the forfeiting side had lost;
    returns 1 if any forfeit was in a position the forfeiting side had won."""
    held = won = unknown = 0
    for game in games:
        if game["winner"] != engine or game["reason"] == "connection":
            continue
        ours = COLOURS["black" if game["black"] == engine else "white"]
        final = _final_verdict(solver, game, limit)
        verdict = "unsolved" if final is None else (
            "lost for the forfeiting side" if final == ours else "WON for the forfeiting side")
        held += final == ours
        won += final is not None and final != ours
        unknown += final is None
        print(f"  game {game['game']} ({game['reason']}, opening "
              f"{' '.join(_opening(game))}, "
              f"{len(game['moves'])} moves): {verdict}")
    print(f"{engine}: {held + won + unknown} wins by forfeit: {held} in positions the opponent "
          f"had lost, {won} in positions it had won, {unknown} unsolved")
    return 1 if won else 0


def check_turning_points(games: list[dict], engine: str, limit: float, first: int,
                         new_solver=None, blunders: str | None = None) -> int:
    """Print, for each game ENGINE lost, its first and last turns proved won and its first
    proved lost (move numbers from 0, solve times; the move played at the last won turn);
    0 always (a report, not a check).  ``new_solver`` makes each game's solver (ours, a
    fresh table per game, by default); ``blunders`` is a file for the last won positions."""
    thrown = lost_games = 0
    lines = []
    lost_from = []  # the move of each game's first turn proved lost
    for game in games:
        if game["winner"] == engine:
            continue
        lost_games += 1
        geo = _geometry(game)
        ours = COLOURS["black" if game["black"] == engine else "white"]
        solver = new_solver() if new_solver else Solver(knowledge_by_name())
        moves = [m["move"] for m in game["moves"]]
        won_at = last_won = lost_at = None
        for i in range(first, len(moves)):
            if i % 2 != ours:
                continue
            result = solver.solve(geo, geo.stones(moves[:i]), ours, seconds=limit)
            if result.winner == ours:
                won_at = won_at or (i, result.elapsed)
                last_won = i
            elif result.winner is not None:
                lost_at = (i, result.elapsed)
                break
        thrown += won_at is not None
        if lost_at:
            lost_from.append(lost_at[0])
        say = [f"won at move {won_at[0]} ({won_at[1]:.2f} s)"] if won_at else []
        if won_at:
            say.append(f"last won at move {last_won} ({moves[last_won]} played)")
            colour = "black" if ours == BLACK else "white"
            lines.append(" ".join([str(geo.width), *moves[:last_won], colour, "=", colour])
                         + f"    # game {game['game']}, ply {last_won}, {moves[last_won]} "
                         "played")
        say.append(f"lost at move {lost_at[0]} ({lost_at[1]:.2f} s)" if lost_at
                   else "never proved lost")
        print(f"  game {game['game']} (opening "
              f"{' '.join(_opening(game))}): "
              f"{', '.join(say)}")
    print(f"{engine}: {lost_games} games lost, {thrown} of them from a position proved won")
    if lost_from:
        lost_from.sort()
        quartiles = [lost_from[(len(lost_from) - 1) * k // 4] for k in (1, 2, 3)]
        print(f"first turn proved lost: {len(lost_from)} games, move {quartiles[1]} in the "
              f"median (quartiles {quartiles[0]} and {quartiles[2]})")
    if blunders:
        with open(blunders, "w") as handle:
            handle.write("# The last position of each lost game proved won at the loser's "
                         "turn (perfect_play.py --turning-points --blunders)\n")
            handle.writelines(line + "\n" for line in lines)
    return 0


if __name__ == "__main__":
    main()
