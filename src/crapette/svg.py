"""Pictures of positions: a whole Russian Bank table, or one card, as an SVG document.

Like ``chess.svg.board`` of python-chess, [`board`][crapette.svg.board] turns a position into one
self-contained ``<svg>`` string (no scripts, fonts, images or links to anything outside it):
Jupyter shows it (``GameState`` and ``PlayerView`` have ``_repr_svg_``), ``crapette show
--svg FILE`` writes it, the docs embed it and a web page can put it in its DOM::

    import crapette
    from crapette import svg

    state = crapette.new_game(seed=4)
    picture = svg.board(state, arrows=crapette.legal_moves(state))

The table is drawn from the viewpoint of one seat, that player at the bottom: their reserve
at the bottom right with their column of houses above it, the opponent's reserve and column
opposite (the table turned half round), the 8 foundations (10 with the tarot packs of
5 families, in 5 closer rows) between the two columns, and each
player's hand, turned card and waste beside their reserve. Face-down cards are backs (blue
for player 0's piles, red for player 1's) and each stack says how many cards it holds.

Which cards each pile draws: a house every card, fanned outward from the foundations; a
foundation and a waste their top card; a reserve one back for its face-down cards (when it
has some) and each face-up card on it; a hand one back; the turned card itself. With
``hidden=False`` and a ``GameState``, the face-down cards of reserves and hands are drawn as
faces too (one per card, greyed), for analysis.

Piles are named as in the move notation, with absolute player numbers: ``F1``..``F8``,
``H1``..``H8``, ``R0``/``R1`` (reserves), ``W0``/``W1`` (wastes), ``K0``/``K1`` (hands) and
``T`` (the turned card). With ``interactive=True`` every pile is a
``<g class="pile" data-pile="H3" data-count="4">`` holding a transparent hit area, and every
face-up card a ``<g class="card" data-card="7H">``, so that a page can attach click and drop
handlers; [`move_piles`][crapette.svg.move_piles] names the piles of a move for such a page.

The output is deterministic: the same arguments give the same string.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape
from typing import NamedTuple, TypeAlias

from crapette import (
    DISCARD,
    DRAW,
    END_TURN,
    FOUNDATION,
    HAND,
    OPP_RESERVE,
    OPP_WASTE,
    RESERVE,
    REVEAL,
    WASTE,
    Action,
    Card,
    GameState,
    Move,
    PlayerView,
    apply_unchecked,
    legal_moves,
    outcome,
)
from crapette._quote import show
from crapette.deal import Rng
from crapette.errors import InvalidArgumentError, NotationError
from crapette.moves import listed
from crapette.notation import move_from_text
from crapette.views import determinize

__all__ = ["PILE_NAMES", "board", "card", "move_piles"]

PILE_NAMES: tuple[str, ...] = (
    *(f"F{i}" for i in range(1, 9)),
    *(f"H{i}" for i in range(1, 9)),
    "R0",
    "R1",
    "W0",
    "W1",
    "K0",
    "K1",
    "T",
)
"""Every pile name used in ``data-pile`` attributes, in drawing order; a tarot pack's 10
foundations add ``F9`` and ``F10`` (drawn after ``F8``)."""

_DRAWN: tuple[str, ...] = (*PILE_NAMES[:8], "F9", "F10", *PILE_NAMES[8:])
"""Every pile name of every pack, in drawing order."""

_PileMove: TypeAlias = "Move | tuple[str, str]"

# Geometry, in viewBox units (the picture is scaled to ``width``).
_VW = 900
_VH = 662
_CW = 60  # card width
_CH = 84  # card height
_ROWS = (160, 254, 348, 442)  # tableau rows, top to bottom
_FIVE_ROWS = (160, 233, 306, 379, 452)  # 10 foundations: rows 73 apart (cards 84 high)
_TOP_ROW = 50
_BOTTOM_ROW = 552
_FLIP_X = _VW - _CW
_FLIP_Y = _TOP_ROW + _BOTTOM_ROW
_FAN = 22.0  # offset between fanned face-up cards
_FAN_LIMIT = 288.0  # room for a fan beyond its first card
_FONT = "DejaVu Sans, Segoe UI Symbol, Arial, Helvetica, sans-serif"

_FELT = "#1b6b3a"
_FELT_EDGE = "#0f4a27"
_SLOT = "#2e8b57"
_INK = "#f4f1e8"
_RED = "#c8102e"
_BLACK = "#1a1a1a"
_BACKS = ("#1f4e9c", "#a3262a")
_HIGHLIGHT = "#ffd54f"
_ARROW = "#ff8f00"


def _n(value: float) -> str:
    """A coordinate as short, stable text."""
    if value == int(value):
        return str(int(value))
    return f"{value:.1f}"


# --------------------------------------------------------------------------------------
# One card


_TRUMP_INK = "#4a2a7a"
"""The ink of a tarot trump (trumps have no colour of their own)."""

_KNIGHT = (
    "M19 68L21 55C15 51 14 44 18 38L27 27L28 19L33 25C41 27 46 34 45 43L44 50L39 46"
    "L35 47C37 55 39 61 41 68Z"
)
"""A horse's head and neck (the tarot Knight's figure), in card units."""

_STAR = "M30 22L35.3 35.3L49 35.3L38 43.7L42.4 57L30 48.8L17.6 57L22 43.7L11 35.3L24.7 35.3Z"
"""A five-pointed star, the trumps' emblem behind the trump's number, in card units."""


def _face(c: Card, x: float, y: float, *, down: bool = False) -> str:
    """A face-up card with its top-left corner at (x, y), in viewBox units: its rank and
    suit in two corners and in the middle a suit sign (pips), a letter (J, Q, K), the
    Knight's figure (a horse's head, tarot packs), or a trump's number large over a star
    (the Excuse is trump 0)."""
    label = c.symbol[:-1]  # "10", "N", "17"; the last character is the suit or "★"
    suit = c.symbol[-1]
    colour = _TRUMP_INK if c.trump else _RED if c.red else _BLACK
    corner = (
        f'<text x="4" y="15" font-size="14" font-weight="bold">{label}'
        f'<tspan x="4" dy="14" font-size="13" font-weight="normal">{suit}</tspan></text>'
        f'<text x="56" y="15" font-size="14" font-weight="bold" text-anchor="end">{label}'
        f'<tspan x="56" dy="14" font-size="13" font-weight="normal">{suit}</tspan></text>'
    )
    if c.trump:
        middle = (
            f'<path class="emblem" d="{_STAR}" fill="#e8dcf5" stroke="{_TRUMP_INK}"'
            ' stroke-width="0.8"/>'
            f'<text x="30" y="52" font-size="{26 if len(label) < 2 else 22}" font-weight="bold"'
            f' text-anchor="middle">{label}</text>'
        )
    elif label == "N":
        middle = (
            f'<path class="figure" d="{_KNIGHT}" fill="{colour}" fill-opacity="0.85"/>'
            '<circle cx="35" cy="33" r="1.6" fill="#fffdf7"/>'
        )
    elif label in ("J", "Q", "K"):
        middle = (
            f'<text x="30" y="53" font-size="24" font-weight="bold" text-anchor="middle">'
            f"{label}</text>"
        )
    else:
        middle = f'<text x="30" y="55" font-size="28" text-anchor="middle">{suit}</text>'
    grey = (
        f'<rect width="{_CW}" height="{_CH}" rx="5" fill="#000" fill-opacity="0.25"/>'
        if down
        else ""
    )
    kind = "card down" if down else "card"
    return (
        f'<g class="{kind}" data-card="{c.text}" transform="translate({_n(x)},{_n(y)})"'
        f' fill="{colour}">'
        f'<rect width="{_CW}" height="{_CH}" rx="5" fill="#fffdf7" stroke="#7a7a7a"'
        ' stroke-width="0.8"/>'
        f"{corner}{middle}"
        f'<g transform="rotate(180 30 42)">{corner}</g>'
        f'<circle cx="30" cy="76" r="2.2" fill="{_BACKS[c.pack]}"/>'
        f"{grey}</g>"
    )


def _back(x: float, y: float, owner: int) -> str:
    """A card back with its top-left corner at (x, y); the colour tells the pile's owner."""
    return (
        f'<g class="card back" transform="translate({_n(x)},{_n(y)})">'
        f'<rect width="{_CW}" height="{_CH}" rx="5" fill="{_BACKS[owner]}" stroke="#fff"'
        ' stroke-width="1.5"/>'
        f'<rect x="5" y="5" width="{_CW - 10}" height="{_CH - 10}" rx="3" fill="none"'
        ' stroke="#fff" stroke-opacity="0.55"/>'
        '<path d="M30 18L47 42L30 66L13 42Z" fill="#fff" fill-opacity="0.18" stroke="#fff"'
        ' stroke-opacity="0.55"/>'
        "</g>"
    )


