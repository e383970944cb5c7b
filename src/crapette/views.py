"""What one player can see: [`observe`][crapette.views.observe] turns a
[`GameState`][crapette.GameState] into a [`PlayerView`][crapette.views.PlayerView], and
[`determinize`][crapette.views.determinize] draws a complete state consistent with a view (for
search bots).

A view holds every face-up card (foundations, houses, the face-up part of both reserves,
both wastes, the turned hand card), the number of face-down cards of each reserve, the size
of both hands (never their cards or order), whose turn it is, the open Stop! decision and
the public counters. Hidden are the face-down reserve cards and both hands.

Under ``call_window="turn_start"`` (with a callable ``stop``) a view also holds the call
window (``window``: the player to act may still call "Stop!" this turn), the faulty turn end
a call would punish (``fault``, a [`StopView`][crapette.views.StopView] with the view before
it: every player saw that turn end) and, under ``false_call="rationed"``, each player's
false calls. The legal moves never betray the fault: ``stop`` is legal whenever the window
is open.

The public counters are those the rules need and that every player can work out by
watching the moves: ``moves_made`` (the move cap), ``passes`` (the stalemate rule),
``emptied`` (``house_filling="immediate"``), and ``seen``, the house layouts seen since the
last move that cannot be undone this turn (the no-cycle rule). House layouts are face up, so
``seen`` is public too. With them [`PlayerView.legal_moves`][crapette.views.PlayerView.legal_moves]
equals ``crapette.legal_moves`` of the state: legal moves depend on visible information only.

A view is the observation of the current position, not a memory of the deal: a player who
remembers everything may know more (the order of a hand formed by turning the waste over,
say). The one piece of history a view keeps is the position just before a violation that
awaits a Stop! decision or a call at the start of the next turn (``StopView.prior``), which
the ``undo`` penalty returns to. Card backs are not modelled: a view does not say which
pack a face-down card comes from.
"""

from __future__ import annotations

import functools
import operator
from bisect import bisect_left
from collections.abc import Sequence
from typing import Final, SupportsIndex

import attrs

from crapette import _hooks
from crapette._build import argument_type_error
from crapette._engine import apply_unchecked
from crapette._laws import violation
from crapette._movegen import legal_moves
from crapette._quote import show
from crapette.cards import PACKS, Card
from crapette.deal import Rng, shuffled
from crapette.errors import IllegalMoveError, InvalidArgumentError
from crapette.moves import RESERVE, Action, Move
from crapette.rules import Ruleset
from crapette.state import GameState, PendingStop, Pile

__all__ = ["VIEW_FORMAT", "PlayerView", "StopView", "determinize", "observe"]


@functools.cache
def _every_card(pack: str) -> frozenset[Card]:
    """Every card of a game of this kind of pack."""
    return frozenset(PACKS[pack].cards)


VIEW_FORMAT = "view/2"
"""The first word of [`PlayerView.to_string`][crapette.views.PlayerView.to_string] for rules
with a call at the start of a turn (``view/2`` adds the fields ``window``, ``false_calls`` and
``fault``); every other view is written ``view/1``, unchanged since that format."""

_VIEW_FORMAT_1: Final = "view/1"
"""The string form of views whose rules have no call window (today's rulesets)."""


