"""Inferior cells: dead and captured cells, fill-in, and the moves that can be pruned.

Everything is whole-board bitboard algebra (``geo`` from ``hexengine.geometry``,
``stones = [black_bits, white_bits]``); no per-cell Python loops except over the few
matches of a captured or vulnerable pattern.

The neighbourhood of a cell
---------------------------
The six neighbours of a cell are taken in ring order (each is adjacent to the next)::

    d:        0       1       2        3        4        5
    (dc, dr): (1, 0)  (0, 1)  (-1, 1)  (-1, 0)  (0, -1)  (1, -1)

``NB[d]`` is the board of cells whose neighbour in direction ``d`` is black, ``NW[d]``
white.  Off-board neighbours count as the stone of the edge they lie beyond: above row 1
and below the last row they are black, left of column a and right of the last column
white.  The one off-board neighbour of an obtuse corner that lies beyond both edges is
counted as black.  It sits in the ring between the black and the white edge, so either
colour is sound (the corner touches both edges); the choice only decides which colour
some dead corner cells are filled with.  The soundness test covers the corners.

Dead cells (Björnsson, Hayward, Johanson, van Rijswijck, "Dead cell analysis in Hex and
the Shannon game", 2006)
--------------------------------------------------------------------------------
A cell is *useless for black* if black never needs it: every black path through it can
go round it inside its ring.  That holds exactly when the ring's non-white neighbours form
one arc whose inner cells are all black (or at most two cells).  A cell useless for both
colours is dead.  Worked through the ring, that leaves three local patterns, in every
rotation and in both colours (X, Y the two colours, ``.`` any content or off-board)::

    four X in a row                  X X X X . .
    three X and Y opposite           X X X . Y .
    two X opposite two Y             X X . Y Y .

A dead cell's colour never changes the winner, in any completion of the board, so all
dead cells of a position can be filled at once.  We fill a dead cell with the colour that
surrounds it (the X of the first two patterns; black for the third).  Either colour would
be sound; the majority colour keeps the filled board looking like what it is (a dead
cell walled in by black becomes part of that wall) and does not hand the minority colour
a stone that an evaluation could mistake for a bridge partner.

Captured cells (same paper; Henderson's thesis)
----------------------------------------------
Two adjacent empty cells a, b are *captured* by X if X's stone on either one makes the
other dead: whatever Y plays in the pair, X answers in the other cell and Y's stone is
dead, so X may fill both at once.  Rather than list the shapes, the test is computed: the
dead patterns are evaluated with the partner cell forced to X.  That covers the classic
captured shapes (the carrier of an X stone's bridge to its own edge from row 2, the pair
walled in by four X stones) and every other pair the dead patterns allow.  Matches of both colours are filled together only when their pairs are disjoint:
a pattern needs only its own pair empty and some stones present, so disjoint matches stay
valid whatever the others fill.

Edge-row cells
--------------
An X stone n on X's edge row, with a neighbour c on the same row whose three other
neighbours are empty: m (on the second row, next to n), k and l.  When the other cell
next to both n and m is an X stone s (or lies off the board: n is then an acute corner
cell), c is filled with X::

    top edge:   l  c  n                 l  c  n          (n in the corner,
                 k  m  s                 k  m             m on Y's edge)

X's stone on m or on l makes c dead (four X in a row round it), so X answers a Y stone
on c there while m or l is empty; Benzene fills the same cells (its ``compute-fillin``,
on every position compared: none that it does not).  We have no proof of our own that the filling
never changes the winner: it is checked by solving, with and without it, positions that
hold the pattern with the rest of the board at random (tests/test_inferior.py; 4,000
positions on 4x4 to 6x6 while it was written, none changed).  It never applies to a
corner cell, so a cell is filled for one colour only.  A proof that counts on such a
cell needs n and s too (``edge_reads``).

Fill-in repeats dead, then captured, then edge-row cells, until nothing changes.

Vulnerable cells and pruning
----------------------------
Colour P's move v is *vulnerable* to the opponent's reply k (the killer, a neighbour of v)
when the opponent's stone on k makes v dead.  Then P's move k is at least as good as v:
play the winning strategy for "P on v" with the roles of v and k exchanged; at the end the
boards differ only in v and k, and where the opponent holds k, v is dead and may be
recoloured.  So v may be pruned if k is searched.  ``prunable`` prunes vulnerable cells
greedily, each only while one of its killers is still unpruned; the killer chains then
end in unpruned cells (a cycle would need a cell pruned after the cell it points to), so
every pruned move has an unpruned move at least as good.
"""
from __future__ import annotations

