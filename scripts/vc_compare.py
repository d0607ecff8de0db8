#!/usr/bin/env python3
"""Our H-search build against another engine's on the same stones: the pairs each joins.

A solver that lags Benzene's on 11×11 lags in what its connection builder derives.  This
puts one position of a position file (``SIZE MOVES... TO-MOVE``, as ``solver_race.py``
reads them), with ``--moves`` played after it, on both builders: ours in process, after our
fill-in and decompositions unless ``--no-fill``, with the limits ``--limits`` names; the
other over HTP, given exactly those stones (each as a ``play``) and ``--init`` commands
(for Wolve: ``param_player_board use_ice 0`` and ``use_decompositions 0``, so that it
builds on the same board).  For every empty cell, stone and edge of ``--colour`` it asks
``vc-connected-to-full`` (after ``vc-build`` where the engine knows it), then prints how
many pairs each joins fully, and the pairs only the other joins, smallest carrier first
(from its ``vc-between-cells-full``), beside how many semi connections ours holds there.

    python scripts/vc_compare.py scripts/positions/11x11-games.txt 45 --moves j3 \\
        --colour black --engine "wolve --use-logfile=0 --quiet" \\
        --init "param_player_board use_ice 0" --init "param_player_board use_decompositions 0"
"""
from __future__ import annotations

import dataclasses
import os
import re
import sys

import click

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine import kernels  # noqa: E402
from hexengine.analysis_views import edge_names  # noqa: E402
from hexengine.board import COLOUR_NAMES  # noqa: E402
from hexengine.geometry import Geometry, geometry  # noqa: E402
from hexengine.knowledge import decompose, inferior, vc  # noqa: E402
from protocol.match.controller import EngineError, start_engine  # noqa: E402
from scripts.solver_race import read_positions  # noqa: E402

LIMITS = {"solver": vc.SOLVER_LIMITS, "wide": vc.WIDE_LIMITS, "default": vc.DEFAULT_LIMITS}
CARRIER = re.compile(r"\bfull\b\s+\S+\s+\[([^\]]*)\]")


def board_stones(path: str, line: int, moves: list[str]) -> tuple[Geometry, list[int]]:
    """The stones of position ``line`` (1 = the file's first position) with ``moves``
    played after it, the side to move first."""
    positions = read_positions(path)
    if not 1 <= line <= len(positions):
        raise click.BadParameter(f"{path} has {len(positions)} position(s), no position {line}")
    p = positions[line - 1]
    geo = geometry(p.width, p.height)
    stones = geo.stones(placed=p.moves)
    to_move = p.to_move
    for name in moves:
        cell = geo.parse(name)
        if (stones[0] | stones[1]) >> cell & 1:
            raise click.BadParameter(f"{name} is not empty")
        stones[to_move] |= 1 << cell
        to_move = 1 - to_move
    return geo, stones


def their_pairs(engine, geo: Geometry, stones: list[int], colour: int, node) -> set:
    """The pairs of our nodes that the other engine joins fully."""
    engine.ok(f"boardsize {geo.width} {geo.height}")
    engine.ok("clear_board")
    for c in (0, 1):
        for x in geo.iter_bits(stones[c]):
            engine.ok(f"play {'bw'[c]} {geo.name(x)}")
    name = COLOUR_NAMES[colour]
    if engine.ok("known_command vc-build") == "true":
        engine.ok(f"vc-build {name}", 120.0)
    ends = [geo.name(x) for x in geo.iter_bits(geo.mask & ~stones[1 - colour])]
    ends += list(edge_names(colour).values())
    pairs = set()
    for end in ends:
        for other in engine.ok(f"vc-connected-to-full {name} {end}", 60.0).split():
            a, b = node(end), node(other)
            if a is not None and b is not None and a != b:
                pairs.add((min(a, b), max(a, b)))
    return pairs


@click.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
@click.argument("line", type=int)
@click.option("--moves", default="", help="Moves played after the position, space-separated.")
@click.option("--colour", type=click.Choice(["black", "white"]), default="black",
              show_default=True, help="Whose connections are compared.")
@click.option("--limits", "limits_name", type=click.Choice(sorted(LIMITS)), default="solver",
              show_default=True, help="Our build's bounds (vc.SOLVER_LIMITS and the rest).")
@click.option("--fill/--no-fill", default=True, show_default=True,
              help="Our fill-in and decompositions first (both engines then get those stones).")
@click.option("--engine", "command", required=True, help="The other engine's command.")
@click.option("--init", "inits", multiple=True, help="HTP commands sent to it first.")
@click.option("--top", default=25, show_default=True, help="Pairs only the other joins, listed.")
def cli(path: str, line: int, moves: str, colour: str, limits_name: str, fill: bool,
        command: str, inits: tuple[str, ...], top: int) -> None:
    """Compare the pairs our H-search joins fully with another engine's, on one position."""
    kernels.start(wait=True)
    geo, stones = board_stones(path, line, moves.split())
    me = 0 if colour == "black" else 1
    limits = LIMITS[limits_name]
    if fill:
        stones, _ = inferior.fill_in(geo, stones)
        stones, _, _ = decompose.fill_decompositions(geo, stones, (0, 1), limits)
    ours = vc.build(geo, stones, me, dataclasses.replace(limits, stop_at_win=False))
    edges = edge_names(me)
    by_name = {name: x for x, name in edges.items()}

    def node(name: str):
        if name in by_name:
            return by_name[name]
        try:
            cell = geo.parse(name)
        except ValueError:
            return None
        return None if stones[1 - me] >> cell & 1 else ours.node(cell)

    def label(x: int) -> str:
        return edges.get(x) or geo.name(x)

    try:
        engine = start_engine(command, "other", list(inits), 30.0)
    except EngineError as exc:
        raise click.ClickException(f"the other engine does not start: {exc}")
    try:
        theirs = their_pairs(engine, geo, stones, me, node)
        mine = {(min(a, b), max(a, b)) for a, b in ours.full_pairs() if a != b}
        only = sorted(theirs - mine)
        rows = []
        for a, b in only:
            text = engine.ok(f"vc-between-cells-full {colour} {label(a)} {label(b)}", 60.0)
            carriers = [c.split() for c in CARRIER.findall(text)]
            if carriers:
                smallest = min(carriers, key=len)
                rows.append((len(smallest), label(a), label(b), " ".join(smallest),
                             len(ours.semi(a, b))))
    except EngineError as exc:
        raise click.ClickException(f"the other engine failed: {exc}")
    finally:
        engine.close()
    print(f"pairs joined fully: theirs {len(theirs)}, ours {len(mine)}, both "
          f"{len(theirs & mine)}; theirs only {len(only)}, ours only {len(mine - theirs)}")
    for size, a, b, cells, semis in sorted(rows)[:top]:
        print(f"{size:3d}  {a}-{b}  [{cells}]  ours: {semis} semi")


if __name__ == "__main__":
    cli()