@attrs.frozen(slots=True, cache_hash=True)
class PlayerView:
    """What one player sees of a position. Immutable, hashable and equal by value; two
    states that differ only in hidden cards give equal views.

    Piles are tuples of cards, bottom first, as in [`GameState`][crapette.GameState].

    Attributes:
        rules: the ruleset of the deal.
        player: the observer (0 or 1).
        to_act: the player who makes the next move.
        foundations: the 8 foundation piles.
        houses: the 8 houses.
        reserves_up: the face-up cards at the top of each reserve (bottom first).
        reserves_down: the number of face-down cards below them, per reserve.
        hand_sizes: the number of cards in each hand (the turned card not counted).
        wastes: each player's waste.
        turned: the turned hand card of the player whose turn it is, or ``None``.
        stop: the violation awaiting a Stop! decision, or ``None``.
        emptied: houses emptied during the current turn and still empty (bitmask).
        seen: keys of the house layouts seen since the last move that cannot be undone in
            this turn (the no-cycle rule).
        passes: per player, the stalemate rule's pass marks (see ``GameState.passes``).
        moves_made: moves applied so far in the deal.
        houses_key: the Zobrist key of the houses (derived from ``houses``).
        window: under ``call_window="turn_start"``, whether the player to act may still call
            "Stop!" this turn (before the turn's first move).
        false_calls: per player, the wrong Stop! calls of the deal (``false_call="rationed"``).
        fault: under ``call_window="turn_start"``, the faulty turn end a call now would
            punish (the previous turn's, with the view before it), or ``None``.
    """

    rules: Ruleset
    player: int
    to_act: int
    foundations: tuple[Pile, ...]
    houses: tuple[Pile, ...]
    reserves_up: tuple[Pile, Pile]
    reserves_down: tuple[int, int]
    hand_sizes: tuple[int, int]
    wastes: tuple[Pile, ...]
    turned: Card | None
    stop: StopView | None
    emptied: int
    seen: frozenset[int]
    passes: tuple[int, ...]
    moves_made: int
    houses_key: int
    window: bool = False
    false_calls: tuple[int, ...] = (0, 0)
    fault: StopView | None = None
    _legal: tuple[Move, ...] | None = attrs.field(default=None, eq=False, repr=False)
    # the view's sketch, made once (a search asks a view for its moves and their results)
    _sketch: GameState | None = attrs.field(default=None, init=False, eq=False, repr=False)

    @property
    def turn_player(self) -> int:
        """The player whose turn it is (differs from ``to_act`` during a Stop! decision)."""
        return self.stop.resume if self.stop is not None else self.to_act

    @property
    def reserve_sizes(self) -> tuple[int, int]:
        """The number of cards in each reserve, face up and face down."""
        return (
            self.reserves_down[0] + len(self.reserves_up[0]),
            self.reserves_down[1] + len(self.reserves_up[1]),
        )

    def visible_cards(self) -> list[Card]:
        """Every face-up card of the view."""
        out: list[Card] = []
        # pile group by pile group, not one tuple of the 20 piles: CPython 3.11 keeps up to
        # 2,000 freed 20-tuples on a free list, which the server's memory tests count
        for piles in (self.foundations, self.houses, self.reserves_up, self.wastes):
            for pile in piles:
                out.extend(pile)
        if self.turned is not None:
            out.append(self.turned)
        return out

    def hidden_cards(self) -> tuple[Card, ...]:
        """The cards this view does not show (face-down reserve cards and both hands), in
        index order: the cards of the rules' pack (104 with the standard pack) less the
        visible ones."""
        return tuple(sorted(_every_card(self.rules.pack).difference(self.visible_cards())))

    def legal_moves(self) -> tuple[Move, ...]:
        """The legal moves of the player to act: the same as ``crapette.legal_moves`` of any
        state this view was observed from (legal moves depend on visible information only).
        """
        if self._legal is not None:
            return self._legal  # handed over by the one game loop, which listed them already
        return legal_moves(sketch(self))

    def breaks_priority(self, move: Move) -> str | None:
        """Why ``move`` breaks a priority rule (a sentence), or ``None`` when it breaks
        none. Under callable Stop! rules such a move is legal and the opponent may call
        "Stop!"; under ``stop=enforced`` it is not legal at all.

        Args:
            move: a move of the player to act (building-legal, typically one of
                [`legal_moves`][crapette.views.PlayerView.legal_moves]; the answer for other moves
                is not meaningful).
        """
        broken = violation(sketch(self), move)
        return None if broken is None else broken.reason

    def after(self, move: Move) -> PlayerView:
        """The observer's view after a move of its own whose result it can see without
        hidden cards: any card move (a house, foundation or loading move, a reserve card
        that leaves a face-up card or an empty reserve behind), a discard, ending the
        turn, or letting a violation stand.

        Raises:
            IllegalMoveError: the observer is not the player to act, or the move is not one
                of [`legal_moves`][crapette.views.PlayerView.legal_moves].
            InvalidArgumentError: the move's result depends on hidden cards (turning a hand
                card or a reserve top, flipping the hand's top card, playing the last face-up
                reserve card above face-down ones, calling "Stop!").
        """
        if self.to_act != self.player:
            raise IllegalMoveError(f"{move}: player {self.player} is not to act in this view")
        if move not in self.legal_moves():
            raise IllegalMoveError(f"{move} is not a legal move in this view")
        p = self.player
        hidden = move.action in (Action.DRAW, Action.FLIP, Action.REVEAL, Action.CALL_STOP) or (
            move.action is Action.PLAY
            and move.source == RESERVE
            and self.reserves_down[p] > 0
            and len(self.reserves_up[p]) == 1
        )
        if hidden:
            raise InvalidArgumentError(
                f"the result of {move} depends on hidden cards: a view cannot show it"
            )
        return observe(apply_unchecked(sketch(self), move), p)

    def _repr_svg_(self) -> str:
        """The table as this player sees it, as an SVG picture (Jupyter)."""
        return str(_hooks.need(_hooks.svg_board, "svg_board")(self))

    def _repr_html_(self) -> str:
        """The table as inline SVG (Jupyter)."""
        return self._repr_svg_()

    def to_string(self) -> str:
        """A stable one-line text form holding everything in the view.

        Fields are separated by ``" | "``: the format tag (``view/1``, or ``view/2`` under
        ``call_window="turn_start"`` with a callable ``stop``), the rules string,
        ``player P``, ``to_act A``, ``F`` and the foundations, ``H`` and the 8 houses
        (a pile is its cards' texts joined bottom first, ``-`` when empty), ``R0`` and
        ``R1`` (``N:cards``: N face-down cards under the face-up ones), ``hands N0 N1``,
        ``W0`` and ``W1`` (the wastes), ``T`` (the turned card or ``-``), ``stop`` (``-``,
        or ``MOVE by P resume P prior [<prior view's string>]``), then ``moves N``,
        ``passes AB``, ``emptied HEX`` and ``seen`` (the sorted layout keys in hex, comma
        separated). ``view/2`` adds ``window W`` (1 while the call window is open),
        ``false_calls AB`` and ``fault`` (written as ``stop``). A view of today's rules is
        written ``view/1``, exactly as before ``view/2`` existed.
        """
        fields = [
            VIEW_FORMAT if _calls(self.rules) else _VIEW_FORMAT_1,
            self.rules.to_string(),
            f"player {self.player}",
            f"to_act {self.to_act}",
            "F " + " ".join(_pile(p) for p in self.foundations),
            "H " + " ".join(_pile(p) for p in self.houses),
            f"R0 {self.reserves_down[0]}:{_pile(self.reserves_up[0])}",
            f"R1 {self.reserves_down[1]}:{_pile(self.reserves_up[1])}",
            f"hands {self.hand_sizes[0]} {self.hand_sizes[1]}",
            f"W0 {_pile(self.wastes[0])}",
            f"W1 {_pile(self.wastes[1])}",
            f"T {self.turned.text if self.turned is not None else '-'}",
            f"stop {_pending(self.stop)}",
            f"moves {self.moves_made}",
            f"passes {self.passes[0]}{self.passes[1]}",
            f"emptied {self.emptied:02x}",
            "seen " + ",".join(f"{k:016x}" for k in sorted(self.seen)),
        ]
        if _calls(self.rules):
            fields += [
                f"window {int(self.window)}",
                f"false_calls {self.false_calls[0]}{self.false_calls[1]}",
                f"fault {_pending(self.fault)}",
            ]
        return " | ".join(fields)

    def __str__(self) -> str:
        """The table as this player sees it ([`board`][crapette.text.board]; the one-line
        machine form is [`to_string`][crapette.views.PlayerView.to_string])."""
        from crapette.text import board  # the same layer, loaded on first use

        return board(self)


