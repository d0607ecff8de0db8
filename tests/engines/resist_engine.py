#!/usr/bin/env python3
"""An HTP engine that answers Benzene's ``vc-build`` and ``eval-resist`` with our own
``vc-graph`` value (black's view), for the tests of scripts/resist_compare.py: compared
with itself the script must find full agreement."""
import sys

from hexengine import kernels
from hexengine.board import Board
from hexengine.evaluation import vc_graph


def main() -> None:
    kernels.start(wait=True)
    board = Board(9)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        cmd, rest = words[0], words[1:]
        reply = ""
        if cmd == "quit":
            print("=\n", flush=True)
            return
        if cmd == "name":
            reply = "resist-engine"
        elif cmd == "boardsize":
            board = Board(int(rest[0]), int(rest[-1]))
        elif cmd == "clear_board":
            board = Board(board.width, board.height)
        elif cmd == "play":
            board.play(board.parse_move(rest[1]), 0 if rest[0][0] in "bB" else 1)
        elif cmd == "undo":
            board.undo()
        elif cmd == "eval-resist":
            value = vc_graph.evaluate(board.geo, list(board.stones), 0)
            reply = f"res {value:.12f} rew 0.000 reb 0.000"
        elif cmd != "vc-build":
            print(f"? unknown command {cmd}\n", flush=True)
            continue
        print(f"= {reply}\n", flush=True)


if __name__ == "__main__":
    main()
