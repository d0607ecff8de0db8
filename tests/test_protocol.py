"""Acceptance tests of the HTP engine, driven over the real installed ``hexengine``.

HexGui's attach sequence and out-of-turn play, full games to a win, non-square and wide
boards, the swap rule as play and as genmove answers, ``# interrupt``, every kind of bad
input (the engine stays alive and the board is unchanged) and the protocol framing.
"""
import re
import subprocess
import time

import pexpect
import pytest

from tests.htpclient import HtpClient, engine_command
from tests.test_rules import connected

# --- helpers ----------------------------------------------------------------------------
ROW_RE = re.compile(r"^\s*(\d+) \\(.*)\\ (\d+)$")


def parse_board(text: str):
    """showboard text -> (columns, rows, {(col, row): 'X'|'O'}, status line)."""
    lines = [line for line in text.split("\n") if line.strip()]
    header = lines[0].split()
    rows = []
    for line in lines[1:]:
        m = ROW_RE.match(line)
        if m:
            assert m.group(1) == m.group(3)
            assert int(m.group(1)) == len(rows) + 1
            rows.append(m.group(2).split())
    stones = {}
    for r, row in enumerate(rows):
        assert len(row) == len(header), f"row {r + 1} has {len(row)} cells: {row}"
        for c, mark in enumerate(row):
            assert mark in ".XO"
            if mark != ".":
                stones[(c, r)] = mark
    return header, len(rows), stones, lines[-1]


def columns(n):
    out = []
    for i in range(n):
        k, s = i + 1, ""
        while k:
            k, rem = divmod(k - 1, 26)
            s = chr(97 + rem) + s
        out.append(s)
    return out


def cell_name(col, row):
    return f"{columns(col + 1)[-1]}{row + 1}"


def board_winner(text):
    """Independent verdict on a showboard: 'B+', 'W+' or None."""
    header, height, stones, _ = parse_board(text)
    black = {p for p, m in stones.items() if m == "X"}
    white = {p for p, m in stones.items() if m == "O"}
    b = connected(black, 0, len(header), height)
    w = connected(white, 1, len(header), height)
    assert not (b and w)
    return "B+" if b else "W+" if w else None


def run_raw(data: bytes, *args: str, timeout: float = 30):
    """Feed ``data`` to a fresh engine on plain pipes; return (stdout bytes, exit status)."""
    proc = subprocess.run(engine_command() + ["--quiet", *args], input=data,
                          capture_output=True, timeout=timeout)
    return proc.stdout, proc.returncode


def replies(out: bytes):
    """Split raw stdout into replies; every reply must end with exactly one empty line."""
    text = out.decode()
    assert text.endswith("\n\n") and not text.endswith("\n\n\n"), repr(text[-20:])
    blocks = text[:-2].split("\n\n")
    for block in blocks:
        assert block[:1] in ("=", "?"), f"not a reply: {block!r}"
        assert "\n\n" not in block
    return blocks


# --- HexGui ------------------------------------------------------------------------------
def test_hexgui_attach_sequence(engine):
    assert engine.ok("name") == "hexengine"
    assert re.match(r"^\S+$", engine.ok("version"))
    analyze = engine.ok("hexgui-analyze_commands").split("\n")
    assert all(len(line.split("/")) >= 3 for line in analyze), analyze
    for line in analyze:
        assert engine.ok(f"known_command {line.split('/')[2].split()[0]}") == "true"
    engine.ok("boardsize 11 11")
    engine.ok("clear_board")
    engine.ok("clear_board")
    header, height, stones, status = parse_board(engine.ok("showboard"))
    assert header == columns(11) and height == 11 and stones == {}
    assert "black to move" in status


def test_hexgui_out_of_turn_play_and_genmove_of_given_colour(engine):
    engine.ok("boardsize 9 9")
    engine.ok("clear_board")
    # setting up a position: either colour at any time
    for cmd in ("play b e5", "play b c3", "play w a1", "play w a2", "play w a3",
                "play black d4", "play WHITE b1"):
        engine.ok(cmd)
    _, _, stones, status = parse_board(engine.ok("showboard"))
    assert stones == {(4, 4): "X", (2, 2): "X", (0, 0): "O", (0, 1): "O", (0, 2): "O",
                      (3, 3): "X", (1, 0): "O"}
    assert "black to move" in status
    # genmove plays the colour it is given, whoever is "to move"
    for colour, mark in (("w", "O"), ("w", "O"), ("b", "X"), ("b", "X")):
        legal = engine.ok("all_legal_moves").split()
        move = engine.ok(f"genmove {colour}")
        assert move in legal
        _, _, stones2, _ = parse_board(engine.ok("showboard"))
        added = set(stones2) - set(stones)
        assert len(added) == 1 and stones2[added.pop()] == mark
        stones = stones2
    assert len(stones) == 11