def _check_seat(name: str, value: int) -> int:
    if isinstance(value, bool) or value not in (0, 1):
        raise InvalidArgumentError(f"{name} must be 0 or 1, not {show(value)}")
    return value


MAX_WIDTH = 100_000
"""The widest picture, in pixels."""


def _check_width(width: float) -> None:
    if isinstance(width, bool) or not isinstance(width, int | float) or not 0 < width <= MAX_WIDTH:
        raise InvalidArgumentError(
            f"width must be a number of pixels above 0 and at most {MAX_WIDTH}, not {show(width)}"
        )


def _any_card(value: int | str) -> Card:
    """A card of the standard pack by index or text, else (a Knight ``NH``, a trump
    ``17M``) of the 78-card tarot pack, which holds every tarot card."""
    if isinstance(value, str):
        try:
            return Card(value)
        except NotationError:
            return Card(value, "tarot78")
    return Card(value)


def card(card: Card | int | str | None, *, width: float = 72) -> str:
    """One card as a small ``<svg>`` document: its face, or a back for ``None``.

    Args:
        card: the card (a ``Card`` of any pack, a standard card's index, or a card's text
            such as ``"7H"``, ``"NH"`` or ``"17M"``), or ``None`` for a card back.
        width: the picture's width in pixels (the height is 1.4 times it).

    Raises:
        InvalidArgumentError: ``width`` is not positive, or ``card`` is an index outside
            0..103.
        NotationError: ``card`` is a text that is not a card.
    """
    _check_width(width)
    face = None if card is None else card if isinstance(card, Card) else _any_card(card)
    inner = _back(0, 0, 0) if face is None else _face(face, 0, 0)
    label = "a card back" if face is None else f"card {face.text}"
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}"'
        f' height="{_n(round(width * _CH / _CW, 1))}" viewBox="-1 -1 {_CW + 2} {_CH + 2}"'
        f' role="img" aria-label="{label}" font-family="{_FONT}">{inner}</svg>'
    )


