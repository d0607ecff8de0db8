"""Parameters: ``param_game`` (the game's rules and clock) and ``param_hexengine`` (every
row of the settings table, ``hexengine.settings``), in HexGui's parameter-list form."""
from __future__ import annotations

from .engine import Engine, command, parse_bool, parse_seconds
from .htp import HtpError


@command("param_game", 0, 2, "[NAME VALUE]", menu=(("param", "Game Param", "param_game"),))
def _param_game(engine: Engine, args: list[str]) -> str:
    if not args:
        game_time = engine.clock.main_time
        return "\n".join([
            f"[bool] allow_swap {int(engine.settings.allow_swap)}",
            f"[string] game_time {0 if game_time is None else game_time:g}",
        ])
    if len(args) != 2:
        raise HtpError(f"missing value for game parameter {args[0]!r} "
                       "(usage: param_game [NAME VALUE])")
    name, value = args
    if name == "allow_swap":
        engine.configure(name, "1" if parse_bool(name, value) else "0")
    elif name == "game_time":
        seconds = parse_seconds(value, "game_time")
        engine.clock.set(seconds, 0.0, 0)  # (0: no clock)
    else:
        raise HtpError(f"unknown game parameter {name!r} (known: allow_swap, game_time)")
    return ""




@command("param_hexengine", 0, 2, "[NAME VALUE]",
         menu=(("param", "Engine Param", "param_hexengine"),))
def _param_hexengine(engine: Engine, args: list[str]) -> str:
    """Without arguments every engine setting as ``[type] name value`` (HexGui's parameter
    dialog); with two, set one."""
    if not args:
        return "\n".join(f"[{kind}] {name} {value}"
                         for kind, name, value in engine.settings.describe())
    if len(args) != 2:
        raise HtpError(f"missing value for engine parameter {args[0]!r} "
                       "(usage: param_hexengine [NAME VALUE])")
    engine.configure(*args)
    return ""
