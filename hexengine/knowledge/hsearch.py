"""The H-search compiled (numba): the Python closure's rules on fixed arrays, ~15× faster.

``hsearch_python`` is the reference: this kernel applies the same rules in the same order (base
connections, a queue of full carriers by size, AND through each partner, OR over each new
semi) under the same ``Limits``, so it derives exactly the same connections; a test keeps the
two equal on random positions.  Only the representation differs:

- a carrier is a row of ``W`` 64-bit words, little end first, of the kernel's cell bits
  (``Layout``: the engine's padded cell bits, or, where that saves a word, as on 8x8 and
  11x11, the cells row by row without the padding column);
- nodes are numbered 0 … n − 1 for the kernel's n cells (a group by its lowest cell) and
  n, n + 1 for the colour's start and goal edge;
- each node pair that has connections owns a *slot*: up to ``max_fulls`` full and
  ``max_semis`` semi carriers, sorted by size, with each semi's key;
- the queue is a binary heap of events ordered by (carrier size, event number), as
  ``heapq`` orders (size, sequence) there.

The arrays live in a ``Workspace`` made once per board size and limits and reused by every
build.  When a build outgrows it (more pairs or queued carriers than it holds), the build is
run again in one twice as large, so the result never depends on the capacity.

The kernel registers with ``hexengine.kernels``, which compiles it in its background thread
(after the board circuit); until it is ``ready`` (or without numba) ``vc.build`` runs the
Python closure.  ``CompiledConnections`` gives the kernel's result the interface of
``connections.Connections``, decoding pairs only when asked.  Other compiled code reads a
build only through the accessors of "reading a build from another kernel" (``slot_ends``,
…), never through the offsets of the layout.
"""
from __future__ import annotations

import functools
import types
from typing import Callable, NamedTuple, Optional

import numpy as np

from ..geometry import Geometry, geometry
from .. import kernels
from . import templates
from .connections import DEFAULT_LIMITS, EDGE_GOAL, EDGE_START, Connections, Limits

MAX_CELLS = 640  # larger boards (past 24×24) keep the Python closure: the node tables grow
# as the square of the cells

U0 = np.uint64(0)
U1 = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S1, _S2, _S4, _S56 = np.uint64(1), np.uint64(2), np.uint64(4), np.uint64(56)
_WORD = 64
_MASK64 = (1 << 64) - 1

# --- the kernel ---------------------------------------------------------------------------------
# The kernel's helpers take three arrays: C (uint64 rows of W words: every carrier), I (int32:
# every table of ints) and S (int64: counters, limits and where each table starts in C and
# I).  numba updates an array's reference count (an atomic operation) for every array passed
# to a call and every view made, which in this kernel cost more than the work itself; so
# carriers are always named as a row of C, never as a view, and calls pass just these three.
(ST_SLOTS, ST_EVENTS, ST_HEAP, ST_BUDGET, ST_WON, ST_COMPLETE, ST_OVERFLOW, L_EDGE_BAND,
 L_FULLS, L_SEMIS, L_ORS, L_CANDIDATES, L_AND, L_WORK, L_STOP_AT_WIN, L_TEMPLATES,
 L_EMPTY_PAIRS,
 N_NODES, N_CELLS, N_SLOTS, N_EVENTS, N_FB, N_SB,
 I_SLOT, I_PLIST, I_PLEN, I_PA, I_PB, I_FN, I_FLEN, I_SK, I_SN, I_SLEN, I_EVA, I_EVB, I_EVN,
 I_HEAP, I_STACK, I_ORSTACK, C_FC, C_SC, C_EV, C_T, L_REFRESH_LOST, L_CAPTURED_OR,
 S_SIZE) = range(46)
# (L_EDGE_BAND sits in a slot the layout had free and the later ones after the rest, so that
# no other index moved: kernels that inline these accessors may be loaded from numba's disk
# cache compiled against them)
# rows of the scratch block of C (from S[C_T])
(R_INTER, R_UNION, R_ORCAP, R_U2, R_ZERO, R_TPL, R_ENDBIT, R_MIDBIT, R_CAR, R_NEW, R_GNB, R_OWN,
 R_OPP, R_EMPTY, R_START, R_GOAL, R_CAPT) = range(17)
R_OTH = 17  # then or_candidates rows of the OR's partners, or_candidates + 1 suffix rows,
# and two stacks of STACK rows: intersections, unions


def _words(C):
    """The words of a carrier row: the array's own width, or in a kernel compiled for one
    board width (``_FAMILIES``) that width as a constant, so its loops over words unroll."""
    return C.shape[1]


def _popcount(x):
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    return int((x * _H01) >> _S56)


def _size(C, i):
    n = 0
    for x in range(_words(C)):
        n += _popcount(C[i, x])
    return n


def _subset(C, i, j):
    """C[i] ⊆ C[j]"""
    for x in range(_words(C)):
        if C[i, x] & ~C[j, x]:
            return False
    return True


def _overlap(C, i, j):
    for x in range(_words(C)):
        if C[i, x] & C[j, x]:
            return True
    return False


def _equal(C, i, j):
    for x in range(_words(C)):
        if C[i, x] != C[j, x]:
            return False
    return True


def _copy(C, i, j):
    """C[i] = C[j]"""
    for x in range(_words(C)):
        C[i, x] = C[j, x]


def _has(C, i, cell):
    return (C[i, cell >> 6] >> np.uint64(cell & 63)) & U1


def _slot(I, S, a, b):
    return I[S[I_SLOT] + a * S[N_NODES] + b]


def _new_slot(I, S, a, b):
    """A slot for pair (a, b), or −1 when the workspace is full."""
    k = S[ST_SLOTS]
    if k >= S[N_SLOTS]:
        S[ST_OVERFLOW] = 1
        return -1
    S[ST_SLOTS] = k + 1
    nn = S[N_NODES]
    I[S[I_SLOT] + a * nn + b] = k
    I[S[I_SLOT] + b * nn + a] = k
    I[S[I_PA] + k] = a
    I[S[I_PB] + k] = b
    I[S[I_FLEN] + k] = 0
    I[S[I_SLEN] + k] = 0
    return k


def _before(I, o, e, f):
    """Event e leaves the queue before f: smaller carrier, then earlier."""
    return I[o + e] < I[o + f] or (I[o + e] == I[o + f] and e < f)


def _heap_push(I, S, e):
    o = S[I_EVN]
    h = S[I_HEAP]
    i = S[ST_HEAP]
    S[ST_HEAP] = i + 1
    while i > 0:
        p = (i - 1) >> 1
        q = I[h + p]
        if _before(I, o, q, e):
            break
        I[h + i] = q
        i = p
    I[h + i] = e


def _heap_pop(I, S):
    o = S[I_EVN]
    h = S[I_HEAP]
    top = I[h]
    n = S[ST_HEAP] - 1
    S[ST_HEAP] = n
    if n == 0:
        return top
    e = I[h + n]
    i = 0
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        d = I[h + c]
        if c + 1 < n and _before(I, o, I[h + c + 1], d):
            c += 1
            d = I[h + c]
        if _before(I, o, e, d):
            break
        I[h + i] = d
        i = c
    I[h + i] = e
    return top


def _drop_supersets(C, I, rows, sizes, keys, m, ci):
    """Remove from the m carriers at C rows ``rows``… (sizes at I[sizes…], keys at
    I[keys…] unless keys < 0) those that contain C[ci]; returns how many are left."""
    j = 0
    for i in range(m):
        if not _subset(C, ci, rows + i):
            if j != i:
                _copy(C, rows + j, rows + i)
                I[sizes + j] = I[sizes + i]
                if keys >= 0:
                    I[keys + j] = I[keys + i]
            j += 1
    return j


def _insert(C, I, rows, sizes, keys, at, cap, ci, key):
    """Add C[ci] to a pair's list as the Python closure's lists take a carrier: the list at C
    rows ``rows``… sorted by size (sizes at I[sizes…], keys at I[keys…] unless keys < 0, the
    count at I[at]).  Not when it holds a kept carrier; the kept ones that hold it go; at
    ``cap`` only a smaller one gets in, in place of the largest.  Returns its size, or −1
    when it was not added."""
    m = I[at]
    for i in range(m):
        if _subset(C, rows + i, ci):
            return -1
    j = _drop_supersets(C, I, rows, sizes, keys, m, ci)
    I[at] = j
    n = _size(C, ci)
    if j >= cap:
        if n >= I[sizes + j - 1]:
            return -1
        j -= 1
    i = j
    while i and I[sizes + i - 1] > n:
        _copy(C, rows + i, rows + i - 1)
        I[sizes + i] = I[sizes + i - 1]
        if keys >= 0:
            I[keys + i] = I[keys + i - 1]
        i -= 1
    _copy(C, rows + i, ci)
    I[sizes + i] = n
    if keys >= 0:
        I[keys + i] = key
    I[at] = j + 1
    return n


