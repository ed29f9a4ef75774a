"""Replaying a game: check each deal in context, score it, and say what comes next."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import assert_never

from .cards import team_of, team_totals
from .contracts import CONTRACTS, ContractKind
from .deal import Deal, Value, parse_field
from .errors import Problem, RuleError
from .games import (
    NEGATIVES_PER_PLAYER,
    PARTNERSHIP,
    PLAYS_PER_NEGATIVE,
    TRUMPS_PER_PLAYER,
    TURKISH_NEGATIVES,
    Game,
    GameDef,
)
from .house_rules import HouseRules, Winners
from .messages import ClosedReason


@dataclass(frozen=True)
class Option:
    """A contract on the chooser's menu: open, or closed with the reason (a REASONS id)."""

    contract: str
    open: bool
    reason: ClosedReason | None = None
    deal: int | None = None
    """For a past deal's edit: the later deal (its number) this contract would make illegal."""


@dataclass(frozen=True)
class Quota:
    """A Turkish King player's declarations so far."""

    trumps: int = 0
    negatives: int = 0

    @property
    def forced(self) -> ContractKind | None:
        """NEGATIVE or TRUMP when the player may declare only that kind, else None."""
        if self.trumps >= TRUMPS_PER_PLAYER and self.negatives < NEGATIVES_PER_PLAYER:
            return ContractKind.NEGATIVE
        if self.negatives >= NEGATIVES_PER_PLAYER and self.trumps < TRUMPS_PER_PLAYER:
            return ContractKind.TRUMP
        return None


@dataclass(frozen=True)
class NextStep:
    """What the table does next: the deal number, its chooser, dealer, leader and choices."""

    number: int
    kingdom: int | None
    chooser: int
    dealer: int | None
    leader: int
    options: tuple[Option, ...]

    @property
    def contracts(self) -> list[str]:
        """The open contracts, sorted (as `scorekeeper check` prints them)."""
        return sorted(option.contract for option in self.options if option.open)

    def is_open(self, contract: str) -> bool:
        """Whether the chooser may pick `contract` now."""
        return any(o.contract == contract and o.open for o in self.options)


@dataclass(frozen=True)
class DealResult:
    """A replayed deal: where it stood in the game and what it scored."""

    number: int
    deal: Deal
    chooser: int
    kingdom: int | None
    dealer: int | None
    leader: int
    scores: tuple[int, ...]
    running: tuple[int, ...]
    """Totals per seat after this deal."""

    @property
    def contract(self) -> str:
        """The deal's contract id."""
        return self.deal.contract

    @property
    def team_scores(self) -> tuple[int, int]:
        """The deal's scores per partnership team (A = seats 0+2, B = 1+3)."""
        return team_totals(self.scores)

    @property
    def team_running(self) -> tuple[int, int]:
        """Team totals after this deal."""
        return team_totals(self.running)


@dataclass(frozen=True)
class Replay:
    """A whole game replayed: every deal scored, the totals, and what comes next."""

    game: Game
    deals: tuple[DealResult, ...]
    totals: tuple[int, ...]
    team_totals: tuple[int, int] | None
    finished: bool
    next: NextStep | None
    winners: tuple[int, ...] | None
    quotas: tuple[Quota, ...] | None
    """Turkish King: each player's declarations so far; None in Trix games."""
    negative_plays: Mapping[str, int] | None
    """Turkish King: how often each negative contract was played; None in Trix games."""

    @property
    def winning_teams(self) -> tuple[int, ...] | None:
        """Partnership, once finished: the teams of the winning seats (both on a tie)."""
        if self.winners is None or self.team_totals is None:
            return None
        return tuple(sorted({team_of(seat) for seat in self.winners}))


