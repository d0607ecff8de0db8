"""Every engine setting, written once: name, type, default, range or choices, help.

``Settings`` is a frozen dataclass; each field's metadata is its row of the one table that
the command line (``hexengine --help``), ``param_hexengine`` and the search read, so the three
cannot drift apart.  A row's *scope* says who reads it:

- ``search``: a keyword argument of ``Searcher`` (a new value builds a new searcher);
- ``circuit``: set process-wide for the resistance circuits (also rebuilds the searcher);
- ``player``: read by the player at each ``genmove`` (time, depth, solver, swap);
- ``session``: the protocol session's own (live graphics, where logs go).

Values change by ``settings.with_text(name, text)``, which returns new settings or raises
ValueError naming the input; ``settings.search_key()`` is the searcher's cache key.
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Optional

from .evaluation import DEFAULT_EVALUATION, EVALUATIONS
from .evaluation.resistance import CLAMP, STRONG
from .evaluation.vc_graph import BOUNDS, DIVISIONS
from .search import ORDERINGS
from .solver import (CHECK_FROM, CHECK_SHARE, EARLY_STONES, PROBE_SHARE, SOLVE_EMPTY_CELLS,
                     SOLVE_SHARE)

ALGORITHMS = ("alphabeta", "mcts", "minimax", "random")
SWAP_STYLES = ("swap-pieces", "swap-sides")
SCOPES = ("search", "circuit", "player", "session")


def _widths(text: str) -> tuple[int, ...]:
    parts = [] if text == "none" else [p for p in text.split(",") if p.strip()]
    try:
        numbers = tuple(int(p) for p in parts)
    except ValueError:
        raise ValueError(f"ply_widths must be integers separated by commas, not "
                         f"{text!r}") from None
    if any(n < 0 for n in numbers):
        raise ValueError("ply_widths must be at least 0")
    return numbers


@dataclass(frozen=True)
class Option:
    """One row of the settings table."""
    name: str
    type: type
    default: Any
    help: str
    scope: str
    choices: tuple[str, ...] = ()
    low: Optional[float] = None  # inclusive, or exclusive when ``above``
    high: Optional[float] = None
    above: bool = False
    flag: str = ""  # the command line's long option, when not --NAME-WITH-DASHES
    unit: str = ""  # "seconds" in the messages of time settings
    metavar: str = ""  # the value's name in --help, when not its type's
    parser: Optional[Callable[[str], Any]] = None  # a text form of its own (ply_widths)

    @property
    def cli_flag(self) -> str:
        return self.flag or "--" + self.name.replace("_", "-")

    @property
    def value_name(self) -> str:
        """What --help calls the value: SECONDS, N, NUMBER, or the row's own name."""
        return self.metavar or self.unit.upper() or {int: "N", float: "NUMBER"}.get(
            self.type, "TEXT")

    @property
    def kind(self) -> str:
        """The type in HexGui's parameter list: ``bool``, ``list/a/b``, ``string``."""
        if self.type is bool:
            return "bool"
        return "list/" + "/".join(self.choices) if self.choices else "string"

    def format(self, value: Any) -> str:
        if self.type is bool:
            return str(int(value))
        if self.name == "ply_widths":
            return ",".join(str(n) for n in value) or "none"
        return str(value)

    def parse(self, text: str) -> Any:
        """The value ``text`` stands for; ValueError names the setting and the input."""
        name = self.name
        if self.parser is not None:
            return self.parser(text)
        if self.choices:
            if text not in self.choices:
                raise ValueError(f"{name} must be one of {', '.join(self.choices)}")
            return text
        if self.type is bool:
            if text not in ("0", "1", "true", "false"):
                raise ValueError(f"{name} must be 0 or 1")
            return text in ("1", "true")
        if self.type is str:
            return text
        what = {float: "a number", int: "an integer"}[self.type]
        if self.unit:
            what += f" of {self.unit}"
        try:
            value = self.type(text)
        except ValueError:
            raise ValueError(f"{name} must be {what}, not {text!r}") from None
        if self.type is float and math.isnan(value):
            raise ValueError(f"{name} must be {what}, not {text!r}")
        low, high = self.low, self.high
        if self.above:
            if not low < value <= high:
                raise ValueError(f"{name} must be > {low:g} and at most {high:g}")
        elif high is not None:
            if not low <= value <= high:
                raise ValueError(f"{name} must be between {low:g} and {high:g}")
        elif low is not None and value < low:
            raise ValueError(f"{name} must be at least {low:g}")
        return value