def _put_full(C, I, S, a, b, ci):
    """The carrier C[ci] between nodes a and b laid in their slot, as
    hsearch_python._Builder.add_full lays it, without queueing it: its size, or −1 when it
    was not added."""
    if a == b:
        return -1
    k = _slot(I, S, a, b)
    flen = S[I_FLEN]
    if k < 0 or I[flen + k] == 0:  # the pair's first full carrier: a new partner
        if k < 0:
            k = _new_slot(I, S, a, b)
            if k < 0:
                return -1
        nn = S[N_NODES]
        pl = S[I_PLEN]
        po = S[I_PLIST]
        I[po + a * nn + I[pl + a]] = b
        I[pl + a] += 1
        I[po + b * nn + I[pl + b]] = a
        I[pl + b] += 1
    fb = k * S[N_FB]
    n = _insert(C, I, S[C_FC] + fb, S[I_FN] + fb, -1, flen + k, S[L_FULLS], ci, 0)
    if n < 0:
        return -1
    slen = S[I_SLEN]
    m = I[slen + k]
    if m:
        sb = k * S[N_SB]
        I[slen + k] = _drop_supersets(C, I, S[C_SC] + sb, S[I_SN] + sb, S[I_SK] + sb, m, ci)
    mi = S[N_CELLS]
    if a >= mi and b >= mi:
        S[ST_WON] = 1
    return n


def _add_full(C, I, S, a, b, ci):
    """hsearch_python._Builder.add_full: the carrier C[ci] between nodes a and b, queued
    for the closure."""
    n = _put_full(C, I, S, a, b, ci)
    if n < 0:
        return
    e = S[ST_EVENTS]
    if e >= S[N_EVENTS]:
        S[ST_OVERFLOW] = 1
        return
    S[ST_EVENTS] = e + 1
    I[S[I_EVA] + e] = a
    I[S[I_EVB] + e] = b
    I[S[I_EVN] + e] = n
    _copy(C, S[C_EV] + e, ci)
    _heap_push(I, S, e)


def _put_semi(C, I, S, a, b, ci, key):
    """The semi carrier C[ci] with key ``key`` laid in the slot of a and b, as
    hsearch_python._Builder.add_semi lays it, without the OR: the slot, or −1 when it was
    not added."""
    k = _slot(I, S, a, b)
    if k >= 0:
        rows = S[C_FC] + k * S[N_FB]
        for i in range(I[S[I_FLEN] + k]):
            if _subset(C, rows + i, ci):
                return -1
    else:
        k = _new_slot(I, S, a, b)
        if k < 0:
            return -1
    sb = k * S[N_SB]
    if _insert(C, I, S[C_SC] + sb, S[I_SN] + sb, S[I_SK] + sb, S[I_SLEN] + k, S[L_SEMIS], ci,
               key) < 0:
        return -1
    return k


def _add_semi(C, I, S, nbr, a, b, ci, key):
    """hsearch_python._Builder.add_semi (carrier C[ci], key ``key``), then the OR over the
    pair; with ``captured_or``, a semi within the cells its ends capture is full."""
    k = _put_semi(C, I, S, a, b, ci, key)
    if k < 0:
        return
    w = _words(C)
    t = S[C_T]
    capr = t + R_ORCAP
    cap = False
    if S[L_CAPTURED_OR]:  # the row R_ORCAP: what the two ends capture once played
        for x in range(w):
            C[capr, x] = U0
        _captures(C, S, nbr, t, a, capr)
        _captures(C, S, nbr, t, b, capr)
        for x in range(w):
            if C[capr, x]:
                cap = True
    if I[S[I_SLEN] + k] >= 2:
        _do_or(C, I, S, a, b, k, ci, cap)
    if cap and _subset(C, ci, capr):
        u2 = t + R_U2
        for x in range(w):
            C[u2, x] = C[ci, x] | C[capr, x]
        _add_full(C, I, S, a, b, u2)


def _do_or(C, I, S, a, b, k, ci, cap):
    """hsearch_python._Builder.do_or: the new semi C[ci] with up to max_ors − 1 others of
    pair k; with ``cap``, an intersection within the row R_ORCAP (what the ends capture)
    counts as empty, those cells joining the carrier."""
    w = _words(C)
    t = S[C_T]
    cand = S[L_CANDIDATES]
    oth = t + R_OTH
    suf = oth + cand
    stack = S[L_ORS] * (cand + 1) + 2
    sti = suf + cand + 1
    stu = sti + stack
    rows = S[C_SC] + k * S[N_SB]
    m = 0
    for i in range(I[S[I_SLEN] + k]):
        if m >= cand:
            break
        if not _equal(C, rows + i, ci):
            _copy(C, oth + m, rows + i)
            m += 1
    if m == 0:
        return
    for x in range(w):
        C[suf + m, x] = ~U0
    for j in range(m - 1, -1, -1):
        for x in range(w):
            C[suf + j, x] = C[suf + j + 1, x] & C[oth + j, x]
    capr = t + R_ORCAP
    for x in range(w):
        v = C[ci, x] & C[suf, x]
        if cap:
            v &= ~C[capr, x]
        if v:
            return
    max_depth = S[L_ORS] - 1
    frows = S[C_FC] + k * S[N_FB]
    flen = S[I_FLEN]
    inter, union, u2 = t + R_INTER, t + R_UNION, t + R_U2
    # the stack: intersections and unions in C, start indices and depths in I
    top = 1
    _copy(C, sti, ci)
    _copy(C, stu, ci)
    sj = S[I_ORSTACK]
    sd = sj + stack
    I[sj] = 0
    I[sd] = 0
    while top:
        top -= 1
        _copy(C, inter, sti + top)
        _copy(C, union, stu + top)
        start = I[sj + top]
        depth = I[sd + top]
        for j in range(start, m):
            S[ST_BUDGET] -= 1
            # one pass of loads, nothing stored: most steps end here
            same = True
            empty = True
            touched = False  # (the intersection holds captured cells)
            meets = False  # the intersection meets every semi after j's
            for x in range(w):
                v = C[inter, x] & C[oth + j, x]
                if v != C[inter, x]:
                    same = False
                if cap:
                    if v:
                        touched = True
                    v &= ~C[capr, x]
                if v:
                    empty = False
                    if v & C[suf + j + 1, x]:
                        meets = True
            if same:
                continue
            if not empty and (meets or depth + 1 >= max_depth):
                continue
            for x in range(w):
                C[u2, x] = C[union, x] | C[oth + j, x]
            if empty:  # _insert refuses a carrier that holds a kept full
                if touched:
                    for x in range(w):
                        C[u2, x] |= C[capr, x]
                _add_full(C, I, S, a, b, u2)
                continue
            covered = False
            for i in range(I[flen + k]):
                if _subset(C, frows + i, u2):
                    covered = True
                    break
            if not covered:
                for x in range(w):
                    C[sti + top, x] = C[inter, x] & C[oth + j, x]
                _copy(C, stu + top, u2)
                I[sj + top] = j + 1
                I[sd + top] = depth + 1
                top += 1


def _edge_pair(C, nbr, erow, empty, x, row):
    """OR into ``row`` the two neighbours of ``x`` on the edge row ``erow`` when ``x`` is a
    second-row cell of that edge and both are empty (template II's carrier); True if so."""
    if _has(C, erow, x):
        return False
    count = 0
    for d in range(6):
        z = nbr[x, d]
        if z < 0:
            break
        if _has(C, erow, z):
            if not _has(C, empty, z):
                return False
            count += 1
    if count != 2:
        return False
    for d in range(6):
        z = nbr[x, d]
        if z < 0:
            break
        if _has(C, erow, z):
            C[row, z >> 6] |= U1 << np.uint64(z & 63)
    return True


def _near(nbr, x, y):
    """Whether the cells ``x`` and ``y`` have a neighbour in common."""
    for d in range(6):
        a = nbr[x, d]
        if a < 0:
            break
        for e in range(6):
            if nbr[y, e] < 0:
                break
            if nbr[y, e] == a:
                return True
    return False


def _captures(C, S, nbr, t, x, row):
    """OR into ``row`` what the empty second-row cell ``x`` captures once played: its two
    edge cells on each own edge where both are empty (hsearch_python._captured)."""
    if x >= S[N_CELLS] or not _has(C, t + R_EMPTY, x):
        return
    for e in range(2):
        _edge_pair(C, nbr, t + R_START + e, t + R_EMPTY, x, row)


def build(C, I, S, nbr, br_x, br_y, br_c, tp_anchor, tp_edge, tp_c, tp_s, tp_k, group_of,
          is_group):
    """The H-search for one colour into the workspace (C, I, S; see ``Workspace``).  The scratch
    rows R_OWN … R_GOAL hold the own, opponent, empty, start-edge and goal-edge cells;
    ``nbr[cell]`` lists the neighbours ascending (−1 padded), ``br_*`` the bridges and
    ``tp_*`` the colour's edge templates in ``templates.tables`` order, then its stone
    templates (``tp_s``: the helper stones each needs, ``tp_k`` one of them, tested first;
    none and -1 for the others).  Returns False when the workspace overflowed (the caller
    runs it again in a larger one)."""
    _groups(C, I, S, nbr, group_of, is_group)
    return _based_closure(C, I, S, nbr, br_x, br_y, br_c, tp_anchor, tp_edge, tp_c, tp_s,
                          tp_k, group_of, is_group)


def _based_closure(C, I, S, nbr, br_x, br_y, br_c, tp_anchor, tp_edge, tp_c, tp_s, tp_k,
                   group_of, is_group):
    """The base connections, then the closure (False when the workspace overflowed)."""
    _base(C, I, S, nbr, br_x, br_y, br_c, tp_anchor, tp_edge, tp_c, tp_s, tp_k, group_of,
          is_group)
    if S[ST_OVERFLOW]:
        return False
    return _closure(C, I, S, nbr, is_group)


