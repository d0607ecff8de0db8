"""``hex-match``: play HTP engines against each other (two engines: a match; more: a
round-robin tournament) and report win rates, Elo with error bars, LOS and SPRT."""
from __future__ import annotations

import os
import re
import signal
import sys
import threading
import time
from typing import Optional

import click

from .controller import EngineError, start_engine
from .openings import OpeningError, resolve
from .referee import GameResult, Rules
from .report import match_summary, pairs_csv, tournament_summary
from .runner import Match, MatchConfig, MatchError, sprt_state

_NAME_RE = re.compile(r"^[A-Za-z0-9_.+-]+$")


def _name_value(option: str, text: str) -> tuple[str, str]:
    if "=" not in text:
        raise click.BadParameter(f"{text!r} is not NAME=VALUE", param_hint=option)
    name, value = text.split("=", 1)
    name, value = name.strip(), value.strip()
    if not _NAME_RE.match(name):
        raise click.BadParameter(f"engine name {name!r}: use letters, digits, _ . + -",
                                 param_hint=option)
    if not value:
        raise click.BadParameter(f"{name}: empty value", param_hint=option)
    return name, value


def parse_size(text: str) -> tuple[int, int]:
    """'11' or '11x9' -> (width, height)."""
    m = re.fullmatch(r"\s*(\d+)\s*(?:[xX:]\s*(\d+))?\s*", text)
    if not m:
        raise click.BadParameter(f"{text!r} is not N or WxH", param_hint="--size")
    width = int(m.group(1))
    height = int(m.group(2)) if m.group(2) else width
    if not (1 <= width <= 52 and 1 <= height <= 52):
        raise click.BadParameter(f"{text}: each side must be 1..52", param_hint="--size")
    return width, height


def parse_sprt(text: Optional[str]) -> Optional[tuple[float, float, float, float]]:
    """'elo0 elo1 [alpha beta]' (spaces or commas) -> the four numbers."""
    if text is None:
        return None
    try:
        values = [float(v) for v in text.replace(",", " ").split()]
    except ValueError:
        values = []
    if len(values) not in (2, 4):
        raise click.BadParameter(f"{text!r}: expected 'elo0 elo1 [alpha beta]'",
                                 param_hint="--sprt")
    if len(values) == 2:
        values += [0.05, 0.05]
    elo0, elo1, alpha, beta = values
    if not elo0 < elo1 or not (0 < alpha < 0.5 and 0 < beta < 0.5):
        raise click.BadParameter("need elo0 < elo1 and 0 < alpha, beta < 0.5",
                                 param_hint="--sprt")
    return elo0, elo1, alpha, beta


class Progress:
    """A live status line on stderr (one line per game when stderr is not a terminal)."""

    def __init__(self, names: list[str], total: int, done: int, enabled: bool) -> None:
        self.names = names
        self.total = total
        self.start_done = done
        self.started = time.monotonic()
        self.enabled = enabled
        self.tty = sys.stderr.isatty()
        self._lock = threading.Lock()

    def __call__(self, result: GameResult, results: list[GameResult]) -> None:
        if not self.enabled:
            return
        with self._lock:
            done = len(results)
            if len(self.names) == 2:
                a, b = self.names
                wins = sum(1 for r in results if r.winner == a)
                score = f"{a} {wins} - {done - wins} {b} ({100.0 * wins / done:.1f} %)"
            else:
                won: dict[str, int] = {}
                for r in results:
                    won[r.winner] = won.get(r.winner, 0) + 1
                leader = max(won, key=lambda n: won[n])
                score = f"leader {leader} {won[leader]} wins"
            elapsed = time.monotonic() - self.started
            new = done - self.start_done
            eta = ""
            if new > 0 and done < self.total:
                left = elapsed / new * (self.total - done)
                eta = f", ~{int(left // 60)}:{int(left % 60):02d} left"
            last = (f"game {result.game + 1}: {result.winner} beat {result.loser} "
                    f"({result.reason})")
            width = len(str(self.total))
            line = (f"[{done:>{width}}/{self.total}] {score} | {last} | "
                    f"{int(elapsed // 60)}:{int(elapsed % 60):02d}{eta}")
            if self.tty:
                sys.stderr.write("\r\033[K" + line)
            else:
                sys.stderr.write(line + "\n")
            sys.stderr.flush()

    def finish(self) -> None:
        if self.enabled and self.tty:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _terminate(signum, frame) -> None:
    raise KeyboardInterrupt


