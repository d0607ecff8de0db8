#!/usr/bin/env python3
"""A real HTP engine with one fault added, for hex-check's tests.

    faulty_proxy.py FAULT ENGINE_ARGV...

The engine's replies pass through, except that FAULT changes them:
drop-ids (replies lose their ids: '=7 x' becomes '= x'), accept-illegal (a refused 'play'
is answered '='), lose-board (after every '?' reply the engine's board is cleared behind the
controller's back), none.  Lines go to the engine as they come, so '# interrupt' reaches a
running genmove; a controller must wait for each reply before the next command (as
hex-check does).
"""
import queue
import subprocess
import sys
import threading

FAULTS = ("drop-ids", "accept-illegal", "lose-board", "none")


def main() -> None:
    if len(sys.argv) < 3 or sys.argv[1] not in FAULTS:
        sys.exit(f"usage: faulty_proxy.py {{{'|'.join(FAULTS)}}} ENGINE_ARGV...")
    fault, argv = sys.argv[1], sys.argv[2:]
    engine = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                              bufsize=1)
    pending: "queue.Queue[str]" = queue.Queue()   # the command each coming reply answers
    lock = threading.Lock()

    def to_engine(line: str) -> None:
        with lock:
            engine.stdin.write(line + "\n")
            engine.stdin.flush()

    def replies() -> None:
        lines: list[str] = []
        for raw in engine.stdout:
            line = raw.rstrip("\r\n")
            if line or not lines:
                if line:
                    lines.append(line)
                continue
            command = pending.get()
            head = lines[0]
            if command == "(swallow)":
                lines = []
                continue
            words = command.split()
            if words and words[0].isdigit():
                words = words[1:]
            if fault == "drop-ids":
                body = head[1:].lstrip("0123456789")
                head = head[0] + (body if body.startswith(" ") or not body else " " + body)
            elif fault == "accept-illegal" and head[0] == "?" and words[:1] == ["play"]:
                head, lines = "=", ["="]
            elif fault == "lose-board" and head[0] == "?":
                pending.put("(swallow)")   # before the controller can send anything more
                to_engine("clear_board")
            sys.stdout.write("\n".join([head] + lines[1:]) + "\n\n")
            sys.stdout.flush()
            lines = []
        sys.stdout.flush()

    reader = threading.Thread(target=replies, daemon=True)
    reader.start()
    for raw in sys.stdin:
        line = raw.rstrip("\r\n")
        content = line.split("#", 1)[0].strip()
        if content:
            pending.put(content)
        try:
            to_engine(line)
        except (BrokenPipeError, OSError):
            break
        words = content.split()
        if words and words[0].isdigit():
            words = words[1:]
        if words[:1] == ["quit"]:
            break
    try:
        engine.stdin.close()
    except OSError:
        pass
    engine.wait()
    reader.join(timeout=5)


if __name__ == "__main__":
    main()
