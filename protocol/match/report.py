"""Reports of finished games: the two-engine match summary, the per-engine tournament tables
(opponent, won, lost, win rate, total) and the fitted rating list, as Markdown and CSV; with
judged forfeits, the wins by how they came, the score counting only proved forfeits and,
where an engine forfeited a position it had won, the score as the judge found each game.
``write_reports`` writes them, with the pictures and the HTML page (``pictures.py``), into
the output directory."""
from __future__ import annotations

import csv
import io
import math
import os
import time
from collections import Counter
from dataclasses import dataclass, replace
from typing import Optional

from . import pictures, stats
from .referee import FORFEITS, GameResult


def _count(n: int, word: str) -> str:
    """'1 game', '2 games'."""
    return f"{n} {word}{'' if n == 1 else 's'}"


def _pct(won: int, total: int) -> str:
    return f"{100.0 * won / total:.1f} %" if total else "-"


def _elo_text(value: float) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    return f"{value:+.0f}"


def pair_counts(names: list[str], results: list[GameResult]) -> dict[tuple[str, str], int]:
    """(winner, loser) -> games."""
    counts: Counter = Counter()
    for r in results:
        counts[(r.winner, r.loser)] += 1
    return dict(counts)


def match_summary(names: list[str], results: list[GameResult], title: str,
                  sprt_state: Optional[tuple] = None,
                  sprt_config: Optional[tuple] = None) -> str:
    """The two-engine report: score overall and by colour, Elo with 95 % interval, LOS."""
    a, b = names
    lines = [f"## {title}", ""]
    lines.append("| engine | won | lost | win rate | won as black | won as white | total |")
    lines.append("|---|---|---|---|---|---|---|")
    for me in (a, b):
        won = sum(1 for r in results if r.winner == me)
        as_black = [r for r in results if r.black == me]
        as_white = [r for r in results if r.white == me]
        bw = sum(1 for r in as_black if r.winner == me)
        ww = sum(1 for r in as_white if r.winner == me)
        lines.append(f"| {me} | {won} | {len(results) - won} | {_pct(won, len(results))} | "
                     f"{bw}/{len(as_black)} | {ww}/{len(as_white)} | {len(results)} |")
    wins = sum(1 for r in results if r.winner == a)
    losses = len(results) - wins
    e, low, high = stats.elo_interval(wins, losses)
    lines.append("")
    lines.append(f"Elo difference ({a} − {b}): {_elo_text(e)} "
                 f"[{_elo_text(low)}, {_elo_text(high)}] (95 %), "
                 f"likelihood of superiority {100 * stats.los(wins, losses):.1f} %")
    black_wins = sum(1 for r in results if r.winner_colour == "black")
    lines.append(f"Black won {black_wins} of {len(results)} games.")
    times = move_times(names, results)
    if times:
        lines.append(times)
    if sprt_state is not None and sprt_config is not None:
        _, _, llr, lower, upper, verdict = sprt_state
        elo0, elo1, alpha, beta = sprt_config
        meaning = {"H1": f"accept H1: {a} is stronger by about {elo1:g} Elo or more",
                   "H0": f"accept H0: {a} is not stronger by more than {elo0:g} Elo",
                   "continue": "undecided"}[verdict]
        lines.append(f"SPRT (elo0 {elo0:g}, elo1 {elo1:g}, alpha {alpha:g}, beta {beta:g}): "
                     f"LLR {llr:.2f} in [{lower:.2f}, {upper:.2f}] — {meaning}")
    lines.append(_reasons(results))
    if any(r.judged for r in results):
        lines += ["", judged_table(names, results), "", _proved_line(a, b, results)]
        if any(r.judged == "proved-won" for r in results):
            lines.append(_judged_line(a, b, results))
    return "\n".join(lines) + "\n"


