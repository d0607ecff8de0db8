"""The learned value network, run in numpy: a position's logit of the mover winning.

The network (trained by ``scripts/train_value.py``, shipped as ``hexengine/data/value.npz``)
is fully convolutional over the planes of ``planes``: a stem and residual blocks of hex
convolutions (3×3 kernels without the two corners that are not hex neighbours, so seven
taps each), then the mean of each channel over the board's cells and two dense layers to one
logit.  One network serves every board size.  Running it needs numpy only: each hex
convolution is one matrix product of its weights with the seven shifted copies of its input.

``logit(geo, stones, colour)`` is the value the search reads (positive: good for
``colour``); ``logits(batch)`` evaluates many planes of one size at once.

A network may also read the position's circuit value (``vc_graph``'s score, what the search
computes at a leaf anyway): it enters the dense layers beside the pooled channels and is
added to the logit with a learned weight, so such a network is the circuit corrected by
what the board's patterns add (``CIRCUIT_WEIGHTS``, the ``net-circuit`` evaluation).
"""
from __future__ import annotations

import functools
import json
import os
from typing import Optional

import numpy as np

from ..geometry import Geometry
from ..knowledge import inferior
from . import planes as board_planes
from . import vc_graph

# (dr, dc) of the seven taps: the cell and its six hex neighbours in array coordinates
TAPS = ((0, 0), (0, 1), (0, -1), (1, 0), (-1, 0), (-1, 1), (1, -1))
DEFAULT_WEIGHTS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "value.npz")
CIRCUIT_WEIGHTS = os.path.join(os.path.dirname(DEFAULT_WEIGHTS), "value-circuit.npz")
CIRCUIT_SCALE = 12.0  # the circuit's value enters the dense layers divided by this
CLAMP = 11.0  # |logit| the search sees at most (inside the circuit's ±12)


class ValueNetwork:
    """The weights of one trained network and its forward pass."""

    def __init__(self, arrays: dict[str, np.ndarray]) -> None:
        meta = json.loads(str(arrays["meta"]))
        self.meta = meta
        self.blocks = int(meta["blocks"])
        self.channels = int(meta["channels"])
        self.stem = (arrays["stem.w"].astype(np.float32), arrays["stem.b"].astype(np.float32))
        self.layers = [
            tuple(arrays[f"block{i}.{part}"].astype(np.float32)
                  for part in ("a.w", "a.b", "b.w", "b.b"))
            for i in range(self.blocks)
        ]
        self.head = tuple(arrays[name].astype(np.float32)
                          for name in ("fc1.w", "fc1.b", "fc2.w", "fc2.b"))
        # the move head (a hex convolution to one logit per cell), in weights since step 4
        self.policy = ((arrays["policy.w"].astype(np.float32),
                        arrays["policy.b"].astype(np.float32))
                       if "policy.w" in arrays else None)
        # the circuit value's weight in the logit, for a network that reads it (else None)
        self.circuit = float(arrays["circuit.w"]) if "circuit.w" in arrays else None

    @classmethod
    def load(cls, path: str = DEFAULT_WEIGHTS) -> "ValueNetwork":
        with np.load(path, allow_pickle=False) as data:
            return cls({name: data[name] for name in data.files})

    def _trunk(self, x: np.ndarray) -> np.ndarray:
        x = np.maximum(_hex_conv(x, *self.stem), 0.0)
        for wa, ba, wb, bb in self.layers:
            y = np.maximum(_hex_conv(x, wa, ba), 0.0)
            x = np.maximum(x + _hex_conv(y, wb, bb), 0.0)
        return x

    def _value(self, planes: np.ndarray, features: np.ndarray,
               circuit: Optional[np.ndarray] = None) -> np.ndarray:
        inside = planes[:, 3].reshape(planes.shape[0], -1)
        flat = features.reshape(features.shape[0], features.shape[1], -1)
        pooled = (flat * inside[:, None, :]).sum(axis=2) / inside.sum(axis=1, keepdims=True)
        if self.circuit is not None:
            if circuit is None:
                raise ValueError("this network reads the circuit's value: pass circuit")
            circuit = np.asarray(circuit, dtype=np.float32).reshape(-1)
            pooled = np.concatenate([pooled, circuit[:, None] / CIRCUIT_SCALE], axis=1)
        w1, b1, w2, b2 = self.head
        hidden = np.maximum(pooled @ w1.T + b1, 0.0)
        out = (hidden @ w2.T + b2)[:, 0]
        return out if self.circuit is None else out + self.circuit * circuit

    def logits(self, batch: np.ndarray, circuit: Optional[np.ndarray] = None) -> np.ndarray:
        """The logits of a batch of planes, shape (B, PLANES, rows, cols) -> (B,); a
        network that reads the circuit takes each position's value in ``circuit`` (B,)."""
        x = np.asarray(batch, dtype=np.float32)
        return self._value(x, self._trunk(x), circuit)

    def both(self, batch: np.ndarray,
             circuit: Optional[np.ndarray] = None) -> tuple[np.ndarray, np.ndarray]:
        """The value logits (B,) and the move logits (B, rows·cols) of a batch of planes,
        a cell that is not empty at -1e9; ValueError if these weights have no move head."""
        if self.policy is None:
            raise ValueError("these weights have no move head")
        x = np.asarray(batch, dtype=np.float32)
        features = self._trunk(x)
        moves = _hex_conv(features, *self.policy)[:, 0].reshape(x.shape[0], -1)
        return (self._value(x, features, circuit),
                moves + (x[:, 2].reshape(x.shape[0], -1) - 1.0) * 1e9)

    def ranked_moves(self, geo: Geometry, stones: list, colour: int) -> list[int]:
        """The empty cells of a position with ``colour`` to move, by the move head's
        logits, most likely first."""
        empty, scores = self._move_logits(geo, stones, colour)
        return [empty[i] for i in np.argsort(-scores, kind="stable")]

    def move_probabilities(self, geo: Geometry, stones: list, colour: int) -> dict[int, float]:
        """The move head's softmax over the empty cells of a position, ``colour`` to move."""
        empty, scores = self._move_logits(geo, stones, colour)
        scores = np.exp(scores.astype(np.float64) - scores.max())
        scores /= scores.sum()
        return dict(zip(empty, scores.tolist()))

    def _move_logits(self, geo: Geometry, stones: list,
                     colour: int) -> tuple[list[int], np.ndarray]:
        """The empty cells of a position and the move head's logit for each."""
        _, moves = self.both(board_planes.encode(geo, stones, colour)[None])
        empty = list(geo.iter_bits(geo.mask & ~(stones[0] | stones[1])))
        return empty, moves[0][_frame_indices(geo, colour)[empty]]

    def logit(self, geo: Geometry, stones: list, colour: int,
              circuit: Optional[float] = None) -> float:
        """The logit that ``colour``, to move, wins (clamped to ±CLAMP); ``circuit`` is the
        position's circuit value, for a network that reads it."""
        value = float(self.logits(board_planes.encode(geo, stones, colour)[None],
                                  None if circuit is None else np.array([circuit]))[0])
        return max(-CLAMP, min(CLAMP, value))


