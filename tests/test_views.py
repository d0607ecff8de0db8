"""The analysis views for HexGui, over the real protocol: every analyze-menu entry answers in
the form HexGui 0.10's parser takes (checked by re-implementations of its parsers below), within
a second on 11×11 (the move-value map within the views' 4 s); the numbers agree with independent references (a 0-1 BFS for shortest
paths, ``hexengine-evaluate`` after ``play`` for move values); live search blocks come only
when switched on and are always framed; bad input is refused and leaves the board as it was.

HexGui's readers mirrored here (hexgui.gui.HexGui / hexgui.util.StringUtils, 0.10):
- gfx (``cbGfx``): the text from ``INFLUENCE`` to ``TEXT`` is read as cell/float pairs, each
  float a colour component (so in [0, 1]); what follows ``TEXT`` is the status line;
- live blocks (``HtpController``, ``guifx_ab``): a ``gogui-gfx:`` line, then up to the first
  empty line ``ab VAR <B|W cell>… LABEL <cell text>… TEXT …``, all three present, in order;
- vc (``parseVCList``): ``colour from to type source [ cells ] [ cells ]`` plus one key cell
  for a semi; var and plist: cells only; pspairs: cell and one word.
"""
import re
import subprocess
import time
from collections import deque

import pytest

from hexengine.analysis_views import VIEW_SECONDS
from protocol import cli
from tests.htpclient import HtpClient, engine_command
from tests.test_protocol import parse_board

NAME_RE = re.compile(r"^([a-z]+)(\d+)$")
EDGES = {"north", "south", "east", "west"}
NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1))
HEXGUI_TYPES = {"bwboard", "cboard", "dboard", "eplist", "gfx", "group", "hstring", "hpstring",
                "inferior", "move", "none", "param", "plist", "pspairs", "pstring", "string",
                "sboard", "var", "varb", "varc", "varp", "varpo", "varw", "vc"}

# an open middle game on 11x11 (black to move) and a decided 3x3 game
MIDGAME = ("b f6 w e7 b e8 w d8 b d9 w c9 b c10 w f7 b g6 w g5 b h4 w e5 b i3 w h6 b h7 "
           "w g8").split()
MIDGAME = [f"play {MIDGAME[i]} {MIDGAME[i + 1]}" for i in range(0, len(MIDGAME), 2)]
FINISHED = ["boardsize 3", "play b b1", "play w a1", "play b b2", "play w a2", "play b b3"]


# --- references -------------------------------------------------------------------------------
def coords(name: str) -> tuple[int, int]:
    m = NAME_RE.match(name)
    assert m, name
    col = 0
    for ch in m.group(1):
        col = col * 26 + ord(ch) - 96
    return col - 1, int(m.group(2)) - 1


def on_board(name: str, size: int) -> bool:
    c, r = coords(name)
    return 0 <= c < size and 0 <= r < size


def stones_of(engine) -> dict:
    """(col, row) -> 'X' / 'O' from showboard."""
    return parse_board(engine.ok("showboard"))[2]


def distance(stones: dict, colour: str, size: int, extra=(), blocked=()) -> int:
    """Independent 0-1 BFS: empty cells ``colour`` ('X' black, top-bottom; 'O' white,
    left-right) still needs, own stones free; ``extra`` cells count as own, ``blocked`` as
    the opponent's.  1000 when cut off."""
    own = {p for p, m in stones.items() if m == colour} | set(extra)
    opp = {p for p, m in stones.items() if m != colour} | set(blocked)
    cells = [(c, r) for r in range(size) for c in range(size) if (c, r) not in opp]
    dist = {}
    todo = deque()
    for p in cells:
        if (p[1] if colour == "X" else p[0]) == 0:
            d = 0 if p in own else 1
            if d < dist.get(p, 99):
                dist[p] = d
                (todo.appendleft if d == 0 else todo.append)(p)
    while todo:
        c, r = todo.popleft()
        for dc, dr in NEIGHBOURS:
            q = (c + dc, r + dr)
            if q in opp or not (0 <= q[0] < size and 0 <= q[1] < size):
                continue
            d = dist[(c, r)] + (0 if q in own else 1)
            if d < dist.get(q, 99):
                dist[q] = d
                (todo.appendleft if q in own else todo.append)(q)
    ends = [d for p, d in dist.items() if (p[1] if colour == "X" else p[0]) == size - 1]
    return min(ends, default=1000)


