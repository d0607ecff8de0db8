"""Time control: how long one genmove may think, from a fixed limit or a game clock."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

SAFETY = 0.05  # seconds kept back for answering and process scheduling
MIN_BUDGET = 0.02


@dataclass
class GameClock:
    """The game clock as the controller reports it (``time_settings``, ``time_left``)."""
    main_time: Optional[float] = None
    byoyomi: float = 0.0
    byoyomi_stones: int = 0
    left: dict[int, float] = field(default_factory=dict)  # colour -> seconds left
    stones_left: dict[int, int] = field(default_factory=dict)  # colour -> stones in period
    unlimited: bool = False  # time_settings said: no time limits (time_left is ignored)

    def reset(self) -> None:
        self.left.clear()
        self.stones_left.clear()

    def set(self, main: float, byoyomi: float, stones: int) -> None:
        """GTP's ``time_settings``: main time, then Canadian byo-yomi of ``byoyomi`` seconds
        for every ``stones`` stones.  Byo-yomi time with no stones means no time limits
        (GTP 2, section 4.2), and so does no time at all."""
        self.reset()
        self.unlimited = (main == 0 and byoyomi == 0) or (byoyomi > 0 and stones == 0)
        self.main_time = None if self.unlimited else main
        self.byoyomi, self.byoyomi_stones = (0.0, 0) if self.unlimited else (byoyomi, stones)

    def known(self, colour: int) -> bool:
        if self.unlimited:
            return False
        return colour in self.left or self.main_time is not None


def budget(max_time: float, clock: Optional[GameClock], colour: int, empty_cells: int) -> float:
    """Seconds one genmove may use: ``max_time``, or less when the game clock says so.

    With a clock, spend time left / (a share of the moves we still expect to make), which is
    about a quarter of the empty cells on the board, never fewer than 4 moves ahead.  In
    byo-yomi, spend the period's time spread over its stones.
    """
    limit = max_time
    if clock is not None and clock.known(colour):
        left = clock.left.get(colour, clock.main_time or 0.0)
        stones = clock.stones_left.get(colour, 0)
        if stones > 0:
            share = left / stones
        else:
            moves_ahead = max(4, empty_cells // 4)
            share = left / moves_ahead
            if clock.byoyomi > 0 and clock.byoyomi_stones > 0:
                share += clock.byoyomi / clock.byoyomi_stones
        limit = min(limit, share)
    return max(MIN_BUDGET, limit - SAFETY)
