"""The ``hexengine`` command: an HTP engine on stdin/stdout."""
from __future__ import annotations

import os
import sys
from typing import Any, Callable, Iterator

import click

import hexengine
from hexengine.settings import OPTIONS, Option, Settings

from .commands import Engine
from .htp import Session


def _stdin_lines() -> Iterator[bytes]:
    """Lines of stdin read straight from the file descriptor.

    The reader thread may still be blocked in a read when ``quit`` ends the session; had it
    been reading through ``sys.stdin.buffer`` it would hold that buffer's lock and the
    interpreter would abort at shutdown ("could not acquire lock ... daemon threads",
    exit status 134).  A bare ``os.read`` holds no lock."""
    try:
        fd = sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        yield from (sys.stdin.buffer if hasattr(sys.stdin, "buffer") else sys.stdin)
        return
    pending = b""
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            yield line + b"\n"
    if pending:
        yield pending


def _table_option(row: Option) -> Callable:
    """The click option of one settings row: ``--name/--no-name`` for a switch, a choice
    list for choices, else text checked by the row's own parser (the same messages as
    ``param_hexengine``)."""
    if row.type is bool:
        return click.option(f"{row.cli_flag}/--no-{row.cli_flag[2:]}", row.name,
                            default=row.default, show_default=True, help=row.help)

    def check(ctx: click.Context, param: click.Parameter, value: str) -> Any:
        try:
            return row.parse(value)
        except ValueError as exc:
            raise click.BadParameter(str(exc)) from None

    kind = click.Choice(row.choices) if row.choices else str
    return click.option(row.cli_flag, row.name, type=kind, default=row.format(row.default),
                        show_default=True, help=row.help, callback=check,
                        metavar=None if row.choices else row.value_name)


def _with_settings_options(func: Callable) -> Callable:
    for row in reversed(OPTIONS):
        func = _table_option(row)(func)
    return func


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@_with_settings_options
@click.version_option(hexengine.__version__, "--version", prog_name="hexengine",
                      message="%(prog)s %(version)s")
def main(**values: Any) -> None:
    """Hex engine speaking HTP (GTP for Hex) on stdin/stdout.

    Every option is also an engine parameter (param_hexengine, the same name with
    underscores: --time is max_time, --eval evaluation, --depth max_depth, --swap
    allow_swap, --log log_file)."""
    try:
        engine = Engine(Settings(**values), log=sys.stderr)
    except ValueError as exc:  # settings this installation cannot play under
        raise click.UsageError(str(exc)) from None
    session = Session(engine.handle, _stdin_lines(), sys.stdout)
    engine.gfx_out = session.send_gfx
    status = session.run()
    sys.exit(status)
