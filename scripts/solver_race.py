#!/usr/bin/env python3
"""Race two HTP engines' DFPN solvers over position files, side by side in one run.

For each position of each file, each engine in turn (one at a time, so each has a core to
itself; which one goes first alternates from position to position, so both share the
machine's drift) gets ``dfpn-clear-tt``, the position (``boardsize``, ``clear_board``,
``play`` for each stone) and ``dfpn-solve-state COLOUR``, the way Benzene's regression
lists ask it; only the ``dfpn-solve-state`` is timed.  Each engine's own time cap comes
from its ``--init`` commands (``{cap}`` there is replaced by ``--cap``); the runner kills
an engine that has not answered ``--grace`` seconds after the cap, counts the position
unsolved for it and starts it again for the next one.

A position file has one position a line, ``SIZE MOVES... TO-MOVE [= WINNER]`` (``#`` starts
a comment): SIZE is N or WxH, the moves are cells played black, white, black, ... in turn
(``b:c3``/``w:c3`` give the colour outright), TO-MOVE is ``black`` or ``white``, and WINNER,
when given, is the known result, checked like a third opinion.

Per file it prints a Markdown table of the positions and then one summary row per file:
solved, total seconds (an unsolved position counts its whole time), the ratio of the first
engine's total to the second's, the median of the per-position ratios over the positions
both solved, and the disagreements.  Where both engines read their nodes to stderr (ours:
``nodes N``; Benzene's: ``MID calls N``) the node counts are shown too.  Any disagreement,
one engine saying black and the other white or an answer against the file's WINNER, is
printed loudly and makes the exit status 1.

    python scripts/solver_race.py scripts/positions/6x6-openings.txt --cap 60 \\
        --engine ours="hexengine" --init ours="param_hexengine solver_time {cap}" \\
        --engine wolve="wolve --use-logfile=0" --init wolve="param_dfpn timelimit {cap}" \\
        --json race-6x6.json
"""
from __future__ import annotations

import json
import os
import re
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from typing import IO, Optional

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine.board import BLACK, WHITE  # noqa: E402
from hexengine.geometry import geometry  # noqa: E402
from protocol.match.cli import engines_of  # noqa: E402
from protocol.match.controller import EngineError, EngineProcess, start_engine  # noqa: E402
from protocol.match.referee import COLOUR_NAMES, COLOUR_WORDS, new_board  # noqa: E402

COLOURS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}
# the node counts engines write to stderr after a solve: ours, then Benzene's
NODES_RE = re.compile(r"\(nodes (\d+) time|MID calls\s+(\d+)")


@dataclass
class Position:
    file: str
    line: int
    width: int
    height: int
    moves: list[tuple[int, str]]  # (colour, cell name)
    to_move: int
    expect: Optional[int]
    text: str

    @property
    def label(self) -> str:
        size = str(self.width) if self.width == self.height else f"{self.width}x{self.height}"
        turns = all(c == i % 2 for i, (c, _) in enumerate(self.moves))
        moves = [m if turns else f"{COLOUR_WORDS[c]}:{m}" for c, m in self.moves]
        return " ".join([size] + moves) + " " + COLOUR_NAMES[self.to_move]


@dataclass
class Answer:
    winner: Optional[int] = None  # None: not proved (unknown, timeout, error)
    seconds: float = 0.0
    nodes: Optional[int] = None
    status: str = "unknown"  # solved, unknown, timeout, error: ...


@dataclass
class Totals:
    solved: int = 0
    seconds: float = 0.0
    nodes: int = 0
    nodes_known: bool = True


def read_positions(path: str) -> list[Position]:
    """The positions of a file; click.BadParameter names the line of any error."""
    positions = []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            text = raw.split("#", 1)[0].strip()
            if not text:
                continue
            try:
                positions.append(parse_position(path, number, text))
            except ValueError as exc:
                raise click.BadParameter(f"{path}:{number}: {exc}") from None
    return positions