def _groups(C, I, S, nbr, group_of, is_group):
    """An empty workspace, and the colour's groups: ``group_of`` each own cell's group (its
    lowest cell), ``is_group`` 1 at each group's cell."""
    w = _words(C)
    mi = S[N_CELLS]
    nn = S[N_NODES]
    t = S[C_T]
    own = t + R_OWN
    for i in range(S[I_SLOT], S[I_SLOT] + nn * nn):
        I[i] = -1
    for i in range(S[I_PLEN], S[I_PLEN] + nn):
        I[i] = 0
    for i in range(ST_OVERFLOW + 1):  # the counters, not L_EDGE_BAND beside them
        S[i] = 0
    S[ST_BUDGET] = S[L_WORK]
    S[ST_COMPLETE] = 1
    for x in range(w):
        C[t + R_ZERO, x] = U0
    stack = S[I_STACK]
    for c in range(mi):
        group_of[c] = -1
        is_group[c] = 0
    for c in range(mi):
        if not _has(C, own, c) or group_of[c] >= 0:
            continue
        is_group[c] = 1
        top = 1
        I[stack] = c
        group_of[c] = c
        while top:
            top -= 1
            y = I[stack + top]
            for d in range(6):
                z = nbr[y, d]
                if z < 0:
                    break
                if _has(C, own, z) and group_of[z] < 0:
                    group_of[z] = c
                    I[stack + top] = z
                    top += 1


def _base(C, I, S, nbr, br_x, br_y, br_c, tp_anchor, tp_edge, tp_c, tp_s, tp_k, group_of,
          is_group):
    """The base connections (hsearch_python._add_base's order): each group's to the edges
    it touches and the empty cells beside it, adjacent empty cells, bridges, edge
    templates and the edge band."""
    w = _words(C)
    mi = S[N_CELLS]
    start_node = mi
    goal_node = mi + 1
    t = S[C_T]
    own, opp, empty = t + R_OWN, t + R_OPP, t + R_EMPTY
    zero, gnb, tpl = t + R_ZERO, t + R_GNB, t + R_TPL
    stack = S[I_STACK]
    for c in range(mi):
        if is_group[c] == 0:
            continue
        touch_s = False
        touch_g = False
        for x in range(w):
            C[gnb, x] = U0
        for y in range(c, mi):
            if group_of[y] != c:
                continue
            if _has(C, t + R_START, y):
                touch_s = True
            if _has(C, t + R_GOAL, y):
                touch_g = True
            for d in range(6):
                z = nbr[y, d]
                if z < 0:
                    break
                if _has(C, empty, z):
                    C[gnb, z >> 6] |= U1 << np.uint64(z & 63)
        if touch_s:
            _add_full(C, I, S, c, start_node, zero)
        if touch_g:
            _add_full(C, I, S, c, goal_node, zero)
        for z in range(mi):
            if _has(C, gnb, z):
                _add_full(C, I, S, c, z, zero)
    for e in range(mi):
        if not _has(C, empty, e):
            continue
        if _has(C, t + R_START, e):
            _add_full(C, I, S, e, start_node, zero)
        if _has(C, t + R_GOAL, e):
            _add_full(C, I, S, e, goal_node, zero)
        for d in range(6):
            z = nbr[e, d]
            if z < 0:
                break
            if z > e and _has(C, empty, z):
                _add_full(C, I, S, e, z, zero)
    for q in range(br_x.shape[0]):
        x = br_x[q]
        y = br_y[q]
        if _has(C, opp, x) or _has(C, opp, y):
            continue
        inside = True
        for v in range(w):
            C[tpl, v] = br_c[q, v]
            if br_c[q, v] & ~C[empty, v]:
                inside = False
        if not inside:
            continue
        nx = group_of[x] if group_of[x] >= 0 else x
        ny = group_of[y] if group_of[y] >= 0 else y
        _add_full(C, I, S, nx, ny, tpl)
    if S[L_TEMPLATES]:
        for q in range(tp_anchor.shape[0]):
            x = tp_anchor[q]
            if _has(C, opp, x) or (tp_k[q] >= 0 and not _has(C, own, tp_k[q])):
                continue
            blocked = False
            for v in range(w):
                if tp_c[q, v] & C[opp, v] or tp_s[q, v] & ~C[own, v]:
                    blocked = True
                C[tpl, v] = tp_c[q, v] & C[empty, v]
            if blocked:
                continue
            nx = group_of[x] if group_of[x] >= 0 else x
            _add_full(C, I, S, nx, mi + tp_edge[q], tpl)
    if S[L_EDGE_BAND]:
        # hsearch_python._add_band: second-row anchors joined through their edge
        for e in range(2):
            erow = t + R_START + e
            n = 0
            for x in range(mi):
                if _has(C, opp, x):
                    continue
                for v in range(w):
                    C[tpl, v] = U0
                if _edge_pair(C, nbr, erow, empty, x, tpl):
                    I[stack + n] = x
                    n += 1
            for i in range(n):
                x = I[stack + i]
                nx = group_of[x] if group_of[x] >= 0 else x
                for v in range(w):
                    C[tpl, v] = U0
                _edge_pair(C, nbr, erow, empty, x, tpl)
                for j in range(i + 1, n):
                    y = I[stack + j]
                    ny = group_of[y] if group_of[y] >= 0 else y
                    if nx == ny or not _near(nbr, x, y):
                        continue
                    for v in range(w):
                        C[gnb, v] = U0
                    _edge_pair(C, nbr, erow, empty, y, gnb)
                    if not _overlap(C, tpl, gnb):
                        for v in range(w):
                            C[gnb, v] |= C[tpl, v]
                        _add_full(C, I, S, nx, ny, gnb)


def _closure(C, I, S, nbr, is_group):
    """The closure over the queued full carriers, smallest first: each ANDed through its
    ends with their partners' carriers, the results added as fulls (through a group) or
    semis (through an empty cell, each new semi ORed with its pair's).  Returns False when
    the workspace overflowed."""
    w = _words(C)
    mi = S[N_CELLS]
    nn = S[N_NODES]
    t = S[C_T]
    and_n = S[L_AND]
    fc = S[C_FC]
    fb = S[N_FB]
    flen = S[I_FLEN]
    ev = S[C_EV]
    car, new = t + R_CAR, t + R_NEW
    endbit, midbit = t + R_ENDBIT, t + R_MIDBIT
    capt = t + R_CAPT
    band = S[L_EDGE_BAND]
    while S[ST_HEAP]:
        if S[ST_OVERFLOW]:
            return False
        if S[ST_BUDGET] <= 0:
            S[ST_COMPLETE] = 0
            break
        if S[ST_WON] and S[L_STOP_AT_WIN]:
            S[ST_COMPLETE] = 0
            break
        e = _heap_pop(I, S)
        a = I[S[I_EVA] + e]
        b = I[S[I_EVB] + e]
        k = _slot(I, S, a, b)
        if k < 0:
            continue
        live = False
        for i in range(I[flen + k]):
            if _equal(C, fc + k * fb + i, ev + e):
                live = True
                break
        if not live:
            continue
        _copy(C, car, ev + e)
        for side in range(2):
            mid = a if side == 0 else b
            end = b if side == 0 else a
            if mid >= mi:
                continue  # no AND over an edge
            npart = I[S[I_PLEN] + mid]
            if npart == 0:
                continue
            mid_own = is_group[mid] == 1
            end_empty = end < mi and is_group[end] == 0
            for x in range(w):
                C[endbit, x] = U0
                C[midbit, x] = U0
            if end_empty:
                C[endbit, end >> 6] = U1 << np.uint64(end & 63)
            if not mid_own:
                C[midbit, mid >> 6] = U1 << np.uint64(mid & 63)
            plist = S[I_PLIST] + mid * nn
            for j in range(npart):
                z = I[plist + j]
                if z == end:
                    continue
                if z < mi and is_group[z] == 0:
                    if end_empty and not S[L_EMPTY_PAIRS]:
                        continue  # no derived empty-empty connections
                    if _has(C, car, z):
                        continue
                k2 = _slot(I, S, mid, z)
                m2 = I[flen + k2]
                S[ST_BUDGET] -= m2
                captured = False  # the row capt holds what end, mid and z capture
                for i in range(min(m2, and_n)):
                    r2 = fc + k2 * fb + i
                    if _overlap(C, r2, endbit):
                        continue
                    if _overlap(C, r2, car):
                        # only cells an endpoint or the middle captures, then all of them
                        if not band:
                            continue
                        if not captured:
                            for x in range(w):
                                C[capt, x] = U0
                            _captures(C, S, nbr, t, end, capt)
                            _captures(C, S, nbr, t, mid, capt)
                            _captures(C, S, nbr, t, z, capt)
                            captured = True
                        if _has(C, capt, mid) or (z < mi and _has(C, capt, z)) \
                                or (end < mi and _has(C, capt, end)):
                            continue
                        outside = False
                        for x in range(w):
                            if C[r2, x] & C[car, x] & ~C[capt, x]:
                                outside = True
                        if outside:
                            continue
                        for x in range(w):
                            C[new, x] = C[car, x] | C[r2, x] | C[midbit, x] | C[capt, x]
                    else:
                        for x in range(w):
                            C[new, x] = C[car, x] | C[r2, x] | C[midbit, x]
                    if mid_own:
                        _add_full(C, I, S, end, z, new)
                    else:
                        _add_semi(C, I, S, nbr, end, z, new, mid)
                    if S[ST_OVERFLOW]:
                        return False
    return S[ST_OVERFLOW] == 0


