"""The solver on two processes (``hexengine.solver.parallel``): the same verdicts as one
process and as exhaustive play, proofs that hold, the engine's table fed with what the
workers proved, stops honoured, and ``param_hexengine threads`` over the protocol."""
from __future__ import annotations

import multiprocessing
import os
import random
import threading
import time

import pytest

from hexengine import kernels
from hexengine.board import BLACK, WHITE, Board
from hexengine.geometry import geometry
from hexengine.player import Player, not_losing
from hexengine.settings import Settings
from hexengine.solver import Solver, knowledge_by_name, parallel
from hexengine.solver.dfpn import BusyMarks
from hexengine.solver.knowledge import INF

from .test_solver import connected, exhaustive

OPENINGS_6X6 = os.path.join(os.path.dirname(os.path.dirname(__file__)), "scripts",
                            "positions", "6x6-openings.txt")


def published_6x6() -> dict[str, str]:
    """Opening cell -> winner, from the committed file of published results."""
    winners = {}
    with open(OPENINGS_6X6) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 5 and parts[0] == "6" and parts[3] == "=":
                winners[parts[1]] = parts[4]
    assert len(winners) == 36
    return winners


@pytest.fixture
def forking(monkeypatch):
    """Workers forked for every solve here (no lone first try, which settles these small
    positions by itself); checks that they were, and that none is left over."""
    kernels.start(wait=True)  # (workers are forked only once the kernels are loaded)
    monkeypatch.setattr(parallel, "SERIAL_FIRST", 0.0)
    runs = []
    real = parallel._run

    def counted(*args):
        runs.append(args[4])  # the workers
        return real(*args)
    monkeypatch.setattr(parallel, "_run", counted)
    yield runs
    assert runs, "no solve went to the workers"
    assert multiprocessing.active_children() == []


def test_a_child_another_worker_is_inside_counts_as_harder():
    """Busy marks steer a worker into the next child; never into one at or above the
    threshold (the search must move on), and the threshold passed down lets it move."""
    rows = memoryview(BusyMarks.shared(2)).cast("Q")
    mine, other = BusyMarks(rows, 0, 2), BusyMarks(rows, 1, 2)
    keys = [0x1234_5678_9ABC_DEF1, 0x0FED_CBA9_8765_4321, 0x1357_9BDF_0246_8ACE]
    moves = [3, 7, 11]
    cpn, cdn = [5, 5, 5], [8, 9, 20]  # child 0 the most promising, then 1
    marked = other.enter(keys[0])
    assert (mine.inside(keys[0]), mine.inside(keys[1]), other.inside(keys[0])) == (1, 0, 0)
    assert BusyMarks.PENALTY == 0.25
    best, second = mine.elsewhere(3, keys, cpn, cdn, moves, -1, thpn=100)
    assert best == 1 and second == 10  # child 0 counts 8 x 1.25; the next is child 1 (9)
    assert cdn[best] < min(100, int(second * 1.25) + 1)
    best, _ = mine.elsewhere(3, keys, [5, 5, 5], [8, 11, 20], moves, -1, thpn=100)
    assert best == 0  # child 1 (11) is not nearly as promising as the marked one (10)
    best, _ = mine.elsewhere(3, keys, cpn, cdn, moves, -1, thpn=9)
    assert best == 0  # child 1 is not below the threshold: back to the marked one
    best, second = mine.elsewhere(3, keys, cpn, cdn, moves, ~(1 << 7), thpn=100)
    assert (best, second) == (0, 20)  # child 1's move is pruned: child 0 (10) before 2 (20)
    # where the node looks lost for its mover the mark weighs LOST_PENALTY: the marked
    # child counts 8 x 5 = 40, so a sibling of 11 is taken and one of 41 is not
    assert BusyMarks.LOST_PENALTY == 4.0
    best, _ = mine.elsewhere(3, keys, [5, 5, 5], [8, 11, 20], moves, -1, 100, lost=True)
    assert best == 1
    best, _ = mine.elsewhere(3, keys, [5, 5, 5], [8, 41, 50], moves, -1, 100, lost=True)
    assert best == 0
    other.leave(marked)
    assert mine.inside(keys[0]) == 0


