#!/usr/bin/env python3
"""Train the value network on the data of ``scripts/value_data.py`` and export it for numpy.

Needs the ``[train]`` extra (torch, CPU build).  Games whose index is a multiple of
``--holdout`` are held out; each epoch prints the loss and accuracy on them (all positions,
and those the solver proved), and with ``--rank-weight`` how often the move played
outranks three others, and with ``--sibling-weight`` how often a winning move outranks a
losing one, both left open by the connections (positions whose winning moves the data
holds: ``value_data.py --winning-seconds``); ``--epochs 0`` prints these for ``--init``
alone.  The weights go to ``--out`` in the format that ``hexengine.evaluation.network``
reads, and torch's and numpy's logits are compared.

    python scripts/train_value.py --data data/value --epochs 6 --out hexengine/data/value.npz
"""
from __future__ import annotations

import json
import os
import sys
import time

import click
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from hexengine.evaluation import planes as board_planes  # noqa: E402
from hexengine.evaluation.network import TAPS, ValueNetwork  # noqa: E402
from hexengine.learning import selfplay  # noqa: E402

try:
    import torch
    from torch import nn
except ImportError:  # pragma: no cover - the [train] extra
    sys.exit("training needs torch: pip install -e '.[train]'")


def encode_all(data: dict[str, np.ndarray], rows: np.ndarray, size: int) -> np.ndarray:
    """The planes of ``rows`` (all of one size)."""
    out = np.empty((len(rows), board_planes.PLANES, size + 2, size + 2), dtype=np.float32)
    for i, r in enumerate(rows):
        out[i] = board_planes.encode_cells(data["cells"][r, :size * size], size, size,
                                           int(data["mover"][r]))
    return out


class HexConv(nn.Conv2d):
    """A 3×3 convolution with the two non-neighbour corners held at zero."""

    def __init__(self, cin: int, cout: int) -> None:
        super().__init__(cin, cout, 3, padding=1)
        mask = torch.ones(1, 1, 3, 3)
        mask[0, 0, 0, 0] = 0
        mask[0, 0, 2, 2] = 0
        self.register_buffer("mask", mask)
        with torch.no_grad():
            self.weight.mul_(mask)

    def forward(self, x):
        return nn.functional.conv2d(x, self.weight * self.mask, self.bias, padding=1)

    def export(self) -> tuple[np.ndarray, np.ndarray]:
        w = (self.weight * self.mask).detach().numpy()
        taps = np.concatenate([w[:, :, 1 + dr, 1 + dc] for dr, dc in TAPS], axis=1)
        return taps.astype(np.float32), self.bias.detach().numpy().astype(np.float32)


