#!/usr/bin/env python3
"""Train the network that corrects the circuit (``net-circuit``) on ``value_features.py`` data.

The network reads a leaf's filled board and its circuit value (``vc_graph``) and gives the
logit of the mover winning: the circuit's value times a learned weight, plus what the
trunk's patterns add.  It starts from a trained value network's trunk (``--init``, numpy
weights such as ``hexengine/data/value.npz``), its logit and the circuit's value first
weighed by a logistic fit on the training positions, and is then trained on positions the
connections leave open with two losses: binary cross-entropy on the label (the solver's
where it proved the position, else the game's result) and the ranking of the move played
among four children (a decided child scored ±CLAMP, as a search scores it).  Games whose
index is a multiple of ``--holdout`` are held out; each report prints their loss, accuracy
and ranking beside the circuit's alone.  Needs the ``[train]`` extra.

    python scripts/train_circuit_net.py data/circuit.npz --init hexengine/data/value.npz \\
        --epochs 3 --out hexengine/data/value-circuit.npz
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
from hexengine.evaluation.network import (CIRCUIT_SCALE, CLAMP,  # noqa: E402
                                          ValueNetwork)

try:
    import torch
    from torch import nn
except ImportError:  # pragma: no cover - the [train] extra
    sys.exit("training needs torch: pip install -e '.[train]'")

# (scripts/ is on the path when run as a script)
from train_value import Net, optimise, training_options  # noqa: E402


class CircuitNet(Net):
    """The value network with the circuit's value beside the pooled channels and a learned
    weight of it added to the logit."""

    def __init__(self, channels: int, blocks: int, hidden: int = 32) -> None:
        super().__init__(channels, blocks, hidden)
        self.fc1 = nn.Linear(channels + 1, hidden)
        self.skip = nn.Parameter(torch.zeros(()))

    def forward(self, x, circuit):
        features = self._trunk(x)
        inside = x[:, 3].flatten(1)
        pooled = (features.flatten(2) * inside[:, None]).sum(2) / inside.sum(1, keepdim=True)
        pooled = torch.cat([pooled, circuit[:, None] / CIRCUIT_SCALE], dim=1)
        return self.fc2(torch.relu(self.fc1(pooled)))[:, 0] + self.skip * circuit

    def export(self) -> dict[str, np.ndarray]:
        out = super().export()
        for name in ("policy.w", "policy.b"):  # (no move head is trained here)
            del out[name]
        out["circuit.w"] = np.array(self.skip.item(), dtype=np.float32)
        return out


def encode(cells: np.ndarray, size: int, movers: np.ndarray) -> torch.Tensor:
    """The planes of row-major ``cells`` boards of one size, each with its mover."""
    out = np.empty((len(cells), board_planes.PLANES, size + 2, size + 2), dtype=np.float32)
    for i, (board, mover) in enumerate(zip(cells, movers)):
        out[i] = board_planes.encode_cells(board[:size * size], size, size, int(mover))
    return torch.from_numpy(out)


class Group:
    """The positions of one size and split, encoded: parents for the value loss (those the
    connections leave open) and, where they were drawn, their four children."""

    def __init__(self, table: dict[str, np.ndarray], rows: np.ndarray, size: int,
                 proved_weight: float) -> None:
        open_rows = rows[~table["decided"][rows]]
        self.x = encode(table["filled"][open_rows], size, table["mover"][open_rows])
        self.circuit = torch.from_numpy(table["circuit"][open_rows])
        self.y = torch.from_numpy((table["label"][open_rows] > 0).astype(np.float32))
        self.proved = table["proved"][open_rows]
        self.w = torch.from_numpy(np.where(self.proved, proved_weight, 1.0).astype(np.float32))
        score = table["score"][open_rows]  # the engine's search score there, if it searched
        searched = np.isfinite(score) & (np.abs(score) < SEARCH_DECIDED)
        self.score = torch.from_numpy(np.where(searched, score, 0.0).astype(np.float32))
        self.searched = torch.from_numpy(searched.astype(np.float32))
        ranked = rows[table["child_ok"][rows]]
        k = table["child_cells"].shape[1]
        kids = table["child_cells"][ranked].reshape(len(ranked) * k, -1)
        movers = np.repeat(1 - table["mover"][ranked], k)
        self.kids = encode(kids, size, movers).reshape(len(ranked), k, board_planes.PLANES,
                                                        size + 2, size + 2)
        self.kid_circuit = torch.from_numpy(table["child_circuit"][ranked])
        self.kid_decided = torch.from_numpy(table["child_decided"][ranked].astype(np.float32))

    def __len__(self) -> int:
        return len(self.y)


SEARCH_DECIDED = 1000.0  # a search score this large is a won or lost line, not a value


def child_scores(net, kids, circuit, decided) -> torch.Tensor:
    """Each child's worth for the parent's mover: minus the child's logit for its mover,
    or ∓CLAMP where the child's connections decide it (as the search scores them)."""
    b, k = circuit.shape
    if net is None:
        logits = circuit.reshape(-1)
    else:
        logits = net(kids.reshape(b * k, *kids.shape[2:]), circuit.reshape(-1))
    logits = logits.reshape(b, k)
    return -torch.where(decided != 0, decided * CLAMP, logits)


