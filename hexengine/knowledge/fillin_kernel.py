"""Fill-in and domination compiled (numba): ``inferior``'s rules on a padded cell array.

``inferior`` holds the knowledge (which rings of neighbours make a cell dead, which make it
dead once a given neighbour is filled) and the Python reference; this module only runs
those rules fast.  ``inferior`` passes them in as two lookup tables over a cell's ring (six
bits of neighbours of each colour, edges included), and this kernel applies them in the
reference's order, so the results are the same bit for bit (a test keeps them equal on
random positions):

- a round fills every dead cell at once (black where a black or the two-and-two pattern
  matches, else white), and starts again;
- a round without dead cells fills captured pairs: for each captor in turn, each of the
  directions 0–2, the anchor cells in cell order, a pair taken only if it is disjoint
  from the pairs taken before it in the round;
- a round without dead cells or captured pairs fills edge-row cells: ``inferior``'s edge
  patterns in their order, each read on the board as the ones before it left it;
- it stops when a round fills nothing.

The board is a byte per cell on a grid with one extra row and column on each side, which
hold the edges (rows beyond the top and bottom black, the columns beside them white), so
every neighbour is one fixed offset away.  ``dominated`` runs one fill-in per candidate
move on a copy of that array: the Python one spends ~50 µs a candidate on whole-board
bitboards, this one ~1–3 µs.  Until the kernel has loaded (or without numba) ``inferior``
runs its Python code.
"""
from __future__ import annotations

import functools
import time
from typing import Callable, NamedTuple, Optional

import numpy as np

from .. import kernels
from ..geometry import Geometry, geometry

BLACK_STONE, WHITE_STONE = 1, 2  # a cell's byte (0: empty)
_WORD = 64
# DEAD[black ring * 64 + white ring]: 0 not dead, 1 dead and filled black, 2 filled white;
# FORCED[d * 4096 + own ring * 64 + opponent ring]: 1 when an own stone on the neighbour in
# direction d would make the cell dead


# --- the kernel ---------------------------------------------------------------------------------
def _rings(st, p, offs, colour_value):
    """Six bits: which neighbours of the cell at p hold ``colour_value`` (edges included)."""
    m = 0
    for d in range(6):
        if st[p + offs[d]] == colour_value:
            m |= 1 << d
    return m


def _edge(st, captors, edges, marks):
    """One pass of the edge-row patterns (``edges`` rows: colour, cell, n, s or -1, m, k,
    l as array positions); returns how many cells it filled."""
    filled = 0
    for i in range(edges.shape[0]):
        colour = edges[i, 0]
        wanted = False
        for ci in range(captors.shape[0]):
            if captors[ci] == colour:
                wanted = True
        if not wanted:
            continue
        own = colour + 1
        p = edges[i, 1]
        if st[p] != 0 or st[edges[i, 2]] != own:
            continue
        if edges[i, 3] >= 0 and st[edges[i, 3]] != own:
            continue
        if st[edges[i, 4]] != 0 or st[edges[i, 5]] != 0 or st[edges[i, 6]] != 0:
            continue
        st[p] = own
        marks[p] = own + 4
        filled += 1
    return filled


def _fill(st, cells, offs, dead, forced, captors, edges, marks, pend, ring):
    """Fill-in on ``st`` in place; ``marks[p]`` records what filled each cell (1 dead as
    black, 2 dead as white, 3 captured by black, 4 captured by white, 5 and 6 edge-row
    cells for black and white).  ``pend`` is scratch of at least 2 × len(cells) ints,
    ``ring`` of 2 × len(st)."""
    n = cells.shape[0]
    size = st.shape[0]
    while True:
        # each empty cell's black and white ring, then its dead cells, all at once
        k = 0
        for i in range(n):
            p = cells[i]
            if st[p] != 0:
                continue
            b = _rings(st, p, offs, 1)
            w = _rings(st, p, offs, 2)
            ring[p] = b
            ring[size + p] = w
            kind = dead[b * 64 + w]
            if kind:
                pend[k] = p
                pend[n + k] = kind
                k += 1
        if k:
            for j in range(k):
                p = pend[j]
                st[p] = pend[n + j]
                marks[p] = pend[n + j]
            continue
        # captured pairs, read on the board as the round began
        for ci in range(captors.shape[0]):
            own = captors[ci]
            po = size * own  # the captor's rings
            pq = size * (1 - own)
            for d in range(3):
                off = offs[d]
                back = (d + 3) % 6
                for i in range(n):
                    p = cells[i]
                    q = p + off
                    if st[p] != 0 or st[q] != 0:
                        continue
                    if not forced[d * 4096 + ring[po + p] * 64 + ring[pq + p]]:
                        continue
                    if not forced[back * 4096 + ring[po + q] * 64 + ring[pq + q]]:
                        continue
                    clash = False
                    for j in range(k):
                        if pend[j] == p or pend[j] == q:
                            clash = True
                            break
                    if clash:
                        continue
                    pend[k] = p
                    pend[n + k] = own + 1
                    pend[k + 1] = q
                    pend[n + k + 1] = own + 1
                    k += 2
        if not k:
            if _edge(st, captors, edges, marks) == 0:
                return
            continue
        for j in range(k):
            p = pend[j]
            st[p] = pend[n + j]
            marks[p] = pend[n + j] + 2


