"""``hex-match``: play HTP engines against each other (two engines: a match; more: a
round-robin tournament) and report win rates, Elo with error bars, LOS and SPRT."""
from __future__ import annotations

import math
import os
import re
import signal
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Optional, Sequence

import click

from .controller import EngineError, start_engine
from .judge import DfpnJudge
from .openings import OpeningError, resolve
from .referee import GameResult, Rules
from .report import ReportInfo, write_reports
from .runner import Match, MatchConfig, MatchError, sprt_state

_NAME_RE = re.compile(r"^[A-Za-z0-9_.+-]+$")


def judge_options(limit: float, limit_help: str):
    """The click options of a script that has a solver judge positions: ``--judge`` (an HTP
    engine with ``dfpn-solve-state``, e.g. Wolve), ``--judge-init`` (its first commands,
    ``{seconds}`` the limit) and ``--limit``; ``judge_from`` makes the judge."""
    def decorate(command):
        command = click.option("--limit", type=float, default=limit, show_default=True,
                               help=limit_help)(command)
        command = click.option("--judge-init", multiple=True,
                               default=("param_dfpn timelimit {seconds}",), show_default=True,
                               help="Commands sent to the judge first ({seconds}: the "
                                    "limit).")(command)
        return click.option("--judge", required=True,
                            help="An HTP engine with dfpn-solve-state.")(command)
    return decorate


def judge_from(command: str, init: Sequence[str], limit: float) -> DfpnJudge:
    """The judge of ``judge_options``: ``dfpn-clear-tt`` before each position, and a whole
    position may take ``limit`` + 30 s."""
    return DfpnJudge(command, [c.format(seconds=limit) for c in init], timeout=limit + 30)


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


def parse_game_time(text: Optional[str]) -> tuple[float, float]:
    """'60' -> (60, 0), '30+0.5' -> (30, 0.5): a game clock's seconds and increment;
    None -> (0, 0), no game clock."""
    if text is None:
        return 0.0, 0.0
    main, _, inc = text.partition("+")
    try:
        values = float(main), float(inc or 0)
    except ValueError:
        values = (math.nan, math.nan)
    if not (values[0] > 0 and values[1] >= 0) or math.isinf(values[0] + values[1]):
        raise click.BadParameter(f"{text!r}: expected MAIN or MAIN+INC seconds, MAIN > 0",
                                 param_hint="--game-time")
    return values


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
            how = result.reason + (f", {result.judged}" if result.judged else "")
            last = f"game {result.game + 1}: {result.winner} beat {result.loser} ({how})"
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


class _Terminate:
    """SIGTERM's handler: stop as on Ctrl-C.  It also notes the signal and sets the match's
    stop flag, since the KeyboardInterrupt it raises may land in a finaliser (a Dask
    future's ``__del__``), where Python only prints it and the match would play on."""

    def __init__(self, stop) -> None:
        self.stop = stop
        self.signalled = False

    def __call__(self, signum, frame) -> None:
        self.signalled = True
        self.stop.set()
        raise KeyboardInterrupt


def engines_of(engine_specs: Sequence[str], init_specs: Sequence[str]
               ) -> tuple[dict[str, str], dict[str, list[str]]]:
    """``--engine NAME=COMMAND`` and ``--init NAME=HTP_COMMAND`` options: the engines by
    name, and each named engine's init commands in order (click errors name the option)."""
    engines: dict[str, str] = {}
    for spec in engine_specs:
        name, command = _name_value("--engine", spec)
        if name in engines:
            raise click.BadParameter(f"engine name {name} given twice", param_hint="--engine")
        engines[name] = command
    init: dict[str, list[str]] = {}
    for spec in init_specs:
        name, command = _name_value("--init", spec)
        if name not in engines:
            raise click.BadParameter(f"no engine called {name}", param_hint="--init")
        init.setdefault(name, []).append(command)
    return engines, init


def _preflight(engines: dict[str, str], init: dict[str, list[str]], timeout: float) -> None:
    """Start each engine once, all at the same time, so a wrong command fails now rather
    than in every game."""
    def check(name: str) -> Optional[str]:
        try:
            start_engine(engines[name], name, init.get(name, []), timeout).close()
        except EngineError as exc:
            return f"engine {name} ({engines[name]}) does not start: {exc}"
        return None
    with ThreadPoolExecutor(max_workers=len(engines) or 1) as pool:
        failures = [f for f in pool.map(check, engines) if f is not None]
    if failures:
        raise click.ClickException(failures[0])


def _start_judge(command: Optional[str], init: tuple[str, ...], timeout: float,
                 startup_timeout: float) -> Optional[DfpnJudge]:
    """The judge of forfeits, started now (it runs on this machine, also with --cluster),
    so a wrong command fails before any game."""
    if command is None:
        if init:
            raise click.UsageError("--judge-init needs --judge")
        return None
    judge = DfpnJudge(command, init, timeout, "judge", startup_timeout)
    try:
        judge.start()
    except EngineError as exc:
        raise click.ClickException(f"the judge ({command}) does not start: {exc}") from None
    return judge


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
              help="Seconds beyond --time (or the game clock) before a genmove loses on "
                   "time.")
@click.option("--game-time", "game_time", default=None, metavar="MAIN[+INC]",
              help="A game clock instead of --time: MAIN seconds for each engine's whole "
                   "game, INC added after each of its moves (e.g. 60, 30+0.5); sent with "
                   "time_settings MAIN 0 0 and time_left before each genmove.")
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
@click.option("--judge", "judge_command", default=None, metavar="COMMAND",
              help="An HTP engine with dfpn-solve-state that solves the position of every "
                   "forfeit (crash, timeout, refusal, illegal move, garbage): was the "
                   "engine that forfeited lost?  Runs on this machine, after the game.")
