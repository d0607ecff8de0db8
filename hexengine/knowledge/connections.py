"""What a virtual connection is: node ids, the bounds of a build, and its result.

Everything is per colour.  The nodes are that colour's groups (chains of touching stones, a
group named by its lowest cell), its two edges (``EDGE_START`` = -1, ``EDGE_GOAL`` = -2) and the
empty cells (named by themselves).  A *full* connection (VC) between two nodes with carrier C
(a bitboard of empty cells) means the owner joins them whatever the opponent does, answering
inside C.  A *semi* connection (SC) with key k and carrier C (k in C) means the owner joins them
by playing k first.

This module holds the types both H-search backends share (the Python closure in
``hsearch_python``, the compiled kernel in ``hsearch``); ``vc`` is the front that picks one.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Optional

from ..geometry import Geometry

EDGE_START = -1
EDGE_GOAL = -2

_OFF = 2  # node ids run from -2; pair keys use (id + _OFF)


@dataclass(frozen=True)
class Limits:
    """Bounds of one build (Benzene's soft limits and max_ors, plus a global work cap)."""
    max_fulls: int = 10  # full carriers kept per pair
    max_semis: int = 20  # semi carriers kept per pair
    max_ors: int = 4  # semis combined by one OR
    or_candidates: int = 10  # a new semi is combined only with this many smallest of its pair
    and_fulls: int = 4  # carriers per partner used by one AND
    work: int = 150_000  # combination attempts per build; past it the build stops (sound)
    stop_at_win: bool = False  # stop as soon as an edge-to-edge VC is found
    templates: bool = True  # edge templates as base connections
    stone_templates: bool = False  # and the derived ones that need helper stones
    empty_pairs: bool = False  # derive connections between two empty cells too (Benzene)
    edge_band: bool = False  # second-row cells two apart joined through their edge, and
    # ANDs sharing the edge cells a second-row cell captures (docs/connections.md)
    refresh_lost: bool = False  # a build extended from an earlier one (``hsearch.run_from``)
    # queues again every carrier of a pair that lost one its AND or OR combined, as Benzene's
    # incremental build does: those that move up were never combined (docs/solver.md)
    captured_or: bool = False  # an OR whose semis share only cells their ends capture once
    # played (an empty second-row cell's two edge cells), and a semi inside them, make a
    # full connection with those cells (Benzene's captured sets; docs/connections.md)


DEFAULT_LIMITS = Limits()
# Benzene's H-search: connections between empty cells derived too, with its soft limits.  Its
# carriers reach across the open board, so it sees far more: on 9x9 game positions 6-7 ms for
# both colours instead of 0.8, and a mustplay of 42 cells on average instead of 49; the
# solver proves five 6x6 openings in 7 s instead of 36.  Used where a build is worth the most
# (the search's root, every node of the solver), not at every node of the search.
WIDE_LIMITS = Limits(empty_pairs=True, max_fulls=25, max_semis=50, or_candidates=20,
                     and_fulls=8, work=300_000)
# The solver's: the wide build with ORs of up to six semis.  A connection that only an OR of
# five or six semi connections gives (a group's to its edge around an opponent stone) ends
# lines at sight: on six 7x7 openings 16 % fewer nodes (27,315 to 22,972; 8 ORs: no fewer),
# for 1.3x the build time (an 11x11 game position: 3.8 to 4.9 ms).  With the derived stone
# templates too: 22,972 to 18,986 nodes on those openings.
SOLVER_LIMITS = dataclasses.replace(WIDE_LIMITS, max_ors=6, stone_templates=True,
                                    refresh_lost=True)


class Connections:
    """The connections of one colour in one position (the result of ``vc.build``)."""

    def __init__(self, geo: Geometry, stones, colour: int) -> None:
        self.geo = geo
        self.colour = colour
        self.stones = (stones[0], stones[1])
        own = stones[colour]
        self.empty = geo.mask & ~(stones[0] | stones[1])
        self.group_of: dict[int, int] = {}  # own cell -> group id (its lowest cell)
        self.groups: dict[int, int] = {}  # group id -> its cells
        rest = own
        while rest:
            low = rest & -rest
            g = geo.flood(low, own)
            gid = low.bit_length() - 1
            self.groups[gid] = g
            for cell in geo.iter_bits(g):
                self.group_of[cell] = gid
            rest &= ~g
        self.fulls: dict[int, list[int]] = {}  # pair key -> carriers, smallest first
        self.semis: dict[int, list[int]] = {}  # pair key -> carriers (key included)
        self.semi_keys: dict[int, list[int]] = {}  # pair key -> keys, parallel to semis
        self.adj: dict[int, dict[int, list[int]]] = {}  # node -> partner -> full carriers
        self.work = 0
        self.complete = True  # False when the work cap stopped the build

    # --- naming ----------------------------------------------------------------------------
    def node(self, cell: int) -> int:
        """The node of a cell or edge id: its group for an own stone, else itself."""
        return self.group_of.get(cell, cell)

    @staticmethod
    def _key(a: int, b: int) -> int:
        if a > b:
            a, b = b, a
        return (a + _OFF) << 16 | (b + _OFF)

    @staticmethod
    def _unkey(k: int) -> tuple[int, int]:
        return (k >> 16) - _OFF, (k & 0xFFFF) - _OFF

    # --- queries ---------------------------------------------------------------------------
    def edge_full(self) -> Optional[int]:
        """Carrier of the smallest edge-to-edge VC; 0 when the edges are already joined;
        None when no VC is known."""
        lst = self.fulls.get(self._key(EDGE_START, EDGE_GOAL))
        return lst[0] if lst else None

    def edge_semis(self) -> list[int]:
        """Carriers (keys included) of the edge-to-edge SCs."""
        return list(self.semis.get(self._key(EDGE_START, EDGE_GOAL), ()))

    def edge_full_all(self) -> list[int]:
        """Carriers of every edge-to-edge VC kept, smallest first."""
        return list(self.fulls.get(self._key(EDGE_START, EDGE_GOAL), ()))

    def edge_semis_keyed(self) -> list[tuple[int, int]]:
        """(key bit, carrier) of every edge-to-edge SC kept, smallest carrier first."""
        k = self._key(EDGE_START, EDGE_GOAL)
        return [(1 << key, carrier)
                for key, carrier in zip(self.semi_keys.get(k, ()), self.semis.get(k, ()))]

    def full_pairs(self) -> list[tuple[int, int]]:
        """Node pairs with at least one full connection."""
        return [self._unkey(k) for k, lst in self.fulls.items() if lst]

    def full(self, a: int, b: int) -> list[int]:
        """Full carriers between two nodes (any cell of a group names the group)."""
        a, b = self.node(a), self.node(b)
        return list(self.fulls.get(self._key(a, b), ()))

    def semi(self, a: int, b: int) -> list[int]:
        """Semi carriers (keys included) between two nodes."""
        a, b = self.node(a), self.node(b)
        return list(self.semis.get(self._key(a, b), ()))

    def semi_keyed(self, a: int, b: int) -> list[tuple[int, int]]:
        """(key cell, carrier) of every semi connection kept between two nodes."""
        k = self._key(self.node(a), self.node(b))
        return list(zip(self.semi_keys.get(k, ()), self.semis.get(k, ())))

    def count(self) -> tuple[int, int]:
        """(full carriers, semi carriers) kept."""
        return (sum(len(v) for v in self.fulls.values()),
                sum(len(v) for v in self.semis.values()))
