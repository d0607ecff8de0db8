"""hex-check: HTP conformance checks run against real engines: ours passes every required
check; the deliberately broken engine and our engine behind a proxy that adds one fault
fail, naming the check; crashes and hangs are FAILs, not tracebacks."""
from __future__ import annotations

import configparser
import os
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from protocol.check.checks import CHECKS, parse_cell
from protocol.check.probe import parse_reply

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENGINES = os.path.join(ROOT, "tests", "engines")
OURS = [sys.executable, "-m", "hexengine", "--quiet"]
BROKEN = [sys.executable, os.path.join(ENGINES, "broken_engine.py")]
PROXY = [sys.executable, os.path.join(ENGINES, "faulty_proxy.py")]


def hex_check(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    """Run hex-check from this checkout (its engines see the same PYTHONPATH)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, "-m", "protocol.check", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout)


def outcomes(stdout: str) -> dict[str, str]:
    """check name -> pass/FAIL/warn from the report's lines."""
    found = {}
    names = {c.name for c in CHECKS}
    for line in stdout.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0] in ("pass", "FAIL", "warn") and words[1] in names:
            found[words[1]] = words[0]
    return found


# --- no engine ---

def test_replies_keep_their_id_and_text():
    reply = parse_reply("7 name", ["=7 hexengine"], 0.0)
    assert (reply.ok, reply.id, reply.text) == (True, "7", "hexengine")
    board = parse_reply("showboard", ["= ", " ", "  a  b", " 1\\.  .\\1"], 0.0)
    assert board.id == "" and board.text.splitlines()[0] == "a  b"   # stripped as a whole
    assert board.lines[1] == " "                      # Benzene's line of one space kept
    error = parse_reply("8 x", ["?8 unknown command"], 0.0)
    assert (error.ok, error.id, error.text) == (False, "8", "unknown command")


def test_cell_names_are_hexgui_s():
    assert parse_cell("a1", 11) == (0, 0) and parse_cell("K11", 11) == (10, 10)
    assert parse_cell("l1", 11) is None and parse_cell("a12", 11) is None
    assert parse_cell("1a", 11) is None and parse_cell("swap-pieces", 11) is None


def test_checks_have_unique_names_and_list():
    names = [c.name for c in CHECKS]
    assert len(names) == len(set(names))
    done = hex_check("--list")
    assert done.returncode == 0
    assert [line.split()[0] for line in done.stdout.splitlines()] == names


def test_entry_point_is_registered():
    cfg = configparser.ConfigParser()
    cfg.read(os.path.join(ROOT, "setup.cfg"))
    assert "hex-check = protocol.check.cli:main" in cfg["options.entry_points"]["console_scripts"]


# --- real engines ---

def test_our_engine_passes_every_required_check(tmp_path):
    xml = tmp_path / "check.xml"
    done = hex_check("--junit-xml", str(xml), shlex.join(OURS))
    assert done.returncode == 0, done.stdout + done.stderr
    found = outcomes(done.stdout)
    assert set(found) == {c.name for c in CHECKS}
    required = [c.name for c in CHECKS if not c.optional]
    assert all(found[name] == "pass" for name in required), done.stdout
    assert " 0 FAIL" in done.stdout
    suite = ET.parse(xml).getroot()
    assert suite.get("tests") == str(len(CHECKS)) and suite.get("failures") == "0"


def test_broken_engine_fails_and_names_the_checks():
    # it accepts every command: illegal moves, unknown commands, bad sizes; no ids
    done = hex_check(shlex.join(BROKEN))
    assert done.returncode == 1
    found = outcomes(done.stdout)
    for name in ("ids", "illegal-occupied", "illegal-offboard", "illegal-colour",
                 "unknown-command", "bad-boardsize", "list_commands"):
        assert found[name] == "FAIL", name
    failed = next(line for line in done.stdout.splitlines() if line.startswith("FAILED:"))
    assert "illegal-occupied" in failed.split()
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("fault, only, failing", [
    ("drop-ids", (), {"ids"}),          # every other check passes
    ("accept-illegal", ("illegal-occupied", "illegal-malformed", "clear_board"),
     {"illegal-occupied", "illegal-malformed"}),
    ("lose-board", ("illegal-offboard", "bad-boardsize", "unknown-command", "play"),
     {"illegal-offboard", "bad-boardsize", "unknown-command"}),
])
def test_one_fault_fails_its_check(fault, only, failing):
    args = [a for name in only for a in ("--only", name)]
    done = hex_check(*args, shlex.join(PROXY + [fault] + OURS))
    assert done.returncode == 1, done.stdout + done.stderr
    found = outcomes(done.stdout)
    assert {name for name, outcome in found.items() if outcome == "FAIL"} == failing, \
        done.stdout


def test_clock_check_passes_ours_and_warns_an_engine_that_ignores_its_clock():
    done = hex_check("--only", "clock", shlex.join(OURS))
    assert outcomes(done.stdout) == {"clock": "pass"}, done.stdout
    slow = hex_check("--only", "clock", shlex.join(BROKEN + ["--delay", "2"]))
    assert outcomes(slow.stdout) == {"clock": "warn"}, slow.stdout
    assert "after 2." in slow.stdout and "0.5 s left on its clock" in slow.stdout


def test_crash_and_hang_are_fails_of_one_check():
    crash = hex_check("--only", "genmove", "--only", "quit",
                      shlex.join(BROKEN + ["--mode", "crash"]))
    assert crash.returncode == 1 and "Traceback" not in crash.stderr
    assert outcomes(crash.stdout) == {"genmove": "FAIL", "quit": "pass"}   # restarted
    assert "engine crashed" in crash.stdout
    hang = hex_check("--timeout", "1", "--only", "genmove", "--only", "quit",
                     shlex.join(BROKEN + ["--mode", "hang"]))
    assert hang.returncode == 1 and "no answer within 1 s" in hang.stdout
    assert outcomes(hang.stdout) == {"genmove": "FAIL", "quit": "pass"}


def test_engine_that_does_not_start_is_a_clear_error():
    done = hex_check("no-such-engine-hexcheck --quiet")
    assert done.returncode == 2
    assert "engine does not start" in done.stderr and "not found" in done.stderr
    assert "Traceback" not in done.stderr
    bad = hex_check("--only", "no-such-check", shlex.join(OURS))
    assert bad.returncode == 2 and "unknown check 'no-such-check'" in bad.stderr
