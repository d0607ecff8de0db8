"""``hex-regress``: run GoGui regression files (``.tst``) against any HTP engine."""
from __future__ import annotations

import sys
from typing import Optional

import click

from .report import (check_details, check_line, exit_status, file_summary, total_summary,
                     write_junit)
from .run import PASS, CheckResult, FileResult, run_file


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("engine_command", metavar="ENGINE_COMMAND")
@click.argument("files", nargs=-1, required=True, metavar="FILE.tst...",
                type=click.Path(exists=True, dir_okay=False))
@click.option("--timeout", type=click.FloatRange(min=0.01), default=60.0, show_default=True,
              metavar="SECONDS", help="Longest wait for one reply; a silent engine ends its file.")
@click.option("--set", "as_set", is_flag=True,
              help="Compare a pattern that is a list of two or more plain words (cells: "
                   "'[a1 b2]') with the reply as a set of words: order and repeats ignored.")
@click.option("--init", multiple=True, metavar="HTP_COMMAND",
              help="Sent to every engine before its file (repeatable); it must succeed.")
@click.option("--junit-xml", "junit_path", type=click.Path(dir_okay=False), default=None,
              metavar="FILE", help="Also write a JUnit XML report (one testsuite per file).")
@click.option("-q", "--quiet", is_flag=True, help="Print only checks that did not pass.")
@click.option("-v", "--verbose", is_flag=True,
              help="Print the HTP stream on stderr and let the engine's stderr through.")
def main(engine_command: str, files: tuple[str, ...], timeout: float, as_set: bool,
         init: tuple[str, ...], junit_path: Optional[str], quiet: bool, verbose: bool) -> None:
    """Run the regression FILEs against the engine that ENGINE_COMMAND starts (one
    argument: quote it), a fresh engine for every file, run in that file's directory so
    that file names in the file (loadsgf) are relative to it.

    A numbered command is a check; '#? [REGEX]' on the next line is what its reply must be
    (a full match), '[...]*' a known failure, '[!...]' a reply that must not match, and
    '[?...]' an error reply whose message matches.

    Exit status: 0 with no unexpected failure, 1 if a check FAILed, 2 if an engine crashed,
    hung or did not start, or a file could not be read.

    \b
    Example:
      hex-regress --set "hexengine --quiet" regress/*.tst
    """
    results: list[FileResult] = []
    trace = (lambda text: click.echo("  >> " + text, err=True)) if verbose else None
    for path in files:
        click.echo(path)

        def show(check: CheckResult) -> None:
            if quiet and check.outcome == PASS:
                return
            click.echo(check_line(check))
            for line in check_details(check):
                click.echo(line)

        try:
            result = run_file(path, engine_command, timeout=timeout, init=init,
                              as_set=as_set, stderr=sys.stderr if verbose else None,
                              on_start=lambda name: click.echo(f"  engine: {name}"),
                              on_check=show, trace=trace)
        except KeyboardInterrupt:
            click.echo("hex-regress: interrupted", err=True)
            sys.exit(130)
        for line in file_summary(result):
            click.echo(line)
        results.append(result)
        if result.no_engine:   # the same command would fail for every other file
            click.echo(f"hex-regress: {result.failure}", err=True)
            break
    if len(results) > 1:
        click.echo(total_summary(results))
    if junit_path:
        try:
            write_junit(results, engine_command, junit_path)
        except OSError as exc:
            click.echo(f"hex-regress: cannot write {junit_path}: {exc}", err=True)
            sys.exit(2)
    sys.exit(exit_status(results))


if __name__ == "__main__":
    main()
