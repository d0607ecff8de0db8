"""Every HTP command, loaded into the one table of ``protocol.engine``.

Each subsystem's commands live in a module of their own, with their HexGui analyze-menu
lines; importing them registers them.  The import order is the analyze menu's order.
"""
from __future__ import annotations

from . import (param_commands, search_commands, game_commands,  # noqa: F401
               view_commands, vc_commands, solver_commands)
from .engine import ANALYZE_MENU, COMMANDS, Engine, HtpError, parse_colour

__all__ = ["ANALYZE_MENU", "COMMANDS", "Engine", "HtpError", "parse_colour"]
