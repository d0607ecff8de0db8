"""SGF: the parser and writer, and loadsgf/savesgf over the real protocol."""
import pytest

from hexengine import sgf
from hexengine.board import BLACK, SWAP_PIECES, WHITE, Board
from tests.test_protocol import parse_board

HEXGUI_SETUP = """(;FF[4]AP[HexGui:0.10.GIT]GM[11]SZ[5:8]
AB[a1][c4]AW[b2][e8]PB[alice]PW[bob]
;B[c5]
;W[d5]
;B[c6]
;W[resign])
"""

HEXGUI_SWAP = """(;FF[4]AP[HexGui:0.10.GIT]GM[11]SZ[7]
;B[c4];W[swap-pieces]
;B[e5];W[b6]
(;B[a1];W[g7])
(;B[f2]))
"""


# --- unit --------------------------------------------------------------------------------
def test_parse_hexgui_setup_file():
    game = sgf.parse(HEXGUI_SETUP)
    assert (game.width, game.height) == (5, 8)
    assert game.setup == [(BLACK, "a1"), (BLACK, "c4"), (WHITE, "b2"), (WHITE, "e8")]
    assert game.moves == [(BLACK, "c5"), (WHITE, "d5"), (BLACK, "c6"), (WHITE, "resign")]
    assert game.properties["PB"] == "alice"
    board = game.to_board()
    assert board.stone_count(BLACK) == 4 and board.stone_count(WHITE) == 3
    assert board.colour_at(board.parse_move("c6")) == BLACK


def test_parse_swap_and_main_line_only():
    game = sgf.parse(HEXGUI_SWAP)
    assert game.moves == [(BLACK, "c4"), (WHITE, "swap-pieces"), (BLACK, "e5"),
                          (WHITE, "b6"), (BLACK, "a1"), (WHITE, "g7")]
    board = game.to_board()
    assert board.history[1] == (WHITE, SWAP_PIECES)
    assert board.colour_at(board.parse_move("d3")) == WHITE
    assert board.colour_at(board.parse_move("c4")) is None
    assert board.colour_at(board.parse_move("f2")) is None


def test_to_board_limit():
    game = sgf.parse(HEXGUI_SWAP)
    assert len(game.to_board(limit=0).history) == 0
    board = game.to_board(limit=2)
    assert board.history == [(BLACK, board.parse_move("c4")), (WHITE, SWAP_PIECES)]


@pytest.mark.parametrize("text", ["", "x", "(;", "(;SZ[5]", ";B[a1])", "(;GM[1]SZ[5])",
                                  "(;SZ[a])", "(;SZ[5];B[q9])", "(;SZ[5];B[a1];W[a1])",
                                  "()"])
def test_unreadable(text):
    with pytest.raises(sgf.SgfError):
        game = sgf.parse(text)
        game.to_board()


def test_dumps_and_parse_round_trip():
    board = Board(7, allow_swap=True)
    for name in ("c4", "swap-pieces", "e5", "b6", "a1"):
        board.play(board.parse_move(name))
    text = sgf.board_to_sgf(board, {"PB": "x]y"})
    assert text.startswith("(;FF[4]") and "GM[11]" in text and "SZ[7]" in text
    game = sgf.parse(text)
    assert game.properties["PB"] == "x]y"
    again = game.to_board()
    assert again.stones == board.stones and again.history == board.history
    assert again.to_move == board.to_move


def test_dumps_non_square_and_result():
    board = Board(3, 5)
    for name in ("b1", "b2", "b3", "b4", "b5"):
        board.play(board.parse_move(name), BLACK)
    text = sgf.board_to_sgf(board)
    assert "SZ[3:5]" in text and "RE[B+]" in text
    assert sgf.parse(text).to_board().winner() == BLACK


