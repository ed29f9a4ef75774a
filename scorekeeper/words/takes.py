"""A deal's takes in a few words, for a history table or a CSV cell (pure Python, no Flask)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..rules.cards import SUIT_SYMBOLS, SUITS
from ..rules.contracts import CONTRACTS, KING_OF_HEARTS_CARD
from ..rules.deal import Deal, FieldKind
from ..rules.messages import N_
from .labels import CARD_LABELS, Translate, identity, suit_symbol

TAKE = N_("{card} {taker}")
DOUBLED_TAKE = N_("{card} {taker} (×2 {doubler})")
LAST_TRICK = N_("{trick}: {taker}")
COMPLEX_TRICKS = N_("Tricks {counts}")

SEPARATOR = " · "
"""Between the parts of one take (per-seat counts, queens)."""
ORDER_SEPARATOR = N_(" › ")
"""Between the places of a Trix finishing order. A catalogue of a right-to-left language gives
an arrow that points its way (Arabic " ← "): fonts do not mirror "›" reliably."""
SECTION_SEPARATOR = " / "
"""Between the sections of a Complex deal."""


def _card_take(card: str, taker: int, doubler: int | None, players: Sequence[str],
               translate: Translate) -> str:
    if doubler is None:
        return translate(TAKE).format(card=card, taker=players[taker])
    return translate(DOUBLED_TAKE).format(card=card, taker=players[taker],
                                          doubler=players[doubler])


def _queens(takers: Mapping[str, int], doublers: Mapping[str, int], players: Sequence[str],
            translate: Translate) -> str:
    return SEPARATOR.join(
        _card_take(translate(CARD_LABELS[suit]), takers[suit], doublers.get(suit), players,
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
        return _card_take(translate(CARD_LABELS[KING_OF_HEARTS_CARD]), deal.seat("taker"),
                          doubler, players, translate)
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
            _card_take(translate(CARD_LABELS[KING_OF_HEARTS_CARD]), deal.seat("king_of_hearts"),
                       doublers.get(KING_OF_HEARTS_CARD), players, translate),
        ))
    spec = CONTRACTS[contract].fields[0]
    match spec.kind:
        case FieldKind.ORDER:
            return translate(ORDER_SEPARATOR).join(players[seat] for seat in deal.counts(spec.name))
        case FieldKind.SEAT_PAIR:
            return SEPARATOR.join(
                translate(LAST_TRICK).format(trick=trick, taker=players[seat])
                for trick, seat in zip((12, 13), deal.counts(spec.name), strict=True))
        case FieldKind.COUNTS:
            return _counts(deal.counts(spec.name))
        case _:  # the contracts above record a seat, a suit or cards first
            raise ValueError(f"no short form for contract {contract!r}")
