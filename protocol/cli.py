"""The ``hexengine`` command: an HTP engine on stdin/stdout."""
from __future__ import annotations

import os
import sys
from typing import Iterator, Optional

import click

import hexengine

from hexengine.evaluation import EVALUATIONS
from hexengine.player import ALGORITHMS, ORDERINGS, Settings

from .commands import SWAP_STYLES, Engine
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


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--time", "max_time", type=click.FloatRange(min=0.01), default=10.0,
              show_default=True, help="Seconds per genmove when no game clock is given.")
@click.option("--eval", "evaluation", type=click.Choice(sorted(EVALUATIONS)),
              default=Settings.evaluation, show_default=True, help="Evaluation function.")
@click.option("--algorithm", type=click.Choice(ALGORITHMS), default="alphabeta",
              show_default=True, help="alphabeta (iterative deepening), minimax, random.")
@click.option("--depth", "max_depth", type=click.IntRange(min=1), default=64,
              show_default=True, help="Maximum search depth (fixed depth for minimax).")
@click.option("--width", type=click.IntRange(min=0), default=Settings.width,
              show_default=True, help="Moves searched per node (0 = all).")
@click.option("--ordering", type=click.Choice(ORDERINGS), default=Settings.ordering,
              show_default=True, help="Move order: current (resistance, as Six and Wolve), "
              "path (shortest-path cells first), auto (current with the resistance eval).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--randomize/--no-randomize", default=False, show_default=True,
              help="Vary the choice among the best-ordered root moves.")
@click.option("--knowledge/--no-knowledge", default=Settings.knowledge, show_default=True,
              help="Fill-in, virtual connections and mustplay (off: the plain search).")
@click.option("--swap/--no-swap", "allow_swap", default=False, show_default=True,
              help="Allow the swap rule (same as param_game allow_swap 1).")
@click.option("--swap-style", type=click.Choice(SWAP_STYLES), default="swap-pieces",
              show_default=True, help="How genmove answers when it swaps.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, writable=True),
              default=None, help="Write search logs to FILE instead of stderr.")
@click.option("--quiet", is_flag=True, help="No search logs at all.")
@click.option("--live-gfx/--no-live-gfx", default=False, show_default=True,
              help="During genmove, write a gogui-gfx block (PV, root scores, depth) after "
              "every finished iteration, for HexGui; never for match controllers.")
@click.version_option(hexengine.__version__, "--version", prog_name="hexengine",
                      message="%(prog)s %(version)s")
def main(max_time: float, evaluation: str, algorithm: str, max_depth: int, width: int,
         ordering: str, seed: int, randomize: bool, knowledge: bool, allow_swap: bool,
         swap_style: str, log_file: Optional[str], quiet: bool, live_gfx: bool) -> None:
    """Hex engine speaking HTP (GTP for Hex) on stdin/stdout.

    Every option is also an engine parameter (param_hexengine, same name with
    underscores: --time is max_time, --eval evaluation, --depth max_depth, --swap
    allow_swap, --log log_file)."""
    settings = Settings(algorithm=algorithm, evaluation=evaluation, max_time=max_time,
                        max_depth=max_depth, width=width, ordering=ordering, seed=seed,
                        randomize=randomize, knowledge=knowledge)
    engine = Engine(settings, allow_swap=allow_swap, log=sys.stderr, swap_style=swap_style,
                    live_gfx=live_gfx, log_file=log_file, quiet=quiet)
    session = Session(engine.handle, _stdin_lines(), sys.stdout)
    engine.gfx_out = session.send_gfx
    status = session.run()
    sys.exit(status)