# --- over the protocol ---------------------------------------------------------------------
def test_savesgf_clear_loadsgf_round_trip(make_engine, tmp_path):
    engine = make_engine("--time", "0.1", "--swap")
    engine.ok("boardsize 7")
    engine.ok("play b c4")
    engine.ok("play w swap-pieces")
    for _ in range(5):
        engine.ok("genmove b")
        engine.ok("genmove w")
    engine.ok(f"play b {engine.ok('all_legal_moves').split()[0]}")  # out of turn
    final = engine.ok("showboard")
    number = int(final.split("move ")[-1].split(",")[0])
    path = tmp_path / "game.sgf"
    engine.ok(f"savesgf {path}")
    text = path.read_text()
    assert "GM[11]" in text and "SZ[7]" in text and "swap-pieces" in text
    engine.ok("clear_board")
    assert parse_board(engine.ok("showboard"))[2] == {}
    engine.ok(f"loadsgf {path}")
    assert engine.ok("showboard") == final
    # undo after loading steps back through the loaded history
    engine.ok("undo")
    assert f"move {number - 1}," in engine.ok("showboard")


def test_loadsgf_move_number(make_engine, tmp_path):
    engine = make_engine("--time", "0.1")
    engine.ok("boardsize 6")
    boards = [engine.ok("showboard")]
    moves = ["c3", "d4", "b5", "e2", "a6", "f1", "c4"]
    for i, move in enumerate(moves):
        engine.ok(f"play {'bw'[i % 2]} {move}")
        boards.append(engine.ok("showboard"))
    path = tmp_path / "numbered.sgf"
    engine.ok(f"savesgf {path}")
    engine.ok("boardsize 9")
    for n in range(1, len(moves) + 2):
        engine.ok(f"loadsgf {path} {n}")  # the position before move n
        assert engine.ok("showboard") == boards[n - 1], n
    engine.ok(f"loadsgf {path} 100")  # past the end: the whole game
    assert engine.ok("showboard") == boards[-1]


def test_loadsgf_hexgui_setup_file(make_engine, tmp_path):
    engine = make_engine("--time", "0.1")
    path = tmp_path / "setup.sgf"
    path.write_text(HEXGUI_SETUP)
    engine.ok(f"loadsgf {path}")
    header, height, stones, _ = parse_board(engine.ok("showboard"))
    assert header == list("abcde") and height == 8
    assert stones == {(0, 0): "X", (2, 3): "X", (1, 1): "O", (4, 7): "O", (2, 4): "X",
                      (3, 4): "O", (2, 5): "X"}
    assert "not over" in engine.error("final_score")  # resign is not a stone
    engine.ok(f"loadsgf {path} 1")  # setup only
    _, _, stones, _ = parse_board(engine.ok("showboard"))
    assert stones == {(0, 0): "X", (2, 3): "X", (1, 1): "O", (4, 7): "O"}
    legal = engine.ok("all_legal_moves").split()
    assert engine.ok("genmove w") in legal


def test_loadsgf_hexgui_swap_file(make_engine, tmp_path):
    engine = make_engine("--time", "0.1")  # swap not enabled: the file's swap still loads
    path = tmp_path / "swap.sgf"
    path.write_text(HEXGUI_SWAP)
    engine.ok(f"loadsgf {path} 3")
    _, _, stones, status = parse_board(engine.ok("showboard"))
    assert stones == {(3, 2): "O"} and "black to move" in status
    engine.ok("undo")
    _, _, stones, status = parse_board(engine.ok("showboard"))
    assert stones == {(2, 3): "X"} and "white to move" in status
    engine.ok("play w swap-pieces")  # the loaded game allows swap
    engine.ok(f"loadsgf {path}")
    _, _, stones, _ = parse_board(engine.ok("showboard"))
    assert stones == {(3, 2): "O", (4, 4): "X", (1, 5): "O", (0, 0): "X", (6, 6): "O"}
    # save and load again: the same position
    before = engine.ok("showboard")
    again = tmp_path / "again.sgf"
    engine.ok(f"savesgf {again}")
    engine.ok("boardsize 3")
    engine.ok(f"loadsgf {again}")
    assert engine.ok("showboard") == before


def test_param_game_after_loading_a_swapped_game_allows_swap(make_engine, tmp_path):
    engine = make_engine("--time", "0.1")  # started without --swap
    assert "[bool] allow_swap 0" in engine.ok("param_game").split("\n")
    path = tmp_path / "swap.sgf"
    path.write_text(HEXGUI_SWAP)
    engine.ok(f"loadsgf {path} 2")  # the position before the swap: the game still has it
    assert "[bool] allow_swap 1" in engine.ok("param_game").split("\n")
    engine.ok("play w swap-pieces")
    engine.ok("clear_board")  # a new game keeps the rule until it is set otherwise
    engine.ok("play b c4")
    engine.ok("play w swap-pieces")
    engine.ok("param_game allow_swap 0")
    engine.ok("clear_board")
    engine.ok("play b c4")
    assert "swap" in engine.error("play w swap-pieces")


