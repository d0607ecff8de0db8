"""Openings for fair matches: none, every 1-ply opening, a file, or random N-ply openings.

An opening is a tuple of cell names played alternately from black.  The runner plays each
opening twice with the colours exchanged, so neither engine gets the better side of it.
"""
from __future__ import annotations

import random
from typing import Optional

from hexengine.board import Board, IllegalMove
from hexengine.geometry import geometry
from hexengine.positions import random_position


class OpeningError(ValueError):
    """The openings spec or file cannot be used on this board; the message says why."""


def check_opening(moves: tuple[str, ...], width: int, height: int) -> tuple[str, ...]:
    """The opening with canonical cell names; raises OpeningError when it is not legal or
    already decides the game."""
    board = Board(width, height)
    names = []
    for text in moves:
        try:
            move = board.parse_move(text)
            if move < 0:
                raise ValueError("swap moves cannot be part of an opening")
            board.play(move)
        except (ValueError, IllegalMove) as exc:
            raise OpeningError(f"opening {' '.join(moves)}: {exc}") from None
        names.append(board.move_name(move))
    if board.winner() is not None:
        raise OpeningError(f"opening {' '.join(moves)} already ends the game")
    if not board.empty:
        raise OpeningError(f"opening {' '.join(moves)} fills the board")
    return tuple(names)


def read_file(path: str, width: int, height: int) -> list[tuple[str, ...]]:
    """One opening per line, moves separated by spaces or commas; '#' starts a comment."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as exc:
        raise OpeningError(f"cannot read openings file {path}: {exc.strerror or exc}") from None
    out = []
    for number, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].replace(",", " ").split()
        if words:
            try:
                out.append(check_opening(tuple(words), width, height))
            except OpeningError as exc:
                raise OpeningError(f"{path}:{number}: {exc}") from None
    if not out:
        raise OpeningError(f"openings file {path} holds no opening")
    return out


GOLDEN = 0.6180339887498949


def every_cell(width: int, height: int, count: Optional[int] = None) -> list[tuple[str, ...]]:
    """Every 1-ply opening, row by row; with ``count`` (fewer than the cells), that many
    spread over the whole board: the rows evenly, and within them the columns by the golden
    ratio sequence, so they never line up on one column or diagonal (evenly spaced indices
    into the row-by-row list did: 10 of 81 cells gave the short diagonal, all strong
    openings)."""
    board = Board(width, height)
    geo = board.geo
    if count is None or count >= geo.size:
        return [(board.move_name(cell),) for cell in geo.cells]
    taken: set[int] = set()
    out = []
    for i in range(max(1, count)):
        row = i * height // count
        col = int(((i + 0.5) * GOLDEN) % 1.0 * width)
        while geo.index(col, row) in taken:  # a row has fewer openings than cells
            col = (col + 1) % width
        taken.add(geo.index(col, row))
        out.append((board.move_name(geo.index(col, row)),))
    return out


def random_openings(plies: int, count: int, width: int, height: int,
                    seed: int) -> list[tuple[str, ...]]:
    """``count`` distinct random openings of ``plies`` moves (fewer if the board runs out)."""
    if plies < 1:
        raise OpeningError("random openings need at least 1 ply (random:N, N >= 1)")
    if plies >= width * height:
        raise OpeningError(f"random:{plies} does not fit a {width}x{height} board")
    rng = random.Random(seed)
    seen: set[tuple[str, ...]] = set()
    out: list[tuple[str, ...]] = []
    attempts = 0
    while len(out) < count and attempts < count * 50:
        attempts += 1
        board = random_position(geometry(width, height), rng, plies, undecided=False)
        if board.winner() is not None:
            continue
        opening = tuple(name for _, name in board.moves_played())
        if opening not in seen:
            seen.add(opening)
            out.append(opening)
    return out


def resolve(spec: str, width: int, height: int, games: Optional[int],
            seed: int) -> list[tuple[str, ...]]:
    """The openings named by ``spec``: ``none``, ``all``, ``random:N`` or a file path.

    ``games`` (per pair) bounds how many are needed: ``all`` then spreads its choice over the
    board, ``random:N`` draws that many."""
    if spec == "none":
        return [()]
    if spec == "all":
        return every_cell(width, height, None if games is None else (games + 1) // 2)
    if spec.startswith("random:"):
        try:
            plies = int(spec.split(":", 1)[1])
        except ValueError:
            raise OpeningError(f"bad openings spec {spec!r} (random:N, N plies)") from None
        pairs = max(1, ((games or 2) + 1) // 2)
        return random_openings(plies, pairs, width, height, seed)
    return read_file(spec, width, height)


def extend(spec: str, width: int, height: int, old: list[tuple[str, ...]], old_games: int,
           old_spec: Optional[str], new: list[tuple[str, ...]],
           games: int) -> list[tuple[str, ...]]:
    """The openings of a match of ``games`` per pair that was defined with ``old_games`` and
    the openings ``old`` (from ``old_spec``, None if not recorded): the old ones in their
    order, then the others of ``new`` (what ``spec`` gives for ``games``).  OpeningError when
    ``new`` does not continue ``old`` (another spec, file or seed)."""
    if new[:len(old)] == old:  # none, a file, random:N, every cell: they only grow
        return new
    if spec == "all" and (old_spec == "all" or (
            old_spec is None and old == every_cell(width, height, (old_games + 1) // 2))):
        # a spread of the cells: a larger spread is another choice, so keep the cells
        # already played and add the new spread's other cells
        extra = [o for o in new if o not in old]
        return old + extra[:max(0, (games + 1) // 2 - len(old))]
    raise OpeningError(f"openings {spec!r} do not begin with the {len(old)} already played")