@attrs.frozen(slots=True, cache_hash=True)
class StopView:
    """A priority violation awaiting the Stop! decision (``PlayerView.stop``), or the faulty
    turn end a call at the start of the next turn would punish (``PlayerView.fault``), as
    every player sees it.

    Attributes:
        move: the violating move (relative to the offender).
        offender: the player who made it.
        resume: who acts if the violation is let stand (for a fault: the caller).
        prior: the same observer's view of the position just before the violation (the
            position the ``undo`` penalty returns to).
    """

    move: Move
    offender: int
    resume: int
    prior: PlayerView


def _pile(pile: Pile) -> str:
    return "".join(c.text for c in pile) if pile else "-"


def _pending(pending: StopView | None) -> str:
    """A Stop! decision or a fault in a view's string form (``-`` for none)."""
    if pending is None:
        return "-"
    s = pending
    return f"{s.move} by {s.offender} resume {s.resume} prior [{s.prior.to_string()}]"


def _calls(rules: Ruleset) -> bool:
    """Whether the rules call "Stop!" at the start of a turn (the view's window and fault)."""
    return rules.stop != "enforced" and rules.call_window == "turn_start"


def observe(state: GameState, player: SupportsIndex) -> PlayerView:
    """What ``player`` (0 or 1) sees of ``state``.

    Raises:
        InvalidArgumentError: ``player`` is not 0 or 1 (a ``ValueError``).
        TypeError: ``state`` is not a ``GameState``.
    """
    # ``player`` is annotated SupportsIndex, not int: the check below, not the annotation,
    # refuses "0" or True, with the library's own error.
    if not isinstance(state, GameState):
        raise argument_type_error(GameState, state)
    if player not in (0, 1) or isinstance(player, bool):
        raise InvalidArgumentError(f"player must be 0 or 1, not {show(player)}")
    return _observe(state, operator.index(player), None)


