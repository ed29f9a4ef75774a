"""Hypothesis strategies for legal games, built by asking the engine what is open at each step.

Imported as ``tests.rules.strategies``.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from hypothesis import strategies as st

from scorekeeper.rules import (
    FULL,
    GAMES,
    NET,
    SUITS,
    TRIX,
    TRIX_COMPLEX,
    TURKISH_KING,
    Game,
    HouseRules,
    QueenOfDiamonds,
    Record,
    Winners,
    parse_deal,
    replay,
    with_deal,
)
from scorekeeper.rules.text import clean_text, name_problem

seats = st.integers(min_value=0, max_value=3)


@st.composite
def counts(draw: st.DrawFn, total: int) -> list[int]:
    """Four counts, each 0..total, adding up to total (cut points of a row of `total` items)."""
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=3, max_size=3)))
    bounds = [0, *cuts, total]
    return [bounds[i + 1] - bounds[i] for i in range(4)]


def house_rules(game: str) -> st.SearchStrategy[HouseRules]:
    """Any house rules the game allows (the rest at their defaults)."""
    if game == TURKISH_KING:
        return st.builds(HouseRules, winners=st.sampled_from(list(Winners)))
    swap = st.booleans() if game == TRIX else st.just(False)
    queen = (
        st.sampled_from(list(QueenOfDiamonds))
        if game == TRIX_COMPLEX
        else st.just(QueenOfDiamonds.QUEEN)
    )
    return st.builds(
        HouseRules,
        doubling=st.booleans(),
        doubled_self_take=st.sampled_from([NET, FULL]),
        swap_diamonds_ltoosh=swap,
        doubled_queen_of_diamonds=queen,
    )


def doublers(draw: st.DrawFn, cards: tuple[str, ...], rules: HouseRules) -> dict[str, int]:
    """Some of `cards` doubled, each by some seat (none when doubling is off)."""
    if not rules.doubling:
        return {}
    doubled = draw(st.lists(st.sampled_from(cards), unique=True, max_size=len(cards)))
    return {card: draw(seats) for card in doubled}


# a card is suit * 13 + rank, ranks 0..12 from 2 to ace: Q = 10, K = 11
DIAMOND_SUIT, HEART_SUIT = SUITS.index("D"), SUITS.index("H")
QUEEN, KING = 10, 11


@st.composite
def complex_deal(draw: st.DrawFn, rules: HouseRules) -> dict[str, Any]:
    """A consistent complex deal: a real shuffle of the 52 cards into the seats' tricks."""
    tricks = draw(counts(13))
    deck = draw(st.permutations(range(52)))
    holder: dict[int, int] = {}
    start = 0
    for seat, taken in enumerate(tricks):
        for card in deck[start : start + 4 * taken]:
            holder[card] = seat
        start += 4 * taken
    diamonds = [0, 0, 0, 0]
    for rank in range(13):
        diamonds[holder[DIAMOND_SUIT * 13 + rank]] += 1
    return {
        "contract": "complex",
        "tricks": tricks,
        "diamonds": diamonds,
        "queens": {suit: holder[index * 13 + QUEEN] for index, suit in enumerate(SUITS)},
        "king_of_hearts": holder[HEART_SUIT * 13 + KING],
        "doubled_by": doublers(draw, ("KH", *SUITS), rules),
    }