def move_times(names: list[str], results: list[GameResult]) -> str:
    """Each engine's mean and longest time per move (its ``genmove`` answers, the opening
    moves not counted): a result means little if one side thought far longer."""
    parts = []
    for me in names:
        times = [m["seconds"] for r in results for m in r.moves
                 if m.get("by") == me and "seconds" in m]
        if times:
            parts.append(f"{me} {sum(times) / len(times):.2f} s mean, {max(times):.2f} s "
                         f"longest ({len(times)} moves)")
    return ("Time per move: " + "; ".join(parts) + ".") if parts else ""


def _reasons(results: list[GameResult]) -> str:
    counts = Counter(r.reason for r in results)
    failures = Counter((r.loser, r.reason) for r in results if r.reason in FORFEITS)
    text = "Games ended by: " + ", ".join(f"{k} {v}" for k, v in counts.most_common())
    if failures:
        text += ". Forfeits: " + ", ".join(f"{name} {reason} {n}"
                                           for (name, reason), n in failures.most_common())
    return text + "."


def proved(result: GameResult) -> bool:
    """Whether a game counts in the score of proved results: won on the board, by
    resignation, or by a forfeit the judge proved lost for the engine that forfeited."""
    return result.reason not in FORFEITS or result.judged == "proved-lost"


def as_judged(results: list[GameResult]) -> list[GameResult]:
    """The games as the judge found them: a forfeit of a position proved won for the
    engine that forfeited is that engine's win (it was winning on the board); a forfeit
    proved lost stays the opponent's; one not proved either way is left out."""
    out = []
    for r in results:
        if r.reason in FORFEITS and r.judged == "proved-won":
            out.append(replace(r, winner=r.loser, loser=r.winner,
                                           winner_colour=_other_colour(r.winner_colour)))
        elif proved(r):
            out.append(r)
    return out


def _other_colour(colour: str) -> str:
    return "white" if colour == "black" else "black"


# the columns of the judged table: (heading, does a won game belong there)
_HOW = (("connection", lambda r: r.reason == "connection"),
        ("resignation", lambda r: r.reason == "resignation"),
        ("forfeit proved lost", lambda r: r.reason in FORFEITS and r.judged == "proved-lost"),
        ("forfeit not proved", lambda r: r.reason in FORFEITS and r.judged == "not-proved"),
        ("forfeit of a won position",
         lambda r: r.reason in FORFEITS and r.judged == "proved-won"),
        ("forfeit, judge error", lambda r: r.reason in FORFEITS and r.judged == "judge-error"),
        ("forfeit not judged", lambda r: r.reason in FORFEITS and not r.judged))


def judged_table(names: list[str], results: list[GameResult]) -> str:
    """Per engine, its wins by how they came: on the board, by resignation, and by the
    opponent's forfeits as the judge found them (proved lost for the opponent, not proved,
    proved won for it, the judge failed, not judged)."""
    lines = ["Wins by how they came (a forfeit: the loser crashed, hung, refused to move, "
             "moved illegally or wrote garbage; the judge solved the position it left, and "
             "'proved lost' means lost for the loser):", "",
             "| engine | won | " + " | ".join(head for head, _ in _HOW) + " |",
             "|---" * (len(_HOW) + 2) + "|"]
    for me in names:
        won = [r for r in results if r.winner == me]
        lines.append(f"| {me} | {len(won)} | "
                     + " | ".join(str(sum(1 for r in won if how(r))) for _, how in _HOW)
                     + " |")
    return "\n".join(lines)


def _proved_line(a: str, b: str, results: list[GameResult]) -> str:
    """The match counted on proved results only: the score and Elo of ``a``."""
    return _score_line("Counting only forfeits proved lost", a, b, results,
                       [r for r in results if proved(r)])


def _judged_line(a: str, b: str, results: list[GameResult]) -> str:
    """The match scored as the judge found each forfeit (``as_judged``)."""
    return _score_line("Scoring each forfeit as judged, a forfeit of a won position as a "
                       "win for the side that forfeited", a, b, results, as_judged(results))


