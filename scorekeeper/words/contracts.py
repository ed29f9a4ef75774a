"""Every word about a contract and about what it counts, one record each: the engine's
:data:`~scorekeeper.rules.contracts.CONTRACTS` and :class:`~scorekeeper.rules.contracts.Item`
say what there is, this module what the table reads about it.

A new contract is its :class:`~scorekeeper.rules.contracts.Contract` in rules/, its record here
and its words in the catalogues: ``tests/words/test_contracts.py`` walks both registries and
names the record or the entry that is missing. Pure Python, standard library only (no Flask):
the English originals are marked with ``N_`` / ``ngettext`` for the catalogues and translated by
whoever shows them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..rules.cards import SUIT_SYMBOLS
from ..rules.contracts import CONTRACTS, Item
from ..rules.house_rules import HouseRules
from ..rules.messages import N_, Counted, ngettext


@dataclass(frozen=True)
class TextName:
    """A contract's name as one of the game texts the app was made from writes it (the seeds,
    GLOSSARY.md), quoted exactly: a proper name in the text's language, never translated."""

    language: str
    """The page language that shows it (the text's language)."""
    name: str
    source: str
    """The seed file and line it is quoted from, "003:15" (GLOSSARY.md cites the same)."""
    alias: bool = False
    """A text whose names the app does not follow calls it so (seed 001 beside 000 and 002):
    shown as another text's name for this contract."""
    unlike: str | None = None
    """The contract whose name this one could be taken for (seed 001's «لطّش», the K♥
    contract, beside the app's «لطوش», the tricks contract): the rules page says it is not."""
    card: bool = False
    """The text's name for the contract's card, not for the contract (seed 001's «شايب
    الكبّة», the K♥): a table that learned it looks for it on this contract."""

    @property
    def marked(self) -> str:
        """How the rules page and the contract choice say whose name it is (``%(name)s``: the
        name): the texts the app follows, another text's, or another text's for the card."""
        if self.card:
            return CARD_IN_ANOTHER_TEXT
        return IN_ANOTHER_TEXT if self.alias else IN_THE_TEXTS


IN_THE_TEXTS = N_("in the rule texts: %(name)s")
IN_ANOTHER_TEXT = N_("in another rule text: %(name)s")
CARD_IN_ANOTHER_TEXT = N_("its card in another rule text: %(name)s")


@dataclass(frozen=True)
class ItemWords:
    """What the table reads about one kind of thing a player takes (an :class:`Item`)."""

    parameter: str
    """How a sentence about the rules names the score of one of it: "trick" → ``%(trick)s``."""
    average: str
    """The statistics' figure: how many of it a player took per deal, on average."""
    count: Counted | None = None
    """That many of it, as a phrase ("13 tricks"): for an item a count field counts."""
    section: str | None = None
    """A deal's per-player counts of it, where a deal records several counts (Complex:
    "Tricks 4 · 3 · 3 · 3"); ``{counts}`` stands for the counts."""