@click.option("--judge-init", multiple=True, metavar="HTP_COMMAND",
              help="An HTP command sent to the judge when it starts (repeatable), e.g. "
                   "'param_dfpn timelimit 10' (Benzene) or 'param_hexengine solver_time 10'.")
@click.option("--judge-timeout", type=click.FloatRange(min=0.1), default=60.0,
              show_default=True, help="Seconds the judge may take for one position before "
                                      "it is killed (the verdict is then judge-error).")
@click.option("--engine-logs", is_flag=True, help="Keep each engine's stderr in OUT/logs.")
@click.option("--quiet", is_flag=True, help="No progress line.")
def main(engine_specs: tuple[str, ...], init_specs: tuple[str, ...], size: str,
         games: Optional[int], move_time: float, grace: float, game_time: Optional[str],
         openings: str, seed: int,
         jobs: Optional[int], cluster_address: Optional[str], cluster_timeout: float,
         out_dir: Optional[str], swap: bool, sprt: Optional[str], judge_command: Optional[str],
         judge_init: tuple[str, ...], judge_timeout: float, engine_logs: bool,
         quiet: bool) -> None:
    """Play HTP Hex engines against each other, fairly, and report the result.

    Two engines play a match; three or more play a round robin.  The runner is the referee:
    it checks every move, detects the win itself, and scores a crash, hang, illegal move,
    refusal or garbage output as a loss for that engine.  The output directory gets every
    game (SGF, results.jsonl), summary.md/.csv and report.html with SVG pictures, rewritten
    as games finish.
    """
    engines, init = engines_of(engine_specs, init_specs)
    if len(engines) < 2:
        raise click.UsageError("give at least two engines (--engine NAME=COMMAND)")
    if cluster_address and engine_logs:
        raise click.UsageError("--engine-logs is for local matches: on a cluster the "
                               "engines' stderr stays on the workers")
    width, height = parse_size(size)
    main_time, increment = parse_game_time(game_time)
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
    rules = Rules(width, height, move_time, grace, swap, main_time=main_time,
                  increment=increment)
    config = MatchConfig(engines, rules, opening_list, games, init, sprt_config, openings)
    names = list(engines)
    if out_dir is None:
        out_dir = os.path.join("matches", "-".join(names) + f"-{width}x{height}")
    progress = Progress(names, len(config.schedule()), 0, not quiet)
    judge = _start_judge(judge_command, judge_init, judge_timeout, rules.startup_timeout)
    client = None
    try:
        if cluster_address:
            from .cluster import ClusterMatch, connect
            client = connect(cluster_address, cluster_timeout)
            match: Match = ClusterMatch(config, out_dir, client, jobs, progress, judge)
            match.check_workers()
        else:
            _preflight(engines, init, rules.startup_timeout)
            match = Match(config, out_dir, jobs or 1, engine_logs, progress, judge)
    except (MatchError, click.ClickException) as exc:
        if client is not None:
            from .cluster import closing
            closing(client)
        if judge is not None:
            judge.close()
        if isinstance(exc, click.ClickException):
            raise
        raise click.ClickException(str(exc)) from None
    info = ReportInfo(names, width, height, rules.time_text(), openings, swap,
                      len(config.schedule()), sprt_config)

    def on_result(result: GameResult, results: list[GameResult]) -> None:
        progress(result, results)
        write_reports(out_dir, info, results, sprt_state(config, results))

    match.on_result = on_result
    progress.start_done = len(match.store.results)
    if match.store.extended_from is not None:  # said even with --quiet: the match changed
        click.echo(f"extending {out_dir} from {match.store.extended_from} to {games} games "
                   f"per pair", err=True)
    if progress.start_done and not quiet:
        click.echo(f"resuming {out_dir}: {progress.start_done} games already played", err=True)
    interrupted = False
    failure = None
    terminate = _Terminate(match.stop)
    signal.signal(signal.SIGTERM, terminate)  # kill / a CI timeout: stop as on Ctrl-C
    try:
        unjudged = len(match.unjudged())
        if unjudged:  # said even with --quiet: results.jsonl is rewritten
            click.echo(f"judging {unjudged} forfeits of games played before", err=True)
            match.judge_stored()
        if match.store.results:  # the report of the games so far, before the next ends
            write_reports(out_dir, info, match.store.all(),
                          sprt_state(config, match.store.all()))
        results = match.run()
        if terminate.signalled:  # (its KeyboardInterrupt was swallowed: see _Terminate)
            raise KeyboardInterrupt
    except KeyboardInterrupt:
        interrupted = True
        results = match.store.all()
    except MatchError as exc:
        failure = str(exc)
        results = match.store.all()
    finally:
        if judge is not None:
            judge.cancel()  # killed: its verdicts are all in
    try:
        _report(match, info, config, results, progress, out_dir, interrupted, failure)
    finally:
        if client is not None:
            from .cluster import closing
            closing(client)


def _report(match: Match, info: ReportInfo, config: MatchConfig, results: list[GameResult],
            progress: Progress, out_dir: str, interrupted: bool,
            failure: Optional[str]) -> None:
    """Write and print the summary; exit 130 after Ctrl-C, 1 when games were lost."""
    progress.finish()
    text = write_reports(out_dir, info, results, sprt_state(config, results),
                         match.stopped_by_sprt)
    click.echo(text)
    click.echo(f"games, results.jsonl, summary and report.html in {out_dir}")
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