def _score_line(title: str, a: str, b: str, results: list[GameResult],
                kept: list[GameResult]) -> str:
    """``a``'s score and Elo over the games ``kept`` of ``results``, after ``title``."""
    head = (f"{title} ({_count(len(kept), 'game')}, "
            f"{_count(len(results) - len(kept), 'unproved forfeit')} left out)")
    if not kept:
        return head + ": no game to count."
    wins = sum(1 for r in kept if r.winner == a)
    losses = len(kept) - wins
    e, low, high = stats.elo_interval(wins, losses)
    return (f"{head}: {a} {wins} – {losses} {b}, {a} scores {_pct(wins, len(kept))}; "
            f"Elo difference ({a} − {b}) {_elo_text(e)} [{_elo_text(low)}, "
            f"{_elo_text(high)}] (95 %).")


def tournament_tables(names: list[str], results: list[GameResult]) -> str:
    """Per engine: its total win rate and a table against each opponent."""
    counts = pair_counts(names, results)
    out = []
    for me in names:
        rows = []
        total_won = total_games = 0
        for other in names:
            if other == me:
                continue
            won = counts.get((me, other), 0)
            lost = counts.get((other, me), 0)
            if won + lost == 0:
                continue
            total_won += won
            total_games += won + lost
            rows.append(f"| {other} | {won} | {lost} | {_pct(won, won + lost)} | "
                        f"{won + lost} |")
        out.append(f"### {me} — {_pct(total_won, total_games)} of {total_games} games")
        out.append("")
        out.append("| opponent | won | lost | win rate | total |")
        out.append("|---|---|---|---|---|")
        out.extend(rows)
        out.append("")
    return "\n".join(out)


def rating_list(names: list[str], results: list[GameResult]) -> str:
    """Bradley–Terry Elo fitted from every game (mean 0), best first."""
    ratings = stats.fit_ratings(names, [(r.winner, r.loser) for r in results])
    played = Counter()
    won = Counter()
    for r in results:
        played[r.winner] += 1
        played[r.loser] += 1
        won[r.winner] += 1
    lines = ["| rank | engine | Elo | ± (95 %) | won | games | win rate |",
             "|---|---|---|---|---|---|---|"]
    order = sorted(names, key=lambda n: -ratings[n][0])
    for rank, name in enumerate(order, 1):
        elo, err = ratings[name]
        lines.append(f"| {rank} | {name} | {elo:+.0f} | {err:.0f} | {won[name]} | "
                     f"{played[name]} | {_pct(won[name], played[name])} |")
    return "\n".join(lines) + "\n"


def tournament_summary(names: list[str], results: list[GameResult], title: str) -> str:
    text = (f"## {title}\n\nRating list (Bradley–Terry fit of all games, mean 0):\n\n"
            f"{rating_list(names, results)}\n{tournament_tables(names, results)}\n"
            f"{_reasons(results)}\n")
    if any(r.judged for r in results):
        kept = [r for r in results if proved(r)]
        text += (f"\n{judged_table(names, results)}\n\nRating list counting only forfeits "
                 f"proved lost ({_count(len(kept), 'game')}, "
                 f"{_count(len(results) - len(kept), 'unproved forfeit')} left out):\n\n"
                 f"{rating_list(names, kept)}")
        if any(r.judged == "proved-won" for r in results):
            judged = as_judged(results)
            text += (f"\nRating list scoring each forfeit as judged, a forfeit of a won "
                     f"position as a win for the side that forfeited "
                     f"({_count(len(judged), 'game')}):\n\n{rating_list(names, judged)}")
    return text


def pairs_csv(names: list[str], results: list[GameResult]) -> str:
    """engine, opponent, won, lost, total, win_rate: one row per ordered pair that met."""
    counts = pair_counts(names, results)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["engine", "opponent", "won", "lost", "total", "win_rate"])
    for me in names:
        for other in names:
            if me == other:
                continue
            won, lost = counts.get((me, other), 0), counts.get((other, me), 0)
            if won + lost:
                writer.writerow([me, other, won, lost, won + lost,
                                 f"{won / (won + lost):.4f}"])
    return buf.getvalue()


