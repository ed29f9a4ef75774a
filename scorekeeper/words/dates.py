"""When a game was played, as the reader says it: in the server's time zone (the table sits
beside it) and the reader's language. Pure Python (Babel's calendars), no Flask."""

from __future__ import annotations

from datetime import UTC, datetime

from babel.dates import format_skeleton, format_time, get_datetime_format


def local(moment: datetime) -> datetime:
    """A stored moment (UTC; a naive one is read as UTC) in the server's time zone."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone()  # the process's zone: TZ, else the system's


def day_text(moment: datetime, language: str) -> str:
    """The day in the reader's words: "Mar 1, 2025", "1 мар. 2025 г.", "1 مارس 2025"."""
    return format_skeleton("yMMMd", local(moment), locale=language)


def moment_text(moment: datetime, language: str) -> str:
    """The day and the time in the reader's words: "Mar 1, 2025, 10:30 PM", "1 мар. 2025 г.,
    22:30" (the language's own order and clock)."""
    at = local(moment)
    pattern = str(get_datetime_format("medium", locale=language))  # "{1}, {0}"
    return pattern.replace("{1}", format_skeleton("yMMMd", at, locale=language)).replace(
        "{0}", format_time(at, "short", locale=language)
    )


def machine_text(moment: datetime) -> str:
    """The same moment for a <time datetime="…"> attribute: ISO 8601 with the zone's offset."""
    return local(moment).isoformat(timespec="minutes")