def _preflight(engines: dict[str, str], init: dict[str, list[str]], timeout: float) -> None:
    """Start each engine once, so a wrong command fails now rather than in every game."""
    for name, command in engines.items():
        try:
            start_engine(command, name, init.get(name, []), timeout).close()
        except EngineError as exc:
            raise click.ClickException(f"engine {name} ({command}) does not start: {exc}") \
                from None


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--engine", "engine_specs", multiple=True, required=True, metavar="NAME=COMMAND",
              help="An engine and the command that starts it (give two or more).")
@click.option("--init", "init_specs", multiple=True, metavar="NAME=HTP_COMMAND",
              help="An HTP command sent to engine NAME when it starts (repeatable), "
                   "e.g. 'mohex=param_mohex max_time 1'.")
@click.option("--size", default="11", show_default=True, help="Board size: N or WxH.")
@click.option("--games", type=click.IntRange(min=1), default=None,
              help="Games per pair of engines [default: every opening twice].")
@click.option("--time", "move_time", type=click.FloatRange(min=0.01), default=1.0,
              show_default=True, help="Seconds per move, sent with time_settings/time_left.")
@click.option("--grace", type=click.FloatRange(min=0.0), default=1.0, show_default=True,
              help="Seconds beyond --time before a genmove loses on time.")
@click.option("--openings", default="none", show_default=True,
              help="none | all (every 1-ply opening) | FILE (one per line) | random:N "
                   "(random N-ply openings); each opening is played with both colours.")
@click.option("--seed", type=int, default=1, show_default=True,
              help="Seed for random openings.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Games in flight at once, each with its own engine processes "
                   "[default: 1; with --cluster, the workers' threads].")
@click.option("--cluster", "cluster_address", default=None, metavar="tcp://HOST:PORT",
              help="Play the games on this Dask scheduler's workers (pip install "
                   "'hexengine[cluster]'; the engines must be installed on the workers).")
@click.option("--cluster-timeout", type=click.FloatRange(min=0.1), default=10.0,
              show_default=True, help="Seconds to wait for the scheduler and a worker.")
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Output directory (SGFs, results.jsonl, summary); running again with "
                   "the same directory resumes [default: matches/NAMES-SIZE].")
@click.option("--swap/--no-swap", default=False, show_default=True,
              help="Allow the swap rule.")
@click.option("--sprt", default=None, metavar="'ELO0 ELO1 [ALPHA BETA]'",
              help="Stop when a sequential probability ratio test of the first engine "
                   "against the second decides (two engines only).")
