"""Match statistics: Elo difference with a 95 % interval, likelihood of superiority, SPRT, and
a rating list fitted from a whole tournament.

Hex has no draws, so a match is a binomial experiment on the score p = wins / games.
"""
from __future__ import annotations

import math
from typing import Iterable

import numpy as np

Z95 = 1.959964


def elo(p: float) -> float:
    """Elo difference for an expected score p; ±inf at 1 and 0."""
    if p >= 1.0:
        return math.inf
    if p <= 0.0:
        return -math.inf
    return -400.0 * math.log10(1.0 / p - 1.0)


def expected_score(elo_diff: float) -> float:
    return 1.0 / (1.0 + 10 ** (-elo_diff / 400.0))


def score_interval(wins: int, losses: int) -> tuple[float, float, float]:
    """(score, low, high): the share of games won and its 95 % Wilson score interval
    ((0.5, 0, 1) before any game)."""
    n = wins + losses
    if n == 0:
        return 0.5, 0.0, 1.0
    p = wins / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return p, max(0.0, centre - half), min(1.0, centre + half)


def elo_interval(wins: int, losses: int) -> tuple[float, float, float]:
    """(Elo, low, high): the difference and its 95 % interval.

    The interval is the Wilson score interval of p mapped to Elo, so it stays finite on one
    side even when one engine won every game (where the point estimate is infinite)."""
    if wins + losses == 0:
        return 0.0, -math.inf, math.inf
    p, low, high = score_interval(wins, losses)
    return elo(p), elo(low), elo(high)


def los(wins: int, losses: int) -> float:
    """Likelihood of superiority: P(the first engine is stronger)."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def sprt(wins: int, losses: int, elo0: float, elo1: float, alpha: float = 0.05,
         beta: float = 0.05) -> tuple[float, float, float, str]:
    """(LLR, lower bound, upper bound, verdict) of the binomial SPRT of elo0 against elo1.

    The verdict is 'H1' (the first engine is elo1 stronger), 'H0' (it is at most elo0
    stronger) or 'continue'."""
    p0, p1 = expected_score(elo0), expected_score(elo1)
    llr = wins * math.log(p1 / p0) + losses * math.log((1 - p1) / (1 - p0))
    lower = math.log(beta / (1 - alpha))
    upper = math.log((1 - beta) / alpha)
    verdict = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
    return llr, lower, upper, verdict


def fit_ratings(names: list[str], games: Iterable[tuple[str, str]],
                prior_games: float = 1.0) -> dict[str, tuple[float, float]]:
    """Bradley–Terry ratings from (winner, loser) pairs: name -> (Elo, 95 % half-width).

    Each pair of engines that met gets ``prior_games`` virtual games split evenly between
    them (half a win each way), so an engine that won every game still has a finite rating.
    Ratings are centred on a mean of 0.  The interval comes from the curvature of the
    log-likelihood (the observed Fisher information) at the fit."""
    index = {name: i for i, name in enumerate(names)}
    k = len(names)
    wins = np.zeros((k, k))
    for winner, loser in games:
        wins[index[winner], index[loser]] += 1.0
    played = wins + wins.T
    wins = wins + np.where(played > 0, prior_games / 2.0, 0.0)
    played = wins + wins.T
    total_wins = wins.sum(axis=1)
    gamma = np.ones(k)
    for _ in range(10_000):  # Hunter's MM iteration; converges monotonically
        denom = (played / (gamma[:, None] + gamma[None, :])).sum(axis=1)
        new = np.where(denom > 0, total_wins / np.maximum(denom, 1e-300), gamma)
        new = np.maximum(new, 1e-300)
        new /= math.exp(np.log(new).mean())
        if np.max(np.abs(np.log(new) - np.log(gamma))) < 1e-10:
            gamma = new
            break
        gamma = new
    theta = np.log(gamma)
    p = 1.0 / (1.0 + np.exp(theta[None, :] - theta[:, None]))  # p[i, j] = P(i beats j)
    info = played * p * p.T
    hessian = np.diag(info.sum(axis=1)) - info
    cov = np.linalg.pinv(hessian)  # the ratings are fixed up to a constant: pseudo-inverse
    scale = 400.0 / math.log(10.0)
    out = {}
    for name, i in index.items():
        var = max(float(cov[i, i]), 0.0)
        out[name] = (float(theta[i] * scale), Z95 * math.sqrt(var) * scale)
    return out
