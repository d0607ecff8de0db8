"""What the search asks of the knowledge modules: at its root, and at the first plies below.

``analyse_root`` does, in order: fill-in of dead and captured cells (a position with the
same winner and fewer cells to think about), H-search for both colours on the filled board,
and from that the edge-to-edge threats that the search checks at every node below
(``threats``) and the moves worth searching at the root (mustplay minus the cells proved
inferior).  ``refresh_threats`` rebuilds the connections of the colour that just moved,
so that a node a ply or two below the root sees the threats its last move made.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Optional

from ..geometry import Geometry
from . import decompose, inferior, vc
from .threats import LOST, WIN_NOW, EdgeThreats


LINKS_PER_PAIR = 3  # full carriers per pair of groups/edges that the evaluation wires up


@dataclass
class RootKnowledge:
    stones: list[int]  # the root stones after fill-in: the position the search works on
    filled: inferior.Inferior
    connections: tuple[vc.Connections, vc.Connections]
    threats: EdgeThreats
    verdict: int  # WIN_NOW, LOST or OPEN for the colour to move
    moves: int  # empty cells worth searching at the root
    pruned: int  # empty cells dropped as inferior (outside the fill-in)
    build_seconds: float  # what the two H-searches took (it prices a rebuild below)
    decided: bool  # the fill-in joined a colour's edges or filled the board: nothing is
    # left to search on the filled board, so the search plays on the real one

    def links(self, per_pair: int = LINKS_PER_PAIR) -> tuple[list, list]:
        """Per colour, the full connections between its groups and edges as (cell, cell or
        edge id, carrier): up to ``per_pair`` carriers for each pair, smallest first.  They
        stay true below the root while the opponent has no stone in the carrier, which is
        what the resistance circuit checks at each leaf (``evaluation.resistance.Links``)."""
        out: tuple[list, list] = ([], [])
        for colour, conns in enumerate(self.connections):
            for a, b in conns.full_pairs():
                if a < 0 and b < 0:
                    continue
                if a < 0:
                    a, b = b, a
                if a not in conns.groups or (b >= 0 and b not in conns.groups):
                    continue
                for carrier in conns.full(a, b)[:per_pair]:
                    if carrier:  # an empty carrier joins stones that already touch
                        out[colour].append((a, b, carrier))
        return out

    def counts(self) -> dict[str, int]:
        """How many cells each kind of knowledge took out (for logs and hexengine-info)."""
        return {
            "dead": self.filled.dead.bit_count(),
            "captured": self.filled.captured[0].bit_count() + self.filled.captured[1].bit_count(),
            "inferior": self.pruned.bit_count(),
            "moves": self.moves.bit_count(),
        }


def _edge_lists(conns: vc.Connections) -> tuple[list[int], list[tuple[int, int]]]:
    return conns.edge_full_all(), conns.edge_semis_keyed()


KEEP = 8  # carriers of the parent's lists kept beside a fresh build's

# The root's H-search on boards up to 10x10 is the wide one (vc.WIDE_LIMITS); on larger
# boards its work cap cuts it short of the edges, so they keep the default.
WIDE_ROOT_CELLS = 100


def wide_root(geo: Geometry) -> bool:
    """Whether the root's H-search on this board is the wide one (``WIDE_ROOT_CELLS``)."""
    return geo.mask.bit_count() <= WIDE_ROOT_CELLS


def refresh_threats(geo: Geometry, stones: list[int], mover: int, threats: EdgeThreats,
                    deadline: Optional[float] = None,
                    limits: Optional[vc.Limits] = None) -> EdgeThreats:
    """``threats`` with ``mover``'s edge-to-edge carriers built afresh for ``stones`` (the
    position after mover's stone) under ``limits``: the new ones first, then the parent's
    that survive (a build under a work cap may miss some).  The other colour's lists are
    kept."""
    theirs = stones[1 - mover]
    full, semi = _edge_lists(vc.build(geo, stones, mover, limits, deadline))
    full += [c for c in threats.full[mover][:KEEP] if not c & theirs]
    semi += [ks for ks in threats.semi[mover][:KEEP] if not ks[1] & theirs]
    if mover == 0:
        return EdgeThreats((full, threats.full[1]), (semi, threats.semi[1]))
    return EdgeThreats((threats.full[0], full), (threats.semi[0], semi))


