"""When a game was played, as the reader says it: in the zone where it was played (the offset
of the phone that began it, when known; else the server's, beside which the table sits) and the
reader's language. Pure Python (Babel's calendars), no Flask."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

from babel.dates import format_skeleton, format_time, get_datetime_format

LARGEST_OFFSET = 18 * 60
"""The largest UTC offset, in minutes, a zone may have (Python's own bound; real ones are at
most 14 hours)."""


def zone_of(offset: int | None) -> timezone | None:
    """A fixed zone `offset` minutes east of UTC; None for an unknown offset (or one no zone
    has)."""
    if offset is None or not -LARGEST_OFFSET < offset < LARGEST_OFFSET:
        return None
    return timezone(timedelta(minutes=offset))


def local(moment: datetime, offset: int | None = None) -> datetime:
    """A stored moment (UTC; a naive one is read as UTC) where it was played: `offset` minutes
    east of UTC, else (unknown) in the server's time zone."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(zone_of(offset))  # None: the process's zone (TZ, else the system's)


def day_text(moment: datetime, language: str, offset: int | None = None) -> str:
    """The day in the reader's words: "Mar 1, 2025", "1 мар. 2025 г.", "1 مارس 2025"."""
    return format_skeleton("yMMMd", local(moment, offset), locale=language)


def moment_text(moment: datetime, language: str, offset: int | None = None) -> str:
    """The day and the time in the reader's words: "Mar 1, 2025, 10:30 PM", "1 мар. 2025 г.,
    22:30" (the language's own order and clock)."""
    at = local(moment, offset)
    pattern = str(get_datetime_format("medium", locale=language))  # "{1}, {0}"
    return pattern.replace("{1}", format_skeleton("yMMMd", at, locale=language)).replace(
        "{0}", format_time(at, "short", locale=language)
    )


def machine_text(moment: datetime, offset: int | None = None) -> str:
    """The same moment for a <time datetime="…"> attribute: ISO 8601 with the zone's offset."""
    return local(moment, offset).isoformat(timespec="minutes")
