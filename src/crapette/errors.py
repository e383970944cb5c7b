"""Every exception the library raises on purpose: one base class,
[`CrapetteError`][crapette.errors.CrapetteError], and a few kinds. Errors about a bad value also
subclass `ValueError`. An argument of the wrong Python type (``None`` or a ``str`` where a
state or a ``Move`` is expected) raises the built-in ``TypeError``, as Python's own functions
do; every bad *value* raises one of these.

```
CrapetteError
├── InvalidArgumentError    an argument outside its documented values (a player 2, card 200)
├── InvalidMoveError        not a move at all (unknown combination, bad action code)
├── IllegalMoveError        a real move that is not legal in the position
├── InvalidRulesError       an unknown preset or option, a bad value
├── NotationError           text that does not parse
│   └── InvalidPositionError  a position or pack that breaks an invariant
├── UnknownBotError         an unknown bot name or a bad bot option
├── BotError                a bot answered an illegal move during a simulation
├── MatchError              a match used out of order
├── AdapterError            an adapter used out of order (an environment before its reset)
└── SessionError            a game session's action refused (a code: not your turn, ...;
    │                       not in __all__: provisional, exported by crapette.session)
    └── WebError            a game server request refused (an HTTP status and a code;
                            crapette.web's, defined in the server's layer)
```

Each layer above the core defines its own errors where it raises them: the simulator's
(``SimulationError`` and ``PlotError``, ``CrapetteError``s, and ``SimulationInterrupted``, the
``KeyboardInterrupt`` of a Ctrl-C) are in
[`crapette.simulation.errors`][crapette.simulation.errors], the game server's ``WebError`` in
``crapette.web``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "AdapterError",
    "BotError",
    "CrapetteError",
    "IllegalMoveError",
    "InvalidArgumentError",
    "InvalidMoveError",
    "InvalidPositionError",
    "InvalidRulesError",
    "MatchError",
    "NotationError",
    "UnknownBotError",
]


class CrapetteError(Exception):
    """Base class of every error this library raises on purpose."""


class InvalidArgumentError(CrapetteError, ValueError):
    """An argument outside the values a function documents, where no more particular error
    applies: a player or seat other than 0 or 1, a card index outside 0..103, a pack number,
    a perft depth below its minimum, a picture width that is not positive. The message names
    the argument and the value given."""


class InvalidMoveError(CrapetteError, ValueError):
    """Something that is not a move at all: a ``Move`` with an unknown combination of action,
    source, target and count, or an integer action code out of range. (A real move that the
    rules forbid in a position is an [`IllegalMoveError`][crapette.errors.IllegalMoveError].)"""


class IllegalMoveError(CrapetteError, ValueError):
    """A move that the rules do not allow in the given position.

    The message names the move and says why it is illegal. The state it was applied to is
    unchanged (states are immutable).

    Attributes:
        code: the refusal's reason code (one of ``crapette._spec.REASONS``, such as
            ``"foundation"`` or ``"cycle"``: the same in both engines and in the JavaScript
            package), or ``None`` when the move was refused before the rules were asked (a
            move text naming a pile of the opponent or a card that is not available, a move
            outside a player's view).
        params: the reason's parameters by name (see
            [`Refusal`][crapette.Refusal]); empty when ``code`` is ``None``.
    """

    def __init__(
        self, message: str, code: str | None = None, params: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params: Mapping[str, Any] = dict(params) if params else {}

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (str(self), self.code, dict(self.params))


class InvalidRulesError(CrapetteError, ValueError):
    """An unknown preset or option, a value of the wrong type or range, or an impossible
    combination of options. The message names the option and the allowed values."""


class NotationError(CrapetteError, ValueError):
    """Text that is not valid notation (a card, a move, a position, a record, JSON), or
    that parses but describes something impossible.

    Attributes:
        text: the text that failed to parse (may be empty when not applicable).
        position: the 0-based character position of the problem, or ``None``.
    """

    def __init__(self, message: str, text: str = "", position: int | None = None) -> None:
        super().__init__(message)
        self.text = text
        self.position = position


class InvalidPositionError(NotationError):
    """A position that breaks an invariant of the game: not the 104 cards once each, a
    counter out of range, a pack that is not one player's 52 cards. A
    [`NotationError`][crapette.errors.NotationError] so that code catching bad position text also
    catches it."""


class UnknownBotError(CrapetteError, ValueError):
    """A bot name that is not registered ([`crapette.bots.bot_names`][crapette.bots.bot_names]:
    the message lists them), a bad bot option (such as a search budget that is not a positive
    integer, or a miss chance outside 0..1), or a name that cannot be registered (malformed,
    already taken)."""


class BotError(CrapetteError):
    """A bot returned an illegal move. The simulation stopped; the records made until then
    are kept.

    Attributes:
        bot: the bot's name.
        seed: the deal seed.
        move: the illegal move.
        records: the deal records completed before the error, in deal order.
    """

    def __init__(
        self, message: str, bot: str, seed: int, move: object, records: Sequence[Any]
    ) -> None:
        super().__init__(message)
        self.bot = bot
        self.seed = seed
        self.move = move
        self.records: tuple[Any, ...] = tuple(records)


class MatchError(CrapetteError, ValueError):
    """A match used out of order: the next deal asked for before the current one is over or
    after the match is over, or a state of another deal given to it."""


class AdapterError(CrapetteError, RuntimeError):
    """An adapter used out of order: a PettingZoo environment observed or stepped before
    its first ``reset()``. A ``RuntimeError`` too, as it was before it became a library
    error."""


class SessionError(CrapetteError):
    """An action a game session refuses ([`crapette.session`][crapette.session]): a move
    out of turn, at a stale version, illegal or malformed, an undo the rules of undo do not
    allow, ...: a short machine-readable code and a message.

    Attributes:
        code: the machine-readable reason, such as ``"illegal_move"`` or ``"cannot_undo"``.
        message: the readable reason.
        reason: for an illegal move, the rules' refusal as JSON-ready data (its reason code
            of the rule spec and its parameters, ``Refusal.to_dict()``); else ``None``.
    """

    def __init__(self, code: str, message: str, reason: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason
