"""Words for what the table entered: contract and suit names, and a deal's takes in short form.

Pure Python, no Flask: the web views, the CSV export and the chart share these. Every word a
player reads goes through ``translate`` (Flask-Babel's ``gettext`` in the app, identity by
default); ``N_`` marks the English originals for the translation catalogues.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from scorekeeper.rules.cards import SUIT_SYMBOLS, SUITS, TEAMS
from scorekeeper.rules.contracts import CONTRACTS, KING_OF_HEARTS_CARD
from scorekeeper.rules.deal import COUNTS, ORDER, SEAT_PAIR, Deal
from scorekeeper.rules.messages import N_

Translate = Callable[[str], str]


def identity(text: str) -> str:
    """The default `translate`: English as written."""
    return text


CONTRACT_LABELS: dict[str, str] = {
    # Trix and Trix Complex
    "king-of-hearts": N_("King of Hearts"),
    "queens": N_("Queens"),
    "diamonds": N_("Diamonds"),
    "ltoosh": N_("Ltoosh"),
    "trix": N_("Trix"),
    "complex": N_("Complex"),
    # Turkish King
    "trump": N_("Trump"),
    "no-king": N_("No King of Hearts"),
    "no-queens": N_("No Queens"),
    "no-boys": N_("No Boys"),
    "no-hearts": N_("No Hearts"),
    "no-last-two": N_("No Last Two"),
    "no-tricks": N_("No Tricks"),
}
"""Contract id → English display name (translated by the caller's `translate`)."""

NATIVE_NAMES: dict[str, str] = {
    "king-of-hearts": "شيخ الكبة",
    "queens": "بنات",
    "diamonds": "ديناري",
    "ltoosh": "لطوش",
    "trix": "تركس",
    "complex": "كمبلكس",
    "trump": "Koz",
    "no-king": "Rıfkı",
    "no-queens": "Kız almaz",
    "no-boys": "Erkek almaz",
    "no-hearts": "Kupa almaz",
    "no-last-two": "Son iki",
    "no-tricks": "El almaz",
}
"""Contract id → the name the game's home table uses (RULES.md); a proper name, not translated."""

GAME_LABELS: dict[str, str] = {
    "trix": N_("Trix"),
    "trix-complex": N_("Trix Complex"),
    "turkish-king": N_("Turkish King"),
}

SUIT_LABELS: dict[str, str] = {
    "S": N_("Spades"),
    "H": N_("Hearts"),
    "D": N_("Diamonds"),
    "C": N_("Clubs"),
}

KING_OF_HEARTS = N_("K♥")
QUEEN_CARDS: dict[str, str] = {"S": N_("Q♠"), "H": N_("Q♥"), "D": N_("Q♦"), "C": N_("Q♣")}

TAKE = N_("{card} {taker}")
DOUBLED_TAKE = N_("{card} {taker} (×2 {doubler})")
LAST_TRICK = N_("{trick}: {taker}")
TEAM = N_("{first} & {second}")
COMPLEX_TRICKS = N_("Tricks {counts}")

SEPARATOR = " · "
"""Between the parts of one take (per-seat counts, queens)."""
ORDER_SEPARATOR = " › "
"""Between the places of a Trix finishing order (mirrors itself in right-to-left text)."""
SECTION_SEPARATOR = " / "
"""Between the sections of a Complex deal."""


def contract_label(contract_id: str, translate: Translate = identity) -> str:
    """A contract's display name, e.g. "King of Hearts" or "No Last Two" (the id if unknown)."""
    label = CONTRACT_LABELS.get(contract_id)
    return translate(label) if label is not None else contract_id


def contract_native_name(contract_id: str) -> str:
    """The contract's Arabic (Trix games) or Turkish (Turkish King) name, e.g. "Rıfkı"."""
    return NATIVE_NAMES.get(contract_id, "")


def game_label(game_id: str, translate: Translate = identity) -> str:
    """A game's display name: "Trix", "Trix Complex" or "Turkish King" (the id if unknown)."""
    label = GAME_LABELS.get(game_id)
    return translate(label) if label is not None else game_id


def suit_label(suit: str, translate: Translate = identity) -> str:
    """A suit letter's name, e.g. "S" → "Spades" (the letter if unknown)."""
    label = SUIT_LABELS.get(suit)
    return translate(label) if label is not None else suit


def suit_symbol(suit: str) -> str:
    """A suit letter's symbol, e.g. "S" → "♠"."""
    return SUIT_SYMBOLS.get(suit, suit)


def team_label(players: Sequence[str], team: int, translate: Translate = identity) -> str:
    """A partnership team named by its players, e.g. "Rami & Omar" for team 0."""
    first, second = TEAMS[team]
    return translate(TEAM).format(first=players[first], second=players[second])


def _card_take(card: str, taker: int, doubler: int | None, players: Sequence[str],
               translate: Translate) -> str:
    if doubler is None:
        return translate(TAKE).format(card=card, taker=players[taker])
    return translate(DOUBLED_TAKE).format(card=card, taker=players[taker],
                                          doubler=players[doubler])


def _queens(takers: Mapping[str, int], doublers: Mapping[str, int], players: Sequence[str],
            translate: Translate) -> str:
    return SEPARATOR.join(
        _card_take(translate(QUEEN_CARDS[suit]), takers[suit], doublers.get(suit), players,
                   translate)
        for suit in SUITS if suit in takers)


def _counts(counts: Sequence[int]) -> str:
    return SEPARATOR.join(str(count) for count in counts)


def short_takes(deal: Deal, players: Sequence[str], translate: Translate = identity) -> str:
    """What the table entered for one deal, in a few words for a history table or a CSV cell.

    Per-seat counts are listed in seat order ("3 · 4 · 5 · 1"); cards name their taker
    ("K♥ Lina (×2 Omar)" when Omar doubled it); a Trix order reads first to last.
    """
    contract = deal.contract
    if contract in ("king-of-hearts", "no-king"):
        doubler = deal.optional_seat("doubled_by") if contract == "king-of-hearts" else None
        return _card_take(translate(KING_OF_HEARTS), deal.seat("taker"), doubler, players,
                          translate)
    if contract == "queens":
        return _queens(deal.cards("takers"), deal.cards("doubled_by"), players, translate)
    if contract == "trump":
        return f"{suit_symbol(deal.text('suit'))} {_counts(deal.counts('tricks'))}"
    if contract == "complex":
        doublers = deal.cards("doubled_by")
        return SECTION_SEPARATOR.join((
            translate(COMPLEX_TRICKS).format(counts=_counts(deal.counts("tricks"))),
            f"{SUIT_SYMBOLS['D']} {_counts(deal.counts('diamonds'))}",
            _queens(deal.cards("queens"), doublers, players, translate),
            _card_take(translate(KING_OF_HEARTS), deal.seat("king_of_hearts"),
                       doublers.get(KING_OF_HEARTS_CARD), players, translate),
        ))
    spec = CONTRACTS[contract].fields[0]
    if spec.kind == ORDER:
        return ORDER_SEPARATOR.join(players[seat] for seat in deal.counts(spec.name))
    if spec.kind == SEAT_PAIR:
        return SEPARATOR.join(
            translate(LAST_TRICK).format(trick=trick, taker=players[seat])
            for trick, seat in zip((12, 13), deal.counts(spec.name), strict=True))
    if spec.kind == COUNTS:
        return _counts(deal.counts(spec.name))
    raise ValueError(f"no short form for contract {contract!r}")