def test_hexgui_analyze_commands_all_answer(engine):
    engine.ok("boardsize 7")
    # HexGui replaces %m by the colour to move (b or w) before sending; the solver's
    # commands are left to tests/test_solver.py (on 7×7 they run to solver_time)
    # (and %p by the selected cell, %P by the selected cells: here an empty cell, then
    # black's stone and its edge; tests/test_views.py checks every view's reply)
    commands = [line.split("/")[2].replace("%m", "b").replace("%p", "a1")
                .replace("%P", "d4 north")
                for line in engine.ok("hexgui-analyze_commands").split("\n")
                if "/dfpn-" not in line]
    engine.ok("play b d4")
    for cmd in commands:
        engine.ok(cmd)  # before any search
    move = engine.ok("genmove w")
    for cmd in commands:
        text = engine.ok(cmd)
        assert "\n\n" not in text
    # the PV from the current position on (HexGui's var type: cells, the mover first)
    pv = engine.ok("hexengine-pv").split()
    assert engine.ok("hexengine-info").split(" pv ")[1].split() == [move] + pv


# --- full games ----------------------------------------------------------------------------
@pytest.mark.parametrize("size", [7, 11])
def test_full_game_to_a_win(make_engine, size):
    engine = make_engine("--time", "0.1")
    engine.ok(f"boardsize {size} {size}")
    engine.ok("clear_board")
    assert "not over" in engine.error("final_score")
    played = []
    colour = "b"
    while True:
        legal = engine.ok("all_legal_moves").split()
        move = engine.ok(f"genmove {colour}", timeout=20)
        assert move in legal and move not in played, (move, played)
        played.append(move)
        verdict = board_winner(engine.ok("showboard"))
        ok, score = engine.send("final_score")
        if verdict is None:
            assert not ok, score
        else:
            assert ok and score == verdict
            break
        assert len(played) < size * size
        colour = "w" if colour == "b" else "b"
    winner = "b" if score == "B+" else "w"
    assert winner == colour  # the side that just moved completed the connection
    loser = "w" if winner == "b" else "b"
    status = engine.ok("showboard").split("\n")[-1]
    assert ("black" if winner == "b" else "white") + " has won" in status
    assert engine.ok(f"reg_genmove {loser}") == "resign"
    assert engine.ok(f"genmove {loser}") == "resign"
    assert engine.ok("final_score") == score
    assert f"move {len(played)}," in engine.ok("showboard")  # resign played nothing


# --- board shapes ---------------------------------------------------------------------------
def test_non_square_board_names_and_black_direction(engine):
    engine.ok("boardsize 5 8")
    header, height, stones, _ = parse_board(engine.ok("showboard"))
    assert header == list("abcde") and height == 8
    assert "off" in engine.error("play b f1")
    assert "off" in engine.error("play b a9")
    engine.ok("play w e8")  # the far corner exists
    # black joins row 1 to row 8: a column of seven stones is not yet a win
    for row in range(1, 8):
        engine.ok(f"play b c{row}")
        assert engine.error("final_score")
    engine.ok("play b c8")
    assert engine.ok("final_score") == "B+"
    assert board_winner(engine.ok("showboard")) == "B+"


def test_non_square_board_white_direction(engine):
    engine.ok("boardsize 5 8")
    for col in "abcd":
        engine.ok(f"play w {col}4")
    assert engine.error("final_score")
    engine.ok("play w e4")
    assert engine.ok("final_score") == "W+"
    engine.ok("boardsize 8 5")
    header, height, _, _ = parse_board(engine.ok("showboard"))
    assert header == list("abcdefgh") and height == 5
    for row in range(1, 6):
        engine.ok(f"play b h{row}")
    assert engine.ok("final_score") == "B+"


@pytest.mark.parametrize("size", ["5 8", "8 5", "3 1", "1 4", "13 7"])
def test_non_square_genmove(make_engine, size):
    engine = make_engine("--time", "0.2")
    engine.ok(f"boardsize {size}")
    width, height = map(int, size.split())
    for i in range(width * height):
        legal = engine.ok("all_legal_moves").split()
        move = engine.ok(f"genmove {'bw'[i % 2]}")
        if move == "resign":
            break
        assert move in legal
        if engine.send("final_score")[0]:
            break
    assert engine.ok("final_score") == board_winner(engine.ok("showboard"))