def test_traded_entries_never_undo_a_proof_or_more_work():
    solver = Solver(knowledge_by_name("auto"))
    solver.tt = {1: (0, INF, 6, 2, 3), 2: (4, 5, 0, 1, 50), 3: (4, 5, 0, 1, 2)}
    solver.merge({1: (7, 8, 0, 1, 99), 2: (9, 9, 0, 1, 10), 3: (9, 9, 0, 1, 10),
                  4: (2, 2, 0, 1, 1), 5: (INF, 0, 12, 4, 1)})
    assert solver.tt[1] == (0, INF, 6, 2, 3)      # a proof stays
    assert solver.tt[2] == (4, 5, 0, 1, 50)       # so does an entry of more work
    assert solver.tt[3] == (9, 9, 0, 1, 10)       # one of less work gives way
    assert solver.tt[4] == (2, 2, 0, 1, 1) and solver.tt[5] == (INF, 0, 12, 4, 1)
    solver.merge({3: (INF, 0, 12, 4, 1)})
    assert solver.tt[3] == (INF, 0, 12, 4, 1)     # a proof always comes in


def test_two_processes_agree_with_exhaustive_search(forking):
    geo = geometry(4, 4)
    wins = exhaustive(geo)
    for cell in geo.cells:
        solver = Solver(knowledge_by_name("auto"))
        stones = [1 << cell, 0]
        result = parallel.solve(solver, geo, stones, WHITE, threads=2)
        assert result.solved
        assert (result.winner == WHITE) == wins(stones[0], 0, WHITE), geo.name(cell)
        if result.winner == WHITE:
            child = [stones[0], 1 << result.move]
            assert connected(geo, child, WHITE) or not wins(child[0], child[1], BLACK)


def test_proofs_of_two_processes_hold_whatever_fills_the_other_cells(forking):
    """A proof set names every cell the verdict rests on: fill the rest at random, in
    either colour, and exhaustive play must still give the same winner."""
    geo = geometry(4, 4)
    wins = exhaustive(geo)
    rng = random.Random(5)
    for cell in geo.cells:
        solver = Solver(knowledge_by_name("auto"))
        stones = [1 << cell, 0]
        result = parallel.solve(solver, geo, stones, WHITE, threads=2)
        free = geo.mask & ~stones[0] & ~result.proof
        for _ in range(5):
            filled = list(stones)
            for m in geo.iter_bits(free):
                if rng.random() < 0.5:
                    filled[rng.randrange(2)] |= 1 << m
            if connected(geo, filled, BLACK) or connected(geo, filled, WHITE):
                continue
            assert wins(filled[0], filled[1], WHITE) == (result.winner == WHITE)


def test_5x5_openings_on_two_processes_feed_the_engines_table(forking):
    geo = geometry(5, 5)
    solver = Solver(knowledge_by_name("auto"))
    black = set()
    for cell in geo.cells:
        result = parallel.solve(solver, geo, [1 << cell, 0], WHITE, threads=2)
        assert result.solved
        if result.winner == BLACK:
            black.add(geo.name(cell))
        # what the workers proved is now in the engine's own table
        again = solver.solve(geo, [1 << cell, 0], WHITE, 0.0)
        assert again.winner == result.winner
    assert len(black) == 13


def test_the_nodes_of_a_worker_stopped_by_the_others_proof_count(forking, monkeypatch):
    """A worker ended because another decided the root reports its nodes as it goes, so
    the solve's node count holds the work of both."""
    seen = []
    real = parallel._combine

    def combine(colour, answers):
        seen.append(list(answers))
        return real(colour, answers)
    monkeypatch.setattr(parallel, "_combine", combine)
    geo = geometry(7, 7)
    result = parallel.solve(Solver(knowledge_by_name("auto")), geo, [1 << geo.parse("c2"), 0],
                            WHITE, 60, threads=2)
    assert result.winner == BLACK
    answers = seen[-1]
    assert all(a is not None and a[3] > 0 for a in answers), answers
    assert result.nodes >= sum(a[3] for a in answers)


def test_a_stop_or_the_time_limit_ends_the_workers(forking):
    geo = geometry(9, 9)
    solver = Solver(knowledge_by_name("auto"))
    started = time.monotonic()
    result = parallel.solve(solver, geo, [1 << geo.parse("e5"), 0], WHITE, 0.5, threads=2)
    assert time.monotonic() - started < 5
    assert result.winner is None
    stop = threading.Event()
    threading.Timer(0.5, stop.set).start()
    started = time.monotonic()
    result = parallel.solve(solver, geo, [1 << geo.parse("e5"), 0], WHITE, None, stop,
                            threads=2)
    assert time.monotonic() - started < 5
    assert result.winner is None


