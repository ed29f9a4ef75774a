"""Every refusal the engine can give, as a message id with an English template.

The engine never formats for a language itself: a :class:`~scorekeeper.rules.errors.Problem`
keeps its message id and parameters, and whoever shows it (the CLI in English, the web app in
the player's language) renders the template. ``N_`` marks strings for translation catalogues
without importing any translation library; ``ngettext`` marks a counted message, whose words
follow a number ("1 trick", "5 tricks"; Arabic has six forms, Turkish one), so the edge renders
it with the language's plural rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


def N_(text: str) -> str:  # the conventional name for a deferred gettext marker
    """Mark a string for extraction into translation catalogues; return it unchanged."""
    return text


@dataclass(frozen=True)
class Counted:
    """A message whose words follow a number: its English singular and plural, and the
    parameter whose value picks the form (each language's own plural rules pick among its
    forms)."""

    singular: str
    plural: str
    count: str


def ngettext(singular: str, plural: str, count: str) -> Counted:
    """Mark a counted message for extraction (Babel's default ``ngettext`` keyword takes the
    first two arguments as singular and plural); `count` names the parameter that picks the
    form. Nothing is translated here."""
    return Counted(singular, plural, count)


Template = str | Counted

TEMPLATES: dict[str, Template] = {
    # shape and types
    "missing": N_("{field} is missing"),
    "unknown_key": N_("{field} is not a field of this record"),
    "duplicate_key": N_("{field} appears twice"),
    "not_int": N_("{field} must be a whole number"),
    "not_seat": N_("{field} must be a seat from 0 to 3"),
    "not_bool": N_("{field} must be true or false"),
    "not_text": N_("{field} must be text"),
    "lone_surrogate": N_("{field} holds a character that is not text (a lone surrogate)"),
    "not_list": N_("{field} must be a list"),
    "not_object": N_("{field} must be an object"),
    "wrong_length": ngettext(
        "{field} must have {expected} entry", "{field} must have {expected} entries", "expected"
    ),
    "count_range": N_("{field} must be between 0 and {maximum}"),
    "sum_mismatch": ngettext(
        "{field} add up to {total}; there is {expected} {unit}",
        "{field} add up to {total}; there are {expected} {unit}",
        "expected",
    ),
    "sum_over": ngettext(
        "{field} add up to {total}; there is at most {expected} {unit}",
        "{field} add up to {total}; there are at most {expected} {unit}",
        "expected",
    ),
    "not_permutation": N_("{field} must name each of the four players exactly once"),
    "placed_twice": N_("{field}: {name} is placed twice"),
    "not_suit": N_("{field} must be one of S, H, D, C"),
    "card_keys": N_("{field} must name the taker of each of {cards}"),
    "bad_card": N_("{field} is not a card that can be doubled here"),
    # game setup
    "unknown_game": N_("{field} must be trix, trix-complex or turkish-king"),
    "unknown_mode": N_("{field} must be solo or partnership"),
    "solo_only": N_("{field}: Turkish King is played solo only"),
    "blank_name": N_("{field}: every player needs a name"),
    "long_name": ngettext(
        "{field}: a name has at most {maximum} character",
        "{field}: a name has at most {maximum} characters",
        "maximum",
    ),
    "same_name": N_("{field}: two players cannot have the same name"),
    "control_in_name": N_("{field}: a name cannot hold control characters or direction overrides"),
    "long_text": ngettext(
        "{field}: at most {maximum} character", "{field}: at most {maximum} characters", "maximum"
    ),
    "bad_timestamp": N_(
        "{field} must be a date and time with its UTC offset, within the years 1 to 9999"
    ),
    "bad_self_take": N_("{field} must be net or full"),
    "bad_queen_of_diamonds": N_("{field} must be queen or whole"),
    "bad_complex_tricks": N_("{field} must be every or penalty"),
    "bad_winners": N_("{field} must be highest or positive"),
    "rule_not_for_game": N_("{field} does not apply to this game"),
    "derived_mismatch": N_("{field} does not match what the rules compute"),
    "bad_format": N_("{field} must be scorekeeper-game/1"),
    # contracts and doubling
    "unknown_contract": N_("{field}: there is no such contract in this game"),
    "contract_played": N_("{field}: this contract was already played in this kingdom"),
    "trump_quota": N_("{field}: this player has already declared two trump contracts"),
    "negative_quota": N_("{field}: this player has already declared three negative contracts"),
    "negative_twice": N_("{field}: this negative contract was already played twice"),
    "game_finished": N_("{field}: the game is finished; no more deals"),
    "doubling_off": N_("{field}: doubling is switched off in this game"),
    # Trix Complex consistency
    "no_tricks_no_cards": N_("{field}: a player who took no tricks took no cards"),
    "cards_exceed_tricks": ngettext(
        "{field}: {cards} cannot fit in {tricks} trick (at most 4 cards a trick)",
        "{field}: {cards} cannot fit in {tricks} tricks (at most 4 cards a trick)",
        "tricks",
    ),
    "tricks_exceed_cards": ngettext(
        "{field}: {tricks} trick held a penalty card, but the player took {cards}",
        "{field}: {tricks} tricks held a penalty card, but the player took {cards}",
        "tricks",
    ),
    "queen_diamond_without_diamond": N_(
        "{field}: the player who took the Q♦ must have taken at least one diamond"
    ),
}
"""Message id → English template (or counted templates). Placeholders are filled from
Problem.params."""

PIECES: dict[str, dict[str, Counted]] = {
    "cards_exceed_tricks": {"cards": ngettext("{cards} card", "{cards} cards", "cards")},
    "tricks_exceed_cards": {
        "cards": ngettext("{cards} penalty card", "{cards} penalty cards", "cards")
    },
}
"""Message id → parameters shown as a counted phrase of their own ("5 cards") before they go
into the template: a message counting two things gets its second count's words here."""


class ClosedReason(StrEnum):
    """Why a contract is closed to the chooser. Each is also the message id of the refusal when
    the closed contract is entered anyway. A StrEnum: members equal their (string) ids."""

    CONTRACT_PLAYED = "contract_played"
    """Trix games: already played in this kingdom."""
    TRUMP_QUOTA = "trump_quota"
    """Turkish King: the chooser has declared both trumps."""
    NEGATIVE_QUOTA = "negative_quota"
    """Turkish King: the chooser has declared three negatives."""
    NEGATIVE_TWICE = "negative_twice"
    """Turkish King: this negative contract was played twice already."""


REASONS: dict[str, str] = {
    ClosedReason.CONTRACT_PLAYED: N_("played in this kingdom"),
    ClosedReason.TRUMP_QUOTA: N_("two trumps declared"),
    ClosedReason.NEGATIVE_QUOTA: N_("three negatives declared"),
    ClosedReason.NEGATIVE_TWICE: N_("played twice"),
}
"""Why a contract is closed to the chooser, as a short label for greyed-out buttons: one entry
per :class:`ClosedReason` member (typed by ``str`` so a plain id still looks a label up)."""

UNITS: dict[str, Counted] = {
    "diamonds": ngettext("diamond", "diamonds", "expected"),
    "tricks": ngettext("trick", "tricks", "expected"),
    "queens": ngettext("queen", "queens", "expected"),
    "kings_and_jacks": ngettext("king or jack", "kings and jacks", "expected"),
    "hearts": ngettext("heart", "hearts", "expected"),
}
"""Things a sum counts (a count field's `unit`, the value of the contracts' ``Item`` it counts),
used as the {unit} of sum_mismatch: their words follow the count (`expected`) in front of
them."""