def parse_gfx(text: str, size: int) -> tuple[dict, dict, str]:
    """A gfx reply read as HexGui 0.10 does, plus its LABEL line: (influence, labels, status).
    Asserts what would break HexGui: a missing INFLUENCE, a value that is not a float in
    [0, 1], a cell it does not know, LABEL anywhere but before INFLUENCE."""
    lines = text.split("\n")
    kinds = [line.split(" ", 1)[0] for line in lines]
    assert kinds in (["INFLUENCE", "TEXT"], ["LABEL", "INFLUENCE", "TEXT"]), kinds
    inf, end = text.index("INFLUENCE"), text.index("TEXT")
    words = text[inf + 10:end].split()
    assert len(words) % 2 == 0
    influence = {}
    for cell, value in zip(words[::2], words[1::2]):
        assert on_board(cell, size), cell
        v = float(value)
        assert 0.0 <= v <= 1.0, (cell, value)
        influence[cell] = v
    labels = {}
    if kinds[0] == "LABEL":
        words = lines[0].split()[1:]
        assert len(words) % 2 == 0
        for cell, label in zip(words[::2], words[1::2]):
            assert on_board(cell, size), cell
            labels[cell] = label
    status = text[end + 5:]
    assert status.strip() and "\n" not in status
    return influence, labels, status


def parse_pairs(text: str, size: int) -> dict:
    words = text.split()
    assert len(words) % 2 == 0, text
    out = dict(zip(words[::2], words[1::2]))
    assert all(on_board(c, size) for c in out), text
    return out


def parse_vcs(text: str, size: int) -> list[tuple]:
    """HexGui's parseVCList, strict: every token used, and every end and carrier point a cell
    of the board (HexGui 0.10's board has no edge fields: showing a VC to 'north' throws).
    Returns (colour, from, to, kind, source, carrier, key) per connection."""
    tokens = text.split()
    out = []
    i = 0
    while i < len(tokens):
        colour, a, b, kind, source = tokens[i:i + 5]
        assert colour in ("black", "white") and kind in ("full", "semi") and source
        assert on_board(a, size) and on_board(b, size), (a, b)
        assert tokens[i + 5] == "["
        j = tokens.index("]", i + 6)
        carrier = tokens[i + 6:j]
        assert tokens[j + 1] == "[" and tokens[j + 2] == "]"  # no stones listed
        i = j + 3
        key = None
        if kind == "semi":
            key = tokens[i]
            i += 1
            assert key in carrier
        assert all(on_board(c, size) for c in carrier)
        out.append((colour, a, b, kind, source, tuple(carrier), key))
    return out


def setup(engine, commands) -> None:
    for cmd in commands:
        engine.ok(cmd)


@pytest.fixture(scope="module")
def mid():
    """One engine on the 11x11 middle game for the read-only checks."""
    client = HtpClient("--time", "1")
    client.ok("hexengine-ready 60", timeout=70)  # the views are timed: kernels loaded first
    setup(client, ["boardsize 11"] + MIDGAME)
    yield client
    client.close()


def menu(engine) -> list[tuple[str, str, str]]:
    return [tuple(line.split("/")) for line in engine.ok("hexgui-analyze_commands").split("\n")]


# --- the menu -----------------------------------------------------------------------------------
def test_menu_entries_are_known_types_and_commands(mid):
    entries = menu(mid)
    labels = [label for _, label, _ in entries]
    assert len(labels) == len(set(labels))  # HexGui drops repeated labels
    for kind, label, command in entries:
        assert kind in HEXGUI_TYPES, kind
        assert mid.ok(f"known_command {command.split()[0]}") == "true"
    kinds = {command.split()[0]: kind for kind, _, command in entries}
    for name, kind in (("hexengine-shortest-path", "gfx"), ("hexengine-map", "gfx"),
                       ("hexengine-map-values", "pspairs"), ("hexengine-try-move", "gfx"),
                       ("vc-between-cells-full", "vc"), ("vc-between-cells-semi", "vc"),
                       ("hexengine-vc-edges", "vc"),
                       ("hexengine-inferior", "inferior"), ("vc-get-mustplay", "plist"),
                       ("dfpn-solve-state", "string"), ("dfpn-solver-find-winning", "plist"),
                       ("dfpn-get-pv", "var"), ("hexengine-pv", "var")):
        assert kinds[name] == kind


