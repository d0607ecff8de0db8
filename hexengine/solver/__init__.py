"""The DFPN solver: proves Hex positions outright.

``dfpn`` holds the proof-number search, its table and proof sets; ``knowledge`` what it
knows of Hex at each node; ``policy`` when ``genmove`` asks it and with what share of
the budget (or beside the search, on the other cores); ``parallel`` the solver on several
processes; ``check`` the check of the search's choice before ``genmove`` answers.  The
names callers use are re-exported here.
"""
from .check import CHECK_FROM, CHECK_SHARE, PROBE_SHARE
from .dfpn import Solver, SolveResult
from .knowledge import (KNOWLEDGE, LOSS, WIN, SimpleKnowledge, VCKnowledge, knowledge_by_name,
                        winning_cells)
from .policy import (EARLY_STONES, SOLVE_EMPTY_CELLS, SOLVE_SHARE, playable,
                     solve_beside, solve_for_move)

__all__ = ["CHECK_FROM", "CHECK_SHARE", "EARLY_STONES", "KNOWLEDGE", "LOSS", "PROBE_SHARE",
           "SOLVE_EMPTY_CELLS", "SOLVE_SHARE", "SimpleKnowledge", "SolveResult", "Solver",
           "VCKnowledge", "WIN", "knowledge_by_name", "playable", "solve_beside",
           "solve_for_move", "winning_cells"]
