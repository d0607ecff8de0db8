"""Reports of finished games: the two-engine match summary, the per-engine tournament tables
(opponent, won, lost, win rate, total) and the fitted rating list, as Markdown and CSV."""
from __future__ import annotations

import csv
import io
import math
from collections import Counter
from typing import Optional

from . import stats
from .referee import GameResult


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
    if sprt_state is not None and sprt_config is not None:
        _, _, llr, lower, upper, verdict = sprt_state
        elo0, elo1, alpha, beta = sprt_config
        meaning = {"H1": f"accept H1: {a} is stronger by about {elo1:g} Elo or more",
                   "H0": f"accept H0: {a} is not stronger by more than {elo0:g} Elo",
                   "continue": "undecided"}[verdict]
        lines.append(f"SPRT (elo0 {elo0:g}, elo1 {elo1:g}, alpha {alpha:g}, beta {beta:g}): "
                     f"LLR {llr:.2f} in [{lower:.2f}, {upper:.2f}] — {meaning}")
    lines.append(_reasons(results))
    return "\n".join(lines) + "\n"


def _reasons(results: list[GameResult]) -> str:
    counts = Counter(r.reason for r in results)
    failures = Counter((r.loser, r.reason) for r in results
                       if r.reason not in ("connection", "resignation"))
    text = "Games ended by: " + ", ".join(f"{k} {v}" for k, v in counts.most_common())
    if failures:
        text += ". Forfeits: " + ", ".join(f"{name} {reason} {n}"
                                           for (name, reason), n in failures.most_common())
    return text + "."


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
    return (f"## {title}\n\nRating list (Bradley–Terry fit of all games, mean 0):\n\n"
            f"{rating_list(names, results)}\n{tournament_tables(names, results)}\n"
            f"{_reasons(results)}\n")


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
