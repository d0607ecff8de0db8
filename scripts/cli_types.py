"""Command-line value types the scripts share: lists of numbers joined by commas.

``--sizes 7,9,11`` or ``--plies 13,17,21`` reach the script as a checked list; a bad list
is click's usage error naming the option (``Invalid value for '--sizes': …``), never a
traceback.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

import click


class NumberList(click.ParamType):
    """Numbers joined by commas, each converted by ``kind`` and at least ``minimum``;
    exactly ``count`` of them when given."""

    def __init__(self, kind: Callable[[str], Any] = int, minimum: Optional[float] = None,
                 count: Optional[int] = None) -> None:
        self.kind = kind
        self.minimum = minimum
        self.count = count
        self.name = f"{kind.__name__}[,{kind.__name__}...]"

    def convert(self, value: Any, param: Optional[click.Parameter],
                ctx: Optional[click.Context]) -> list:
        if isinstance(value, list):
            return value  # a default given as a list, or converted already
        parts = [p.strip() for p in str(value).split(",")]
        try:
            numbers = [self.kind(p) for p in parts]
        except ValueError:
            self.fail(f"want {self.kind.__name__} numbers joined by commas, got {value!r}",
                      param, ctx)
        if self.minimum is not None and any(n < self.minimum for n in numbers):
            self.fail(f"every number must be at least {self.minimum}, got {value!r}",
                      param, ctx)
        if self.count is not None and len(numbers) != self.count:
            self.fail(f"want {self.count} numbers, got {len(numbers)} in {value!r}",
                      param, ctx)
        return numbers


SIZES = NumberList(int, minimum=1)  # board sizes
PLIES = NumberList(int, minimum=0)  # moves played, counted from 0
SECONDS = NumberList(float, minimum=0.0)  # time budgets
