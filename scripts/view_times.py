#!/usr/bin/env python3
"""Response time of every HexGui analysis view, measured over the protocol.

Starts the engine of this checkout (``python -m hexengine``), sets up seeded random mid-game
positions (30 % of the cells filled, undecided, as scripts/bench.py) and times each view
command from sending it to the end of its reply, as HexGui would wait for it:

    python scripts/view_times.py --size 11 --positions 5 --repeat 3

The first command of each kind per size is timed too (tables are built on first use).
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

import click

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from scripts.bench import positions  # noqa: E402  (the benchmark's seeded boards)

VIEWS = [  # (label, command); {c} the colour to move, {p} an empty cell, {s} a stone of {c}
    ("shortest paths", "hexengine-shortest-path {c}"),
    ("shortest paths both", "hexengine-shortest-path"),
    ("map current", "hexengine-map current {c}"),
    ("map two-distance", "hexengine-map two-distance {c}"),
    ("map move-value", "hexengine-map move-value {c}"),
    ("map values (move-value)", "hexengine-map-values move-value {c}"),
    ("try move", "hexengine-try-move {c} {p}"),
    ("inferior cells", "hexengine-inferior {c}"),
    ("vc mustplay", "vc-get-mustplay {c}"),
    ("vc between cells full", "vc-between-cells-full {c} {s} {p}"),
    ("vc between cells semi", "vc-between-cells-semi {c} {s} {p}"),
    ("vc edge to edge", "hexengine-vc-edges {c}"),
    ("vc cell to edges", "hexengine-vc-edges {c} {s}"),
]


class Engine:
    def __init__(self) -> None:
        env = dict(os.environ, PYTHONPATH=ROOT)
        self.proc = subprocess.Popen([sys.executable, "-m", "hexengine", "--quiet"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     env=env, cwd=ROOT)

    def send(self, line: str) -> tuple[str, float]:
        start = time.perf_counter()
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            text = self.proc.stdout.readline()
            if text in ("\n", ""):
                break
            lines.append(text)
        reply = "".join(lines)
        if not reply.startswith("="):
            raise RuntimeError(f"{line!r} failed: {reply!r}")
        return reply, time.perf_counter() - start

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


@click.command()
@click.option("--size", type=int, default=11, show_default=True)
@click.option("--positions", "count", type=int, default=5, show_default=True)
@click.option("--repeat", type=int, default=3, show_default=True)
def main(size: int, count: int, repeat: int) -> None:
    engine = Engine()
    engine.send(f"boardsize {size}")
    times: dict[str, list[float]] = {label: [] for label, _ in VIEWS}
    first: dict[str, float] = {}
    for board in positions(size, count):
        engine.send("clear_board")
        for colour, cell in board.history:
            engine.send(f"play {'bw'[colour]} {board.move_name(cell)}")
        c = board.to_move
        empty = sorted(board.geo.iter_bits(board.empty))
        own = sorted(board.geo.iter_bits(board.stones[c]))
        args = {"c": "bw"[c], "p": board.geo.name(empty[len(empty) // 2]),
                "s": board.geo.name(own[len(own) // 2])}
        for label, command in VIEWS:
            for _ in range(repeat):
                _, seconds = engine.send(command.format(**args))
                if label not in first:
                    first[label] = seconds
                times[label].append(seconds)
    engine.close()
    print(f"{size}x{size}, {count} positions x {repeat}: ms per view (median / max; first call)")
    print("| view | command | median ms | max ms | first call ms |")
    print("|---|---|---|---|---|")
    for label, command in VIEWS:
        t = times[label]
        print(f"| {label} | `{command.format(c='b', p='CELL', s='STONE')}` | "
              f"{statistics.median(t) * 1000:.1f} | {max(t) * 1000:.1f} | "
              f"{first[label] * 1000:.1f} |")
    worst = max(max(t) for t in times.values())
    print(f"slowest answer: {worst * 1000:.0f} ms ({'within' if worst < 1 else 'over'} 1 s)")


if __name__ == "__main__":
    main()
