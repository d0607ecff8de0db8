#!/usr/bin/env python3
"""A deliberately broken HTP engine for the match runner's adjudication tests.

It plays the first empty cell (so it is legal and quick) until genmove number ``--after``;
from then on it misbehaves as ``--mode`` says: crash (exit mid-command), hang (never answer),
illegal (answer an occupied cell), offboard (a cell off the board), garbage (print
non-HTP text), refuse (answer '? ...'), resign.  Every command it reads goes to stderr.
``--delay`` makes every genmove take that long; ``--trace FILE`` appends one line per genmove
(the parent's process id, the stones on the board and the time), so a test can see where,
when and how far a game is being played.  ``--solve`` makes it a broken judge of forfeits:
``dfpn-solve-state`` hangs, crashes, or is refused (and ``known_command`` says it is unknown);
``--solve black`` / ``--solve white`` makes it a wrong solver that always answers that colour.
"""
import argparse
import os
import sys
import time

MODES = ("crash", "hang", "illegal", "offboard", "garbage", "refuse", "resign", "none")


def cell_name(col: int, row: int) -> str:
    return f"{chr(ord('a') + col)}{row + 1}"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=MODES, default="none")
    parser.add_argument("--after", type=int, default=1, help="misbehave from this genmove on")
    parser.add_argument("--strict", action="store_true",
                        help="speak Benzene's dialect: 'boardsize N' and 'time_left C T' only")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds per genmove")
    parser.add_argument("--trace", default=None, help="append 'PPID STONES TIME' per genmove")
    parser.add_argument("--solve", choices=("hang", "crash", "refuse", "black", "white"),
                        default=None, help="how dfpn-solve-state fails (or what it always "
                        "answers)")
    args = parser.parse_args()
    width = height = 11
    occupied: set[str] = set()
    genmoves = 0

    def reply(text: str = "", ok: bool = True) -> None:
        sys.stdout.write(("= " if ok else "? ") + text + "\n\n")
        sys.stdout.flush()

    for line in sys.stdin:
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        cmd, rest = words[0], words[1:]
        sys.stderr.write(" ".join(words) + "\n")
        sys.stderr.flush()
        if args.strict and ((cmd == "boardsize" and len(rest) != 1)
                            or (cmd == "time_left" and len(rest) != 2)):
            reply("wrong number of arguments", ok=False)
            continue
        if cmd == "quit":
            reply()
            return
        if cmd == "boardsize":
            width = int(rest[0])
            height = int(rest[1]) if len(rest) > 1 else width
            occupied.clear()
            reply()
        elif cmd == "clear_board":
            occupied.clear()
            reply()
        elif cmd == "play":
            occupied.add(rest[1].lower())
            reply()
        elif cmd == "genmove":
            genmoves += 1
            if args.trace:
                with open(args.trace, "a", encoding="utf-8") as f:
                    f.write(f"{os.getppid()} {len(occupied)} {time.time():.3f}\n")
            time.sleep(args.delay)
            mode = args.mode if genmoves >= args.after else "none"
            if mode == "crash":
                sys.exit(3)
            if mode == "hang":
                time.sleep(3600)
            if mode == "garbage":
                sys.stdout.write("thinking very hard...\n\n")
                sys.stdout.flush()
                continue
            if mode == "refuse":
                reply("I do not want to", ok=False)
                continue
            if mode == "resign":
                reply("resign")
                continue
            if mode == "offboard":
                reply(cell_name(width + 2, 0))
                continue
            if mode == "illegal" and occupied:
                reply(sorted(occupied)[0])
                continue
            move = next(cell_name(c, r) for r in range(height) for c in range(width)
                        if cell_name(c, r) not in occupied)
            occupied.add(move)
            reply(move)
        elif cmd in ("name",):
            reply("broken")
        elif args.solve and cmd == "known_command" and rest == ["dfpn-solve-state"]:
            reply("false" if args.solve == "refuse" else "true")
        elif args.solve and cmd == "dfpn-solve-state":
            if args.solve == "crash":
                sys.exit(3)
            if args.solve == "hang":
                time.sleep(3600)
            if args.solve in ("black", "white"):
                reply(args.solve)
                continue
            reply("unknown command", ok=False)
        else:
            reply()  # accepts everything else (time, params) silently


if __name__ == "__main__":
    main()
