"""The Monte Carlo tree search's inner loop (numba): descents, playouts, RAVE updates.

One call runs a number of iterations on a tree held in numpy arrays, so that the caller
(``hexengine.mcts``) can look at the clock between calls.  Cells are numbered row by row
(``row * size + column``), a board is an int8 array (0 empty, 1 black, 2 white), and the
six neighbours of each cell are listed in ring order, each adjacent to the next, which is
what the bridge pattern of the playouts reads.

- **Selection**: each child's win rate and its all-moves-as-first (RAVE) win rate mixed
  with the weight β = √(K / (3n + K)) (Gelly and Silver), plus a small UCB term; a child
  never visited is scored by its RAVE rate alone.
- **Expansion**: a leaf visited ``expand_at`` times gets a child for every empty cell (the
  caller expands the root with the root's moves).
- **Playouts** (MoHex's): uniformly random moves, except that a move intruding into a
  bridge of the side to move (two of its stones with two common empty neighbours) is
  answered in the bridge's other cell.  The board is filled to the end; on a full board
  exactly one colour joins its edges.
- **Backup**: visits and wins on the path; for every node of the path, each child whose
  cell the node's mover ends up holding gets a RAVE sample.

It registers with ``hexengine.kernels`` (compiled in the background when the engine
starts); until it is ready the same functions run as Python, about a thousand times slower.
"""
from __future__ import annotations

import math

import numpy as np

from . import kernels


def _compile(compilers: kernels.Compilers) -> None:
    """Replace the kernel's functions by compiled ones (callees first)."""
    global _black_joined, _playout, _select, run
    jit = compilers.jit
    _black_joined = jit(_black_joined)
    _playout = jit(_playout)
    _select = jit(_select)
    run = jit(run)


ready = kernels.register("mcts", _compile)

# tree columns of ``stats`` (float64, one row per node)
VISITS, WINS, RAVE_N, RAVE_W, PRIOR = 0, 1, 2, 3, 4
# tree columns of ``links`` (int32, one row per node)
FIRST, COUNT, MOVE, PARENT, FLAGS = 0, 1, 2, 3, 4
# FLAGS: left out by its parent's knowledge; knowledge asked; its connections decide it,
# for the side to move there (WON) or against it (LOST)
PRUNED, KNOWN, WON, LOST = 1, 2, 4, 8


OFF_BLACK, OFF_WHITE = -2, -3  # a neighbour off the board: past black's edge, or white's


def neighbours(size: int) -> np.ndarray:
    """Each cell's six neighbours in ring order; off the board, which colour's edge lies
    there (``OFF_BLACK`` past the top or bottom row, else ``OFF_WHITE``)."""
    steps = ((1, 0), (0, 1), (-1, 1), (-1, 0), (0, -1), (1, -1))  # (column, row)
    table = np.full((size * size, 6), OFF_WHITE, dtype=np.int32)
    for row in range(size):
        for col in range(size):
            for k, (dc, dr) in enumerate(steps):
                c, r = col + dc, row + dr
                if 0 <= c < size and 0 <= r < size:
                    table[row * size + col, k] = r * size + c
                elif not 0 <= r < size:
                    table[row * size + col, k] = OFF_BLACK
    return table


