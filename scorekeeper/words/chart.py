"""The running-totals chart: an inline SVG string and its text alternative.

Pure Python, no Flask. The SVG obeys a strict Content-Security-Policy: no script, no ``style``
element or attribute, only presentation attributes (``stroke``, ``fill``...) and ``class`` hooks
(``series-0`` ... ``series-3``, ``axis``, ``grid``, ``zero``, ``kingdom``, ``legend``, ``note``)
that the site's stylesheet may override. Axes and labels use ``currentColor`` so they follow the
page's text colour in light and dark mode; the four series colours read on both backgrounds and
differ in dash pattern and marker shape too, for colour-blind players.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from functools import lru_cache
from xml.sax.saxutils import escape

from ..rules.cards import TEAMS, team_totals
from ..rules.games import PARTNERSHIP
from ..rules.messages import N_
from ..rules.replay import Replay
from .labels import LIST_SEPARATOR, Translate, identity, pair_label, signed, team_label
from .names import name_forms

TITLE = N_("Running totals")
NO_DEALS = N_("No deals yet.")
AFTER_DEAL = N_("After deal {number} of {total}: {totals}")
ENTRY = N_("{name} {total}")

WIDTH = 360
LEFT, RIGHT, TOP, BOTTOM = 40, 10, 10, 180
"""The plot area in left-to-right coordinates (right-to-left mirrors every x)."""
LEGEND_TOP = 212
LEGEND_ROW = 16
LEGEND_NAME_ROOM = 18.0
"""How many Latin letters a legend column holds beside its sample line."""
MARGIN_BELOW = 8
MIN_SPAN = 20

COLOURS = ("#1c7ed6", "#d9480f", "#2b8a3e", "#be4bdb")
"""Blue, vermilion, green, purple: each at least 4:1 against white and against #121212."""
DASHES = ("", "6 3", "2 2", "8 3 2 3")
MARKERS = (
    '<circle r="2.5"/>',
    '<rect x="-2.2" y="-2.2" width="4.4" height="4.4"/>',
    '<path d="M0-3L2.8 2H-2.8Z"/>',
    '<path d="M0-3L3 0L0 3L-3 0Z"/>',
)

# Characters XML 1.0 cannot carry even escaped (C0 controls other than tab, newline, return).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
SVG_ID = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")


def svg_text(value: str) -> str:
    """Text safe inside an XML element: invalid characters dropped, & < > escaped."""
    return escape(_NOT_XML.sub("", value))


def svg_number(value: float) -> str:
    """A coordinate with at most one decimal, no trailing ".0" (keeps the SVG small)."""
    rounded = round(value, 1)
    return str(int(rounded)) if rounded == int(rounded) else str(rounded)


def legend_names(
    players: Sequence[str], partnership: bool, translate: Translate = identity
) -> list[str]:
    """The legend's names: each player's (or each team's two) in the widest form a legend
    column holds that no other of the four could be read as (labels.name_forms)."""
    if not partnership:
        return list(name_forms(players, LEGEND_NAME_ROOM))
    short = name_forms(players, LEGEND_NAME_ROOM / 2 - 1.5)
    return [pair_label(short[first], short[second], translate) for first, second in TEAMS]


def series(
    replay: Replay, players: Sequence[str], translate: Translate = identity
) -> list[tuple[str, list[int]]]:
    """Each line of the chart: its label and its totals from deal 0 (all zero) to the last.

    One line per player, or per team in a partnership game (team A = seats 0 and 2).
    """
    runnings = [(0, 0, 0, 0), *(deal.running for deal in replay.deals)]
    if replay.game.mode == PARTNERSHIP:
        teams = [team_totals(running) for running in runnings]
        return [
            (team_label(players, team, translate), [totals[team] for totals in teams])
            for team in (0, 1)
        ]
    return [(players[seat], [running[seat] for running in runnings]) for seat in range(4)]


def chart_summary(replay: Replay, players: Sequence[str], translate: Translate = identity) -> str:
    """The chart in words, highest total first: "After deal 7 of 20: Rami 140, Lina 25, ..."."""
    if not replay.deals:
        return translate(NO_DEALS)
    return _summary(
        _lines(replay, players, translate),
        len(replay.deals),
        replay.game.definition.deals_total,
        translate(ENTRY),
        translate(AFTER_DEAL),
        translate(LIST_SEPARATOR),
    )


Lines = tuple[tuple[str, tuple[int, ...]], ...]


def _lines(replay: Replay, players: Sequence[str], translate: Translate) -> Lines:
    return tuple((name, tuple(values)) for name, values in series(replay, players, translate))