import functools
import time
from typing import NamedTuple, Optional

import numpy as np

from .. import kernels
from ..geometry import Geometry, geometry
from . import fillin_kernel

BLACK = 0
WHITE = 1

# ring order of the six neighbour directions; DIRS[(d + 3) % 6] is the opposite of DIRS[d]
DIRS = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))

# Whether play (the search's nodes, its root analysis, the network's leaves) fills the
# edge-row cells too.  The solver does (fewer nodes, docs/solver.md); in play they won
# 64 of 100 against the default but made no difference against Wolve (docs/strength.md).
PLAY_EDGE_ROWS = False


class Inferior(NamedTuple):
    dead: int                     # empty cells found dead (filled, see dead_as)
    captured: tuple[int, int]     # cells filled for black, for white: captured or edge-row
    dead_as: tuple[int, int]      # the dead cells filled black, filled white
    edge: tuple[int, int] = (0, 0)  # of the captured cells, those filled as edge-row cells

    @property
    def filled(self) -> tuple[int, int]:
        """Every cell fill-in coloured black, white."""
        return (self.captured[0] | self.dead_as[0], self.captured[1] | self.dead_as[1])

    def union(self, then: "Inferior") -> "Inferior":
        """This record and ``then`` (what a later fill filled) as one."""
        return Inferior(self.dead | then.dead,
                        (self.captured[0] | then.captured[0], self.captured[1] | then.captured[1]),
                        (self.dead_as[0] | then.dead_as[0], self.dead_as[1] | then.dead_as[1]),
                        (self.edge[0] | then.edge[0], self.edge[1] | then.edge[1]))


NOTHING_FILLED = Inferior(0, (0, 0), (0, 0))


class _Tables(NamedTuple):
    offsets: tuple[int, ...]      # index offset of the neighbour in direction d
    edge: tuple[tuple[int, ...], tuple[int, ...]]  # edge[colour][d]: d-neighbour is that edge
    mask: int


@functools.lru_cache(maxsize=64)
def _tables(width: int, height: int) -> _Tables:
    stride = width + 1
    offsets = tuple(dr * stride + dc for dc, dr in DIRS)
    black = [0] * 6
    white = [0] * 6
    for r in range(height):
        for c in range(width):
            bit = 1 << (r * stride + c)
            for d, (dc, dr) in enumerate(DIRS):
                cc, rr = c + dc, r + dr
                if not 0 <= rr < height:
                    black[d] |= bit          # beyond the top/bottom (and the corner ghost)
                elif not 0 <= cc < width:
                    white[d] |= bit          # beyond the left/right
    mask = sum(1 << (r * stride + c) for r in range(height) for c in range(width))
    return _Tables(offsets, (tuple(black), tuple(white)), mask)


def _tab(geo: Geometry) -> _Tables:
    return _tables(geo.width, geo.height)


def _neighbours(t: _Tables, stones: int, colour: int) -> list[int]:
    """N[d]: cells whose neighbour in direction d is ``colour`` (stone or edge)."""
    edge = t.edge[colour]
    out = []
    for d, off in enumerate(t.offsets):
        out.append(((stones >> off) if off > 0 else (stones << -off)) | edge[d])
    return out


def _shift(bits: int, off: int) -> int:
    """Cells x such that x + off is in ``bits`` (may leave stray bits off the board)."""
    return (bits >> off) if off > 0 else (bits << -off)


