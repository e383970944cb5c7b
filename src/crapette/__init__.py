"""crapette: the rules engine for Russian Bank (Crapette, Zank-Patience, Stop).

Everything public is importable from here::

    import crapette

    state = crapette.new_game(seed=42)
    while crapette.outcome(state) is None:
        move = crapette.legal_moves(state)[0]
        state = crapette.apply(state, move)
    print(crapette.outcome(state))
"""

from crapette import _build
from crapette._version import BEHAVIOUR_VERSION, __version__
from crapette.bots import (
    BOT_NAMES,
    Bot,
    GreedyBot,
    RandomBot,
    SearchBot,
    UnknownBotError,
    get_bot,
)
from crapette.cards import ALL_CARDS, Card, full_pack, parse_card
from crapette.deal import Rng, deal, new_game, shuffled
from crapette.engine import apply, apply_unchecked
from crapette.errors import CrapetteError, IllegalMoveError, InvalidRulesError, NotationError
from crapette.legality import reference_legal_moves, why_illegal
from crapette.match import DealResult, Match, MatchOutcome, deal_seed, new_match
from crapette.movegen import legal_moves
from crapette.moves import (
    ALL_MOVES,
    CALL_STOP,
    DISCARD,
    DRAW,
    END_TURN,
    FOUNDATION,
    HAND,
    LET_STAND,
    OPP_RESERVE,
    OPP_WASTE,
    RESERVE,
    REVEAL,
    WASTE,
    Action,
    Move,
)
from crapette.notation import (
    describe_move,
    format_move,
    format_position,
    format_public_position,
    parse_move,
    parse_position,
    validate_position,
)
from crapette.outcome import Outcome, is_over, outcome
from crapette.perft import divide, perft
from crapette.records import GameRecord, format_record, format_result, parse_record
from crapette.rules import OPTIONS, PRESETS, Ruleset
from crapette.serialize import from_json, to_json
from crapette.simulate import (
    BotError,
    DealRecord,
    SimulationError,
    SimulationResult,
    Summary,
    simulate,
)
from crapette.state import GameState, PendingStop
from crapette.views import PlayerView, StopView, determinize, observe

__all__ = [
    "ALL_CARDS",
    "ALL_MOVES",
    "BEHAVIOUR_VERSION",
    "BOT_NAMES",
    "CALL_STOP",
    "COMPILED",
    "DISCARD",
    "DRAW",
    "END_TURN",
    "FOUNDATION",
    "HAND",
    "LET_STAND",
    "OPPONENT_RESERVE",
    "OPPONENT_WASTE",
    "OPP_RESERVE",
    "OPP_WASTE",
    "OPTIONS",
    "PRESETS",
    "RESERVE",
    "REVEAL",
    "WASTE",
    "Action",
    "Bot",
    "BotError",
    "Card",
    "CrapetteError",
    "DealRecord",
    "DealResult",
    "GameRecord",
    "GameState",
    "GreedyBot",
    "IllegalMoveError",
    "InvalidRulesError",
    "Match",
    "MatchOutcome",
    "Move",
    "NotationError",
    "Outcome",
    "PendingStop",
    "PlayerView",
    "RandomBot",
    "Rng",
    "Ruleset",
    "SearchBot",
    "SimulationError",
    "SimulationResult",
    "StopView",
    "Summary",
    "UnknownBotError",
    "__version__",
    "apply",
    "apply_unchecked",
    "deal",
    "deal_seed",
    "describe_move",
    "determinize",
    "divide",
    "format_move",
    "format_position",
    "format_public_position",
    "format_record",
    "format_result",
    "from_json",
    "full_pack",
    "get_bot",
    "is_over",
    "legal_moves",
    "new_game",
    "new_match",
    "observe",
    "outcome",
    "parse_card",
    "parse_move",
    "parse_position",
    "parse_record",
    "perft",
    "reference_legal_moves",
    "shuffled",
    "simulate",
    "to_json",
    "validate_position",
    "why_illegal",
]

OPPONENT_RESERVE = OPP_RESERVE
OPPONENT_WASTE = OPP_WASTE

COMPILED: bool = _build.compiled()
"""True when the core modules run compiled (a mypyc wheel, without ``CRAPETTE_PURE=1``)."""