@dataclass(frozen=True)
class RuledWords:
    """A contract's words where a house rule changes what it scores or counts (each None or
    empty: as without the rule)."""

    score: str | None = None
    note: str | None = None
    checks: tuple[str, ...] | None = None
    fields: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class ContractWords:
    """What the table reads about one contract."""

    label: str
    """Its name in the app (English, translated by the catalogues)."""
    native: str
    """Its name at the game's home table (docs/rules.md: Arabic for Trix, Turkish for Turkish
    King); a proper name, never translated."""
    score: str
    """How it scores, for the rules page: its ``%(name)s`` numbers are :func:`score_numbers`."""
    fields: Mapping[str, str]
    """Each field of its deal → what the deal form calls it."""
    texts: tuple[TextName, ...] = ()
    """Its names in the game texts, where a text is written in a language the app speaks: the
    rules page and the contract choice show them beside the app's name."""
    note: str | None = None
    """A note under the rules page's table of scores (numbers as in `score`)."""
    checks: tuple[str, ...] = ()
    """What the app checks in a deal of it, for a Trix game's rules page; ``%(tricks)s``,
    ``%(diamonds)s``: what those counts add up to."""
    ruled: Mapping[tuple[str, str], RuledWords] = field(default_factory=dict)
    """(house rule, its value) → its words when that rule is on."""

    def ruled_by(self, rules: HouseRules) -> RuledWords:
        """Its words that one of the game's house `rules` changes (empty when none does)."""
        return next(
            (
                words
                for (rule, value), words in self.ruled.items()
                if str(getattr(rules, rule)) == value
            ),
            RuledWords(),
        )

    def score_for(self, rules: HouseRules) -> str:
        """How it scores under the game's house `rules`."""
        return self.ruled_by(rules).score or self.score

    def note_for(self, rules: HouseRules) -> str | None:
        """The note under the table of scores under `rules` (None: no note)."""
        return self.ruled_by(rules).note or self.note

    def checks_for(self, rules: HouseRules) -> tuple[str, ...]:
        """What the app checks in its deals under `rules`."""
        checks = self.ruled_by(rules).checks
        return self.checks if checks is None else checks

    def field_for(self, name: str, rules: HouseRules | None = None) -> str:
        """What the deal form calls field `name` (under `rules`, where one renames it)."""
        if rules is not None:
            ruled = self.ruled_by(rules).fields.get(name)
            if ruled is not None:
                return ruled
        return self.fields[name]

    def texts_in(self, language: str) -> tuple[TextName, ...]:
        """Its names in the texts written in `language`, the texts the app follows first."""
        return tuple(
            sorted((text for text in self.texts if text.language == language), key=_aliases_last)
        )


def _aliases_last(text: TextName) -> bool:
    return text.alias


ITEM_WORDS: dict[Item, ItemWords] = {
    Item.KING_OF_HEARTS: ItemWords("king", N_("K♥ per deal")),
    Item.QUEENS: ItemWords(
        "queen",
        N_("Queens per deal"),
        ngettext("%(num)d queen", "%(num)d queens", "num"),
    ),
    Item.DIAMONDS: ItemWords(
        "diamond",
        N_("Diamonds per deal"),
        ngettext("%(num)d diamond", "%(num)d diamonds", "num"),
        f"{SUIT_SYMBOLS['D']} {{counts}}",
    ),
    Item.TRICKS: ItemWords(
        "trick",
        N_("Tricks per deal"),
        ngettext("%(num)d trick", "%(num)d tricks", "num"),
        N_("Tricks {counts}"),
    ),
    Item.HEARTS: ItemWords(
        "heart",
        N_("Hearts per deal"),
        ngettext("%(num)d heart", "%(num)d hearts", "num"),
    ),
    Item.KINGS_AND_JACKS: ItemWords(
        "king_or_jack",
        N_("Kings and jacks per deal"),
        ngettext("%(num)d king or jack", "%(num)d kings and jacks", "num"),
    ),
    Item.LAST_TWO: ItemWords("last_trick", N_("Last two tricks per deal")),
}
"""Every item → its words (the statistics show them in this order)."""

_WHO_TOOK_THE_KING = N_("Who took the K♥")
_WHO_TOOK_EACH_QUEEN = N_("Who took each queen")
_DOUBLED_BY = N_("Doubled by")
_TRICKS = N_("Tricks")
_DIAMONDS = N_("Diamonds")
_FOR_EACH_TRICK = N_("%(score)s for each trick taken")
_TO_THE_KING_TAKER = N_("%(score)s to whoever takes the K♥")
_FOR_EACH_QUEEN = N_("%(score)s for each queen taken")

