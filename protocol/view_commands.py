"""HexGui's views of what the engine sees (``gfx`` and ``pspairs`` replies): shortest
paths, per-cell evaluation maps, a tried move, inferior cells.  The data comes from
``hexengine.analysis_views``; this module only parses and formats."""
from __future__ import annotations

from hexengine import analysis_views as views
from hexengine.board import BLACK, COLOUR_NAMES, WHITE

from .engine import Engine, command, parse_colour
from .formatting import gfx, num, pairs
from .htp import HtpError

MAPS = ("current", "two-distance", "move-value")


def _both_paths_shade(black: views.PathView, white: views.PathView) -> dict[int, float]:
    """Black's path cells 0 (blue), white's 1 (green), cells on both 0.5."""
    out = {c: 0.0 for c in black.share} if black.share else {}
    for c in white.share:
        out[c] = 0.5 if c in out else 1.0
    return out


@command("hexengine-shortest-path", 0, 1, "[COLOUR]",
         menu=(("gfx", "Shortest Paths", "hexengine-shortest-path %m"),
               ("gfx", "Shortest Paths Both", "hexengine-shortest-path"),))
def _shortest_path(engine: Engine, args: list[str]) -> str:
    """The shortest paths of COLOUR (own stones free), each cell shaded by the share of
    the shortest paths through it (1, green: on every one), or with no argument both
    colours' path cells (black's blue, white's green, both teal); distances as status."""
    board = engine.board
    if args:
        colour = engine.open_position(args[0])
        view = views.shortest_paths(board.geo, board.stones, colour)
        critical = [board.geo.name(c) for c in view.critical()]
        other = views.shortest_paths(board.geo, board.stones, 1 - colour)
        status = (f"{COLOUR_NAMES[colour]} shortest paths: {view.distance} empty cells to "
                  f"connect, {len(view.share)} cells on them, on every one: "
                  f"{' '.join(critical) or 'none'} (green); "
                  f"{COLOUR_NAMES[1 - colour]} needs {other.distance}")
        return gfx(engine.board.geo, view.share, status,
                    {c: num(s) for c, s in view.share.items()})
    engine.require_open()
    black, white = (views.shortest_paths(board.geo, board.stones, c) for c in (BLACK, WHITE))
    status = (f"shortest paths: black {black.distance} empty cells (blue), white "
              f"{white.distance} (green), cells on both teal")
    return gfx(engine.board.geo, _both_paths_shade(black, white), status)


def _map(engine: Engine, args: list[str]) -> tuple[views.CellMap, dict[int, str], str]:
    """One evaluation map for the map commands: (map, labels, status text)."""
    kind = args[0].lower()
    if kind not in MAPS:
        raise HtpError(f"unknown map {args[0]!r} (known: {', '.join(MAPS)})")
    colour = engine.open_position(args[1])
    board = engine.board
    geo, who = board.geo, COLOUR_NAMES[colour]
    if kind == "current":
        cells, r_own, r_opp = views.current_map(geo, board.stones, colour)
        labels = {c: num(v) for c, v in cells.values.items()}
        status = (f"current through each empty cell, both circuits (green most): top "
                  f"{geo.name(cells.best)} {cells.values[cells.best]:.2f}; resistance "
                  f"{who} {r_own:.2f}, {COLOUR_NAMES[1 - colour]} {r_opp:.2f}")
    elif kind == "two-distance":
        cells = views.two_distance_map(geo, board.stones, colour)
        other = views.two_distance_map(geo, board.stones, 1 - colour)
        labels = {c: f"{v:.0f}" for c, v in cells.values.items()}
        if cells.best is None:
            status = f"{who} two-distance: no cell reaches both edges"
        else:
            best = cells.values[cells.best]
            count = sum(1 for v in cells.values.values() if v == best)
            theirs = (f"{other.values[other.best]:.0f}" if other.best is not None
                      else "none")
            status = (f"{who} two-distance potential per cell (green lowest): best {best:.0f} "
                      f"at {count} cells; {COLOUR_NAMES[1 - colour]}'s best {theirs}")
    else:
        name = engine.settings.evaluation
        cells, now = views.move_value_map(geo, board.stones, colour, name,
                                          views.VIEW_SECONDS, engine._interrupt)
        labels = {c: num(v, True) for c, v in cells.values.items()}
        empty = board.empty.bit_count()
        part = "" if len(cells.values) == empty else \
            f" (partial: {len(cells.values)} of {empty} cells in time)"
        best = "none" if cells.best is None else \
            f"{geo.name(cells.best)} {cells.values[cells.best]:+.2f}"
        status = (f"{name} value for {who} after {who} plays each cell (green best): best "
                  f"{best}, now {now:+.2f}{part}")
    return cells, labels, status


