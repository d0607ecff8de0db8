"""The pictures of a match report, drawn as SVG by hand (no plotting library), and the HTML
page that shows them beside the text summary.

- ``openings_svg``: the Hex board (a1 top-left, black's edges top and bottom, white's left
  and right), each opening cell coloured by the first engine's score in the games that
  began there, with its wins and games written on it;
- ``score_svg``: the score as the games came in, with its 95 % interval as a band (a match:
  the first engine's score, and with judged forfeits the score counting only proved
  forfeits; a tournament: each engine's score in its own games);
- ``ratings_svg``: a tournament's fitted Elo ratings with their 95 % intervals.

The statistics come from ``stats`` (the Wilson interval, the Elo mapping, the
Bradley–Terry fit); this module only draws.  Every function returns text.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Iterable, Optional, Sequence
from xml.sax.saxutils import escape

from hexengine.geometry import column_letters

from . import stats
from .referee import GameResult

FONT = "font-family='DejaVu Sans, Helvetica, Arial, sans-serif'"
# one colour per engine (the first engine's is the blue end of the score scale)
PALETTE = ("#2166ac", "#d6604d", "#1b7837", "#762a83", "#e08214", "#4d4d4d", "#35978f",
           "#c51b7d")
LOW, MIDDLE, HIGH = (178, 24, 43), (247, 247, 247), (33, 102, 172)  # score 0, 1/2, 1


def _attr(text: object) -> str:
    """Text for an attribute value or an element, XML-escaped."""
    return escape(str(text), {'"': "&quot;", "'": "&apos;"})


def _n(x: float) -> str:
    """A coordinate, short."""
    return f"{x:.1f}".rstrip("0").rstrip(".") if abs(x) < 1e6 else f"{x:.0f}"


def _svg(width: float, height: float, title: str, body: Iterable[str]) -> str:
    """A standalone SVG document (also fit to stand inline in the HTML page)."""
    return (f"<svg xmlns='http://www.w3.org/2000/svg' width='{_n(width)}' "
            f"height='{_n(height)}' viewBox='0 0 {_n(width)} {_n(height)}' {FONT} "
            f"font-size='12'>\n<title>{_attr(title)}</title>\n"
            f"<rect width='100%' height='100%' fill='white'/>\n"
            + "\n".join(body) + "\n</svg>\n")


def _text(x: float, y: float, text: object, size: float = 12, anchor: str = "middle",
          extra: str = "") -> str:
    return (f"<text x='{_n(x)}' y='{_n(y)}' font-size='{_n(size)}' text-anchor='{anchor}'"
            f"{' ' + extra if extra else ''}>{_attr(text)}</text>")


def score_colour(score: float) -> str:
    """The fill for a score in [0, 1]: red (0) through near-white (1/2) to blue (1)."""
    score = min(1.0, max(0.0, score))
    a, b, t = (LOW, MIDDLE, score * 2) if score < 0.5 else (MIDDLE, HIGH, score * 2 - 1)
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b))


def _ink(score: float) -> str:
    """Text colour readable on ``score_colour(score)``."""
    return "white" if abs(score - 0.5) > 0.32 else "#111"


# --- (a) results per opening cell on the board ---------------------------------------------
@dataclass
class CellResult:
    """The first engine's games that began at one cell."""
    wins: int = 0
    games: int = 0
    black_wins: int = 0
    black_games: int = 0

    @property
    def score(self) -> float:
        return self.wins / self.games if self.games else 0.5


def opening_results(engine: str, results: Sequence[GameResult]
                    ) -> tuple[dict[str, CellResult], str]:
    """``engine``'s results grouped by the game's first move (the opening's first cell), and
    a sentence saying what the cells stand for."""
    cells: dict[str, CellResult] = {}
    lengths = set()
    for r in results:
        if engine not in (r.black, r.white) or not r.moves:
            continue
        lengths.add(len(r.opening))
        cell = cells.setdefault(r.moves[0]["move"], CellResult())
        won = r.winner == engine
        cell.games += 1
        cell.wins += won
        if r.black == engine:
            cell.black_games += 1
            cell.black_wins += won
    if lengths == {1}:
        what = "Each opening cell: the games that began with a stone there."
    elif 0 in lengths and len(lengths) == 1:
        what = ("No openings were set: each cell holds the games whose first move (black's "
                "engine's choice) was there.")
    else:
        what = ("Openings of several moves, grouped by their first move: each cell holds "
                "every game whose opening began there.")
    return cells, what