def test_wide_board_double_letter_columns(engine):
    engine.ok("boardsize 28 28")
    engine.ok("play b aa3")
    engine.ok("play w ab1")
    engine.ok("play b AB28")
    header, height, stones, _ = parse_board(engine.ok("showboard"))
    assert header[-2:] == ["aa", "ab"] and len(header) == 28 and height == 28
    assert stones == {(26, 2): "X", (27, 0): "O", (27, 27): "X"}
    assert "off" in engine.error("play w ac1")
    assert "occupied" in engine.error("play w aa3")
    legal = engine.ok("all_legal_moves").split()
    assert "aa1" in legal and "ab2" in legal and "aa3" not in legal and len(legal) == 28 * 28 - 3
    move = engine.ok("genmove w", timeout=20)
    assert move in legal


# --- swap ------------------------------------------------------------------------------------
@pytest.mark.parametrize("enable", ["--swap", "param_game allow_swap 1"])
def test_swap_pieces_as_play(make_engine, enable):
    engine = make_engine("--time", "0.2", *(["--swap"] if enable == "--swap" else []))
    if enable != "--swap":
        engine.ok(enable)
    engine.ok("boardsize 7")
    engine.ok("play b c4")
    before = engine.ok("showboard")
    legal = engine.ok("all_legal_moves").split()
    assert "swap-pieces" in legal and "swap-sides" in legal
    engine.ok("play w swap-pieces")
    _, _, stones, status = parse_board(engine.ok("showboard"))
    assert stones == {(3, 2): "O"}  # c4 (col 2, row 3) mirrored to d3, now white
    assert "black to move" in status
    legal = engine.ok("all_legal_moves").split()
    assert "swap-pieces" not in legal and "swap-sides" not in legal and "c4" in legal
    assert "d3" not in legal
    # undo across the swap restores the exact position, and the swap can be replayed
    engine.ok("undo")
    assert engine.ok("showboard") == before
    engine.ok("play w swap-pieces")
    engine.ok("play b d4")
    engine.ok("undo")
    engine.ok("undo")
    assert engine.ok("showboard") == before


def test_swap_sides_as_play(make_engine):
    engine = make_engine("--time", "0.2", "--swap")
    engine.ok("boardsize 7")
    engine.ok("play b c4")
    before = engine.ok("showboard")
    engine.ok("play white swap-sides")
    after = engine.ok("showboard")
    _, _, stones, status = parse_board(after)
    assert stones == {(2, 3): "X"}
    assert "white to move" in status
    assert "swap" not in engine.ok("all_legal_moves")
    move = engine.ok("genmove w")
    assert move not in ("swap-pieces", "swap-sides", "resign")
    engine.ok("undo")
    assert engine.ok("showboard") == after
    engine.ok("undo")
    assert engine.ok("showboard") == before


def test_genmove_answers_swap_pieces_for_a_central_opening(make_engine):
    engine = make_engine("--time", "0.2", "--swap")
    engine.ok("boardsize 7")
    engine.ok("play b c4")
    before = engine.ok("showboard")
    assert engine.ok("genmove w") == "swap-pieces"
    _, _, stones, status = parse_board(engine.ok("showboard"))
    assert stones == {(3, 2): "O"} and "black to move" in status
    engine.ok("undo")
    assert engine.ok("showboard") == before
    assert engine.ok("reg_genmove w") == "swap-pieces"
    assert engine.ok("showboard") == before
    # the engine's own next move after the swap is an ordinary cell
    engine.ok("play w swap-pieces")
    legal = engine.ok("all_legal_moves").split()
    move = engine.ok("genmove b")
    assert move in legal and move != "d3"


@pytest.mark.parametrize("ordering", ["current", "connected", "graph", "path", "policy",
                                      "auto"])
def test_ordering_parameter_is_listed_set_and_searched_with(make_engine, ordering):
    engine = make_engine("--time", "0.3")
    assert "[list/auto/current/connected/graph/path/policy] ordering auto" in engine.ok(
        "param_hexengine")
    engine.ok(f"param_hexengine ordering {ordering}")
    assert f"ordering {ordering}" in engine.ok("param_hexengine")
    engine.ok("boardsize 7")
    for cmd in ("play b d4", "play w c5", "play b e2"):
        engine.ok(cmd)
    legal = engine.ok("all_legal_moves").split()
    assert engine.ok("genmove w") in legal
    assert "depth" in engine.ok("hexengine-info")


