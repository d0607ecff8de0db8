"""hex-regress: GoGui regression files run against real engines (ours and the deliberately
broken one), checked through the exit status, the text report and the JUnit XML."""
from __future__ import annotations

import configparser
import os
import shlex
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest

from protocol.regress.parse import Step, TstError, parse_expectation, parse_tst
from protocol.regress.run import FAIL, PASS, XFAIL, XPASS, judge, matches
from tests.htpclient import engine_command

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BROKEN = os.path.join(ROOT, "tests", "engines", "broken_engine.py")
OURS = shlex.join(engine_command() + ["--quiet"])


def regress(*args: str, cwd=None, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run hex-regress from this checkout (its engines see the same PYTHONPATH)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (ROOT, env.get("PYTHONPATH")) if p)
    return subprocess.run([sys.executable, "-m", "protocol.regress", *args], cwd=cwd or ROOT,
                          env=env, capture_output=True, text=True, timeout=timeout)


def write(path, text: str) -> str:
    path.write_text(text)
    return str(path)


# --- reading the files and judging replies (no engine) ---

def test_parse_ids_checks_and_comments():
    steps = parse_tst("boardsize 3\n10 play b a1\n# comment\n20\tgenmove w\n#? [b2]*\n"
                      "all_legal_moves\n#? [!a1]\n")
    assert [(s.id, s.command, s.is_check) for s in steps] == [
        (None, "boardsize 3", False), (10, "play b a1", True), (20, "genmove w", True),
        (None, "all_legal_moves", True)]
    assert steps[1].expectation is None                    # passes if it succeeds
    assert steps[2].text == "20 genmove w"                 # sent with its id, tab as space
    assert steps[2].expectation.expected_failure and steps[2].expectation.pattern == "b2"
    assert steps[3].expectation.negate and steps[3].label == "line 6"


@pytest.mark.parametrize("text, message", [
    ("10 name\n\n#? [x]\n", "without a command"),        # '#?' must follow its command
    ("10 name\n#? x]\n", "no opening bracket"),
    ("10 name\n#? [x\n", "no closing bracket"),
    ("10 name\n#? [a(1]\n", "bad regular expression"),
])
def test_parse_errors_name_the_line(text, message):
    with pytest.raises(TstError, match=message):
        parse_tst(text, "f.tst")


def test_patterns_match_the_whole_reply():
    exp = parse_expectation("[d4]")
    assert matches(exp, True, "d4") and not matches(exp, True, "d45")
    assert not matches(exp, False, "d4")                   # an error reply fails a check
    assert matches(parse_expectation("[!d4]"), True, "e5")
    assert matches(parse_expectation("[.*^2 x$.*]"), True, "1 o\n2 x\n3 o")  # lines, any char
    error = parse_expectation("[?illegal.*]")
    assert matches(error, False, "illegal move") and not matches(error, True, "illegal move")
    assert matches(parse_expectation("[?]"), False, "anything")
    assert matches(None, True, "") and not matches(None, False, "")


def test_set_comparison_of_word_lists():
    exp = parse_expectation("[a1 b2 c3]")
    assert not matches(exp, True, "c3 a1 b2")
    assert matches(exp, True, "c3 a1 b2", as_set=True)
    assert matches(exp, True, "c3\na1 b2 a1", as_set=True)   # repeats and line breaks
    assert not matches(exp, True, "a1 b2", as_set=True)
    assert parse_expectation("[a1|b2 c3]").words() is None   # a regex stays a regex
    assert parse_expectation("[d4]").words() is None          # one word: a plain match
    step = Step(1, "all_legal_moves", "all_legal_moves", None, exp)
    assert judge(step, True, "c3 a1 b2", 0.0).note            # the hint to use --set
    assert judge(step, True, "c3 a1 b2", 0.0, as_set=True).outcome == PASS


def test_expected_failures_and_unexpected_passes_are_judged():
    step = Step(1, "10 genmove b", "genmove b", 10, parse_expectation("[d4]*"))
    assert judge(step, True, "a1", 0.0).outcome == XFAIL
    assert judge(step, True, "d4", 0.0).outcome == XPASS
    plain = Step(1, "10 genmove b", "genmove b", 10, parse_expectation("[d4]"))
    assert judge(plain, True, "a1", 0.0).outcome == FAIL


def test_entry_point_is_registered():
    cfg = configparser.ConfigParser()
    cfg.read(os.path.join(ROOT, "setup.cfg"))
    scripts = cfg["options.entry_points"]["console_scripts"]
    assert "hex-regress = protocol.regress.cli:main" in scripts


# --- real engines ---

def test_shipped_files_pass_from_any_directory(tmp_path):
    files = [os.path.join(ROOT, "regress", name)
             for name in ("basics.tst", "tactics.tst", "any-engine.tst")]
    proc = regress("--set", OURS, *files, cwd=tmp_path)   # loadsgf paths: the .tst's folder
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert " 0 FAIL" in proc.stdout and "FAIL " not in proc.stdout
    assert "total: 3 files" in proc.stdout and "Traceback" not in proc.stderr