def parse_position(path: str, number: int, text: str) -> Position:
    """One position line, ``SIZE MOVES... TO-MOVE [= WINNER]``; ValueError says what is
    wrong (``path`` and ``number`` only label the result)."""
    head, _, tail = text.partition("=")
    words = head.split()
    if len(words) < 2:
        raise ValueError("want SIZE MOVES... TO-MOVE [= WINNER]")
    size = words[0].lower().split("x")
    if len(size) > 2 or not all(s.isdigit() for s in size):
        raise ValueError(f"bad size {words[0]!r}")
    width, height = int(size[0]), int(size[-1])
    geo = geometry(width, height)
    to_move = _colour(words[-1])
    expect = _colour(tail.strip()) if tail.strip() else None
    moves: list[tuple[int, str]] = []
    seen = set()
    for i, word in enumerate(words[1:-1]):
        colour, _, cell = word.rpartition(":")
        colour = _colour(colour) if colour else (BLACK if i % 2 == 0 else WHITE)
        index = geo.parse(cell)  # ValueError names the cell
        if index in seen:
            raise ValueError(f"{cell} played twice")
        seen.add(index)
        moves.append((colour, geo.name(index)))
    return Position(path, number, width, height, moves, to_move, expect, text)


def _colour(word: str) -> int:
    try:
        return COLOURS[word.lower()]
    except KeyError:
        raise ValueError(f"not a colour: {word!r}") from None


class Racer:
    """One engine: started on first use and after any failure; its stderr goes to a log
    file, read after each solve for the node count."""

    def __init__(self, name: str, command: str, init: list[str], log_path: str,
                 clear_tt: bool, startup_timeout: float = 60.0) -> None:
        self.name = name
        self.command = command
        self.init = init
        self.clear_tt = clear_tt
        self.startup_timeout = startup_timeout
        self.log: IO[str] = open(log_path, "a+", encoding="utf-8")
        self.proc: Optional[EngineProcess] = None
        self.quirks: dict[str, bool] = {}
        self.starts = 0

    def solve(self, pos: Position, cap: float, grace: float) -> Answer:
        answer = Answer()
        try:
            proc = self._process()
            if self.clear_tt:
                proc.send("dfpn-clear-tt", self.startup_timeout)  # '?': an engine without it
            new_board(proc, pos.width, pos.height, self.quirks, self.startup_timeout)
            for colour, cell in pos.moves:
                proc.ok(f"play {COLOUR_WORDS[colour]} {cell}", self.startup_timeout)
            self.log.seek(0, os.SEEK_END)
            offset = self.log.tell()
            started = time.monotonic()
            try:
                text = proc.ok(f"dfpn-solve-state {COLOUR_NAMES[pos.to_move]}", cap + grace)
            finally:
                answer.seconds = time.monotonic() - started
        except EngineError as exc:
            self._drop()
            answer.status = "timeout" if exc.reason == "timeout" else f"error: {exc}"[:120]
            return answer
        # Benzene's engines answer an empty line when not solved in time, ours 'unknown'
        answer.winner = COLOURS.get(text.strip().lower())
        if answer.winner is not None:
            answer.status = "solved"
        answer.nodes = self._nodes(offset)
        return answer

    def _nodes(self, offset: int) -> Optional[int]:
        """The last node count the engine wrote after ``offset`` (it may follow the reply
        by a moment)."""
        for _ in range(5):
            self.log.flush()
            self.log.seek(offset)
            found = NODES_RE.findall(self.log.read())
            if found:
                ours, benzene = found[-1]
                return int(ours or benzene)
            time.sleep(0.02)
        return None

    def _process(self) -> EngineProcess:
        if self.proc is None or not self.proc.alive():
            self._drop()
            self.proc = start_engine(self.command, self.name, self.init,
                                     self.startup_timeout, stderr=self.log)
            self.starts += 1
            self.quirks = {}
        return self.proc

    def _drop(self) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc = None

    def close(self) -> None:
        if self.proc is not None:
            self.proc.close()
            self.proc = None
        self.log.close()


def _fmt_winner(answer: Answer) -> str:
    if answer.winner is not None:
        return COLOUR_NAMES[answer.winner]
    return answer.status


def _ratio(a: float, b: float) -> Optional[float]:
    return a / b if b > 0 else None


def _fmt_ratio(r: Optional[float]) -> str:
    return "—" if r is None else f"{r:.2f}×"


def _fmt_nodes(totals: Totals) -> str:
    return f"{totals.nodes:,}" if totals.nodes_known else "—"