# --------------------------------------------------------------------------------------
# The table


class _Seat(NamedTuple):
    """One player's own piles, as the picture may show them."""

    reserve_down: int
    reserve_down_cards: tuple[Card, ...] | None  # None: drawn as backs
    reserve_up: tuple[Card, ...]
    hand: int
    hand_cards: tuple[Card, ...] | None  # None: drawn as a back
    waste: tuple[Card, ...]


class _Table(NamedTuple):
    """The position reduced to what the picture may show."""

    to_act: int
    turn_player: int
    foundations: tuple[tuple[Card, ...], ...]
    houses: tuple[tuple[Card, ...], ...]
    seats: tuple[_Seat, _Seat]
    turned: Card | None
    caption: str


def _cards(pile: Iterable[int]) -> tuple[Card, ...]:
    return tuple(c if isinstance(c, Card) else Card(c) for c in pile)


def _table(position: GameState | PlayerView, hidden: bool) -> _Table:
    if isinstance(position, GameState):
        seats = []
        for p in (0, 1):
            reserve, up = position.reserves[p], position.reserve_up[p]
            down = len(reserve) - up
            seats.append(
                _Seat(
                    down,
                    None if hidden else _cards(reserve[:down]),
                    _cards(reserve[down:]),
                    len(position.hands[p]),
                    None if hidden else _cards(position.hands[p]),
                    _cards(position.wastes[p]),
                )
            )
        result = outcome(position)
    elif isinstance(position, PlayerView):
        seats = [
            _Seat(
                position.reserves_down[p],
                None,
                _cards(position.reserves_up[p]),
                position.hand_sizes[p],
                None,
                _cards(position.wastes[p]),
            )
            for p in (0, 1)
        ]
        result = None
    else:
        raise TypeError(f"board() needs a GameState or a PlayerView, not {type(position).__name__}")
    if result is not None:
        if result.winner is None:
            caption = f"The deal is over ({result.reason.replace('_', ' ')})"
        else:
            caption = f"Player {result.winner} wins the deal"
        caption += f": {result.scores[0]}-{result.scores[1]}"
    elif position.stop is not None:
        stop = position.stop
        caption = (
            f"Player {position.to_act}: call Stop! on player {stop.offender}'s {stop.move}"
            " or let it stand"
        )
    else:
        caption = f"Player {position.to_act} to act"
    caption += f" · {position.rules} · move {position.moves_made}"
    return _Table(
        position.to_act,
        position.turn_player,
        tuple(_cards(f) for f in position.foundations),
        tuple(_cards(h) for h in position.houses),
        (seats[0], seats[1]),
        None if position.turned is None else Card(position.turned),
        caption,
    )


