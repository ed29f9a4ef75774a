"""The rules engine: pure Python, standard library only (docs/rules.md and docs/record-format.md).

Every screen of the app asks this package what is legal, what a deal scores and what comes
next; nothing here imports Flask, SQLAlchemy or WTForms.
"""

from .cards import SEATS, SUIT_SYMBOLS, SUITS, TEAMS, next_seat, team_of, team_totals
from .contracts import CONTRACTS, Contract, ContractKind
from .deal import Deal, FieldKind, FieldSpec
from .errors import NotARecordError, Problem, RuleError
from .games import (
    GAMES,
    PARTNERSHIP,
    SOLO,
    TRIX,
    TRIX_COMPLEX,
    TURKISH_KING,
    Game,
    GameDef,
    check_players,
    check_setup,
    house_rules_for,
)
from .house_rules import (
    FULL,
    HOUSE_RULE_KEYS,
    NET,
    ComplexTricks,
    HouseRules,
    QueenOfDiamonds,
    Winners,
)
from .messages import REASONS, TEMPLATES, UNITS, ClosedReason
from .record import (
    Record,
    check_output,
    dump_deal,
    dump_record,
    dumps_record,
    load_record,
    record_from_json,
)
from .replay import (
    DealResult,
    Evaluation,
    NextStep,
    Option,
    Quota,
    Replay,
    evaluate,
    parse_deal,
    replay,
    with_deal,
    without_deal,
)

__all__ = [
    "CONTRACTS",
    "FULL",
    "GAMES",
    "HOUSE_RULE_KEYS",
    "NET",
    "PARTNERSHIP",
    "REASONS",
    "SEATS",
    "SOLO",
    "SUITS",
    "SUIT_SYMBOLS",
    "TEAMS",
    "TEMPLATES",
    "TRIX",
    "TRIX_COMPLEX",
    "TURKISH_KING",
    "UNITS",
    "ClosedReason",
    "ComplexTricks",
    "Contract",
    "ContractKind",
    "Deal",
    "DealResult",
    "Evaluation",
    "FieldKind",
    "FieldSpec",
    "Game",
    "GameDef",
    "HouseRules",
    "NextStep",
    "NotARecordError",
    "Option",
    "Problem",
    "QueenOfDiamonds",
    "Quota",
    "Record",
    "Replay",
    "RuleError",
    "Winners",
    "check_output",
    "check_players",
    "check_setup",
    "dump_deal",
    "dump_record",
    "dumps_record",
    "evaluate",
    "house_rules_for",
    "load_record",
    "next_seat",
    "parse_deal",
    "record_from_json",
    "replay",
    "team_of",
    "team_totals",
    "with_deal",
    "without_deal",
]