def _hex_corners(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    """A pointy-top hexagon: top, upper right, lower right, bottom, lower left, upper left."""
    w = r * math.sqrt(3) / 2
    return [(cx, cy - r), (cx + w, cy - r / 2), (cx + w, cy + r / 2), (cx, cy + r),
            (cx - w, cy + r / 2), (cx - w, cy - r / 2)]


def _points(points: Iterable[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def openings_svg(width: int, height: int, engine: str, results: Sequence[GameResult],
                 title: str = "") -> str:
    """The board with each first-move cell coloured by ``engine``'s score from it."""
    cells, what = opening_results(engine, results)
    r = max(9.0, min(30.0, 620.0 / (math.sqrt(3) * (width + (height - 1) / 2))))
    hw = r * math.sqrt(3) / 2  # half a hexagon's width
    left, top = 2.2 * r + 4, 2.2 * r + (34 if title else 12)

    def centre(col: int, row: int) -> tuple[float, float]:
        return left + hw + col * 2 * hw + row * hw, top + r + row * 1.5 * r

    def corner(col: int, row: int, k: int) -> tuple[float, float]:
        return _hex_corners(*centre(col, row), r)[k]

    body: list[str] = []
    if title:
        body.append(_text(left, 20, title, 15, "start", "font-weight='bold'"))
    # the edges, drawn thick before the cells so that the cells cover their inner half
    top_edge = [corner(0, 0, 5)] + [p for c in range(width)
                                    for p in (corner(c, 0, 0), corner(c, 0, 1))]
    bottom_edge = [corner(0, height - 1, 4)] + [
        p for c in range(width) for p in (corner(c, height - 1, 3), corner(c, height - 1, 2))]
    left_edge = [p for row in range(height) for p in (corner(0, row, 5), corner(0, row, 4))]
    right_edge = [p for row in range(height)
                  for p in (corner(width - 1, row, 1), corner(width - 1, row, 2))]
    line = "fill='none' stroke-linejoin='round' stroke-linecap='round'"
    for edge in (left_edge, right_edge):  # white's: white with a grey rim
        body.append(f"<polyline points='{_points(edge)}' {line} stroke='#777' "
                    f"stroke-width='{_n(0.62 * r)}'/>")
        body.append(f"<polyline points='{_points(edge)}' {line} stroke='white' "
                    f"stroke-width='{_n(0.46 * r)}'/>")
    for edge in (top_edge, bottom_edge):
        body.append(f"<polyline points='{_points(edge)}' {line} stroke='#111' "
                    f"stroke-width='{_n(0.62 * r)}'/>")
    font = max(7.0, 0.5 * r)
    for row in range(height):
        for col in range(width):
            name = f"{column_letters(col)}{row + 1}"
            cx, cy = centre(col, row)
            cell = cells.get(name)
            fill = "#eeeeee" if cell is None else score_colour(cell.score)
            shape = _points(_hex_corners(cx, cy, r))
            parts = [f"<g class='cell' id='cell-{name}'>"]
            if cell is None:
                parts.append(f"<title>{name}: no game began here</title>")
            else:
                white_games = cell.games - cell.black_games
                parts.append(f"<title>{_attr(name)}: {_attr(engine)} won {cell.wins} of "
                             f"{cell.games} ({cell.black_wins}/{cell.black_games} as black, "
                             f"{cell.wins - cell.black_wins}/{white_games} as white)</title>")
            parts.append(f"<polygon points='{shape}' fill='{fill}' stroke='#666' "
                         f"stroke-width='0.8'/>")
            if cell is not None:
                parts.append(_text(cx, cy + font * 0.35, f"{cell.wins}/{cell.games}", font,
                                   extra=f"fill='{_ink(cell.score)}' class='count'"))
            parts.append("</g>")
            body.append("".join(parts))
    # labels: column letters above and below, row numbers left and right
    for col in range(width):
        x, y = centre(col, 0)
        body.append(_text(x, y - 1.75 * r, column_letters(col), font + 1))
        x, y = centre(col, height - 1)
        body.append(_text(x, y + 1.75 * r + font, column_letters(col), font + 1))
    for row in range(height):
        x, y = centre(0, row)
        body.append(_text(x - 1.9 * r, y + font * 0.35, row + 1, font + 1))
        x, y = centre(width - 1, row)
        body.append(_text(x + 1.9 * r, y + font * 0.35, row + 1, font + 1))
    board_right = centre(width - 1, height - 1)[0] + 2.4 * r
    board_bottom = centre(0, height - 1)[1] + 2.4 * r + font
    # the colour scale and what the cells mean
    scale_y = board_bottom + 8
    scale_w = min(260.0, board_right - left)
    stops = "".join(f"<stop offset='{k / 4:g}' stop-color='{score_colour(k / 4)}'/>"
                    for k in range(5))
    body.append(f"<defs><linearGradient id='scale'>{stops}</linearGradient></defs>")
    body.append(f"<rect x='{_n(left)}' y='{_n(scale_y)}' width='{_n(scale_w)}' height='10' "
                f"fill='url(#scale)' stroke='#666' stroke-width='0.5'/>")
    for k, label in ((0, "0 %"), (0.5, "50 %"), (1, "100 %")):
        body.append(_text(left + k * scale_w, scale_y + 23, label, 11))
    body.append(_text(left + scale_w + 10, scale_y + 9, f"score of {engine} (wins/games on "
                      f"each cell)", 11, "start"))
    body.append(_text(left, scale_y + 40, what, 11, "start"))
    played = sum(c.games for c in cells.values())
    body.append(_text(left, scale_y + 56, f"{played} games of {engine} on "
                      f"{len(cells)} cells; black's edges top and bottom, white's left and "
                      f"right.", 11, "start"))
    total_w = max(board_right, left + scale_w + 330, left + 7 * len(what)) + 8
    return _svg(total_w, scale_y + 66, title or f"{engine}: results by opening", body)


# --- (b) the score as the games came in -------------------------------------------------
@dataclass
class Series:
    """One line of the score chart: per point (game number, wins, games so far)."""
    label: str
    colour: str
    points: list[tuple[int, int, int]]
    dashed: bool = False


def running_score(engine: str, results: Sequence[GameResult],
                  counts: Callable[[GameResult], bool] = lambda r: True) -> list[tuple[int, int, int]]:
    """(game number, ``engine``'s wins, its games) after each game it played that
    ``counts``; game numbers count every game in ``results``' order from 1."""
    out = []
    wins = games = 0
    for i, r in enumerate(results, 1):
        if engine not in (r.black, r.white) or not counts(r):
            continue
        games += 1
        wins += r.winner == engine
        out.append((i, wins, games))
    return out


def _ticks(low: float, high: float, count: int = 6) -> list[float]:
    """Round tick values covering [low, high]: steps of 1, 2 or 5 times a power of ten."""
    span = max(high - low, 1e-9)
    raw = span / max(1, count)
    power = 10 ** math.floor(math.log10(raw))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= raw)
    first = math.ceil(low / step) * step
    return [first + k * step for k in range(int((high - first) / step + 1e-9) + 1)]


def score_svg(series: Sequence[Series], total: int, title: str) -> str:
    """Score (0–100 %) against game number, each series with its 95 % band (with more
    than two series, only the final interval, as a bar at the line's end); the right axis
    reads the score as an Elo difference."""
    w, h = 760.0, 360.0
    left, right, top, bottom = 58.0, 190.0, 40.0, 46.0
    pw, ph = w - left - right, h - top - bottom
    n = max(total, max((p[0] for s in series for p in s.points), default=1), 1)

    def x(game: float) -> float:
        return left + pw * (game - (0 if n == 1 else 1)) / max(n - 1, 1)

    def y(score: float) -> float:
        return top + ph * (1 - score)

    body = [_text(left, 22, title, 14, "start", "font-weight='bold'")]
    body.append(f"<rect x='{_n(left)}' y='{_n(top)}' width='{_n(pw)}' height='{_n(ph)}' "
                f"fill='none' stroke='#888'/>")
    for s in (0, 0.25, 0.5, 0.75, 1):
        dash = " stroke-dasharray='4 3'" if s == 0.5 else ""
        body.append(f"<line x1='{_n(left)}' x2='{_n(left + pw)}' y1='{_n(y(s))}' "
                    f"y2='{_n(y(s))}' stroke='#ccc'{dash}/>")
        body.append(_text(left - 6, y(s) + 4, f"{s:.0%}".replace("%", " %"), 11, "end"))
    for elo in (-400, -200, -100, 0, 100, 200, 400):
        yy = y(stats.expected_score(elo))
        body.append(f"<line x1='{_n(left + pw)}' x2='{_n(left + pw + 4)}' y1='{_n(yy)}' "
                    f"y2='{_n(yy)}' stroke='#888'/>")
        body.append(_text(left + pw + 7, yy + 4, f"{elo:+d}" if elo else "0", 10, "start",
                          "fill='#555'"))
    body.append(_text(left + pw + 7, top - 8, "Elo", 11, "start", "fill='#555'"))
    for t in _ticks(1, n, 8):
        if t != int(t):
            continue
        body.append(f"<line x1='{_n(x(t))}' x2='{_n(x(t))}' y1='{_n(top + ph)}' "
                    f"y2='{_n(top + ph + 4)}' stroke='#888'/>")
        body.append(_text(x(t), top + ph + 17, int(t), 11))
    body.append(_text(left + pw / 2, h - 8, "game number", 11))
    ends: list[tuple[float, Series, tuple[float, float, float]]] = []
    for k, s in enumerate(series):
        if not s.points:
            continue
        intervals = [stats.score_interval(wins, games - wins) for _, wins, games in s.points]
        upper = [(x(g), y(hi)) for (g, _, _), (_, _, hi) in zip(s.points, intervals)]
        lower = [(x(g), y(lo)) for (g, _, _), (_, lo, _) in zip(s.points, intervals)]
        line = [(x(g), y(p)) for (g, _, _), (p, _, _) in zip(s.points, intervals)]
        if len(line) == 1:  # one game: a short stub so that it shows
            line = line + [(line[0][0] + 3, line[0][1])]
            upper, lower = upper + [(upper[0][0] + 3, upper[0][1])], \
                lower + [(lower[0][0] + 3, lower[0][1])]
        if len(series) <= 2:
            opacity = 0.15 if k == 0 else 0.08
            body.append(f"<polygon class='band' points='{_points(upper + lower[::-1])}' "
                        f"fill='{s.colour}' fill-opacity='{opacity}' stroke='none'/>")
        else:  # many bands hide each other: the last interval only, as a bar
            end_x = line[-1][0] - 2 - 4 * k
            body.append(f"<line class='band' x1='{_n(end_x)}' x2='{_n(end_x)}' "
                        f"y1='{_n(upper[-1][1])}' y2='{_n(lower[-1][1])}' "
                        f"stroke='{s.colour}' stroke-width='2.5' stroke-opacity='0.6'/>")
        dash = " stroke-dasharray='6 4'" if s.dashed else ""
        body.append(f"<polyline class='score' data-series='{_attr(s.label)}' "
                    f"points='{_points(line)}' fill='none' stroke='{s.colour}' "
                    f"stroke-width='1.8'{dash}/>")
        ends.append((y(intervals[-1][0]), s, intervals[-1]))
    # each series' name and final score at the right, where its line ends, never on top
    # of another's
    ends.sort(key=lambda e: e[0])
    placed: list[float] = []
    for end_y, _, _ in ends:
        placed.append(max(end_y, placed[-1] + 30 if placed else top + 8))
    shift = max(0.0, (placed[-1] if placed else 0) - (top + ph + 10))
    for (_, s, (p, lo, hi)), label_y in zip(ends, placed):
        label_y -= shift
        body.append(_text(left + pw + 42, label_y - 2, s.label, 11, "start",
                          f"fill='{s.colour}' font-weight='bold'"))
        body.append(_text(left + pw + 42, label_y + 12,
                          f"{100 * p:.1f} % [{100 * lo:.0f}, {100 * hi:.0f}]", 10, "start",
                          f"class='final' fill='{s.colour}'"))
    return _svg(w, h, title, body)


# --- (c) a tournament's ratings -----------------------------------------------------------
def ratings_svg(ratings: dict[str, tuple[float, float]], title: str) -> str:
    """Each engine's Elo (mean 0) as a dot with its 95 % interval, best first; the colours
    follow the engines' order in ``ratings``, as ``score_svg``'s series do."""
    order = sorted(ratings, key=lambda name: -ratings[name][0])
    row = 30.0
    left = 24.0 + 7.5 * max(len(name) for name in order)
    right, top = 120.0, 58.0
    w = max(620.0, left + 360 + right)
    pw = w - left - right
    h = top + row * len(order) + 44
    low = min(e - err for e, err in ratings.values())
    high = max(e + err for e, err in ratings.values())
    low, high = min(low, 0.0) - 20, max(high, 0.0) + 20
    ticks = _ticks(low, high, 6)
    low, high = min(low, ticks[0]), max(high, ticks[-1])

    def x(elo: float) -> float:
        return left + pw * (elo - low) / (high - low)

    body = [_text(12, 22, title, 14, "start", "font-weight='bold'"),
            _text(12, 40, "Bradley–Terry fit of every game, mean 0; bars: 95 % intervals",
                  11, "start", "fill='#555'")]
    bottom = top + row * len(order)
    for t in ticks:
        body.append(f"<line x1='{_n(x(t))}' x2='{_n(x(t))}' y1='{_n(top - 6)}' "
                    f"y2='{_n(bottom)}' stroke='{'#888' if t == 0 else '#ddd'}'/>")
        body.append(_text(x(t), bottom + 16, f"{t:+.0f}" if t else "0", 11))
    body.append(_text(left + pw / 2, bottom + 34, "Elo", 11))
    for k, name in enumerate(order):
        elo, err = ratings[name]
        cy = top + row * k + row / 2
        colour = PALETTE[list(ratings).index(name) % len(PALETTE)]  # as in the score chart
        body.append(f"<g class='rating' id='rating-{_attr(name)}'>"
                    f"<title>{_attr(name)}: {elo:+.0f} ± {err:.0f}</title>"
                    + _text(left - 10, cy + 4, name, 12, "end")
                    + f"<line x1='{_n(x(elo - err))}' x2='{_n(x(elo + err))}' y1='{_n(cy)}' "
                    f"y2='{_n(cy)}' stroke='{colour}' stroke-width='3'/>"
                    f"<circle cx='{_n(x(elo))}' cy='{_n(cy)}' r='5' fill='{colour}'/>"
                    + _text(left + pw + 10, cy + 4, f"{elo:+.0f} ± {err:.0f}", 11, "start",
                            "class='elo'")
                    + "</g>")
    return _svg(w, h, title, body)


# --- the page -------------------------------------------------------------------------------
def markdown_html(text: str) -> str:
    """The summary's Markdown (headings, tables, paragraphs) as XHTML; the lines of a
    paragraph stay lines (the summary writes one statement a line)."""
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i].rstrip()
        if not line:
            i += 1
            continue
        heading = len(line) - len(line.lstrip("#"))
        if heading and line[heading:heading + 1] == " ":
            level = min(max(heading, 2), 6)  # the page's own title is the h1
            out.append(f"<h{level}>{_attr(line[heading + 1:])}</h{level}>")
            i += 1
            continue
        if line.startswith("|"):
            rows = []
            while i < len(lines) and lines[i].startswith("|"):
                rows.append([c.strip() for c in lines[i].strip().strip("|").split("|")])
                i += 1
            body = [r for r in rows[1:] if not all(set(c) <= set("-: ") for c in r)]
            out.append("<table><thead><tr>" + "".join(f"<th>{_attr(c)}</th>" for c in rows[0])
                       + "</tr></thead><tbody>"
                       + "".join("<tr>" + "".join(f"<td>{_attr(c)}</td>" for c in r) + "</tr>"
                                 for r in body) + "</tbody></table>")
            continue
        para = []
        while i < len(lines) and lines[i].strip() and not lines[i].startswith(("|", "#")):
            para.append(lines[i].strip())
            i += 1
        out.append(f"<p>{'<br/>'.join(_attr(line) for line in para)}</p>")
    return "\n".join(out)


def html_page(title: str, summary: str, figures: Sequence[tuple[str, str, str]],
              note: str = "", refresh: Optional[int] = None) -> str:
    """The report page: the summary, then each figure (file name, SVG, caption) inline.
    It is well-formed XML (XHTML) as well as HTML."""
    meta = f"<meta http-equiv='refresh' content='{refresh}'/>" if refresh else ""
    parts = [
        "<!DOCTYPE html>",
        "<html xmlns='http://www.w3.org/1999/xhtml' lang='en'>",
        f"<head><meta charset='utf-8'/>{meta}<title>{_attr(title)}</title>",
        "<style>body{font-family:'DejaVu Sans',Helvetica,Arial,sans-serif;margin:1.5em;"
        "max-width:1100px;color:#111}table{border-collapse:collapse;margin:0.6em 0}"
        "th,td{border:1px solid #bbb;padding:2px 8px;text-align:left}"
        "th{background:#f0f0f0}figure{margin:1.2em 0}figcaption{color:#444;"
        "font-size:90%}.note{color:#555;font-size:90%}</style></head>",
        "<body>",
        f"<h1>{_attr(title)}</h1>",
        markdown_html(summary),
    ]
    for name, svg, caption in figures:
        stem = name.rsplit(".", 1)[0]
        parts.append(f"<figure id='{_attr(stem)}'>{svg}<figcaption>{_attr(caption)} "
                     f"(<a href='{_attr(name)}'>{_attr(name)}</a>)</figcaption></figure>")
    if note:
        parts.append(f"<p class='note'>{_attr(note)}</p>")
    parts.append("</body></html>")
    return "\n".join(parts) + "\n"
