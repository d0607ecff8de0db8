#!/usr/bin/env python3
"""Does ``genmove`` keep a won position won?  An engine's moves checked by a judge's DFPN.

For every position of ``solver_race.py``'s position files whose known winner is the side
to move, the engine (started once, ``dfpn-clear-tt`` and a new board before each
position, when it knows them) is asked ``genmove``; a judge (any HTP engine with
``dfpn-solve-state``, e.g. Wolve) then solves the position after that move, the opponent
to move, afresh.  A move is a *win kept* when the judge proves the opponent lost, *thrown
away* when it proves the opponent won, *unknown* otherwise.  Prints a line a position, a
summary, and exits 0.

    python scripts/genmove_check.py scripts/positions/11x11-games.txt \\
        --engine "hexengine --time 10 --quiet" --judge "wolve --use-logfile=0 --quiet"
"""
from __future__ import annotations

import os
import sys
import time

import click

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solver_race import read_positions  # noqa: E402

from hexengine.geometry import geometry  # noqa: E402
from protocol.match.controller import EngineError, start_engine  # noqa: E402
from protocol.match.cli import judge_from, judge_options  # noqa: E402
from protocol.match.referee import COLOUR_WORDS, new_board  # noqa: E402


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--engine", "command", required=True, help="The engine whose moves are checked.")
@click.option("--init", multiple=True, help="Commands sent to the engine once it starts.")
@click.option("--move-timeout", type=float, default=60.0, show_default=True,
              help="Seconds a genmove may take before the position counts as an error.")
@judge_options(30.0, "Seconds the judge has for each position after the move.")
def main(files: tuple[str, ...], command: str, init: tuple[str, ...], move_timeout: float,
         judge: str, judge_init: tuple[str, ...], limit: float) -> None:
    referee = judge_from(judge, judge_init, limit)
    engine = None
    counts = {"kept": 0, "thrown away": 0, "unknown": 0, "error": 0}
    took = []
    try:
        for path in files:
            for pos in read_positions(path):
                if pos.expect != pos.to_move:
                    continue
                try:
                    if engine is None or not engine.alive():
                        engine = start_engine(command, "engine", list(init), 60.0)
                        quirks: dict[str, bool] = {}
                    engine.send("dfpn-clear-tt", 30.0)  # '?' from an engine without it
                    new_board(engine, pos.width, pos.height, quirks, 30.0)
                    for colour, cell in pos.moves:
                        engine.ok(f"play {COLOUR_WORDS[colour]} {cell}", 30.0)
                    started = time.monotonic()
                    move = engine.ok(f"genmove {COLOUR_WORDS[pos.to_move]}",
                                     move_timeout).strip().lower()
                    took.append(time.monotonic() - started)
                except EngineError as exc:
                    if engine is not None:
                        engine.kill()
                    engine = None
                    counts["error"] += 1
                    print(f"{pos.label}: error {exc}", flush=True)
                    continue
                geo = geometry(pos.width, pos.height)
                stones = geo.stones(placed=pos.moves + [(pos.to_move, move)])
                winner = referee.solve(geo, stones, 1 - pos.to_move, limit).winner
                verdict = ("unknown" if winner is None else
                           "kept" if winner == pos.to_move else "thrown away")
                counts[verdict] += 1
                print(f"{pos.label}: {move} ({took[-1]:.1f} s), win {verdict}", flush=True)
    finally:
        if engine is not None:
            engine.close()
        referee.close()
    total = sum(counts.values())
    longest = max(took, default=0.0)
    print(f"{total} won positions: kept {counts['kept']} "
          f"({100 * counts['kept'] / max(1, total):.0f} %), thrown away "
          f"{counts['thrown away']}, unknown {counts['unknown']}, errors {counts['error']}; "
          f"genmove mean {sum(took) / max(1, len(took)):.1f} s, longest {longest:.1f} s")


if __name__ == "__main__":
    main()