@dataclass
class _Tally:
    """Mutable progress while replaying: what has been played, by whom."""

    definition: GameDef
    first: int
    played_in_kingdom: dict[int, set[str]] = field(default_factory=dict)
    trumps: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    negatives: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    negative_plays: dict[str, int] = field(
        default_factory=lambda: dict.fromkeys(TURKISH_NEGATIVES, 0)
    )

    def step(self, index: int) -> NextStep:
        definition = self.definition
        chooser = definition.chooser(self.first, index)
        kingdom = definition.kingdom(index)
        options = tuple(
            self._option(contract, chooser, kingdom) for contract in definition.contracts
        )
        return NextStep(
            index + 1, kingdom, chooser, definition.dealer(self.first, index), chooser, options
        )

    def _option(self, contract: str, chooser: int, kingdom: int | None) -> Option:
        if kingdom is not None:
            if contract in self.played_in_kingdom.get(kingdom, ()):
                return Option(contract, False, ClosedReason.CONTRACT_PLAYED)
            return Option(contract, True)
        kind = CONTRACTS[contract].kind
        match kind:
            case ContractKind.TRUMP:
                if self.trumps[chooser] >= TRUMPS_PER_PLAYER:
                    return Option(contract, False, ClosedReason.TRUMP_QUOTA)
                return Option(contract, True)
            case ContractKind.NEGATIVE:
                if self.negatives[chooser] >= NEGATIVES_PER_PLAYER:
                    return Option(contract, False, ClosedReason.NEGATIVE_QUOTA)
                if self.negative_plays[contract] >= PLAYS_PER_NEGATIVE:
                    return Option(contract, False, ClosedReason.NEGATIVE_TWICE)
                return Option(contract, True)
            case ContractKind.POSITIVE:
                raise _no_quota(contract)
            case _:
                assert_never(kind)

    def record(self, step: NextStep, deal: Deal) -> None:
        if step.kingdom is not None:
            self.played_in_kingdom.setdefault(step.kingdom, set()).add(deal.contract)
            return
        kind = CONTRACTS[deal.contract].kind
        match kind:
            case ContractKind.TRUMP:
                self.trumps[step.chooser] += 1
            case ContractKind.NEGATIVE:
                self.negatives[step.chooser] += 1
                self.negative_plays[deal.contract] += 1
            case ContractKind.POSITIVE:
                raise _no_quota(deal.contract)
            case _:
                assert_never(kind)


def _no_quota(contract: str) -> ValueError:
    """Turkish King's quotas count trumps and negatives; a positive contract has no place."""
    return ValueError(f"{contract}: a positive contract in a game without kingdoms")


def parse_deal(
    definition: GameDef, raw: Mapping[str, object], rules: HouseRules | None = None
) -> tuple[Deal | None, list[Problem]]:
    """Type and range-check a raw deal (from JSON or a form) for this game, its fields as the
    game's house `rules` shape them (the defaults' when None); no context yet."""
    contract_id = raw.get("contract")
    if not isinstance(contract_id, str) or contract_id not in definition.contracts:
        return None, [Problem("contract", "unknown_contract")]
    contract = CONTRACTS[contract_id]
    specs = contract.specs(rules if rules is not None else HouseRules())
    names = {spec.name for spec in specs}
    problems = [
        Problem(key, "unknown_key") for key in raw if key != "contract" and key not in names
    ]
    values: dict[str, Value] = {}
    for spec in specs:
        if spec.name not in raw and spec.required:
            problems.append(Problem(spec.name, "missing"))
            continue
        value, field_problems = parse_field(spec, raw.get(spec.name))
        problems.extend(field_problems)
        if not field_problems and value is not None:
            values[spec.name] = value
    if problems:
        return None, problems
    return Deal(contract_id, values), []


def _context_problems(game: Game, step: NextStep | None, deal: Deal) -> list[Problem]:
    if step is None:
        return [Problem("contract", "game_finished")]
    for option in step.options:
        if option.contract == deal.contract and not option.open:
            assert option.reason is not None
            return [Problem("contract", option.reason)]
    return []


def deal_problems(game: Game, step: NextStep | None, deal: Deal) -> list[Problem]:
    """Every reason a parsed deal is illegal as the next deal after `step` (empty if legal)."""
    return _context_problems(game, step, deal) + CONTRACTS[deal.contract].check(
        deal, game.house_rules
    )


def replay(game: Game) -> Replay:
    """Check and score every deal in order; raise RuleError naming the first illegal deal."""
    definition = game.definition
    tally = _Tally(definition, game.first)
    running: tuple[int, ...] = (0, 0, 0, 0)
    results: list[DealResult] = []
    for index, deal in enumerate(game.deals):
        step = tally.step(index) if index < definition.deals_total else None
        problems = deal_problems(game, step, deal)
        if problems:
            raise RuleError(problems, deal_number=index + 1, contract=deal.contract)
        assert step is not None
        scores = CONTRACTS[deal.contract].score(deal, game.house_rules)
        running = tuple(a + b for a, b in zip(running, scores, strict=True))
        results.append(
            DealResult(
                index + 1,
                deal,
                step.chooser,
                step.kingdom,
                step.dealer,
                step.leader,
                scores,
                running,
            )
        )
        tally.record(step, deal)
    finished = len(results) == definition.deals_total
    teams = team_totals(running) if game.mode == PARTNERSHIP else None
    winners = _winners(running, teams, game.house_rules.winners) if finished else None
    turkish = not definition.kingdoms
    return Replay(
        game=game,
        deals=tuple(results),
        totals=running,
        team_totals=teams,
        finished=finished,
        next=None if finished else tally.step(len(results)),
        winners=winners,
        quotas=tuple(Quota(t, n) for t, n in zip(tally.trumps, tally.negatives, strict=True))
        if turkish
        else None,
        negative_plays=dict(tally.negative_plays) if turkish else None,
    )


