#!/usr/bin/env python3
"""Speed benchmark: µs per evaluation for every evaluation, and search nodes/s.

Positions are seeded random mid-game boards (about 30 % of the cells filled, undecided), so
runs are comparable across commits:

    python scripts/bench.py --sizes 7,9,11,13 --positions 10 --depth 3
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import random
import sys
import time

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine.board import Board  # noqa: E402
from hexengine import kernels  # noqa: E402
from hexengine.evaluation import EVALUATIONS, astar, circuit, shortest_path  # noqa: E402
from hexengine.knowledge import decompose, fillin_kernel, inferior, vc  # noqa: E402
from hexengine.positions import random_position  # noqa: E402
from hexengine.search import Searcher  # noqa: E402
from hexengine.settings import OPTIONS, Settings  # noqa: E402
from scripts.cli_types import SIZES  # noqa: E402


def positions(size: int, count: int, seed: int = 2026, fill: float = 0.3) -> list[Board]:
    """``count`` seeded random boards with ``fill`` of the cells taken, none decided."""
    rng = random.Random(seed + size)
    return [random_position(size, rng, int(size * size * fill)) for _ in range(count)]


def _time_table(title: str, head: str, functions: list, boards: dict, repeat: int,
                trials: int) -> None:
    """Print a Markdown table of µs per call of each (label, function(geo, stones, colour)),
    the best of ``trials`` timings (the machine's noise only ever adds time)."""
    sizes = list(boards)
    print(title + "\n")
    print(f"| {head} | " + " | ".join(f"{s}x{s}" for s in sizes) + " |")
    print("|---|" + "---|" * len(sizes))
    for label, function in functions:
        row = []
        for size in sizes:
            first = boards[size][0]
            function(first.geo, first.stones, first.to_move)  # per-size tables built first
            best = float("inf")
            for _ in range(trials):
                start = time.perf_counter()
                for board in boards[size]:
                    for _ in range(repeat):
                        function(board.geo, board.stones, board.to_move)
                best = min(best, time.perf_counter() - start)
            row.append(best / (len(boards[size]) * repeat) * 1e6)
        print(f"| {label} | " + " | ".join(f"{v:.0f}" for v in row) + " |")
    print()


def _inferior_table(boards: dict, repeat: int, trials: int) -> None:
    """µs per fill-in (dead + captured to a fixpoint) and per prunable set of the filled board."""
    filled = {}
    for size, group in boards.items():
        filled[size] = []
        for board in group:
            copy = board.copy()
            copy.stones = inferior.fill_in(board.geo, board.stones)[0]
            filled[size].append(copy)
    def fill(geo, stones, colour):
        return inferior.fill_in(geo, stones)

    def moves(geo, stones, colour):
        return inferior.prunable_moves(geo, stones, colour, geo.mask & ~(stones[0] | stones[1]))

    def in_python(call):
        def run(geo, stones, colour):
            with fillin_kernel.python_only():
                return call(geo, stones, colour)
        return run

    _time_table("µs per inferior-cell call (knowledge/inferior.py; compiled: "
                "knowledge/fillin_kernel.py):", "call",
                [("fill_in, compiled", fill), ("fill_in, Python", in_python(fill))],
                boards, repeat, trials)
    _time_table("µs per prunable (vulnerable cells of the side to move, filled board):",
                "call", [("prunable", inferior.prunable),
                         ("prunable_moves (and dominated, every empty cell a candidate), "
                          "compiled", moves),
                         ("prunable_moves, Python", in_python(moves))],
                filled, repeat, trials)
    conns = {}
    for group in filled.values():
        for board in group:
            conns[id(board.stones)] = vc.build(board.geo, board.stones, board.to_move,
                                               vc.WIDE_LIMITS)
    _time_table("µs per decomposition search (the side to move's wide connections built "
                "beforehand, filled board):", "call",
                [("decomposition", lambda geo, stones, colour: decompose.decomposition(
                    geo, stones, colour, conns[id(stones)]))], filled, repeat, trials)


def vc_table(sizes: list[int], count: int) -> None:
    """Markdown rows: ms per H-search build (one colour, side to move), in Python and
    compiled, and per incremental update after an opponent move, median / p90 / worst over
    ``count`` positions."""
    import statistics
    from hexengine.knowledge import hsearch

    def stats(ms: list[float]) -> str:
        ms = sorted(ms)
        p90 = ms[min(len(ms) - 1, int(0.9 * len(ms)))]
        return f"{statistics.median(ms):.2f} / {p90:.2f} / {ms[-1]:.2f}"

    print("ms per virtual-connection build and update (median / p90 / worst):\n")
    print("| size | positions | Python build | compiled build | update (opponent move) "
          "| capped builds |")
    print("|---|---|---|---|---|---|")
    for size in sizes:
        builds, compiled, updates, capped = [], [], [], 0
        rng = random.Random(size)
        for board in positions(size, count):
            geo, colour = board.geo, board.to_move
            with hsearch.python_only():
                start = time.perf_counter()
                conns = vc.build(geo, board.stones, colour)
                builds.append((time.perf_counter() - start) * 1e3)
            start = time.perf_counter()
            vc.build(geo, board.stones, colour)
            compiled.append((time.perf_counter() - start) * 1e3)
            capped += not conns.complete
            empty = list(geo.iter_bits(board.empty))
            move = rng.choice(empty)
            after = list(board.stones)
            after[1 - colour] |= 1 << move
            start = time.perf_counter()
            vc.update(conns, geo, after, move, 1 - colour)
            updates.append((time.perf_counter() - start) * 1e3)
        print(f"| {size}x{size} | {count} | {stats(builds)} | {stats(compiled)} "
              f"| {stats(updates)} | {capped} |")
    print()


def _builds_ms(boards: list, limits, context=contextlib.nullcontext) -> float:
    """ms per compiled build of both colours of each of ``boards`` under ``limits``, one
    pass, inside ``context()``."""
    with context():
        start = time.perf_counter()
        for board in boards:
            for colour in (0, 1):
                vc.build(board.geo, board.stones, colour, limits).edge_full()
        return (time.perf_counter() - start) * 1e3 / (2 * len(boards))


def templates_table(sizes: list[int], count: int, trials: int) -> None:
    """Markdown rows: ms per compiled build under the solver's limits (both colours of each
    position, summed over the positions) without and with the derived stone templates,
    timed in turns, the best of ``trials`` each."""
    import dataclasses
    from hexengine.knowledge import templates

    without = dataclasses.replace(vc.SOLVER_LIMITS, stone_templates=False)
    print(f"ms per build, the solver's limits ({len(templates.stone_template_shapes())} "
          "stone-template shapes), 25 % of the cells filled:\n")
    print("| size | positions | without stone templates | with | ratio |")
    print("|---|---|---|---|---|")
    for size in sizes:
        boards = positions(size, count, fill=0.25)
        best = {without: float("inf"), vc.SOLVER_LIMITS: float("inf")}
        for _ in range(trials):
            for limits in best:
                best[limits] = min(best[limits], _builds_ms(boards, limits))
        a, b = best[without], best[vc.SOLVER_LIMITS]
        print(f"| {size}x{size} | {count} | {a:.3f} | {b:.3f} | {b / a:.2f} |")
    print()


def widths_table(sizes: list[int], count: int, trials: int) -> None:
    """Markdown rows: ms per compiled build under the solver's limits (both colours of each
    position) on the H-search kernel for any width of carrier row and on the one compiled
    for the board's width, timed in turns, the best of ``trials`` each; and whether the
    two built the same connections."""
    from hexengine.knowledge import hsearch

    print("ms per build, the solver's limits, 25 % of the cells filled:\n")
    print("| size | positions | words a row | any width | the board's width | speed-up "
          "| same builds |")
    print("|---|---|---|---|---|---|---|")
    for size in sizes:
        boards = positions(size, count, fill=0.25)
        contexts = {"any": hsearch.any_width, "own": contextlib.nullcontext}
        best = dict.fromkeys(contexts, float("inf"))
        for _ in range(trials):
            for name, context in contexts.items():
                best[name] = min(best[name], _builds_ms(boards, vc.SOLVER_LIMITS, context))
        built = {}
        for name, context in contexts.items():
            with context():
                built[name] = [sorted(vc.build(b.geo, b.stones, c, vc.SOLVER_LIMITS)
                                      .fulls.items()) for b in boards for c in (0, 1)]
        words = hsearch.layout(boards[0].geo).words
        a, b = best["any"], best["own"]
        print(f"| {size}x{size} | {count} | {words} | {a:.3f} | {b:.3f} | {a / b:.2f}x "
              f"| {'yes' if built['any'] == built['own'] else 'NO'} |")
    print()


def default_table(sizes: list[int], count: int, seconds: float, s: Settings) -> None:
    """Markdown rows: what the player's search under ``s`` (the default's knowledge, width,
    evaluation unless ``--set`` changed them) does with ``seconds`` per position: depth
    reached and nodes/s, median over the positions."""
    import statistics
    from hexengine.player import Player

    player = Player(s)
    print(f"{_settings_text(s)}: the search (knowledge, width {s.width}, {s.evaluation}) "
          f"with {seconds:g} s per position, 10 % of the cells filled (an opening; at 30 % "
          "random boards are mostly decided by connections at the root), median:\n")
    print("| size | positions | depth | nodes | nodes/s |")
    print("|---|---|---|---|---|")
    for size in sizes:
        depths, nodes, nps = [], [], []
        for board in positions(size, count, fill=0.1):
            player.reset()  # a fresh search (no TT from the last position), as a new game
            searcher = player.searcher()  # the engine's own, with every switch of Settings
            result = searcher.search(board, board.to_move, time.monotonic() + seconds)
            depths.append(result.depth)
            nodes.append(result.nodes)
            nps.append(result.nps)
        print(f"| {size}x{size} | {count} | {statistics.median(depths):g} | "
              f"{statistics.median(nodes):,.0f} | {statistics.median(nps):,.0f} |")
    print()


def default_depth_table(sizes: list[int], count: int, depth: int, s: Settings) -> None:
    """Markdown rows: the player's search under ``s`` to a fixed ``depth`` on each position:
    nodes and the process's CPU seconds (what a loaded machine's other work does not
    change), and the moves chosen, so that two versions or settings compare move by move."""
    from hexengine.player import Player

    print(f"{_settings_text(s)}: the search to depth {depth}, 10 % of the cells filled, "
          "CPU seconds of this process:\n")
    print("| size | positions | nodes | CPU s | nodes per CPU s | moves |")
    print("|---|---|---|---|---|---|")
    for size in sizes:
        nodes, cpu, moves = 0, 0.0, []
        for board in positions(size, count, fill=0.1):
            player = Player(dataclasses.replace(s, max_depth=depth))  # fresh each position
            began = time.process_time()
            result = player.genmove(board, board.to_move, 600.0)
            cpu += time.process_time() - began
            nodes += result.nodes
            moves.append(board.geo.name(result.move))
        print(f"| {size}x{size} | {count} | {nodes:,} | {cpu:.1f} | {nodes / cpu:,.0f} | "
              f"{' '.join(moves)} |")
    print()


def _settings_text(s: Settings) -> str:
    """"the default" or the settings that differ from it, as ``--set`` takes them."""
    changed = [f"{o.name}={o.format(getattr(s, o.name))}" for o in OPTIONS
               if getattr(s, o.name) != o.default]
    return "the default" if not changed else "with " + " ".join(changed)


@click.command()
@click.option("--sizes", "size_list", type=SIZES, default="7,9,11,13", show_default=True)
@click.option("--positions", "count", default=10, show_default=True)
@click.option("--repeat", default=20, show_default=True, help="Evaluations per position.")
@click.option("--depth", default=3, show_default=True, help="Fixed search depth for nodes/s.")
@click.option("--width", default=10, show_default=True, help="Search width for nodes/s.")
@click.option("--trials", default=5, show_default=True,
              help="Timings per figure; the best is reported.")
@click.option("--vc", "vc_only", is_flag=True,
              help="Only the virtual-connection table (build and update times).")
@click.option("--inferior", "inferior_only", is_flag=True,
              help="Only the inferior-cell tables (fill-in and pruning, compiled and Python).")
@click.option("--templates", "templates_only", is_flag=True,
              help="Only the cost of the derived stone templates in the solver's builds.")
@click.option("--widths", "widths_only", is_flag=True,
              help="Only the H-search kernel for any width of carrier row against the one "
                   "compiled for the board's width.")
@click.option("--default-search", "default_seconds", type=float, default=None,
              help="Only the default search's depth and nodes/s with this many seconds "
                   "per position.")
@click.option("--default-depth", "default_depth", type=click.IntRange(1, 64), default=None,
              help="Only the default search to this depth: nodes per CPU second, moves.")
@click.option("--set", "sets", multiple=True, metavar="NAME=VALUE",
              help="A setting of param_hexengine for --default-search and --default-depth "
                   "(repeatable).")
def main(size_list: list[int], count: int, repeat: int, depth: int, width: int, trials: int,
         vc_only: bool, inferior_only: bool, templates_only: bool, widths_only: bool,
         default_seconds: float | None, default_depth: int | None,
         sets: tuple[str, ...]) -> None:
    """Print Markdown tables of evaluation cost and search speed."""
    try:
        settings = Settings().with_texts(sets)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--set") from None
    kernels.start(wait=True)  # the compiled kernels, as the engine uses them
    if vc_only:
        vc_table(size_list, count)
        return
    if templates_only:
        templates_table(size_list, count, trials)
        return
    if widths_only:
        widths_table(size_list, count, trials)
        return
    if default_seconds is not None:
        default_table(size_list, count, default_seconds, settings)
        return
    if default_depth is not None:
        default_depth_table(size_list, count, default_depth, settings)
        return
    boards = {size: positions(size, count) for size in size_list}
    if inferior_only:
        _inferior_table(boards, repeat, trials)
        return
    names = sorted(EVALUATIONS)

    def numpy_resistance(geo, stones, colour):
        with circuit.numpy_only():
            return EVALUATIONS["resistance"](geo, stones, colour)

    _time_table("µs per evaluation (both colours' work, one call):", "evaluation",
                [(name, EVALUATIONS[name]) for name in names]
                + [("resistance, numpy circuit", numpy_resistance)], boards, repeat, trials)
    _time_table("µs per shortest-path distance (one colour): bitboard layers vs A* "
                "(seed 004):", "path-finder",
                [("layers (used)", shortest_path.distance), ("A*", astar.distance)],
                boards, repeat, trials)
    _inferior_table(boards, repeat, trials)
    print(f"search nodes/s at fixed depth {depth}, width {width}:\n")
    print("| evaluation | " + " | ".join(f"{s}x{s}" for s in size_list) + " |")
    print("|---|" + "---|" * len(size_list))
    for name in names:
        row = []
        for size in size_list:
            best = 0.0
            for _ in range(trials):
                nodes = 0
                elapsed = 0.0
                for board in boards[size][:3]:
                    result = Searcher(name, width=width).search(board, board.to_move,
                                                                 max_depth=depth)
                    nodes += result.nodes
                    elapsed += result.elapsed
                best = max(best, nodes / elapsed if elapsed else 0.0)
            row.append(best)
        print(f"| {name} | " + " | ".join(f"{v:,.0f}" for v in row) + " |")


if __name__ == "__main__":
    main()
