"""Derive edge templates with helper stones: the solver finds them, nobody draws them.

An edge template joins a stone (the anchor) to its edge through a fixed set of empty cells,
whatever the opponent plays there.  The single-stone ones (II, III-a, IV-a) are in
``hexengine/knowledge/templates.py``; this script finds templates in which one or more
further own stones (helpers) stand in the template too, and which H-search's AND and OR
rules do not derive by themselves.

For a template of ``depth`` rows, in the frame of the top edge: a board of ``width`` columns
and ``depth + 1`` rows, the anchor on row ``depth - 1`` with an own stone below it on the
last row (so that only the anchor's group reaches the bottom), the helpers, and every cell
outside the candidate carrier taken by the opponent.  The anchor is joined to the top edge
with that carrier exactly when the owner wins this board with the opponent to move, which
our DFPN solver decides (with the single-stone templates only).  Each helper set whose full
region holds is shrunk to minimal carriers (cells dropped one at a time in random orders
while the board stays won), and a carrier is kept when the helpers are all needed and the
H-search of the solver, run on that board, does not already find the connection (with
``--merge`` into the engine's own file, using the templates that file held when the run
began: build it up from one helper to more).  Mirror images are folded together.  The
result is the JSON file the engine loads (``hexengine/data/edge-templates.json``).

    F=hexengine/data/edge-templates.json; N="--width 7 --cols 0,1,2,3,4,5,6"
    python scripts/derive_templates.py --depth 4 --helpers 1 --reach 4 --out $F
    python scripts/derive_templates.py --depth 4 --helpers 2 --tries 2 --seconds 20 --merge --out $F
    python scripts/derive_templates.py --depth 4 --helpers 1 $N --reach 4 --tries 2 --seconds 20 --merge --out $F
    python scripts/derive_templates.py --depth 5 --helpers 1 $N --reach 4 --tries 2 --seconds 20 --merge --out $F
    python scripts/derive_templates.py --depth 4 --helpers 2 $N --tries 2 --seconds 20 --merge --out $F
    python scripts/derive_templates.py --depth 5 --helpers 2 $N --tries 2 --seconds 20 --merge --out $F

(24, 54, 12, 14, 136 and 472 new templates, 712 in all, each run within 1 minute on one
core but the last, 5 minutes; the 3rd row gives none: H-search derives them all.)  A board
the solver leaves unproved within ``--seconds`` counts as lost, so a slower machine may
keep fewer.

``--ladders`` finds the templates in which the anchor runs along a line near the edge to
one escape stone far to one side (Benzene's ladder patterns): one helper up to
``--reach`` columns away, the carrier shrunk towards it, kept even where the H-search
derives it on this board, since on a game board its limits crowd such long carriers out:

    L="--ladders --width 11 --cols 1 --reach 9 --seconds 10 --merge --out $F"
    python scripts/derive_templates.py --depth 3 $L    # 36 new, 2 s
    python scripts/derive_templates.py --depth 4 $L    # 36 new, 1 minute
    python scripts/derive_templates.py --depth 5 $L    # 28 new, 8 minutes: 812 in all

``--behind`` (with ``--ladders``) makes an own stone behind the anchor, on the row past
it, part of the template, and lets the escape and the carrier use that row: a 3rd-line
stone with a 4th-line stone behind it, laddering to an escape on the 4th line.  Such a
stone is not mirror-symmetric, so the escape is tried on both sides.  ``--compact`` adds
one shrinking order to the random ones, the cells farthest from every stone first, which
leaves the carrier in the stones' shadow on the edge (``--tries 0`` for that order alone):

    B="--ladders --behind --width 11 --cols 1,7,8,9 --reach 9 --seconds 10 --merge --out $F"
    python scripts/derive_templates.py --depth 3 $B    # 42 new, 3 minutes
    cp $F t.json; python scripts/derive_templates.py --depth 6 --helpers 1 --reach 3 \\
        --tries 0 --compact --seconds 10 --merge --out t.json && mv t.json $F
                                                       # 16 new, 31 minutes: 870 in all

(the last into a copy, so that a carrier is dropped only where the H-search without
stone templates finds it: with the file's own, one of the 16 follows from the others.)

(``--depth 4 $B`` had found 70 more after 40 minutes when it was stopped: on the anchor's
far columns its boards' proofs run into ``--seconds``.)
"""
from __future__ import annotations

