"""Functions the layers above the rules core lend it, so that the core imports nothing above it.

The core needs a few things written higher up: the text of a move (``apply(state, "R-F")``
reads it with [`parse_move`][crapette.notation.parse_move]), the text and pictures of a
state (``str(state)``, ``repr(state)``, ``_repr_svg_``), the error of an illegal move and
the ``Outcome`` the native engine returns. The modules that define them store them here when
they are imported (``import crapette`` imports all of them); the core, and the native
engine through this module, look them up when they need them. This module imports nothing.

Every hook is ``None`` until its module registers it; the core raises ``RuntimeError`` if
it is asked for one that was never registered (a program that imported a core module
without ``crapette`` itself).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# crapette.notation
parse_move: Callable[[Any, str], Any] | None = None
"""``notation.parse_move(state, text)``: a move text read against a position."""
format_position: Callable[[Any], str] | None = None
"""``notation.format_position(state)``: the position line of ``repr(state)``."""

# crapette.text
board: Callable[[Any], str] | None = None
"""``text.board(state)``: the readable board of ``str(state)``."""

# crapette (the facade): loads crapette.svg and crapette.records on first use
svg_board: Callable[[Any], str] | None = None
"""``svg.board(state_or_view)``: the picture of ``_repr_svg_``."""
records: Callable[[], Any] | None = None
"""The ``crapette.records`` module, loaded on first use (``to_json``/``from_json`` of a
record)."""

# crapette._laws and crapette.outcome, for the native engine
illegal_move_error: Callable[[Any, Any, int, tuple[int, ...]], Exception] | None = None
"""``_laws._illegal_from_core(state, move, code, params)``: the ``IllegalMoveError`` of an
illegal move from the C core's refusal (``cr_why_illegal``: a reason number and its
parameters as integers), its message rendered from the spec's template."""
Outcome: Any = None
"""The ``crapette.outcome.Outcome`` class."""

# crapette.state and crapette._build, for the native engine's messages
not_a_state: Callable[[object], TypeError] | None = None
"""The ``TypeError`` for an argument that is not a ``GameState``."""
expected_type_error: Callable[[str, object], TypeError] | None = None
"""``_build.expected_type_error``: a field of the wrong type."""
show: Callable[[object], str] | None = None
"""``_quote.show``: a bounded form of a value for a message."""
rebuild_state: Callable[..., Any] | None = None
"""``state._rebuild``: how a pickled state is rebuilt."""
state_repr: Callable[[Any], str] | None = None
"""``repr(state)`` (``state._state_repr``)."""
state_replace: Callable[[Any, dict[str, Any]], Any] | None = None
"""``state.replace(**changes)`` of a native state (``state._replace``)."""
position_problems: Callable[[Any], list[str]] | None = None
"""``state.position_problems``, for ``state.problems()``."""
position_error: Callable[[Any, Any], Exception | None] | None = None
"""``state._position_error(state_or_fields, engine)``: the ``InvalidPositionError`` a
constructor raises for an impossible state (``None`` for a possible one), so that the
native engine's constructor refuses with the Python engine's words."""

# crapette._engine, for the check of a pending Stop! decision
replay_stop: Callable[[Any, Any], tuple[Any, str | None]] | None = None
"""``_engine._replay_stop(prior, move)``: the state after ``move`` from ``prior`` in the
prior's engine, or ``(None, why)`` when the move is not legal there."""


def need(hook: Callable[..., Any] | None, name: str) -> Callable[..., Any]:
    """``hook``, or ``RuntimeError`` naming the hook when it was never registered."""
    if hook is None:
        raise RuntimeError(f"crapette._hooks.{name} is not registered: import crapette first")
    return hook
