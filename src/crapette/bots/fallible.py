"""Fallible players: any bot made to miss compulsory moves and to overlook the opponent's
violations now and then, as people do.

The shipped bots never break a priority and always call "Stop!" when it helps, so under
callable Stop! rules (``pagat``, ``serbian``) no violation ever happens and those rules
change nothing. [`Fallible`][crapette.bots.fallible.Fallible] wraps a bot with a player model whose
parameters are probabilities people can reason about:

* **missing a compulsory move**, per kind. A violating move is counted under the *first*
  priority it breaks, in the order the rules check them (the kinds are exclusive; the kind
  is the one the rules' priority check names, the ``kind`` of its violation):

  - ``reserve`` (``miss_reserve``): pagat's "reserve to a foundation first": another move
    while the reserve top can go to a foundation;
  - ``foundation`` (``miss_foundation``): a non-foundation move (a discard included) while
    a foundation move exists;
  - ``order`` (``miss_order``): the Serbian order: loading the opponent with a card that
    could be built on a (non-empty) house;
  - ``filling`` (``miss_filling``): house filling: turning a hand card while a house is
    empty and the reserve has cards (``before_hand``), or anything but filling a house
    emptied this turn (``immediate``).

  At each of its decisions, for each kind that some legal move breaks, the player misses
  that kind with its probability (one draw per kind present). When it misses, it plays
  the best move by the greedy ranking ([`move_score`][crapette.bots.greedy.move_score]) among the
  legal moves that break a missed kind: what the greedy player would do if that priority
  did not exist (a pointless house shuffle is never chosen; with nothing else to play,
  the miss does not happen). Otherwise the wrapped bot decides. ``miss`` sets every kind
  at once; a ``miss_<kind>`` overrides it for one kind.
* **calling "Stop!"** (``call``): the chance that the player notices the opponent's
  violation when a call could punish it. Under ``call_window="after_move"`` that is when
  the violation awaits this player's Stop! decision; under ``call_window="turn_start"``
  (Bobcrapette's call) it is at the start of this player's turn, before its first move,
  when the opponent's last turn ended by a violation (the view's ``fault``). A player who
  notices decides as the wrapped bot does (the shipped bots call whenever calling helps,
  [`stop_decision`][crapette.bots.stop_decision], and at the start of a turn whenever the
  last turn was a fault); one who does not lets the move stand, or plays on (the fault
  lapses with its first move).
* **false calls** (``false_call``): under ``call_window="turn_start"``, the chance of
  calling "Stop!" at the start of a turn when the opponent's last turn was no fault. The
  rules' ``false_call`` option prices the mistake: ``lose_turn`` ends the caller's turn,
  ``none`` costs nothing, ``rationed`` uses one of the caller's 3 false calls of the deal
  (with none left the call is not legal, and no false call is made). Under
  ``call_window="after_move"`` a call is offered only after a violation, so there is
  nothing to call falsely and ``false_call`` changes nothing.

The wrapped bot's optional hooks (``on_deal_start``, ``on_opponent_move``) are forwarded:
a fallible player has them exactly when the bot it wraps has them.

A violation is only possible under callable Stop! rules: under ``stop=enforced``
(``classic``, ``g4a``, ``belarusian``) the engine offers no violating move, so a fallible
player plays exactly as the bot it wraps (house-filling misses included); with
``house_filling=none`` there is nothing to miss in filling houses.

The player model draws from its own generator (seeded like the wrapped bot), so a
fallible player is as reproducible as any bot: the same seed, the same moves.
"""

from __future__ import annotations

from crapette import legal_moves
from crapette._laws import VIOLATION_KINDS, violation
from crapette._quote import show
from crapette.bots._greedy import _POINTLESS, greedy_move, move_score
from crapette.bots.base import Bot, call_open, fault_seen, play_on_moves
from crapette.deal import Rng
from crapette.errors import UnknownBotError
from crapette.moves import CALL_STOP, LET_STAND, Move
from crapette.state import GameState
from crapette.views import PlayerView, sketch

__all__ = ["MISS_KINDS", "Fallible", "miss_kind"]

MISS_KINDS: tuple[str, ...] = VIOLATION_KINDS
"""The kinds of compulsory move a fallible player may miss, in the order the rules check
them: ``("reserve", "foundation", "order", "filling")``, the kinds of the rules' own
priority check."""

_SEED_SALT = 0xFA11B1E