import dataclasses
import itertools
import json
import random
import sys
import time
from pathlib import Path
from typing import Optional

import click

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hexengine import kernels  # noqa: E402
from hexengine.geometry import geometry, hex_distance  # noqa: E402
from hexengine.knowledge import templates, vc  # noqa: E402
from hexengine.knowledge.connections import EDGE_START  # noqa: E402
from hexengine.solver import Solver, VCKnowledge  # noqa: E402
from scripts.cli_types import NumberList  # noqa: E402

# the solver and the filter know the single-stone templates only: a template is never
# used to prove itself
BASE_LIMITS = dataclasses.replace(vc.SOLVER_LIMITS, stone_templates=False)


class Frame:
    """The derivation board of one depth: offsets (dcol, row) from the anchor's column."""

    def __init__(self, depth: int, width: int, seconds: float, col: int,
                 behind: bool = False) -> None:
        self.depth, self.width = depth, width
        rows = depth + 1 + behind
        self.geo = geometry(width, rows)
        self.col = col
        self.anchor = self.geo.index(self.col, depth - 1)
        # the anchor reaches the far edge through own stones below it; with ``behind`` the
        # first of them is the template's stone behind the anchor, on a row of its own
        self.base = sum(1 << self.geo.index(self.col, r) for r in range(depth - 1, rows))
        self.behind = 1 << self.geo.index(self.col, depth) if behind else 0
        self.past_row = sum(1 << self.geo.index(c, depth) for c in range(width)) if behind else 0
        self.region = 0
        for r in range(depth + behind):
            for c in range(width):
                self.region |= 1 << self.geo.index(c, r)
        self.region &= ~self.base
        self.solver = Solver(VCKnowledge(limits=BASE_LIMITS))
        self.seconds = seconds

    def holds(self, carrier: int, helpers: int) -> bool:
        """The anchor (with ``helpers``) joins the top edge through ``carrier``, the
        opponent to move."""
        black = self.base | helpers
        white = self.geo.mask & ~carrier & ~black
        self.solver.clear()
        return self.solver.solve(self.geo, [black, white], 1, seconds=self.seconds).winner == 0

    def derived(self, carrier: int, helpers: int, limits: vc.Limits) -> bool:
        """H-search under ``limits`` finds the connection on the board."""
        black = self.base | helpers
        white = self.geo.mask & ~carrier & ~black
        conns = vc.build(self.geo, [black, white], 0, limits)
        return any(f & carrier == f for f in conns.full(self.anchor, EDGE_START))

    def shrink(self, carrier: int, helpers: int, order: list[int]) -> int:
        """A minimal carrier inside ``carrier``: its cells dropped in ``order`` while the
        board stays won."""
        for c in order:
            if self.holds(carrier & ~(1 << c), helpers):
                carrier &= ~(1 << c)
        return carrier

    def random_order(self, carrier: int, rng: random.Random) -> list[int]:
        cells = list(self.geo.iter_bits(carrier))
        rng.shuffle(cells)
        return cells

    def compact_order(self, carrier: int, helpers: int) -> list[int]:
        """The cells farthest from every stone first (then those farthest from the edge):
        shrinking in this order leaves the carrier in the stones' shadow on the edge."""
        stones = [self.anchor] + list(self.geo.iter_bits(helpers))

        def dist(x: int) -> int:
            (c, r) = self.geo.coords(x)
            return min(hex_distance(c - sc, r - sr) for sc, sr in map(self.geo.coords, stones))
        return sorted(self.geo.iter_bits(carrier), key=lambda x: (-dist(x), -self.geo.coords(x)[1]))

    def ladder_orders(self, carrier: int, helper: int) -> list[list[int]]:
        """Shrinking orders that leave a connection running to the far ``helper`` (a ladder
        and its escape): the anchor's own row first, then the cells farthest from the
        helper; or the farthest first whatever their row."""
        hc = self.geo.coords(helper)[0]
        cells = list(self.geo.iter_bits(carrier))

        def far(x: int) -> int:
            return abs(self.geo.coords(x)[0] - hc)

        def row(x: int) -> int:
            return self.geo.coords(x)[1]
        orders = [sorted(cells, key=lambda x: (-row(x), -far(x))),
                  sorted(cells, key=lambda x: (-far(x), -row(x)))]
        if self.behind:  # ties broken both ways too: the escape's carrier on either side
            ac = self.geo.coords(self.anchor)[0]

            def near(x: int) -> int:
                return abs(self.geo.coords(x)[0] - ac)
            orders += [sorted(cells, key=lambda x: (-row(x), -far(x), sign * near(x)))
                       for sign in (1, -1)]
            orders += [sorted(cells, key=lambda x: (-far(x), -row(x), sign * near(x)))
                       for sign in (1, -1)]
            # the ladder's own line first, from the anchor out (the cells its attacker takes)
            line = self.depth - 1
            orders += [sorted(cells, key=lambda x: (row(x) != line, near(x) if row(x) == line
                                                    else 0, -row(x), -far(x)))]
        return orders

    def offsets(self, bits: int) -> list[list[int]]:
        return sorted([self.geo.coords(x)[0] - self.col, self.geo.coords(x)[1]]
                      for x in self.geo.iter_bits(bits))

    def picture(self, carrier: int, helpers: int) -> str:
        lines = []
        for r in range(self.geo.height - 1):
            row = []
            for c in range(self.width):
                x = self.geo.index(c, r)
                row.append("A" if x == self.anchor else "B" if (helpers | self.behind) >> x & 1
                           else "." if carrier >> x & 1 else "#")
            lines.append(" " * r + " ".join(row))
        return "\n".join(lines)