def extend(C, I, S, Cp, Ip, Sp, delta, nbr, br_x, br_y, br_c, tp_anchor, tp_edge, tp_c, tp_s,
           tp_k, group_of, is_group):
    """The H-search for one colour into the workspace (C, I, S; its rows set as for
    ``build``) from the same colour's build (Cp, Ip, Sp) of a position before, which had
    fewer own stones (the new ones in ``delta`` row 0) and fewer of the opponent's (row 1):
    Benzene's incremental build.  What the position before held still holds where the
    opponent's new stones leave it alone; only what the new own stones change is queued
    for the closure (``_carry``), then the base connections, of which only the new ones
    are queued.  Returns False when the workspace overflowed."""
    _groups(C, I, S, nbr, group_of, is_group)
    _carry(C, I, S, Cp, Ip, Sp, delta, nbr, group_of)
    return _based_closure(C, I, S, nbr, br_x, br_y, br_c, tp_anchor, tp_edge, tp_c, tp_s,
                          tp_k, group_of, is_group)


def _carried(C, own, delta, group_of, p, mi):
    """The node that the earlier build's node ``p`` is now: its group where an own stone
    stands on it, −1 where the opponent's does."""
    if p >= mi:
        return p
    if _has(C, own, p):
        return group_of[p]
    if (delta[1, p >> 6] >> np.uint64(p & 63)) & U1:
        return -1
    return p


def _carried_row(C, Cp, row, delta, new):
    """C[new] = the earlier carrier Cp[row] less the new own stones; 0 when it holds an
    opponent's new stone (gone), 1 when it held a new own stone (changed), else 2."""
    state = 2
    for x in range(_words(C)):
        v = Cp[row, x]
        if v & delta[1, x]:
            return 0
        if v & delta[0, x]:
            state = 1
        C[new, x] = v & ~delta[0, x]
    return state


def _lost_within(Cp, rows, n, delta):
    """Whether one of the n carriers at Cp rows ``rows``… holds an opponent's new stone."""
    for i in range(n):
        for x in range(_words(Cp)):
            if Cp[rows + i, x] & delta[1, x]:
                return True
    return False


def _carry(C, I, S, Cp, Ip, Sp, delta, nbr, group_of):
    """Lay the earlier build's connections (Cp, Ip, Sp) in the workspace: those through an
    opponent's new stone (``delta`` row 1) dropped, the new own stones (row 0) taken out
    of the rest, a semi whose key is one of them made full.  A connection whose carrier
    held a new stone, or (with more than one new stone) that now ends at a group holding
    one, is queued for the closure (or ORed, a semi); the rest were combined in the
    earlier build and are laid quietly, copied as they stand where their pair's list is
    new.  (With one new stone, whatever joins through its group the earlier build joined
    through the empty cell: the semis keyed there, now full and queued.)"""
    w = _words(C)
    mi = S[N_CELLS]
    t = S[C_T]
    own, new = t + R_OWN, t + R_NEW
    for x in range(w):
        delta[2, x] = U0
    stones = 0
    for x in range(w):
        stones += _popcount(delta[0, x])
    if stones > 1:  # row 2: the groups holding a new stone
        for c in range(mi):
            if (delta[0, c >> 6] >> np.uint64(c & 63)) & U1:
                g = group_of[c]
                delta[2, g >> 6] |= U1 << np.uint64(g & 63)
    fb = Sp[N_FB]
    sb = Sp[N_SB]
    and_n = S[L_AND]
    cand = S[L_CANDIDATES]
    refresh = S[L_REFRESH_LOST] != 0
    for k in range(Sp[ST_SLOTS]):
        a = _carried(C, own, delta, group_of, Ip[Sp[I_PA] + k], mi)
        b = _carried(C, own, delta, group_of, Ip[Sp[I_PB] + k], mi)
        if a < 0 or b < 0 or a == b:
            continue
        touched = (a < mi and (delta[2, a >> 6] >> np.uint64(a & 63)) & U1 != U0) or (
            b < mi and (delta[2, b >> 6] >> np.uint64(b & 63)) & U1 != U0)
        frows = Sp[C_FC] + k * fb
        srows = Sp[C_SC] + k * sb
        nf = Ip[Sp[I_FLEN] + k]
        ns = Ip[Sp[I_SLEN] + k]
        if refresh and not touched and (nf > and_n or ns > cand):
            # a carrier the AND (its first and_n fulls) or the OR (its first cand semis)
            # used is gone: those that move up were never combined, so all are queued
            touched = _lost_within(Cp, frows, min(nf, and_n), delta) if nf > and_n else False
            if not touched and ns > cand:
                touched = _lost_within(Cp, srows, cand, delta)
        changed = touched
        if not touched:  # first what stands as it stood
            k2 = _slot(I, S, a, b)
            copy = k2 < 0 or (I[S[I_FLEN] + k2] == 0 and I[S[I_SLEN] + k2] == 0)
            for i in range(nf):
                state = _carried_row(C, Cp, frows + i, delta, new)
                if state == 1:
                    changed = True
                if state != 2:
                    continue
                k2 = _slot(I, S, a, b)
                j = 0 if k2 < 0 else I[S[I_FLEN] + k2]
                if copy and j > 0:  # (the list is sorted and holds no subset of another)
                    _copy(C, S[C_FC] + k2 * S[N_FB] + j, new)
                    I[S[I_FN] + k2 * S[N_FB] + j] = Ip[Sp[I_FN] + k * fb + i]
                    I[S[I_FLEN] + k2] = j + 1
                else:
                    _put_full(C, I, S, a, b, new)
            for i in range(ns):
                state = _carried_row(C, Cp, srows + i, delta, new)
                if state == 1:
                    changed = True
                if state != 2:
                    continue
                key = Ip[Sp[I_SK] + k * sb + i]
                k2 = _slot(I, S, a, b)
                j = 0 if k2 < 0 else I[S[I_SLEN] + k2]
                if copy and j > 0:
                    _copy(C, S[C_SC] + k2 * S[N_SB] + j, new)
                    I[S[I_SN] + k2 * S[N_SB] + j] = Ip[Sp[I_SN] + k * sb + i]
                    I[S[I_SK] + k2 * S[N_SB] + j] = key
                    I[S[I_SLEN] + k2] = j + 1
                else:
                    _put_semi(C, I, S, a, b, new, key)
        if not changed:
            continue
        for i in range(nf):  # then what changed, queued
            state = _carried_row(C, Cp, frows + i, delta, new)
            if state == 1 or (touched and state == 2):
                _add_full(C, I, S, a, b, new)
        for i in range(ns):
            state = _carried_row(C, Cp, srows + i, delta, new)
            if state == 0 or (state == 2 and not touched):
                continue
            key = Ip[Sp[I_SK] + k * sb + i]
            if (delta[0, key >> 6] >> np.uint64(key & 63)) & U1:
                _add_full(C, I, S, a, b, new)
            else:
                _add_semi(C, I, S, nbr, a, b, new, key)
        if S[ST_OVERFLOW]:
            return


def packed_size(I, S):
    """The carriers of the build in (I, S): how many rows its packed form holds (``transfer``)."""
    rows = 0
    for k in range(S[ST_SLOTS]):
        rows += I[S[I_FLEN] + k] + I[S[I_SLEN] + k]
    return rows


def transfer(C, I, S, PC, PI, slots, packing):
    """Between a build's workspace (C, I, S) and its packed form: what ``extend`` reads,
    laid end to end.  Each slot's carriers are rows of PC (fulls, then semis); PI holds its
    two nodes, its counts of fulls and semis, each full's size and each semi's size and
    key.  With ``packing``, the first ``slots`` slots go from the workspace into PC and PI
    (at most 4 ints a slot and 2 a row; returns how many ints); else back into a
    workspace for the same board and limits with at least that many slots."""
    w = _words(C)
    fb = S[N_FB]
    sb = S[N_SB]
    r = 0
    q = 0
    for k in range(slots):
        if packing:
            PI[q] = I[S[I_PA] + k]
            PI[q + 1] = I[S[I_PB] + k]
            PI[q + 2] = I[S[I_FLEN] + k]
            PI[q + 3] = I[S[I_SLEN] + k]
        else:
            I[S[I_PA] + k] = PI[q]
            I[S[I_PB] + k] = PI[q + 1]
            I[S[I_FLEN] + k] = PI[q + 2]
            I[S[I_SLEN] + k] = PI[q + 3]
        nf = PI[q + 2]
        ns = PI[q + 3]
        q += 4
        for i in range(nf + ns):
            if i < nf:
                size = S[I_FN] + k * fb + i
                row = S[C_FC] + k * fb + i
                key = -1
            else:
                size = S[I_SN] + k * sb + i - nf
                row = S[C_SC] + k * sb + i - nf
                key = S[I_SK] + k * sb + i - nf
            if packing:
                PI[q] = I[size]
                if key >= 0:
                    PI[q + 1] = I[key]
                for x in range(w):
                    PC[r, x] = C[row, x]
            else:
                I[size] = PI[q]
                if key >= 0:
                    I[key] = PI[q + 1]
                for x in range(w):
                    C[row, x] = PC[r, x]
            q += 1 if key < 0 else 2
            r += 1
    if not packing:
        S[ST_SLOTS] = slots
    return q


