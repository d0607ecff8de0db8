"""The last search and the static evaluation, as HexGui's views read them: principal
variation, root move scores, search line, evaluation."""
from __future__ import annotations

from typing import Optional

from hexengine import analysis_views as views
from hexengine.board import COLOUR_NAMES

from .engine import Engine, command, parse_colour
from .formatting import score_label, search_line


def _last_from_here(engine: Engine) -> Optional[int]:
    """How many PV moves of the last search are already on the board: 0 when the board is
    the position searched, 1 when it is that position plus the chosen move (genmove played
    it), None when there was no search or the board has changed since."""
    last, root = engine.last, engine.last_root
    if last is None or root is None:
        return None
    stones = (engine.board.stones[0], engine.board.stones[1])
    if stones == root:
        return 0
    if last.pv:
        after = list(root)
        after[engine.last_colour] |= 1 << last.pv[0]
        if stones == tuple(after):
            return 1
    return None


@command("hexengine-pv",
         menu=(("var", "Principal Variation", "hexengine-pv"),))
def _pv(engine: Engine, args: list[str]) -> str:
    """The last search's principal variation from the current position on, as HexGui's
    ``var`` type reads it: cells only, the colour to move first (the move genmove played
    is left out); empty when the board is not the one searched."""
    done = _last_from_here(engine)
    if done is None:
        return ""
    return " ".join(engine.board.move_name(m) for m in engine.last.pv[done:])


@command("hexengine-scores",
         menu=(("pspairs", "Root Move Scores", "hexengine-scores"),))
def _scores(engine: Engine, args: list[str]) -> str:
    """The last search's root moves with their scores (``pspairs``: cell and one word each,
    best first); empty when the board is not the one searched nor the one after its move."""
    if _last_from_here(engine) is None:
        return ""
    return " ".join(f"{engine.board.move_name(m)} {score_label(s)}"
                    for m, s in sorted(engine.last.scores.items(), key=lambda kv: -kv[1]))


@command("hexengine-evaluate", 0, 1, "[COLOUR]",
         menu=(("string", "Evaluation", "hexengine-evaluate"),))
def _evaluate(engine: Engine, args: list[str]) -> str:
    board = engine.board
    colour = parse_colour(args[0]) if args else board.to_move
    name = engine.settings.evaluation
    value = views.static_value(board.geo, board.stones, colour, name)
    return f"{name} {COLOUR_NAMES[colour]} {value:+.3f}"


@command("hexengine-info",
         menu=(("string", "Search Info", "hexengine-info"),))
def _info(engine: Engine, args: list[str]) -> str:
    if engine.last is None:
        return "no search yet"
    return search_line(engine.board, engine.last)