def new_tree(capacity: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Empty tree arrays for ``capacity`` nodes: stats, links, and the node count."""
    stats = np.zeros((capacity, 5), dtype=np.float64)
    links = np.zeros((capacity, 5), dtype=np.int32)
    links[0, MOVE] = -1
    links[0, PARENT] = -1
    used = np.ones(1, dtype=np.int64)  # the root
    return stats, links, used


def _black_joined(board, size, nbr, queue, seen):
    """Whether black's stones join the top row to the bottom row."""
    n = size * size
    for i in range(n):
        seen[i] = 0
    head = 0
    tail = 0
    for c in range(size):
        if board[c] == 1:
            queue[tail] = c
            tail += 1
            seen[c] = 1
    while head < tail:
        cell = queue[head]
        head += 1
        if cell >= n - size:
            return True
        for k in range(6):
            nb = nbr[cell, k]
            if nb >= 0 and board[nb] == 1 and seen[nb] == 0:
                seen[nb] = 1
                queue[tail] = nb
                tail += 1
    return False


def _playout(board, size, nbr, colour, last, empties, where, queue, seen, state):
    """Fill ``board`` from ``colour`` to move (``last`` the cell just played, −1 if none)
    by the playout policy; the winner (0 black, 1 white).  ``state`` holds the random
    generator's 64-bit state."""
    n = size * size
    count = 0
    for i in range(n):
        if board[i] == 0:
            empties[count] = i
            where[i] = count
            count += 1
    while count > 0:
        move = -1
        if last >= 0:
            # the opponent's stone at ``last`` broke into a bridge of ``colour``'s: p and q
            # two apart in the ring around it, the cell between them empty; one of them
            # may be ``colour``'s edge (a second-row stone's template to its edge)
            mine = colour + 1
            edge = OFF_BLACK - colour
            for k in range(6):
                y = nbr[last, (k + 1) % 6]
                if y < 0 or board[y] != 0:
                    continue
                p = nbr[last, k]
                q = nbr[last, (k + 2) % 6]
                p_mine = p == edge or (p >= 0 and board[p] == mine)
                q_mine = q == edge or (q >= 0 and board[q] == mine)
                if p_mine and q_mine and (p >= 0 or q >= 0):
                    move = y
                    break
        if move < 0:
            x = state[0]
            x ^= x << np.uint64(13)
            x ^= x >> np.uint64(7)
            x ^= x << np.uint64(17)
            state[0] = x
            move = empties[int(x % np.uint64(count))]
        # take ``move`` out of the empty list
        i = where[move]
        count -= 1
        other = empties[count]
        empties[i] = other
        where[other] = i
        board[move] = colour + 1
        last = move
        colour = 1 - colour
    return 0 if _black_joined(board, size, nbr, queue, seen) else 1


def _select(stats, links, node, total, rave_k, explore, prior_weight):
    """The child of ``node`` with the best mixed value for the side to move there, plus
    its prior's bonus (``prior_weight`` · prior · √N / (1 + n), fading with its visits)."""
    first = links[node, FIRST]
    count = links[node, COUNT]
    best = first
    best_value = -1e9
    log_total = math.log(total + 1.0)
    root_total = prior_weight * math.sqrt(total + 1.0)
    for c in range(first, first + count):
        if links[c, FLAGS] & PRUNED:
            continue
        n = stats[c, VISITS]
        rn = stats[c, RAVE_N]
        rave = (stats[c, RAVE_W] + 0.5) / (rn + 1.0)
        if n > 0:
            beta = math.sqrt(rave_k / (3.0 * n + rave_k))
            value = (1.0 - beta) * stats[c, WINS] / n + beta * rave \
                + explore * math.sqrt(log_total / n)
        else:
            value = rave + explore
        value += root_total * stats[c, PRIOR] / (1.0 + n)
        if value > best_value:
            best_value = value
            best = c
    return best


def run(stats, links, used, board0, size, nbr, to_move, iterations, expand_at, rave_k,
        explore, state, know_at, pending, pending_n, prior_weight):
    """``iterations`` descents and playouts from the root (node 0, expanded by the caller
    with the root's moves) with ``to_move`` to play on ``board0``.  An expanded node
    reaching ``know_at`` visits is listed in ``pending`` (``pending_n[0]`` of them) for its
    knowledge, once; the call returns early when that list is full.  Returns the deepest
    descent."""
    n = size * size
    capacity = stats.shape[0]
    board = np.empty(n, dtype=np.int8)
    empties = np.empty(n, dtype=np.int32)
    where = np.empty(n, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    seen = np.empty(n, dtype=np.int8)
    path = np.empty(n + 2, dtype=np.int32)
    deepest = 0
    for _ in range(iterations):
        for i in range(n):
            board[i] = board0[i]
        colour = to_move
        node = 0
        depth = 0
        path[0] = 0
        last = -1
        decided = -1  # the winner where the descent ends in a decided node
        while True:
            flags = links[node, FLAGS]
            if flags & (WON | LOST):
                mover = (to_move + depth) & 1
                decided = mover if flags & WON else 1 - mover
                break
            if links[node, COUNT] == 0:
                if stats[node, VISITS] < expand_at:
                    break
                # expand: a child for each empty cell
                count = 0
                for i in range(n):
                    if board[i] == 0:
                        count += 1
                if count == 0 or used[0] + count > capacity:
                    break
                first = used[0]
                used[0] += count
                k = first
                for i in range(n):
                    if board[i] == 0:
                        links[k, FIRST] = 0
                        links[k, COUNT] = 0
                        links[k, MOVE] = i
                        links[k, PARENT] = node
                        links[k, FLAGS] = 0
                        stats[k, VISITS] = 0.0
                        stats[k, WINS] = 0.0
                        stats[k, RAVE_N] = 0.0
                        stats[k, RAVE_W] = 0.0
                        stats[k, PRIOR] = 0.0
                        k += 1
                links[node, FIRST] = first
                links[node, COUNT] = count
            child = _select(stats, links, node, stats[node, VISITS], rave_k, explore,
                            prior_weight)
            move = links[child, MOVE]
            board[move] = colour + 1
            last = move
            colour = 1 - colour
            node = child
            depth += 1
            path[depth] = node
        if depth > deepest:
            deepest = depth
        if decided >= 0:
            winner = decided
        else:
            winner = _playout(board, size, nbr, colour, last, empties, where, queue, seen,
                              state)
        for d in range(depth + 1):
            v = path[d]
            stats[v, VISITS] += 1.0
            if (know_at > 0 and d > 0 and stats[v, VISITS] >= know_at
                    and links[v, COUNT] > 0 and not links[v, FLAGS] & KNOWN
                    and pending_n[0] < pending.shape[0]):
                links[v, FLAGS] |= KNOWN
                pending[pending_n[0]] = v
                pending_n[0] += 1
            # the stone at node v (d >= 1) was played by the mover at depth d - 1
            if d >= 1 and ((to_move + d - 1) & 1) == winner:
                stats[v, WINS] += 1.0
            count = links[v, COUNT]
            if count > 0:
                mover = (to_move + d) & 1
                first = links[v, FIRST]
                won = 1.0 if mover == winner else 0.0
                for c in range(first, first + count):
                    if board[links[c, MOVE]] == mover + 1:
                        stats[c, RAVE_N] += 1.0
                        stats[c, RAVE_W] += won
        if pending_n[0] >= pending.shape[0]:
            break
    return deepest


def _warm_up() -> None:
    """A first call on a 3x3 board, so that numba compiles in the loading thread."""
    stats, links, used = new_tree(64)
    run(stats, links, used, np.zeros(9, dtype=np.int8), 3, neighbours(3), 0, 8, 1, 600.0,
        0.03, np.array([88172645463325252], dtype=np.uint64), 2, np.zeros(4, dtype=np.int32),
        np.zeros(1, dtype=np.int64), 0.0)


kernels.warm_up("mcts", _warm_up)
