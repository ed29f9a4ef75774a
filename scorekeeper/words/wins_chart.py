"""A table's running wins over time: an inline SVG (one line per player) and its text alternative.

Drawn like the game's running-totals chart (:mod:`.chart`) with its canvas, colours, dash
patterns and markers: no script, no ``style``, ``currentColor`` for axes and words (light and
dark mode), dash patterns and marker shapes besides colour, x mirrored for right-to-left pages.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from ..rules.messages import N_
from ..stats.model import RunningWins
from .chart import (
    COLOURS,
    DASHES,
    LEFT,
    LEGEND_ROW,
    MARGIN_BELOW,
    MARKERS,
    RIGHT,
    SVG_ID,
    TOP,
    WIDTH,
    Canvas,
    svg_text,
)
from .labels import LIST_SEPARATOR, Translate, identity

TITLE = N_("Wins over time")
NO_GAMES = N_("No finished games yet.")
AFTER_GAME = N_("Wins after game {number}: {wins}")
ENTRY = N_("{name} {wins}")
MORE_PLAYERS = N_("The chart draws only the top of the standings.")

MAX_LINES = 8
"""Players drawn (the standings' first); the text alternative names every player."""
MAX_POINTS = 120
"""At most this many points per line: more games are sampled evenly (the last always kept)."""
MARKED_GAMES = 30
"""Markers on every point up to this many games; beyond, only at each line's end."""
BOTTOM = 150
LEGEND_TOP = BOTTOM + 32

Lines = tuple[tuple[str, tuple[int, ...]], ...]


def _style(index: int) -> tuple[str, str, int]:
    """Colour, dash pattern and marker of line `index`: the four of the game chart, then each
    colour again with the next dash and marker, so no two of the first 16 lines look alike."""
    turn = index // len(COLOURS)
    shape = (index + turn) % len(DASHES)
    return COLOURS[index % len(COLOURS)], DASHES[shape], shape


def _lines(running: RunningWins) -> Lines:
    return tuple((line.name, line.wins) for line in running.lines)


def running_wins_summary(running: RunningWins, translate: Translate = identity) -> str:
    """The chart in words, most wins first: "Wins after game 12: Rami 5, Lina 3, ..."."""
    return _summary(
        _lines(running),
        translate(AFTER_GAME),
        translate(ENTRY),
        translate(NO_GAMES),
        translate(LIST_SEPARATOR),
    )


def _summary(lines: Lines, after_game: str, entry: str, no_games: str, separator: str) -> str:
    games = len(lines[0][1]) if lines else 0
    if not games:
        return no_games
    ranked = sorted(lines, key=lambda line: -line[1][-1])  # stable: the standings break ties
    wins = separator.join(entry.format(name=name, wins=values[-1]) for name, values in ranked)
    return after_game.format(number=games, wins=wins)


def _round_step(span: int, target: int) -> int:
    """The smallest of 1, 2, 5, 10, 20, 50, ... that covers `span` in `target` steps."""
    magnitude = 1
    while True:
        for multiple in (1, 2, 5):
            if span <= multiple * magnitude * target:
                return multiple * magnitude
        magnitude *= 10


def win_ticks(high: int, target: int = 5) -> list[int]:
    """Whole, round steps from 0 to at least `high` (wins are small numbers)."""
    step = _round_step(high, target)
    last = -(-max(high, 1) // step) * step
    return list(range(0, last + step, step))


def _sampled(games: int) -> list[int]:
    """The game numbers drawn: all of them, or MAX_POINTS spread evenly (first and last kept)."""
    if games <= MAX_POINTS:
        return list(range(games + 1))
    return sorted({round(i * games / MAX_POINTS) for i in range(MAX_POINTS + 1)})


def running_wins_svg(
    running: RunningWins,
    translate: Translate = identity,
    rtl: bool = False,
    *,
    id_prefix: str = "running-wins",
) -> str:
    """Each player's cumulative wins after each finished game, as an inline SVG.

    The first MAX_LINES players of the standings are drawn; the ``desc`` (the text alternative)
    names everyone. `id_prefix` keeps ids unique when a page shows more than one chart.
    """
    if not SVG_ID.fullmatch(id_prefix):
        raise ValueError(f"id_prefix must be a plain XML id, not {id_prefix!r}")
    lines = _lines(running)
    summary = _summary(
        lines,
        translate(AFTER_GAME),
        translate(ENTRY),
        translate(NO_GAMES),
        translate(LIST_SEPARATOR),
    )
    if len(lines) > MAX_LINES:
        summary += " " + translate(MORE_PLAYERS)
    return _svg(lines[:MAX_LINES], translate(TITLE), summary, translate(NO_GAMES), rtl, id_prefix)


SPREAD = 3.0
"""Pixels between lines that have the same wins after a game: drawn side by side there (in
the standings' order), so no line hides another."""


def _shifts(lines: Lines, drawn: Sequence[int]) -> list[list[float]]:
    """Per line, per game drawn: how far it is moved up or down from its exact height, so the
    lines that meet there are spread around it, none drawn over another."""
    shifts = [[0.0] * len(drawn) for _ in lines]
    for column, game in enumerate(drawn):
        meeting: dict[int, list[int]] = {}
        for index, (_, line) in enumerate(lines):
            meeting.setdefault((0, *line)[game], []).append(index)
        for together in meeting.values():
            for rank, index in enumerate(together):
                shifts[index][column] = (rank - (len(together) - 1) / 2) * SPREAD
    return shifts


def _x_labels(games: int) -> Sequence[int]:
    return range(0, games + 1, _round_step(games, 6))


@lru_cache(maxsize=64)
def _svg(lines: Lines, title: str, summary: str, no_games: str, rtl: bool, id_prefix: str) -> str:
    games = len(lines[0][1]) if lines else 0
    ticks = win_ticks(max((line[-1] for _, line in lines if line), default=0))
    high = ticks[-1]

    def x_of(game: int) -> float:
        return LEFT + game * (WIDTH - RIGHT - LEFT) / max(games, 1)

    def y_of(wins: int) -> float:
        return BOTTOM - wins * (BOTTOM - TOP) / high

    height = LEGEND_TOP + (len(lines) + 1) // 2 * LEGEND_ROW - LEGEND_ROW + MARGIN_BELOW
    canvas = Canvas(rtl)
    title_id, desc_id = f"{id_prefix}-title", f"{id_prefix}-desc"
    canvas.parts.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img" '
        f'aria-labelledby="{title_id}" aria-describedby="{desc_id}" '
        f'class="chart running-wins" font-size="11" direction="ltr" fill="currentColor">'
        f'<title id="{title_id}">{svg_text(title)}</title>'
        f'<desc id="{desc_id}">{svg_text(summary)}</desc><defs>'
    )
    for index in range(len(lines)):
        colour, _, shape = _style(index)
        canvas.parts.append(
            f'<marker id="{id_prefix}-m{index}" viewBox="-3 -3 6 6" markerWidth="6" '
            f'markerHeight="6" markerUnits="userSpaceOnUse" fill="{colour}" '
            f'stroke="none">{MARKERS[shape]}</marker>'
        )
    canvas.parts.append('</defs><g class="grid" stroke="currentColor" stroke-opacity="0.12">')
    for tick in ticks[1:]:
        canvas.line(LEFT, y_of(tick), WIDTH - RIGHT, y_of(tick), "grid-line")
    canvas.parts.append('</g><g class="axis-labels" fill="currentColor">')
    for tick in ticks:
        canvas.text(LEFT - 4, y_of(tick) + 4, "end", str(tick))
    for game in _x_labels(games):
        canvas.text(x_of(game), BOTTOM + 14, "middle", str(game))
    canvas.parts.append('</g><g class="axis" stroke="currentColor" stroke-opacity="0.5">')
    canvas.line(LEFT, TOP, LEFT, BOTTOM, "axis-line")
    canvas.line(LEFT, BOTTOM, WIDTH - RIGHT, BOTTOM, "axis-line")
    canvas.parts.append("</g>")

    drawn = _sampled(games)
    shifts = _shifts(lines, drawn)
    for index, (name, line) in enumerate(lines if games else ()):
        colour, dash, _ = _style(index)
        values = (0, *line)
        points = canvas.points(
            [
                (x_of(game), y_of(values[game]) + shift)
                for game, shift in zip(drawn, shifts[index], strict=True)
            ]
        )
        marker = f"url(#{id_prefix}-m{index})"
        marks = f'marker-start="{marker}" marker-mid="{marker}" ' if games <= MARKED_GAMES else ""
        dashes = f' stroke-dasharray="{dash}"' if dash else ""
        canvas.parts.append(
            f'<polyline class="series series-{index}" points="{points}" fill="none" '
            f'stroke="{colour}" stroke-width="2" stroke-linejoin="round"{dashes} '
            f'{marks}marker-end="{marker}"><title>{svg_text(name)}</title></polyline>'
        )
    if not games:
        canvas.text((LEFT + WIDTH - RIGHT) / 2, (TOP + BOTTOM) / 2, "middle", no_games, "note")

    canvas.legend(
        [name for name, _ in lines],
        [_style(index)[:2] for index in range(len(lines))],
        id_prefix,
        LEGEND_TOP,
    )
    return "".join(canvas.parts)