def _winners(
    totals: tuple[int, ...], teams: tuple[int, int] | None, rule: Winners
) -> tuple[int, ...]:
    """The winning seats, sorted (both partners of a winning team): docs/rules.md, Every game."""
    # a seat's score for winning: its own total in solo, its team's in partnership
    standing = totals if teams is None else tuple(teams[seat % 2] for seat in range(4))
    match rule:
        case Winners.HIGHEST:
            best = max(standing)
            return tuple(seat for seat in range(4) if standing[seat] == best)
        case Winners.POSITIVE:  # possibly nobody
            return tuple(seat for seat in range(4) if standing[seat] > 0)
        case _:
            assert_never(rule)


@dataclass(frozen=True)
class Evaluation:
    """A candidate deal judged in context: the parsed deal, its problems, and its scores."""

    deal: Deal | None
    problems: list[Problem]
    scores: tuple[int, ...] | None = None
    later: RuleError | None = None
    """For an edit: the first later deal the change would make illegal."""
    after: Replay | None = None
    """The game with this deal entered, replayed (when the deal may be saved)."""

    @property
    def ok(self) -> bool:
        """True when the deal may be saved."""
        return not self.problems and self.later is None


def evaluate(
    current: Replay,
    raw: Mapping[str, object],
    index: int | None = None,
    *,
    replay_after: bool = True,
) -> Evaluation:
    """Judge a raw deal as the next deal (index None) or as a replacement for deal `index` of
    the game `current` is the replay of (the caller's: it is not replayed again).

    The deal is parsed once; the game with it is replayed once (`after`, what a save writes):
    a new deal is judged against `current.next`, an edit by that replay itself. A preview of a
    new deal, which writes nothing, may skip that replay (`replay_after=False`)."""
    game = current.game
    deal, problems = parse_deal(game.definition, raw, game.house_rules)
    if deal is None:
        return Evaluation(None, _with_closed(current, raw, index, problems))
    if index is None:
        problems = deal_problems(game, current.next, deal)
        if problems:
            return Evaluation(deal, problems)
    scores = CONTRACTS[deal.contract].score(deal, game.house_rules)
    if index is None and not replay_after:
        return Evaluation(deal, [], scores)
    try:
        after = replay(with_deal(game, deal, index))
    except RuleError as error:
        if index is not None and error.deal_number == index + 1:  # the edit itself
            return Evaluation(deal, error.problems)
        return Evaluation(deal, [], scores, later=error)  # an edit making a later deal illegal
    return Evaluation(deal, [], scores, after=after)


def edit_options(game: Game, index: int) -> tuple[Option, ...]:
    """The contracts deal `index` of `game` may be changed to (a past deal's edit form), each
    open or closed with the reason: closed at its own place (played before it in its kingdom, a
    quota), or at the first later deal it would make illegal (`Option.deal`)."""
    return tuple(_edit_option(game, index, c) for c in game.definition.contracts)


def _edit_option(game: Game, index: int, contract: str) -> Option:
    # a deal's place (kingdom, quotas) depends on the contracts before it alone
    tally = _Tally(game.definition, game.first)
    for number, deal in enumerate(game.deals):
        step = tally.step(number)
        played = Deal(contract) if number == index else deal
        option = tally._option(played.contract, step.chooser, step.kingdom)
        if not option.open:
            return replace(option, contract=contract, deal=None if number == index else number + 1)
        tally.record(step, played)
    return Option(contract, True)


def _with_closed(
    current: Replay, raw: Mapping[str, object], index: int | None, problems: list[Problem]
) -> list[Problem]:
    """A deal that does not parse: its problems, after what its place in the game says (the
    game is over; its contract is closed there)."""
    if index is None:
        before, step = current.game, current.next
    else:  # the menu in force at that point (an edit, rarely refused this way)
        before = replace(current.game, deals=current.game.deals[:index])
        step = replay(before).next
    if step is None:
        # nothing can be entered after the last deal, however the entry is filled in
        return [Problem("contract", "game_finished"), *problems]
    if isinstance(raw.get("contract"), str):
        closed = _context_problems(before, step, Deal(str(raw["contract"])))
        if closed and not any(p.code == "unknown_contract" for p in problems):
            return closed + problems
    return problems


def with_deal(game: Game, deal: Deal, index: int | None = None) -> Game:
    """The game with `deal` appended (index None) or replacing deal `index`."""
    if index is None:
        return replace(game, deals=(*game.deals, deal))
    return replace(game, deals=(*game.deals[:index], deal, *game.deals[index + 1 :]))


def without_deal(game: Game, index: int) -> Game:
    """The game with deal `index` removed."""
    return replace(game, deals=game.deals[:index] + game.deals[index + 1 :])