class _Spot(NamedTuple):
    """Where a pile lies: its first card's corner and the way its fan runs (+1 right)."""

    x: float
    y: float
    way: int


def _spots(seat: int, turn_player: int, foundations: int = 8) -> dict[str, _Spot]:
    """Every pile's place, seen from ``seat`` (the table turned half round for seat 1); 10
    ``foundations`` take 5 rows, each covering the foot of the one above."""
    spots: dict[str, _Spot] = {}
    rows = _ROWS if foundations == 8 else _FIVE_ROWS
    for i in range(foundations // 2):
        spots[f"F{2 * i + 1}"] = _Spot(386, rows[i], 1)
        spots[f"F{2 * i + 2}"] = _Spot(454, rows[i], 1)
    for i in range(4):
        spots[f"H{i + 1}"] = _Spot(542, _ROWS[3 - i], 1)
        spots[f"H{i + 5}"] = _Spot(298, _ROWS[i], -1)
    for kind, x in (("K", 24), ("W", 386), ("R", 542)):
        spots[f"{kind}0"] = _Spot(x, _BOTTOM_ROW, 1)
        spots[f"{kind}1"] = _flip(spots[f"{kind}0"])
    t = _Spot(208, _BOTTOM_ROW, 1)
    spots["T"] = t if turn_player == 0 else _flip(t)
    if seat == 1:
        spots = {name: _flip(spot) for name, spot in spots.items()}
    return spots


def _flip(spot: _Spot) -> _Spot:
    return _Spot(_FLIP_X - spot.x, _FLIP_Y - spot.y, -spot.way)


def _step(count: int, limit: float, step: float = _FAN) -> float:
    """The offset between ``count`` fanned cards so that they fit in ``limit``."""
    if count <= 1:
        return 0.0
    return min(step, limit / (count - 1))


class _Drawn(NamedTuple):
    """A pile as drawn: its SVG, its bounding box and where a card arriving would lie."""

    svg: str
    box: tuple[float, float, float, float]
    land: tuple[float, float]
    cards: tuple[tuple[float, float], ...]  # the corner of each drawn card, bottom first


def _fan(
    spot: _Spot, start: float, faces: Sequence[tuple[Card | None, bool]], owner: int, step: float
) -> tuple[list[str], list[tuple[float, float]]]:
    """Draw cards fanned from ``start`` (an offset along the fan) by ``step``."""
    parts: list[str] = []
    corners: list[tuple[float, float]] = []
    for k, (c, down) in enumerate(faces):
        x = spot.x + spot.way * (start + k * step)
        parts.append(_back(x, spot.y, owner) if c is None else _face(c, x, spot.y, down=down))
        corners.append((x, spot.y))
    return parts, corners


def _slot(spot: _Spot, name: str) -> str:
    return (
        f'<rect x="{_n(spot.x)}" y="{_n(spot.y)}" width="{_CW}" height="{_CH}" rx="5"'
        f' fill="none" stroke="{_SLOT}" stroke-width="1.5" stroke-dasharray="4 3"/>'
        f'<text x="{_n(spot.x + _CW / 2)}" y="{_n(spot.y + _CH / 2 + 5)}" font-size="14"'
        f' text-anchor="middle" fill="{_SLOT}">{name}</text>'
    )


def _draw_pile(name: str, spot: _Spot, table: _Table) -> _Drawn:
    """The cards of one pile at its spot."""
    kind = name[0]
    faces: list[tuple[Card | None, bool]] = []
    owner = int(name[1]) if kind in "RWK" else 0
    start = 0.0
    step = _FAN
    if kind == "F":
        pile = table.foundations[int(name[1:]) - 1]
        faces = [(pile[-1], False)] if pile else []
    elif kind == "H":
        pile = table.houses[int(name[1:]) - 1]
        faces = [(c, False) for c in pile]
        step = _step(len(pile), _FAN_LIMIT)
    elif kind == "W":
        waste = table.seats[owner].waste
        faces = [(waste[-1], False)] if waste else []
    elif kind == "T":
        faces = [(table.turned, False)] if table.turned is not None else []
    elif kind == "K":
        s = table.seats[owner]
        if s.hand_cards is not None:
            n = len(s.hand_cards)
            faces = [(c, k < n - 1) for k, c in enumerate(s.hand_cards)]
            step = _step(len(faces), 114, 8)
        elif s.hand:
            faces = [(None, False)]
    else:  # a reserve
        s = table.seats[owner]
        if s.reserve_down_cards is not None:
            faces = [(c, True) for c in s.reserve_down_cards]
            faces += [(c, False) for c in s.reserve_up]
            step = _step(len(faces), _FAN_LIMIT - 40, 10)
        else:
            faces = [(None, False)] if s.reserve_down else []
            ups = [(c, False) for c in s.reserve_up]
            if faces and ups:
                start = 16.0
            step = _step(len(ups), _FAN_LIMIT - 40)
            parts, corners = _fan(spot, 0.0, faces, owner, 0.0)
            more, more_corners = _fan(spot, start, ups, owner, step)
            return _finish(spot, parts + more, corners + more_corners, name, step)
    parts, corners = _fan(spot, start, faces, owner, step)
    return _finish(spot, parts, corners, name, step)


def _finish(
    spot: _Spot,
    parts: list[str],
    corners: list[tuple[float, float]],
    name: str,
    step: float,
) -> _Drawn:
    if not parts:
        parts = [_slot(spot, name)]
    xs = [x for x, _ in corners] or [spot.x]
    box = (min(xs), spot.y, max(xs) + _CW - min(xs), float(_CH))
    if name[0] == "H" and corners:
        land = (corners[-1][0] + spot.way * (step or _FAN), spot.y)
    elif corners:
        land = corners[-1]
    else:
        land = (spot.x, spot.y)
    return _Drawn("".join(parts), box, land, tuple(corners))


def _count(name: str, table: _Table) -> int:
    kind = name[0]
    if kind == "F":
        return len(table.foundations[int(name[1:]) - 1])
    if kind == "H":
        return len(table.houses[int(name[1:]) - 1])
    if kind == "T":
        return int(table.turned is not None)
    s = table.seats[int(name[1])]
    if kind == "W":
        return len(s.waste)
    if kind == "K":
        return s.hand
    return s.reserve_down + len(s.reserve_up)


def _label(name: str, spot: _Spot, table: _Table) -> str:
    """The small caption of a pile: its name, and its size for the stacks."""
    kind = name[0]
    if kind == "F":
        return ""
    if kind == "H":
        x = spot.x - 14 if spot.way > 0 else spot.x + _CW + 14
        y = spot.y + _CH / 2 + 4
        return (
            f'<text x="{_n(x)}" y="{_n(y)}" font-size="12" text-anchor="middle"'
            f' fill="{_INK}" fill-opacity="0.8">{name}</text>'
        )
    size = _count(name, table)
    words = {"R": "reserve", "W": "waste", "K": "hand", "T": "turned"}[kind]
    text = f"{name} {words}" if kind == "T" else f"{name} {words} · {size}"
    if kind == "R" and table.seats[int(name[1])].reserve_down:
        text += f" ({table.seats[int(name[1])].reserve_down} down)"
    below = spot.y > _VH / 2
    y = spot.y + _CH + 14 if below else spot.y - 6
    x = spot.x if spot.way > 0 else spot.x + _CW
    anchor = "start" if spot.way > 0 else "end"
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="12" text-anchor="{anchor}"'
        f' fill="{_INK}">{escape(text)}</text>'
    )