def canonical(row: int, stones, carrier) -> tuple:
    """One key for a template and its mirror image."""
    def key(s, c):
        return (tuple(sorted(map(tuple, s))), tuple(sorted(map(tuple, c))))
    mirror = templates.mirror_offsets
    return min(key(stones, carrier), key(mirror(row, stones), mirror(row, carrier)))


@click.command()
@click.option("--depth", type=int, default=4, show_default=True,
              help="rows of the template: the anchor on this row from the edge")
@click.option("--helpers", type=int, default=1, show_default=True,
              help="helper stones besides the anchor (0: single-stone templates)")
@click.option("--width", type=int, default=11, show_default=True,
              help="columns of the derivation board")
@click.option("--cols", type=NumberList(int, minimum=0), default=None,
              help="the anchor's columns on the board, comma-separated "
              "(a narrow board's sides find the narrow templates small boards need) "
              "[default: the middle one]")
@click.option("--reach", type=int, default=3, show_default=True,
              help="helpers at most this many columns from the anchor")
@click.option("--tries", type=int, default=3, show_default=True,
              help="random shrinking orders per helper set")
@click.option("--seconds", type=float, default=30.0, show_default=True,
              help="solver time per board (unproved counts as not holding)")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--ladders/--no-ladders", default=False,
              help="one helper on one side, up to --reach columns away, and carriers shrunk "
              "towards it (ladders to an escape stone), kept even where the H-search derives "
              "them on the template's own board: on a game board its limits crowd them out")
@click.option("--compact/--no-compact", default=False,
              help="besides the --tries random orders, shrink once dropping the cells "
              "farthest from every stone first (compact carriers in the stones' shadow)")
@click.option("--behind/--no-behind", default=False,
              help="with --ladders: an own stone behind the anchor, on the row past it, is "
              "part of the template, and the escape and the carrier may use that row too")
@click.option("--merge/--no-merge", default=False,
              help="add to the templates already in --out instead of replacing them")
