"""Text for people: [`describe_move`][crapette.text.describe_move] (a move as a sentence)
and [`board`][crapette.text.board], the one text picture of a position.

``str(state)`` is ``board(state)``; ``crapette show``, the terminal game (which only adds
colour) and the PettingZoo ``render`` all draw this same layout::

    classic · move 0
    player 1   reserve 13: [12 face down] 9♣   hand 35   waste -
      H1 K♠                 -  -   H5 5♦
      H2 7♥                 -  -   H6 Q♣
      H3 2♣                 -  -   H7 J♦
      H4 9♦                 -  -   H8 4♠
    player 0 ▶ reserve 13: [12 face down] 3♥   hand 35   waste -
    player 0 to act.

The top player's line comes first, then the houses (``H1``..``H4``, player 0's column, on
the left, ``H5``..``H8`` on the right, each bottom card first) with the foundation tops
between them (two per row, left to right ``F1``..``F8``; a tarot pack's ``F9`` and ``F10``
make a fifth row), then the bottom player's line and what happens next. ``▶`` marks the
player whose turn it is. A reserve shows how many of its cards lie face down, then its
face-up cards (cards loaded onto it lie face up on its top; ``[+2 more face up]`` counts
those beyond the last four). Cards are written ``7♠``, or with
``ascii=True`` in their short form ``7S`` (``7s`` for player 1's pack); a tarot pack's
Knight is ``N♥`` (``NH``) and its trumps ``17★`` (``17M``, ``17m``), the Excuse ``0★``.
Under ``call_window="turn_start"`` the last line says while the player to act may still
call "Stop!" (never whether the call would be right).
"""

from __future__ import annotations

from typing import Final

from crapette import _hooks
from crapette._laws import pile_name, source_card
from crapette._quote import show
from crapette.cards import Card
from crapette.errors import InvalidArgumentError
from crapette.moves import OPP_RESERVE, OPP_WASTE, Action, Move
from crapette.notation import parse_move
from crapette.outcome import outcome
from crapette.state import GameState, Pile
from crapette.views import PlayerView, sketch

__all__ = ["board", "describe_move"]

_SHOWN_UP: Final = 4
"""How many face-up reserve cards the board names; more are counted."""


def _label(card: Card, ascii: bool) -> str:
    return card.text if ascii else card.symbol


def describe_move(state: GameState, move: Move | str, *, ascii: bool = False) -> str:
    """A sentence describing ``move`` from the mover's side, such as ``"7♥ from your reserve
    to a foundation"`` or ``"turn the top card of your hand"``.

    Args:
        state: the position the move is played in.
        move: the move, or its text (read by [`parse_move`][crapette.notation.parse_move],
            so it must be legal in ``state``, as for ``apply``).
        ascii: write cards in their short form (``7H``) instead of ``7♥``.

    Raises:
        NotationError: ``move`` is a text that is not a move.
        IllegalMoveError: ``move`` is a text of a move that is not legal in ``state``.
        TypeError: ``move`` is neither a ``Move`` nor a ``str``.
    """
    if isinstance(move, str):
        move = parse_move(state, move)
    elif not isinstance(move, Move):
        raise TypeError(f"describe_move() needs a Move or a move text, not {show(move)}")
    p = state.to_act
    action = move.action
    if action is Action.DRAW:
        if state.hands[p]:
            return "turn the top card of your hand"
        return "turn your waste over as your new hand and turn its top card"
    if action is Action.DISCARD:
        card = state.turned
        what = _label(card, ascii) if card is not None else "your turned card"
        return f"put {what} on your waste, ending your turn"
    if action is Action.FLIP:
        if state.hands[p]:
            return "flip the top card of your hand onto your waste, ending your turn"
        return "turn your waste over as your new hand and flip its top card, ending your turn"
    if action is Action.END_TURN:
        return "end your turn (your hand and waste are empty)"
    if action is Action.REVEAL:
        return "turn the top card of your reserve face up"
    if action in (Action.CALL_STOP, Action.LET_STAND):
        pending = state.stop
        what = (
            f"{pending.move} ({describe_move(pending.prior, pending.move, ascii=ascii)})"
            if pending is not None
            else "move"
        )
        if action is Action.CALL_STOP:
            if pending is None and state.window:  # the fault is not named: no hint
                return 'call "Stop!" on how your opponent ended their turn'
            return f'call "Stop!" on your opponent\'s {what}'
        return f"let your opponent's {what} stand"
    cards: Pile = ()
    if move.source < 8:
        cards = state.houses[move.source][-move.count :]
    else:
        top = source_card(state, move.source)
        cards = (top,) if top is not None else ()
    if not cards:
        what = "a card"
    elif len(cards) == 1:
        what = _label(cards[0], ascii)
    else:
        what = f"{' '.join(_label(c, ascii) for c in cards)} ({len(cards)} cards)"
    joint = "onto" if move.target in (OPP_RESERVE, OPP_WASTE) else "to"
    return f"{what} from {pile_name(move.source)} {joint} {pile_name(move.target)}"


