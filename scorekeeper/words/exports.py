"""Exports of one game: a CSV for spreadsheets and the JSON game record, with their file names.

Pure Python, no Flask: the export views call these and only add the HTTP response. Column
headers and labels go through ``translate`` (Flask-Babel's ``gettext`` in the app).
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from datetime import date

from ..rules.cards import team_totals
from ..rules.contracts import CONTRACTS
from ..rules.games import PARTNERSHIP
from ..rules.messages import N_
from ..rules.record import Record, dumps_record
from ..rules.replay import replay
from .labels import Translate, contract_label, game_label, identity, suit_label, team_label
from .takes import short_takes

BOM = "\ufeff"
"""Starts the CSV so spreadsheets read it as UTF-8 (Arabic and Turkish names stay readable)."""

DEAL = N_("Deal")
KINGDOM = N_("Kingdom")
KING = N_("King")
DECLARER = N_("Declarer")
CONTRACT = N_("Contract")
TRUMP_SUIT = N_("Trump suit")
TAKES = N_("Takes")
PLAYER_TOTAL = N_("Total {name}")
TOTAL = N_("Total")

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""A text cell starting with one of these could run as a formula in a spreadsheet."""

Cell = str | int


def neutralise(cell: Cell) -> Cell:
    """Prefix an apostrophe to text a spreadsheet would read as a formula; numbers pass as is."""
    if isinstance(cell, str) and cell.lstrip(" ").startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


# Bidi isolates and marks a catalogue puts around names for the screen: a spreadsheet cell is
# its own paragraph and shows them as stray characters (the names themselves are cleaned of them).
_BIDI_MARKS = dict.fromkeys(map(ord, "\u2066\u2067\u2068\u2069\u200e\u200f\u061c"))


def plain(text: str) -> str:
    """Text for a CSV cell: without the invisible direction marks a translation may carry."""
    return text.translate(_BIDI_MARKS)


def csv_rows(record: Record, translate: Translate = identity) -> list[list[Cell]]:
    """The CSV's rows: a header, one row per deal, then the totals (the engine's own numbers).

    Only the game's own columns: a kingdom and its king in Trix games, the declarer and the
    trump suit in Turkish King.
    """
    game = record.game
    players = game.players
    result = replay(game)
    partnership = game.mode == PARTNERSHIP
    kingdoms = bool(game.definition.kingdoms)
    trumps = any(CONTRACTS[contract].suit_field for contract in game.definition.contracts)

    def words(text: str) -> str:
        return plain(translate(text))

    fixed: list[Cell] = [words(DEAL)]
    fixed += [words(KINGDOM), words(KING)] if kingdoms else [words(DECLARER)]
    fixed += [words(CONTRACT)] + ([words(TRUMP_SUIT)] if trumps else []) + [words(TAKES)]
    header: list[Cell] = [
        *fixed,
        *players,
        *(words(PLAYER_TOTAL).format(name=name) for name in players),
    ]
    if partnership:
        header += [team_label(players, team, words) for team in (0, 1)]
    rows: list[list[Cell]] = [header]
    for deal in result.deals:
        row: list[Cell] = [deal.number]
        if kingdoms:
            row.append("" if deal.kingdom is None else deal.kingdom + 1)
        row += [players[deal.chooser], contract_label(deal.contract, words)]
        if trumps:
            suit = CONTRACTS[deal.contract].suit_field
            row.append(suit_label(deal.deal.text(suit), words) if suit else "")
        row += [short_takes(deal.deal, players, words), *deal.scores, *deal.running]
        if partnership:
            row += list(team_totals(deal.running))
        rows.append(row)
    totals: list[Cell] = [words(TOTAL), *[""] * (len(fixed) - 1), *result.totals, *result.totals]
    if result.team_totals is not None:
        totals += list(result.team_totals)
    rows.append(totals)
    return rows


def csv_text(record: Record, translate: Translate = identity) -> str:
    """The game as CSV text for a spreadsheet: byte-order mark, header, deals, totals row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for row in csv_rows(record, translate):
        writer.writerow([neutralise(cell) for cell in row])
    return BOM + buffer.getvalue()


def export_json(record: Record) -> str:
    """The game record with the engine's derived values, as `scorekeeper check` would accept."""
    return dumps_record(record, derived=True)