def _mover(position: GameState | PlayerView, move: Move) -> int:
    """Who made ``move``, the move that led to ``position``."""
    stop = position.stop
    if stop is not None and stop.move == move:
        return stop.offender
    if move in (DISCARD, END_TURN):
        return 1 - position.turn_player
    return position.turn_player


def move_piles(
    position: GameState | PlayerView, move: Move | str, *, player: int | None = None
) -> tuple[str, str] | None:
    """The pile names (as in ``data-pile``) a move takes a card from and puts it on.

    ``move`` is a move of ``player`` (default: the player to act) in ``position``, the
    position before it is made; a foundation target is the pile the engine will use.
    ``draw`` is ``("K0", "T")`` for player 0, ``discard`` ``("T", "W0")``, ``reveal``
    ``("R0", "R0")``; ``end``, ``stop`` and ``pass`` move no card and give ``None``.

    Args:
        position: the position before the move.
        move: a ``Move`` or its text in the relative form (``"R-F"``, ``"H2-H5x3"``).
        player: who makes the move (default ``position.to_act``).

    Raises:
        NotationError: ``move`` is a text that is not a move.
        InvalidArgumentError: ``player`` is not 0 or 1.
    """
    if isinstance(move, str):
        move = move_from_text(move)
    p = position.to_act if player is None else _check_seat("player", player)
    if move == DRAW:
        return (f"K{p}", "T")
    if move == DISCARD:
        return ("T", f"W{p}")
    if move == REVEAL:
        return (f"R{p}", f"R{p}")
    if move.action is not Action.PLAY:
        return None
    source = _source_name(move, p)
    target = {OPP_RESERVE: f"R{1 - p}", OPP_WASTE: f"W{1 - p}"}.get(move.target)
    if target is None and move.target != FOUNDATION:
        target = f"H{move.target + 1}"
    if target is None:
        target = _foundation_target(position, move) if p == position.to_act else "F"
    return (source, target)


