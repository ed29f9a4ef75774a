"""A table's nights, ratings, rivals and contract leaders as CSV tables (each its own file, as
the standings are): headers through ``translate``, numbers as numbers, nothing added up here.
"""

from __future__ import annotations

from ..rules.messages import N_
from ..stats.evening_model import ContractLeader, Rival
from ..stats.model import TableStats
from .exports import Cell
from .labels import Translate, contract_label, game_label, identity
from .night_share import points_text

NIGHTS_FILE, RATINGS_FILE, RIVALS_FILE, LEADERS_FILE = "nights", "ratings", "rivals", "leaders"
EVENING_TABLES: dict[str, str] = {
    NIGHTS_FILE: N_("Nights"),
    RATINGS_FILE: N_("Ratings"),
    RIVALS_FILE: N_("Rivals"),
    LEADERS_FILE: N_("Who takes what"),
}
"""The evening's tables, with the word that names each in its file's name."""

NIGHT = N_("Night")
DATE = N_("Date")
GAMES_KINDS = N_("Games played")
NIGHT_POINTS = N_("Night points")
RATING = N_("Rating")
RATED_GAMES = N_("Rated games")
MODE = N_("Mode")
AHEAD_OF = N_("Finishes ahead of most often")
BEHIND = N_("Finishes behind most often")
BEST_PARTNER = N_("Best partner")
TOGETHER = N_("Games together")
AHEAD = N_("Ahead")
BEHIND_COUNT = N_("Behind")
LEVEL = N_("Level")
PARTNER_WINS = N_("Wins together")
ITEM = N_("What")
PER_DEAL = N_("Per deal")
LEADER = N_("Who")
MODES: dict[str, str] = {"solo": N_("Solo"), "partnership": N_("Partnership")}
ITEM_NAMES: dict[str, str] = {
    "king_of_hearts": N_("K♥ per deal"),
    "queens": N_("Queens per deal"),
    "diamonds": N_("Diamonds per deal"),
    "tricks": N_("Tricks per deal"),
    "hearts": N_("Hearts per deal"),
    "kings_and_jacks": N_("Kings and jacks per deal"),
    "last_two": N_("Last two tricks per deal"),
}
"""Each item a contract counts, as its column says it (the statistics' own words)."""
AVERAGE_PLACE = N_("Average place")


def leader_what(leader: ContractLeader, translate: Translate = identity) -> str:
    """What a contract's leader leads it in: an item per deal, or the average place."""
    if leader.item is None:
        return translate(AVERAGE_PLACE)
    return translate(ITEM_NAMES[str(leader.item)])


def _rival_cells(rivals: tuple[Rival, ...]) -> list[Cell]:
    """Everyone tied for the most in one cell, then their figures (equal for all of them)."""
    if not rivals:
        return ["", "", "", "", ""]
    first = rivals[0]
    names = ", ".join(rival.name for rival in rivals)
    return [names, first.together, first.ahead, first.behind, first.level]


def evening_rows(
    stats: TableStats, table: str, translate: Translate = identity
) -> tuple[tuple[str, ...], list[list[Cell]]]:
    """One of the evening's tables (EVENING_TABLES): its header (English, to translate) and
    its rows. ValueError for another name, or for the ratings of a table that has none."""
    rows: list[list[Cell]] = []
    if table == NIGHTS_FILE:
        header: tuple[str, ...] = (NIGHT, DATE, GAMES_KINDS, "Player", NIGHT_POINTS, "Wins")
        header += ("Games", "Finished")
        for night in stats.nights:
            kinds = ", ".join(game_label(kind, translate) for kind in night.kinds)
            for player in night.standings:
                rows.append(
                    [
                        night.number,
                        night.day or "",
                        kinds,
                        player.name,
                        points_text(player.halves).replace("½", ".5"),
                        player.wins,
                        player.games,
                        player.finished,
                    ]
                )
    elif table == RATINGS_FILE:
        if stats.ratings is None:
            raise ValueError("the table's players are not rated")
        header = ("Player", RATING, RATED_GAMES)
        rows = [
            [rating.name, "" if rating.value is None else rating.value, rating.games]
            for rating in stats.ratings
        ]
    elif table == RIVALS_FILE:
        header = (MODE, "Player")
        header += (AHEAD_OF, TOGETHER, AHEAD, BEHIND_COUNT, LEVEL)
        header += (BEHIND, TOGETHER, AHEAD, BEHIND_COUNT, LEVEL)
        header += (BEST_PARTNER, TOGETHER, PARTNER_WINS)
        for mode in stats.rivals:
            for rivals in mode.players:
                partners = rivals.partner
                rows.append(
                    [
                        translate(MODES[mode.mode]),
                        rivals.name,
                        *_rival_cells(rivals.beats),
                        *_rival_cells(rivals.beaten_by),
                        *(
                            ["", "", ""]
                            if not partners
                            else [
                                ", ".join(partner.name for partner in partners),
                                partners[0].together,
                                partners[0].wins,
                            ]
                        ),
                    ]
                )
    elif table == LEADERS_FILE:
        header = (MODE, "Contract", ITEM, LEADER, "Deals", PER_DEAL)
        rows = [
            [
                translate(MODES[mode.mode]),
                contract_label(leader.contract, translate),
                leader_what(leader, translate),
                leader.name,
                leader.deals,
                f"{leader.average:.2f}",
            ]
            for mode in stats.rivals
            for leader in mode.leaders
        ]
    else:
        raise ValueError(f"no evening table {table!r}")
    return header, rows