class Net(nn.Module):
    def __init__(self, channels: int, blocks: int, hidden: int = 32) -> None:
        super().__init__()
        self.channels, self.nblocks = channels, blocks
        self.stem = HexConv(board_planes.PLANES, channels)
        self.blocks = nn.ModuleList(
            nn.ModuleList([HexConv(channels, channels), HexConv(channels, channels)])
            for _ in range(blocks))
        for a, b in self.blocks:
            with torch.no_grad():
                b.weight.mul_(0.1)
        self.fc1 = nn.Linear(channels, hidden)
        self.fc2 = nn.Linear(hidden, 1)
        self.policy = HexConv(channels, 1)

    def _trunk(self, x):
        x = torch.relu(self.stem(x))
        for a, b in self.blocks:
            x = torch.relu(x + b(torch.relu(a(x))))
        return x

    def _value(self, x, features):
        inside = x[:, 3].flatten(1)
        pooled = (features.flatten(2) * inside[:, None]).sum(2) / inside.sum(1, keepdim=True)
        return self.fc2(torch.relu(self.fc1(pooled)))[:, 0]

    def forward(self, x):
        return self._value(x, self._trunk(x))

    def both(self, x):
        """The value logits (B,) and the move logits (B, rows·cols of the frame), the
        cells that are not empty at -1e9."""
        features = self._trunk(x)
        moves = self.policy(features)[:, 0].flatten(1)
        return self._value(x, features), moves + (x[:, 2].flatten(1) - 1.0) * 1e9

    def export(self) -> dict[str, np.ndarray]:
        out = {}
        out["stem.w"], out["stem.b"] = self.stem.export()
        for i, (a, b) in enumerate(self.blocks):
            out[f"block{i}.a.w"], out[f"block{i}.a.b"] = a.export()
            out[f"block{i}.b.w"], out[f"block{i}.b.b"] = b.export()
        for name, layer in (("fc1", self.fc1), ("fc2", self.fc2)):
            out[f"{name}.w"] = layer.weight.detach().numpy().astype(np.float32)
            out[f"{name}.b"] = layer.bias.detach().numpy().astype(np.float32)
        out["policy.w"], out["policy.b"] = self.policy.export()
        return out

    def load_numpy(self, arrays: dict[str, np.ndarray]) -> None:
        """Take numpy weights (``network.ValueNetwork``'s format, ``export``'s output): the
        trunk, the value head (inputs beyond the pooled channels at zero weight) and the
        move head where they have one."""
        def conv(layer: nn.Conv2d, w: np.ndarray, b: np.ndarray) -> None:
            cin = layer.weight.shape[1]
            with torch.no_grad():
                layer.weight.zero_()
                for k, (dr, dc) in enumerate(TAPS):
                    layer.weight[:, :, 1 + dr, 1 + dc] = torch.from_numpy(
                        w[:, k * cin:(k + 1) * cin])
                layer.bias.copy_(torch.from_numpy(b))
        conv(self.stem, arrays["stem.w"], arrays["stem.b"])
        for i, (a, b) in enumerate(self.blocks):
            conv(a, arrays[f"block{i}.a.w"], arrays[f"block{i}.a.b"])
            conv(b, arrays[f"block{i}.b.w"], arrays[f"block{i}.b.b"])
        if "policy.w" in arrays:
            conv(self.policy, arrays["policy.w"], arrays["policy.b"])
        with torch.no_grad():
            self.fc1.weight.zero_()
            self.fc1.weight[:, :self.channels] = torch.from_numpy(arrays["fc1.w"])
            self.fc1.bias.copy_(torch.from_numpy(arrays["fc1.b"]))
            self.fc2.weight.copy_(torch.from_numpy(arrays["fc2.w"]))
            self.fc2.bias.copy_(torch.from_numpy(arrays["fc2.b"]))


def training_options(epochs: float, lr: float):
    """The options every training script takes (epochs, batch, learning rate, the solver's
    label weight, the held-out games, threads, seed), with these defaults."""
    options = [
        click.option("--epochs", type=float, default=epochs, show_default=True),
        click.option("--batch", type=int, default=256, show_default=True),
        click.option("--lr", type=float, default=lr, show_default=True),
        click.option("--proved-weight", type=float, default=1.0, show_default=True,
                     help="Loss weight of the solver's labels against the game results' 1."),
        click.option("--holdout", type=int, default=20, show_default=True,
                     help="Hold out the games whose index is a multiple of this."),
        click.option("--threads", type=int, default=2, show_default=True),
        click.option("--seed", type=int, default=1, show_default=True),
    ]

    def apply(function):
        for option in reversed(options):
            function = option(function)
        return function
    return apply


@click.command()
@click.option("--data", multiple=True, required=True, help="Part files or folders of them.")
@click.option("--out", required=True, help="Where the numpy weights go (.npz).")
@click.option("--init", default="", help="Start from these weights: torch's (.pt) or the "
                                          "exported numpy ones (.npz).")
@click.option("--channels", type=int, default=32, show_default=True)
@click.option("--blocks", type=int, default=5, show_default=True)
@training_options(epochs=4.0, lr=2e-3)
@click.option("--rank-weight", type=float, default=0.0, show_default=True,
              help="Weight of the ranking loss: the position after the move played (past "
                   "the games' random opening moves) against --rank-negatives random other "
                   "moves, as the softmax of the network's values of the children.")
