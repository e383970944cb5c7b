"""crapette: the rules engine for Russian Bank (Crapette, Zank-Patience, Stop).

The core is importable from here: a deal played to its end by a random policy (any policy
that does not always pick the same move ends: random deals take about 1,700 moves).

```python
import random

import crapette

rng = random.Random(1)
state = crapette.new_game(seed=42)
while crapette.outcome(state) is None:
    state = crapette.apply(state, rng.choice(crapette.legal_moves(state)))
print(crapette.outcome(state))
```

``import crapette`` imports none of the optional subpackages (bots, simulation, records,
testing, adapters, the command line); ``crapette.ENGINE`` says which engine runs.
"""

from __future__ import annotations

from typing import Any as _Any

from crapette import _hooks
from crapette._engine import apply, apply_unchecked
from crapette._laws import Refusal, refusal, why_illegal
from crapette._movegen import legal_moves
from crapette._version import BEHAVIOUR_VERSION, __version__
from crapette.cards import ALL_CARDS, Card, format_card, parse_card
from crapette.deal import deal, new_game
from crapette.errors import (
    CrapetteError,
    IllegalMoveError,
    InvalidArgumentError,
    InvalidMoveError,
    InvalidPositionError,
    InvalidRulesError,
    MatchError,
    NotationError,
)
from crapette.match import Match, new_match
from crapette.moves import (
    CALL_STOP,
    DISCARD,
    DRAW,
    END_TURN,
    FLIP,
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
    format_move,
    format_position,
    parse_move,
    parse_position,
    validate_position,
)
from crapette.outcome import Outcome, is_over, outcome
from crapette.rules import OPTIONS, PRESETS, Ruleset, format_rules, parse_rules
from crapette.serialize import from_json, to_json
from crapette.state import ENGINE, GameState, PendingStop
from crapette.text import describe_move
from crapette.views import PlayerView, observe

__all__ = [
    "ALL_CARDS",
    "BEHAVIOUR_VERSION",
    "CALL_STOP",
    "DISCARD",
    "DRAW",
    "END_TURN",
    "ENGINE",
    "FLIP",
    "FOUNDATION",
    "HAND",
    "LET_STAND",
    "OPP_RESERVE",
    "OPP_WASTE",
    "OPTIONS",
    "PRESETS",
    "RESERVE",
    "REVEAL",
    "WASTE",
    "Action",
    "Card",
    "CrapetteError",
    "GameState",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRulesError",
    "Match",
    "MatchError",
    "Move",
    "NotationError",
    "Outcome",
    "PendingStop",
    "PlayerView",
    "Refusal",
    "Ruleset",
    "__version__",
    "apply",
    "apply_unchecked",
    "deal",
    "describe_move",
    "format_card",
    "format_move",
    "format_position",
    "format_rules",
    "from_json",
    "is_over",
    "legal_moves",
    "new_game",
    "new_match",
    "observe",
    "outcome",
    "parse_card",
    "parse_move",
    "parse_position",
    "parse_rules",
    "refusal",
    "to_json",
    "validate_position",
    "why_illegal",
]


def _svg_board(obj: _Any) -> str:
    """The SVG picture of a state or a view (``_repr_svg_``): crapette.svg, loaded on first
    use (it sits above the facade)."""
    from crapette.svg import board

    return board(obj)


def _records_module() -> _Any:
    """crapette.records, loaded on first use: ``to_json``/``from_json`` of a game record
    (it sits above the facade)."""
    from crapette import records

    return records


_hooks.svg_board = _svg_board
_hooks.records = _records_module


def __dir__() -> list[str]:
    """The public names (``__all__``): what ``dir(crapette)`` shows."""
    return sorted(__all__)