def test_genmove_answers_swap_sides_when_so_configured(make_engine):
    engine = make_engine("--time", "0.2", "--swap")
    engine.ok("boardsize 9")
    engine.ok("param_hexengine swap_style swap-sides")
    assert "swap_style swap-sides" in engine.ok("param_hexengine")
    engine.ok("play b e5")
    before = engine.ok("showboard")
    assert engine.ok("genmove w") == "swap-sides"
    _, _, stones, status = parse_board(engine.ok("showboard"))
    assert stones == {(4, 4): "X"} and "white to move" in status
    engine.ok("undo")
    assert engine.ok("showboard") == before


def test_swap_style_option_and_non_square(make_engine):
    engine = make_engine("--time", "0.2", "--swap", "--swap-style", "swap-sides")
    engine.ok("boardsize 9 7")
    engine.ok("play b e4")
    assert engine.ok("genmove w") == "swap-sides"
    engine.ok("param_hexengine swap_style swap-pieces")
    engine.ok("undo")
    # swap-pieces is impossible on a non-square board: the engine plays a cell instead
    assert "square" in engine.error("play w swap-pieces")
    assert "swap-pieces" not in engine.ok("all_legal_moves").split()
    move = engine.ok("genmove w")
    assert move not in ("swap-pieces", "swap-sides")


def test_no_swap_for_an_edge_opening_or_when_not_allowed(make_engine):
    engine = make_engine("--time", "0.2", "--swap")
    engine.ok("boardsize 7")
    engine.ok("play b a1")
    assert engine.ok("genmove w") not in ("swap-pieces", "swap-sides")
    plain = make_engine("--time", "0.2")
    plain.ok("boardsize 7")
    plain.ok("play b d4")
    assert "swap" not in plain.ok("all_legal_moves")
    assert plain.ok("genmove w") not in ("swap-pieces", "swap-sides")


@pytest.mark.parametrize("swap_flag,setup,cmd,words", [
    (False, ["b c4"], "play w swap-pieces", ["swap", "allow"]),
    (False, ["b c4"], "play w swap-sides", ["swap", "allow"]),
    (True, [], "play w swap-pieces", ["second move"]),
    (True, [], "play b swap-sides", ["second move"]),
    (True, ["b c4", "w d4"], "play b swap-pieces", ["second move"]),
    (True, ["b c4", "w swap-pieces"], "play b swap-sides", ["second move"]),
    (True, ["b c4"], "play b swap-pieces", ["opened"]),
])
def test_swap_rejected(make_engine, swap_flag, setup, cmd, words):
    engine = make_engine("--time", "0.2", *(["--swap"] if swap_flag else []))
    engine.ok("boardsize 7")
    for move in setup:
        engine.ok(f"play {move}")
    before = engine.ok("showboard")
    message = engine.error(cmd)
    for word in words:
        assert word in message, message
    assert engine.ok("showboard") == before


# --- interrupt ----------------------------------------------------------------------------
def test_interrupt_during_long_genmove(make_engine):
    engine = make_engine("--time", "60")
    engine.ok("boardsize 13 13")
    for cmd in ("play b g7", "play w f8", "play b e9"):
        engine.ok(cmd)
    legal = engine.ok("all_legal_moves").split()
    started = time.monotonic()
    engine.write("genmove w\n")
    time.sleep(1.0)
    engine.write("# interrupt\n")
    interrupted = time.monotonic()
    ok, move, _ = engine.read_reply(timeout=10)
    answered = time.monotonic()
    assert ok and move in legal, move
    assert answered - interrupted < 1.0, f"answered {answered - interrupted:.2f}s after interrupt"
    assert answered - started >= 0.9, "genmove ended before the interrupt: nothing tested"
    # no reply for the interrupt line itself: the next reply belongs to the next command
    engine.write("name\n")
    ok, text, _ = engine.read_reply(timeout=5)
    assert ok and text == "hexengine"
    _, _, stones, _ = parse_board(engine.ok("showboard"))
    assert len(stones) == 4
    # an interrupt with nothing running is ignored as well
    engine.write("# interrupt\n7 protocol_version\n")
    assert engine.read_reply(timeout=5) == (True, "2", "7")


def test_interrupt_reaches_genmove_with_commands_queued_behind_it(make_engine):
    engine = make_engine("--time", "60")
    engine.ok("boardsize 13 13")
    for cmd in ("play b g7", "play w f8", "play b e9"):
        engine.ok(cmd)
    legal = engine.ok("all_legal_moves").split()
    engine.write("21 reg_genmove w\n22 name\n")
    time.sleep(1.0)
    engine.write("# interrupt\n")
    interrupted = time.monotonic()
    ok, move, cmd_id = engine.read_reply(timeout=10)
    assert time.monotonic() - interrupted < 1.0
    assert ok and cmd_id == "21" and move in legal
    assert engine.read_reply(timeout=5) == (True, "hexengine", "22")
    assert "move 3," in engine.ok("showboard")  # reg_genmove played nothing