def _foundation_target(position: GameState | PlayerView, move: Move) -> str:
    """The foundation the engine puts the card of ``move`` on (``"F"`` if the move is not
    legal): the engine itself decides, on the position or on a state drawn from the view
    (the choice depends on face-up cards only)."""
    if isinstance(position, PlayerView):
        if move not in position.legal_moves():
            return "F"
        state = determinize(position, Rng(0))
    else:
        state = position
        if not listed(move, legal_moves(state)):
            return "F"
    after = apply_unchecked(state, move).foundations
    for i, (old, new) in enumerate(zip(state.foundations, after, strict=True)):
        if len(new) > len(old):
            return f"F{i + 1}"
    return "F"  # pragma: no cover - a legal foundation move always grows a foundation


def _source_name(move: Move, p: int) -> str:
    names = {RESERVE: f"R{p}", HAND: "T", WASTE: f"W{p}"}
    return names.get(move.source) or f"H{move.source + 1}"


def _resolve(
    position: GameState | PlayerView, move: _PileMove, *, after: bool
) -> tuple[str, str] | None:
    if isinstance(move, tuple):
        source, target = move
        for name in (source, target):
            if name not in _DRAWN and name != "F":
                raise InvalidArgumentError(
                    f"unknown pile name {show(name)}: expected one of {', '.join(PILE_NAMES)}"
                )
        return (source, target)
    if not isinstance(move, Move):
        raise TypeError(f"expected a Move or a pair of pile names, not {move!r}")
    if not after:
        return move_piles(position, move)
    p = _mover(position, move)
    if move.action is Action.PLAY and move.target == FOUNDATION:
        # After the fact the pile that took the card is unknown: mark all of them.
        return (_source_name(move, p), "F")
    return move_piles(position, move, player=p)