def test_wrong_expectation_fails_and_junit_counts(tmp_path):
    tst = write(tmp_path / "mixed.tst",
                "boardsize 7\nplay b d1\n"
                "10 showboard\n#? [.*1 stones.*]\n"       # pass
                "20 name\n#? [wolve]\n"                    # FAIL
                "30 name\n#? [wolve]*\n"                   # expected failure
                "40 name\n#? [hexengine]*\n"               # unexpected pass
                "50 play b zz\n"                           # FAIL: a numbered command fails
                "60 play b d1\n#? [?illegal move.*]\n")    # pass: the error was expected
    junit = tmp_path / "out" / "report.xml"
    junit.parent.mkdir()
    proc = regress("--junit-xml", str(junit), OURS, tst)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = proc.stdout
    assert "  FAIL                  20  name  ->  = hexengine  expected [wolve]" in out
    assert "  FAIL                  50  play b zz  ->  ? invalid move" in out
    assert "  expected failure      30  name" in out
    assert "  unexpected pass       40  name" in out
    assert "6 checks: 2 passed, 2 FAIL, 1 expected failures, 1 unexpected passes" in out
    assert "  pass                  10  showboard" in out
    assert "  pass                  60  play b d1  ->  ? illegal move" in out
    root = ET.parse(junit).getroot()
    suite = root.find("testsuite")
    assert suite.get("name") == "mixed"
    assert [suite.get(k) for k in ("tests", "failures", "errors", "skipped")] == \
        ["6", "2", "0", "1"]
    assert root.get("tests") == "6" and root.get("failures") == "2"
    cases = suite.findall("testcase")
    assert [c.get("name") for c in cases][:2] == ["10 showboard", "20 name"]
    assert cases[1].find("failure") is not None and cases[2].find("skipped") is not None
    assert cases[0].find("failure") is None and cases[3].find("failure") is None


def test_expected_failure_alone_exits_0(tmp_path):
    tst = write(tmp_path / "known.tst", "10 name\n#? [hexengine]\n20 name\n#? [wolve]*\n")
    proc = regress(OURS, tst)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "expected failure" in proc.stdout and "1 expected failures" in proc.stdout


def test_set_option(tmp_path):
    tst = write(tmp_path / "set.tst", "boardsize 2\n10 all_legal_moves\n#? [b2 a2 b1 a1]\n")
    plain = regress(OURS, tst)
    assert plain.returncode == 1 and "equal as a set of words: see --set" in plain.stdout
    as_set = regress("--set", OURS, tst)
    assert as_set.returncode == 0, as_set.stdout + as_set.stderr
    assert "expected [b2 a2 b1 a1] as a set" in as_set.stdout


def test_nonexistent_engine_is_a_clear_error(tmp_path):
    tst = write(tmp_path / "x.tst", "10 name\n")
    proc = regress("no-such-hex-engine --quiet", tst)
    assert proc.returncode == 2
    assert "engine does not start" in proc.stderr and "not found" in proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr


@pytest.mark.parametrize("mode, words", [("crash", "engine crashed"),
                                         ("hang", "no answer within 0.5 s")])
def test_crash_and_hang_are_reported(tmp_path, mode, words):
    # the broken engine ignores ids, so these checks are unnumbered commands with '#?'
    tst = write(tmp_path / "broken.tst",
                "boardsize 3\ngenmove b\n#? [a1]\ngenmove b\n#? [b1]\nname\n#? [broken]\n")
    junit = tmp_path / "broken.xml"
    proc = regress("--timeout", "0.5", "--junit-xml", str(junit),
                   shlex.join([sys.executable, BROKEN, "--mode", mode, "--after", "2"]), tst)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    assert "pass              line 2  genmove b" in proc.stdout
    assert f"stopped: line 4: 'genmove b': {words}" in proc.stdout
    assert "1 engine errors, 1 not run" in proc.stdout
    suite = ET.parse(junit).getroot().find("testsuite")
    assert [suite.get(k) for k in ("tests", "failures", "errors")] == ["2", "0", "1"]


BENZENE_STYLE = '''import sys
for line in sys.stdin:
    words = line.split()
    ident = words.pop(0) if words and words[0].isdigit() else ""
    word = words[0] if words else ""
    if word == "quit":
        print(f"={ident} \\n"); sys.stdout.flush(); break
    if word == "showboard":  # Benzene's shape: a line of one space inside the reply
        print(f"={ident} \\n \\n  e987fcd3b3ce7cac\\n 1\\\\.  .  .\\\\1\\n")
    else:
        print(f"={ident} \\n")
    sys.stdout.flush()
'''


def test_a_line_of_one_space_does_not_end_a_reply(tmp_path):
    """Benzene's showboard reply holds a line of one space; only an empty line ends it."""
    engine = write(tmp_path / "benzene_style.py", BENZENE_STYLE)
    tst = write(tmp_path / "board.tst", "1 showboard\n#? [.*e987fcd3b3ce7cac.*]\n2 name\n")
    result = regress(f"{sys.executable} {engine}", tst)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed, 0 FAIL" in result.stdout