def _joined(geo: Geometry, stones: list[int]) -> bool:
    """Whether a colour's stones join its two edges."""
    return any(geo.flood(geo.edges[c][0], stones[c]) & geo.edges[c][1] for c in (0, 1))


def analyse_root(geo: Geometry, stones: list[int], colour: int,
                 deadline: Optional[float] = None) -> RootKnowledge:
    """Fill-in, both colours' connections and the root moves for ``colour`` to move.  The
    H-searches stop at ``deadline`` with what they have (all of it sound).  Play reads
    the fill-in without edge-row cells (``inferior.PLAY_EDGE_ROWS``)."""
    filled_stones, filled = inferior.play_fill_in(geo, stones)
    started = time.monotonic()
    limits = vc.WIDE_LIMITS if wide_root(geo) else None
    filled_stones, built, more = decompose.fill_decompositions(
        geo, filled_stones, (0, 1), limits, deadline=deadline, edge=inferior.PLAY_EDGE_ROWS)
    decomposed = bool(more.captured[0] | more.captured[1])
    if decomposed:
        filled = filled.union(more)
    decided = not (geo.mask & ~(filled_stones[0] | filled_stones[1])) or _joined(
        geo, filled_stones)
    conns = (built.get(0) or vc.build(geo, filled_stones, 0, limits, deadline),
             built.get(1) or vc.build(geo, filled_stones, 1, limits, deadline))
    build_seconds = (time.monotonic() - started) / (2 if decomposed else 1)
    black, white = _edge_lists(conns[0]), _edge_lists(conns[1])
    threats = EdgeThreats((black[0], white[0]), (black[1], white[1]))
    empty = geo.mask & ~(filled_stones[0] | filled_stones[1])
    verdict, must = threats.status(filled_stones, colour, empty)
    pruned = 0
    if verdict == WIN_NOW:
        # connected: any move inside the smallest carrier keeps it; else play a semi's key
        full = [c for c in threats.full[colour] if not c & filled_stones[1 - colour]]
        if full:
            moves = min(full, key=int.bit_count) & empty or empty
        else:
            moves = min((c for c in threats.semi[colour]
                         if not c[1] & filled_stones[1 - colour]), key=lambda c: c[1].bit_count())[0]
    elif verdict == LOST:
        # lost against best play: stay inside the opponent's connections, make it prove them
        theirs = [c for c in threats.full[1 - colour]] + [c for _, c in threats.semi[1 - colour]]
        moves = min(theirs, key=int.bit_count) & empty or empty
    else:
        for cell in inferior.prunable_moves(geo, filled_stones, colour, must, deadline,
                                            inferior.PLAY_EDGE_ROWS)[0]:
            pruned |= 1 << cell
        moves = must & ~pruned or must
    return RootKnowledge(filled_stones, filled, conns, threats, verdict, moves, pruned,
                         build_seconds, decided)


@dataclass
class InferiorReport:
    """Everything the inferior-cell analysis says of a position (``hexengine-inferior``)."""
    filled: inferior.Inferior  # fill-in, decompositions' carriers counted as captured
    vulnerable: dict[int, int]  # pruned vulnerable cell -> its killers
    dominated: dict[int, int]  # pruned dominated cell -> the candidates dominating it


def inferior_report(geo: Geometry, stones: list[int], colour: int) -> InferiorReport:
    """Fill-in (with both colours' combinatorial decompositions, as the root does) and the
    moves ``colour`` need not search on the filled board, each with why: vulnerable to a
    killer or dominated by other candidates.  No pruning once a colour's edges are joined."""
    filled_stones, filled = inferior.fill_in(geo, stones)
    limits = vc.WIDE_LIMITS if wide_root(geo) else None
    filled_stones, _, more = decompose.fill_decompositions(geo, filled_stones, (0, 1), limits)
    filled = filled.union(more)
    vulnerable: dict[int, int] = {}
    dominated: dict[int, int] = {}
    if not _joined(geo, filled_stones):
        empty = geo.mask & ~(filled_stones[0] | filled_stones[1])
        kill = inferior.killers(geo, filled_stones, colour)
        for cell, by in inferior.prunable_moves(geo, filled_stones, colour, empty)[0].items():
            if cell in kill:
                vulnerable[cell] = kill[cell]
            else:
                dominated[cell] = by
    return InferiorReport(filled, vulnerable, dominated)