@click.option("--engine-logs", is_flag=True, help="Keep each engine's stderr in OUT/logs.")
@click.option("--quiet", is_flag=True, help="No progress line.")
def main(engine_specs: tuple[str, ...], init_specs: tuple[str, ...], size: str,
         games: Optional[int], move_time: float, grace: float, openings: str, seed: int,
         jobs: Optional[int], cluster_address: Optional[str], cluster_timeout: float,
         out_dir: Optional[str], swap: bool, sprt: Optional[str], engine_logs: bool,
         quiet: bool) -> None:
    """Play HTP Hex engines against each other, fairly, and report the result.

    Two engines play a match; three or more play a round robin.  The runner is the referee:
    it checks every move, detects the win itself, and scores a crash, hang, illegal move,
    refusal or garbage output as a loss for that engine.
    """
    engines: dict[str, str] = {}
    for spec in engine_specs:
        name, command = _name_value("--engine", spec)
        if name in engines:
            raise click.BadParameter(f"engine name {name} given twice", param_hint="--engine")
        engines[name] = command
    if len(engines) < 2:
        raise click.UsageError("give at least two engines (--engine NAME=COMMAND)")
    if cluster_address and engine_logs:
        raise click.UsageError("--engine-logs is for local matches: on a cluster the "
                               "engines' stderr stays on the workers")
    init: dict[str, list[str]] = {}
    for spec in init_specs:
        name, command = _name_value("--init", spec)
        if name not in engines:
            raise click.BadParameter(f"no engine called {name}", param_hint="--init")
        init.setdefault(name, []).append(command)
    width, height = parse_size(size)
    sprt_config = parse_sprt(sprt)
    if sprt_config is not None and len(engines) != 2:
        raise click.UsageError("--sprt needs exactly two engines")
    try:
        opening_list = resolve(openings, width, height, games, seed)
    except OpeningError as exc:
        raise click.BadParameter(str(exc), param_hint="--openings") from None
    if not opening_list:
        raise click.BadParameter("no opening fits this board", param_hint="--openings")
    if games is None:
        games = 2 * len(opening_list)
    if swap and width != height:
        click.echo("note: on a non-square board a swap exchanges the engines' colours "
                   "(swap-sides)", err=True)
    rules = Rules(width, height, move_time, grace, swap)
    config = MatchConfig(engines, rules, opening_list, games, init, sprt_config, openings)
    names = list(engines)
    if out_dir is None:
        out_dir = os.path.join("matches", "-".join(names) + f"-{width}x{height}")
    progress = Progress(names, len(config.schedule()), 0, not quiet)
    client = None
    try:
        if cluster_address:
            from .cluster import ClusterMatch, connect
            client = connect(cluster_address, cluster_timeout)
            match: Match = ClusterMatch(config, out_dir, client, jobs, progress)
            match.check_workers()
        else:
            _preflight(engines, init, rules.startup_timeout)
            match = Match(config, out_dir, jobs or 1, engine_logs, progress)
    except MatchError as exc:
        if client is not None:
            from .cluster import closing
            closing(client)
        raise click.ClickException(str(exc)) from None
    progress.start_done = len(match.store.results)
    if match.store.extended_from is not None:  # said even with --quiet: the match changed
        click.echo(f"extending {out_dir} from {match.store.extended_from} to {games} games "
                   f"per pair", err=True)
    if progress.start_done and not quiet:
        click.echo(f"resuming {out_dir}: {progress.start_done} games already played", err=True)
    interrupted = False
    failure = None
    signal.signal(signal.SIGTERM, _terminate)  # kill / a CI timeout: stop as on Ctrl-C
    try:
        results = match.run()
    except KeyboardInterrupt:
        interrupted = True
        results = match.store.all()
    except MatchError as exc:
        failure = str(exc)
        results = match.store.all()
    try:
        _report(match, config, results, openings, out_dir, interrupted, failure)
    finally:
        if client is not None:
            from .cluster import closing
            closing(client)


def _report(match: Match, config: MatchConfig, results: list[GameResult], openings: str,
            out_dir: str, interrupted: bool, failure: Optional[str]) -> None:
    """Write and print the summary; exit 130 after Ctrl-C, 1 when games were lost."""
    names = list(config.engines)
    r = config.rules
    width, height, move_time, swap, sprt_config = r.width, r.height, r.time, r.swap, config.sprt
    progress = match.on_result
    if isinstance(progress, Progress):
        progress.finish()
    title = (f"{' vs '.join(names)}: {len(results)} of {len(config.schedule())} games, "
             f"{width}x{height}, {move_time:g} s/move, openings {openings}"
             + (", swap" if swap else ""))
    if len(names) == 2:
        text = match_summary(names, results, title, sprt_state(config, results), sprt_config)
        if match.stopped_by_sprt:
            text += "Stopped early: the SPRT decided.\n"
    else:
        text = tournament_summary(names, results, title)
    with open(os.path.join(out_dir, "summary.md"), "w", encoding="utf-8") as f:
        f.write(text)
    with open(os.path.join(out_dir, "summary.csv"), "w", encoding="utf-8") as f:
        f.write(pairs_csv(names, results))
    click.echo(text)
    click.echo(f"games, results.jsonl and summary in {out_dir}")
    if interrupted:
        click.echo("interrupted: finished games are kept; run the same command to resume",
                   err=True)
        sys.exit(130)
    unplayed = getattr(match, "unplayed", [])
    if failure or unplayed:
        for line in unplayed:
            click.echo(f"not played: {line}", err=True)
        click.echo(f"error: {failure}" if failure else
                   "some games were not played; run the same command to play them", err=True)
        sys.exit(1)
