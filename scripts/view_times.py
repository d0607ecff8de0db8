#!/usr/bin/env python3
"""Response time of every HexGui analysis view, measured over the protocol.

Starts the engine of this checkout (``python -m hexengine``, default settings), reads its
analyze menu (``hexgui-analyze_commands``, so no view is left out), sets up seeded random
mid-game positions (30 % of the cells filled, undecided, as scripts/bench.py) and times each
menu command from sending it to the end of its reply, as HexGui would wait for it.  With
``--interrupt S`` each view is also sent once more and interrupted (``# interrupt``) after
S seconds; the time from the interrupt to the reply is reported where the view was still
running by then:

    python scripts/view_times.py --size 11 --positions 5 --repeat 3 --interrupt 0.3

The first command of each kind is timed too (tables are built on first use).  Commands that
change state (``param_*``, ``dfpn-clear-tt``) are sent as HexGui sends them, without values.
"""
from __future__ import annotations

import os
import shlex
import statistics
import sys
import time
from typing import Optional

import click

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from protocol.match.controller import EngineError, EngineProcess  # noqa: E402
from scripts.bench import positions  # noqa: E402  (the benchmark's seeded boards)

BUDGET = 5.0  # seconds an interactive view may take (issue: analyze menu within 5 s)
INTERRUPT_BUDGET = 0.5  # seconds from "# interrupt" to the reply


class Engine(EngineProcess):
    """This checkout's engine, with each reply timed."""

    def __init__(self) -> None:
        super().__init__(shlex.join(["env", f"PYTHONPATH={ROOT}", sys.executable, "-m",
                                     "hexengine", "--quiet"]), "views", cwd=ROOT)

    def timed(self, line: str, check: bool = True) -> tuple[str, float]:
        """The reply's text (``=`` or ``?`` first) and the seconds it took."""
        start = time.perf_counter()
        self.write(line)
        reply = "\n".join(self.read_reply(120, line))
        if check and not reply.startswith("="):
            raise RuntimeError(f"{line!r} failed: {reply!r}")
        return reply, time.perf_counter() - start

    def interrupted(self, line: str, after: float) -> Optional[float]:
        """Send ``line``, then ``# interrupt`` after ``after`` seconds: the seconds from the
        interrupt to the reply, or None when the reply came first."""
        self.write(line)
        try:
            self.read_reply(after, line)
            return None  # answered before the interrupt was due
        except EngineError as exc:
            if exc.reason != "timeout":
                raise
        self.write("# interrupt")
        sent = time.perf_counter()
        self.read_reply(120, line)
        return time.perf_counter() - sent


def menu(engine: Engine) -> list[tuple[str, str]]:
    """(label, command) of each analyze-menu line (type/label/command)."""
    text, _ = engine.timed("hexgui-analyze_commands")
    out = []
    for line in text[1:].strip().splitlines():
        kind, label, command = line.strip().split("/", 2)
        out.append((label, command))
    return out


@click.command()
@click.option("--size", type=int, default=11, show_default=True)
@click.option("--positions", "count", type=int, default=5, show_default=True)
@click.option("--repeat", type=int, default=3, show_default=True)
@click.option("--interrupt", "after", type=float, default=0.0, show_default=True,
              help="Also interrupt each view this many seconds in (0: not).")
def main(size: int, count: int, repeat: int, after: float) -> None:
    """Time every analyze-menu command of the engine on seeded mid-game positions."""
    engine = Engine()
    engine.timed(f"boardsize {size}")
    views = menu(engine)
    times: dict[str, list[float]] = {label: [] for label, _ in views}
    late: dict[str, list[float]] = {label: [] for label, _ in views}
    answers: dict[str, set[str]] = {label: set() for label, _ in views}
    first: dict[str, float] = {}
    for board in positions(size, count):
        engine.timed("clear_board")
        for colour, cell in board.history:
            engine.timed(f"play {'bw'[colour]} {board.move_name(cell)}")
        c = board.to_move
        empty = sorted(board.geo.iter_bits(board.empty))
        own = sorted(board.geo.iter_bits(board.stones[c]))
        args = {"%m": "bw"[c], "%p": board.geo.name(empty[len(empty) // 2]),
                "%P": board.geo.name(own[len(own) // 2]) + " " +
                board.geo.name(empty[len(empty) // 2])}
        for label, command in views:
            for key, value in args.items():
                command = command.replace(key, value)
            for _ in range(repeat):
                reply, seconds = engine.timed(command, check=False)
                answers[label].add(reply.split("\n")[0][:1] +
                                   (" unknown" if "unknown" in reply else ""))
                first.setdefault(label, seconds)
                times[label].append(seconds)
            if after > 0:
                delay = engine.interrupted(command, after)
                if delay is not None:
                    late[label].append(delay)
        engine.timed("dfpn-clear-tt")
    engine.close()
    print(f"{size}x{size}, {count} positions x {repeat}, default settings: ms per view "
          f"(median / max; first call){'; after # interrupt' if after else ''}")
    print("| view | command | median ms | max ms | first call ms | answers |"
          + (" interrupted: n, max ms |" if after else ""))
    print("|---|---|---|---|---|---|" + ("---|" if after else ""))
    for label, command in views:
        t = times[label]
        row = (f"| {label} | `{command}` | {statistics.median(t) * 1000:.1f} | "
               f"{max(t) * 1000:.1f} | {first[label] * 1000:.1f} | "
               f"{', '.join(sorted(answers[label]))} |")
        if after:
            row += (f" {len(late[label])}, {max(late[label]) * 1000:.0f} |" if late[label]
                    else " 0 |")
        print(row)
    worst = max(max(t) for t in times.values())
    print(f"slowest answer: {worst * 1000:.0f} ms "
          f"({'within' if worst <= BUDGET else 'over'} {BUDGET:g} s)")
    delays = [d for v in late.values() for d in v]
    if delays:
        print(f"slowest answer after # interrupt: {max(delays) * 1000:.0f} ms "
              f"({'within' if max(delays) <= INTERRUPT_BUDGET else 'over'} "
              f"{INTERRUPT_BUDGET:g} s)")


if __name__ == "__main__":
    main()