def _load(st, cells, bits_of, words, row, value):
    """Set ``st`` to ``value`` on the cells whose bit is set in ``words[row]``."""
    for i in range(cells.shape[0]):
        b = bits_of[i]
        if (words[row, b >> 6] >> np.uint64(b & 63)) & np.uint64(1):
            st[cells[i]] = value


def _store(words, row, b):
    words[row, b >> 6] |= np.uint64(1) << np.uint64(b & 63)


def fill_kernel(base, cells, bits_of, offs, dead, forced, captors, edges, words, out):
    """Fill-in of the position in ``words`` (rows 0, 1: black, white); ``out`` rows 0–7
    receive black and white after it, the dead cells filled black and white, the cells
    captured by black and by white, the edge-row cells filled black and white."""
    st = base.copy()
    marks = np.zeros(st.shape[0], np.int8)
    pend = np.zeros(2 * cells.shape[0] + 2, np.int64)
    ring = np.zeros(2 * st.shape[0], np.int64)
    _load(st, cells, bits_of, words, 0, 1)
    _load(st, cells, bits_of, words, 1, 2)
    _fill(st, cells, offs, dead, forced, captors, edges, marks, pend, ring)
    for r in range(8):
        for x in range(out.shape[1]):
            out[r, x] = 0
    for i in range(cells.shape[0]):
        p = cells[i]
        b = bits_of[i]
        if st[p] == 1:
            _store(out, 0, b)
        elif st[p] == 2:
            _store(out, 1, b)
        if marks[p]:
            _store(out, 1 + marks[p], b)


def dominated_kernel(base, cells, bits_of, offs, dead, forced, edges, colour, words, cand,
                     out, hit):
    """One fill-in per candidate move of ``colour`` (``cand``: indices into ``cells``; the
    candidates are the cells of ``words[2]``) with only ``colour``'s captures, on the
    position in ``words[0:2]``; ``out[j]`` receives the cells it filled (the move included)
    and ``hit[j]`` whether one of them is another candidate."""
    st = base.copy()
    _load(st, cells, bits_of, words, 0, 1)
    _load(st, cells, bits_of, words, 1, 2)
    is_cand = np.zeros(st.shape[0], np.int8)
    _load(is_cand, cells, bits_of, words, 2, 1)
    captors = np.full(1, colour, np.int64)
    trial = st.copy()
    marks = np.zeros(st.shape[0], np.int8)
    pend = np.zeros(2 * cells.shape[0] + 2, np.int64)
    ring = np.zeros(2 * st.shape[0], np.int64)
    for j in range(cand.shape[0]):
        a = cells[cand[j]]
        for i in range(st.shape[0]):
            trial[i] = st[i]
        trial[a] = colour + 1
        _fill(trial, cells, offs, dead, forced, captors, edges, marks, pend, ring)
        for x in range(out.shape[1]):
            out[j, x] = 0
        hit[j] = False
        for i in range(cells.shape[0]):
            p = cells[i]
            if trial[p] != st[p]:
                _store(out, j, bits_of[i])
                if p != a and is_cand[p] != 0:
                    hit[j] = True


# --- the Python side ----------------------------------------------------------------------------
class Rules(NamedTuple):
    """What the kernel applies, from ``inferior``: the six neighbour directions in ring
    order (dcol, drow), and the two lookup tables over a cell's ring described above."""
    dirs: tuple[tuple[int, int], ...]
    dead: np.ndarray
    forced: np.ndarray