def test_a_worker_ends_when_its_engine_dies():
    """Killed without a word, an engine leaves no worker solving on."""
    code = ("import os, signal, threading\n"
            "from hexengine import kernels\n"
            "from hexengine.geometry import geometry\n"
            "from hexengine.solver import Solver, knowledge_by_name, parallel\n"
            "kernels.start(wait=True)\n"
            "parallel.SERIAL_FIRST = 0.0\n"
            "real = parallel._run\n"
            "def run(*args):\n"
            "    threading.Timer(1.0, os.kill, (os.getpid(), signal.SIGKILL)).start()\n"
            "    return real(*args)\n"
            "parallel._run = run\n"
            "geo = geometry(9, 9)\n"
            "parallel.solve(Solver(knowledge_by_name('auto')), geo, [1 << geo.parse('e5'), 0],"
            " 1, None, threads=2)\n")
    import subprocess
    import sys
    engine = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    try:
        engine.wait(60)
        # a worker looks for its engine every 0.1 s, between nodes (a 9x9 node: up to ~1 s)
        deadline = time.monotonic() + 15
        while True:
            left = subprocess.run(["pgrep", "-s", str(engine.pid)], capture_output=True,
                                  text=True).stdout.split()
            if not left or time.monotonic() > deadline:
                break
            time.sleep(0.2)
    finally:  # whatever happened, nothing of the session outlives the test
        subprocess.run(["pkill", "-9", "-s", str(engine.pid)])
    assert left == [], "workers outlived their engine"


def test_threads_over_the_protocol(make_engine):
    engine = make_engine("--threads", "2", "--solver-time", "60")
    assert "threads 2" in engine.ok("param_hexengine")
    engine.ok("boardsize 6")
    winners = published_6x6()
    for cell in ("b3", "f5", "a1", "c3"):
        engine.ok("clear_board")
        engine.ok(f"play b {cell}")
        engine.ok("dfpn-clear-tt")
        assert engine.ok("dfpn-solve-state white", timeout=60) == winners[cell], cell
    assert engine.error("param_hexengine threads 0")
    assert "threads 2" in engine.ok("param_hexengine")