def _anchor(name: str, drawn: dict[str, _Drawn], which: str, count: int = 1) -> tuple[float, float]:
    """The centre of a pile's card that an arrow leaves (``which="from"``) or reaches."""
    pile = drawn[name]
    if name == "F":
        return (454.0, (_ROWS[1] + _ROWS[2] + _CH) / 2)
    if which == "from":
        corners = pile.cards
        x, y = corners[-count] if len(corners) >= count else pile.land
    else:
        x, y = pile.land
    return (x + _CW / 2, y + _CH / 2)


def _highlight(name: str, drawn: dict[str, _Drawn]) -> str:
    if name == "F":
        x, y, w, h = 386.0, float(_ROWS[0]), 128.0, float(_ROWS[3] + _CH - _ROWS[0])
    else:
        x, y, w, h = drawn[name].box
    return (
        f'<rect class="highlight" data-pile="{name}" x="{_n(x - 4)}" y="{_n(y - 4)}"'
        f' width="{_n(w + 8)}" height="{_n(h + 8)}" rx="8" fill="{_HIGHLIGHT}"'
        f' fill-opacity="0.18" stroke="{_HIGHLIGHT}" stroke-width="3.5"/>'
    )


def _arrow(start: tuple[float, float], end: tuple[float, float], source: str, target: str) -> str:
    (x1, y1), (x2, y2) = start, end
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5
    if length < 1:
        # A move onto its own pile (reveal): a ring on the card.
        return (
            f'<circle class="arrow" data-from="{source}" data-to="{target}" cx="{_n(x1)}"'
            f' cy="{_n(y1)}" r="20" fill="none" stroke="{_ARROW}" stroke-width="5"'
            ' stroke-opacity="0.85"/>'
        )
    ux, uy = dx / length, dy / length
    head = 18.0
    bx, by = x2 - ux * head, y2 - uy * head
    px, py = -uy * 10, ux * 10
    points = f"{_n(x2)},{_n(y2)} {_n(bx + px)},{_n(by + py)} {_n(bx - px)},{_n(by - py)}"
    return (
        f'<g class="arrow" data-from="{source}" data-to="{target}" fill="{_ARROW}"'
        f' stroke="{_ARROW}" opacity="0.85">'
        f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(bx)}" y2="{_n(by)}" stroke-width="6"'
        ' stroke-linecap="round"/>'
        f'<polygon points="{points}" stroke="none"/></g>'
    )


def board(
    position: GameState | PlayerView,
    *,
    seat: int | None = None,
    hidden: bool = True,
    last_move: Move | tuple[str, str] | None = None,
    arrows: Iterable[Move | tuple[str, str]] = (),
    width: float = 900,
    interactive: bool = False,
) -> str:
    """The whole table as one ``<svg>`` document.

    Args:
        position: a ``GameState``, or a ``PlayerView`` (whose hidden cards are always
            backs).
        seat: the player drawn at the bottom (default: the view's player, or 0).
        hidden: draw the face-down cards (reserve cards below the face-up ones, both hands)
            as backs; ``False`` shows a ``GameState``'s face-down cards too, greyed.
        last_move: the move that led to ``position``, whose source and target piles are
            highlighted: a ``Move`` (its player is worked out from the position; a
            foundation target then highlights all the foundations, since the position no
            longer says which pile took the card) or a pair of pile names such as
            ``("H3", "F2")`` (see [`move_piles`][crapette.svg.move_piles], called on the
            position before it).
        arrows: moves to draw as arrows: ``Move`` values of the player to act in
            ``position`` (legal moves, say) or pairs of pile names.
        width: the picture's width in pixels (the height follows: 0.72 times it).
        interactive: add ``data-pile``/``data-count`` to each pile and a transparent hit
            area covering it, for click and drop handlers (cards always carry
            ``data-card``).

    Raises:
        TypeError: ``position`` is not a ``GameState`` or a ``PlayerView``.
        InvalidArgumentError: a bad seat, width or pile name.
    """
    if seat is None:
        seat = position.player if isinstance(position, PlayerView) else 0
    _check_seat("seat", seat)
    _check_width(width)
    table = _table(position, hidden)
    spots = _spots(seat, table.turn_player, len(table.foundations))
    names = [name for name in _DRAWN if name in spots]
    drawn = {name: _draw_pile(name, spots[name], table) for name in names}
    return "".join(
        [
            *_frame(table, seat, width, interactive),
            *(_pile_group(name, spots[name], drawn[name], table, interactive) for name in names),
            *_overlays(position, last_move, arrows, drawn),
            "</svg>",
        ]
    )