# --- bad input ------------------------------------------------------------------------------
BAD_COMMANDS = [
    ("foo", ["unknown", "foo"]),
    ("genmove_black", ["unknown"]),
    ("PLAY b a1", ["unknown"]),
    ("play", ["arguments", "play"]),
    ("play b", ["arguments"]),
    ("play b a1 a2", ["arguments"]),
    ("play x a1", ["colour", "x"]),
    ("play bl a1", ["colour"]),
    ("play b z9", ["z9", "off"]),
    ("play b a8", ["a8", "off"]),
    ("play b a0", ["a0"]),
    ("play b 1a", ["1a"]),
    ("play b aa", ["aa"]),
    ("play b a1a", ["a1a"]),
    ("play b d4", ["occupied"]),
    ("play w d4", ["occupied"]),
    ("play b resign", ["resign"]),
    ("play b pass", ["pass"]),
    ("genmove", ["arguments"]),
    ("genmove b w", ["arguments"]),
    ("genmove y", ["colour"]),
    ("reg_genmove", ["arguments"]),
    ("reg_genmove 1", ["colour"]),
    ("boardsize", ["arguments"]),
    ("boardsize 1 2 3", ["arguments"]),
    ("boardsize 0", ["size"]),
    ("boardsize 0 5", ["size"]),
    ("boardsize 5 0", ["size"]),
    ("boardsize -3", ["size"]),
    ("boardsize 1000", ["size"]),
    ("boardsize 1000 1000", ["size"]),
    ("boardsize x", ["size", "x"]),
    ("boardsize 7 y", ["size"]),
    ("boardsize 7.5", ["size"]),
    ("known_command", ["arguments"]),
    ("known_command a b", ["arguments"]),
    ("name extra", ["arguments"]),
    ("showboard extra", ["arguments"]),
    ("clear_board now", ["arguments"]),
    ("undo 2", ["arguments"]),
    ("final_score", ["not over"]),
    ("all_legal_moves q", ["colour"]),
    ("loadsgf", ["arguments"]),
    ("loadsgf /nonexistent/game.sgf", ["/nonexistent/game.sgf"]),
    ("loadsgf /tmp", ["/tmp"]),
    ("loadsgf /nonexistent/game.sgf x", ["move number"]),
    ("savesgf", ["arguments"]),
    ("savesgf /nonexistent/dir/game.sgf", ["/nonexistent/dir/game.sgf"]),
    ("time_left", ["arguments"]),
    ("time_left b", ["arguments"]),
    ("time_left z 10", ["colour"]),
    ("time_left b abc", ["abc"]),
    ("time_left b -5", ["-5"]),
    ("time_left b nan", ["nan"]),
    ("time_left b inf", ["inf"]),
    ("time_left b 10 x", ["x"]),
    ("time_left b 10 -1", ["-1"]),
    ("time_left b 10 1 1", ["arguments"]),
    ("time_settings 1 2", ["arguments"]),
    ("time_settings a 0 0", ["a"]),
    ("time_settings 10 -1 0", ["-1"]),
    ("time_settings 10 0 x", ["x"]),
    ("param_game allow_swap", ["allow_swap"]),
    ("param_game allow_swap 2", ["allow_swap"]),
    ("param_game allow_swap maybe", ["allow_swap"]),
    ("param_game game_time -1", ["game_time"]),
    ("param_game game_time x", ["game_time"]),
    ("param_game bogus 1", ["bogus"]),
    ("param_game a b c", ["arguments"]),
    ("param_hexengine max_time", ["max_time"]),
    ("param_hexengine max_time 0", ["max_time"]),
    ("param_hexengine max_time -2", ["max_time"]),
    ("param_hexengine max_time abc", ["max_time"]),
    ("param_hexengine max_time nan", ["max_time"]),
    ("param_hexengine max_depth 0", ["max_depth"]),
    ("param_hexengine max_depth x", ["max_depth"]),
    ("param_hexengine seed x", ["seed"]),
    ("param_hexengine evaluation nope", ["evaluation"]),
    ("param_hexengine algorithm nope", ["algorithm"]),
    ("param_hexengine randomize 2", ["randomize"]),
    ("param_hexengine ordering sideways", ["ordering"]),
    ("param_hexengine root_width -1", ["root_width"]),
    ("param_hexengine root_width wide", ["root_width"]),
    ("param_hexengine quiescence 2", ["quiescence"]),
    ("param_hexengine node_connections yes", ["node_connections"]),
    ("param_hexengine root_links 2", ["root_links"]),
    ("param_hexengine wire -1", ["wire"]),
    ("param_hexengine wire strong", ["wire"]),
    ("param_hexengine tempo -0.5", ["tempo"]),
    ("param_hexengine tempo 13", ["tempo"]),
    ("param_hexengine tempo half", ["tempo"]),
    ("param_hexengine solver_from -1", ["solver_from"]),
    ("param_hexengine solver_from many", ["solver_from"]),
    ("param_hexengine wide_plies -1", ["wide_plies"]),
    ("param_hexengine wide_plies 1.5", ["wide_plies"]),
    ("param_hexengine solver_share 1.5", ["solver_share"]),
    ("param_hexengine solver_share -0.1", ["solver_share"]),
    ("param_hexengine solver_share half", ["solver_share"]),
    ("param_hexengine ply_widths 10,x", ["ply_widths"]),
    ("param_hexengine ply_widths 10,-2", ["ply_widths"]),
    ("param_hexengine swap_style sideways", ["swap_style"]),
    ("param_hexengine bogus 1", ["bogus"]),
    ("hexengine-evaluate q", ["colour"]),
    ("vc-get-mustplay", ["arguments"]),
    ("vc-get-mustplay q", ["colour"]),
    ("vc-get-mustplay b w", ["arguments"]),
    ("hexengine-ready soon", ["soon"]),
    ("hexengine-ready -1", ["-1"]),
    ("hexengine-ready 1 2", ["arguments"]),
]