def _observe(state: GameState, player: int, legal: tuple[Move, ...] | None) -> PlayerView:
    """[`observe`][crapette.views.observe] without the argument checks; ``legal`` is
    ``legal_moves(state)`` when the caller already has it (the view then answers
    ``legal_moves()`` without listing them again)."""
    stop = None
    if state.stop is not None:
        pending = state.stop
        stop = StopView(
            pending.move, pending.offender, pending.resume, _observe(pending.prior, player, None)
        )
    fault = None
    if state.fault is not None:
        faulty = state.fault
        fault = StopView(
            faulty.move, faulty.offender, faulty.resume, _observe(faulty.prior, player, None)
        )
    reserves = state.reserves
    up0, up1 = state.reserve_up
    r0, r1 = reserves
    return PlayerView(
        state.rules,
        player,
        state.to_act,
        state.foundations,
        state.houses,
        (r0[len(r0) - up0 :] if up0 else (), r1[len(r1) - up1 :] if up1 else ()),
        (len(r0) - up0, len(r1) - up1),
        (len(state.hands[0]), len(state.hands[1])),
        state.wastes,
        state.turned,
        stop,
        state.emptied,
        state.seen,
        state.passes,
        state.moves_made,
        state.houses_key,
        state.window,
        state.false_calls,
        fault,
        legal,
    )


def determinize(view: PlayerView, rng: Rng) -> GameState:
    """A complete state consistent with ``view``: the hidden cards are dealt at random.

    The face-down reserve cards are drawn first, uniformly from the hidden cards of their
    owner's pack (a face-down reserve card is always one its owner dealt: loaded cards lie
    face up), then the hands from the rest, uniformly. When an open Stop! decision follows
    a hand card turned from a waste just turned over, that hand's order is known (it was
    the waste) and kept. Observing the result for ``view.player`` gives ``view`` back, and
    the result holds every card of the rules' pack.

    Args:
        view: what the player sees.
        rng: the random generator (``crapette.deal.Rng``); the same generator state gives
            the same result.
    """
    if not isinstance(view, PlayerView):
        raise argument_type_error(PlayerView, view)
    pool = shuffled(view.hidden_cards(), rng)
    return _realize(view, pool)


def sketch(view: PlayerView) -> GameState:
    """A state with the view's visible cards, its hidden places holding the hidden cards in
    index order (face-down reserve cards from their owner's pack): a possible state, like
    every state (its constructor checks it), though not the deal itself; enough to list
    legal moves and to see what a move does to the visible cards. Internal to the library
    (bots use it); made once per view.
    """
    made = view._sketch
    if made is None:
        made = _sketch_of(view)
        object.__setattr__(view, "_sketch", made)  # a cache: not part of the value
    return made


def _sketch_of(view: PlayerView) -> GameState:
    """``sketch(view)``, made."""
    hidden = view.hidden_cards()
    if view.stop is not None:
        return _realize(view, hidden)
    # What _realize makes of the hidden cards in index order, in slices: pack 0's cards
    # come first, so each reserve takes the first of its pack, the hands the rest in order.
    split = bisect_left(hidden, PACKS[view.rules.pack].size)
    d0, d1 = view.reserves_down
    if d0 > split or d1 > len(hidden) - split:  # not the view of a possible state
        return _realize(view, hidden)
    rest = hidden[d0:split] + hidden[split + d1 :]
    n0 = view.hand_sizes[0]
    reserves = (hidden[:d0] + view.reserves_up[0], hidden[split : split + d1] + view.reserves_up[1])
    return state_of(view, reserves, (rest[:n0], rest[n0:]))


