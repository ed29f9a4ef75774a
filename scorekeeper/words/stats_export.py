"""A table's statistics as CSV for spreadsheets: standings, contracts and partnerships.

Pure Python, no Flask, in the manner of :mod:`.exports`: headers and labels go through
``translate``, names that a spreadsheet would run as formulas are neutralised, numbers stay
numbers. The figures are :func:`scorekeeper.stats.compute`'s, nothing is added up here.
"""

from __future__ import annotations

import csv
import io
from datetime import date

from ..rules.contracts import CONTRACTS, Item
from ..rules.games import GAMES
from ..rules.messages import N_
from ..stats.model import ContractStats, PlayerStats, TableStats
from .contracts import ITEM_WORDS
from .evening_export import EVENING_TABLES, evening_rows
from .exports import BOM, Cell, neutralise, slug, unicode_stem
from .labels import Translate, contract_label, game_label, identity, pair_label

GAME = N_("Game")
ALL_GAMES = N_("All games")
PLAYER = N_("Player")
GAMES_PLAYED = N_("Games")
FINISHED = N_("Finished")
WINS = N_("Wins")
WIN_RATE = N_("Win rate (%)")
POINTS = N_("Points")
LONGEST_STREAK = N_("Longest winning streak")
CURRENT_STREAK = N_("Current winning streak")
CONTRACT = N_("Contract")
DEALS = N_("Deals")
AVERAGE_PLACE = N_("Average place")
DOUBLES = N_("Doubles")
DOUBLES_GAIN = N_("Points gained by doubling")
PARTNERSHIP = N_("Partnership")

ITEM_AVERAGES: dict[Item, str] = {item: words.average for item, words in ITEM_WORDS.items()}
"""Each item's column: how many the player took per deal of the contract, on average (its
record's words, :data:`~scorekeeper.words.contracts.ITEM_WORDS`)."""


def _average(value: float | None) -> Cell:
    """Two decimals as text ("" when the contract does not count it)."""
    return "" if value is None else f"{value:.2f}"


def _rate(value: float | None) -> Cell:
    return "" if value is None else round(100 * value)


def _standing(game: str, player: PlayerStats) -> list[Cell]:
    return [
        game,
        player.name,
        player.games,
        player.finished,
        player.wins,
        _rate(player.win_rate),
        "" if player.points is None else player.points,  # never Trix and King added up
        player.longest_streak,
        player.current_streak,
    ]


def _contract(player: PlayerStats, contract: ContractStats, translate: Translate) -> list[Cell]:
    return [
        player.name,
        contract_label(contract.contract, translate),
        contract.deals,
        contract.points,
        *(_average(contract.average(item)) for item in ITEM_AVERAGES),
        _average(contract.average_place),
        *(
            (contract.doubles, contract.doubles_gain)
            if CONTRACTS[contract.contract].doubles
            else ("", "")
        ),
    ]


STANDINGS_FILE, CONTRACTS_FILE, PARTNERSHIPS_FILE = "standings", "contracts", "partnerships"
TABLES: dict[str, str] = {
    STANDINGS_FILE: N_("Standings"),
    CONTRACTS_FILE: N_("Contracts"),
    PARTNERSHIPS_FILE: N_("Partnerships"),
    **EVENING_TABLES,
}
"""The statistics' tables, each its own file (a spreadsheet opens each as one table), with the
word that names it in the file's name (the evening's: nights, ratings, rivals, leaders)."""


def _without_empty_columns(rows: list[list[Cell]]) -> list[list[Cell]]:
    """The header and rows without the columns no row fills (no King columns after Trix only);
    with no rows at all, the header whole."""
    header, body = rows[0], rows[1:]
    if not body:
        return rows
    kept = [index for index in range(len(header)) if any(row[index] != "" for row in body)]
    return [[row[index] for index in kept] for row in rows]


def _standings_rows(stats: TableStats, translate: Translate) -> list[list[Cell]]:
    kinds = [game for game in GAMES if stats.standings.get(game)]
    if len(kinds) == 1:  # one kind played: its rows are the whole table, not twice
        return [
            _standing(game_label(kinds[0], translate), player)
            for player in stats.standings[kinds[0]]
        ]
    rows = [_standing(translate(ALL_GAMES), player) for player in stats.players]
    for game in kinds:
        rows += [_standing(game_label(game, translate), player) for player in stats.standings[game]]
    return rows


def stats_csv_rows(
    stats: TableStats, translate: Translate = identity, table: str = STANDINGS_FILE
) -> list[list[Cell]]:
    """One table of the statistics (`TABLES`): its header, then its rows, without a column
    that no row fills."""
    header: tuple[str, ...]
    if table in EVENING_TABLES:  # every column kept: a hidden rating is an empty cell
        header, rows = evening_rows(stats, table, translate)
        return [[translate(text) for text in header], *rows]
    if table == STANDINGS_FILE:
        header = (
            GAME,
            PLAYER,
            GAMES_PLAYED,
            FINISHED,
            WINS,
            WIN_RATE,
            POINTS,
            LONGEST_STREAK,
            CURRENT_STREAK,
        )
        rows = _standings_rows(stats, translate)
    elif table == CONTRACTS_FILE:
        header = (
            PLAYER,
            CONTRACT,
            DEALS,
            POINTS,
            *ITEM_AVERAGES.values(),
            AVERAGE_PLACE,
            DOUBLES,
            DOUBLES_GAIN,
        )
        rows = [
            _contract(player, contract, translate)
            for player in stats.players
            for contract in player.contracts.values()
        ]
    elif table == PARTNERSHIPS_FILE:
        header = (PARTNERSHIP, GAMES_PLAYED, FINISHED, WINS, WIN_RATE, POINTS)
        rows = [
            [
                pair_label(pair.names[0], pair.names[1], translate),
                pair.games,
                pair.finished,
                pair.wins,
                _rate(pair.win_rate),
                pair.points,
            ]
            for pair in stats.partnerships
        ]
    else:
        raise ValueError(f"no statistics table {table!r}")
    return _without_empty_columns([[translate(text) for text in header], *rows])


def stats_csv(
    stats: TableStats, translate: Translate = identity, table: str = STANDINGS_FILE
) -> str:
    """One table of the statistics as CSV text: byte-order mark (UTF-8 for spreadsheets),
    then its rows."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    for row in stats_csv_rows(stats, translate, table):
        writer.writerow([neutralise(cell) for cell in row])
    return BOM + buffer.getvalue()


def stats_csv_filename(
    table_name: str | None,
    today: date,
    table: str = STANDINGS_FILE,
    translate: Translate = identity,
) -> str:
    """The download name: "thursdays-at-karims-standings-2025-01-31.csv" (or "table-..."),
    the table's word in the reader's language where it has Latin letters."""
    name = slug(table_name or "")
    if sum(char.isalpha() for char in name) < 2:  # Arabic script leaves too little: say "table"
        name = "table"
    word = slug(translate(TABLES[table]))
    if sum(char.isalpha() for char in word) < 2:
        word = table
    return f"{name}-{word}-{today.isoformat()}.csv"


def stats_unicode_filename(
    table_name: str | None,
    today: date,
    table: str = STANDINGS_FILE,
    translate: Translate = identity,
) -> str:
    """The download name in the reader's and the table's own script, e.g.
    "خميس-كريم-الترتيب-2025-01-31.csv" (sent beside the ASCII one)."""
    name = unicode_stem(table_name or "")
    word = unicode_stem(translate(TABLES[table]))
    if not name or not word:
        return stats_csv_filename(table_name, today, table, translate)
    return f"{name}-{word}-{today.isoformat()}.csv"
