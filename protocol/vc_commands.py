"""Virtual connections, with Benzene's names and reply formats (HexGui's ``vc`` and
``plist`` types): mustplay, connections between cells or edges."""
from __future__ import annotations

from hexengine import analysis_views as views
from hexengine.board import COLOUR_NAMES

from .engine import Engine, command, parse_colour
from .htp import HtpError


@command("vc-get-mustplay", 1, 1, "COLOUR",
         menu=(("plist", "VC Mustplay", "vc-get-mustplay %m"),))
def _vc_mustplay(engine: Engine, args: list[str]) -> str:
    """The cells COLOUR must play in (the intersection of the opponent's edge-to-edge semi
    connection carriers), space-separated; empty when COLOUR has already lost."""
    colour = parse_colour(args[0])
    board = engine.board
    cells = views.mustplay(board.geo, board.stones, colour)
    return " ".join(board.geo.name(c) for c in board.geo.iter_bits(cells))


def _endpoint(engine: Engine, text: str, colour: int) -> tuple[int, str]:
    """A connection end for COLOUR: an edge of its own (HexGui's north/south/west/east) or a
    cell that is empty or holds its stone; (node for H-search, name for the reply)."""
    low = text.lower()
    if low in views.EDGES:
        owner, node = views.EDGES[low]
        if owner != colour:
            raise HtpError(f"{low} is {COLOUR_NAMES[owner]}'s edge, not "
                           f"{COLOUR_NAMES[colour]}'s")
        return node, low
    cell = engine.cell(text)
    holder = engine.holder(cell)
    name = engine.board.geo.name(cell)
    if holder is not None and holder != colour:
        raise HtpError(f"{name} holds a {COLOUR_NAMES[holder]} stone, not a "
                       f"{COLOUR_NAMES[colour]} one")
    return cell, name


def _vc_lines(engine: Engine, colour: int, a: tuple[int, str], b: tuple[int, str],
              kinds: tuple[str, ...]) -> list[str]:
    """COLOUR's connections of the given kinds between two ends (node, name), one line each
    as HexGui's vc parser reads them: ``colour from to kind source [ carrier ] [ stones ]``
    and, for a semi, its key.  HexGui 0.10's board has no edge fields (a VC to ``north``
    throws when shown), so an edge end is written as a cell: a cell-to-edge connection as
    ``cell cell`` with source ``to-EDGE``, an edge-to-edge one as its key (semi) or first
    carrier cell twice with source ``EDGE-EDGE``; cell to cell has source ``hsearch``."""
    geo = engine.board.geo
    found = views.connections_between(geo, engine.board.stones, colour, a[0], b[0])
    if a[0] < 0 <= b[0]:
        a, b = b, a
    lines = []
    for kind in kinds:
        for con in found:
            if con.kind != kind:
                continue
            cells = [geo.name(c) for c in geo.iter_bits(con.carrier)]
            if b[0] >= 0:
                ends, source = f"{a[1]} {b[1]}", "hsearch"
            elif a[0] >= 0:
                ends, source = f"{a[1]} {a[1]}", f"to-{b[1]}"
            else:
                end = geo.name(con.key) if con.kind == "semi" else cells[0]
                ends, source = f"{end} {end}", f"{a[1]}-{b[1]}"
            key = f" {geo.name(con.key)}" if con.kind == "semi" else ""
            lines.append(f"{COLOUR_NAMES[colour]} {ends} {con.kind} {source} "
                         f"[{''.join(' ' + c for c in cells)} ] [ ]{key}")
    return lines


def _between(engine: Engine, args: list[str], kind: str) -> str:
    colour = engine.open_position(args[0])
    a, b = (_endpoint(engine, x, colour) for x in args[1:])
    if a[0] == b[0]:
        raise HtpError(f"two different cells or edges are needed, not {a[1]} twice")
    return "\n".join(_vc_lines(engine, colour, a, b, (kind,)))


@command("vc-connected-to-full", 2, 2, "COLOUR CELL")
def _vc_connected_full(engine: Engine, args: list[str]) -> str:
    """The cells and edges COLOUR joins to CELL (an empty cell, a COLOUR stone or one of
    its edges) by a full connection, space-separated, as Benzene lists them (a group by
    its first stone); scripts compare two engines' builds with it."""
    colour = engine.open_position(args[0])
    node, _ = _endpoint(engine, args[1], colour)
    names = views.edge_names(colour)
    geo = engine.board.geo
    return " ".join(names[x] if x < 0 else geo.name(x)
                    for x in views.fully_connected(geo, engine.board.stones, colour, node))


@command("vc-between-cells-full", 3, 3, "COLOUR CELL CELL",
         menu=(("vc", "VC Between Cells Full", "vc-between-cells-full %m %P"),))
def _vc_between_full(engine: Engine, args: list[str]) -> str:
    """COLOUR's full connections between two cells or edges (Benzene's command, HexGui's
    ``vc`` type): one per line, ``colour from to full hsearch [ carrier ] [ ]``."""
    return _between(engine, args, "full")


@command("vc-between-cells-semi", 3, 3, "COLOUR CELL CELL",
         menu=(("vc", "VC Between Cells Semi", "vc-between-cells-semi %m %P"),))
def _vc_between_semi(engine: Engine, args: list[str]) -> str:
    """COLOUR's semi connections between two cells or edges, as ``vc-between-cells-full``
    with the key (the move that completes it) after the empty stone list."""
    return _between(engine, args, "semi")


@command("hexengine-vc-edges", 1, 2, "COLOUR [CELL]",
         menu=(("vc", "VC Edge To Edge", "hexengine-vc-edges %m"),
               ("vc", "VC Cell To Edges", "hexengine-vc-edges %m %p"),))
def _vc_edges(engine: Engine, args: list[str]) -> str:
    """COLOUR's full and semi connections between its two edges (a full one: COLOUR has won
    with best play), or with CELL from that cell to each of its edges, in the form of
    ``vc-between-cells-full`` (HexGui 0.10 cannot select an edge, so its menu uses these)."""
    colour = engine.open_position(args[0])
    edges = list(views.edge_names(colour).items())
    kinds = ("full", "semi")
    if len(args) == 1:
        return "\n".join(_vc_lines(engine, colour, edges[0], edges[1], kinds))
    cell = _endpoint(engine, args[1], colour)
    return "\n".join(line for edge in edges
                     for line in _vc_lines(engine, colour, cell, edge, kinds))