@click.option("--show/--no-show", default=True, help="print each template kept")
@click.option("--out", type=click.Path(dir_okay=False), required=True)
def main(depth: int, helpers: int, width: int, cols: Optional[list[int]], reach: int,
         tries: int, seconds: float, seed: int, ladders: bool, compact: bool, behind: bool,
         merge: bool, show: bool, out: str) -> None:
    kernels.start(wait=True)
    rng = random.Random(seed)
    row = depth - 1
    kept = json.loads(Path(out).read_text()) if merge and Path(out).exists() else []
    # merging into the engine's own file, the templates it holds already count as known
    shipped = merge and Path(out).resolve() == templates.STONE_TEMPLATES_FILE
    filter_limits = vc.SOLVER_LIMITS if shipped else BASE_LIMITS
    seen = {canonical(t["row"], t["stones"], t["carrier"]) for t in kept}
    t0 = time.time()
    new = 0
    for col in cols or [width // 2]:
        frame = Frame(depth, width, seconds, col, behind=ladders and behind)
        if ladders:
            # mirror images are folded: one side is enough, but a stone behind the anchor
            # is not symmetric (its mirror image is the other cell behind)
            sides = list(range(1, reach + 1)) + (list(range(-reach, 0)) if behind else [])
            spots = [frame.geo.index(col + dc, r) for r in range(depth + behind)
                     for dc in sides if 0 <= col + dc < width
                     and (dc, r) != (-1, depth)]  # not the other cell behind the anchor
            new += derive_ladders(frame, spots, kept, seen, show, t0)
            continue
        spots = [frame.geo.index(col + dc, r) for r in range(1, depth)
                 for dc in range(-reach, reach + 1)
                 if 0 <= col + dc < width and (dc, r) != (0, row)]
        new += derive(frame, helpers, spots, tries, rng, kept, seen, filter_limits, show, t0,
                      compact)
    Path(out).write_text(json.dumps(kept, indent=None).replace('}, {', '},\n {') + "\n")
    click.echo(f"{new} new templates, {len(kept)} in {out} ({time.time() - t0:.0f} s)")


def derive(frame: Frame, helpers: int, spots: list[int], tries: int, rng: random.Random,
           kept: list, seen: set, filter_limits: vc.Limits, show: bool, t0: float,
           compact: bool = False) -> int:
    """Add to ``kept`` the new templates with ``helpers`` helpers on ``spots``."""
    new = 0
    for chosen in itertools.combinations(spots, helpers):
        hmask = sum(1 << x for x in chosen)
        region = frame.region & ~hmask
        if not frame.holds(region, hmask):
            continue
        orders = [frame.random_order(region, rng) for _ in range(tries)]
        if compact:
            orders.append(frame.compact_order(region, hmask))
        found = {frame.shrink(region, hmask, order) for order in orders}
        for carrier in sorted(found, key=int.bit_count):
            if any(o != carrier and o & carrier == o for o in found):
                continue  # not minimal among those found
            if any(frame.holds(carrier, hmask & ~(1 << x)) for x in chosen):
                continue  # a helper is not needed
            if frame.derived(carrier, hmask, filter_limits):
                continue
            new += keep(frame, hmask, carrier, kept, seen, show, t0, "")
    return new


def derive_ladders(frame: Frame, spots: list[int], kept: list, seen: set, show: bool,
                   t0: float) -> int:
    """Add to ``kept`` the ladder templates: for each helper spot, the minimal carriers of
    ``Frame.ladder_orders`` that need the helper."""
    new = 0
    for helper in spots:
        hmask = 1 << helper
        region = frame.region & ~hmask
        if not frame.holds(region, hmask):
            continue
        found = {frame.shrink(region, hmask, order)
                 for order in frame.ladder_orders(region, helper)}
        for carrier in sorted(found, key=int.bit_count):
            if frame.holds(carrier, 0):
                continue  # the anchor needs no escape here
            if frame.behind and not (carrier | hmask) & frame.past_row:
                continue  # the stone behind adds nothing: a ladder without it
            new += keep(frame, hmask, carrier, kept, seen, show, t0, "L")
    return new


def keep(frame: Frame, hmask: int, carrier: int, kept: list, seen: set, show: bool,
         t0: float, kind: str) -> int:
    """Add the template to ``kept`` unless it (or its mirror image) is there; 1 if added."""
    row = frame.depth - 1
    key = canonical(row, frame.offsets(hmask | frame.behind), frame.offsets(carrier))
    if key in seen:
        return 0
    seen.add(key)
    stones = (hmask | frame.behind).bit_count() + 1
    name = f"{templates.ROMAN[frame.depth]}-{kind}{stones}-{len(kept) + 1}"
    kept.append({"name": name, "row": row, "stones": [list(s) for s in key[0]],
                 "carrier": [list(c) for c in key[1]]})
    if show:
        click.echo(f"{name}: {carrier.bit_count()} cells "
                   f"({time.time() - t0:.0f} s)\n{frame.picture(carrier, hmask)}")
    return 1


if __name__ == "__main__":
    main()