def disagreements_of(pos: Position, answers: dict[str, Answer]) -> list[str]:
    """What is wrong about one position: engines that contradict each other, or the file."""
    said = {name: a.winner for name, a in answers.items() if a.winner is not None}
    found = []
    if len(set(said.values())) > 1:
        found.append(", ".join(f"{name} says {COLOUR_NAMES[w]}" for name, w in said.items()))
    if pos.expect is not None:
        for name, w in said.items():
            if w != pos.expect:
                found.append(f"{name} says {COLOUR_NAMES[w]}, the file says "
                             f"{COLOUR_NAMES[pos.expect]}")
    return [f"{pos.file}:{pos.line} ({pos.label}): {text}" for text in found]


def race_file(path: str, racers: list[Racer], cap: float, grace: float, first: int,
              turn: list[int], rows: bool, out: IO[str]) -> dict:
    """Race every position of one file; prints its table and returns its record."""
    positions = read_positions(path)
    if first:
        positions = positions[:first]
    names = [r.name for r in racers]
    totals = {name: Totals() for name in names}
    records = []
    ratios = []
    wrong: list[str] = []
    for pos in positions:
        order = racers if turn[0] % 2 == 0 else racers[::-1]
        turn[0] += 1
        answers = {r.name: r.solve(pos, cap, grace) for r in order}
        answers = {name: answers[name] for name in names}
        for name, a in answers.items():
            t = totals[name]
            t.seconds += a.seconds
            t.solved += a.winner is not None
            if a.nodes is None:
                t.nodes_known = False
            else:
                t.nodes += a.nodes
        a, b = answers[names[0]], answers[names[1]]
        ratio = None
        if a.winner is not None and b.winner is not None:
            ratio = _ratio(a.seconds, b.seconds)
            if ratio is not None:
                ratios.append(ratio)
        found = disagreements_of(pos, answers)
        for text in found:
            click.secho(f"DISAGREEMENT {text}", fg="red", bold=True, err=True)
        wrong += found
        click.echo(f"{pos.label}: " + ", ".join(
            f"{n} {_fmt_winner(x)} {x.seconds:.2f}s" for n, x in answers.items()), err=True)
        records.append({"line": pos.line, "position": pos.label,
                        "expect": None if pos.expect is None else COLOUR_NAMES[pos.expect],
                        "answers": {n: asdict(x) for n, x in answers.items()},
                        "ratio": ratio, "disagreements": found})
    summary = {
        "positions": len(positions),
        "engines": {n: asdict(t) for n, t in totals.items()},
        "total_ratio": _ratio(totals[names[0]].seconds, totals[names[1]].seconds),
        "median_ratio": statistics.median(ratios) if ratios else None,
        "both_solved": len(ratios),
        "disagreements": wrong,
    }
    if rows:
        _print_rows(path, cap, names, records, out)
    return {"file": path, "cap": cap, "positions": records, "summary": summary}


def _print_rows(path: str, cap: float, names: list[str], records: list[dict],
                out: IO[str]) -> None:
    print(f"\n### {path} ({len(records)} positions, cap {cap:g} s)\n", file=out)
    head = ["position", "known"]
    for n in names:
        head += [n, "s", "nodes"]
    head.append(f"{names[0]}/{names[1]}")
    print("| " + " | ".join(head) + " |", file=out)
    print("|" + "---|" * len(head), file=out)
    for rec in records:
        cells = [rec["position"], rec["expect"] or ""]
        for n in names:
            a = Answer(**rec["answers"][n])
            cells += [_fmt_winner(a), f"{a.seconds:.2f}",
                      "" if a.nodes is None else f"{a.nodes:,}"]
        cells.append(_fmt_ratio(rec["ratio"]) if rec["ratio"] is not None else "")
        if rec["disagreements"]:
            cells[0] = f"**{cells[0]} DISAGREEMENT**"
        print("| " + " | ".join(cells) + " |", file=out)
    out.flush()