def _summary(
    lines: Lines, deals: int, deals_total: int, entry: str, after_deal: str, separator: str
) -> str:
    ranked = sorted(lines, key=lambda line: -line[1][-1])
    totals = separator.join(
        entry.format(name=name, total=signed(values[-1])) for name, values in ranked
    )
    return after_deal.format(number=deals, total=deals_total, totals=totals)


def nice_ticks(low: int, high: int, target: int = 5) -> list[int]:
    """Round tick values (steps of 1, 2 or 5 × 10ⁿ) covering low..high, about `target` of them."""
    if low == high:
        low, high = low - 100, high + 100
    elif high - low < MIN_SPAN:  # scores move in fives and tens: keep ticks whole and few
        if high > -low:
            high = low + MIN_SPAN
        else:
            low = high - MIN_SPAN
    raw = (high - low) / (target - 1)
    magnitude = 10 ** math.floor(math.log10(raw))
    step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= raw)
    step = max(1, int(step))
    first = math.floor(low / step) * step
    last = math.ceil(high / step) * step
    return list(range(first, last + step, step))


class Canvas:
    """Collects SVG elements, mirroring x for right-to-left pages."""

    def __init__(self, rtl: bool) -> None:
        self.rtl = rtl
        self.parts: list[str] = []

    def x(self, value: float) -> str:
        rounded = round(value, 1)
        return svg_number(WIDTH - rounded if self.rtl else rounded)

    def anchor(self, anchor: str) -> str:
        if self.rtl and anchor != "middle":
            return "end" if anchor == "start" else "start"
        return anchor

    def line(self, x1: float, y1: float, x2: float, y2: float, css: str, extra: str = "") -> None:
        self.parts.append(
            f'<line class="{css}" x1="{self.x(x1)}" y1="{svg_number(y1)}" '
            f'x2="{self.x(x2)}" y2="{svg_number(y2)}"{extra}/>'
        )

    def text(self, x: float, y: float, anchor: str, content: str, css: str = "") -> None:
        cls = f' class="{css}"' if css else ""
        self.parts.append(
            f'<text{cls} x="{self.x(x)}" y="{svg_number(y)}" '
            f'text-anchor="{self.anchor(anchor)}">{svg_text(content)}</text>'
        )

    def points(self, points: Sequence[tuple[float, float]]) -> str:
        return " ".join(f"{self.x(x)},{svg_number(y)}" for x, y in points)

    def legend(
        self, names: Sequence[str], styles: Sequence[tuple[str, str]], id_prefix: str, top: float
    ) -> None:
        """The legend in two columns: each series' sample line (colour, dash pattern and
        marker) and its name, shortened; then the end of the SVG."""
        self.parts.append('<g class="legend">')
        column = (WIDTH - 2 * RIGHT) / 2
        for index, (name, (colour, dash)) in enumerate(zip(names, styles, strict=True)):
            left = RIGHT + (index % 2) * column
            y = top + (index // 2) * LEGEND_ROW
            dashes = f' stroke-dasharray="{dash}"' if dash else ""
            self.parts.append(
                f'<path class="legend-sample series-{index}" d="M{self.x(left)} '
                f'{svg_number(y - 4)}H{self.x(left + 11)}H{self.x(left + 22)}" '
                f'fill="none" stroke="{colour}" stroke-width="2"{dashes} '
                f'marker-mid="url(#{id_prefix}-m{index})"/>'
            )
            self.text(left + 28, y, "start", name)
        self.parts.append("</g></svg>")


def running_totals_svg(
    replay: Replay,
    players: Sequence[str],
    translate: Translate = identity,
    rtl: bool = False,
    *,
    id_prefix: str = "running-totals",
) -> str:
    """The running totals after each deal as an inline SVG (one line per player or team).

    The x axis runs over the whole game (deal 0 to the last deal), mirrored when `rtl`; faint
    vertical lines mark the kingdoms of Trix games. `id_prefix` keeps element ids unique when a
    page shows more than one chart.
    """
    if not SVG_ID.fullmatch(id_prefix):
        raise ValueError(f"id_prefix must be a plain XML id, not {id_prefix!r}")
    definition = replay.game.definition
    lines = _lines(replay, players, translate)
    deals = len(replay.deals)
    summary = (
        _summary(
            lines,
            deals,
            definition.deals_total,
            translate(ENTRY),
            translate(AFTER_DEAL),
            translate(LIST_SEPARATOR),
        )
        if deals
        else translate(NO_DEALS)
    )
    legend = tuple(legend_names(players, replay.game.mode == PARTNERSHIP, translate))
    return _svg(
        lines,
        legend,
        deals,
        definition.deals_total,
        definition.kingdoms,
        definition.per_kingdom if definition.kingdoms else 0,
        translate(TITLE),
        summary,
        translate(NO_DEALS),
        rtl,
        id_prefix,
    )


@lru_cache(maxsize=256)
def _svg(
    lines: Lines,
    legend: tuple[str, ...],
    deals: int,
    deals_total: int,
    kingdoms: int,
    per_kingdom: int,
    title: str,
    summary: str,
    no_deals: str,
    rtl: bool,
    id_prefix: str,
) -> str:
    """The chart from everything it shows: a pure function, so a game's chart is drawn once
    per version and language however many phones ask for it."""
    length = max(deals_total, deals, 1)
    values = [value for _, line in lines for value in line]
    ticks = nice_ticks(min(values), max(values)) if deals else nice_ticks(0, 0)
    low, high = ticks[0], ticks[-1]

    def x_of(deal: int) -> float:
        return LEFT + deal * (WIDTH - RIGHT - LEFT) / length

    def y_of(value: int) -> float:
        return BOTTOM - (value - low) * (BOTTOM - TOP) / (high - low)

    height = LEGEND_TOP + (len(lines) + 1) // 2 * LEGEND_ROW - LEGEND_ROW + MARGIN_BELOW
    canvas = Canvas(rtl)
    title_id, desc_id = f"{id_prefix}-title", f"{id_prefix}-desc"
    canvas.parts.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-labelledby="{title_id}" aria-describedby="{desc_id}" '
        f'class="chart running-totals" font-size="11" direction="ltr" fill="currentColor">'
        f'<title id="{title_id}">{svg_text(title)}</title>'
        f'<desc id="{desc_id}">{svg_text(summary)}</desc>'
    )
    canvas.parts.append("<defs>")
    for index, shape in enumerate(MARKERS[: len(lines)]):
        canvas.parts.append(
            f'<marker id="{id_prefix}-m{index}" viewBox="-3 -3 6 6" markerWidth="6" '
            f'markerHeight="6" markerUnits="userSpaceOnUse" fill="{COLOURS[index]}" '
            f'stroke="none">{shape}</marker>'
        )
    canvas.parts.append("</defs>")

    # y grid and tick labels
    canvas.parts.append('<g class="grid" stroke="currentColor" stroke-opacity="0.12">')
    for tick in ticks:
        if tick != 0:
            canvas.line(LEFT, y_of(tick), WIDTH - RIGHT, y_of(tick), "grid-line")
    canvas.parts.append("</g>")
    canvas.parts.append('<g class="axis-labels" fill="currentColor">')
    for tick in ticks:
        canvas.text(LEFT - 4, y_of(tick) + 4, "end", signed(tick))
    step = per_kingdom if kingdoms else 5
    for deal in range(0, length + 1, step):
        canvas.text(x_of(deal), BOTTOM + 14, "middle", str(deal))
    canvas.parts.append("</g>")

    # kingdom boundaries (Trix games), the zero line and the axes
    canvas.parts.append(
        '<g class="kingdom" stroke="currentColor" stroke-opacity="0.35" stroke-dasharray="2 3">'
    )
    for kingdom in range(1, kingdoms):
        boundary = x_of(kingdom * per_kingdom)
        canvas.line(boundary, TOP, boundary, BOTTOM, "kingdom-line")
    canvas.parts.append("</g>")
    canvas.parts.append('<g class="axis" stroke="currentColor">')
    canvas.line(LEFT, TOP, LEFT, BOTTOM, "axis-line", ' stroke-opacity="0.5"')
    canvas.line(LEFT, BOTTOM, WIDTH - RIGHT, BOTTOM, "axis-line", ' stroke-opacity="0.5"')
    canvas.line(LEFT, y_of(0), WIDTH - RIGHT, y_of(0), "zero", ' stroke-opacity="0.7"')
    canvas.parts.append("</g>")

    # the series
    for index, (name, line) in enumerate(lines if deals else ()):
        points = canvas.points([(x_of(deal), y_of(value)) for deal, value in enumerate(line)])
        marker = f"url(#{id_prefix}-m{index})"
        dash = f' stroke-dasharray="{DASHES[index]}"' if DASHES[index] else ""
        canvas.parts.append(
            f'<polyline class="series series-{index}" points="{points}" fill="none" '
            f'stroke="{COLOURS[index]}" stroke-width="2" stroke-linejoin="round"{dash} '
            f'marker-start="{marker}" marker-mid="{marker}" marker-end="{marker}">'
            f"<title>{svg_text(name)}</title></polyline>"
        )
    if not deals:
        canvas.text((LEFT + WIDTH - RIGHT) / 2, (TOP + BOTTOM) / 2 - 6, "middle", no_deals, "note")

    canvas.legend(
        list(legend),
        [(COLOURS[index], DASHES[index]) for index in range(len(lines))],
        id_prefix,
        LEGEND_TOP,
    )
    return "".join(canvas.parts)
