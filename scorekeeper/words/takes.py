"""A deal's takes in a few words, for a history table or a CSV cell (pure Python, no Flask)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import assert_never

from ..rules.cards import SUITS
from ..rules.contracts import CONTRACTS, Item
from ..rules.deal import Deal, FieldKind, FieldSpec
from ..rules.messages import N_
from .contracts import ITEM_WORDS
from .labels import CARD_LABELS, Translate, identity, suit_symbol

TAKE = N_("{card} {taker}")
DOUBLED_TAKE = N_("{card} {taker} (×2 {doubler})")
LAST_TRICK = N_("{trick}: {taker}")
SEPARATOR = " · "
"""Between the parts of one take (per-seat counts, queens)."""
ORDER_SEPARATOR = N_(" › ")
"""Between the places of a Trix finishing order. A catalogue of a right-to-left language gives
an arrow that points its way (Arabic " ← "): fonts do not mirror "›" reliably."""
SECTION_SEPARATOR = " / "
"""Between the sections of a deal that records several (Complex)."""
NO_BREAK = "\u00a0"
"""A space no line breaks at: inside a bracket ("(×2 Omar)"), so that a narrow phone never
leaves «(×2» at the end of one line and «ليلى)» at the start of the next."""
_BRACKETED = re.compile(r"\([^()]*\)")


def _unbreakable_brackets(text: str) -> str:
    """`text` with every space inside its brackets made a space no line breaks at."""
    return _BRACKETED.sub(lambda bracket: bracket[0].replace(" ", NO_BREAK), text)


def _card_take(
    card: str, taker: int, doubler: int | None, players: Sequence[str], translate: Translate
) -> str:
    if doubler is None:
        return translate(TAKE).format(card=card, taker=players[taker])
    # whatever the catalogue's spacing, and a doubler's name of several words, the bracket is
    # one unit: the name is never separated from its «(×2»
    template = _unbreakable_brackets(translate(DOUBLED_TAKE))
    doubler_name = players[doubler].replace(" ", NO_BREAK)
    return template.format(card=card, taker=players[taker], doubler=doubler_name)


def _queens(
    takers: Mapping[str, int],
    doublers: Mapping[str, int],
    players: Sequence[str],
    translate: Translate,
) -> str:
    return SEPARATOR.join(
        _card_take(
            translate(CARD_LABELS[suit]), takers[suit], doublers.get(suit), players, translate
        )
        for suit in SUITS
        if suit in takers
    )


def _counts(counts: Sequence[int]) -> str:
    return SEPARATOR.join(str(count) for count in counts)


def _counts_section(spec: FieldSpec, deal: Deal, sections: int, translate: Translate) -> str:
    counts = _counts(deal.counts(spec.name))
    if sections == 1:  # alone, the contract's name says what is counted
        return counts
    section = ITEM_WORDS[Item(spec.unit)].section
    if section is None:
        raise KeyError(f"{spec.unit}: no section words in ITEM_WORDS")
    return translate(section).format(counts=counts)


def short_takes(deal: Deal, players: Sequence[str], translate: Translate = identity) -> str:
    """What the table entered for one deal, in a few words for a history table or a CSV cell.

    Read from the contract's own fields, in its order: per-seat counts are listed in seat order
    ("3 · 4 · 5 · 1", labelled by what they count when the deal records several sections); cards
    name their taker ("K♥ Lina (×2 Omar)" when Omar doubled it); a Trix order reads first to
    last; a trump suit stands before its tricks.
    """
    contract = CONTRACTS[deal.contract]
    doubles_field = contract.doubles_field
    takes = contract.takes
    sections = sum(1 for spec in takes if spec.kind != FieldKind.SUIT)
    parts: list[str] = []
    prefix = ""
    for spec in takes:
        match spec.kind:
            case FieldKind.SUIT:
                prefix = f"{suit_symbol(deal.text(spec.name))} "
                continue
            case FieldKind.SEAT | FieldKind.OPTIONAL_SEAT:
                card = spec.cards[0]
                part = _card_take(
                    translate(CARD_LABELS[card]),
                    deal.seat(spec.name),
                    _doubler(deal, doubles_field, card),
                    players,
                    translate,
                )
            case FieldKind.CARD_SEATS | FieldKind.OPTIONAL_CARD_SEATS:
                doublers = deal.cards(doubles_field) if doubles_field else {}
                part = _queens(deal.cards(spec.name), doublers, players, translate)
            case FieldKind.COUNTS:
                part = _counts_section(spec, deal, sections, translate)
            case FieldKind.ORDER:
                part = translate(ORDER_SEPARATOR).join(
                    players[seat] for seat in deal.counts(spec.name)
                )
            case FieldKind.SEAT_PAIR:
                part = SEPARATOR.join(
                    translate(LAST_TRICK).format(trick=trick, taker=players[seat])
                    for trick, seat in zip((12, 13), deal.counts(spec.name), strict=True)
                )
            case _:
                assert_never(spec.kind)
        parts.append(prefix + part)
        prefix = ""
    return SECTION_SEPARATOR.join(parts)


def _doubler(deal: Deal, doubles_field: str | None, card: str) -> int | None:
    """Who doubled `card` in `deal` (None: nobody, or the contract records no doubles)."""
    if doubles_field is None:
        return None
    if CONTRACTS[deal.contract].field(doubles_field).kind == FieldKind.OPTIONAL_SEAT:
        return deal.optional_seat(doubles_field)
    return deal.cards(doubles_field).get(card)
