"""The library's exceptions: one base class, :class:`CrapetteError`, and a few kinds."""

from __future__ import annotations

__all__ = [
    "CrapetteError",
    "IllegalMoveError",
    "InvalidRulesError",
    "NotationError",
]


class CrapetteError(Exception):
    """Base class of every error this library raises on purpose."""


class IllegalMoveError(CrapetteError, ValueError):
    """A move that the rules do not allow in the given position.

    The message names the move and says why it is illegal. The state it was applied to is
    unchanged (states are immutable).
    """


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