def _cards(pile: Pile, ascii: bool) -> str:
    return " ".join(_label(c, ascii) for c in pile) or "-"


def _reserve(state: GameState, p: int, ascii: bool) -> str:
    pile = state.reserves[p]
    if not pile:
        return "reserve empty"
    up = min(state.reserve_up[p], len(pile))
    down = len(pile) - up
    parts = [f"reserve {len(pile)}:"]
    if down:
        parts.append(f"[{down} face down]")
    shown = pile[len(pile) - min(up, _SHOWN_UP) :] if up else ()
    if up > len(shown):
        parts.append(f"[+{up - len(shown)} more face up]")
    if shown:
        parts.append(_cards(shown, ascii))
    return " ".join(parts)


def _player_lines(state: GameState, p: int, name: str, hidden: bool, ascii: bool) -> list[str]:
    mark = "▶" if state.turn_player == p and outcome(state) is None else " "
    waste = state.wastes[p]
    waste_text = f"waste {len(waste)}, top {_label(waste[-1], ascii)}" if waste else "waste -"
    line = f"{name} {mark} {_reserve(state, p, ascii)}   hand {len(state.hands[p])}   {waste_text}"
    if state.turned is not None and state.turn_player == p:
        line += f"   turned {_label(state.turned, ascii)}"
    lines = [line]
    if not hidden:
        pad = " " * (len(name) + 3)
        up = min(state.reserve_up[p], len(state.reserves[p]))
        down = state.reserves[p][: len(state.reserves[p]) - up]
        if down:
            lines.append(f"{pad}reserve, face down (top last): {_cards(down, ascii)}")
        if state.hands[p]:
            lines.append(f"{pad}hand (next card last): {_cards(state.hands[p], ascii)}")
        if len(waste) > 1:
            lines.append(f"{pad}waste (top last): {_cards(waste, ascii)}")
    return lines


def _status(state: GameState, names: tuple[str, str]) -> str:
    result = outcome(state)
    if result is not None:
        scores = f"{result.scores[0]}-{result.scores[1]}"
        if result.winner is not None:
            return f"The deal is over: {names[result.winner]} won, {scores}."
        return f"The deal is over: {result.reason.replace('_', ' ')}, {scores}."
    pending = state.stop
    if pending is not None:
        return (
            f"{names[state.to_act]} decides: call Stop! (stop) on {names[pending.offender]}'s"
            f" {pending.move} or let it stand (pass)."
        )
    if state.window:
        return f"{names[state.to_act]} to act (may call Stop! (stop) before the first move)."
    return f"{names[state.to_act]} to act."


def board(
    state: GameState | PlayerView,
    *,
    hidden: bool = False,
    ascii: bool = False,
    bottom: int | None = None,
    names: tuple[str, str] = ("player 0", "player 1"),
) -> str:
    """The position as text, in the layout of this module's documentation.

    Args:
        state: the position, or what one player sees of it (a
            [`PlayerView`][crapette.views.PlayerView], always drawn with ``hidden``: a view
            holds no hidden card; ``print(view)`` draws it this way).
        hidden: show only what the players can see. Otherwise each player's line is
            followed by the cards of their face-down reserve, their hand and their waste.
        ascii: write cards ``7S``/``7s`` instead of ``7♠``.
        bottom: the player drawn at the bottom (the other one is drawn on top); by default
            player 0, or the view's player.
        names: what to call player 0 and player 1.

    Raises:
        InvalidArgumentError: ``bottom`` is not 0 or 1.
    """
    if isinstance(state, PlayerView):
        bottom = state.player if bottom is None else bottom
        state, hidden = sketch(state), True
    elif bottom is None:
        bottom = 0
    if isinstance(bottom, bool) or bottom not in (0, 1):
        raise InvalidArgumentError(f"bottom must be 0 or 1, not {show(bottom)}")
    width = max(len(n) for n in names)
    label = (names[0].ljust(width), names[1].ljust(width))
    empty = "-" if ascii else "·"
    tops = [_label(f[-1], ascii) if f else empty for f in state.foundations]
    left = [f"H{i + 1} {_cards(state.houses[i], ascii)}" for i in range(4)]
    left_width = max(len(text) for text in left)
    rows = []
    for i in range((len(tops) + 1) // 2):  # 4 rows, 5 with a tarot pack's 10 foundations
        middle = f"{tops[2 * i]:>3} {tops[2 * i + 1]:>3}"
        if i < 4:
            right = f"H{i + 5} {_cards(state.houses[i + 4], ascii)}"
            rows.append(f"  {left[i]:<{left_width}}  {middle}   {right}")
        else:
            rows.append(f"  {'':<{left_width}}  {middle}")
    top = 1 - bottom
    lines = [
        f"{state.rules} · move {state.moves_made}",
        *_player_lines(state, top, label[top], hidden, ascii),
        *rows,
        *_player_lines(state, bottom, label[bottom], hidden, ascii),
        _status(state, names),
    ]
    return "\n".join(lines)


_hooks.board = board