# Letters NFKD does not split into an ASCII letter and a combining mark.
_TRANSLITERATE = str.maketrans(
    {
        "ı": "i",
        "İ": "I",
        "ß": "ss",
        "æ": "ae",
        "Æ": "AE",
        "ø": "o",
        "Ø": "O",
        "đ": "d",
        "Đ": "D",
        "ł": "l",
        "Ł": "L",
        "œ": "oe",
        "Œ": "OE",
        "þ": "th",
        "Þ": "Th",
    }
)
MAX_SLUG_LENGTH = 40
MIN_SLUG_LETTERS = 2


def slug(text: str) -> str:
    """ASCII letters, digits and hyphens, lower case: "Friday at Ayşe's" → "friday-at-ayses"."""
    ascii_text = (
        unicodedata.normalize("NFKD", text.translate(_TRANSLITERATE))
        .encode("ascii", "ignore")
        .decode("ascii")
        .lower()
    )
    ascii_text = re.sub(r"['’]", "", ascii_text)
    words = re.findall(r"[a-z0-9]+", ascii_text)
    result = ""
    for word in words:
        candidate = f"{result}-{word}" if result else word
        if len(candidate) > MAX_SLUG_LENGTH:
            break
        result = candidate
    return result or "-".join(words)[:MAX_SLUG_LENGTH].strip("-")


def _readable(text: str) -> bool:
    return sum(char.isalpha() for char in text) >= MIN_SLUG_LETTERS


def _file_stem(record: Record, today: date, translate: Translate = identity) -> str:
    name = slug(record.name or "")
    # a name in Arabic script (or only punctuation) leaves too little to read: use the game,
    # in the reader's words where they have Latin letters ("king" in Turkish), else its id
    if not _readable(name):
        name = slug(game_label(record.game.kind, translate))
        if not _readable(name):
            name = record.game.kind
    return f"{name}-{today.isoformat()}"


def csv_filename(record: Record, today: date, translate: Translate = identity) -> str:
    """The CSV's download name, e.g. "friday-night-2025-01-31.csv" or "trix-2025-01-31.csv"."""
    return _file_stem(record, today, translate) + ".csv"


def json_filename(record: Record, today: date, translate: Translate = identity) -> str:
    """The JSON record's download name, e.g. "turkish-king-2025-01-31.json"."""
    return _file_stem(record, today, translate) + ".json"


def _name_words(text: str) -> list[str]:
    # letters, their marks (Arabic vowel signs, Devanagari matras) and digits of any script;
    # everything else (spaces, slashes, quotes, dots) separates words
    words, word = [], ""
    for char in unicodedata.normalize("NFC", text):
        if unicodedata.category(char)[0] in "LMN":
            word += char
        elif char not in "'’":
            if word:
                words.append(word)
            word = ""
    return [*words, word] if word else words


def unicode_stem(text: str) -> str:
    """A name's words in its own script joined by hyphens, e.g. "سهرة-الجمعة" (or "")."""
    name = ""
    for word in _name_words(text):
        candidate = f"{name}-{word}" if name else word
        if len(candidate) > MAX_SLUG_LENGTH:
            break
        name = candidate
    return name


def unicode_filename(
    record: Record, today: date, extension: str, translate: Translate = identity
) -> str:
    """The download name in the game's own script, e.g. "سهرة-الجمعة-2025-01-31.csv".

    Sent beside the ASCII name (RFC 6266 ``filename*``), so a game named in Arabic keeps its
    name and two games of one day get two files. No game name: which game, in the reader's
    words ("الكينغ-التركي-2025-01-31.csv" in Arabic, "king-2025-01-31.csv" in Turkish).
    """
    name = unicode_stem(record.name or "")
    if not name:
        label = game_label(record.game.kind, translate)
        if _readable(slug(label)) or not unicode_stem(label):
            return _file_stem(record, today, translate) + extension  # "king-2025-01-31.csv"
        name = unicode_stem(label)
    return f"{name}-{today.isoformat()}{extension}"