def _probability(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise UnknownBotError(
            f"{name} must be a probability (a number from 0 to 1), not {show(value)}"
        )
    number = float(value)
    if not 0.0 <= number <= 1.0:
        raise UnknownBotError(
            f"{name} must be a probability (a number from 0 to 1), not {show(value)}"
        )
    return number


def miss_kind(view: PlayerView, moves: tuple[Move, ...], move: Move) -> str | None:
    """The kind of compulsory move (one of [`MISS_KINDS`][crapette.bots.fallible.MISS_KINDS]) that
    ``move`` misses, or ``None`` when it breaks no priority.

    Args:
        view: the position, seen by the player to act.
        moves: ``view.legal_moves()`` (not needed any more: the kind comes from the rules'
            priority check alone; kept so that calls stay valid).
        move: one of ``moves``.
    """
    return _kind(sketch(view), move)


def _kind(state: GameState, move: Move) -> str | None:
    broken = violation(state, move)
    return None if broken is None else broken.kind


class Fallible:
    """A bot that sometimes misses compulsory moves and overlooks the opponent's
    violations (see the module documentation for the model).

    Attributes:
        bot: the wrapped bot.
        miss: the chance of missing, per kind (a dict over
            [`MISS_KINDS`][crapette.bots.fallible.MISS_KINDS]).
        call: the chance of noticing the opponent's violation.
        false_call: the chance of a false call at the start of a turn
            (``call_window="turn_start"``; see the module documentation).
        name: the bot string of this player, e.g. ``greedy:miss=0.1:call=0.8``.
    """

    def __init__(
        self,
        bot: Bot,
        *,
        miss: float = 0.0,
        call: float = 1.0,
        false_call: float = 0.0,
        miss_reserve: float | None = None,
        miss_foundation: float | None = None,
        miss_order: float | None = None,
        miss_filling: float | None = None,
        seed: int | None = None,
    ) -> None:
        """Wrap ``bot``.

        Args:
            bot: any bot.
            miss: the chance of missing each kind of compulsory move (0 to 1).
            call: the chance of noticing the opponent's violation (0 to 1).
            false_call: the chance of calling at the start of a turn when the opponent's
                last turn was no fault (0 to 1; only under ``call_window="turn_start"``).
            miss_reserve: overrides ``miss`` for pagat's reserve-first rule.
            miss_foundation: overrides ``miss`` for foundation moves.
            miss_order: overrides ``miss`` for the Serbian order.
            miss_filling: overrides ``miss`` for house filling.
            seed: seeds the player model's generator (default: the wrapped bot's ``seed``
                attribute, or 0).

        Raises:
            UnknownBotError: a probability outside [0, 1] or not a number (a
                ``ValueError``).
        """
        base = _probability("miss", miss)
        overrides = {
            "reserve": miss_reserve,
            "foundation": miss_foundation,
            "order": miss_order,
            "filling": miss_filling,
        }
        self.miss: dict[str, float] = {
            kind: base if value is None else _probability(f"miss_{kind}", value)
            for kind, value in overrides.items()
        }
        self.call = _probability("call", call)
        self.false_call = _probability("false_call", false_call)
        self.bot = bot
        if seed is None:
            seed = getattr(bot, "seed", 0)
            seed = seed if isinstance(seed, int) else 0
        self.seed = seed
        self._rng = Rng(seed ^ _SEED_SALT)
        # The hooks of the wrapped bot, forwarded (present exactly when the bot has them).
        for hook in ("on_deal_start", "on_opponent_move"):
            if hasattr(bot, hook):
                setattr(self, hook, getattr(bot, hook))
        self.name = self._name()

    def _name(self) -> str:
        parts = [str(getattr(self.bot, "name", type(self.bot).__name__))]
        values = [self.miss[kind] for kind in MISS_KINDS]
        if len(set(values)) > 1:
            parts.extend(f"miss_{kind}={_num(self.miss[kind])}" for kind in MISS_KINDS)
        elif values[0]:
            parts.append(f"miss={_num(values[0])}")
        if self.call != 1.0:
            parts.append(f"call={_num(self.call)}")
        if self.false_call:
            parts.append(f"false_call={_num(self.false_call)}")
        return ":".join(parts)

    def choose(self, view: PlayerView) -> Move:
        """The wrapped bot's move, unless the player misses a compulsory move or
        overlooks the opponent's violation."""
        if view.stop is not None:
            if self._rng.random() < self.call:
                return self.bot.choose(view)
            return LET_STAND
        moves = view.legal_moves()
        if call_open(view, moves):
            if fault_seen(view):
                if self._rng.random() < self.call:
                    return self.bot.choose(view)
                return self._play_on(view, moves)  # the fault goes unnoticed
            if self.false_call and self._rng.random() < self.false_call:
                return CALL_STOP  # a false call
        if view.rules.stop == "enforced" or not any(self.miss.values()):
            return self._play_on(view, moves)
        missed = self._missed_move(view)
        return missed if missed is not None else self._play_on(view, moves)

    def _play_on(self, view: PlayerView, moves: tuple[Move, ...]) -> Move:
        """The wrapped bot's move, unless it is a call at the start of the turn that the
        player has not decided to make: then the greedy ranking's best move of the rest
        (the wrapped bot calls at the start of a turn only on a fault, which this player
        did not notice)."""
        move = self.bot.choose(view)
        if move != CALL_STOP or not call_open(view, moves):
            return move
        return greedy_move(sketch(view), self._rng, play_on_moves(view, moves))

    def _missed_move(self, view: PlayerView) -> Move | None:
        """A move that misses a compulsory move, when the player misses one now."""
        state = sketch(view)
        moves = legal_moves(state)
        by_kind: dict[str, list[Move]] = {}
        for move in moves:
            kind = _kind(state, move)
            if kind is not None:
                by_kind.setdefault(kind, []).append(move)
        if not by_kind:
            return None
        candidates: list[Move] = []
        for kind in MISS_KINDS:
            if kind in by_kind and self._rng.random() < self.miss[kind]:
                candidates.extend(by_kind[kind])
        if not candidates:
            return None
        top = _POINTLESS
        best: list[Move] = []
        for move in candidates:
            score = move_score(state, move)
            if score > top:
                top = score
                best = [move]
            elif score == top and score > _POINTLESS:
                best.append(move)
        if not best:
            return None
        return best[0] if len(best) == 1 else best[self._rng.below(len(best))]

    def __repr__(self) -> str:
        return f"Fallible({self.bot!r}, name={self.name!r})"


def _num(value: float) -> str:
    text = repr(value)
    return text[:-2] if text.endswith(".0") else text
