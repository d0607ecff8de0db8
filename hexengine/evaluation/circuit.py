"""The resistance circuits solved by one compiled kernel (numba), both colours in one call.

The circuit is the one ``resistance`` describes; this module only solves it faster.  Cells
are numbered row by row, so every link (neighbour or bridge) joins cells at most 2·width − 1
apart: the Laplacian is a band matrix, and a band Cholesky costs n·b²/2 operations instead
of n³/6 (11×11: 27 thousand against 300 thousand).  Wires from the root's H-search may join
cells farther apart; those few are added by the Woodbury identity (one extra band solve
each), which keeps the band intact.

It registers with ``hexengine.kernels``, which compiles it (or loads it from numba's disk
cache) in a background thread when the engine starts; ``resistance`` adds the warm-up, a
first solve on its own tables.  Until it is ``ready``, or without numba, the numpy circuit in
``resistance`` answers.
"""
from __future__ import annotations

import math

import numpy as np

from .. import kernels


def _compile(compilers: kernels.Compilers) -> None:
    """Replace the kernel's functions by compiled ones (numba compiles at the first call)."""
    global _band_cholesky, _band_solve, _add_link, _add_currents, _carrier_free, solve
    jit = compilers.jit
    # callees first: a compiled function finds them as compiled globals
    _band_cholesky, _band_solve, _add_link, _add_currents, _carrier_free = (
        jit(_band_cholesky), jit(_band_solve), jit(_add_link), jit(_add_currents),
        jit(_carrier_free))
    solve = jit(solve)


# ready(): the kernel can be called without compiling; the search's first need, so urgent
ready = kernels.register("circuit", _compile, urgent=True)
numpy_only = ready.off  # within the block the numpy circuit answers (comparisons, benchmarks)


def _band_cholesky(band, n, bw):
    """Factor the symmetric band matrix in place (``band[i, d]`` is entry (i, i - d)) into
    its lower Cholesky factor; False when a pivot is not positive."""
    for j in range(n):
        s = band[j, 0]
        lo = j - bw if j > bw else 0
        for k in range(lo, j):
            x = band[j, j - k]
            s -= x * x
        if s <= 0.0:
            return False
        d = math.sqrt(s)
        band[j, 0] = d
        top = j + bw + 1 if j + bw + 1 < n else n
        for i in range(j + 1, top):
            s = band[i, i - j]
            lo = i - bw if i > bw else 0
            for k in range(lo, j):
                s -= band[i, i - k] * band[j, j - k]
            band[i, i - j] = s / d
    return True


def _band_solve(band, n, bw, x):
    """Solve L Lᵀ x = b in place (``x`` holds b) with the factor from ``_band_cholesky``."""
    for i in range(n):
        s = x[i]
        lo = i - bw if i > bw else 0
        for k in range(lo, i):
            s -= band[i, i - k] * x[k]
        x[i] = s / band[i, 0]
    for i in range(n - 1, -1, -1):
        s = x[i]
        top = i + bw + 1 if i + bw + 1 < n else n
        for k in range(i + 1, top):
            s -= band[k, k - i] * x[k]
        x[i] = s / band[i, 0]


def _add_link(band, a, b, g):
    """Conductance ``g`` between cells ``a`` and ``b`` (at most the band width apart)."""
    band[a, 0] += g
    band[b, 0] += g
    band[max(a, b), abs(a - b)] -= g


def _add_currents(ends, g, v, current, energy):
    """The current through each link (a row of ``ends``: its two cells first), counted at
    both of its cells."""
    for p in range(ends.shape[0]):
        if g[p] > 0.0:
            a = ends[p, 0]
            b = ends[p, 1]
            x = g[p] * abs(v[a] - v[b]) / current
            energy[a] += x
            energy[b] += x


def _carrier_free(state, theirs, off, idx, j):
    for q in range(off[j], off[j + 1]):
        if state[idx[q]] == theirs:
            return False
    return True


