"""Load and dump the game record (docs/record-format.md, format ``scorekeeper-game/1``)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from .contracts import CONTRACTS
from .deal import Deal, dump_value, is_int
from .errors import NotARecordError, Problem, RuleError
from .games import GAMES, Game, check_players, check_setup
from .house_rules import (
    BAD_CHOICE,
    HOUSE_RULE_CHOICES,
    HOUSE_RULE_KEYS,
    ComplexTricks,
    HouseRules,
    QueenOfDiamonds,
    Winners,
)
from .replay import Replay, parse_deal, replay
from .strict_json import parse_json
from .text import TEXT_LIMITS, lone_surrogate_at, table_text

FORMAT = "scorekeeper-game/1"
SETUP_KEYS = ("format", "game", "mode", "players", "first", "house_rules", "deals")
TEXT_KEYS = ("name", "notes", "created_at", "updated_at", "night_started_at")
DERIVED_KEYS = ("totals", "team_totals", "finished", "next", "winners")
DEAL_DERIVED_KEYS = ("number", "chooser", "kingdom", "scores")


@dataclass(frozen=True)
class Record:
    """A game record: the game itself plus the table's own text."""

    game: Game
    name: str | None = None
    notes: str | None = None
    created_at: str | None = None
    updated_at: str | None = None
    night_started_at: str | None = None
    """When the table started a new night after this game ("Start a new night"): its next game
    begins one. A table's own fact, kept by a table's export and read by a table's import."""


def _fail(problem: Problem, deal_number: int | None = None, contract: str | None = None) -> None:
    raise RuleError([problem], deal_number=deal_number, contract=contract)


def _check_keys(
    obj: Mapping[str, Any],
    allowed: tuple[str, ...],
    prefix: str = "",
    deal_number: int | None = None,
    contract: str | None = None,
) -> None:
    for key in getattr(obj, "duplicates", ()):
        _fail(Problem(prefix + key, "duplicate_key"), deal_number, contract)
    for key in obj:
        if key not in allowed:
            _fail(Problem(prefix + key, "unknown_key"), deal_number, contract)


def load_record(text: str | bytes) -> Record:
    """Parse, check and replay a record; NotARecordError or RuleError (first violation) if bad."""
    return record_from_json(parse_json(text))


class RecordsRefused(ValueError):
    """Input that is not a set of valid records; nothing of it is taken.

    `error` is the engine's reason, `record` the bad record's 1-based position in an array (None
    for a lone record or for input that is not JSON), `count` how many records the input holds
    and `players` the bad record's names when they could be read.
    """

    def __init__(
        self,
        error: RuleError | NotARecordError,
        *,
        record: int | None = None,
        count: int = 1,
        players: Sequence[str] | None = None,
    ) -> None:
        self.error = error
        self.record = record
        self.count = count
        self.players = tuple(players) if players else None
        super().__init__(self.headline())

    @property
    def is_rule(self) -> bool:
        """True when a record breaks a rule (exit 1), False when the input is not records (2)."""
        return isinstance(self.error, RuleError)

    def headline(self) -> str:
        """One English line, as the commands print it: "record 2: deal 3 (diamonds): ..."."""
        reason = self.error.headline() if isinstance(self.error, RuleError) else str(self.error)
        return reason if self.record is None else f"record {self.record}: {reason}"


def _players_of(data: Any) -> list[str] | None:
    players = data.get("players") if isinstance(data, dict) else None
    if (
        isinstance(players, list)
        and len(players) == 4
        and all(isinstance(name, str) for name in players)
    ):
        return players
    return None