class _Grid:
    """A board size's padded array: the empty board with its edges, the array position of
    each cell (in cell order), each cell's bit, and the six neighbour offsets."""

    def __init__(self, geo: Geometry, dirs) -> None:
        w, h = geo.width, geo.height
        pw = w + 2
        self.words = (geo.max_index + _WORD - 1) // _WORD
        base = np.zeros((h + 2) * pw, np.int8)
        for r in range(-1, h + 1):
            for c in range(-1, w + 1):
                if not (0 <= r < h):
                    base[(r + 1) * pw + c + 1] = BLACK_STONE
                elif not (0 <= c < w):
                    base[(r + 1) * pw + c + 1] = WHITE_STONE
        self.base = base
        self.cells = np.array([(b // geo.stride + 1) * pw + b % geo.stride + 1
                               for b in geo.cells], np.int64)
        self.bits_of = np.array(geo.cells, np.int64)
        self.index = {b: i for i, b in enumerate(geo.cells)}
        self.offs = np.array([dr * pw + dc for dc, dr in dirs], np.int64)

    def words_of(self, *boards: int) -> np.ndarray:
        """The boards as rows of 64-bit words, low word first."""
        n = 8 * self.words
        data = b"".join(bits.to_bytes(n, "little") for bits in boards)
        return np.frombuffer(data, np.uint64).reshape(len(boards), self.words)


@functools.lru_cache(maxsize=64)
def grid(geo: Geometry, dirs) -> _Grid:
    return _Grid(geo, dirs)


@functools.lru_cache(maxsize=64)
def edge_rows(geo: Geometry, dirs, patterns: tuple) -> np.ndarray:
    """``inferior``'s edge patterns (bitboards) as the kernel's rows of array positions:
    colour, cell, n, s (-1 off the board), m, k, l."""
    g = grid(geo, dirs)

    def at(bits: int) -> list[int]:
        return [int(g.cells[g.index[b]]) for b in geo.iter_bits(bits)]

    rows = [[pat.colour] + at(pat.cell) + at(pat.near) + (at(pat.far) or [-1]) + at(pat.empty)
            for pat in patterns]
    return np.array(rows, np.int64).reshape(len(rows), 7)


def _to_int(row: np.ndarray) -> int:
    return int.from_bytes(row.tobytes(), "little")


def fill_in(geo: Geometry, stones, captors, rules: Rules, patterns: tuple
            ) -> tuple[int, int, int, int, int, int, int, int]:
    """(black, white, dead cells filled black, filled white, captured by black, by white,
    edge-row cells filled black, white) after fill-in under ``rules`` and the edge
    ``patterns`` (``inferior``'s), only ``captors``' captured and edge-row cells filled."""
    g = grid(geo, rules.dirs)
    out = np.zeros((8, g.words), np.uint64)
    fill_kernel(g.base, g.cells, g.bits_of, g.offs, rules.dead, rules.forced,
                np.array(captors, np.int64), edge_rows(geo, rules.dirs, patterns),
                g.words_of(stones[0], stones[1]), out)
    return tuple(_to_int(row) for row in out)


CHUNK = 64  # candidates per kernel call, so that a deadline is read between calls


def dominated(geo: Geometry, stones, colour: int, candidates: int, rules: Rules,
              patterns: tuple, deadline: Optional[float] = None,
              clock: Callable[[], float] = time.monotonic) -> list[tuple[int, int]]:
    """(move, cells its fill-in filled, the move included) for each candidate move of
    ``colour`` whose fill-in fills another candidate, in cell order; past ``deadline`` (on
    ``clock``) it stops between chunks of ``CHUNK`` candidates."""
    g = grid(geo, rules.dirs)
    edges = edge_rows(geo, rules.dirs, patterns)
    words = g.words_of(stones[0], stones[1], candidates)
    moves = list(geo.iter_bits(candidates))
    found = []
    for start in range(0, len(moves), CHUNK):
        if deadline is not None and clock() > deadline:
            break
        part = moves[start:start + CHUNK]
        cand = np.array([g.index[m] for m in part], np.int64)
        out = np.zeros((len(part), g.words), np.uint64)
        hit = np.zeros(len(part), np.bool_)
        dominated_kernel(g.base, g.cells, g.bits_of, g.offs, rules.dead, rules.forced,
                         edges, colour, words, cand, out, hit)
        for j in np.flatnonzero(hit):
            found.append((part[j], _to_int(out[j])))
    return found


def _compile(compilers: kernels.Compilers) -> None:
    global _rings, _edge, _fill, _load, _store, fill_kernel, dominated_kernel
    inline, bare, jit = compilers.inline, compilers.bare, compilers.jit
    _rings, _load, _store = (inline(f) for f in (_rings, _load, _store))
    _edge = bare(_edge)
    _fill = bare(_fill)
    fill_kernel = jit(fill_kernel)
    dominated_kernel = jit(dominated_kernel)


def warm_up(rules: Rules, patterns: tuple) -> None:
    """First calls on a 3x3 board, so that numba compiles them in the loading thread
    (``inferior`` adds this with its rules and the 3x3 board's edge patterns)."""
    geo = geometry(3, 3)
    stones = [1 << geo.cells[0], 1 << geo.cells[4]]
    fill_in(geo, stones, (0, 1), rules, patterns)
    dominated(geo, stones, 0, geo.mask & ~(stones[0] | stones[1]), rules, patterns)


ready = kernels.register("fillin", _compile)
python_only = ready.off  # within the block ``inferior`` runs its Python code
