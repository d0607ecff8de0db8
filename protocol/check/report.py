"""Reports of a conformance run: one line per check, a summary, JUnit XML, the exit status."""
from __future__ import annotations

import socket
import xml.etree.ElementTree as ET
from datetime import datetime, timezone

from .checks import CHECKS
from .run import FAIL, PASS, WARN, CheckResult, RunResult

_NAME_WIDTH = max(len(c.name) for c in CHECKS)


def result_line(result: CheckResult) -> str:
    """``  pass  name  reason`` (optional checks marked)."""
    mark = "?" if result.check.optional else " "
    return f"  {result.outcome:<4}  {result.name:<{_NAME_WIDTH}}{mark} {result.reason}"


def summary(run: RunResult) -> str:
    """The last line: counts and time."""
    return (f"{len(run.results)} checks: {run.count(PASS)} passed, {run.count(FAIL)} FAIL, "
            f"{run.count(WARN)} warn ({run.seconds:.1f} s)")


def failed_names(run: RunResult) -> list[str]:
    """The names of the checks that failed."""
    return [r.name for r in run.results if r.outcome == FAIL]


def exit_status(run: RunResult) -> int:
    """0: no FAIL (warnings allowed); 1: a check FAILed; 2: the engine did not start."""
    if run.failure:
        return 2
    return 1 if run.count(FAIL) else 0


def junit_xml(run: RunResult) -> ET.ElementTree:
    """JUnit XML: one testcase per check; FAIL is a failure, warn a pass with its reason in
    system-out, an engine that did not start an error."""
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    root = ET.Element("testsuites", name="hex-check")
    suite = ET.SubElement(root, "testsuite", name="hex-check", timestamp=stamp,
                          hostname=socket.gethostname(), time=f"{run.seconds:.3f}")
    props = ET.SubElement(suite, "properties")
    ET.SubElement(props, "property", name="engine_command", value=run.command)
    ET.SubElement(props, "property", name="engine", value=run.engine)
    tests = failures = errors = 0
    for result in run.results:
        case = ET.SubElement(suite, "testcase", classname="hex-check", name=result.name,
                             time=f"{result.seconds:.3f}")
        tests += 1
        if result.outcome == FAIL:
            failures += 1
            ET.SubElement(case, "failure", message=result.reason, type="FAIL").text = \
                f"{result.check.title}\n{result.reason}"
        else:
            ET.SubElement(case, "system-out").text = f"{result.outcome}: {result.reason}"
    if run.failure:
        case = ET.SubElement(suite, "testcase", classname="hex-check", name="start", time="0")
        tests += 1
        errors += 1
        ET.SubElement(case, "error", message=run.failure, type="start")
    for element in (root, suite):
        element.set("tests", str(tests))
        element.set("failures", str(failures))
        element.set("errors", str(errors))
    root.set("time", f"{run.seconds:.3f}")
    ET.indent(root)
    return ET.ElementTree(root)


def write_junit(run: RunResult, path: str) -> None:
    """Write the JUnit XML report to ``path``."""
    junit_xml(run).write(path, encoding="utf-8", xml_declaration=True)