def substitute(command: str, stones: dict) -> str:
    """What HexGui sends: %m the colour to move (black here), %p a selected empty cell,
    %P two selected cells (a black stone and black's south edge)."""
    black = sorted(p for p, m in stones.items() if m == "X")[0]
    return (command.replace("%m", "b").replace("%p", "a1")
            .replace("%P", f"{'abcdefghijk'[black[0]]}{black[1] + 1} south"))


def test_every_view_answers_in_hexgui_form_in_time(mid):
    stones = stones_of(mid)
    before = mid.ok("showboard")
    checked = set()
    for kind, label, command in menu(mid):
        if command.startswith("dfpn-") or kind in ("param", "none"):
            continue  # the solver has its own time limit (tests/test_solver.py)
        cmd = substitute(command, stones)
        ok, text, seconds = mid.timed(cmd)
        assert ok, (cmd, text)
        # an evaluation per empty cell takes seconds: the map stops at the views' limit
        limit = VIEW_SECONDS + 0.5 if "move-value" in cmd else 1.0
        assert seconds < limit, (cmd, seconds)
        if kind == "gfx":
            influence, labels, status = parse_gfx(text, 11)
            assert influence, cmd
        elif kind == "pspairs":
            assert all(" " not in v for v in parse_pairs(text, 11).values())
        elif kind == "vc":
            vcs = parse_vcs(text, 11)
            assert vcs or "%p" not in command.lower(), cmd  # selected: next to its edge
        elif kind in ("plist", "var"):
            assert all(on_board(c, 11) for c in text.split()), (cmd, text)
        elif kind == "inferior":
            for cell, code in parse_pairs(text, 11).items():
                assert re.match(r"^(f[dc][bw]|i[vd]\[[a-z]+\d+(-[a-z]+\d+)*\])$", code), code
        checked.add(command.split()[0])
    assert {"hexengine-shortest-path", "hexengine-map", "hexengine-map-values",
            "hexengine-try-move", "vc-between-cells-full", "vc-between-cells-semi",
            "hexengine-vc-edges"} <= checked
    assert mid.ok("showboard") == before  # no view moves a stone


def test_solver_views_answer_within_five_seconds_by_default(mid):
    """HexGui waits for a view: with default settings the solver's views give up in time on
    an open 11x11 middle game (``unknown``, or a refusal that says why)."""
    before = mid.ok("showboard")
    ok, text, seconds = mid.timed("dfpn-solve-state b", timeout=30)
    assert ok and text in ("black", "white", "unknown"), text
    assert seconds < 5.0, seconds
    ok, text, seconds = mid.timed("dfpn-solver-find-winning b", timeout=30)
    assert seconds < 5.0, seconds
    assert ok or "not solved within solver_time" in text, text
    assert mid.ok("showboard") == before


@pytest.mark.parametrize("command, board", [
    # (4 stones: the solver proves the whole middle game within the 0.4 s since 2026-11-26,
    # and these it cannot in 5 s, so it is surely running at the interrupt)
    ("dfpn-solve-state w", ["boardsize 11"] + MIDGAME[:4]),
    # (19x19: the map takes its whole 4 s budget, so it is surely running at the interrupt)
    ("hexengine-map move-value b", ["boardsize 19"] + MIDGAME),
    ("hexengine-map-values move-value b", ["boardsize 19"] + MIDGAME),
])
def test_long_views_answer_soon_after_interrupt(make_engine, command, board):
    engine = make_engine("--time", "1")
    setup(engine, board)
    engine.ok("reg_genmove b")  # an engine in use: its compiled kernels loaded
    engine.write(command + "\n")
    time.sleep(0.4)
    engine.write("# interrupt\n")
    interrupted = time.monotonic()
    ok, text, _ = engine.read_reply(timeout=10)
    late = time.monotonic() - interrupted
    assert ok, text
    assert late < 1.0, f"answered {late:.2f} s after # interrupt"
    if command.startswith("dfpn"):
        assert text == "unknown"
    elif command.startswith("hexengine-map "):  # a partial map, which says so
        assert "partial" in text, text[-200:]
    else:  # the values of the cells evaluated in time
        assert 0 < len(text.split()) // 2 < 19 * 19 - (len(board) - 1)
    assert engine.ok("name") == "hexengine"


