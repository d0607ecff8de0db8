"""``hex-check``: HTP conformance checks for any Hex engine."""
from __future__ import annotations

import sys
from typing import Optional

import click

from .checks import CHECKS
from .report import exit_status, failed_names, result_line, summary, write_junit
from .run import PASS, CheckResult, run_checks, select_checks


def _list_checks() -> None:
    for item in CHECKS:
        click.echo(f"{item.name:<18} {'(optional) ' if item.optional else ''}{item.title}")


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("engine_command", metavar="ENGINE_COMMAND", required=False)
@click.option("--timeout", type=click.FloatRange(min=0.1), default=30.0, show_default=True,
              metavar="SECONDS", help="Longest wait for one reply; a silent engine FAILs the "
                                      "check and is started afresh.")
@click.option("--size", type=click.IntRange(6, 25), default=11, show_default=True,
              help="Board size for the checks (genmove is checked on 5x5).")
@click.option("--interrupt-after", type=click.FloatRange(min=0.0), default=0.5,
              show_default=True, metavar="SECONDS",
              help="How long genmove runs before the interrupt check sends '# interrupt'.")
@click.option("--init", multiple=True, metavar="HTP_COMMAND",
              help="Sent after every engine start (repeatable); it must succeed.")
@click.option("--only", multiple=True, metavar="CHECK", help="Run only this check (repeatable).")
@click.option("--skip", multiple=True, metavar="CHECK", help="Leave this check out (repeatable).")
@click.option("--list", "list_only", is_flag=True, help="List the checks and exit.")
@click.option("--junit-xml", "junit_path", type=click.Path(dir_okay=False), default=None,
              metavar="FILE", help="Also write a JUnit XML report.")
@click.option("-q", "--quiet", is_flag=True, help="Print only checks that did not pass.")
@click.option("-v", "--verbose", is_flag=True,
              help="Print the HTP stream on stderr and let the engine's stderr through.")
def main(engine_command: Optional[str], timeout: float, size: int, interrupt_after: float,
         init: tuple[str, ...], only: tuple[str, ...], skip: tuple[str, ...],
         list_only: bool, junit_path: Optional[str], quiet: bool, verbose: bool) -> None:
    """Check that the engine ENGINE_COMMAND starts (one argument: quote it) speaks HTP as
    HexGui and match runners need: reply framing and ids, boardsize, play, genmove, errors
    that leave the position as it was, undo, swap, '# interrupt', time commands, showboard
    and hexgui-analyze_commands.

    Each check reports pass, FAIL, or warn (an optional feature missing, marked '?').

    Exit status: 0 if no check FAILed, 1 if one did, 2 if the engine did not start.

    \b
    Example:
      hex-check "hexengine --quiet"
      hex-check --junit-xml check.xml "wolve --use-logfile=0 --quiet"
    """
    if list_only:
        _list_checks()
        return
    if not engine_command:
        raise click.UsageError("missing ENGINE_COMMAND")
    try:
        checks = select_checks(only, skip)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--only/--skip") from None
    trace = (lambda text: click.echo("  " + text, err=True)) if verbose else None

    def show(result: CheckResult) -> None:
        if not (quiet and result.outcome == PASS):
            click.echo(result_line(result))

    click.echo(f"hex-check: {engine_command}")
    try:
        run = run_checks(engine_command, checks, timeout=timeout, init=init, size=size,
                         interrupt_after=interrupt_after,
                         stderr=sys.stderr if verbose else None,
                         on_start=lambda name: click.echo(f"  engine: {name}"),
                         on_result=show, trace=trace)
    except KeyboardInterrupt:
        click.echo("hex-check: interrupted", err=True)
        sys.exit(130)
    if run.failure:
        click.echo(f"hex-check: {run.failure}" + ("" if verbose else
                   " (-v shows its stderr)"), err=True)
    else:
        click.echo(summary(run))
        failed = failed_names(run)
        if failed:
            click.echo(f"FAILED: {' '.join(failed)}")
    if junit_path:
        try:
            write_junit(run, junit_path)
        except OSError as exc:
            click.echo(f"hex-check: cannot write {junit_path}: {exc}", err=True)
            sys.exit(2)
    sys.exit(exit_status(run))


if __name__ == "__main__":
    main()