@click.option("--rank-negatives", type=int, default=3, show_default=True)
@click.option("--policy-weight", type=float, default=0.0, show_default=True,
              help="Weight of the policy loss: the cross-entropy of the move played (past "
                   "the games' random opening moves) under the move logits.")
@click.option("--sibling-weight", type=float, default=0.0, show_default=True,
              help="Weight of the sibling loss: where the data holds a position's winning "
                   "moves, a winning child against a losing one, both left open by the "
                   "connections, by the logistic loss of their values' difference.")
def main(data, out, init, channels, blocks, epochs, batch, lr, proved_weight, rank_weight,
         rank_negatives, policy_weight, sibling_weight, holdout, threads, seed) -> None:
    """Train and export the value network."""
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    table = selfplay.load_parts(list(data))
    held = table["game"] % holdout == 0
    groups = {}
    moves = {}  # (split, size) -> (indices into the group, the moves played there)
    targets = {}  # (split, size) -> each position's move played, a flat frame index or -1
    families = {}  # (split, size) -> (indices into the group, their moves' results in the frame)
    for size in sorted(set(table["size"].tolist())):
        for split, mask in (("train", ~held), ("test", held)):
            rows = np.nonzero((table["size"] == size) & mask)[0]
            if len(rows):
                x = torch.from_numpy(encode_all(table, rows, size))
                y = torch.from_numpy((table["label"][rows] > 0).astype(np.float32))
                w = torch.from_numpy(np.where(table["proved"][rows], proved_weight, 1.0)
                                     .astype(np.float32))
                groups[(split, size)] = (x, y, w, table["proved"][rows])
                played = table["ply"][rows] >= selfplay.RANDOM_PLIES
                view = _mover_view(table, rows[played])
                moves[(split, size)] = (
                    torch.from_numpy(np.nonzero(played)[0]), torch.from_numpy(view))
                target = np.full(len(rows), -1, dtype=np.int64)
                target[played] = view[:, 0] * (size + 2) + view[:, 1]
                targets[(split, size)] = torch.from_numpy(target)
                results = _mover_frame(table["wins"][rows, :size * size], size,
                                       table["mover"][rows])
                both = (results == 1).any((1, 2)) & (results == -1).any((1, 2))
                families[(split, size)] = (torch.from_numpy(np.nonzero(both)[0]),
                                           torch.from_numpy(results[both]))
    train_keys = [k for k in groups if k[0] == "train"]
    counts = np.array([len(groups[k][1]) for k in train_keys], dtype=float)
    total = int(counts.sum())
    click.echo(f"{total} training positions, {int(held.sum())} held out; sizes "
               + ", ".join(f"{k[1]}: {len(groups[k][1])}" for k in train_keys)
               + f"; {sum(len(f[0]) for k, f in families.items() if k[0] == 'train')} "
               f"with open winning and losing moves")
    net = Net(channels, blocks)
    trained_head = False  # --init brought a move head
    if init.endswith(".npz"):
        with np.load(init) as arrays:
            net.load_numpy({k: arrays[k] for k in arrays.files})
            trained_head = "policy.w" in arrays.files
    elif init:
        missing, _ = net.load_state_dict(torch.load(init), strict=False)
        trained_head = "policy.weight" not in missing
        if missing:
            click.echo(f"new in this network: {', '.join(missing)}")
    steps = int(epochs * total / batch)
    if epochs == 0:  # the held-out figures of --init, and nothing written
        click.echo(evaluate(net, groups) + f"; played move first "
                   f"{rank_accuracy(net, groups, moves):.3f}; policy top-1 "
                   f"{policy_accuracy(net, groups, targets):.3f}; winning move above a losing one "
                   f"{sibling_accuracy(net, groups, families):.3f}")
        return
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    loss_fn = nn.BCEWithLogitsLoss(reduction="none")
    started = time.monotonic()
    report_every = max(1, steps // int(max(1, epochs * 2)))
    running = 0.0
    for step in range(steps):
        key = train_keys[rng.choice(len(train_keys), p=counts / total)]
        x, y, w, _ = groups[key]
        idx = torch.from_numpy(rng.integers(0, len(y), batch))
        xb = x[idx]
        turned = rng.random() < 0.5
        if turned:
            xb = torch.flip(xb, (2, 3))
        if policy_weight:
            value, move_logits = net.both(xb)
            target = targets[key][idx]
            if turned:  # turning the frame 180° reverses its flat order
                target = torch.where(target >= 0, xb.shape[2] * xb.shape[3] - 1 - target,
                                     target)
            known = target >= 0
            loss = (loss_fn(value, y[idx]) * w[idx]).mean()
            if bool(known.any()):
                loss = loss + policy_weight * nn.functional.cross_entropy(
                    move_logits[known], target[known])
        else:
            loss = (loss_fn(net(xb), y[idx]) * w[idx]).mean()
        if rank_weight:
            loss = loss + rank_weight * rank_loss(net, x, *moves[key], batch // 4,
                                                  rank_negatives, rng)
        if sibling_weight:
            loss = loss + sibling_weight * sibling_loss(net, x, *families[key], batch // 4,
                                                        rng)
        running += optimise(opt, sched, loss)
        if (step + 1) % report_every == 0 or step + 1 == steps:
            click.echo(f"step {step + 1}/{steps} loss {running / report_every:.4f} "
                       f"{time.monotonic() - started:.0f} s; " + evaluate(net, groups)
                       + (f"; played move first {rank_accuracy(net, groups, moves):.3f}"
                          if rank_weight else "")
                       + (f"; policy top-1 {policy_accuracy(net, groups, targets):.3f}"
                          if policy_weight else "")
                       + (f"; winning move above a losing one "
                          f"{sibling_accuracy(net, groups, families):.3f}"
                          if sibling_weight else ""))
            running = 0.0
    os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
    torch.save(net.state_dict(), os.path.splitext(out)[0] + ".pt")
    arrays = net.export()
    if not (policy_weight or trained_head):  # an untrained head must not pass for one
        for name in ("policy.w", "policy.b"):
            del arrays[name]
    arrays["meta"] = np.array(json.dumps({
        "channels": channels, "blocks": blocks, "positions": total, "steps": steps}))
    np.savez(out, **arrays)
    numpy_net = ValueNetwork(arrays)
    for key in groups:
        if key[0] == "test":
            x = groups[key][0][:64]
            with torch.no_grad():
                want, want_moves = (t.numpy() for t in net.both(x))
            got = numpy_net.logits(x.numpy())
            line = f"size {key[1]}: numpy vs torch max |diff| {np.abs(want - got).max():.2e}"
            if numpy_net.policy is not None:
                got_moves = numpy_net.both(x.numpy())[1]
                empty = x[:, 2].flatten(1).numpy() > 0
                line += (f", move logits "
                         f"{np.abs(want_moves - got_moves)[empty].max():.2e}")
            click.echo(line)
    click.echo(f"wrote {out} ({os.path.getsize(out) / 1e6:.2f} MB)")


def optimise(opt: "torch.optim.Optimizer", sched, loss: "torch.Tensor") -> float:
    """One step of the optimiser and its schedule on ``loss``; the loss's value."""
    opt.zero_grad()
    loss.backward()
    opt.step()
    sched.step()
    return loss.item()


def _mover_view(data: dict[str, np.ndarray], rows: np.ndarray) -> np.ndarray:
    """The moves played at ``rows`` as (row, col) in the planes of the side to move
    (inside the frame: white's planes are transposed)."""
    col, row = data["move"][rows, 0].astype(np.int64), data["move"][rows, 1].astype(np.int64)
    white = data["mover"][rows] == 1
    return np.stack([np.where(white, col, row) + 1, np.where(white, row, col) + 1], axis=1)


def _mover_frame(results: np.ndarray, size: int, movers: np.ndarray) -> np.ndarray:
    """Per-cell results (row-major, as the data stores them) placed in the frame of the
    side to move's planes, (n, size + 2, size + 2); white's transposed."""
    board = results.reshape(-1, size, size)
    board = np.where((movers == 1)[:, None, None], board.transpose(0, 2, 1), board)
    out = np.zeros((len(results), size + 2, size + 2), np.int8)
    out[:, 1:-1, 1:-1] = board
    return out


def children(x: "torch.Tensor", picks: "torch.Tensor", cells: "torch.Tensor") -> "torch.Tensor":
    """The planes of each parent in ``x`` after its mover plays ``cells`` (B, K, 2), seen
    by the opponent (B·K planes): the mover's stone added, then the view turned to the
    other side (planes 0 and 1 exchanged, the board transposed)."""
    b, k = cells.shape[:2]
    kids = x[picks].unsqueeze(1).expand(-1, k, -1, -1, -1).reshape(b * k, *x.shape[1:]).clone()
    flat = torch.arange(b * k)
    r, c = cells.reshape(b * k, 2).unbind(1)
    kids[flat, 0, r, c] = 1.0
    kids[flat, 2, r, c] = 0.0
    return kids[:, [1, 0, 2, 3]].transpose(2, 3)


def _choices(x: "torch.Tensor", picks: "torch.Tensor", played: "torch.Tensor", negatives: int,
             rng: "torch.Generator") -> tuple["torch.Tensor", "torch.Tensor"]:
    """(B, 1 + negatives, 2) cells: the move played, then other empty cells, drawn mostly
    from those within two steps of a stone (the moves a search weighs; far cells are easy
    to rank)."""
    stones = x[picks, 0:2].sum(1, keepdim=True)
    stones[:, :, [0, -1], :] = 0.0  # (the frame's edge rows and columns are not stones)
    stones[:, :, :, [0, -1]] = 0.0
    near = nn.functional.conv2d(nn.functional.conv2d(stones, HEX_KERNEL, padding=1),
                                HEX_KERNEL, padding=1)[:, 0]
    empty = x[picks, 2] * ((near > 0).float() + FAR_WEIGHT)
    empty = empty.flatten(1)
    width = x.shape[3]
    empty[torch.arange(len(picks)), played[:, 0] * width + played[:, 1]] = 0.0
    enough = (empty > 0).sum(1) >= negatives
    picks, played, empty = picks[enough], played[enough], empty[enough]
    others = torch.multinomial(empty, negatives, generator=rng)
    others = torch.stack([others // width, others % width], dim=2)
    return picks, torch.cat([played[:, None], others], dim=1)


FAR_WEIGHT = 0.05  # the chance weight of a cell more than two steps from every stone
HEX_KERNEL = torch.tensor([[[[0.0, 1.0, 1.0], [1.0, 1.0, 1.0], [1.0, 1.0, 0.0]]]])


def rank_loss(net: "Net", x: "torch.Tensor", rows: "torch.Tensor", played: "torch.Tensor",
              count: int, negatives: int, rng: np.random.Generator) -> "torch.Tensor":
    """Cross-entropy of the move played among ``negatives`` random others, each scored by
    minus the network's logit of the child for the opponent (0 where no position has
    enough moves to rank)."""
    if not len(rows):
        return torch.zeros(())
    take = torch.from_numpy(rng.integers(0, len(rows), count))
    picks, cells = _choices(x, rows[take], played[take], negatives, _torch_rng(rng))
    if not len(picks):
        return torch.zeros(())
    scores = -net(children(x, picks, cells)).reshape(len(picks), -1)
    return nn.functional.cross_entropy(scores, torch.zeros(len(picks), dtype=torch.long))


def _open_pair(results: "torch.Tensor", rng: "torch.Generator") -> "torch.Tensor":
    """(B, 2, 2) cells of each family: a winning move, then a losing one, both drawn among
    the children the connections leave open (results 1 and -1), where a search leaf asks
    its evaluation."""
    width = results.shape[2]
    flat = results.flatten(1)
    win = torch.multinomial((flat == 1).float(), 1, generator=rng)
    lose = torch.multinomial((flat == -1).float(), 1, generator=rng)
    cells = torch.cat([win, lose], dim=1)
    return torch.stack([cells // width, cells % width], dim=2)


def sibling_loss(net: "Net", x: "torch.Tensor", rows: "torch.Tensor", results: "torch.Tensor",
                 count: int, rng: np.random.Generator) -> "torch.Tensor":
    """The logistic loss of a winning child scoring above a losing sibling, each scored by
    minus the network's logit of the child for the opponent (0 where no family is at
    hand)."""
    if not len(rows):
        return torch.zeros(())
    take = torch.from_numpy(rng.integers(0, len(rows), count))
    xs, res = x[rows[take]], results[take]
    if rng.random() < 0.5:
        xs, res = torch.flip(xs, (2, 3)), torch.flip(res, (1, 2))
    cells = _open_pair(res, _torch_rng(rng))
    scores = -net(children(xs, torch.arange(len(take)), cells)).reshape(len(take), 2)
    return nn.functional.softplus(scores[:, 1] - scores[:, 0]).mean()


def sibling_accuracy(net: "Net", groups: dict, families: dict) -> float:
    """On held-out families: how often a winning child scores above a losing sibling (one
    pair a family, both open)."""
    hits = n = 0
    with torch.no_grad():
        for key, (rows, results) in families.items():
            if key[0] != "test" or not len(rows):
                continue
            take = torch.arange(min(len(rows), 2048))
            xs = groups[key][0][rows[take]]
            cells = _open_pair(results[take], torch.Generator().manual_seed(0))
            scores = -net(children(xs, torch.arange(len(take)), cells)).reshape(len(take), 2)
            hits += int((scores[:, 0] > scores[:, 1]).sum())
            n += len(take)
    return hits / max(n, 1)


def _torch_rng(rng: np.random.Generator) -> "torch.Generator":
    """A torch generator seeded from ``rng``, so that a run repeats with its seed."""
    return torch.Generator().manual_seed(int(rng.integers(0, 2**62)))


def rank_accuracy(net: "Net", groups: dict, moves: dict, negatives: int = 3) -> float:
    """On held-out positions: how often the child of the move played scores above three
    random other children."""
    hits = n = 0
    rng = np.random.default_rng(0)
    with torch.no_grad():
        for key, (rows, played) in moves.items():
            if key[0] != "test" or not len(rows):
                continue
            take = torch.from_numpy(rng.permutation(len(rows))[:512])
            picks, cells = _choices(groups[key][0], rows[take], played[take], negatives,
                                    torch.Generator().manual_seed(0))
            scores = -net(children(groups[key][0], picks, cells)).reshape(len(picks), -1)
            hits += int((scores.argmax(1) == 0).sum())
            n += len(picks)
    return hits / max(n, 1)


def policy_accuracy(net: "Net", groups: dict, targets: dict) -> float:
    """On held-out positions: how often the move played is the policy's first choice."""
    hits = n = 0
    with torch.no_grad():
        for key, (x, *_rest) in groups.items():
            if key[0] != "test":
                continue
            target = targets[key]
            rows = torch.nonzero(target >= 0)[:, 0][:2048]
            if not len(rows):
                continue
            _, logits = net.both(x[rows])
            hits += int((logits.argmax(1) == target[rows]).sum())
            n += len(rows)
    return hits / max(n, 1)


def evaluate(net: "Net", groups: dict) -> str:
    """Held-out loss and accuracy, all positions and proved ones."""
    loss_sum, n, right, proved_right, proved_n = 0.0, 0, 0, 0, 0
    with torch.no_grad():
        for (split, size), (x, y, _, proved) in groups.items():
            if split != "test":
                continue
            logits = torch.cat([net(x[i:i + 1024]) for i in range(0, len(y), 1024)])
            loss_sum += nn.functional.binary_cross_entropy_with_logits(
                logits, y, reduction="sum").item()
            hit = ((logits > 0).float() == y).numpy()
            n += len(y)
            right += hit.sum()
            proved_right += hit[proved].sum()
            proved_n += proved.sum()
    return (f"held-out loss {loss_sum / max(n, 1):.4f} acc {right / max(n, 1):.3f} "
            f"proved acc {proved_right / max(proved_n, 1):.3f} ({proved_n})")


if __name__ == "__main__":
    main()