def test_replies_have_one_start_and_no_empty_line_on_plain_pipes():
    """The raw bytes of a session of every view: each reply is one '=' line start, its lines
    never empty, one empty line after it (HexGui ends a reply at the first empty line)."""
    views = ["hexengine-shortest-path b", "hexengine-shortest-path", "hexengine-try-move w e4",
             "vc-between-cells-full b f6 north", "vc-between-cells-semi b h4 e8",
             "hexengine-vc-edges w", "hexengine-vc-edges b i3",
             "hexengine-inferior b", "vc-get-mustplay w"]
    views += [f"hexengine-map{v} {m} {c}" for v in ("", "-values")
              for m in ("current", "two-distance", "move-value") for c in "bw"]
    lines = ["boardsize 11"] + MIDGAME + views
    out = subprocess.run(engine_command() + ["--quiet"], input="\n".join(lines) + "\n",
                         capture_output=True, text=True, timeout=60).stdout
    assert out.endswith("\n\n") and not out.endswith("\n\n\n")
    blocks = out[:-2].split("\n\n")
    assert len(blocks) == len(lines)
    for cmd, block in zip(lines, blocks):
        assert block.startswith("="), (cmd, block[:80])
        assert all(line.strip() for line in block.split("\n")), cmd
        assert not any(line.startswith(("=", "?")) for line in block.split("\n")[1:]), cmd


# --- shortest paths -----------------------------------------------------------------------------
def test_shortest_paths_agree_with_an_independent_search(mid):
    stones = stones_of(mid)
    for colour, mark in (("b", "X"), ("w", "O")):
        influence, labels, status = parse_gfx(mid.ok(f"hexengine-shortest-path {colour}"), 11)
        d = distance(stones, mark, 11)
        assert f": {d} empty cells to connect" in status
        empty = [(c, r) for r in range(11) for c in range(11) if (c, r) not in stones]
        on_path = {p for p in empty if distance(stones, mark, 11, extra=[p]) == d - 1}
        names = {f"{'abcdefghijk'[c]}{r + 1}" for c, r in on_path}
        assert set(influence) == names == set(labels)
        for name, share in influence.items():
            blocked = distance(stones, mark, 11, blocked=[coords(name)]) > d
            assert (share > 0.999) == blocked, name  # green: on every shortest path
            assert float(labels[name]) == pytest.approx(share, abs=0.006)
    both, _, status = parse_gfx(mid.ok("hexengine-shortest-path"), 11)
    black = set(parse_gfx(mid.ok("hexengine-shortest-path b"), 11)[0])
    white = set(parse_gfx(mid.ok("hexengine-shortest-path w"), 11)[0])
    assert set(both) == black | white
    for cell, v in both.items():
        assert v == (0.5 if cell in black and cell in white else 0.0 if cell in black else 1.0)
    assert f"black {distance(stones, 'X', 11)} " in status


def test_a_lone_path_cell_is_on_every_shortest_path(engine):
    # 3x3: black b1 b3, white blocks a2 c2: b2 is black's only way (and 1 away)
    setup(engine, ["boardsize 3", "play b b1", "play b b3", "play w a2", "play w c2"])
    influence, _, status = parse_gfx(engine.ok("hexengine-shortest-path b"), 3)
    assert influence == {"b2": 1.0}
    assert "1 empty cells to connect" in status and "b2 (green)" in status


