"""Every refusal the engine can give, as a message id with an English template.

The engine never formats for a language itself: a :class:`~scorekeeper.rules.errors.Problem`
keeps its message id and parameters, and whoever shows it (the CLI in English, the web app in
the player's language) renders the template. ``N_`` marks strings for translation catalogues
without importing any translation library.
"""

from __future__ import annotations

from enum import StrEnum


def N_(text: str) -> str:  # the conventional name for a deferred gettext marker
    """Mark a string for extraction into translation catalogues; return it unchanged."""
    return text


TEMPLATES: dict[str, str] = {
    # shape and types
    "missing": N_("{field} is missing"),
    "unknown_key": N_("{field} is not a field of this record"),
    "duplicate_key": N_("{field} appears twice"),
    "not_int": N_("{field} must be a whole number"),
    "not_seat": N_("{field} must be a seat from 0 to 3"),
    "not_bool": N_("{field} must be true or false"),
    "not_text": N_("{field} must be text"),
    "not_list": N_("{field} must be a list"),
    "not_object": N_("{field} must be an object"),
    "wrong_length": N_("{field} must have {expected} entries"),
    "count_range": N_("{field} must be between 0 and {maximum}"),
    "sum_mismatch": N_("{field} add up to {total}; there are {expected} {unit}"),
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
    "long_name": N_("{field}: a name has at most {maximum} characters"),
    "same_name": N_("{field}: two players cannot have the same name"),
    "bad_self_take": N_("{field} must be net or full"),
    "bad_queen_of_diamonds": N_("{field} must be queen or whole"),
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
    "cards_exceed_tricks": N_(
        "{field}: {cards} cards do not fit in {tricks} tricks (at most 4 cards a trick)"
    ),
    "queen_diamond_without_diamond": N_(
        "{field}: the player who took the Q♦ must have taken at least one diamond"
    ),
}
"""Message id → English template. Placeholders are filled from Problem.params."""



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

UNITS: dict[str, str] = {
    "diamonds": N_("diamonds"),
    "tricks": N_("tricks"),
    "queens": N_("queens"),
    "kings and jacks": N_("kings and jacks"),
    "hearts": N_("hearts"),
}
"""Things a sum counts, used as the {unit} of sum_mismatch."""