@st.composite
def raw_deal(draw: st.DrawFn, contract: str, rules: HouseRules) -> dict[str, Any]:
    """A legal entry for `contract` (as a table would enter it)."""
    if contract == "complex":
        return draw(complex_deal(rules))
    deal: dict[str, Any] = {"contract": contract}
    if contract == "king-of-hearts":
        deal["taker"] = draw(seats)
        doubled = doublers(draw, ("KH",), rules)
        if doubled or draw(st.booleans()):
            deal["doubled_by"] = doubled.get("KH")
    elif contract == "queens":
        deal["takers"] = {suit: draw(seats) for suit in SUITS}
        doubled = doublers(draw, SUITS, rules)
        if doubled or draw(st.booleans()):
            deal["doubled_by"] = doubled
    elif contract == "diamonds":
        deal["counts"] = draw(counts(13))
    elif contract in ("ltoosh", "no-tricks"):
        deal["tricks"] = draw(counts(13))
    elif contract == "trix":
        deal["order"] = draw(st.permutations([0, 1, 2, 3]))
    elif contract == "trump":
        deal["suit"] = draw(st.sampled_from(SUITS))
        deal["tricks"] = draw(counts(13))
    elif contract == "no-king":
        deal["taker"] = draw(seats)
    elif contract in ("no-queens", "no-boys", "no-hearts"):
        deal["counts"] = draw(counts({"no-queens": 4, "no-boys": 8, "no-hearts": 13}[contract]))
    elif contract == "no-last-two":
        deal["last_two"] = [draw(seats), draw(seats)]
    else:  # pragma: no cover - every contract is listed above
        raise AssertionError(contract)
    return deal


@st.composite
def setups(draw: st.DrawFn, game: str | None = None) -> Game:
    """A game with no deals yet: any game, mode, first seat and house rules it allows."""
    game_id = (
        game if game is not None else draw(st.sampled_from([TRIX, TRIX_COMPLEX, TURKISH_KING]))
    )
    mode = draw(st.sampled_from(GAMES[game_id].modes))
    rules = draw(house_rules(game_id))
    return Game(game_id, mode, ("Rami", "Lina", "Omar", "Dana"), draw(seats), rules)


@st.composite
def games_with_entries(
    draw: st.DrawFn,
    game: str | None = None,
    *,
    complete: bool = True,
) -> tuple[Game, list[dict[str, Any]]]:
    """A legal game (complete, or cut anywhere) and the raw entries it was built from."""
    current = draw(setups(game))
    definition = current.definition
    length = definition.deals_total if complete else draw(st.integers(0, definition.deals_total))
    entries: list[dict[str, Any]] = []
    for _ in range(length):
        step = replay(current).next
        assert step is not None
        contract = draw(st.sampled_from(step.contracts))
        entry = draw(raw_deal(contract, current.house_rules))
        deal, problems = parse_deal(definition, entry)
        assert deal is not None, (entry, problems)
        current = with_deal(current, deal)
        entries.append(entry)
    return current, entries


def games(game: str | None = None, *, complete: bool = True) -> st.SearchStrategy[Game]:
    """A legal game (complete by default)."""
    return games_with_entries(game, complete=complete).map(lambda pair: pair[0])


# the table's own text as a record holds it: already cleaned the way the forms clean it
text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
game_name = text.map(lambda value: clean_text(value) or None)
notes = text.map(lambda value: clean_text(value, multiline=True) or None)
offsets = st.integers(min_value=-14 * 60, max_value=14 * 60).map(
    lambda minutes: timezone(timedelta(minutes=minutes))
)
# with an offset, or without one (taken as UTC, as early exports wrote them)
timestamps = (
    st.datetimes().map(lambda moment: moment.isoformat())
    | st.datetimes(timezones=st.just(UTC)).map(lambda moment: moment.isoformat())
    | st.datetimes(
        min_value=datetime(2, 1, 1), max_value=datetime(9998, 12, 31), timezones=offsets
    ).map(lambda moment: moment.isoformat())
)
player_name = st.text(min_size=1, max_size=40).filter(lambda name: name_problem("", name) is None)


@st.composite
def records(draw: st.DrawFn, *, complete: bool | None = None) -> Record:
    """A record: a legal game (complete or not) with the table's own text, or none."""
    finished = draw(st.booleans()) if complete is None else complete
    game = draw(games(complete=finished))
    names = draw(
        st.lists(
            player_name, min_size=4, max_size=4, unique_by=lambda name: name.strip().casefold()
        )
    )
    game = Game(game.kind, game.mode, tuple(names), game.first, game.house_rules, game.deals)
    return Record(
        game,
        name=draw(st.none() | game_name),
        notes=draw(st.none() | notes),
        created_at=draw(st.none() | timestamps),
        updated_at=draw(st.none() | timestamps),
    )