# --- maps ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["current", "two-distance", "move-value"])
def test_maps_shade_the_values_they_list(mid, kind):
    stones = stones_of(mid)
    empty = {f"{'abcdefghijk'[c]}{r + 1}" for r in range(11) for c in range(11)
             if (c, r) not in stones}
    for colour in "bw":
        influence, labels, status = parse_gfx(mid.ok(f"hexengine-map {kind} {colour}"), 11)
        values = parse_pairs(mid.ok(f"hexengine-map-values {kind} {colour}"), 11)
        if kind == "move-value" and values != labels:
            # each answer stops at the view's time (VIEW_SECONDS), so on a slow machine one
            # of the two may hold fewer cells: they must agree wherever both have a value
            shared = set(values) & set(labels)
            assert "partial" in status or len(values) < len(labels)
            assert len(shared) > len(empty) // 2
            assert all(values[c] == labels[c] for c in shared)
            values = labels
        assert values == labels
        assert set(values) <= empty and set(influence) == set(values)
        numbers = {c: float(v) for c, v in values.items()}
        best = max(influence, key=influence.get)
        assert influence[best] == 1.0 and min(influence.values()) == 0.0
        good = min if kind == "two-distance" else max
        assert numbers[best] == pytest.approx(good(numbers.values()), abs=0.006)
        flip = -1 if kind == "two-distance" else 1  # labels are rounded: ties by shade
        order = sorted(numbers, key=lambda c: (numbers[c], flip * influence[c]))
        shades = [influence[c] for c in order]
        assert shades == sorted(shades, reverse=(kind == "two-distance"))
    if kind == "current":
        assert all(0.0 <= v <= 2.0 for v in numbers.values())
        assert set(values) == empty
    if kind == "two-distance":
        assert all(v == int(v) and v >= 2 for v in numbers.values())


def test_a_kernel_loading_during_a_move_value_map_does_not_mix_two_evaluations(monkeypatch):
    # the kernels finish loading after the fifth cell: the stand-in answered until then
    from hexengine import analysis_views, kernels
    from hexengine.geometry import geometry
    calls = []

    def status():
        return {"vc_graph": "compiled" if len(calls) >= 5 else "loading"}

    def evaluate(geo, stones, colour):
        calls.append(1)
        return 2.0 if len(calls) > 5 else 1.0

    monkeypatch.setattr(kernels, "status", status)
    monkeypatch.setattr(analysis_views, "get_evaluation", lambda name: evaluate)
    cells, now = analysis_views.move_value_map(geometry(4, 4), [0, 0], 0, "vc-graph")
    assert len(cells.values) == 16 and set(cells.values.values()) == {2.0} and now == 2.0


def test_move_values_are_the_evaluation_after_the_move(engine):
    setup(engine, ["boardsize 9", "play b e5", "play w d6", "play b c7"])
    values = parse_pairs(engine.ok("hexengine-map-values move-value w"), 9)
    assert len(values) == 78
    for cell in ("a1", "e4", "d7", "i9", "c6"):
        engine.ok(f"play w {cell}")
        after = float(engine.ok("hexengine-evaluate w").split()[-1])
        engine.ok("undo")
        assert float(values[cell]) == pytest.approx(after, abs=0.006), cell
    _, _, status = parse_gfx(engine.ok("hexengine-map move-value w"), 9)
    now = float(engine.ok("hexengine-evaluate w").split()[-1])
    assert status.endswith(f"now {now:+.2f}")