def load_records(
    text: str | bytes,
    *,
    empty: bool = True,
    before_replay: Callable[[list[Any]], None] | None = None,
) -> list[Record]:
    """The one loader of several records: a JSON array of records or one record, each checked
    and replayed as `scorekeeper check` does; RecordsRefused naming the first bad one.

    `empty`: whether an empty array is a set of none (statistics) or refused (an import);
    `before_replay` sees the parsed items first and may refuse them (an import's size caps)."""
    try:
        parsed = parse_json(text)
    except NotARecordError as error:
        raise RecordsRefused(error) from None
    several = isinstance(parsed, list)
    items = parsed if several else [parsed]
    if several and not items and not empty:
        raise RecordsRefused(NotARecordError("not a game record: the array is empty"), count=0)
    if before_replay is not None:
        before_replay(items)
    records = []
    for position, item in enumerate(items, start=1):
        try:
            records.append(record_from_json(item))
        except (RuleError, NotARecordError) as error:
            raise RecordsRefused(
                error,
                record=position if several else None,
                count=len(items),
                players=_players_of(item),
            ) from None
    return records


def record_from_json(data: Any) -> Record:
    """Check a parsed JSON value as a record; see :func:`load_record`."""
    if not isinstance(data, dict):
        raise NotARecordError("not a game record: the JSON value is not an object")
    if data.get("format") != FORMAT:
        raise NotARecordError(f"not a game record: format must be {FORMAT!r}")
    unencodable = lone_surrogate_at(data)
    if unencodable is not None:  # refused before any message could repeat it
        kind = "control_in_name" if unencodable.startswith("players[") else "lone_surrogate"
        raise RuleError([Problem(unencodable, kind)])
    record, raw_deals = _load_setup(data)
    game = record.game
    deals: list[Deal] = []
    for number, raw in enumerate(raw_deals, start=1):
        deal, problem = _parse_raw_deal(game, raw)
        if deal is None:
            assert problem is not None
            # an earlier deal that is illegal in context is the first violation, not this one
            _replay_prefix(game, deals, raw_deals)
            contract = raw.get("contract") if isinstance(raw, dict) else None
            label = contract if isinstance(contract, str) else None
            raise RuleError([problem], deal_number=number, contract=label)
        deals.append(deal)
    game = replace(game, deals=tuple(deals))
    result = _replay_prefix(game, deals, raw_deals)
    _check_derived(data, check_output(result), DERIVED_KEYS, None)
    return replace(record, game=game)


def _parse_raw_deal(game: Game, raw: Any) -> tuple[Deal | None, Problem | None]:
    """One entry of `deals` as a typed deal, or the first problem with its shape and values."""
    if not isinstance(raw, dict):
        return None, Problem("deal", "not_object")
    duplicate = _first_duplicate(raw)
    if duplicate is not None:
        return None, Problem(duplicate, "duplicate_key")
    definition = game.definition
    contract = raw.get("contract")
    if contract is None:
        return None, Problem("contract", "missing")
    if not isinstance(contract, str) or contract not in definition.contracts:
        # judged before the other keys: they are only unknown because the contract is
        return None, Problem("contract", "unknown_contract")
    allowed = ("contract", *(spec.name for spec in CONTRACTS[contract].fields), *DEAL_DERIVED_KEYS)
    for key in raw:
        if key not in allowed:
            return None, Problem(key, "unknown_key")
    entered = {k: v for k, v in raw.items() if k not in DEAL_DERIVED_KEYS}
    deal, problems = parse_deal(definition, entered, game.house_rules)
    return deal, (problems[0] if deal is None else None)


