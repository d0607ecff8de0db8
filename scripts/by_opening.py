#!/usr/bin/env python3
"""Per opening, who won with black and who with white: which openings ENGINE loses where
its opponent, given the same opening and colour, wins.

With colours exchanged, each opening is played once by each engine as black.  On 9×9
nearly every opening is a win for black, so an opening that the opponent wins as black but
ENGINE loses as black is a won position ENGINE threw away.  Several matches (e.g. one
engine's configurations against the same opponent and openings) can be read together:

    python scripts/by_opening.py matches/wide-1/results.jsonl matches/quies-1/results.jsonl \
        --engine ours
"""
from __future__ import annotations

import json
from collections import defaultdict

import click


def tally(records: list[dict], engine: str) -> dict[str, dict[str, list[int]]]:
    """Per opening (its moves joined by spaces): ``engine`` as black and its opponents as
    black, each as [games won by black, games]."""
    out: dict[str, dict[str, list[int]]] = defaultdict(
        lambda: {"engine": [0, 0], "opponent": [0, 0]})
    for g in records:
        if engine not in (g["black"], g["white"]):
            continue
        who = "engine" if g["black"] == engine else "opponent"
        row = out[" ".join(g.get("opening") or []) or "(none)"][who]
        row[0] += g.get("winner_colour") == "black"
        row[1] += 1
    return out


@click.command()
@click.argument("results", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--engine", required=True, help="The engine's name in the match.")
def main(results: tuple[str, ...], engine: str) -> None:
    """Per opening of RESULTS (results.jsonl files): black's wins with ENGINE as black and
    with its opponent as black; the openings ENGINE drops most come first."""
    records = []
    for path in results:
        with open(path, encoding="utf-8") as f:
            records.extend(json.loads(line) for line in f if line.strip())
    table = tally(records, engine)
    if not table:
        raise click.ClickException(f"no game of {engine!r} in {', '.join(results)}")

    def rate(won_games: list[int]) -> float:
        return won_games[0] / won_games[1] if won_games[1] else 0.0

    rows = sorted(table.items(), key=lambda kv: rate(kv[1]["engine"]) - rate(kv[1]["opponent"]))
    click.echo(f"| opening | {engine} as black won | opponent as black won |")
    click.echo("|---|---|---|")
    totals = {"engine": [0, 0], "opponent": [0, 0]}
    for opening, row in rows:
        for who in totals:
            totals[who][0] += row[who][0]
            totals[who][1] += row[who][1]
        e, o = row["engine"], row["opponent"]
        click.echo(f"| {opening} | {e[0]}/{e[1]} | {o[0]}/{o[1]} |")
    e, o = totals["engine"], totals["opponent"]
    click.echo(f"| all | {e[0]}/{e[1]} | {o[0]}/{o[1]} |")


if __name__ == "__main__":
    main()
