#!/usr/bin/env python3
"""Compare two HTP engines' fill-in (the cells each may fill without changing the winner).

Each engine is given each position (``boardsize``, ``clear_board``, ``play``) and asked
its fill-in for the side to move: Benzene's ``compute-fillin COLOUR`` where the engine
knows it, else ours, ``hexengine-inferior COLOUR``.  Every cell whose code starts with
``f`` counts as filled, with the colour its code ends in (``fb``, ``fdw``, ...).  Fill-in
is what every node of a solver or search starts from: a cell filled is a cell neither
side's moves nor connections need to consider.

It prints, per engine, the cells filled and the positions where it fills more than the
other.  ``--show N`` draws N positions where the fill-ins differ, with each engine's
extra cells marked.

The positions come from position files in ``scripts/solver_race.py``'s format and from
``--position`` (the same format, one position a line).  With ``--expand SECONDS`` each
position is replaced by the positions our own solver expands while it solves that one
(at most SECONDS each): the positions where a solver's knowledge is spent.

    python scripts/fillin_compare.py --position "6 f3 white" --position "6 a4 white" \\
        --expand 60 --engine ours="hexengine" \\
        --engine wolve="wolve --use-logfile=0" --show 3
"""
from __future__ import annotations

import dataclasses
import os
import sys
from dataclasses import dataclass
from typing import Optional

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from solver_race import Position, parse_position, read_positions  # noqa: E402

from hexengine import kernels  # noqa: E402
from hexengine.board import BLACK, WHITE  # noqa: E402
from hexengine.geometry import geometry  # noqa: E402
from hexengine.solver import Solver, VCKnowledge  # noqa: E402
from protocol.match.cli import engines_of  # noqa: E402
from protocol.match.controller import EngineError, EngineProcess, start_engine  # noqa: E402
from protocol.match.referee import COLOUR_NAMES, COLOUR_WORDS, new_board  # noqa: E402


@dataclass
class Tally:
    """One engine's figures over all positions."""
    filled: int = 0  # cells filled
    fills_more: int = 0  # positions where it fills more cells than the other


class _Recording(VCKnowledge):
    """Our solver's knowledge, noting every position it expands (in order, once)."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: dict[tuple[int, int, int], None] = {}

    def expand(self, geo, stones, colour):
        self.seen.setdefault((stones[0], stones[1], colour), None)
        return super().expand(geo, stones, colour)


def expanded_positions(pos: Position, seconds: float) -> list[Position]:
    """The positions our solver expands while solving ``pos`` (at most ``seconds``)."""
    geo = geometry(pos.width, pos.height)
    stones = geo.stones(placed=pos.moves)
    knowledge = _Recording()
    Solver(knowledge).solve(geo, stones, pos.to_move, seconds=seconds)
    out = []
    for black, white, colour in knowledge.seen:
        moves = [(BLACK, geo.name(c)) for c in geo.iter_bits(black)]
        moves += [(WHITE, geo.name(c)) for c in geo.iter_bits(white)]
        found = Position(pos.file, pos.line, pos.width, pos.height, moves, colour, None, "")
        out.append(dataclasses.replace(found, text=found.label))
    return out


class Asker:
    """One engine, kept running from position to position."""

    def __init__(self, name: str, command: str, init: list[str], timeout: float) -> None:
        self.name = name
        self.proc: EngineProcess = start_engine(command, name, init, timeout)
        self.timeout = timeout
        self.quirks: dict[str, bool] = {}
        known = self.proc.ok("known_command compute-fillin", timeout).strip() == "true"
        self.fill_command = "compute-fillin" if known else "hexengine-inferior"

    def fill_in(self, pos: Position) -> dict[str, int]:
        """The engine's fill-in for the side to move: cell name -> colour filled with."""
        proc, t = self.proc, self.timeout
        new_board(proc, pos.width, pos.height, self.quirks, t)
        for colour, cell in pos.moves:
            proc.ok(f"play {COLOUR_WORDS[colour]} {cell}", t)
        words = proc.ok(f"{self.fill_command} {COLOUR_NAMES[pos.to_move]}", t).split()
        filled = {}
        for cell, code in zip(words[::2], words[1::2]):
            if code.startswith("f") and code[-1] in "bw":
                filled[cell.lower()] = BLACK if code[-1] == "b" else WHITE
        return filled

    def close(self) -> None:
        self.proc.close()


