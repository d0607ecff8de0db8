"""The solver's commands, with Benzene's ``dfpn-*`` names and replies."""
from __future__ import annotations

import time

from hexengine.board import COLOUR_NAMES

from .engine import Engine, command
from .htp import HtpError


def _solver_progress(engine: Engine, what: str):
    def report(info: dict) -> None:
        engine.say(f"{what}: nodes {info['nodes']} time {info['time']:.1f}s "
                   f"root pn {info['pn']} dn {info['dn']} tt {info['tt']}")
    return report


@command("dfpn-solve-state", 1, 1, "COLOUR",
         menu=(("string", "DFPN Solve State", "dfpn-solve-state %m"),))
def _dfpn_solve_state(engine: Engine, args: list[str]) -> str:
    colour = engine.open_position(args[0])
    board = engine.board
    started = time.monotonic()
    result, nodes = engine.player.solve_state(board, colour, engine._interrupt,
                                              _solver_progress(engine, "dfpn-solve-state"))
    verdict = "unknown" if result.winner is None else COLOUR_NAMES[result.winner]
    pv = " ".join(board.move_name(m) for m in result.pv)
    engine.say(f"dfpn-solve-state {COLOUR_NAMES[colour]} to move: {verdict} "
               f"(nodes {nodes} time {time.monotonic() - started:.2f}s"
               f"{' interrupted' if engine._interrupt.is_set() else ''}) pv {pv}")
    return verdict


@command("dfpn-solver-find-winning", 1, 1, "COLOUR",
         menu=(("plist", "DFPN Find Winning", "dfpn-solver-find-winning %m"),))
def _dfpn_find_winning(engine: Engine, args: list[str]) -> str:
    colour = engine.open_position(args[0])
    board = engine.board
    moves, nodes = engine.player.find_winning(
        board, colour, engine._interrupt, _solver_progress(engine, "dfpn-solver-find-winning"))
    if moves is None:
        why = "interrupted" if engine._interrupt.is_set() else \
            f"not solved within solver_time {engine.player.settings.solver_time:g}s"
        raise HtpError(f"{why} (nodes {nodes})")
    names = " ".join(board.move_name(m) for m in moves)
    engine.say(f"dfpn-solver-find-winning {COLOUR_NAMES[colour]}: [{names}] (nodes {nodes})")
    return names


@command("dfpn-get-pv", 1, 1, "COLOUR",
         menu=(("var", "DFPN Get PV", "dfpn-get-pv %m"),))
def _dfpn_get_pv(engine: Engine, args: list[str]) -> str:
    colour = engine.open_position(args[0])
    board = engine.board
    pv = engine.player.solver().pv(board.geo, list(board.stones), colour)
    return " ".join(board.move_name(m) for m in pv)


@command("dfpn-clear-tt",
         menu=(("none", "DFPN Clear TT", "dfpn-clear-tt"),))
def _dfpn_clear_tt(engine: Engine, args: list[str]) -> str:
    engine.player.solver().clear()
    return ""