@dataclass
class ReportInfo:
    """What a report says about the match besides its games."""
    names: list[str]
    width: int
    height: int
    time_text: str  # the time control, as ``Rules.time_text`` says it
    openings: str  # what --openings said
    swap: bool
    scheduled: int  # games in the whole schedule
    sprt: Optional[tuple[float, float, float, float]] = None

    def title(self, played: int) -> str:
        return (f"{' vs '.join(self.names)}: {played} of {self.scheduled} games, "
                f"{self.width}x{self.height}, {self.time_text}, openings "
                f"{self.openings}" + (", swap" if self.swap else ""))


def summary_text(info: ReportInfo, results: list[GameResult],
                 sprt_state: Optional[tuple] = None, stopped_by_sprt: bool = False) -> str:
    """summary.md: the match summary of two engines, the tournament summary of more."""
    title = info.title(len(results))
    if len(info.names) != 2:
        return tournament_summary(info.names, results, title)
    text = match_summary(info.names, results, title, sprt_state, info.sprt)
    if stopped_by_sprt:
        text += "Stopped early: the SPRT decided.\n"
    return text


def figures(info: ReportInfo, results: list[GameResult]) -> list[tuple[str, str, str]]:
    """The report's pictures: (file name, SVG, caption)."""
    first = info.names[0]
    out = [("openings.svg",
            pictures.openings_svg(info.width, info.height, first, results,
                                  f"{first}: results by opening"),
            f"The score of {first} in the games that began on each cell: blue won, red "
            f"lost, white even; the numbers are its wins/games there.")]
    if len(info.names) == 2:
        a, b = info.names
        series = [pictures.Series(f"{a}, all games", pictures.PALETTE[0],
                                  pictures.running_score(a, results))]
        if any(r.judged for r in results):
            series.append(pictures.Series(f"{a}, proved only", pictures.PALETTE[1],
                                          pictures.running_score(a, results, proved), True))
        caption = (f"The score of {a} against {b} after each game, with its 95 % interval "
                   f"(the band); the right axis reads it as an Elo difference."
                   + (" Dashed: counting only forfeits proved lost." if len(series) > 1
                      else ""))
        title = f"{a} against {b}: score as the games came in"
    else:
        series = [pictures.Series(name, pictures.PALETTE[k % len(pictures.PALETTE)],
                                  pictures.running_score(name, results))
                  for k, name in enumerate(info.names)]
        caption = ("Each engine's score in its own games after each game of the tournament, "
                   "with 95 % intervals.")
        title = "Scores as the games came in"
    out.append(("score.svg", pictures.score_svg(series, len(results), title), caption))
    if len(info.names) > 2:
        ratings = stats.fit_ratings(info.names, [(r.winner, r.loser) for r in results])
        out.append(("ratings.svg", pictures.ratings_svg(ratings, "Ratings"),
                    "Each engine's Elo from a Bradley–Terry fit of every game (mean 0), "
                    "with its 95 % interval."))
    return out


def _write(path: str, text: str) -> None:
    """Replace a file at once (a reader never sees half of it)."""
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


def write_reports(out_dir: str, info: ReportInfo, results: list[GameResult],
                  sprt_state: Optional[tuple] = None, stopped_by_sprt: bool = False) -> str:
    """Write summary.md, summary.csv, the SVG pictures and report.html; returns the
    summary's text."""
    text = summary_text(info, results, sprt_state, stopped_by_sprt)
    _write(os.path.join(out_dir, "summary.md"), text)
    _write(os.path.join(out_dir, "summary.csv"), pairs_csv(info.names, results))
    drawn = figures(info, results) if results else []
    for name, svg, _ in drawn:
        _write(os.path.join(out_dir, name), svg)
    running = len(results) < info.scheduled and not stopped_by_sprt
    note = (f"Written {time.strftime('%Y-%m-%d %H:%M:%S')} after {len(results)} of "
            f"{info.scheduled} games" + ("; the page reloads every 30 s while games remain."
                                         if running else ".")
            + " The games: results.jsonl and game-NNNNN.sgf.")
    _write(os.path.join(out_dir, "report.html"),
           pictures.html_page(f"hex-match: {' vs '.join(info.names)}", text, drawn, note,
                              30 if running else None))
    return text