@command("hexengine-map", 2, 2, "MAP COLOUR",
         menu=(("gfx", "Map Current", "hexengine-map current %m"),
               ("pspairs", "Map Current Values", "hexengine-map-values current %m"),
               ("gfx", "Map Two-Distance Black", "hexengine-map two-distance b"),
               ("pspairs", "Map Two-Distance Black Values",
                "hexengine-map-values two-distance b"),
               ("gfx", "Map Two-Distance White", "hexengine-map two-distance w"),
               ("pspairs", "Map Two-Distance White Values",
                "hexengine-map-values two-distance w"),
               ("gfx", "Map Move Value", "hexengine-map move-value %m"),
               ("pspairs", "Map Move Value Values", "hexengine-map-values move-value %m"),))
def _map_gfx(engine: Engine, args: list[str]) -> str:
    """An evaluation map as gfx shading: ``current`` (resistance current through each empty
    cell), ``two-distance`` (COLOUR's potential per cell), ``move-value`` (the static value
    after COLOUR plays each cell)."""
    cells, labels, status = _map(engine, args)
    return gfx(engine.board.geo, cells.shade, status, labels)


@command("hexengine-map-values", 2, 2, "MAP COLOUR")
def _map_values(engine: Engine, args: list[str]) -> str:
    """The numbers of ``hexengine-map MAP COLOUR`` as cell-value pairs (``pspairs``)."""
    _, labels, _ = _map(engine, args)
    return pairs(engine.board.geo, labels)


@command("hexengine-try-move", 2, 2, "COLOUR CELL",
         menu=(("gfx", "Try Move", "hexengine-try-move %m %p"),))
def _try_move(engine: Engine, args: list[str]) -> str:
    """What COLOUR playing CELL would change (the board stays as it is): both colours'
    shortest paths after it (gfx shading as ``hexengine-shortest-path``), the distances
    before and after and the static value for COLOUR as status text."""
    colour = engine.open_position(args[0])
    cell = engine.cell(args[1])
    holder = engine.holder(cell)
    name = engine.board.geo.name(cell)
    if holder is not None:
        raise HtpError(f"{name} is occupied ({COLOUR_NAMES[holder]})")
    board = engine.board
    evaluation = engine.settings.evaluation
    t = views.try_move(board.geo, board.stones, colour, cell, evaluation)
    black, white = t.after
    if black.distance == 0 or white.distance == 0:
        verdict = f"{COLOUR_NAMES[colour]} wins with {name}"
    else:
        verdict = (f"to connect black {t.before[0].distance}->{black.distance}, white "
                   f"{t.before[1].distance}->{white.distance}")
    status = (f"{COLOUR_NAMES[colour]} {name}: {verdict}; {evaluation} "
              f"{num(t.value_before, True)}->{num(t.value_after, True)}; paths after it: "
              f"black blue, white green, both teal")
    return gfx(engine.board.geo, _both_paths_shade(black, white), status,
                {cell: num(t.value_after, True)})


@command("hexengine-inferior", 1, 1, "COLOUR",
         menu=(("inferior", "Inferior Cells", "hexengine-inferior %m"),))
def _inferior(engine: Engine, args: list[str]) -> str:
    """Fill-in and pruned moves for COLOUR to move, as HexGui's ``inferior`` type draws them
    (Benzene's codes): ``fdb``/``fdw`` dead (filled black/white), ``fcb``/``fcw`` captured
    (combinatorial decompositions' carriers included), ``iv[k1-k2]`` vulnerable for COLOUR
    with its killers, ``id[d1-d2]`` dominated with the moves dominating it (HexGui reads
    ``iv``, ``ir`` and ``id``).  Empty once the game is over."""
    colour = parse_colour(args[0])
    board = engine.board
    if board.winner() is not None:
        return ""
    geo = board.geo
    report = views.inferior(geo, board.stones, colour)
    codes: dict[int, str] = {}
    for code, bits in (("fdb", report.dead_as[BLACK]), ("fdw", report.dead_as[WHITE]),
                       ("fcb", report.captured[BLACK]), ("fcw", report.captured[WHITE])):
        for cell in geo.iter_bits(bits):
            codes[cell] = code
    for code, cells in (("iv", report.vulnerable), ("id", report.dominated)):
        for cell, by in cells.items():
            codes[cell] = code + "[" + "-".join(geo.name(k) for k in geo.iter_bits(by)) + "]"
    return " ".join(f"{geo.name(cell)} {codes[cell]}" for cell in sorted(codes))
