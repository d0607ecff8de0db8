"""Reading and writing Hex games as SGF, in the dialect HexGui uses (FF[4] GM[11]).

Moves are cell names (``B[c3]``), ``swap-pieces``/``swap-sides`` and ``resign``; the size is
``SZ[n]`` or ``SZ[w:h]``; setup stones are ``AB``/``AW``, and ``AE`` takes setup stones
off again.  Only the main line is read.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

from .board import BLACK, WHITE, Board, IllegalMove


class SgfError(ValueError):
    """The text is not an SGF Hex game we can read; the message says where."""


@dataclass
class SgfGame:
    """A game as SGF holds it: size, setup stones, moves as (colour, name), and tags."""
    width: int = 11
    height: int = 11
    setup: list[tuple[int, str]] = field(default_factory=list)
    moves: list[tuple[int, str]] = field(default_factory=list)
    properties: dict[str, str] = field(default_factory=dict)

    def swapped(self) -> bool:
        """Whether a move of the game is a swap (so it was played with the swap rule)."""
        return any(_move_text(name) in ("swap-pieces", "swap-sides") for _, name in self.moves)

    def to_board(self, allow_swap: bool = True, limit: Optional[int] = None) -> Board:
        """Replay setup and the first ``limit`` moves (all if None); resign ends the replay."""
        board = Board(self.width, self.height, allow_swap=allow_swap)
        try:
            for colour, name in self.setup:
                board.play(board.parse_move(_move_text(name)), colour)
            for i, (colour, name) in enumerate(self.moves):
                if limit is not None and i >= limit:
                    break
                if name.lower() in ("resign", "forfeit"):
                    break
                board.play(board.parse_move(_move_text(name)), colour)
        except (IllegalMove, ValueError) as exc:
            raise SgfError(f"bad move in game record: {exc}") from None
        return board


def _move_text(name: str) -> str:
    """A move as HexGui's reader accepts it: ``swap`` means swap-pieces, and two letters
    (``cd``, Little Golem's Go-like notation) mean column c, row 4."""
    low = name.strip().lower()
    if low == "swap":
        return "swap-pieces"
    if len(low) == 2 and low.isascii() and low.isalpha():
        return f"{low[0]}{ord(low[1]) - ord('a') + 1}"
    return low


_TOKEN = re.compile(r"\s*(?:(\()|(\))|(;)|([A-Za-z]+)((?:\s*\[(?:[^\]\\]|\\.)*\])+))", re.S)
_VALUE = re.compile(r"\[((?:[^\]\\]|\\.)*)\]", re.S)
_ESCAPED = re.compile(r"\\(.)", re.S)


def parse(text: str) -> SgfGame:
    """Parse SGF text; raises SgfError on anything unreadable."""
    text = text.strip()
    if not text.startswith("("):
        raise SgfError("SGF must start with '('")
    nodes: list[list[tuple[str, list[str]]]] = []
    pos = 0
    depth = 0
    skipping_from = None  # depth at which a variation we do not follow started
    seen_first_branch: dict[int, bool] = {}
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        if not m:
            if text[pos:].strip() == "":
                break
            raise SgfError(f"unreadable SGF near character {pos}: {text[pos:pos + 20]!r}")
        pos = m.end()
        if m.group(1):
            depth += 1
            if skipping_from is None and seen_first_branch.get(depth):
                skipping_from = depth
            seen_first_branch[depth] = True
        elif m.group(2):
            if skipping_from == depth:
                skipping_from = None
            seen_first_branch.pop(depth + 1, None)
            depth -= 1
            if depth < 0:
                raise SgfError("unbalanced ')' in SGF")
        elif m.group(3):
            if skipping_from is None:
                nodes.append([])
        else:
            if skipping_from is None:
                if not nodes:
                    raise SgfError("property before the first node")
                values = [_ESCAPED.sub(r"\1", v) for v in _VALUE.findall(m.group(5))]
                nodes[-1].append((m.group(4).upper(), values))
    if depth != 0:
        raise SgfError("unbalanced '(' in SGF")
    if not nodes:
        raise SgfError("SGF has no nodes")
    game = SgfGame()
    for props in nodes:
        for key, values in props:
            if key == "GM" and values and values[0].strip() not in ("11", ""):
                raise SgfError(f"not a Hex game (GM[{values[0]}])")
            if key == "SZ":
                game.width, game.height = _parse_size(values[0] if values else "")
            elif key in ("AB", "AW"):
                colour = BLACK if key == "AB" else WHITE
                game.setup.extend((colour, v.strip()) for v in values)
            elif key == "AE":
                _remove_setup(game, values)
            elif key in ("B", "W"):
                colour = BLACK if key == "B" else WHITE
                game.moves.append((colour, values[0].strip() if values else ""))
            elif values:
                game.properties.setdefault(key, values[0])
    return game


def _remove_setup(game: SgfGame, values: list[str]) -> None:
    """``AE``: take the named cells' setup stones off; a played move cannot be removed."""
    for value in values:
        cell = _move_text(value)
        if any(_move_text(name) == cell for _, name in game.moves):
            raise SgfError(f"AE[{value.strip()}] removes a played move: only setup stones "
                           f"can be removed")
        game.setup = [(c, name) for c, name in game.setup if _move_text(name) != cell]


def _parse_size(value: str) -> tuple[int, int]:
    try:
        if ":" in value:
            w, h = value.split(":", 1)
            return int(w), int(h)
        return int(value), int(value)
    except ValueError:
        raise SgfError(f"bad board size SZ[{value}]") from None


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def dumps(width: int, height: int, moves: list[tuple[int, str]],
          setup: Optional[list[tuple[int, str]]] = None,
          properties: Optional[dict[str, str]] = None) -> str:
    """SGF text for a game: one node per move, as HexGui writes it."""
    size = str(width) if width == height else f"{width}:{height}"
    head = f"(;FF[4]AP[hexengine]GM[11]SZ[{size}]"
    for key, value in (properties or {}).items():
        head += f"{key}[{_escape(str(value))}]"
    for colour, key in ((BLACK, "AB"), (WHITE, "AW")):
        cells = [name for c, name in (setup or []) if c == colour]
        if cells:
            head += key + "".join(f"[{n}]" for n in cells)
    body = "".join(f";{'BW'[colour]}[{name}]" for colour, name in moves)
    return head + body + ")\n"


def board_to_sgf(board: Board, properties: Optional[dict[str, str]] = None) -> str:
    """SGF text for a board's history (stones played out of turn keep their colour)."""
    props = dict(properties or {})
    winner = board.winner()
    if winner is not None and "RE" not in props:
        props["RE"] = "B+" if winner == BLACK else "W+"
    return dumps(board.width, board.height, list(board.moves_played()), properties=props)