def _dead_parts(nb: list[int], nw: list[int]) -> tuple[int, int, int]:
    """Cells matching a dead pattern, as (black majority, white majority, two-and-two).

    Not restricted to empty cells; the caller masks.
    """
    b2 = [nb[r] & nb[(r + 1) % 6] for r in range(6)]
    w2 = [nw[r] & nw[(r + 1) % 6] for r in range(6)]
    mb = mw = mc = 0
    for r in range(6):
        r2, r3, r4 = (r + 2) % 6, (r + 3) % 6, (r + 4) % 6
        mb |= b2[r] & nb[r2] & (nb[r3] | nw[r4])
        mw |= w2[r] & nw[r2] & (nw[r3] | nb[r4])
        mc |= b2[r] & w2[r3]
    return mb, mw, mc


def _dead_any(nb: list[int], nw: list[int]) -> int:
    mb, mw, mc = _dead_parts(nb, nw)
    return mb | mw | mc


def dead_cells(geo: Geometry, stones: list[int]) -> int:
    """Empty cells that match a dead pattern now (one pass, no fill-in)."""
    t = _tab(geo)
    black, white = stones
    empty = t.mask & ~(black | white)
    return empty & _dead_any(_neighbours(t, black, BLACK), _neighbours(t, white, WHITE))


def _forced_dead(nb: list[int], nw: list[int], d: int, colour: int, full: int) -> int:
    """Dead-pattern cells when every cell's neighbour in direction d is ``colour``.

    The plain substitution; ``_forced`` is the fast form used by fill-in and pruning."""
    nb = list(nb)
    nw = list(nw)
    if colour == BLACK:
        nb[d], nw[d] = full, 0
    else:
        nw[d], nb[d] = full, 0
    return _dead_any(nb, nw)


def _forced(own: list[int], opp: list[int], d: int) -> int:
    """Cells that a stone of ``own``'s colour on their neighbour in direction d would make
    dead.  The dead patterns with that neighbour set to own, keeping only the terms that
    use it: on empty cells of a position without dead cells the other terms are zero, so
    there this equals ``_forced_dead``.  (a_i = own neighbour at d+i, q_i = opponent.)"""
    a1 = own[(d + 1) % 6]
    a2 = own[(d + 2) % 6]
    a3 = own[(d + 3) % 6]
    a4 = own[(d + 4) % 6]
    a5 = own[(d + 5) % 6]
    q2 = opp[(d + 2) % 6]
    q3 = opp[(d + 3) % 6]
    q4 = opp[(d + 4) % 6]
    return (a1 & (a2 & (a3 | q4) | q3 & q4)        # X X X X / X X X . Y / X X . Y Y with d first
            | a5 & (a1 & (a2 | q3) | q2 & q3)      # ... with d second
            | a4 & a5 & (a1 | q2)                  # d third of three X
            | a3 & a4 & a5                         # d last of four X
            | q2 & q3 & q4)                        # d opposite the middle of three Y


def compiled() -> bool:
    """Whether ``fill_in`` and ``dominated`` run compiled (``fillin_kernel`` has loaded)."""
    return fillin_kernel.ready()


@functools.lru_cache(maxsize=1)
def ring_rules() -> fillin_kernel.Rules:
    """The dead and forced-dead patterns above as lookup tables over one cell's ring (six
    bits of black neighbours, six of white, edges included), for ``fillin_kernel``: each
    entry is what ``_dead_parts`` and ``_forced`` give for a cell with that ring."""
    dead = np.zeros(64 * 64, np.int8)
    forced = np.zeros(6 * 64 * 64, np.int8)
    for b in range(64):
        nb = [b >> d & 1 for d in range(6)]
        for w in range(64):
            if b & w:
                continue
            nw = [w >> d & 1 for d in range(6)]
            mb, mw, mc = _dead_parts(nb, nw)
            dead[b * 64 + w] = 1 if mb | mc else 2 if mw else 0
            for d in range(6):
                forced[d * 4096 + b * 64 + w] = _forced(nb, nw, d)
    return fillin_kernel.Rules(DIRS, dead, forced)


