"""The engine starts, answers the HexGui attach sequence and plays a legal reply."""


def test_hexgui_attach_sequence_and_reply(engine):
    assert engine.ok("name") == "hexengine"
    assert engine.ok("version")
    assert "param_game" in engine.ok("hexgui-analyze_commands")
    engine.ok("boardsize 11 11")
    engine.ok("clear_board")
    engine.ok("clear_board")
    board = engine.ok("showboard")
    assert "a b c d e f g h i j k" in board and "11" in board
    engine.ok("play b f6")
    move = engine.ok("genmove w")
    assert move != "f6"
    assert move not in engine.ok("all_legal_moves").split()