def test_every_bad_input_is_refused_and_changes_nothing(make_engine, tmp_path):
    engine = make_engine("--time", "0.2")
    engine.ok("boardsize 7")
    for cmd in ("play b d4", "play w c5", "play b e2"):
        engine.ok(cmd)
    board = engine.ok("showboard")
    legal = engine.ok("all_legal_moves")
    params = engine.ok("param_hexengine")
    game_params = engine.ok("param_game")
    problems = []
    for cmd, words in BAD_COMMANDS:
        ok, message = engine.send(cmd)
        if ok or not all(word.lower() in message.lower() for word in words):
            problems.append(f"{cmd!r} -> {'=' if ok else '?'} {message!r} (wanted {words})")
        assert engine.ok("showboard") == board, f"{cmd!r} changed the board"
    assert not problems, "\n".join(problems)
    assert engine.ok("all_legal_moves") == legal
    assert engine.ok("param_hexengine") == params
    assert engine.ok("param_game") == game_params
    assert engine.proc.isalive()
    # and the game goes on normally
    engine.ok("play w a1")
    assert engine.ok("genmove b") in legal.split()


def test_bad_sgf_files_are_refused(make_engine, tmp_path):
    engine = make_engine("--time", "0.2")
    engine.ok("boardsize 5")
    engine.ok("play b c3")
    board = engine.ok("showboard")
    files = {
        "garbage.sgf": "this is not sgf",
        "empty.sgf": "",
        "unbalanced.sgf": "(;FF[4]GM[11]SZ[5];B[a1]",
        "chess.sgf": "(;FF[4]GM[3]SZ[8];B[a1])",
        "size.sgf": "(;FF[4]GM[11]SZ[0])",
        "huge.sgf": "(;FF[4]GM[11]SZ[1000])",
        "badsize.sgf": "(;FF[4]GM[11]SZ[big])",
        "offboard.sgf": "(;FF[4]GM[11]SZ[5];B[f6])",
        "occupied.sgf": "(;FF[4]GM[11]SZ[5];B[a1];W[a1])",
        "badmove.sgf": "(;FF[4]GM[11]SZ[5];B[xyz])",
        "badswap.sgf": "(;FF[4]GM[11]SZ[5];B[a1];W[b2];B[swap-pieces])",
    }
    (tmp_path / "binary.sgf").write_bytes(b"\xff\xfe\x00(\x81;")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    for name in list(files) + ["binary.sgf", "missing.sgf"]:
        message = engine.error(f"loadsgf {tmp_path / name}")
        assert name in message, message
        assert engine.ok("showboard") == board, f"loadsgf {name} changed the board"
    for number in ("0", "-1", "x"):
        (tmp_path / "ok.sgf").write_text("(;FF[4]GM[11]SZ[5];B[a1])")
        assert "move number" in engine.error(f"loadsgf {tmp_path / 'ok.sgf'} {number}")
        assert engine.ok("showboard") == board


def test_undo_with_no_history(engine):
    engine.ok("boardsize 5")
    board = engine.ok("showboard")
    assert "undo" in engine.error("undo")
    assert engine.ok("showboard") == board
    engine.ok("play b a1")
    engine.ok("undo")
    assert engine.ok("showboard") == board
    assert "undo" in engine.error("undo")