def setting(default: Any, help: str, scope: str = "search", **row: Any) -> Any:
    """A ``Settings`` field carrying its table row (completed by the class below)."""
    return field(default=default, metadata={"row": dict(help=help, scope=scope, **row)})


@dataclass(frozen=True)
class Settings:
    """The engine's settings; see the module docstring.  Frozen: change them with
    ``with_text`` or ``dataclasses.replace``."""
    algorithm: str = setting("alphabeta", "alphabeta (iterative deepening), mcts (Monte "
                             "Carlo tree search with RAVE and playouts, MoHex's kind), "
                             "minimax (plain, fixed depth), random.", "player",
                             choices=ALGORITHMS)
    evaluation: str = setting(DEFAULT_EVALUATION, "Evaluation function.",
                              choices=tuple(EVALUATIONS), flag="--eval")
    max_time: float = setting(10.0, "Seconds per genmove when no game clock is given.",
                              "player", low=0, high=86400, above=True, flag="--time",
                              unit="seconds")
    max_depth: int = setting(64, "Maximum search depth (fixed depth for minimax; below 64 "
                             "neither book nor solver is asked).", "player", low=1,
                             flag="--depth")
    width: int = setting(15, "Moves searched per node below the root, best-ordered first "
                         "(0 = all; 15 is Wolve's ply width).", low=0)
    ply_widths: tuple[int, ...] = setting((), "Widths of plies 1, 2, ... below the root "
                                          "(e.g. 10,8; deeper plies take width; none).",
                                          parser=_widths, metavar="W1,W2,...")
    root_width: int = setting(0, "Root moves kept past depth 2, best first (0 = all).",
                              low=0)
    root_moves: int = setting(-1, "Root moves searched, the first by the move order "
                              "(Wolve's root width); the rest only when every one kept "
                              "loses.  0 = all; -1 = 10 on boards of 81 to 100 cells "
                              "(9x9, 10x10), 15 on 101 to 169 (11x11 to 13x13), all on "
                              "others.", low=-1)
    root_policy: int = setting(0, "Root moves the cut (root_moves) left out that are "
                               "searched too: those the value network's move head ranks "
                               "first.", low=0)
    quiescence: bool = setting(False, "Leaves also score the answer that restores a broken "
                               "bridge or template.")
    root_links: bool = setting(True, "Every node's circuit also carries the root's full "
                               "connections while their carriers hold.")
    ordering: str = setting("auto", "Move order: current (resistance current, as Six and "
                            "Wolve), connected, graph (vc-graph's circuits, Wolve's), path "
                            "(shortest-path cells first), policy (the value network's move "
                            "head), auto (the evaluation's own).",
                            choices=ORDERINGS)
    seed: int = setting(0, "Random seed: same seed and settings, same fixed-depth games.",
                        low=0)
    randomize: bool = setting(False, "Vary the choice among the best-ordered root moves.")
    tt_size: int = setting(1_000_000, "Transposition table entries.", low=1)
    knowledge: bool = setting(True, "Fill-in, virtual connections and mustplay (off: the "
                              "plain search).")
    refresh_depth: int = setting(1, "Plies below the root whose nodes rebuild the mover's "
                                 "connections.", low=0)
    node_connections: bool = setting(True, "Interior nodes read their own H-search "
                                     "(resistance evaluations).")
    solver_time: float = setting(3.0, "Seconds the dfpn-* commands may take (HexGui's "
                                 "analyze menu waits for them; raise it to solve harder "
                                 "positions).", "player",
                                 low=0, high=86400, above=True, unit="seconds")
    solver_from: int = setting(EARLY_STONES, "Stones on the board (up to 9x9) before "
                               "genmove gives the solver a share of its budget.", "player",
                               low=0)
    solver_empty: int = setting(SOLVE_EMPTY_CELLS, "Empty cells at most (boards above 9x9) "
                                "before genmove gives the solver a share of its budget.",
                                "player", low=0)
    solver_share: float = setting(SOLVE_SHARE, "That share of genmove's budget on boards "
                                  "larger than 6x6 (0 never asks the solver).", "player",
                                  low=0.0, high=1.0)
    check_share: float = setting(CHECK_SHARE, "That share of genmove's budget (one thread, "
                                 "boards larger than 6x6, the root not given to the "
                                 "solver) goes to the solver's check of the search's "
                                 "choice: a move it refutes is replaced by the next best "
                                 "(0 never checks).", "player", low=0.0, high=0.9)
    probe_share: float = setting(PROBE_SHARE, "Where genmove checks the search's choice, "
                                 "at most that share of its budget (out of the check's) "
                                 "goes first to the solver's attempt at the position "
                                 "itself: a win it proves is played (0 never probes).",
                                 "player", low=0.0, high=0.9)
    check_from: int = setting(CHECK_FROM, "Stones on the board before genmove probes the "
                              "position and checks the search's choice.", "player", low=0)
    threads: int = setting(1, "Processes the solver runs on, searching one root together "
                           "(dfpn-solve-state).  In genmove, above 1 the solver runs on "
                           "threads - 1 of them beside the search, for the whole budget.  1 "
                           "leaves the other core free (for the other game of a two-job "
                           "match).",
                           "player", low=1, high=64)
    wire: float = setting(STRONG, "Conductance of a stone's virtual connections in the "
                          "circuit.", "circuit", low=0.0, high=1000.0)
    graph_band: bool = setting(True, "The graph circuit's H-search (vc-graph) also joins "
                               "second-row cells through their edge and lets an AND share "
                               "the edge cells a second-row cell captures (about twice a "
                               "build's cost).", "circuit")
    graph_division: str = setting("none", "Links of the graph circuit (vc-graph) whose "
                                  "conductance is divided by one more than the cells their "
                                  "carriers share, as Wolve's: none, empty (between empty "
                                  "cells) or all.", "circuit", choices=DIVISIONS)
    graph_bounds: str = setting("wide", "Carriers the graph circuit's H-search (vc-graph) "
                                "keeps: wide (Benzene's soft limits: 25 full and 50 semi "
                                "a pair), default (10 and 20) or narrow (6 and 12): fewer "
                                "make cheaper builds.", "circuit", choices=tuple(BOUNDS))
    tempo: float = setting(0.5, "Added to a leaf's static value for the side to move.",
                           low=0.0, high=CLAMP)
    reduce_after: int = setting(0, "Late move reductions: below the root, the moves after "
                                "the first N are tried one ply shallower first (0 = none).",
                                low=0)
    wide_plies: int = setting(0, "Nodes this many plies below the root build the wide "
                              "H-search, as the root does (boards up to 10x10).", low=0)
    allow_swap: bool = setting(False, "Allow the swap rule (as param_game allow_swap 1).",
                               "player", flag="--swap")
    swap_style: str = setting("swap-pieces", "How genmove answers when it swaps.", "player",
                              choices=SWAP_STYLES)
    live_gfx: bool = setting(False, "During genmove, write a gogui-gfx block (PV, root "
                             "scores, depth) after every finished iteration, for HexGui; "
                             "never for match controllers.", "session")
    log_file: str = setting("-", "Write search logs to FILE (appended) instead of stderr "
                            "(-).", "session", flag="--log", metavar="FILE")
    quiet: bool = setting(False, "No search logs at all.", "session")

    def with_text(self, name: str, text: str) -> "Settings":
        """These settings with ``name`` set from its text form; ValueError says what was
        wrong (an unknown name lists the known ones)."""
        row = OPTION.get(name)
        if row is None:
            raise ValueError(f"unknown parameter {name!r} (known: {', '.join(OPTION)})")
        return dataclasses.replace(self, **{name: row.parse(text)})

    def with_texts(self, items: Iterable[str]) -> "Settings":
        """These settings with each ``NAME=VALUE`` of ``items`` set in turn (the scripts'
        ``--set`` options); ValueError says which item was wrong and why."""
        settings = self
        for item in items:
            name, sep, text = item.partition("=")
            if not sep:
                raise ValueError(f"want NAME=VALUE, got {item!r}")
            settings = settings.with_text(name.strip(), text.strip())
        return settings

    def describe(self) -> list[tuple[str, str, str]]:
        """(type, name, value) triples in HexGui's parameter-list form, in table order."""
        return [(o.kind, o.name, o.format(getattr(self, o.name))) for o in OPTIONS]

    def search_options(self) -> dict[str, Any]:
        """The ``Searcher`` keyword arguments these settings give."""
        return {o.name: getattr(self, o.name) for o in OPTIONS if o.scope == "search"}

    def search_key(self) -> "Settings":
        """The searcher's cache key: these settings with every row the searcher does not
        depend on at its default (a frozen dataclass compares and hashes by value)."""
        return dataclasses.replace(self, **{o.name: o.default for o in OPTIONS
                                            if o.scope not in ("search", "circuit")})


OPTIONS: tuple[Option, ...] = tuple(
    Option(f.name, type(f.default), f.default, **f.metadata["row"])
    for f in dataclasses.fields(Settings))
OPTION: dict[str, Option] = {o.name: o for o in OPTIONS}
