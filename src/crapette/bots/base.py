"""The bot protocol, its optional hooks and the default "Stop!" decision rule."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from crapette.errors import InvalidArgumentError, UnknownBotError
from crapette.moves import CALL_STOP, LET_STAND, Move
from crapette.rules import Ruleset
from crapette.views import PlayerView

__all__ = [
    "Bot",
    "UnknownBotError",
    "stop_decision",
]


@runtime_checkable
class Bot(Protocol):
    """A player program: it sees a [`PlayerView`][crapette.views.PlayerView] (never the full
    state) and answers one of ``view.legal_moves()``.

    Two optional hooks, for bots that plan or remember; the game loop
    ([`play_deal`][crapette.bots.play_deal]) calls them when the bot has them:

    * ``on_deal_start(view)``: a new deal starts; ``view`` is the bot's view of the deal's
      first position.
    * ``on_opponent_move(move, view)``: the opponent just made ``move`` (written from the
      opponent's side: ``R-OR`` means the opponent loaded *your* reserve); ``view`` is the
      bot's view after it.

    Attributes:
        name: a short name for tables and error messages.
    """

    name: str

    def choose(self, view: PlayerView) -> Move:
        """The move to make in the position seen by ``view`` (the bot is ``view.to_act``)."""
        ...


def _notify_deal_start(bot: object, view: PlayerView) -> None:
    """Call ``bot.on_deal_start(view)`` if the bot has that hook."""
    hook = getattr(bot, "on_deal_start", None)
    if hook is not None:
        hook(view)


def _notify_opponent_move(bot: object, move: Move, view: PlayerView) -> None:
    """Call ``bot.on_opponent_move(move, view)`` if the bot has that hook."""
    hook = getattr(bot, "on_opponent_move", None)
    if hook is not None:
        hook(move, view)


def call_helps(rules: Ruleset, offender: int, resume: int) -> bool:
    """Whether calling "Stop!" on a violation helps the caller: always under the ``card``
    penalty (the offender takes a card and the turn passes to the caller); under ``undo``
    only when the violation did not already end the offender's turn (``resume`` is the
    offender), since the missed compulsory move is then made for the offender."""
    return rules.stop == "card" or resume == offender


def stop_decision(view: PlayerView) -> Move:
    """The default answer to an open Stop! decision: ``CALL_STOP`` when calling helps
    ([`call_helps`][crapette.bots.call_helps]), else ``LET_STAND``. The shipped bots decide this
    way.

    Raises:
        InvalidArgumentError: no Stop! decision is open in ``view``.
    """
    stop = view.stop
    if stop is None:
        raise InvalidArgumentError("no Stop! decision is open in this view")
    return CALL_STOP if call_helps(view.rules, stop.offender, stop.resume) else LET_STAND


def fault_seen(view: PlayerView) -> bool:
    """Whether ``view`` shows a fault that a call now would punish: under
    ``call_window="turn_start"``, the opponent's last turn ended by a priority violation and
    this turn has not made its first move. Read from the view's ``fault`` field (``None``
    or absent: no fault)."""
    return bool(getattr(view, "fault", None))


def call_open(view: PlayerView, moves: tuple[Move, ...]) -> bool:
    """Whether ``moves`` (the legal moves of ``view``) offer a call at the start of the
    turn (``call_window="turn_start"``): ``CALL_STOP`` with no Stop! decision open."""
    return view.stop is None and CALL_STOP in moves


def turn_start_call(view: PlayerView) -> bool:
    """The shipped bots' call at the start of a turn (``call_window="turn_start"``): call
    exactly when the opponent's last turn ended by a violation
    ([`fault_seen`][crapette.bots.base.fault_seen]), never otherwise (a false call costs
    the turn, or one of the deal's rationed calls, and gains nothing). ``False`` when no
    call is open."""
    return call_open(view, view.legal_moves()) and fault_seen(view)


def play_on_moves(view: PlayerView, moves: tuple[Move, ...]) -> tuple[Move, ...]:
    """``moves`` (the legal moves of ``view``) less a call at the start of the turn: the
    moves of a player who does not call now."""
    if not call_open(view, moves):
        return moves
    return tuple(move for move in moves if move != CALL_STOP)