def test_solve_script_pairs_one_process_with_several():
    """``scripts/solve.py --threads 2 --paired``: every 4×4 opening solved both ways, the
    verdicts the known ones, then both totals and their ratio; refused with one thread."""
    import subprocess
    import sys
    script = os.path.join(os.path.dirname(os.path.dirname(__file__)), "scripts", "solve.py")
    run = subprocess.run([sys.executable, script, "--size", "4", "--threads", "2", "--paired"],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    verdicts = {line.split()[0]: line.split()[1] for line in lines[:-1]}
    assert len(verdicts) == 16 and all(" 1: " in line and " 2: " in line
                                       for line in lines[:-1])
    assert {c for c, v in verdicts.items() if v == "black"} == {"a4", "b3", "c2", "d1"}
    assert lines[-1].startswith("4x4, 16 openings: 1 process ") and "speed-up" in lines[-1]
    refused = subprocess.run([sys.executable, script, "--size", "4", "--paired"],
                             capture_output=True, text=True, timeout=300)
    assert refused.returncode != 0 and "--paired" in refused.stderr


# --- the solver beside the search (genmove with threads > 1) -------------------------------
# An 11x11 position from a game against Wolve (the set's 20th): black to move has won, which
# the solver proves in well under a second; 96 cells are empty, so with one thread genmove
# leaves it to the search (the solver waits for 30 empty cells on boards above 9x9).
WON_11X11 = ("i3 b10 d9 c11 e10 e9 d10 e7 c8 d6 b7 c5 f7 e8 g8 g7 j5 j4 f8 f9 g9 h4 g5 "
             "f6").split()


def _won_board() -> Board:
    board = Board(11)
    for name in WON_11X11:
        board.play(board.parse_move(name))
    return board


def _keeps_the_win(board: Board, move: int) -> bool:
    child = list(board.stones)
    child[BLACK] |= 1 << move
    return Solver(knowledge_by_name("auto")).solve(board.geo, child, WHITE, 60).winner == BLACK


def test_with_two_threads_the_solver_proves_beside_the_search(monkeypatch):
    """threads 2: genmove solves beside the search from the first moves of the middle game
    on 11x11 and plays the proof; threads 1 without the check of its choice leaves the same
    position to the search."""
    kernels.start(wait=True)
    started = []
    real = parallel.Beside

    def counted(*args, **kwargs):
        started.append(args[4])  # the workers
        return real(*args, **kwargs)
    monkeypatch.setattr(parallel, "Beside", counted)
    board = _won_board()
    alone = Player(Settings(max_time=2, check_share=0)).genmove(board, BLACK, 2.0)
    assert not alone.proved and not started
    clock = time.monotonic()
    result = Player(Settings(max_time=10, threads=2)).genmove(board, BLACK, 10.0)
    assert time.monotonic() - clock < 10.5
    assert started == [1] and result.proved and result.score > 0
    assert _keeps_the_win(board, result.move), board.geo.name(result.move)
    assert multiprocessing.active_children() == []


def test_the_solve_beside_ends_on_a_stop_and_leaves_its_proofs(monkeypatch):
    """A stop halts the solve and its search at once and ends its workers; what the
    workers stored before is in the engine's table (no try here first: all of it is
    theirs)."""
    kernels.start(wait=True)
    monkeypatch.setattr(parallel, "BESIDE_FIRST", 0.0)
    geo = geometry(9, 9)
    solver = Solver(knowledge_by_name("auto"))
    stop = threading.Event()
    beside = parallel.Beside(solver, geo, [1 << geo.parse("e5"), 0], WHITE, 1, 60.0, stop)
    assert not beside.halt.is_set()
    time.sleep(1.0)
    stop.set()
    assert beside.halt.is_set()
    clock = time.monotonic()
    result = beside.result()
    assert time.monotonic() - clock < 2 and result.winner is None and result.nodes > 0
    assert multiprocessing.active_children() == []
    assert len(solver.tt) > 10  # (the workers' entries, merged)
    # a position the table already decides is answered at once, without workers
    board = _won_board()
    solver = Solver(knowledge_by_name("auto"))
    assert solver.solve(board.geo, board.stones, BLACK, 60).winner == BLACK
    beside = parallel.Beside(solver, board.geo, board.stones, BLACK, 1, 60.0)
    assert beside.halt.is_set() and beside.result().winner == BLACK
    assert multiprocessing.active_children() == []


def test_two_threads_over_the_protocol_play_the_proof(make_engine):
    """``--threads 2`` in a real engine: the won 11x11 position's reply keeps the win and
    comes within the budget; bad input to the setting is refused and the game goes on."""
    engine = make_engine("--threads", "2", "--time", "5")
    engine.ok("hexengine-ready 60", timeout=90)
    engine.ok("boardsize 11")
    colour = "b"
    for name in WON_11X11:
        engine.ok(f"play {colour} {name}")
        colour = "w" if colour == "b" else "b"
    clock = time.monotonic()
    move = engine.ok("genmove b", timeout=30)
    assert time.monotonic() - clock < 5.5
    board = _won_board()
    assert _keeps_the_win(board, board.parse_move(move)), move
    assert engine.error("param_hexengine threads two")
    assert engine.ok("genmove w", timeout=30)  # the game goes on
    assert "threads 2" in engine.ok("param_hexengine")


def test_a_move_proved_losing_during_the_search_is_not_played():
    """threads 2: when the solver beside the search proves the search's move to lose but
    not the root, genmove plays the best-scored root move not proved to lose (and, if every
    scored move is, the centre-most cell that is not)."""
    kernels.start(wait=True)
    board = Board(7)
    for name in ("d4", "c5"):
        board.play(board.parse_move(name))
    searched = Player(Settings(max_time=1, max_depth=2)).genmove(board, board.to_move, 1.0)
    assert len(searched.scores) >= 2
    losing = 1 << searched.move
    kept = not_losing(searched, losing, board)
    others = {m: v for m, v in searched.scores.items() if m != searched.move}
    assert kept.move == max(others, key=others.get) and kept.pv == [kept.move]
    assert not_losing(searched, 0, board) is searched
    every = sum(1 << m for m in searched.scores)
    kept = not_losing(searched, every, board)
    assert not (every >> kept.move) & 1 and (board.empty >> kept.move) & 1
    assert kept.move == next(m for m in board.geo.centre_order
                             if (board.empty & ~every) >> m & 1)
