"""How replies and logs write numbers, search results and HexGui's graphics."""
from __future__ import annotations

from typing import Optional

from hexengine.board import Board
from hexengine.geometry import Geometry
from hexengine.search import SearchResult, score_text


def num(value: float, signed: bool = False) -> str:
    """Two decimals without a negative zero ('-0.00' would read as a loss)."""
    value = round(value, 2) + 0.0
    return f"{value:+.2f}" if signed else f"{value:.2f}"


def score_label(score: float) -> str:
    """A search score as one short word for a board label: '+0.41', 'W3' (win in 3 moves of
    the mover), 'L2' (loss in 2)."""
    text = score_text(score)
    if text.startswith("win"):
        return "W" + text.split()[-1]
    if text.startswith("loss"):
        return "L" + text.split()[-1]
    return num(score, True)


def live_block(board: Board, colour: int, r: SearchResult) -> str:
    """A finished iteration as HexGui's alpha-beta live graphics (``ab``): the PV, every
    searched root move with its score, and the search line as status text."""
    var = " ".join(f"{'BW'[(colour + i) % 2]} {board.move_name(m)}" for i, m in enumerate(r.pv))
    labels = " ".join(f"{board.move_name(m)} {score_label(v)}"
                      for m, v in sorted(r.scores.items(), key=lambda kv: (-kv[1], kv[0])))
    return f"ab VAR {var}\nLABEL {labels}\nTEXT {search_line(board, r)}"


def search_line(board: Board, r: SearchResult) -> str:
    pv = " ".join(board.move_name(m) for m in r.pv)
    done = "" if r.complete else " (partial)"
    known = "".join(f" {name} {count}" for name, count in r.knowledge.items())
    return (f"depth {r.depth}{done} nodes {r.nodes} time {r.elapsed:.2f}s "
            f"nps {r.nps:.0f} score {score_text(r.score)}{known} pv {pv}")


def gfx(geo: Geometry, shade: dict[int, float], status: str,
         labels: Optional[dict[int, str]] = None) -> str:
    """A gfx reply: LABEL first (HexGui 0.10 reads only from INFLUENCE to TEXT, so a LABEL
    line before INFLUENCE is skipped there and kept for GoGui-style readers), INFLUENCE with
    values in [0, 1] (0 blue, 1 green in HexGui), TEXT for the status bar."""
    name = geo.name
    lines = []
    if labels:
        lines.append("LABEL " + " ".join(f"{name(c)} {t}" for c, t in sorted(labels.items())))
    lines.append("INFLUENCE " + " ".join(f"{name(c)} {min(1.0, max(0.0, v)):.3f}"
                                         for c, v in sorted(shade.items())))
    lines.append("TEXT " + status)
    return "\n".join(lines)


def pairs(geo: Geometry, labels: dict[int, str]) -> str:
    """Cell and label pairs (HexGui's ``pspairs``), in cell order."""
    name = geo.name
    return " ".join(f"{name(c)} {t}" for c, t in sorted(labels.items()))