CONTRACT_WORDS: dict[str, ContractWords] = {
    # Trix and Trix Complex
    "king-of-hearts": ContractWords(
        N_("King of Hearts"),
        "شيخ الكبة",
        _TO_THE_KING_TAKER,
        {"taker": _WHO_TOOK_THE_KING, "doubled_by": _DOUBLED_BY},
        texts=(
            TextName("ar", "شيخ الكبة", "000:13"),
            TextName("ar", "لطّش", "001:15", alias=True, unlike="ltoosh"),
            TextName("ar", "شايب الكبّة", "001:17", alias=True, card=True),
        ),
    ),
    "queens": ContractWords(
        N_("Queens"),
        "بنات",
        _FOR_EACH_QUEEN,
        {"takers": _WHO_TOOK_EACH_QUEEN, "doubled_by": _DOUBLED_BY},
        texts=(TextName("ar", "بنات", "000:8"),),
    ),
    "diamonds": ContractWords(
        N_("Diamonds"),
        "ديناري",
        N_("%(score)s for each diamond taken"),
        {"counts": _DIAMONDS},
        checks=(
            N_(
                "Diamonds add up to %(diamonds)s and tricks add up to %(tricks)s; the K♥ and "
                "each queen have exactly one taker."
            ),
        ),
        texts=(
            TextName("ar", "ديناري", "000:9"),
            TextName("ar", "ديمن", "001:19", alias=True),
        ),
    ),
    "ltoosh": ContractWords(
        N_("Ltoosh"),
        "لطوش",
        _FOR_EACH_TRICK,
        {"tricks": _TRICKS},
        texts=(TextName("ar", "لطوش", "000:10"),),
    ),
    "trix": ContractWords(
        N_("Trix"),
        "تركس",
        N_("Finishing order: 1st %(first)s, 2nd %(second)s, 3rd %(third)s, 4th %(fourth)s"),
        {"order": N_("Finishing order")},
        checks=(N_("The Trix finishing order names each player exactly once."),),
        texts=(TextName("ar", "تركس", "000:11"),),
    ),
    "complex": ContractWords(
        N_("Complex"),
        "كمبلكس",
        N_(
            "All four negative contracts in one deal: %(trick)s a trick, %(diamond)s a "
            "diamond, %(queen)s a queen, %(king)s for the K♥. The Q♦ is a diamond and a "
            "queen: %(both)s."
        ),
        {
            "tricks": _TRICKS,
            "diamonds": _DIAMONDS,
            "queens": _WHO_TOOK_EACH_QUEEN,
            "king_of_hearts": _WHO_TOOK_THE_KING,
            "doubled_by": _DOUBLED_BY,
        },
        note=N_(
            "Complex costs %(trick)s for every trick, with or without a card in it: the "
            "Complex text charges only tricks holding a diamond, a queen or the K♥ in one "
            "place, and every trick in its score list; the score list is used, so each "
            "kingdom adds up to zero."
        ),
        checks=(
            N_(
                "Complex: tricks add up to %(tricks)s and diamonds to %(diamonds)s; the K♥ and "
                "each queen have exactly one taker."
            ),
            N_(
                "A player who took no tricks took no cards, and the cards a player took fit in "
                "their tricks (at most 4 a trick)."
            ),
            N_("Whoever took the Q♦ took at least one diamond."),
        ),
        ruled={
            ("complex_tricks", "penalty"): RuledWords(
                score=N_(
                    "All four negative contracts in one deal: %(trick)s a trick that held a "
                    "penalty card (a diamond, a queen or the K♥), %(diamond)s a diamond, "
                    "%(queen)s a queen, %(king)s for the K♥. The Q♦ is a diamond and a queen: "
                    "%(both)s."
                ),
                note=N_(
                    "Complex costs %(trick)s only for a trick that held a penalty card (a house "
                    "rule): the Complex text charges such tricks in one place and every trick "
                    "in its score list. The table enters, per player, the tricks that held "
                    "one; a kingdom no longer adds up to zero."
                ),
                checks=(
                    N_(
                        "Complex: each player's tricks that held a penalty card are 0 to "
                        "%(tricks)s, at most %(tricks)s in all; diamonds add up to "
                        "%(diamonds)s; the K♥ and each queen have exactly one taker."
                    ),
                    N_(
                        "A player with no such trick took no penalty card; the cards a player "
                        "took fit in those tricks (at most 4 a trick), and each of those "
                        "tricks held at least one of them."
                    ),
                ),
                fields={"tricks": N_("Tricks that held a penalty card")},
            ),
        },
        texts=(TextName("ar", "كمبلكس", "002:3"),),
    ),
    # Turkish King
    "trump": ContractWords(
        N_("Trump"),
        "Koz",
        N_(
            "%(score)s for each trick taken. The declarer names the trump suit (♠ ♥ ♦ ♣; "
            "no-trump is not allowed)."
        ),
        {"suit": N_("Trump suit"), "tricks": _TRICKS},
        texts=(
            TextName("ru", "козырный контракт", "003:7"),
            TextName("hi", "ट्रम्प अनुबंध", "004:7"),
        ),
    ),
    "no-king": ContractWords(
        N_("No King of Hearts"),
        "Rıfkı",
        _TO_THE_KING_TAKER,
        {"taker": _WHO_TOOK_THE_KING},
        texts=(
            TextName("ru", "Без короля", "003:15"),
            TextName("hi", "नो किंग", "004:15"),
        ),
    ),
    "no-queens": ContractWords(
        N_("No Queens"),
        "Kız almaz",
        _FOR_EACH_QUEEN,
        {"counts": N_("Queens")},
        texts=(
            TextName("ru", "Без королев", "003:17"),
            TextName("hi", "कोई क्वींस नहीं", "004:17"),
        ),
    ),
    "no-boys": ContractWords(
        N_("No Boys"),
        "Erkek almaz",
        N_("%(score)s for each king or jack taken"),
        {"counts": N_("Kings and jacks")},
        texts=(
            TextName("ru", "No Boys", "003:19"),
            TextName("hi", "नो बॉयज़", "004:19"),
        ),
    ),
    "no-hearts": ContractWords(
        N_("No Hearts"),
        "Kupa almaz",
        N_("%(score)s for each heart taken"),
        {"counts": N_("Hearts")},
        texts=(
            TextName("ru", "Без червей", "003:21"),
            TextName("hi", "कोई दिल नहीं", "004:21"),
        ),
    ),
    "no-last-two": ContractWords(
        N_("No Last Two"),
        "Son iki",
        N_("%(score)s for each of the last two tricks (the 12th and the 13th)"),
        {"last_two": N_("Last two tricks")},
        texts=(
            TextName("ru", "Без последних двух", "003:25"),
            TextName("hi", "नो लास्ट टू", "004:25"),
        ),
    ),
    "no-tricks": ContractWords(
        N_("No Tricks"),
        "El almaz",
        _FOR_EACH_TRICK,
        {"tricks": _TRICKS},
        texts=(
            TextName("ru", "Без взяток", "003:27"),
            TextName("hi", "कोई ट्रिक नहीं", "004:27"),
        ),
    ),
}
"""Every contract id → its words."""

_PLACES = ("first", "second", "third", "fourth")


def item_count(item: Item) -> Counted:
    """That many of `item`, as a phrase: its record's `count`, which every item a count field
    counts has (the registry test holds it)."""
    count = ITEM_WORDS[item].count
    if count is None:
        raise KeyError(f"{item}: no count phrase in ITEM_WORDS")
    return count


def score_numbers(contract: str, rules: HouseRules) -> dict[str, int]:
    """Every number a sentence about a contract's scoring may show, by its name in the sentence,
    all scored by the engine under `rules`: `score` (one of its first item), each item's score
    by the item's `parameter`, `both` (the Q♦, a diamond and a queen, where it counts both),
    and the places (`first` … `fourth`)."""
    definition = CONTRACTS[contract]
    items = definition.item_scores(rules)
    numbers = {ITEM_WORDS[item].parameter: score for item, score in items.items()}
    numbers["score"] = next(iter(items.values()), 0)
    if Item.QUEENS in items and Item.DIAMONDS in items:
        numbers["both"] = items[Item.QUEENS] + items[Item.DIAMONDS]
    numbers.update(zip(_PLACES, definition.places(rules), strict=False))
    return numbers