def report(net, groups: dict, fit: tuple[float, float]) -> str:
    """Held-out loss and accuracy of ``net`` and of the circuit alone (``fit``: its
    logistic weight and bias), on the open positions, the proved ones, and the ranking."""
    rows = {"net": [0.0, 0, 0, 0, 0, 0, 0], "circuit": [0.0, 0, 0, 0, 0, 0, 0]}
    with torch.no_grad():
        for (split, _), g in groups.items():
            if split != "test":
                continue
            proved = torch.from_numpy(g.proved)
            for name in rows:
                if name == "net":
                    logit = torch.cat([net(g.x[i:i + 1024], g.circuit[i:i + 1024])
                                       for i in range(0, len(g), 1024)])
                    scores = torch.cat([child_scores(net, g.kids[i:i + 256],
                                                     g.kid_circuit[i:i + 256],
                                                     g.kid_decided[i:i + 256])
                                        for i in range(0, len(g.kids), 256)])
                else:
                    logit = fit[0] * g.circuit + fit[1]
                    scores = child_scores(None, g.kids, g.kid_circuit, g.kid_decided)
                r = rows[name]
                r[0] += nn.functional.binary_cross_entropy_with_logits(
                    logit, g.y, reduction="sum").item()
                hit = (logit > 0).float() == g.y
                r[1] += len(g)
                r[2] += int(hit.sum())
                r[3] += int(hit[proved].sum())
                r[4] += int(proved.sum())
                r[5] += int((scores.argmax(1) == 0).sum())
                r[6] += len(scores)
    return "; ".join(f"{name} loss {r[0] / max(r[1], 1):.4f} acc {r[2] / max(r[1], 1):.3f} "
                     f"proved {r[3] / max(r[4], 1):.3f} played-first {r[5] / max(r[6], 1):.3f}"
                     for name, r in rows.items())


def logistic(features: torch.Tensor, y: torch.Tensor, steps: int = 200) -> torch.Tensor:
    """Weights (one per column, then a bias) of a logistic regression of ``y``."""
    x = torch.cat([features, torch.ones(len(y), 1)], dim=1)
    w = torch.zeros(x.shape[1], requires_grad=True)
    opt = torch.optim.LBFGS([w], max_iter=steps)

    def closure():
        opt.zero_grad()
        loss = nn.functional.binary_cross_entropy_with_logits(x @ w, y)
        loss.backward()
        return loss
    opt.step(closure)
    return w.detach()


@click.command()
@click.argument("features", nargs=-1, required=True)
@click.option("--out", required=True, help="Where the numpy weights go (.npz).")
@click.option("--init", required=True, help="Numpy weights of a value network to start from.")
@training_options(epochs=3.0, lr=1e-3)
@click.option("--rank-weight", type=float, default=1.0, show_default=True)
@click.option("--value-weight", type=float, default=1.0, show_default=True,
              help="Weight of the cross-entropy on the label.")
@click.option("--search-weight", type=float, default=0.0, show_default=True,
              help="Weight of the squared gap between the logit and the engine's search "
                   "score at the position (times --search-scale), where it searched: the "
                   "network then learns what the search adds to the circuit.")
@click.option("--search-scale", type=float, default=0.35, show_default=True,
              help="Logit per unit of search score (a logistic fit of the outcomes).")