def state_of(view: PlayerView, reserves: tuple[Pile, Pile], hands: tuple[Pile, Pile]) -> GameState:
    """The state of ``view`` (with no open Stop! decision) holding these reserves and hands
    (checked by its constructor). Internal to the library (the planner's samples)."""
    return GameState(
        rules=view.rules,
        to_act=view.to_act,
        foundations=view.foundations,
        houses=view.houses,
        reserves=reserves,
        reserve_up=(len(view.reserves_up[0]), len(view.reserves_up[1])),
        hands=hands,
        wastes=view.wastes,
        turned=view.turned,
        emptied=view.emptied,
        seen=view.seen,
        passes=view.passes,
        moves_made=view.moves_made,
        window=view.window,
        false_calls=view.false_calls,
        houses_key=view.houses_key,
    )


def _pending_of(view: PlayerView) -> StopView | None:
    """The open Stop! decision or the fault of ``view`` (a state holds at most one)."""
    return view.stop if view.stop is not None else view.fault


def _known_hand(view: PlayerView) -> tuple[int, Pile] | None:
    """The hand whose order the view reveals: after a violating draw or flip from a hand
    formed by turning the waste over, that hand is the prior waste reversed, less the card
    turned or flipped."""
    pending = _pending_of(view)
    if pending is None or pending.move.action not in (Action.DRAW, Action.FLIP):
        return None
    off = pending.offender
    if pending.prior.hand_sizes[off]:
        return None
    return off, pending.prior.wastes[off][::-1][:-1]


def _realize(view: PlayerView, pool: Sequence[Card]) -> GameState:
    """The state of ``view`` with its hidden places filled from ``pool`` (in order): the
    face-down reserve cards first, the first of ``pool`` of their owner's pack, then the
    hands from the rest, in order."""
    known = _known_hand(view)
    cards = list(pool)
    if known is not None:
        taken = set(known[1])
        cards = [c for c in cards if c not in taken]
    downs: list[Pile] = [(), ()]
    chosen: set[Card] = set()
    for p in (0, 1):
        need = view.reserves_down[p]
        if not need:
            continue
        own: list[Card] = []
        owner = PACKS[view.rules.pack].owner
        for c in cards:  # the first ``need`` cards of pack p
            if owner[c] == p and c not in chosen:
                own.append(c)
                if len(own) == need:
                    break
        if len(own) < need:  # impossible under the rules (a hand-built position)
            own = [c for c in cards if c not in chosen][:need]
        chosen.update(own)
        downs[p] = tuple(own)
    if chosen:
        cards = [c for c in cards if c not in chosen]
    n0, n1 = view.hand_sizes
    hands: list[Pile] = []
    for p, n in ((0, n0), (1, n1)):
        if known is not None and known[0] == p:
            hands.append(known[1])
        else:
            hands.append(tuple(cards[:n]))
            cards = cards[n:]
    reserves = (downs[0] + view.reserves_up[0], downs[1] + view.reserves_up[1])
    pending = _pending_of(view)
    if pending is None:
        return state_of(view, reserves, (hands[0], hands[1]))
    return _with_pending(view, pending, reserves, (hands[0], hands[1]))


def _with_pending(
    view: PlayerView, pending: StopView, reserves: tuple[Pile, Pile], hands: tuple[Pile, Pile]
) -> GameState:
    """Rebuild the position before the violation (a Stop! decision's or a fault's) from the
    sampled hidden cards and replay the violating move, which opens the same Stop! decision
    or, at the start of the next turn, the same fault."""
    prior = pending.prior
    off = pending.offender
    prior_reserves = (
        reserves[0][: prior.reserves_down[0]] + prior.reserves_up[0],
        reserves[1][: prior.reserves_down[1]] + prior.reserves_up[1],
    )
    prior_hands = list(hands)
    action = pending.move.action
    if action in (Action.DRAW, Action.FLIP):
        # The card turned (drawn) or flipped (now on the waste) was the prior hand's top;
        # a prior empty hand was the waste, turned over.
        card = view.turned if action is Action.DRAW else view.wastes[off][-1]
        assert card is not None
        prior_hands[off] = hands[off] + (card,) if prior.hand_sizes[off] else ()
    before = state_of(prior, prior_reserves, (prior_hands[0], prior_hands[1]))
    after = apply_unchecked(before, pending.move)
    if view.stop is not None and after.stop is None:  # pragma: no cover - not a real view
        after = after.replace(
            stop=PendingStop(before, pending.move, off, pending.resume), to_act=view.to_act
        )
    if view.fault is not None and after.fault is None:  # pragma: no cover - not a real view
        after = after.replace(
            fault=PendingStop(before, pending.move, off, pending.resume), window=view.window
        )
    return after
