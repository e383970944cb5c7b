"""Bounded quotations of user input for error messages.

An error message quotes the text it refuses so that a person can find the problem, but never
a whole large input: [`quote`][crapette._quote.quote] keeps at most a few dozen characters,
around the place of the problem when it is known.
"""

from __future__ import annotations

from typing import Final

__all__ = ["QUOTE_LIMIT", "quote", "show"]

QUOTE_LIMIT: Final = 60
"""The most characters of the input an error message quotes."""


def quote(text: str, position: int | None = None, limit: int = QUOTE_LIMIT) -> str:
    """``repr(text)`` when it is short; otherwise an excerpt of ``limit`` characters (around
    ``position`` if given, else from the start) marked with ``...`` and the full length.

    Args:
        text: the input to quote.
        position: the 0-based place of the problem, if known.
        limit: the most characters of ``text`` to show.
    """
    if len(text) <= limit:
        return repr(text)
    start = 0 if position is None else max(0, min(position - limit // 2, len(text) - limit))
    piece = repr(text[start : start + limit])
    before = "..." if start > 0 else ""
    after = "..." if start + limit < len(text) else ""
    return f"{before}{piece}{after} ({len(text)} characters)"


def show(value: object, limit: int = QUOTE_LIMIT) -> str:
    """A bounded form of any value for an error message: a ``str`` as
    [`quote`][crapette._quote.quote] gives it, an integer of more than 128 bits by its size
    (its digits could be thousands long), anything else by its ``repr``, cut to ``limit``
    characters."""
    if isinstance(value, str):
        return quote(value, limit=limit)
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        return f"<an integer of {value.bit_length()} bits>"
    try:
        text = repr(value)
    except ValueError:  # e.g. a tuple holding an integer of thousands of digits
        return f"<a {type(value).__name__} too large to show>"
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"