def test_undo_with_logs_on_stderr():
    """Started with neither --log nor --quiet (logs on stderr, as HexGui starts it), undo
    still takes the move back."""
    script = "showboard\nplay b a1\nundo\nshowboard\nquit\n"  # no boardsize first
    done = subprocess.run(engine_command(), input=script, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    replies = done.stdout.split("\n\n")
    assert [r[:1] for r in replies[:5]] == ["="] * 5, done.stdout
    assert replies[0] == replies[3]  # the board before the move and after its undo


def test_version_option():
    done = subprocess.run(engine_command() + ["--version"], capture_output=True, text=True,
                          timeout=60)
    import hexengine
    assert done.returncode == 0
    assert done.stdout.strip() == f"hexengine {hexengine.__version__}"


def test_genmove_on_a_decided_or_full_board(engine):
    engine.ok("boardsize 2")
    for cmd in ("play b a1", "play b a2", "play w b1", "play w b2"):
        engine.ok(cmd)
    assert engine.ok("final_score") == "B+"
    board = engine.ok("showboard")
    assert engine.ok("genmove w") == "resign"
    assert engine.error("genmove b")  # full board, already won: nothing to play
    assert engine.ok("showboard") == board
    assert engine.ok("all_legal_moves") == ""


# --- framing ---------------------------------------------------------------------------------
def test_ids_comments_blank_lines_and_spacing(engine):
    engine.write("12 name\n")
    assert engine.read_reply() == (True, "hexengine", "12")
    engine.write("13 no_such_command\n")
    ok, text, cmd_id = engine.read_reply()
    assert (ok, cmd_id) == (False, "13") and "no_such_command" in text
    engine.write("# a comment line\n\n   \n\t\n14 boardsize\t5   5 # trailing comment\n")
    assert engine.read_reply() == (True, "", "14")
    engine.write("  play \t b\t\tc3  \n")
    assert engine.read_reply() == (True, "", "")
    engine.write("0 showboard\n")
    ok, text, cmd_id = engine.read_reply()
    assert ok and cmd_id == "0" and parse_board(text)[2] == {(2, 2): "X"}
    engine.write("15\n")
    ok, _, cmd_id = engine.read_reply()
    assert not ok and cmd_id == "15"


def test_command_ids_are_ascii_digits_only():
    # '²' (superscript two) and '٣' (Arabic-Indic three) are digits to Python, not to HTP:
    # a line starting with them is an unknown command, answered without an id
    out, status = run_raw("² name\n²name\n٣ name\n²\n7 name\n".encode())
    assert status == 0
    assert replies(out) == ["? unknown command: ²", "? unknown command: ²name",
                            "? unknown command: ٣", "? unknown command: ²", "=7 hexengine"]


def test_a_reply_starting_with_a_new_line_has_no_space_after_the_sign():
    out, status = run_raw(b"boardsize 3\nshowboard\n5 showboard\nname\n")
    assert status == 0
    blocks = replies(out)
    assert blocks[1].startswith("=\n") and blocks[2].startswith("=5\n")
    assert parse_board(blocks[1][1:])[1] == 3 and blocks[1] == blocks[2].replace("=5", "=")
    assert blocks[3] == "= hexengine"  # a one-line reply keeps its space
    assert not any(line.endswith(" ") for block in blocks for line in block.split("\n"))


def test_list_commands_matches_known_command(engine):
    listed = engine.ok("list_commands").split("\n")
    assert len(listed) == len(set(listed))
    required = {"protocol_version", "name", "version", "known_command", "list_commands",
                "quit", "boardsize", "clear_board", "play", "genmove", "reg_genmove", "undo",
                "showboard", "final_score", "all_legal_moves", "loadsgf", "savesgf",
                "time_left", "time_settings", "param_game", "param_hexengine",
                "hexgui-analyze_commands"}
    assert required <= set(listed), required - set(listed)
    for name in listed:
        assert engine.ok(f"known_command {name}") == "true", name
    for name in ("foo", "PLAY", "play_move", "interrupt", "=", "1"):
        assert engine.ok(f"known_command {name}") == "false", name
    assert engine.ok("protocol_version") == "2"


def test_param_lists_in_hexgui_form(engine):
    for cmd in ("param_hexengine", "param_game"):
        lines = engine.ok(cmd).split("\n")
        for line in lines:
            assert re.match(r"^\[(bool|string|list/[^\]]+)\] \S+ ?\S*$", line), line
    names = {line.split()[1] for line in engine.ok("param_hexengine").split("\n")}
    assert {"max_time", "max_depth", "evaluation", "seed", "swap_style"} <= names
    engine.ok("param_hexengine max_time 0.5")
    engine.ok("param_game allow_swap 1")
    assert "[bool] allow_swap 1" in engine.ok("param_game").split("\n")
    assert "[string] max_time 0.5" in engine.ok("param_hexengine").split("\n")


def test_raw_bytes_crlf_and_no_empty_line_inside_replies():
    script = (b"1 name\r\n"
              b"\r\n"
              b"# comment\r\n"
              b"2\tboardsize \t 5   3\t\r\n"
              b"3 play b b2\r\n"
              b"4 showboard\r\n"
              b"list_commands\r\n"
              b"param_hexengine\r\n"
              b"param_game\r\n"
              b"hexgui-analyze_commands\r\n"
              b"5 play w\r\n"
              b"6 play w e3\r\n"
              b"7 all_legal_moves\r\n"
              b"8 bogus\r\n"
              b"9 play b \x01c1\r\n"
              b"10 showboard")  # no final newline, then EOF
    out, status = run_raw(script)
    assert status == 0
    blocks = replies(out)
    assert len(blocks) == 14, blocks
    assert blocks[0] == "=1 hexengine"
    assert blocks[1] == "=2" and blocks[2] == "=3"
    assert blocks[3].startswith("=4")
    header, height, stones, _ = parse_board(blocks[3][2:])
    assert header == list("abcde") and height == 3 and stones == {(1, 1): "X"}
    for block in blocks[3:8]:
        assert block.startswith("=") and len(block.split("\n")) > 1
    assert blocks[8].startswith("?5 ") and "arguments" in blocks[8]
    assert blocks[9] == "=6"
    assert blocks[10].startswith("=7 ") and "b2" not in blocks[10].split()
    assert blocks[11].startswith("?8 ") and "bogus" in blocks[11]
    assert blocks[12] == "=9"
    assert parse_board(blocks[13][3:])[2] == {(1, 1): "X", (4, 2): "O", (2, 0): "X"}
    assert "\r" not in out.decode()


def test_stdout_holds_only_replies_even_with_search_logs():
    out, status = subprocess.run(
        engine_command() + ["--time", "0.2"],
        input=b"boardsize 5\ngenmove b\ngenmove w\nshowboard\n", capture_output=True,
        timeout=30).stdout, 0
    blocks = replies(out)
    assert len(blocks) == 4


def test_eof_exits_with_status_0(engine):
    engine.ok("boardsize 5")
    engine.ok("play b c3")
    assert engine.close() == 0


def test_eof_during_genmove_still_answers():
    out, status = run_raw(b"boardsize 7\nplay b d4\ngenmove w\n", "--time", "0.5")
    assert status == 0
    blocks = replies(out)
    assert len(blocks) == 3 and re.match(r"^= [a-g][1-7]$", blocks[2])


@pytest.mark.parametrize("line,reply", [("quit", "="), ("9 quit", "=9")])
def test_quit_exits_with_status_0(line, reply):
    client = HtpClient("--time", "1")
    client.ok("name")
    client.write(line + "\n")
    ok, text, cmd_id = client.read_reply(timeout=5)
    assert ok and text == "" and ("=" + cmd_id) == reply
    client.proc.expect(pexpect.EOF, timeout=5)
    assert client.close() == 0


def test_quit_over_pipes_ignores_the_rest():
    out, status = run_raw(b"1 name\n2 quit\n3 name\n")
    assert status == 0
    assert replies(out) == ["=1 hexengine", "=2"]


def test_python_dash_m_runs_the_same_engine():
    import sys
    proc = subprocess.run([sys.executable, "-m", "hexengine", "--quiet"],
                          input=b"name\nprotocol_version\n", capture_output=True, timeout=30)
    assert proc.returncode == 0
    assert replies(proc.stdout) == ["= hexengine", "= 2"]


def test_ready_waits_for_the_compiled_kernels(make_engine):
    """``hexengine-ready`` answers once every compiled kernel has loaded (as UCI's isready),
    naming each with its state; a zero wait answers at once with the states as they are."""
    engine = make_engine()
    now = dict(pairs(engine.ok("hexengine-ready 0").split()))
    assert set(now) >= {"circuit", "hsearch", "vc_graph", "fillin"}
    assert set(now.values()) <= {"compiled", "python", "loading"}
    states = dict(pairs(engine.ok("hexengine-ready").split()))
    assert states.keys() == now.keys()
    assert set(states.values()) == {"compiled"}  # the suite compiles them before it starts


def pairs(words):
    return zip(words[::2], words[1::2])