def print_summary(names: list[str], files: list[dict], out: IO[str]) -> None:
    a, b = names
    print(f"\n### Summary: {a} against {b}\n", file=out)
    head = ["positions", "cap s"]
    for n in names:
        head += [f"{n} solved", f"{n} total s", f"{n} nodes"]
    head += [f"total {a}/{b}", f"median {a}/{b} (both solved)", "disagreements"]
    print("| " + " | ".join(head) + " |", file=out)
    print("|" + "---|" * len(head), file=out)
    for rec in files:
        s = rec["summary"]
        cells = [os.path.basename(rec["file"]), f"{rec['cap']:g}"]
        for n in names:
            t = Totals(**s["engines"][n])
            cells += [f"{t.solved} of {s['positions']}", f"{t.seconds:.1f}", _fmt_nodes(t)]
        cells += [_fmt_ratio(s["total_ratio"]),
                  f"{_fmt_ratio(s['median_ratio'])} ({s['both_solved']})",
                  f"**{len(s['disagreements'])}**" if s["disagreements"] else "0"]
        print("| " + " | ".join(cells) + " |", file=out)
    out.flush()


@click.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--engine", "engine_specs", multiple=True, required=True, metavar="NAME=COMMAND",
              help="An engine (exactly two; the first is the one whose time is divided by "
                   "the second's).")
@click.option("--init", "init_specs", multiple=True, metavar="NAME=HTP_COMMAND",
              help="An HTP command sent to that engine after it starts (repeatable); "
                   "{cap} is replaced by --cap, e.g. ours='param_hexengine solver_time "
                   "{cap}', wolve='param_dfpn timelimit {cap}'.")
@click.option("--cap", type=float, default=60.0, show_default=True,
              help="Seconds per position (the engines' own limit, through {cap}).")
@click.option("--grace", type=float, default=None,
              help="Seconds past the cap before an engine is killed [default: 10 + cap/2].")
@click.option("--first", type=int, default=0, help="Only the first N positions of each file.")
@click.option("--clear-tt/--keep-tt", default=True, show_default=True,
              help="dfpn-clear-tt before each position, or keep the engines' tables.")
@click.option("--rows/--no-rows", default=True, show_default=True,
              help="Print each file's table of positions.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None,
              help="Write every answer and the summaries here.")
@click.option("--logs", type=click.Path(file_okay=False), default=None,
              help="Keep each engine's stderr in DIR/NAME.log (else a temporary file).")
def main(files: tuple[str, ...], engine_specs: tuple[str, ...], init_specs: tuple[str, ...],
         cap: float, grace: Optional[float], first: int, clear_tt: bool, rows: bool,
         json_path: Optional[str], logs: Optional[str]) -> None:
    """Race two engines' dfpn-solve-state over position files (see the module's doc)."""
    engines, given = engines_of(engine_specs, init_specs)
    if len(engines) != 2:
        raise click.UsageError("give exactly two engines (--engine NAME=COMMAND)")
    init = {name: [c.replace("{cap}", f"{cap:g}") for c in given.get(name, [])]
            for name in engines}
    for path in files:
        read_positions(path)  # every file's errors before any timing
    grace = 10 + cap / 2 if grace is None else grace
    with tempfile.TemporaryDirectory(prefix="solver-race-") as tmp:
        log_dir = logs or tmp
        os.makedirs(log_dir, exist_ok=True)
        racers = [Racer(name, command, init[name], os.path.join(log_dir, f"{name}.log"),
                        clear_tt) for name, command in engines.items()]
        try:
            turn = [0]
            records = [race_file(path, racers, cap, grace, first, turn, rows, sys.stdout)
                       for path in files]
        finally:
            for racer in racers:
                racer.close()
    names = list(engines)
    print_summary(names, records, sys.stdout)
    wrong = [text for rec in records for text in rec["summary"]["disagreements"]]
    if json_path:
        with open(json_path, "w", encoding="utf-8") as f:
            json.dump({"engines": {n: {"command": engines[n], "init": init[n]} for n in names},
                       "cap": cap, "clear_tt": clear_tt, "files": records,
                       "disagreements": wrong}, f, indent=1)
    if wrong:
        click.secho(f"\n{len(wrong)} DISAGREEMENT(S):", fg="red", bold=True)
        for text in wrong:
            click.secho(f"  {text}", fg="red", bold=True)
        sys.exit(1)


if __name__ == "__main__":
    main()
