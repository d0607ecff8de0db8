#!/usr/bin/env python3
"""Soak: one engine process plays many fast games in a row against itself, with
``clear_board`` between them, while this script checks every move on its own board and
watches the process's memory (resident set size from /proc).

    python scripts/soak.py                      # 500 games, 9x9, 0.05 s/move
    python scripts/soak.py --games 50 --size 7  # a shorter run

Each game starts from a random opening of ``--opening-plies`` stones (from ``--seed``), so
the games differ and the engine's session-long tables (the solver's proofs) keep growing
until their caps.  The RSS is printed every ``--every`` games and at the start, middle and
end; ``--json FILE`` writes the figures (``"game N"``: the RSS after game N).  Exit status 1 on an illegal move, a refused
genmove, a wrong ``final_score`` or a crash.
"""
from __future__ import annotations

import json
import os
import random
import shlex
import sys
import time
from typing import Optional

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine.board import COLOUR_NAMES, Board  # noqa: E402
from protocol.match.controller import EngineError, EngineProcess  # noqa: E402


def rss_mb(pid: int) -> float:
    """Resident set size of process ``pid`` in MiB (Linux /proc)."""
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def opening(board: Board, plies: int, rng: random.Random) -> list[int]:
    """Random stones, alternately from black, that do not decide the game."""
    while True:
        cells = rng.sample(list(board.geo.cells), plies)
        trial = board.copy()
        for cell in cells:
            trial.play(cell)
        if trial.winner() is None:
            return cells


class Failure(Exception):
    """The engine did something this script does not accept."""


def play_game(engine: EngineProcess, size: int, plies: int, move_time: float, grace: float,
              rng: random.Random) -> int:
    """One game from a random opening; returns the number of engine moves."""
    engine.ok("clear_board")
    engine.send(f"time_settings 0 {move_time:g} 1")  # as hex-match: --time per move
    board = Board(size, size)
    for cell in opening(board, plies, rng):
        colour = board.to_move
        board.play(cell, colour)
        engine.ok(f"play {COLOUR_NAMES[colour][0]} {board.move_name(cell)}")
    moves = 0
    while board.winner() is None:
        colour = board.to_move
        word = COLOUR_NAMES[colour][0]
        engine.send(f"time_left {word} {move_time:g} 1")
        ok, text = engine.send(f"genmove {word}", move_time + grace)
        if not ok:
            raise Failure(f"genmove {word} refused: {text}")
        try:
            move = board.parse_move(text)
        except ValueError as exc:
            raise Failure(f"genmove {word} answered {text!r}: {exc}") from None
        reason = board.check(colour, move)
        if reason is not None:
            raise Failure(f"genmove {word} answered {text}: {reason}")
        board.play(move, colour)
        moves += 1
    expected = "B+" if board.winner() == 0 else "W+"
    score = engine.ok("final_score")
    if score != expected:
        raise Failure(f"final_score {score!r}, the board says {expected}")
    return moves


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--engine", "command", default=None,
              help="Engine command [default: this Python's -m hexengine --quiet].")
@click.option("--games", type=click.IntRange(min=1), default=500, show_default=True)
@click.option("--size", type=click.IntRange(2, 19), default=9, show_default=True)
@click.option("--time", "move_time", type=float, default=0.05, show_default=True,
              help="Seconds per move (time_settings 0 S 1 and time_left C S 1, as hex-match).")
@click.option("--grace", type=float, default=2.0, show_default=True,
              help="Seconds beyond --time before a genmove counts as hung.")
@click.option("--opening-plies", type=click.IntRange(min=0), default=2, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--every", type=click.IntRange(min=1), default=50, show_default=True,
              help="Print the RSS every N games.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None,
              help="Write the figures here.")
def main(command: Optional[str], games: int, size: int, move_time: float, grace: float,
         opening_plies: int, seed: int, every: int, json_path: Optional[str]) -> None:
    """One engine process, many games in a row: every move legal, memory flat?"""
    if command is None:
        command = shlex.join([sys.executable, "-m", "hexengine", "--quiet"])
    engine = EngineProcess(command, "soak")
    rng = random.Random(seed)
    figures: dict = {"command": command, "games": games, "size": size, "time": move_time,
                     "rss_mb": {}}
    started = time.monotonic()
    total_moves = 0
    try:
        engine.ok("name", 60)
        engine.ok(f"boardsize {size} {size}")
        figures["rss_mb"]["start"] = round(rss_mb(engine.proc.pid), 1)
        click.echo(f"start: RSS {figures['rss_mb']['start']:.1f} MiB ({command})")
        for game in range(1, games + 1):
            total_moves += play_game(engine, size, opening_plies, move_time, grace, rng)
            if game == 1:  # after the first search: the modules it loads are in
                figures["rss_mb"]["first_game"] = round(rss_mb(engine.proc.pid), 1)
            if game == (games + 1) // 2:
                figures["rss_mb"]["middle"] = round(rss_mb(engine.proc.pid), 1)
            if game % every == 0 or game == games:
                minutes = (time.monotonic() - started) / 60
                rss = rss_mb(engine.proc.pid)
                figures["rss_mb"][f"game {game}"] = round(rss, 1)
                click.echo(f"game {game}: RSS {rss:.1f} MiB, {total_moves} moves, "
                           f"{minutes:.1f} min")
        figures["rss_mb"]["end"] = round(rss_mb(engine.proc.pid), 1)
    except (EngineError, Failure) as exc:
        click.echo(f"FAILED after {total_moves} moves: {exc}", err=True)
        engine.kill()
        sys.exit(1)
    engine.close()
    figures["moves"] = total_moves
    figures["minutes"] = round((time.monotonic() - started) / 60, 1)
    r = figures["rss_mb"]
    click.echo(f"{games} games, {total_moves} engine moves, all legal; RSS start "
               f"{r['start']:.1f} MiB, after game 1 {r['first_game']:.1f} MiB, middle "
               f"{r['middle']:.1f} MiB, end {r['end']:.1f} MiB; {figures['minutes']} min")
    if json_path:
        with open(json_path, "w", encoding="utf-8") as f:
            json.dump(figures, f, indent=1)
            f.write("\n")


if __name__ == "__main__":
    main()