class EdgePattern(NamedTuple):
    """One placement of the edge-row pattern (bitboards): ``cell`` is filled with
    ``colour`` when ``near`` (n) and ``far`` (s; 0 when off the board) are ``colour``'s
    and ``empty`` (m, k, l) is empty."""
    colour: int
    cell: int
    near: int
    far: int
    empty: int

    @property
    def stones(self) -> int:
        return self.near | self.far


@functools.lru_cache(maxsize=64)
def edge_patterns(width: int, height: int) -> tuple[EdgePattern, ...]:
    """Every placement of the edge-row pattern on a board, in a fixed order (the order
    fill-in tries them in).  Built in each edge's own frame: x along the edge, y away from
    it (0 the edge row), then mapped onto the board."""
    geo = geometry(width, height)
    frames = (
        (BLACK, width, height, lambda x, y: (x, y)),
        (BLACK, width, height, lambda x, y: (width - 1 - x, height - 1 - y)),
        (WHITE, height, width, lambda x, y: (y, x)),
        (WHITE, height, width, lambda x, y: (width - 1 - y, height - 1 - x)),
    )
    out = []
    for colour, length, depth, place in frames:
        if depth < 2:
            continue

        def bits(*cells: tuple[int, int]) -> int:
            return sum(1 << geo.index(*place(x, y)) for x, y in cells
                       if 0 <= x < length)

        for x in range(1, length - 1):
            # n east of c: n (x+1, 0), s (x+1, 1), m (x, 1), k (x-1, 1), l (x-1, 0)
            out.append(EdgePattern(colour, bits((x, 0)), bits((x + 1, 0)), bits((x + 1, 1)),
                                   bits((x, 1), (x - 1, 1), (x - 1, 0))))
            # n west of c: n (x-1, 0), s (x-2, 1) or off the board, m (x-1, 1), k (x, 1),
            # l (x+1, 0)
            out.append(EdgePattern(colour, bits((x, 0)), bits((x - 1, 0)), bits((x - 2, 1)),
                                   bits((x - 1, 1), (x, 1), (x + 1, 0))))
    return tuple(out)


def _patterns(geo: Geometry, edge: bool) -> tuple[EdgePattern, ...]:
    return edge_patterns(geo.width, geo.height) if edge else ()


def edge_reads(geo: Geometry, cells: int) -> int:
    """The stones the edge-row pattern reads beyond the ring of each cell in ``cells``
    (n and s; with the ring itself, what a proof that counts on those cells holds)."""
    if not cells:
        return 0
    out = 0
    for pat in edge_patterns(geo.width, geo.height):
        if pat.cell & cells:
            out |= pat.stones
    return out


def _edge_cells(geo: Geometry, black: int, white: int,
                captors: tuple[int, ...]) -> tuple[int, int]:
    """Edge-row cells filled one pattern after the other (each read on the board as the
    ones before it left it); returns black, white after them."""
    for pat in edge_patterns(geo.width, geo.height):
        if pat.colour not in captors:
            continue
        own = black if pat.colour == BLACK else white
        if (pat.cell | pat.empty) & (black | white) or own & pat.stones != pat.stones:
            continue
        if pat.colour == BLACK:
            black |= pat.cell
        else:
            white |= pat.cell
    return black, white


def _captured_pairs(t: _Tables, nb: list[int], nw: list[int], empty: int,
                    colour: int) -> list[tuple[int, int]]:
    """(anchor cells a, direction d) with {a, a+d} captured by ``colour``; d in 0..2.
    Only valid when no empty cell is dead (fill-in removes those first)."""
    own, opp = (nb, nw) if colour == BLACK else (nw, nb)
    out = []
    for d in range(3):
        off = t.offsets[d]
        pair = empty & _shift(empty, off)
        if not pair:
            continue
        pair &= _forced(own, opp, d)                              # a dead once b is ours
        if not pair:
            continue
        pair &= _shift(_forced(own, opp, d + 3) & empty, off)     # b dead once a is ours
        if pair:
            out.append((pair, d))
    return out