def _first_duplicate(value: Any, path: str = "") -> str | None:
    """The path of the first key that appears twice in one object, at any depth."""
    if isinstance(value, dict):
        for key in getattr(value, "duplicates", ()):
            return f"{path}.{key}" if path else str(key)
        for key, item in value.items():
            found = _first_duplicate(item, f"{path}.{key}" if path else str(key))
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _first_duplicate(item, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def _replay_prefix(game: Game, deals: list[Deal], raw_deals: list[Any]) -> Replay:
    """Replay the deals parsed so far, checking any derived keys they carry, in deal order."""
    prefix = replace(game, deals=tuple(deals))
    try:
        result = replay(prefix)
    except RuleError as error:
        assert error.deal_number is not None
        legal = replay(replace(game, deals=tuple(deals[: error.deal_number - 1])))
        _check_deal_derived(legal, raw_deals)
        raise
    _check_deal_derived(result, raw_deals)
    return result


def _check_deal_derived(result: Replay, raw_deals: list[Any]) -> None:
    for entry, raw in zip(deal_entries(result), raw_deals, strict=False):
        _check_derived(raw, entry, DEAL_DERIVED_KEYS, entry["number"], entry["contract"])


def _check_derived(
    raw: Mapping[str, Any],
    computed: Mapping[str, Any],
    keys: tuple[str, ...],
    deal_number: int | None,
    contract: str | None = None,
) -> None:
    for key in keys:
        if key in raw and not strict_equal(raw[key], computed[key]):
            _fail(Problem(key, "derived_mismatch"), deal_number, contract)


def strict_equal(a: Any, b: Any) -> bool:
    """JSON equality that tells true from 1 and 1.0 from 1."""
    # parsed objects are a dict subclass (they remember duplicate keys): compare as dicts
    if isinstance(a, dict) or isinstance(b, dict):
        return (
            isinstance(a, dict)
            and isinstance(b, dict)
            and a.keys() == b.keys()
            and all(strict_equal(a[k], b[k]) for k in a)
        )
    if isinstance(a, list | tuple) or isinstance(b, list | tuple):
        return (
            isinstance(a, list | tuple)
            and isinstance(b, list | tuple)
            and len(a) == len(b)
            and all(strict_equal(x, y) for x, y in zip(a, b, strict=True))
        )
    return type(a) is type(b) and bool(a == b)


def _load_setup(data: dict[str, Any]) -> tuple[Record, list[Any]]:
    _check_keys(data, (*SETUP_KEYS, *TEXT_KEYS, *DERIVED_KEYS))
    # keys twice inside nested objects (house_rules, next); each deal is checked in its turn
    duplicate = _first_duplicate({k: v for k, v in data.items() if k != "deals"})
    if duplicate is not None:
        _fail(Problem(duplicate, "duplicate_key"))
    for key in ("game", "mode", "players", "first", "deals"):
        if key not in data or data[key] is None:
            _fail(Problem(key, "missing"))
    game_id, mode = data["game"], data["mode"]
    if not isinstance(game_id, str) or game_id not in GAMES:
        _fail(Problem("game", "unknown_game"))
    if not isinstance(mode, str):
        _fail(Problem("mode", "unknown_mode"))
    players = data["players"]
    if not isinstance(players, list):
        _fail(Problem("players", "not_list"))
    for problem in check_players(players):
        _fail(problem)
    first = data["first"]
    if not is_int(first) or first not in range(4):
        _fail(Problem("first", "not_seat"))
    house_rules = _load_house_rules(data.get("house_rules"))
    for problem in check_setup(game_id, mode, house_rules):
        _fail(problem)
    texts: dict[str, str | None] = {}
    for key in TEXT_KEYS:
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            _fail(Problem(key, "not_text"))
        if key in TEXT_LIMITS:  # cleaned and limited as the forms do
            value, too_long = table_text(key, value)
            if too_long is not None:
                _fail(too_long)
        elif value is not None and parse_timestamp(value) is None:
            _fail(Problem(key, "bad_timestamp"))
        texts[key] = value
    if not isinstance(data["deals"], list):
        _fail(Problem("deals", "not_list"))
    game = Game(game_id, mode, tuple(players), first, house_rules)
    return Record(game, **texts), data["deals"]


def parse_timestamp(value: str) -> datetime | None:
    """A record's ISO 8601 stamp in UTC, or None when it is not one or leaves the years 1–9999
    once converted to UTC. A stamp without an offset is taken as UTC (early exports from SQLite
    wrote them so)."""
    try:
        stamp = datetime.fromisoformat(value)
        return stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)
    except (ValueError, OverflowError):
        return None