# --- connections --------------------------------------------------------------------------------
def test_connections_between_cells_and_edges(engine):
    # 5x5: black c2 (template II to north: c1 d1) and d3 (a bridge from c2: d2 c3), c5
    setup(engine, ["boardsize 5", "play b c2", "play b d3", "play b c5", "play w a3"])
    fulls = parse_vcs(engine.ok("vc-between-cells-full b c2 d3"), 5)
    assert ("black", "c2", "d3", "full", "hsearch", ("d2", "c3"), None) in fulls
    assert all(len(vc[5]) >= 2 for vc in fulls)
    # semi: one move joins d3 to c5
    semis = parse_vcs(engine.ok("vc-between-cells-semi b d3 c5"), 5)
    assert semis and all(vc[3] == "semi" and vc[6] in vc[5] for vc in semis)
    # an edge end is written as the cell twice, the edge in the source field
    fulls = parse_vcs(engine.ok("vc-between-cells-full b c2 north"), 5)
    assert ("black", "c2", "c2", "full", "to-north", ("c1", "d1"), None) in fulls
    assert parse_vcs(engine.ok("vc-between-cells-full b north c2"), 5) == fulls
    assert parse_vcs(engine.ok("vc-between-cells-full w a3 west"), 5) == [
        ("white", "a3", "a3", "full", "to-west", (), None)]
    # every node joined fully to a cell or edge (Benzene's vc-connected-to-full)
    joined = engine.ok("vc-connected-to-full b c2").split()
    assert "d3" in joined and "north" in joined and "c2" not in joined
    assert "c2" in engine.ok("vc-connected-to-full b north").split()
    assert "a3" in engine.ok("vc-connected-to-full w west").split()  # it touches it
    assert "a3" not in engine.ok("vc-connected-to-full w a3").split()  # not itself
    engine.error("vc-connected-to-full b a3")  # a white stone
    engine.error("vc-connected-to-full b west")  # white's edge
    assert "d3" in engine.ok("vc-connected-to-full b c2").split()  # and plays on
    # the menu's edge views (HexGui 0.10 cannot select an edge): one cell, or edge to edge
    to_edges = parse_vcs(engine.ok("hexengine-vc-edges b c2"), 5)
    assert ("black", "c2", "c2", "full", "to-north", ("c1", "d1"), None) in to_edges
    assert {vc[4] for vc in to_edges} <= {"to-north", "to-south"}
    kinds = [vc[3] for vc in to_edges if vc[4] == "to-north"]
    assert kinds == sorted(kinds)  # full ones first
    for vc in parse_vcs(engine.ok("hexengine-vc-edges b"), 5):
        assert vc[4] == "north-south" and vc[1] == vc[2] and vc[1] in vc[5]
    # two stones of one group: joined, nothing to hold
    engine.ok("play b d2")
    assert parse_vcs(engine.ok("vc-between-cells-full b c2 d3"), 5) == [
        ("black", "c2", "d3", "full", "hsearch", (), None)]
    assert engine.ok("vc-between-cells-semi b c2 d3") == ""


def test_edge_to_edge_connection_of_a_won_position(engine):
    # 5x5: black c1 c2 c3 c4 with c5 and b5 empty: a full edge-to-edge connection {b5, c5}
    setup(engine, ["boardsize 5", "play b c1", "play b c2", "play b c3", "play b c4"])
    vcs = parse_vcs(engine.ok("hexengine-vc-edges b"), 5)
    assert ("black", "b5", "b5", "full", "north-south", ("b5", "c5"), None) in vcs


def test_connection_and_try_move_bad_input_is_refused_and_changes_nothing(engine):
    setup(engine, ["boardsize 5", "play b c2", "play w c3"])
    board = engine.ok("showboard")
    for cmd, word in (("vc-between-cells-full b c2", "usage"),  # one cell selected
                      ("vc-between-cells-full b", "usage"),  # none
                      ("vc-between-cells-full b c2 c3", "white stone"),
                      ("vc-between-cells-semi b c2 east", "white's edge"),
                      ("vc-between-cells-full b c2 z9", "off the"),
                      ("vc-between-cells-full b c2 f1", "off the"),
                      ("vc-between-cells-full b c2 C2", "twice"),
                      ("vc-between-cells-full b c2 swap-pieces", "invalid cell"),
                      ("vc-between-cells-full x c2 north", "colour"),
                      ("hexengine-vc-edges b c3", "white stone"),
                      ("hexengine-vc-edges b c2 north", "usage"),
                      ("hexengine-try-move b", "usage"),  # no cell selected
                      ("hexengine-try-move b c3", "occupied (white)"),
                      ("hexengine-try-move w c2", "occupied (black)"),
                      ("hexengine-try-move b e6", "off the"),
                      ("hexengine-try-move b %p", "invalid cell"),
                      ("hexengine-try-move %m a1", "colour"),
                      ("hexengine-map heat b", "unknown map"),
                      ("hexengine-map current", "usage"),
                      ("hexengine-map-values current q", "colour"),
                      ("hexengine-shortest-path b w", "usage")):
        assert word in engine.error(cmd), cmd
    assert engine.ok("showboard") == board


def test_views_refuse_a_finished_game(engine):
    setup(engine, FINISHED)
    board = engine.ok("showboard")
    for cmd in ("hexengine-shortest-path b", "hexengine-shortest-path",
                "hexengine-map current w", "hexengine-map-values two-distance b",
                "hexengine-map move-value w", "hexengine-try-move w c1",
                "vc-between-cells-full b b1 north", "vc-between-cells-semi w a1 west",
                "hexengine-vc-edges w", "hexengine-vc-edges b c1"):
        assert "game is over (black won)" in engine.error(cmd), cmd
    assert engine.ok("showboard") == board
    engine.ok("undo")
    parse_gfx(engine.ok("hexengine-shortest-path b"), 3)  # open again: answered