def fill_in(geo: Geometry, stones: list[int],
            captors: tuple[int, ...] = (BLACK, WHITE),
            edge: bool = True) -> tuple[list[int], Inferior]:
    """Dead, captured and (with ``edge``) edge-row cells filled, repeated to a fixpoint
    (fill-in creates new patterns); returns NEW stones list (input untouched) and
    everything that was filled.  Only the ``captors``' captured and edge-row cells are
    filled (dead cells always).  Once its kernel has loaded, ``fillin_kernel`` computes
    the same."""
    if compiled():
        black, white, dead_b, dead_w, cap_b, cap_w, edge_b, edge_w = fillin_kernel.fill_in(
            geo, stones, captors, ring_rules(), _patterns(geo, edge))
        return [black, white], Inferior(dead_b | dead_w, (cap_b | edge_b, cap_w | edge_w),
                                        (dead_b, dead_w), (edge_b, edge_w))
    t = _tab(geo)
    black, white = stones
    mask = t.mask
    dead_b = dead_w = cap_b = cap_w = edge_b = edge_w = 0
    while True:
        empty = mask & ~(black | white)
        if not empty:
            break
        nb = _neighbours(t, black, BLACK)
        nw = _neighbours(t, white, WHITE)
        mb, mw, mc = _dead_parts(nb, nw)
        as_black = empty & (mb | mc)
        as_white = empty & mw & ~as_black
        if as_black or as_white:
            dead_b |= as_black
            dead_w |= as_white
            black |= as_black
            white |= as_white
            continue
        taken = 0
        new = [0, 0]
        for colour in captors:
            for anchors, d in _captured_pairs(t, nb, nw, empty, colour):
                off = t.offsets[d]
                while anchors:
                    low = anchors & -anchors
                    anchors ^= low
                    cells = low | _shift(low, -off)
                    if not cells & taken:
                        taken |= cells
                        new[colour] |= cells
        if not taken:
            if not edge:
                break
            after_b, after_w = _edge_cells(geo, black, white, captors)
            if after_b == black and after_w == white:
                break
            edge_b |= after_b & ~black
            edge_w |= after_w & ~white
            black, white = after_b, after_w
            continue
        cap_b |= new[BLACK]
        cap_w |= new[WHITE]
        black |= new[BLACK]
        white |= new[WHITE]
    return [black, white], Inferior(dead_b | dead_w, (cap_b | edge_b, cap_w | edge_w),
                                    (dead_b, dead_w), (edge_b, edge_w))


def play_fill_in(geo: Geometry, stones: list[int]) -> tuple[list[int], Inferior]:
    """``fill_in`` as play reads a position: edge-row cells filled only where
    ``PLAY_EDGE_ROWS`` says so (the solver fills them; play, by default, does not)."""
    return fill_in(geo, stones, edge=PLAY_EDGE_ROWS)


def vulnerable(geo: Geometry, stones: list[int], colour: int) -> list[int]:
    """Per direction d, the empty cells v where ``colour``'s move is killed by the
    opponent's reply at v's neighbour in direction d (that neighbour empty)."""
    t = _tab(geo)
    black, white = stones
    empty = t.mask & ~(black | white)
    nb = _neighbours(t, black, BLACK)
    nw = _neighbours(t, white, WHITE)
    own, opp = (nw, nb) if colour == BLACK else (nb, nw)   # own: the killer's colour
    out = []
    for d in range(6):
        cand = empty & _shift(empty, t.offsets[d])
        if cand:
            cand &= _forced(own, opp, d)
        out.append(cand)
    return out


def killers(geo: Geometry, stones: list[int], colour: int) -> dict[int, int]:
    """Vulnerable cells of ``colour`` -> bitboard of their killers."""
    t = _tab(geo)
    out: dict[int, int] = {}
    for d, cells in enumerate(vulnerable(geo, stones, colour)):
        off = t.offsets[d]
        while cells:
            low = cells & -cells
            cells ^= low
            v = low.bit_length() - 1
            out[v] = out.get(v, 0) | (1 << (v + off))
    return out


def prunable_with_killers(geo: Geometry, stones: list[int], colour: int) -> dict[int, int]:
    """The cells ``prunable`` returns, each with its unpruned-at-the-time killers."""
    return acyclic_prune(killers(geo, stones, colour))