SETUP_AE = """(;FF[4]GM[11]SZ[5]AB[a1][c3][e5]AW[b2][d4]
;AE[c3][d4]AW[c3]
;B[a5];W[b5])
"""


def test_parse_ae_removes_setup_stones():
    game = sgf.parse(SETUP_AE)
    assert game.setup == [(BLACK, "a1"), (BLACK, "e5"), (WHITE, "b2"), (WHITE, "c3")]
    assert game.moves == [(BLACK, "a5"), (WHITE, "b5")]
    with pytest.raises(sgf.SgfError, match="AE"):
        sgf.parse("(;FF[4]GM[11]SZ[5];B[c3];W[d4];AE[c3])")


def test_loadsgf_reads_ae_and_undo_stops_at_the_setup(make_engine, tmp_path):
    engine = make_engine("--time", "0.1")
    path = tmp_path / "ae.sgf"
    path.write_text(SETUP_AE)
    engine.ok(f"loadsgf {path}")
    _, _, stones, _ = parse_board(engine.ok("showboard"))
    setup = {(0, 0): "X", (4, 4): "X", (1, 1): "O", (2, 2): "O"}
    assert stones == {**setup, (0, 4): "X", (1, 4): "O"}
    engine.ok("undo")
    engine.ok("undo")
    _, _, stones, _ = parse_board(engine.ok("showboard"))
    assert stones == setup
    before = engine.ok("showboard")
    assert "setup" in engine.error("undo")  # the setup stays
    assert engine.ok("showboard") == before
    engine.ok("play b e1")
    engine.ok("undo")
    assert "setup" in engine.error("undo")
    assert engine.ok("showboard") == before
    engine.ok(f"loadsgf {path} 1")  # setup only: nothing to undo
    assert "setup" in engine.error("undo")
    assert engine.ok("showboard") == before
    engine.ok("clear_board")  # a new game has no setup
    engine.ok("play b c3")
    engine.ok("undo")
    assert "no move" in engine.error("undo")
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;FF[4]GM[11]SZ[5];B[c3];W[d4];AE[c3])")
    assert "AE" in engine.error(f"loadsgf {bad}")


def test_savesgf_of_a_won_game_records_result(engine, tmp_path):
    engine.ok("boardsize 3")
    for row in (1, 2, 3):
        engine.ok(f"play b b{row}")
    path = tmp_path / "won.sgf"
    engine.ok(f"savesgf {path}")
    assert "RE[B+]" in path.read_text()
    engine.ok("clear_board")
    engine.ok(f"loadsgf {path}")
    assert engine.ok("final_score") == "B+"


def test_escapes_round_trip():
    board = Board(3)
    board.play(board.parse_move("b2"))
    text = sgf.board_to_sgf(board, {"GC": "a\\b]c", "PB": "x\\"})
    game = sgf.parse(text)
    assert game.properties["GC"] == "a\\b]c" and game.properties["PB"] == "x\\"


def test_hexgui_reader_aliases():
    """HexGui reads ``swap`` as swap-pieces and Little Golem's two-letter cells (cd = c4)."""
    game = sgf.parse("(;FF[4]GM[11]SZ[13]\n;B[cd];W[swap];B[ga]\n;W[resign])")
    board = game.to_board()
    assert board.history == [(BLACK, board.parse_move("c4")), (WHITE, SWAP_PIECES),
                             (BLACK, board.parse_move("g1"))]
    assert board.colour_at(board.parse_move("d3")) == WHITE


def test_hexgui_line_wrapping():
    """HexGui wraps lines at 72 characters, also between a property name and its values."""
    text = ("(;FF[4]AP[HexGui:0.10]GM[11]SZ[9]AB\n[a1][b2]\n[c3]AW[d4]\n"
            "[e5];B\n[f6]\n;W[g7])")
    game = sgf.parse(text)
    assert game.setup == [(BLACK, "a1"), (BLACK, "b2"), (BLACK, "c3"), (WHITE, "d4"),
                          (WHITE, "e5")]
    assert game.moves == [(BLACK, "f6"), (WHITE, "g7")]