@functools.lru_cache(maxsize=16)
def _frame_indices(geo: Geometry, colour: int) -> np.ndarray:
    """Each cell's flat index in the planes of ``colour`` to move (white's transposed)."""
    out = np.zeros(geo.max_index, dtype=np.int64)
    cols = geo.width + 2 if colour == 0 else geo.height + 2
    for cell in geo.cells:
        col, row = geo.coords(cell)
        r, c = (row, col) if colour == 0 else (col, row)
        out[cell] = (r + 1) * cols + c + 1
    return out


def _hex_conv(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    """x (B, C, H, W) convolved with ``weight`` (O, 7·C, taps-major), zero outside."""
    b, c, h, w = x.shape
    padded = np.zeros((b, c, h + 2, w + 2), dtype=np.float32)
    padded[:, :, 1:-1, 1:-1] = x
    cols = np.concatenate([padded[:, :, 1 + dr:1 + dr + h, 1 + dc:1 + dc + w]
                           for dr, dc in TAPS], axis=1).reshape(b, 7 * c, h * w)
    out = np.matmul(weight, cols) + bias[None, :, None]
    return out.reshape(b, weight.shape[0], h, w)


@functools.lru_cache(maxsize=4)
def network(path: str = DEFAULT_WEIGHTS) -> Optional[ValueNetwork]:
    """The network at ``path`` (loaded once), or None when there is no such file."""
    if not os.path.exists(path):
        return None
    return ValueNetwork.load(path)


def move_head() -> ValueNetwork:
    """The shipped network, for its move head; ValueError when it has none."""
    net = network()
    if net is None or net.policy is None:
        raise ValueError(f"ordering policy needs network weights with a move head "
                         f"({DEFAULT_WEIGHTS} has none)")
    return net


def evaluate(geo: Geometry, stones: list, colour: int) -> float:
    """The shipped network's logit for ``colour`` to move (an evaluation like the others)."""
    net = network()
    if net is None:
        raise RuntimeError(f"no value network weights at {DEFAULT_WEIGHTS}")
    return net.logit(geo, stones, colour)


def leaf(geo: Geometry, stones: list, colour: int, circuit_value: float) -> float:
    """A search leaf's value: the network's alone."""
    return evaluate(geo, stones, colour)


def circuit_network() -> ValueNetwork:
    """The shipped network that corrects the circuit; RuntimeError when it is missing."""
    net = network(CIRCUIT_WEIGHTS)
    if net is None or net.circuit is None:
        raise RuntimeError(f"no circuit-reading network weights at {CIRCUIT_WEIGHTS}")
    return net


def corrected_leaf(geo: Geometry, stones: list, colour: int, circuit_value: float) -> float:
    """A search leaf's value: its circuit value corrected by the circuit-reading network
    (``stones`` and ``circuit_value`` as the leaf read them: dead and captured cells filled)."""
    return circuit_network().logit(geo, stones, colour, circuit_value)


def leaf_reading(geo: Geometry, stones: list, colour: int) -> tuple[list, float, int, int]:
    """A position as a search leaf of the graph circuit reads it: its stones with dead and
    captured cells filled in, and ``vc_graph.connected``'s value, own and opponent's
    connections on that board (``colour`` to move)."""
    filled = (inferior.play_fill_in(geo, stones)[0]
              if vc_graph.usable(geo) else stones)
    value, own, opp, _ = vc_graph.connected(geo, filled, colour)
    return filled, value, own, opp


def corrected(geo: Geometry, stones: list, colour: int) -> float:
    """``corrected_leaf`` of a position as it stands: its cells filled in and its circuit
    solved here (the value outside the search's leaves, e.g. for analysis)."""
    filled, value, own, opp = leaf_reading(geo, stones, colour)
    if own == 2 or opp == 2:
        return value
    return corrected_leaf(geo, filled, colour, value)


MIX = 0.5  # the network's share in ``mixed_leaf``


def mixed_leaf(geo: Geometry, stones: list, colour: int, circuit_value: float) -> float:
    """A search leaf's value: the network's and the circuit's, weighted by MIX."""
    return MIX * evaluate(geo, stones, colour) + (1.0 - MIX) * circuit_value