def acyclic_prune(kill: dict[int, int]) -> dict[int, int]:
    """Choose cells to prune from ``cell -> killers``: a cell is pruned only while one of
    its killers is unpruned, so following killers from a pruned cell always ends in an
    unpruned one.  (After fill-in a pair of cells that kill each other is a captured pair
    and already filled, and longer cycles were not seen in 24,000 random positions; the
    rule keeps pruning sound should one occur.)"""
    pruned = 0
    out: dict[int, int] = {}
    for v in sorted(kill):
        alive = kill[v] & ~pruned
        if alive:
            pruned |= 1 << v
            out[v] = alive
    return out


def prunable(geo: Geometry, stones: list[int], colour: int) -> int:
    """Empty cells (of an already filled-in position) that `colour` need not search as
    moves: vulnerable / dominated cells, only in the forms proven sound; never every
    winning move."""
    bits = 0
    for v in prunable_with_killers(geo, stones, colour):
        bits |= 1 << v
    return bits


def dominated(geo: Geometry, stones: list[int], colour: int, candidates: int,
              deadline: Optional[float] = None, edge: bool = True
              ) -> tuple[dict[int, int], dict[int, int]]:
    """``colour``'s dominated moves among ``candidates``: (dominated cell -> the candidates
    that dominate it, dominating cell -> the cells its verdicts read).

    Move a dominates move b when, after ``colour`` plays a, fill-in (dead cells, and cells
    captured by ``colour``) fills b: then a alone is worth a and b together, which is at
    least b (an extra stone never hurts).  The opponent's captured cells are not filled
    on the way, since an extra stone of ``colour`` could break those patterns (``edge``:
    the edge-row cells too, as in ``fill_in``).  The cells
    read are a, what its fill-in filled, and their neighbours: a proof that prunes b must
    hold them as they are.  Takes a position that is already filled in.  Past
    ``deadline`` (``time.monotonic()``) it stops with what it found: one fill-in per
    candidate is ~0.1 ms on 9x9 but seconds for a whole 52x52 board."""
    out: dict[int, int] = {}
    reads: dict[int, int] = {}
    black, white = stones
    occupied = black | white
    if compiled():
        for a, filled in fillin_kernel.dominated(geo, stones, colour, candidates, ring_rules(),
                                                 _patterns(geo, edge), deadline):
            bit = 1 << a
            reads[a] = geo.dilate(filled) & ~occupied
            for b in geo.iter_bits(filled & candidates & ~bit):
                out[b] = out.get(b, 0) | bit
        return out, reads
    for a in geo.iter_bits(candidates):
        if deadline is not None and time.monotonic() > deadline:
            break
        bit = 1 << a
        trial = [black | bit, white] if colour == BLACK else [black, white | bit]
        after, _ = fill_in(geo, trial, (colour,), edge)
        filled = (after[0] | after[1]) & ~occupied
        new = filled & candidates & ~bit
        if not new:
            continue
        reads[a] = geo.dilate(filled) & ~occupied
        while new:
            low = new & -new
            new ^= low
            b = low.bit_length() - 1
            out[b] = out.get(b, 0) | bit
    return out, reads


def prunable_moves(geo: Geometry, stones: list[int], colour: int, candidates: int,
                   deadline: Optional[float] = None, edge: bool = True
                   ) -> tuple[dict[int, int], dict[int, int]]:
    """The candidates ``colour`` need not search: vulnerable cells (``killers``) and
    dominated ones (``dominated``) pruned together by ``acyclic_prune``, each mapped to its
    unpruned dominators; with ``dominated``'s cells read per dominator (``deadline`` and
    ``edge``: see ``dominated``)."""
    kill = killers(geo, stones, colour)
    dom, reads = dominated(geo, stones, colour, candidates, deadline, edge)
    for b, by in dom.items():
        kill[b] = kill.get(b, 0) | by
    return {b: by for b, by in acyclic_prune(kill).items() if (candidates >> b) & 1}, reads


kernels.warm_up("fillin", lambda: fillin_kernel.warm_up(ring_rules(), edge_patterns(3, 3)))
