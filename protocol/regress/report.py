"""Reports of regression runs: one line per check, a summary per file and in total, and
JUnit XML (one testsuite per file, one testcase per check)."""
from __future__ import annotations

import os
import socket
import xml.etree.ElementTree as ET
from datetime import datetime, timezone
from typing import Iterable

from .run import ERROR, FAIL, PASS, XFAIL, XPASS, CheckResult, FileResult

_WIDTH = max(len(o) for o in (PASS, FAIL, XFAIL, XPASS, ERROR))


_LIMIT = 60   # characters of a reply shown on a check's line


def _one_line(text: str) -> str:
    lines = text.splitlines() or [""]
    first = lines[0]
    if len(first) > _LIMIT:
        first = first[:_LIMIT - 3] + "..."
    if len(lines) > 1:
        first += f" ...({len(lines)} lines)"
    return first


def show_response(check: CheckResult) -> str:
    """The reply as HTP shows it: ``= text`` or ``? message`` (engine failures as they are)."""
    if check.engine_failure:
        return f"({check.response})"
    mark = "=" if check.ok else "?"
    return f"{mark} {check.response}" if check.response else mark


def check_line(check: CheckResult) -> str:
    """One report line: outcome, id, command, reply, expectation and time."""
    step = check.step
    line = (f"  {check.outcome:<{_WIDTH}}  {step.label:>6}  {step.command}  ->  "
            f"{_one_line(show_response(check))}  expected {check.expected}"
            f"{' as a set' if check.as_set else ''}  ({check.seconds:.2f} s)")
    if check.note:
        line += f"  [{check.note}]"
    return line


def check_details(check: CheckResult) -> list[str]:
    """The whole reply, indented, for failures whose line shows only part of it."""
    text = show_response(check)
    if check.outcome == FAIL and _one_line(text) != text:
        return ["      | " + t for t in text.splitlines()]
    return []


def _counts(results: Iterable[FileResult]) -> dict[str, int]:
    results = list(results)
    counts = {o: sum(r.count(o) for r in results) for o in (PASS, FAIL, XFAIL, XPASS, ERROR)}
    counts["checks"] = sum(len(r.checks) for r in results)
    counts["not run"] = sum(r.not_run for r in results)
    counts["other errors"] = sum(len(r.other_errors) for r in results)
    return counts


def _summary(counts: dict[str, int]) -> str:
    parts = [f"{counts[PASS]} passed", f"{counts[FAIL]} FAIL",
             f"{counts[XFAIL]} expected failures", f"{counts[XPASS]} unexpected passes"]
    if counts[ERROR]:
        parts.append(f"{counts[ERROR]} engine errors")
    if counts["not run"]:
        parts.append(f"{counts['not run']} not run")
    if counts["other errors"]:
        parts.append(f"{counts['other errors']} other commands failed")
    checks = counts["checks"]
    return f"{checks} check{'' if checks == 1 else 's'}: " + ", ".join(parts)


def file_summary(result: FileResult) -> list[str]:
    """The lines that close a file's report: failed setup commands, the file's stop, counts."""
    lines = []
    for other in result.other_errors:
        lines.append(f"  (not a check) line {other.step.line}: {other.step.text}  ->  "
                     f"{_one_line(show_response(other))}")
    if result.failure:
        lines.append(f"  stopped: {result.failure}")
    lines.append(f"  {os.path.basename(result.path)}: {_summary(_counts([result]))} "
                 f"({result.seconds:.1f} s)")
    return lines


def total_summary(results: list[FileResult]) -> str:
    """The run's last line."""
    broken = sum(r.broken for r in results)
    seconds = sum(r.seconds for r in results)
    files = f"{len(results)} file{'s' if len(results) != 1 else ''}"
    if broken:
        files += f" ({broken} stopped early)"
    return f"total: {files}, {_summary(_counts(results))} ({seconds:.1f} s)"


def exit_status(results: list[FileResult]) -> int:
    """0: no unexpected failure; 1: some FAIL; 2: an engine broke or a file could not run."""
    if any(r.broken for r in results):
        return 2
    if any(r.count(FAIL) for r in results):
        return 1
    return 0


def _suite_name(path: str) -> str:
    return os.path.splitext(os.path.basename(path))[0]


def junit_xml(results: list[FileResult], command: str) -> ET.ElementTree:
    """JUnit XML of a run: FAIL is a failure, an engine error an error, an expected failure
    skipped; an unexpected pass passes with a note in its system-out."""
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    root = ET.Element("testsuites", name="hex-regress")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for result in results:
        name = _suite_name(result.path)
        suite = ET.SubElement(root, "testsuite", name=name, file=result.path,
                              timestamp=stamp, hostname=socket.gethostname(),
                              time=f"{result.seconds:.3f}")
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="engine_command", value=command)
        ET.SubElement(props, "property", name="engine", value=result.engine)
        counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
        for check in result.checks:
            step = check.step
            case = ET.SubElement(suite, "testcase", classname=name,
                                 name=f"{step.label} {step.command}", file=result.path,
                                 line=str(step.line), time=f"{check.seconds:.3f}")
            counts["tests"] += 1
            message = f"expected {check.expected}, got {show_response(check)!r}"
            if check.outcome == FAIL:
                counts["failures"] += 1
                ET.SubElement(case, "failure", message=message, type="FAIL").text = \
                    f"{step.text}\n{show_response(check)}"
            elif check.outcome == ERROR:
                counts["errors"] += 1
                ET.SubElement(case, "error", message=check.response, type="engine")
            elif check.outcome == XFAIL:
                counts["skipped"] += 1
                ET.SubElement(case, "skipped", message=f"expected failure: {message}")
            elif check.outcome == XPASS:
                ET.SubElement(case, "system-out").text = \
                    f"unexpected pass: marked as a known failure, answered {show_response(check)!r}"
        if result.failure and not any(c.outcome == ERROR for c in result.checks):
            # the file stopped outside a check (engine start, init, a setup command, the file)
            case = ET.SubElement(suite, "testcase", classname=name, name="run", file=result.path,
                                 time="0")
            counts["tests"] += 1
            counts["errors"] += 1
            ET.SubElement(case, "error", message=result.failure, type="run")
        for key, value in counts.items():
            suite.set(key, str(value))
            totals[key] += value
    for key, value in totals.items():
        root.set(key, str(value))
    root.set("time", f"{sum(r.seconds for r in results):.3f}")
    ET.indent(root)
    return ET.ElementTree(root)


def write_junit(results: list[FileResult], command: str, path: str) -> None:
    """Write the JUnit XML report to ``path``."""
    junit_xml(results, command).write(path, encoding="utf-8", xml_declaration=True)