def links(C, I, S, is_group, pos, colour, per_pair, out, n):
    """Append to ``out`` (from row ``n``) the colour's wires for the resistance circuit:
    up to ``per_pair`` full carriers of each pair of its groups and edges (not edge to edge,
    not an empty carrier), as rows (colour, position of a, position of b or −1/−2 for an
    edge), ``pos`` mapping cells to circuit positions.  Returns the new row count, or −1
    when ``out`` is full."""
    mi = S[N_CELLS]
    fb = S[N_FB]
    fc = S[C_FC]
    flen = S[I_FLEN]
    w = _words(C)
    for k in range(S[ST_SLOTS]):
        m = I[flen + k]
        if m == 0:
            continue
        a = I[S[I_PA] + k]
        b = I[S[I_PB] + k]
        if a >= mi and b >= mi:
            continue
        if (a < mi and is_group[a] == 0) or (b < mi and is_group[b] == 0):
            continue
        if a >= mi:
            a, b = b, a
        used = 0
        for i in range(m):
            if used >= per_pair:
                break
            r = fc + k * fb + i
            empty = True
            for x in range(w):
                if C[r, x]:
                    empty = False
                    break
            if empty:
                continue
            if n >= out.shape[0]:
                return -1
            out[n, 0] = colour
            out[n, 1] = pos[a]
            out[n, 2] = pos[b] if b < mi else mi - 1 - b
            n += 1
            used += 1
    return n


# --- reading a build from another kernel ---------------------------------------------------
# The layout of (C, I, S) is this module's own.  Compiled code elsewhere (the circuit of
# ``evaluation.vc_graph``) reads a build through these few functions, compiled to be inlined
# into it, so the offsets never leave this module.  numba's disk cache of such a caller does
# not see edits to them: change its module too (or clear its cache) after changing one.


def node_cells(S: np.ndarray) -> int:
    """How many nodes are cells: cells are nodes 0 … n − 1, the colour's start and goal
    edges n and n + 1."""
    return S[N_CELLS]


def slot_count(S: np.ndarray) -> int:
    """How many node pairs (slots) have connections: slots 0 … n − 1."""
    return S[ST_SLOTS]


def slot_ends(I: np.ndarray, S: np.ndarray, k: int) -> tuple[int, int]:
    """The two nodes of slot ``k``."""
    return I[S[I_PA] + k], I[S[I_PB] + k]


def slot_fulls(I: np.ndarray, S: np.ndarray, k: int) -> int:
    """How many full carriers slot ``k`` holds (smallest first)."""
    return I[S[I_FLEN] + k]


def fulls_common(C: np.ndarray, I: np.ndarray, S: np.ndarray, k: int) -> int:
    """How many cells all of slot ``k``'s full carriers share (0 for a pair that touches or
    is joined two disjoint ways)."""
    r = S[C_FC] + k * S[N_FB]
    m = I[S[I_FLEN] + k]
    n = 0
    for x in range(C.shape[1]):
        v = C[r, x]
        for i in range(1, m):
            v &= C[r + i, x]
        n += _popcount(v)
    return n


def full_avoiding(C: np.ndarray, I: np.ndarray, S: np.ndarray, k: int,
                  ex: np.ndarray) -> bool:
    """Whether one of slot ``k``'s full carriers holds none of the cells of ``ex`` (a
    carrier row: cells the opponent has taken since the build, whose carriers are broken)."""
    r = S[C_FC] + k * S[N_FB]
    for i in range(I[S[I_FLEN] + k]):
        hit = False
        for x in range(C.shape[1]):
            if C[r + i, x] & ex[x]:
                hit = True
                break
        if not hit:
            return True
    return False


def full_is_empty(C: np.ndarray, S: np.ndarray, k: int, i: int) -> bool:
    """Whether the ``i``-th full carrier of slot ``k`` is empty: its two nodes touch."""
    r = S[C_FC] + k * S[N_FB] + i
    for x in range(C.shape[1]):
        if C[r, x]:
            return False
    return True


def cell_empty(C: np.ndarray, S: np.ndarray, cell: int) -> bool:
    """Whether ``cell`` was empty in the position built."""
    return _has(C, S[C_T] + R_EMPTY, cell) != U0


# --- the Python side ---------------------------------------------------------------------------


def words(bits: int, w: int) -> np.ndarray:
    """A bitboard as ``w`` little-endian 64-bit words."""
    return np.array([(bits >> (_WORD * i)) & _MASK64 for i in range(w)], np.uint64)


def to_int(row) -> int:
    """A word row back to a bitboard."""
    out = 0
    for i in range(len(row) - 1, -1, -1):
        out = (out << _WORD) | int(row[i])
    return out


class Layout:
    """How the kernel numbers a board's cells.  The engine's padded layout (``Geometry``)
    spends a bit a row on padding; where leaving it out saves a word of every carrier row
    (8x8: 64 bits, not 72; 11x11: 121, not 132), the kernel's cells are the board's cells
    row by row, in the engine's order, so that every build is the same up to the names.
    Bitboards and cells cross here both ways (``to_kernel``, ``from_kernel``, ``rows``,
    ``cell_of``, ``kernel_of``); elsewhere the layout is the identity."""

    def __init__(self, geo: Geometry) -> None:
        padded = geo.max_index
        tight = geo.width * geo.height
        self.compact = (tight + _WORD - 1) // _WORD < (padded + _WORD - 1) // _WORD
        self.cells = tight if self.compact else padded  # the kernel's cell nodes
        self.words = (self.cells + _WORD - 1) // _WORD
        self._padded_words = (padded + _WORD - 1) // _WORD
        cells = list(geo.cells) if self.compact else list(range(padded))
        self.cell_of: list[int] = cells  # kernel cell -> engine cell
        self.cells_array = np.array(cells, np.int64)
        inverse = [-1] * padded
        for k, c in enumerate(cells):
            inverse[c] = k
        self.kernel_of: list[int] = inverse  # engine cell -> kernel cell (−1: padding)
        self.engine_nodes = padded + 2
        row = (1 << geo.width) - 1
        self._rows = tuple((r * geo.stride, r * geo.width, row) for r in range(geo.height))

    def to_kernel(self, bits: int) -> int:
        """An engine bitboard in the kernel's cell bits."""
        if not self.compact:
            return bits
        out = 0
        for padded, tight, row in self._rows:
            out |= ((bits >> padded) & row) << tight
        return out

    def from_kernel(self, bits: int) -> int:
        """A bitboard of the kernel's cell bits as the engine's."""
        if not self.compact or not bits:
            return bits
        out = 0
        for padded, tight, row in self._rows:
            out |= ((bits >> tight) & row) << padded
        return out

    def rows(self, masks: list[int]) -> np.ndarray:
        """Engine bitboards as carrier rows in the kernel's cell bits (``to_kernel`` for
        many at once)."""
        if not self.compact:
            return _rows(masks, self.words)
        wide = _rows(masks, self._padded_words)
        bits = np.unpackbits(wide.view(np.uint8), axis=1, bitorder="little")
        tight = np.zeros((len(masks), self.words * _WORD), np.uint8)
        tight[:, :self.cells] = bits[:, self.cells_array]
        return np.packbits(tight, axis=1, bitorder="little").view(np.uint64).reshape(
            len(masks), self.words)

    def by_cell(self, values: np.ndarray) -> np.ndarray:
        """Values by kernel node (cells, then the two edges) as values by engine cell."""
        if not self.compact:
            return values
        out = np.zeros(self.engine_nodes, values.dtype)
        out[self.cells_array] = values[:self.cells]
        return out


@functools.lru_cache(maxsize=16)
def layout(geo: Geometry) -> Layout:
    """The kernel's layout of this board's cells."""
    return Layout(geo)


# a build's node pairs: 20 to 24 a node from 9x9 to 24x24, whatever the limits
SLOTS_PER_NODE = 28
_NEEDED: dict = {}  # (board size, limits) -> the (slots, events) a build there has grown to


def _key(geo: Geometry, limits) -> tuple:
    """A board size and limits, as the workspaces made for them are filed."""
    return geo.width, geo.height, limits