def solve(raw_b, raw_w, cells, first, reach, edge_reach, strong, wire, flows, pairs, bridges,
          rows, tpl, deep, deep_off, deep_idx, links, link_off, link_idx, bw, out, energy):
    """Both colours' circuits: ``out[0]`` the resistance of ``first``, ``out[1]`` of its
    opponent (inf when cut off); with ``flows`` the per-cell current is added to ``energy``.

    ``raw_b``/``raw_w`` are the stones' bitboards as little-endian bytes; the tables are
    those of ``resistance._tables`` (template and deep rows tagged colour·2 + side, links
    tagged by colour, carriers as offsets into index arrays)."""
    n = cells.shape[0]
    state = np.empty(n, np.int8)
    for i in range(n):
        c = cells[i]
        if (raw_b[c >> 3] >> (c & 7)) & 1:
            state[i] = 1
        elif (raw_w[c >> 3] >> (c & 7)) & 1:
            state[i] = 2
        else:
            state[i] = 0
    n_pairs = pairs.shape[0]
    n_bridges = bridges.shape[0]
    band = np.empty((n, bw + 1))
    g_src = np.empty(n)
    g_goal = np.empty(n)
    g_pair = np.empty(n_pairs)
    g_bridge = np.empty(n_bridges)
    v = np.empty(n)
    far_a = np.empty(links.shape[0], np.int64)
    far_b = np.empty(links.shape[0], np.int64)
    for k in range(2):
        colour = first if k == 0 else 1 - first
        mine = colour + 1
        theirs = 2 - colour
        band[:, :] = 0.0
        g_src[:] = 0.0
        g_goal[:] = 0.0
        for p in range(n_pairs):
            a = pairs[p, 0]
            b = pairs[p, 1]
            sa = state[a]
            sb = state[b]
            if sa == theirs or sb == theirs:
                g = 0.0
            elif sa == mine and sb == mine:
                g = strong
            elif sa == mine or sb == mine:
                g = 2.0
            else:
                g = 1.0
            g_pair[p] = g
            _add_link(band, a, b, g)
        for p in range(n_bridges):
            a = bridges[p, 0]
            b = bridges[p, 1]
            g = 0.0
            if state[bridges[p, 2]] == 0 and state[bridges[p, 3]] == 0:
                sa = state[a]
                sb = state[b]
                if sa == mine and sb == mine:
                    g = wire
                elif (sa == mine and sb == 0) or (sa == 0 and sb == mine):
                    g = reach
            g_bridge[p] = g
            if g > 0.0:
                _add_link(band, a, b, g)
        for side in range(2):
            tag = colour * 2 + side
            to_edge = g_src if side == 0 else g_goal
            for i in range(n):
                if rows[tag, i]:
                    if state[i] == 0:
                        to_edge[i] = 1.0
                    elif state[i] == mine:
                        to_edge[i] = strong
            for t in range(tpl.shape[0]):
                if tpl[t, 0] != tag:
                    continue
                cell = tpl[t, 1]
                if state[tpl[t, 2]] == 0 and state[tpl[t, 3]] == 0:
                    if state[cell] == mine:
                        to_edge[cell] += wire
                    elif state[cell] == 0:
                        to_edge[cell] += edge_reach
            for t in range(deep.shape[0]):
                if deep[t, 0] == tag and state[deep[t, 1]] == mine and _carrier_free(
                        state, theirs, deep_off, deep_idx, t):
                    to_edge[deep[t, 1]] += wire
        n_far = 0
        for t in range(links.shape[0]):
            if wire <= 0.0:
                break
            if links[t, 0] != colour or not _carrier_free(state, theirs, link_off, link_idx, t):
                continue
            a = links[t, 1]
            b = links[t, 2]
            if b == -1:
                g_src[a] += wire
            elif b == -2:
                g_goal[a] += wire
            else:
                if abs(a - b) <= bw:
                    _add_link(band, a, b, wire)
                else:  # outside the band: added by the Woodbury identity below
                    far_a[n_far] = a
                    far_b[n_far] = b
                    n_far += 1
        for i in range(n):
            band[i, 0] += g_src[i] + g_goal[i] + 1e-9
            if state[i] == theirs:
                band[i, 0] += 1.0
        if not _band_cholesky(band, n, bw):
            out[k] = math.inf
            continue
        for i in range(n):
            v[i] = g_src[i]
        _band_solve(band, n, bw, v)
        if n_far:
            # A' = A + U C Uᵀ with u_f = e_a - e_b, C = wire: v' = v - Z S⁻¹ Uᵀ v,
            # Z = A⁻¹ U, S = C⁻¹ + Uᵀ Z
            z = np.zeros((n_far, n))
            for f in range(n_far):
                z[f, far_a[f]] = 1.0
                z[f, far_b[f]] = -1.0
                _band_solve(band, n, bw, z[f])
            s = np.empty((n_far, n_far + 1))
            for f in range(n_far):
                for h in range(n_far):
                    s[f, h] = z[h, far_a[f]] - z[h, far_b[f]]
                s[f, f] += 1.0 / wire
                s[f, n_far] = v[far_a[f]] - v[far_b[f]]
            for col in range(n_far):  # Gaussian elimination (S is positive definite)
                piv = s[col, col]
                for r in range(col + 1, n_far):
                    m = s[r, col] / piv
                    for h in range(col, n_far + 1):
                        s[r, h] -= m * s[col, h]
            y = np.empty(n_far)
            for r in range(n_far - 1, -1, -1):
                acc = s[r, n_far]
                for h in range(r + 1, n_far):
                    acc -= s[r, h] * y[h]
                y[r] = acc / s[r, r]
            for f in range(n_far):
                for i in range(n):
                    v[i] -= z[f, i] * y[f]
        current = 0.0
        for i in range(n):
            current += g_src[i] * (1.0 - v[i])
        out[k] = 1.0 / current if current > 1e-12 else math.inf
        if flows and current > 1e-12:
            _add_currents(pairs, g_pair, v, current, energy)
            _add_currents(bridges, g_bridge, v, current, energy)
            for i in range(n):
                energy[i] += (g_src[i] * (1.0 - v[i]) + g_goal[i] * v[i]) / current
