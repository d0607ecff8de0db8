"""Recent compiled H-search builds, kept so that a position's build can start from an
earlier one: Benzene's incremental builds, for the solver.

A proof-number search expands a node and, later, its children's children: the same
colour's connections on a board with one more stone of each side.  ``BuildCache`` keeps
the recent builds packed (``hsearch.pack_build``: what an extension reads, a tenth of a
workspace) and builds a position from the nearest kept one whose stones it holds
(``hsearch.run_from``: only what the new stones change is derived again).  The
connections are as sound as a fresh build's, though not always the same ones: what the
soft limits let in before stays.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..geometry import Geometry
from . import hsearch, vc
from .connections import Connections, Limits

MAX_NEW_STONES = 6  # stones changed since a kept build: more, and a fresh build is cheaper
MEMORY = 128 << 20  # bytes of packed builds a cache holds
GENERATIONS = 2  # kept: fresh builds and those extended from one; a build extended from an
# extended one is not, so what a fresh build would add is at most two extensions away


@dataclass(eq=False)
class _Entry:
    colour: int
    black: int
    white: int
    packed: hsearch.Packed
    generation: int  # builds since a fresh one: 0 for a fresh build

    def sides(self, colour: int) -> tuple[int, int]:
        """(``colour``'s stones, the opponent's)."""
        return (self.black, self.white) if colour == 0 else (self.white, self.black)

    @property
    def bucket(self) -> tuple[int, int]:
        return self.colour, (self.black | self.white).bit_count()


class BuildCache:
    """Packed builds of one board size and one set of limits, the least recently used
    first; ``stats`` counts the fresh builds and those extended from a kept one."""

    def __init__(self, memory: Optional[int] = None) -> None:
        self.memory = MEMORY if memory is None else memory
        self._key: Optional[tuple] = None
        self._entries: dict[_Entry, None] = {}  # the least recently used first
        self._by_count: dict[tuple[int, int], list[_Entry]] = {}
        self._bytes = 0
        self._before: Optional[hsearch.Workspace] = None
        self.stats = {"fresh": 0, "extended": 0}

    def __len__(self) -> int:
        """How many builds are kept."""
        return len(self._entries)

    def build(self, geo: Geometry, stones, colour: int, limits: Optional[Limits] = None,
              deadline: Optional[float] = None) -> Connections:
        """``vc.build``'s connections for ``colour`` (same arguments), extended from the
        nearest kept build where there is one."""
        lim = limits or vc.DEFAULT_LIMITS
        if not hsearch.usable(geo):
            return vc.build(geo, stones, colour, lim, deadline)
        key = (geo.width, geo.height, lim)
        if key != self._key:
            self._reset(key)
        black, white = stones[0], stones[1]
        pos = (black, white)
        base = self._nearest(colour, black, white)
        if base is None:
            built = hsearch.run(geo, pos, colour, lim)
            self.stats["fresh"] += 1
        else:
            self._touch(base)
            self._before = hsearch.unpack_build(base.packed, geo, lim, self._before)
            own, opp = pos[colour], pos[1 - colour]
            b_own, b_opp = base.sides(colour)
            built = hsearch.run_from(geo, pos, colour, lim, self._before, own & ~b_own,
                                     opp & ~b_opp)
            self.stats["extended"] += 1
        conns = hsearch.CompiledConnections(geo, pos, colour, lim, built=built)
        if conns.edge_full() is None:  # (a build stopped at a win is no base)
            gen = 0 if base is None else base.generation + 1
            if gen < GENERATIONS:
                self._keep(_Entry(colour, black, white, hsearch.pack_build(built), gen))
        return conns

    def _nearest(self, colour: int, black: int, white: int) -> Optional[_Entry]:
        """The kept build of ``colour`` that the fewest changed cells turn into this
        position, or None within MAX_NEW_STONES.  A base may lack stones of either colour
        and hold opponent stones that are gone (the connections avoided them), never an
        own stone that is gone or has turned."""
        own, opp = (black, white) if colour == 0 else (white, black)
        count = (black | white).bit_count()
        best, best_cost = None, MAX_NEW_STONES + 1
        for fewer in range(min(MAX_NEW_STONES, count) + 1):
            if fewer >= best_cost:
                break
            for e in self._by_count.get((colour, count - fewer), ()):
                e_own, e_opp = e.sides(colour)
                if e_own & ~own or e_opp & own:
                    continue
                cost = ((own ^ e_own) | (opp ^ e_opp)).bit_count()
                if cost < best_cost:
                    best, best_cost = e, cost
        return best

    def _keep(self, entry: _Entry) -> None:
        self._entries[entry] = None
        self._by_count.setdefault(entry.bucket, []).append(entry)
        self._bytes += entry.packed.nbytes
        while self._bytes > self.memory and len(self._entries) > 1:
            old = next(iter(self._entries))
            del self._entries[old]
            self._by_count[old.bucket].remove(old)
            self._bytes -= old.packed.nbytes

    def _touch(self, entry: _Entry) -> None:
        """Kept longest: its other grandchildren will ask for it."""
        del self._entries[entry]
        self._entries[entry] = None

    def clear(self) -> None:
        """Forget every kept build (a new game, ``dfpn-clear-tt``)."""
        self._key = None
        self._entries.clear()
        self._by_count.clear()
        self._bytes = 0
        self._before = None

    def _reset(self, key: tuple) -> None:
        self.clear()
        self._key = key