class Workspace:
    """The kernel's arrays for one board size and one set of limits, reused by every build.

    In I: the slot of each node pair (``slot``, nodes × nodes), each node's partners in the
    order of their first full connection (``plist``, ``plen``), each slot's pair, its full
    carriers' sizes and count (``FN``, ``flen``), its semis' keys, sizes and count (``SK``,
    ``SN``, ``slen``), and the queued events (ends, size) with the heap over them.  In C:
    the carriers of the slots' fulls (max_fulls + 1 rows each) and semis (max_semis + 1),
    of the events, and the scratch rows."""

    def __init__(self, geo: Geometry, limits, slots: int = 0, events: int = 0) -> None:
        self.layout = lay = layout(geo)
        mi = lay.cells
        nn = mi + 2
        w = lay.words
        self.mi = mi
        self.limits = limits
        # sized for a build on this board at once (a workspace too small costs a whole
        # build for each doubling), or as large as one here has had to grow
        needed = _NEEDED.get(_key(geo, limits), (0, 0))
        self.slots = s = slots or max(1024, SLOTS_PER_NODE * nn, needed[0])
        self.events = e = events or max(4096, 64 * nn, needed[1])
        fb, sb = limits.max_fulls + 1, limits.max_semis + 1
        cand = limits.or_candidates
        ors = max(1, limits.max_ors)
        stack = ors * (cand + 1) + 2
        S = self.S = np.zeros(S_SIZE, np.int64)
        S[L_FULLS:L_EMPTY_PAIRS + 1] = (limits.max_fulls, limits.max_semis, ors, cand,
                                        limits.and_fulls, limits.work,
                                        int(limits.stop_at_win), int(limits.templates),
                                        int(limits.empty_pairs))
        S[L_EDGE_BAND] = int(limits.edge_band)
        S[L_REFRESH_LOST] = int(limits.refresh_lost)
        S[L_CAPTURED_OR] = int(limits.captured_or)
        S[N_NODES], S[N_CELLS], S[N_SLOTS], S[N_EVENTS], S[N_FB], S[N_SB] = (
            nn, mi, s, e, fb, sb)
        at = 0
        for index, length in ((I_SLOT, nn * nn), (I_PLIST, nn * nn), (I_PLEN, nn), (I_PA, s),
                              (I_PB, s), (I_FN, s * fb), (I_FLEN, s), (I_SK, s * sb),
                              (I_SN, s * sb), (I_SLEN, s), (I_EVA, e), (I_EVB, e), (I_EVN, e),
                              (I_HEAP, e), (I_STACK, mi), (I_ORSTACK, 2 * stack)):
            S[index] = at
            at += length
        self.I = np.zeros(at, np.int32)
        at = 0
        for index, length in ((C_FC, s * fb), (C_SC, s * sb), (C_EV, e),
                              (C_T, R_OTH + 2 * cand + 1 + 2 * stack)):
            S[index] = at
            at += length
        self.C = np.zeros((at, w), np.uint64)
        self.group_of = np.zeros(mi, np.int64)
        self.is_group = np.zeros(mi, np.int8)
        self.owner: object = None  # the CompiledConnections whose build it holds

    def grown(self, geo: Geometry) -> "Workspace":
        """Twice as large, and the size the next workspaces for these limits start at."""
        ws = Workspace(geo, self.limits, self.slots * 2, self.events * 2)
        _NEEDED[_key(geo, self.limits)] = (ws.slots, ws.events)
        return ws

    # --- reading the result ----------------------------------------------------------------
    @property
    def complete(self) -> bool:
        return bool(self.S[ST_COMPLETE])

    def node_id(self, x: int) -> int:
        """A kernel node number as ``connections`` names nodes (cells as the engine numbers
        them, edges −1 and −2)."""
        return self.layout.cell_of[x] if x < self.mi else self.mi - 1 - x

    def kernel_node(self, x: int) -> int:
        return self.layout.kernel_of[x] if x >= 0 else self.mi - 1 - x

    def group(self, cell: int) -> int:
        """The node of the own group on the engine's ``cell`` (−1 when none stands there)."""
        g = int(self.group_of[self.layout.kernel_of[cell]])
        return self.layout.cell_of[g] if g >= 0 else -1

    def row(self, bits: int) -> np.ndarray:
        """An engine bitboard as a carrier row of this workspace (``full_avoiding``'s ``ex``)."""
        return words(self.layout.to_kernel(bits), self.C.shape[1])

    def pair_slot(self, a: int, b: int) -> int:
        """The slot of the pair of node ids (a, b); −1 when it has no connection."""
        S = self.S
        return int(self.I[S[I_SLOT] + self.kernel_node(a) * S[N_NODES] + self.kernel_node(b)])

    def pair(self, k: int) -> tuple[int, int]:
        S = self.S
        return self.node_id(int(self.I[S[I_PA] + k])), self.node_id(int(self.I[S[I_PB] + k]))

    def fulls(self, k: int) -> list[int]:
        """The full carriers of slot ``k`` (none for −1), smallest first."""
        if k < 0:
            return []
        S = self.S
        base = S[C_FC] + k * S[N_FB]
        engine = self.layout.from_kernel
        return [engine(to_int(self.C[base + i])) for i in range(self.I[S[I_FLEN] + k])]

    def semis(self, k: int) -> list[tuple[int, int]]:
        """(key cell, carrier) of the semi connections of slot ``k``, smallest first."""
        if k < 0:
            return []
        S = self.S
        base = k * S[N_SB]
        lay = self.layout
        return [(lay.cell_of[self.I[S[I_SK] + base + i]],
                 lay.from_kernel(to_int(self.C[S[C_SC] + base + i])))
                for i in range(self.I[S[I_SLEN] + k])]

    def used_slots(self) -> range:
        return range(int(self.S[ST_SLOTS]))


@functools.lru_cache(maxsize=16)
def tables(geo: Geometry):
    """Neighbours, bridges and per-colour edge rows and templates in the kernel's layout."""
    lay = layout(geo)
    w = lay.words
    kc = lay.kernel_of
    nbr = np.full((lay.cells, 6), -1, np.int64)
    for c in geo.cells:
        for j, z in enumerate(sorted(geo.neighbours[c])):
            nbr[kc[c], j] = kc[z]
    bridges, per_edge = templates.tables(geo)
    br_x = np.array([kc[x] for x, _, _ in bridges], np.int64)
    br_y = np.array([kc[y] for _, y, _ in bridges], np.int64)
    br_c = lay.rows([c for _, _, c in bridges])
    per_colour = []
    for colour in (0, 1):
        start, goal = geo.edges[colour]
        per_colour.append((lay.to_kernel(start), lay.to_kernel(goal),
                           _template_arrays(_instances(per_edge, start, goal), lay)))
    return w, nbr, br_x, br_y, br_c, tuple(per_colour)


@functools.lru_cache(maxsize=16)
def stone_tables(geo: Geometry, colour: int):
    """The colour's edge templates followed by its stone templates, in the kernel's layout
    (built when a build first asks for them: 0.1-0.3 s on boards up to 19x19)."""
    start, goal = geo.edges[colour]
    inst = (_instances(templates.tables(geo)[1], start, goal)
            + _instances(templates.stone_templates(geo), start, goal))
    return _template_arrays(inst, layout(geo))


def _instances(per_edge: dict, start: int, goal: int) -> list:
    """Template instances of the two edges, start edge first, as (anchor, edge 0/1,
    carrier, helpers); single-stone ones (anchor, carrier) need no helpers."""
    return [(t[0], e, t[1], t[2] if len(t) > 2 else 0)
            for e, edge in enumerate((start, goal)) for t in per_edge[edge]]


def _template_arrays(inst: list, lay: Layout) -> tuple:
    """Instances (anchor, edge 0/1, carrier, helpers) as the kernel's arrays (in its
    ``lay``-out): anchors, edges, carrier words, helper words, and the lowest helper cell
    (-1 for none)."""
    kc = lay.kernel_of
    return (np.array([kc[t[0]] for t in inst], np.int64),
            np.array([t[1] for t in inst], np.int64),
            lay.rows([t[2] for t in inst]), lay.rows([t[3] for t in inst]),
            np.array([kc[(t[3] & -t[3]).bit_length() - 1] if t[3] else -1 for t in inst],
                     np.int64))


def _rows(masks: list[int], w: int) -> np.ndarray:
    """Bitboards as rows of ``w`` little-endian 64-bit words (``words`` for many at once)."""
    data = b"".join(m.to_bytes(8 * w, "little") for m in masks)
    return np.frombuffer(data, dtype="<u8").astype(np.uint64).reshape(len(masks), w)


_WORKSPACES: dict = {}


def _inputs(geo: Geometry, stones, colour: int, limits) -> tuple:
    """(words per row, the kernel's tables for this board and colour, the position's five
    rows: own, opponent, empty, start edge, goal edge)."""
    w, nbr, br_x, br_y, br_c, per_colour = tables(geo)
    start, goal, single = per_colour[colour]
    tps = stone_tables(geo, colour) if limits.stone_templates else single
    own, opp = stones[colour], stones[1 - colour]
    kernel = layout(geo).to_kernel
    return w, (nbr, br_x, br_y, br_c) + tuple(tps), (kernel(own), kernel(opp),
                                                      kernel(geo.mask & ~(own | opp)),
                                                      start, goal)


def _until_it_fits(geo: Geometry, limits, ws: Workspace, shared: Optional[int], w: int,
                   rows: tuple, call: Callable[[Workspace], bool]) -> Workspace:
    """Run ``call`` on ``ws`` with the position's rows laid in, in a workspace twice as
    large each time it overflows (kept as the board's one for colour ``shared``, unless
    None)."""
    while True:
        C = ws.C
        t = int(ws.S[C_T]) + R_OWN
        for r, bits in enumerate(rows):
            for i in range(w):
                C[t + r, i] = (bits >> (_WORD * i)) & _MASK64
        if call(ws):
            return ws
        ws = ws.grown(geo)
        if shared is not None:
            _WORKSPACES[_key(geo, limits), shared] = ws


def _shared(geo: Geometry, limits, colour: int, avoid: Optional[Workspace] = None
            ) -> Workspace:
    """The board's workspace for these limits and this colour, reused by every build of
    that colour that brings none (a new one in place of ``avoid``).  One per colour, so
    that a node's build for one side survives the other side's build (the solver reads
    both)."""
    key = _key(geo, limits), colour
    ws = _WORKSPACES.get(key)
    if ws is None or ws is avoid:
        if len(_WORKSPACES) >= 16:
            _WORKSPACES.clear()
        ws = _WORKSPACES[key] = Workspace(geo, limits)
    return ws