def test_try_move_reports_the_change_and_keeps_the_board(engine):
    setup(engine, ["boardsize 7", "play b d3", "play w c4"])
    board = engine.ok("showboard")
    stones = stones_of(engine)
    influence, labels, status = parse_gfx(engine.ok("hexengine-try-move b d5"), 7)
    after = dict(stones)
    after[(3, 4)] = "X"
    assert (f"to connect black {distance(stones, 'X', 7)}->{distance(after, 'X', 7)}, white "
            f"{distance(stones, 'O', 7)}->{distance(after, 'O', 7)};") in status
    assert "d5" not in influence and set(labels) == {"d5"}
    engine.ok("play b d5")
    value = float(engine.ok("hexengine-evaluate b").split()[-1])
    engine.ok("undo")
    assert float(labels["d5"]) == pytest.approx(value, abs=0.006)
    assert engine.ok("showboard") == board
    setup(engine, ["play b d1", "play b d2", "play b d4", "play b d6", "play b d7"])
    assert "black wins with d5" in parse_gfx(engine.ok("hexengine-try-move b d5"), 7)[2]


# --- principal variation and scores in HexGui's forms -------------------------------------------
def test_pv_and_scores_follow_the_board(engine):
    setup(engine, ["boardsize 7", "play b d4"])
    assert engine.ok("hexengine-pv") == "" and engine.ok("hexengine-scores") == ""
    move = engine.ok("genmove w")
    info_pv = engine.ok("hexengine-info").split(" pv ")[1].split()
    assert info_pv[0] == move
    stones = stones_of(engine)
    pv = engine.ok("hexengine-pv").split()
    assert pv == info_pv[1:]  # HexGui colours the PV from the colour to move on
    assert all(on_board(c, 7) and coords(c) not in stones for c in pv)
    scores = parse_pairs(engine.ok("hexengine-scores"), 7)
    assert move in scores and all(re.match(r"^([+-]\d+\.\d\d|[WL]\d+)$", v)
                                  for v in scores.values())
    engine.ok("undo")  # back at the searched position: the whole PV
    assert engine.ok("hexengine-pv").split() == info_pv
    engine.ok("play b a1")  # another position: nothing stale
    assert engine.ok("hexengine-pv") == "" and engine.ok("hexengine-scores") == ""


# --- live search graphics -----------------------------------------------------------------------
def run_session(lines, *args, timeout=60) -> str:
    return subprocess.run(engine_command() + ["--quiet", *args], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=timeout).stdout


def split_output(out: str) -> tuple[list[str], list[str]]:
    """(gfx block contents, replies) from raw stdout; every piece ends with one empty line."""
    assert out.endswith("\n\n") and not out.endswith("\n\n\n")
    blocks, replies = [], []
    for piece in out[:-2].split("\n\n"):
        if piece.startswith("gogui-gfx:"):
            first, _, body = piece.partition("\n")
            assert first == "gogui-gfx:" and body.strip()
            blocks.append(body)
        else:
            assert piece[:1] in "=?", piece[:60]
            replies.append(piece)
    return blocks, replies


def check_block(body: str, colour: str, size: int) -> None:
    """``guifx_ab``'s reading of one block."""
    fx = " ".join(body.split())
    assert fx.startswith("ab VAR ")
    var, label, text = fx.index("VAR"), fx.index("LABEL"), fx.index("TEXT")
    assert var < label < text
    words = fx[var + 3:label].split()
    assert words and len(words) % 2 == 0
    for i, (c, cell) in enumerate(zip(words[::2], words[1::2])):
        assert c == "BW"[("BW".index(colour.upper()) + i) % 2] and on_board(cell, size)
    labels = fx[label + 5:text].split()
    assert len(labels) % 2 == 0
    assert all(on_board(c, size) for c in labels[::2])
    assert fx[text + 5:].startswith("depth ")


