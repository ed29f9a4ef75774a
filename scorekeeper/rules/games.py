"""The three games: how many deals, who chooses, which contracts remain, and the game record."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import SEATS
from .contracts import CONTRACTS, ContractKind
from .deal import Deal
from .errors import Problem
from .house_rules import BAD_CHOICE, HOUSE_RULE_CHOICES, HOUSE_RULE_KEYS, HouseRules
from .text import name_problem, player_key

TRIX = "trix"
TRIX_COMPLEX = "trix-complex"
TURKISH_KING = "turkish-king"
SOLO = "solo"
PARTNERSHIP = "partnership"

TRUMPS_PER_PLAYER = 2
NEGATIVES_PER_PLAYER = 3
PLAYS_PER_NEGATIVE = 2
"""Turkish King: each player declares 2 trump and 3 negative contracts; each negative contract
is played at most twice."""


@dataclass(frozen=True)
class GameDef:
    """A game's shape: its contracts, length and the rules that say who chooses what."""

    id: str
    contracts: tuple[str, ...]
    modes: tuple[str, ...]
    house_rules: tuple[str, ...]
    """House-rule keys this game uses; the others must stay at their defaults."""
    kingdoms: int = 0
    """Trix games: 4 kingdoms, each playing every contract once; 0 for Turkish King."""

    @property
    def per_kingdom(self) -> int:
        """Deals in one kingdom (Trix games)."""
        return len(self.contracts)

    @property
    def deals_total(self) -> int:
        """The game's length: each kingdom plays every contract once (Trix games), or each
        player declares their trumps and negatives (Turkish King)."""
        if self.kingdoms:
            return self.kingdoms * self.per_kingdom
        return len(SEATS) * (TRUMPS_PER_PLAYER + NEGATIVES_PER_PLAYER)

    @property
    def first_is_dealt_seven_of_hearts(self) -> bool:
        """Whether the seat the game starts from is whoever is dealt the 7♥ on the first deal, the
        king of the first kingdom (Trix games); else the table picks the first declarer (Turkish
        King). The app asks for that seat once, as docs/rules.md says."""
        return self.kingdoms > 0

    def kingdom(self, index: int) -> int | None:
        """Kingdom (0-based) of the deal at 0-based `index`; None in Turkish King."""
        return index // self.per_kingdom if self.kingdoms else None

    def chooser(self, first: int, index: int) -> int:
        """The king (Trix games) or declarer (Turkish King) of the deal at `index`."""
        kingdom = self.kingdom(index)
        return (first + index) % 4 if kingdom is None else self.king(first, kingdom)

    def king(self, first: int, kingdom: int) -> int:
        """Trix games: the king of `kingdom` (0-based); the kingdom passes to the right."""
        return (first + kingdom) % 4

    def dealer(self, first: int, index: int) -> int | None:
        """Who deals: the king in Trix (unknown for the very first deal); the declarer's left
        hand in Turkish King."""
        chooser = self.chooser(first, index)
        if self.kingdoms:
            return None if index == 0 else chooser
        return (chooser + 3) % 4


GAMES: dict[str, GameDef] = {
    TRIX: GameDef(
        TRIX,
        ("king-of-hearts", "queens", "diamonds", "ltoosh", "trix"),
        (SOLO, PARTNERSHIP),
        ("doubling", "doubled_self_take", "swap_diamonds_ltoosh"),
        kingdoms=4,
    ),
    TRIX_COMPLEX: GameDef(
        TRIX_COMPLEX,
        ("trix", "complex"),
        (SOLO, PARTNERSHIP),
        ("doubling", "doubled_self_take", "doubled_queen_of_diamonds", "complex_tricks"),
        kingdoms=4,
    ),
    TURKISH_KING: GameDef(
        TURKISH_KING,
        ("trump", "no-king", "no-queens", "no-boys", "no-hearts", "no-last-two", "no-tricks"),
        (SOLO,),
        ("winners",),
    ),
}

TURKISH_NEGATIVES = tuple(
    c for c in GAMES[TURKISH_KING].contracts if CONTRACTS[c].kind == ContractKind.NEGATIVE
)


@dataclass(frozen=True)
class Game:
    """A game record's rules-relevant part: the setup and the deals entered so far."""

    kind: str
    """Which game it is: a key of GAMES ("trix", "trix-complex", "turkish-king"), the
    record's `game`."""
    mode: str
    players: tuple[str, ...]
    first: int
    house_rules: HouseRules = field(default_factory=HouseRules)
    deals: tuple[Deal, ...] = ()

    @property
    def definition(self) -> GameDef:
        """The game's :class:`GameDef`."""
        return GAMES[self.kind]


def house_rules_for(game: str, rules: HouseRules) -> HouseRules:
    """`rules` with every switch the game does not use put back to its default."""
    definition = GAMES.get(game)
    defaults = HouseRules()
    if definition is None:
        return rules
    return HouseRules(
        **{
            key: getattr(rules if key in definition.house_rules else defaults, key)
            for key in HOUSE_RULE_KEYS
        }
    )


def check_players(players: Sequence[object]) -> list[Problem]:
    """Four names, each visible, free of controls, at most PLAYER_NAME_LENGTH characters long
    (:func:`~scorekeeper.rules.text.name_problem`), all different: one person (by
    :func:`~scorekeeper.rules.text.player_key`: case, spaces around and Unicode forms aside)
    sits once."""
    if len(players) != 4:
        return [Problem("players", "wrong_length", {"expected": 4})]
    problems: list[Problem] = []
    seen: set[str] = set()
    for seat, name in enumerate(players):
        path = f"players[{seat}]"
        if not isinstance(name, str):
            problems.append(Problem(path, "not_text"))
        elif (problem := name_problem(path, name)) is not None:
            problems.append(problem)
        elif player_key(name) in seen:
            problems.append(Problem(path, "same_name"))
        else:
            seen.add(player_key(name))
    return problems


def check_setup(game: str, mode: str, house_rules: HouseRules) -> list[Problem]:
    """The game id, the mode it allows, and house rules that apply to it with allowed values."""
    if game not in GAMES:
        return [Problem("game", "unknown_game")]
    definition = GAMES[game]
    problems: list[Problem] = []
    if mode not in (SOLO, PARTNERSHIP):
        problems.append(Problem("mode", "unknown_mode"))
    elif mode not in definition.modes:
        problems.append(Problem("mode", "solo_only"))
    defaults = HouseRules()
    for key in HOUSE_RULE_KEYS:
        value = getattr(house_rules, key)
        if key in HOUSE_RULE_CHOICES and value not in HOUSE_RULE_CHOICES[key]:
            problems.append(Problem(f"house_rules.{key}", BAD_CHOICE[key]))
        elif key not in definition.house_rules and value != getattr(defaults, key):
            problems.append(Problem(f"house_rules.{key}", "rule_not_for_game"))
    return problems