def main(features, out, init, epochs, batch, lr, proved_weight, rank_weight, value_weight,
         search_weight, search_scale, holdout, threads, seed) -> None:
    """Train the circuit-correcting network on FEATURES files and export it for numpy."""
    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    parts = [dict(np.load(f)) for f in features]
    for i, part in enumerate(parts):  # games of different files stay apart
        part["game"] = part["game"].astype(np.int64) * len(parts) + i
    table = {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}
    held = table["game"] % holdout == 0
    groups = {}
    for size in sorted(set(table["size"].tolist())):
        for split, mask in (("train", ~held), ("test", held)):
            rows = np.nonzero((table["size"] == size) & mask)[0]
            if len(rows):
                groups[(split, size)] = Group(table, rows, size, proved_weight)
    train_keys = [k for k in groups if k[0] == "train" and len(groups[k])]
    counts = np.array([len(groups[k]) for k in train_keys], dtype=float)
    total = int(counts.sum())
    click.echo(f"{total} open training positions, "
               f"{sum(len(g.kids) for k, g in groups.items() if k[0] == 'train')} with "
               f"children; held out {sum(len(g) for k, g in groups.items() if k[0] == 'test')}")
    with np.load(init) as data:
        arrays = {name: data[name] for name in data.files}
    meta = json.loads(str(arrays["meta"]))
    net = CircuitNet(int(meta["channels"]), int(meta["blocks"]))
    net.load_numpy(arrays)
    # the starting weights: the network's logit and the circuit's value, weighed by a fit
    train = [groups[k] for k in train_keys]
    with torch.no_grad():
        circuit = torch.cat([g.circuit for g in train])
        net_logit = torch.cat([net(g.x[i:i + 1024], torch.zeros(len(g.x[i:i + 1024])))
                               for g in train for i in range(0, len(g), 1024)])
    y = torch.cat([g.y for g in train])
    alone = logistic(circuit[:, None], y)
    both = logistic(torch.stack([net_logit, circuit], dim=1), y)
    click.echo(f"fit: circuit alone {alone.tolist()}; network and circuit {both.tolist()}")
    with torch.no_grad():
        net.fc2.weight.mul_(both[0])
        net.fc2.bias.mul_(both[0]).add_(both[2])
        net.skip.fill_(float(both[1]))
    fit = (float(alone[0]), float(alone[1]))
    click.echo("start: " + report(net, groups, fit))
    steps = int(epochs * total / batch)
    opt = torch.optim.AdamW(net.parameters(), lr=lr, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(steps, 1))
    loss_fn = nn.BCEWithLogitsLoss(reduction="none")
    started = time.monotonic()
    report_every = max(1, steps // int(max(1, epochs * 2)))
    running = 0.0
    for step in range(steps):
        g = groups[train_keys[rng.choice(len(train_keys), p=counts / total)]]
        idx = torch.from_numpy(rng.integers(0, len(g), batch))
        turned = rng.random() < 0.5
        xb = torch.flip(g.x[idx], (2, 3)) if turned else g.x[idx]
        logit = net(xb, g.circuit[idx])
        loss = value_weight * (loss_fn(logit, g.y[idx]) * g.w[idx]).mean()
        if search_weight:
            gap = (logit - search_scale * g.score[idx]) ** 2 * g.searched[idx]
            loss = loss + search_weight * gap.sum() / g.searched[idx].sum().clamp(min=1.0)
        if rank_weight and len(g.kids):
            kid = torch.from_numpy(rng.integers(0, len(g.kids), batch // 4))
            kids = torch.flip(g.kids[kid], (3, 4)) if turned else g.kids[kid]
            scores = child_scores(net, kids, g.kid_circuit[kid], g.kid_decided[kid])
            loss = loss + rank_weight * nn.functional.cross_entropy(
                scores, torch.zeros(len(kid), dtype=torch.long))
        running += optimise(opt, sched, loss)
        if (step + 1) % report_every == 0 or step + 1 == steps:
            click.echo(f"step {step + 1}/{steps} loss {running / report_every:.4f} "
                       f"{time.monotonic() - started:.0f} s; " + report(net, groups, fit))
            running = 0.0
    torch.save(net.state_dict(), os.path.splitext(out)[0] + ".pt")
    arrays = net.export()
    arrays["meta"] = np.array(json.dumps({
        "channels": net.channels, "blocks": net.nblocks, "positions": total, "steps": steps,
        "circuit": True}))
    np.savez(out, **arrays)
    numpy_net = ValueNetwork(arrays)
    for key, g in groups.items():
        if key[0] == "test" and len(g):
            with torch.no_grad():
                want = net(g.x[:64], g.circuit[:64]).numpy()
            got = numpy_net.logits(g.x[:64].numpy(), g.circuit[:64].numpy())
            click.echo(f"size {key[1]}: numpy vs torch max |diff| {np.abs(want - got).max():.2e}")
    click.echo(f"wrote {out} ({os.path.getsize(out) / 1e6:.2f} MB)")


if __name__ == "__main__":
    main()