def test_live_gfx_only_when_switched_on_and_always_framed():
    game = ["boardsize 7", "play b d4"]
    blocks, replies = split_output(run_session(game + ["genmove w"], "--time", "0.5"))
    assert blocks == [] and len(replies) == 3  # off by default: a controller sees HTP only
    commands = game + ["param_hexengine live_gfx 1", "genmove w", "reg_genmove b",
                       "param_hexengine live_gfx 0", "genmove b"]
    out = run_session(commands, "--time", "0.5")
    split_output(out)  # framing
    # walk the output: blocks belong to the next reply's command
    pending, seen = [], {}
    replies = iter(commands)
    for piece in out[:-2].split("\n\n"):
        if piece.startswith("gogui-gfx:"):
            pending.append(piece.partition("\n")[2])
        else:
            assert piece.startswith("="), piece
            seen[next(replies)] = pending
            pending = []
    assert pending == [] and len(seen) == len(commands)
    assert seen["genmove w"] and seen["reg_genmove b"]
    assert all(not blocks for cmd, blocks in seen.items() if "genmove" not in cmd)
    assert seen["genmove b"] == []  # switched off again
    for cmd in ("genmove w", "reg_genmove b"):
        for body in seen[cmd]:
            check_block(body, cmd[-1], 7)


def test_live_gfx_from_the_command_line_without_iterations():
    # --live-gfx; white wins at once (e2 or e3): no iteration runs, one block all the same
    out = run_session(["boardsize 5", "play w a3", "play w b3", "play w c3", "play w d3",
                       "genmove w"], "--live-gfx", "--time", "0.5")
    blocks, replies = split_output(out)
    assert replies[-1] in ("= e2", "= e3") and len(blocks) == 1
    check_block(blocks[0], "w", 5)
    assert blocks[0].split()[2:4] == ["W", replies[-1][2:]]


# --- parameters ---------------------------------------------------------------------------------
def test_param_hexengine_lists_every_command_line_setting_with_its_type(engine):
    listed = {}
    for line in engine.ok("param_hexengine").split("\n"):
        m = re.match(r"^\[(bool|string|list/[^\]]+)\] (\w+) (.*)$", line)
        assert m, line
        listed[m.group(2)] = (m.group(1), m.group(3))
    for param in cli.main.params:
        if param.name in ("help", "version"):
            continue
        assert param.name in listed, f"--{param.name} is not in param_hexengine"
        kind, value = listed[param.name]
        if getattr(param, "is_bool_flag", False) or param.name in ("quiet",):
            assert kind == "bool", param.name
        elif hasattr(param.type, "choices"):
            assert kind == "list/" + "/".join(param.type.choices) or \
                set(kind.split("/")[1:]) == set(param.type.choices), param.name
        else:
            assert kind == "string", param.name
    assert listed["live_gfx"] == ("bool", "0") and listed["log_file"][0] == "string"


def test_protocol_level_parameters_take_effect(engine, tmp_path):
    log = tmp_path / "search.log"
    engine.ok(f"param_hexengine log_file {log}")
    engine.ok("param_hexengine allow_swap 1")
    assert "[bool] allow_swap 1" in engine.ok("param_game")
    engine.ok("boardsize 5")
    engine.ok("play b a1")
    assert "swap-pieces" in engine.ok("all_legal_moves w").split()
    engine.ok("param_hexengine max_time 0.2")
    engine.ok("genmove w")
    assert "depth" in log.read_text()
    engine.ok("param_hexengine quiet 1")
    size = log.stat().st_size
    engine.ok("genmove b")
    assert log.stat().st_size == size
    for cmd, word in (("param_hexengine live_gfx 2", "0 or 1"), ("param_hexengine quiet",
                      "missing value"), ("param_hexengine log_file /no/such/dir/x.log",
                      "cannot open"), ("param_hexengine colour red", "known: ")):
        assert word in engine.error(cmd), cmd
    assert "[string] log_file " + str(log) in engine.ok("param_hexengine")


def test_maps_read_the_wire_setting_before_any_search(engine):
    """``param_hexengine wire`` changes the circuit the views read at once, not only from the
    next ``genmove`` on: HexGui shows a map right after its parameter dialog."""
    setup(engine, ["boardsize 5", "play b b2", "play b c3", "play w c2"])

    def status() -> str:
        return parse_gfx(engine.ok("hexengine-map current b"), 5)[2]

    default = status()
    engine.ok("param_hexengine wire 1")
    weak = status()
    assert weak != default
    engine.ok("param_hexengine wire 50")
    assert status() == default
