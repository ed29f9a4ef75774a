"""Counts about the rules in words: how long each game is, what a deal's counts add up to.

Pure Python, no Flask. Every number is the engine's (a game's :class:`GameDef`, its contracts'
fields), never typed here. Each count is a phrase of its own, counted (``ngettext``), so every
language picks its own plural form for it (Arabic's six, Russian's three); a sentence takes the
phrases as ``%(name)s`` pieces and never puts a noun after a bare number.
"""

from __future__ import annotations

from ..rules.errors import TranslatePlural, english_plural
from ..rules.examples import count_totals
from ..rules.games import GAMES, PARTNERSHIP
from ..rules.house_rules import HouseRules
from ..rules.messages import N_, Counted, ngettext
from .contracts import item_count
from .labels import HAND_CONTEXT, LIST_SEPARATOR, SENTENCE_END, Translate, game_label, identity

DEALS = ngettext("%(num)d deal", "%(num)d deals", "num")
HANDS = ngettext("%(num)d hand", "%(num)d hands", "num")
KINGDOMS = ngettext("%(num)d kingdom", "%(num)d kingdoms", "num")
CONTRACTS = ngettext("%(num)d contract", "%(num)d contracts", "num")
DEAL_WORDS: dict[str, Counted] = {HAND_CONTEXT: HANDS}
"""Game id → how its deals are counted where it has a word of its own (Turkish King: hands)."""

KINGDOM_OUTLINE = N_("%(game)s: %(kingdoms)s of %(contracts)s, %(deals)s")
OUTLINE = N_("%(game)s: %(deals)s")
SOLO_ONLY = N_("%(outline)s, solo only")
COUNTS_ADD_UP = N_(
    "Counts add up: %(counts)s; the K♥ has one taker; trick 12 and trick 13 each have one "
    "winner (the same player may win both)."
)


def counted(words: Counted, number: int, translate_plural: TranslatePlural = english_plural) -> str:
    """`number` of something in the reader's words, e.g. "20 deals", "مملكتان" (Arabic's dual
    says the two without the digit)."""
    return translate_plural(words.singular, words.plural, number) % {"num": number}


def game_outline(
    game: str, translate: Translate = identity, translate_plural: TranslatePlural = english_plural
) -> str:
    """A game's length in one sentence, e.g. "Trix: 4 kingdoms of 5 contracts, 20 deals." or
    "Turkish King: 20 hands, solo only.", every number its definition's."""
    definition = GAMES[game]
    deals = counted(DEAL_WORDS.get(game, DEALS), definition.deals_total, translate_plural)
    name = game_label(game, translate)
    if definition.kingdoms:
        outline = translate(KINGDOM_OUTLINE) % {
            "game": name,
            "kingdoms": counted(KINGDOMS, definition.kingdoms, translate_plural),
            "contracts": counted(CONTRACTS, definition.per_kingdom, translate_plural),
            "deals": deals,
        }
    else:
        outline = translate(OUTLINE) % {"game": name, "deals": deals}
    if PARTNERSHIP not in definition.modes:
        outline = translate(SOLO_ONLY) % {"outline": outline}
    return translate(SENTENCE_END).format(sentence=outline)


def counts_add_up(
    game: str,
    rules: HouseRules,
    translate: Translate = identity,
    translate_plural: TranslatePlural = english_plural,
) -> str:
    """Turkish King's check on a deal's counts, e.g. "Counts add up: 13 tricks, 4 queens, ...",
    each total the one its contracts' fields hold."""
    pieces = [
        counted(item_count(item), total, translate_plural)
        for item, total in count_totals(game, rules).items()
    ]
    return translate(COUNTS_ADD_UP) % {"counts": translate(LIST_SEPARATOR).join(pieces)}