def run(geo: Geometry, stones, colour: int, limits,
        workspace: Optional[Workspace] = None) -> Workspace:
    """The compiled build for ``colour``; the workspace holding its result stays valid until
    the next build for that colour on this board size with these limits.  With
    ``workspace`` (one made for this board and these limits) the build goes there instead
    and stays until the caller builds there again; the workspace returned may be a larger
    one that replaces it."""
    return _run(geo, stones, colour, limits, workspace)


def _run(geo: Geometry, stones, colour: int, limits, workspace: Optional[Workspace],
         calls: Optional[dict] = None) -> Workspace:
    w, tabs, rows = _inputs(geo, stones, colour, limits)
    ws = workspace or _shared(geo, limits, colour)
    ws.owner = None  # the result it held is overwritten
    build_here = (calls or _calls_for(w))["kernel"]
    return _until_it_fits(
        geo, limits, ws, colour if workspace is None else None, w, rows,
        lambda ws: build_here(ws.C, ws.I, ws.S, *tabs, ws.group_of, ws.is_group))


def run_from(geo: Geometry, stones, colour: int, limits, before: Workspace, added: int,
             taken: int, workspace: Optional[Workspace] = None) -> Workspace:
    """As ``run``, from ``before``: ``colour``'s build (same board, same limits) of the
    position with the own stones ``added`` and the opponent's ``taken`` not yet played
    (``extend``).  Sound as a fresh build is, and cheaper, but not the same: it keeps what
    the soft limits let in before."""
    return _run_from(geo, stones, colour, limits, before, added, taken, workspace)


def _run_from(geo: Geometry, stones, colour: int, limits, before: Workspace, added: int,
              taken: int, workspace: Optional[Workspace], calls: Optional[dict] = None
              ) -> Workspace:
    w, tabs, rows = _inputs(geo, stones, colour, limits)
    ws = workspace if workspace is not None and workspace is not before else (
        _shared(geo, limits, colour, before) if workspace is None else Workspace(geo, limits))
    ws.owner = None
    delta = np.zeros((3, w), np.uint64)
    kernel = layout(geo).to_kernel
    for r, bits in enumerate((kernel(added), kernel(taken))):
        for i in range(w):
            delta[r, i] = (bits >> (_WORD * i)) & _MASK64
    extend_here = (calls or _calls_for(w))["extension"]
    return _until_it_fits(
        geo, limits, ws, colour if workspace is None else None, w, rows, lambda ws: extend_here(
        ws.C, ws.I, ws.S, before.C, before.I, before.S, delta, *tabs, ws.group_of,
        ws.is_group))


class Packed(NamedTuple):
    """A build as ``extend`` reads it, in as little memory as it takes (``pack_build``)."""
    rows: np.ndarray
    ints: np.ndarray
    slots: int

    @property
    def nbytes(self) -> int:
        return self.rows.nbytes + self.ints.nbytes


def pack_build(ws: Workspace) -> Packed:
    """The build in ``ws``, packed: a tenth or less of a workspace's memory."""
    return _pack(ws)


def _pack(ws: Workspace, calls: Optional[dict] = None) -> Packed:
    calls = calls or _calls_for(ws.C.shape[1])
    n = int(ws.S[ST_SLOTS])
    rows = calls["_packed_size"](ws.I, ws.S)
    out_c = np.empty((rows, ws.C.shape[1]), np.uint64)
    out_i = np.empty(4 * n + 2 * rows, np.int32)
    used = calls["_transfer"](ws.C, ws.I, ws.S, out_c, out_i, n, True)
    return Packed(out_c, out_i[:used].copy(), n)


def unpack_build(packed: Packed, geo: Geometry, limits, into: Optional[Workspace] = None
                 ) -> Workspace:
    """``packed`` laid in ``into`` (a workspace for this board and limits, or a new or
    larger one, returned), ready to be ``run_from``'s ``before``."""
    return _unpack(packed, geo, limits, into)


def _unpack(packed: Packed, geo: Geometry, limits, into: Optional[Workspace],
            calls: Optional[dict] = None) -> Workspace:
    ws = into
    if ws is None or ws.slots < packed.slots:
        ws = Workspace(geo, limits, slots=max(packed.slots, ws.slots if ws else 0))
    ws.owner = None
    transfer = (calls or _calls_for(ws.C.shape[1]))["_transfer"]
    transfer(ws.C, ws.I, ws.S, packed.rows, packed.ints, packed.slots, False)
    return ws


def wires(geo: Geometry, stones, pos, per_pair: int, limits=None,
          edges: Optional[list] = None, threats: Optional[list] = None) -> np.ndarray:
    """Both colours' full connections between their groups and edges, built afresh by the
    compiled H-search, as the resistance circuit's wire rows (see ``links``).  With
    ``edges`` (a list of two), ``edges[colour]`` is set to what joins that colour's edges:
    2 a full connection, 1 a semi connection, 0 neither; with ``threats`` too,
    ``threats[colour]`` is the intersection of that colour's edge-to-edge semi carriers
    (keys included) when ``edges[colour]`` is 1: the opponent's mustplay."""
    lim = limits or DEFAULT_LIMITS
    out = _WIRES.get(geo.max_index)
    if out is None:
        out = _WIRES[geo.max_index] = np.zeros((4 * geo.max_index, 3), np.int64)
    n = 0
    lay = layout(geo)
    if lay.compact:
        pos = pos[lay.cells_array]  # by kernel cell
    for colour in (0, 1):
        ws = run(geo, stones, colour, lim)
        n = _calls_for(ws.C.shape[1])["_links"](ws.C, ws.I, ws.S, ws.is_group, pos, colour,
                                                per_pair, out, n)
        if n < 0:  # more wires than rows: twice the rows, and again
            _WIRES[geo.max_index] = np.zeros((2 * out.shape[0], 3), np.int64)
            return wires(geo, stones, pos, per_pair, limits, edges, threats)
        if edges is not None:
            edges[colour], threat = edge_state(ws, threats is not None)
            if threats is not None and edges[colour] == 1:
                threats[colour] = threat
    return out[:n]


def edge_state(ws: Workspace, threat: bool = True, exclude: int = 0) -> tuple[int, int]:
    """What joins the built colour's edges (2 a full connection, 1 a semi connection, 0
    neither) and, for 1 (and ``threat``), the intersection of its edge-to-edge semi
    carriers, keys included: the opponent's mustplay (−1 otherwise).  With ``exclude``
    (cells the opponent has taken since the build), only the carriers that avoid them."""
    k = ws.pair_slot(EDGE_START, EDGE_GOAL)
    if exclude and k >= 0:
        if any(not c & exclude for c in ws.fulls(k)):
            return 2, -1
        semis = [c for _, c in ws.semis(k) if not c & exclude]
        if not semis:
            return 0, -1
        if not threat:
            return 1, -1
        common = semis[0]
        for c in semis[1:]:
            common &= c
        return 1, common
    S, I = ws.S, ws.I
    state = 0 if k < 0 else 2 if I[S[I_FLEN] + k] else 1 if I[S[I_SLEN] + k] else 0
    if state != 1 or not threat:
        return state, -1
    first = S[C_SC] + k * S[N_SB]
    return state, ws.layout.from_kernel(
        to_int(np.bitwise_and.reduce(ws.C[first:first + I[S[I_SLEN] + k]], axis=0)))


_WIRES: dict[int, np.ndarray] = {}


def usable(geo: Geometry) -> bool:
    """Whether ``vc.build`` on this board runs the compiled kernel."""
    return ready() and geo.max_index <= MAX_CELLS


def prepare(geo: Geometry) -> None:
    """Build the kernel's tables for this board (0.1-0.5 s up to 24x24), as the first build
    would: for the board size's command to pay, not the first search or solve."""
    if geo.max_index <= MAX_CELLS:
        tables(geo)
        for colour in (0, 1):
            stone_tables(geo, colour)


# How the kernel's functions are compiled, callees first (a compiled function finds them as
# compiled globals): the small helpers inlined into their callers, the rest without
# reference counting (``Compilers.bare``); the entry points last.
_INLINED = ("_words", "_popcount", "_size", "_subset", "_overlap", "_equal", "_copy", "_has",
            "_slot", "_before", "_edge_pair", "_carried", "_lost_within", "_carried_row",
            "_near", "_captures", "node_cells", "slot_count", "slot_ends", "slot_fulls",
            "fulls_common", "full_is_empty", "cell_empty", "full_avoiding")
_BARE = ("_new_slot", "_heap_push", "_heap_pop", "_drop_supersets", "_insert")
_INLINED_LATE = ("_put_full", "_put_semi")
_BARE_LATE = ("_add_full", "_do_or", "_add_semi", "_groups", "_base", "_closure", "_carry",
              "_based_closure")
_ENTRIES = {"kernel": build, "extension": extend, "_links": links,
            "_packed_size": packed_size, "_transfer": transfer}
_PYTHON = dict({name: globals()[name] for name in _INLINED + _BARE + _INLINED_LATE + _BARE_LATE},
               **_ENTRIES)  # taken before any is compiled


