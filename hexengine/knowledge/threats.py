"""Edge-to-edge connections found once, kept sound down a line of play.

A full or semi connection stays valid as long as the opponent has no stone in its carrier: the
owner's own later stones only help it.  So the carriers that H-search finds between each
colour's two edges at one position (the root of a search) can be checked at every node below
it with one mask test each, without building anything again.  The lists only ever shrink, so
what they report is always true (a sound subset of what a fresh build would find):

- a colour with a surviving full connection between its edges has won whoever moves;
- a colour to move with a surviving semi connection wins by playing its key;
- the side to move must play inside every surviving semi carrier of the opponent
  (the mustplay); an empty mustplay means it has lost.
"""
from __future__ import annotations

from typing import Sequence

WIN_NOW = 1
LOST = -1
OPEN = 0


class EdgeThreats:
    """Both colours' edge-to-edge full and semi carriers, filtered by the stones on the board.

    ``full[c]`` holds carrier bitboards for colour ``c``; ``semi[c]`` holds (key bit,
    carrier) pairs, the carrier including its key.  Built from the root's connections;
    ``status`` is asked at every node."""

    __slots__ = ("full", "semi")

    def __init__(self, full: Sequence[Sequence[int]],
                 semi: Sequence[Sequence[tuple[int, int]]]) -> None:
        self.full = (tuple(full[0]), tuple(full[1]))
        self.semi = (tuple(semi[0]), tuple(semi[1]))

    @classmethod
    def empty(cls) -> "EdgeThreats":
        return cls(((), ()), ((), ()))

    def status(self, stones: Sequence[int], colour: int, empty: int) -> tuple[int, int]:
        """(verdict, mustplay) for ``colour`` to move with ``empty`` the empty cells.

        verdict is WIN_NOW (colour keeps a full connection, or a semi it can complete), LOST
        (the opponent keeps a full connection, or no cell stops all its semis) or OPEN;
        mustplay is the empty cells ``colour`` must play in (all of ``empty`` when the
        opponent has no surviving semi)."""
        opp = 1 - colour
        theirs = stones[opp]
        for carrier in self.full[colour]:
            if not carrier & theirs:
                return WIN_NOW, empty
        for _, carrier in self.semi[colour]:
            if not carrier & theirs:
                return WIN_NOW, empty
        mine = stones[colour]
        for carrier in self.full[opp]:
            if not carrier & mine:
                return LOST, 0
        must = empty
        for key, carrier in self.semi[opp]:
            if not carrier & mine:
                if key & theirs:  # the opponent has played the key: a full connection
                    return LOST, 0
                must &= carrier
                if not must:
                    return LOST, 0
        return OPEN, must