def _load_house_rules(raw: Any) -> HouseRules:
    if raw is None:
        return HouseRules()
    if not isinstance(raw, dict):
        _fail(Problem("house_rules", "not_object"))
    _check_keys(raw, HOUSE_RULE_KEYS, prefix="house_rules.")
    defaults = HouseRules()
    doubling = raw.get("doubling")
    swap = raw.get("swap_diamonds_ltoosh")
    for key, value in (("doubling", doubling), ("swap_diamonds_ltoosh", swap)):
        if value is not None and not isinstance(value, bool):
            _fail(Problem(f"house_rules.{key}", "not_bool"))
    for key, choices in HOUSE_RULE_CHOICES.items():
        value = raw.get(key)
        if value is not None and value not in choices:
            _fail(Problem(f"house_rules.{key}", BAD_CHOICE[key]))
    self_take = raw.get("doubled_self_take")
    queen = raw.get("doubled_queen_of_diamonds")
    complex_tricks = raw.get("complex_tricks")
    winners = raw.get("winners")
    return HouseRules(
        doubling=defaults.doubling if doubling is None else doubling,
        doubled_self_take=defaults.doubled_self_take if self_take is None else self_take,
        swap_diamonds_ltoosh=defaults.swap_diamonds_ltoosh if swap is None else swap,
        doubled_queen_of_diamonds=(
            defaults.doubled_queen_of_diamonds if queen is None else QueenOfDiamonds(queen)
        ),
        complex_tricks=(
            defaults.complex_tricks if complex_tricks is None else ComplexTricks(complex_tricks)
        ),
        winners=defaults.winners if winners is None else Winners(winners),
    )


def dump_deal(deal: Deal) -> dict[str, object]:
    """A deal as the record writes it: contract, then its fields (absent optional ones left out)."""
    out: dict[str, object] = {"contract": deal.contract}
    for spec in CONTRACTS[deal.contract].fields:
        value = deal.values.get(spec.name)
        if value is None or value == {}:
            continue
        out[spec.name] = dump_value(spec, value)
    return out


def dump_house_rules(game: Game) -> dict[str, object]:
    """The house rules that apply to the game, every key written out (defaults too), as plain
    JSON values."""
    rules = game.house_rules
    out: dict[str, object] = {}
    for key in game.definition.house_rules:
        value = getattr(rules, key)
        out[key] = value if isinstance(value, bool) else str(value)
    return out


def dump_record(record: Record, *, derived: bool = False) -> dict[str, object]:
    """The record as a JSON-ready dict; with `derived`, the engine's scores and totals too."""
    game = record.game
    out: dict[str, object] = {
        "format": FORMAT,
        "game": game.kind,
        "mode": game.mode,
        "players": list(game.players),
        "first": game.first,
    }
    rules = dump_house_rules(game)
    if rules:
        out["house_rules"] = rules
    for key in TEXT_KEYS:
        value = getattr(record, key)
        if value is not None:
            out[key] = value
    if not derived:
        out["deals"] = [dump_deal(deal) for deal in game.deals]
        return out
    result = replay(game)
    out["deals"] = [
        {**dump_deal(r.deal), **{k: v for k, v in entry.items() if k != "contract"}}
        for r, entry in zip(result.deals, deal_entries(result), strict=True)
    ]
    summary = check_output(result)
    del summary["deals"]
    out.update(summary)
    return out


def deal_entries(result: Replay) -> list[dict[str, Any]]:
    """Per deal, what `scorekeeper check` prints: number, contract, chooser, kingdom, scores."""
    return [
        {
            "number": r.number,
            "contract": r.contract,
            "chooser": r.chooser,
            "kingdom": r.kingdom,
            "scores": list(r.scores),
        }
        for r in result.deals
    ]


def check_output(result: Replay) -> dict[str, Any]:
    """The object `scorekeeper check` prints for a valid record."""
    return {
        "deals": deal_entries(result),
        "totals": list(result.totals),
        "team_totals": list(result.team_totals) if result.team_totals is not None else None,
        "finished": result.finished,
        "next": None
        if result.next is None
        else {"chooser": result.next.chooser, "contracts": result.next.contracts},
        "winners": list(result.winners) if result.winners is not None else None,
    }


def dumps_record(record: Record, *, derived: bool = False) -> str:
    """The record as JSON text (UTF-8 friendly: names stay readable)."""
    return json.dumps(dump_record(record, derived=derived), ensure_ascii=False, indent=2)