def _compiled(compilers: kernels.Compilers, space: dict, python: dict, suffix: str = ""
              ) -> dict:
    """Compile the kernel's functions (``python``: name -> Python function) into ``space``,
    the globals they are compiled against, and return its entry points.  With a
    ``suffix``, each is a copy of the Python function with ``space`` as its globals, filed
    in numba's disk cache under its name with the suffix (apart from the module's own)."""
    def compile_into(jit: Callable, name: str, func: Callable) -> Callable:
        if suffix:
            func = types.FunctionType(func.__code__, space, func.__name__ + suffix,
                                      func.__defaults__, func.__closure__)
            func.__qualname__ = func.__name__
        space[name] = jit(func)
        return space[name]
    for names, jit in ((_INLINED, compilers.inline), (_BARE, compilers.bare),
                       (_INLINED_LATE, compilers.inline), (_BARE_LATE, compilers.bare)):
        for name in names:
            compile_into(jit, name, python[name])
    return {name: compile_into(compilers.bare, name, python[name]) for name in _ENTRIES}


def _compile(compilers: kernels.Compilers) -> None:
    """Replace the kernel's functions by compiled ones that read the words of a carrier row
    from its array (any board)."""
    _GENERIC.update(_compiled(compilers, globals(), _PYTHON))


def _words_constant(C):
    return _WORDS_HERE


def _compile_for(words: int) -> Callable[[kernels.Compilers], None]:
    """The kernel compiled for boards whose carrier rows have ``words`` words: every loop
    over a row's words unrolls (a fifth faster on 11x11 than reading the width from the
    array).  Its functions are copies with globals of their own."""
    def compile_family(compilers: kernels.Compilers) -> None:
        space = dict(globals(), _WORDS_HERE=words)
        _FAMILIES[words] = _compiled(compilers, space, dict(_PYTHON, _words=_words_constant),
                                     f"_w{words}")
    return compile_family


def _calls_for(words: int) -> dict:
    """The entry points for carrier rows of ``words`` words (a workspace's width): the
    kernel compiled for that width once it has loaded (and warmed up), else the one for any
    width (compiled, or until then the Python functions)."""
    family = _FAMILIES.get(words)
    if family is not None and _FAMILY_READY[words]() and _widths_apart():
        return family
    return _GENERIC


def _warm_up() -> None:
    """The kernel's first builds, on a 3x3 board: numba compiles them in the loading thread."""
    _warm_up_with(geometry(3, 3), _GENERIC)


def _warm_up_with(geo: Geometry, calls: dict) -> None:
    """A fresh build, its packing and unpacking, a build extended from it and its wires,
    each through ``calls``: every entry point compiled (or loaded) once."""
    c = geo.cells
    before = _run(geo, [1 << c[0], 1 << c[4]], 0, DEFAULT_LIMITS, Workspace(geo, DEFAULT_LIMITS),
                  calls)
    again = _unpack(_pack(before, calls), geo, DEFAULT_LIMITS, None, calls)
    after = _run_from(geo, [1 << c[0] | 1 << c[2], 1 << c[4] | 1 << c[6]], 0, DEFAULT_LIMITS,
                      again, 1 << c[2], 1 << c[6], None, calls)
    out = np.zeros((4 * geo.max_index, 3), np.int64)
    calls["_links"](after.C, after.I, after.S, after.is_group,
                    np.arange(geo.max_index, dtype=np.int64), 0, 1, out, 0)


# the widths compiled apart, each with the smallest board that has it (up to 13x13)
_FAMILY_BOARDS = {1: (3, 3), 2: (9, 9), 3: (12, 12)}
_FAMILIES: dict[int, dict] = {}
_GENERIC: dict = dict(_ENTRIES)  # replaced by the compiled functions when numba has loaded them
ready = kernels.register("hsearch", _compile)  # ready(): callable without compiling
kernels.warm_up("hsearch", _warm_up)
_FAMILY_READY: dict[int, kernels.Ready] = {}


def _warm_up_family(words: int) -> None:
    _warm_up_with(geometry(*_FAMILY_BOARDS[words]), _FAMILIES[words])


def _register_families() -> None:
    """Each width's kernel loads after every other kernel (the engine needs those first)."""
    for words in _FAMILY_BOARDS:
        name = f"hsearch{words}"
        _FAMILY_READY[words] = kernels.register(name, _compile_for(words), late=True)
        kernels.warm_up(name, functools.partial(_warm_up_family, words))


_register_families()
python_only = ready.off  # within the block vc.build runs the Python closure (hsearch_python)
_widths_apart = kernels.Ready()
_widths_apart.set()
any_width = _widths_apart.off  # within the block builds run on the kernel for any width


class CompiledConnections(Connections):
    """``Connections`` read from the kernel's workspace, pair by pair when asked.

    The workspace is reused by the next build, so each result remembers which build it
    was; when another has run since, it runs its own build again (the kernel is
    deterministic) before reading."""

    def __init__(self, geo: Geometry, stones, colour: int, limits: Optional[Limits] = None,
                 built: Optional[Workspace] = None) -> None:
        """``colour``'s build of ``stones``, made now, or the one already in ``built``
        (e.g. from ``run_from``; read after that workspace has been built over again, it
        is built afresh)."""
        self.geo = geo
        self.colour = colour
        self.stones = (stones[0], stones[1])
        self.empty = geo.mask & ~(stones[0] | stones[1])
        self.limits = limits or DEFAULT_LIMITS
        self._ws = built or run(geo, self.stones, colour, self.limits)
        self._ws.owner = self
        self.complete = self._ws.complete
        self.work = self.limits.work - int(self._ws.S[ST_BUDGET])

    def workspace(self) -> "Workspace":
        """The kernel's workspace holding this build (built again if another build has
        reused it since), for other compiled code that reads a build."""
        ws = self._ws
        if getattr(ws, "owner", None) is not self:
            ws = self._ws = run(self.geo, self.stones, self.colour, self.limits)
            ws.owner = self
        return ws

    # --- the fast paths: one pair read --------------------------------------------------
    def node(self, cell: int) -> int:
        if cell < 0:
            return cell
        g = self.workspace().group(cell) if self.stones[self.colour] >> cell & 1 else -1
        return g if g >= 0 else cell

    def _pair(self, a: int, b: int) -> tuple["Workspace", int]:
        ws = self.workspace()
        return ws, ws.pair_slot(a, b)

    def edge_full(self) -> Optional[int]:
        lst = self.edge_full_all()
        return lst[0] if lst else None

    def edge_full_all(self) -> list[int]:
        ws, k = self._pair(EDGE_START, EDGE_GOAL)
        return ws.fulls(k)

    def edge_semis(self) -> list[int]:
        return [carrier for _, carrier in self.edge_semis_keyed()]

    def edge_semis_keyed(self) -> list[tuple[int, int]]:
        ws, k = self._pair(EDGE_START, EDGE_GOAL)
        return [(1 << key, carrier) for key, carrier in ws.semis(k)]

    def full(self, a: int, b: int) -> list[int]:
        ws, k = self._pair(self.node(a), self.node(b))
        return ws.fulls(k)

    def semi(self, a: int, b: int) -> list[int]:
        return [carrier for _, carrier in self.semi_keyed(a, b)]

    def semi_keyed(self, a: int, b: int) -> list[tuple[int, int]]:
        ws, k = self._pair(self.node(a), self.node(b))
        return ws.semis(k)

    def full_pairs(self) -> list[tuple[int, int]]:
        ws = self.workspace()
        S, I = ws.S, ws.I
        return [self._unkey(self._key(*ws.pair(k))) for k in ws.used_slots()
                if I[S[I_FLEN] + k]]

    def count(self) -> tuple[int, int]:
        ws = self.workspace()
        S, I = ws.S, ws.I
        n = int(S[ST_SLOTS])
        return (int(I[S[I_FLEN]:S[I_FLEN] + n].sum()), int(I[S[I_SLEN]:S[I_SLEN] + n].sum()))

    # --- everything, decoded once (vc.update and the tests read the dictionaries) ------------
    @functools.cached_property
    def _decoded(self):
        ws = self.workspace()
        fulls: dict[int, list[int]] = {}
        semis: dict[int, list[int]] = {}
        keys: dict[int, list[int]] = {}
        adj: dict[int, dict[int, list[int]]] = {}
        for k in ws.used_slots():
            a, b = ws.pair(k)
            key = self._key(a, b)
            f = ws.fulls(k)
            if f:
                fulls[key] = f
            s = ws.semis(k)
            if s:
                keys[key] = [c for c, _ in s]
                semis[key] = [c for _, c in s]
        S, I = ws.S, ws.I
        nn = int(S[N_NODES])
        for x in range(nn):  # partners in the order the build made them, as hsearch_python's
            lst = I[S[I_PLIST] + x * nn: S[I_PLIST] + x * nn + I[S[I_PLEN] + x]]
            if len(lst):
                a = ws.node_id(x)
                adj[a] = {ws.node_id(int(z)): fulls[self._key(a, ws.node_id(int(z)))]
                          for z in lst}
        groups: dict[int, int] = {}
        group_of: dict[int, int] = {}
        for cell in self.geo.iter_bits(self.stones[self.colour]):
            g = ws.group(cell)
            group_of[cell] = g
            groups[g] = groups.get(g, 0) | 1 << cell
        return fulls, semis, keys, adj, groups, group_of

    fulls = property(lambda self: self._decoded[0])
    semis = property(lambda self: self._decoded[1])
    semi_keys = property(lambda self: self._decoded[2])
    adj = property(lambda self: self._decoded[3])
    groups = property(lambda self: self._decoded[4])
    group_of = property(lambda self: self._decoded[5])