def board_text(pos: Position, marks: dict[str, str]) -> str:
    """The position drawn row by row, stones as B and W, the marked cells by their mark."""
    geo = geometry(pos.width, pos.height)
    stones = {cell: "B" if colour == BLACK else "W" for colour, cell in pos.moves}
    rows = []
    for row in range(pos.height):
        cells = [geo.name(geo.index(col, row)) for col in range(pos.width)]
        rows.append(" " * row + " ".join(stones.get(c) or marks.get(c, ".") for c in cells))
    return "\n".join(rows)


def compare(positions: list[Position], askers: list[Asker], show: int
            ) -> tuple[int, dict[str, Tally], list[tuple[Position, dict[str, str]]]]:
    """Ask both engines for the fill-in of every position (each distinct position once):
    how many there were, each engine's tally, and up to ``show`` positions where the two
    differ with their cells marked."""
    tallies = {a.name: Tally() for a in askers}
    shown: list[tuple[Position, dict[str, str]]] = []
    seen = set()
    for pos in positions:
        key = (pos.width, pos.height, tuple(sorted(pos.moves)), pos.to_move)
        if key in seen:
            continue
        seen.add(key)
        filled = {a.name: a.fill_in(pos) for a in askers}
        (na, ka), (nb, kb) = filled.items()
        for name, mine, theirs in ((na, ka, kb), (nb, kb, ka)):
            tallies[name].filled += len(mine)
            tallies[name].fills_more += len(mine) > len(theirs)
        if ka != kb and len(shown) < show:
            marks = {}
            for cell in set(ka) | set(kb):
                a, b = ka.get(cell), kb.get(cell)
                marks[cell] = ("=" if a == b else "1" if b is None else "2" if a is None
                               else "x")
            shown.append((pos, marks))
    return len(seen), tallies, shown


@click.command()
@click.argument("files", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@click.option("--position", "inline", multiple=True,
              help="A position, 'SIZE MOVES... TO-MOVE' (repeatable).")
@click.option("--engine", "engine_specs", multiple=True, required=True,
              help="NAME=COMMAND, exactly two.")
@click.option("--init", "init_specs", multiple=True, help="NAME=HTP_COMMAND sent at start.")
@click.option("--expand", type=float, default=None,
              help="Replace each position by those our solver expands solving it "
                   "(at most this many seconds each).")
@click.option("--show", type=int, default=0, show_default=True,
              help="Draw this many positions where the fill-ins differ.")
@click.option("--timeout", type=float, default=60.0, show_default=True,
              help="Seconds for any one command.")
def main(files: tuple[str, ...], inline: tuple[str, ...], engine_specs: tuple[str, ...],
         init_specs: tuple[str, ...], expand: Optional[float], show: int,
         timeout: float) -> None:
    """Compare two engines' fill-in on the same positions."""
    engines, init = engines_of(engine_specs, init_specs)
    if len(engines) != 2:
        raise click.UsageError("give exactly two --engine NAME=COMMAND")
    positions = [p for f in files for p in read_positions(f)]
    for i, text in enumerate(inline, 1):
        try:
            positions.append(parse_position("--position", i, text))
        except ValueError as exc:
            raise click.BadParameter(f"{text!r}: {exc}", param_hint="--position") from None
    if not positions:
        raise click.UsageError("no positions: give files or --position")
    if expand is not None:
        kernels.start(wait=True)
        positions = [q for p in positions for q in expanded_positions(p, expand)]
    askers = []
    try:
        for name, command in engines.items():
            askers.append(Asker(name, command, init.get(name, []), timeout))
        count, tallies, shown = compare(positions, askers, show)
    except EngineError as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        for a in askers:
            a.close()
    names = list(engines)
    click.echo(f"{count} positions")
    click.echo("| engine | cells filled | positions where it fills more |")
    click.echo("|---|---|---|")
    for name in names:
        t = tallies[name]
        click.echo(f"| {name} | {t.filled:,} | {t.fills_more:,} |")
    for pos, marks in shown:
        click.echo(f"\n{pos.text}  (= both fill, 1 only {names[0]}, 2 only {names[1]}, "
                   f"x different colours)")
        click.echo(board_text(pos, marks))


if __name__ == "__main__":
    main()