def _frame(table: _Table, seat: int, width: float, interactive: bool) -> list[str]:
    """The ``<svg>`` element, the felt, the caption and the players' names."""
    height = width * _VH / _VW
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="crapette-board" width="{_n(width)}"'
        f' height="{_n(round(height, 1))}" viewBox="0 0 {_VW} {_VH}" role="img"'
        f' aria-label="Russian Bank table seen by player {seat}" font-family="{_FONT}"'
        + (f' data-seat="{seat}" data-to-act="{table.to_act}"' if interactive else "")
        + ">",
        f'<rect width="{_VW}" height="{_VH}" rx="18" fill="{_FELT}" stroke="{_FELT_EDGE}"'
        ' stroke-width="6"/>',
        f'<text x="{_VW / 2:.0f}" y="21" font-size="14" text-anchor="middle"'
        f' fill="{_INK}">{escape(table.caption)}</text>',
    ]
    for p in (0, 1):
        bottom = p == seat
        marker = "● " if table.to_act == p else ""
        lx, anchor = (_VW - 20, "end") if bottom else (20, "start")
        ly = (_BOTTOM_ROW if bottom else _TOP_ROW) + _CH / 2 + 5
        out.append(
            f'<text x="{lx}" y="{_n(ly)}" font-size="15" font-weight="bold" text-anchor="{anchor}"'
            f' fill="{_INK}">{marker}Player {p}</text>'
        )
    return out


def _pile_group(name: str, spot: _Spot, pile: _Drawn, table: _Table, interactive: bool) -> str:
    """One pile as a ``<g class="pile">``, with its hit area when ``interactive``."""
    attrs = ' class="pile"'
    hit = ""
    if interactive:
        attrs += f' data-pile="{name}" data-count="{_count(name, table)}"'
        x, y, w, h = pile.box
        if name[0] == "H":
            w = max(w, _FAN_LIMIT + _CW)
            x = spot.x if spot.way > 0 else spot.x + _CW - w
        hit = (
            f'<rect class="hit" x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}"'
            ' fill="none" pointer-events="all"/>'
        )
    return f"<g{attrs}>{hit}{pile.svg}{_label(name, spot, table)}</g>"


def _overlays(
    position: GameState | PlayerView,
    last_move: Move | tuple[str, str] | None,
    arrows: Iterable[Move | tuple[str, str]],
    drawn: dict[str, _Drawn],
) -> list[str]:
    """The highlight of the last move and the arrows, over the piles."""
    out = []
    if last_move is not None:
        piles = _resolve(position, last_move, after=True)
        if piles is not None:
            out.append(
                '<g class="last-move">'
                + "".join(_highlight(n, drawn) for n in dict.fromkeys(piles))
                + "</g>"
            )
    lines = []
    for move in arrows:
        piles = _resolve(position, move, after=False)
        if piles is None:
            continue
        count = move.count if isinstance(move, Move) else 1
        start = _anchor(piles[0], drawn, "from", count)
        end = _anchor(piles[1], drawn, "to")
        lines.append(_arrow(start, end, *piles))
    if lines:
        out.append('<g class="arrows">' + "".join(lines) + "</g>")
    return out
