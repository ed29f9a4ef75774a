"""What a game shares and when it was played, as templates show them: the result as a message
(and its picture's file name), the view link's QR code, a game's date in the reader's words."""

from __future__ import annotations

from datetime import datetime
from functools import lru_cache
from typing import Any

import segno
from flask import request
from markupsafe import Markup

from ..rules import Replay
from ..rules.record import Record
from ..words import dates, labels
from ..words.exports import unicode_filename
from ..words.share import plain_name, result_text
from .languages import current_language, direction, gettext


def share_text(
    result: Replay, name: str | None, moment: datetime, offset: int | None = None
) -> str:
    """A finished game's result as a message to share, in the reader's language (its title:
    the game's name, else which game, and the day it was played, where it was played: `offset`
    minutes east of UTC, else the server's zone)."""
    rtl = direction(current_language()) == "rtl"
    return result_text(
        result, share_title(result.game.kind, name, moment, offset), gettext, rtl=rtl
    )


def share_title(game: str, name: str | None, moment: datetime, offset: int | None = None) -> str:
    """A shared result's first line: the game's name, else which game, and its day."""
    language = current_language()
    rtl = direction(language) == "rtl"
    title = plain_name(name or labels.game_label(game, gettext), rtl=rtl)
    return f"{title} · {dates.day_text(moment, language, offset)}"


def share_file(
    result: Replay, name: str | None, moment: datetime, offset: int | None = None
) -> str:
    """The shared picture's file name: the game's name (else which game) and its day."""
    day = dates.local(moment, offset).date()
    return unicode_filename(Record(result.game, name), day, ".png", gettext)


def played_at(moment: datetime, offset: int | None = None) -> Markup:
    """When a game was started, in the reader's words and where it was played (`offset`
    minutes east of UTC: the phone's zone; unknown, the server's)."""
    return Markup('<time datetime="%s">%s</time>') % (
        dates.machine_text(moment, offset),
        dates.moment_text(moment, current_language(), offset),
    )


OFFSET_COOKIE = "utc_offset"
"""What static/js/app.js tells the server of the phone's zone: minutes east of UTC, sent with
every request (a game is begun where the phone that begins it is)."""


def phone_offset() -> int | None:
    """The UTC offset of the phone asking, in minutes east of UTC; None without one (no
    JavaScript) or for anything no zone has (a tampered cookie: the server's zone then)."""
    sent = request.cookies.get(OFFSET_COOKIE, "")
    if not sent.lstrip("-").isdigit() or len(sent) > 5:
        return None
    offset = int(sent)
    return offset if dates.zone_of(offset) is not None else None


def qr_svg(text: str) -> Markup:
    """A QR code as inline SVG: no size, no style attribute (the CSP forbids inline styles)."""
    return Markup(_qr_svg(text, gettext("QR code of the view link")))


def qr_file(text: str) -> str:
    """The same QR code as an SVG file of its own, an image the page loads when it is shown
    (the <img>'s alt names it: the file has no words, so it is the same in every language)."""
    return _qr_svg(text, None).replace("<svg ", '<svg xmlns="http://www.w3.org/2000/svg" ', 1)


@lru_cache(maxsize=2048)
def _qr_svg(text: str, title: str | None) -> str:
    # encoding a QR code costs more than the rest of the game page: once per link
    return str(
        segno.make(text, error="m").svg_inline(
            scale=1,
            omitsize=True,
            svgclass="qr-code",
            lineclass="qr-dark",
            light="#fff",
            dark="#000",
            title=title,
        )
    )


TEMPLATE_GLOBALS: dict[str, Any] = {
    "share_text": share_text,
    "share_file": share_file,
    "played_at": played_at,
    "qr_svg": qr_svg,
}
"""What templates call from this room (views.register hands each room's to Jinja once)."""
