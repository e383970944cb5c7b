"""Text notation: moves and positions.

Cards have their short form in [`crapette.cards`][crapette.cards] (``7H`` of pack 0, ``7h`` of pack
1). This module adds:

* **moves**: [`format_move`][crapette.notation.format_move] /
  [`parse_move`][crapette.notation.parse_move] (``R-F``, ``H3-H5``, ``T-OW``, ``H2-H5x3``,
  ``draw`` ...); ``format_move(move)`` is ``str(move)``, the one move notation
  ([`describe_move`][crapette.text.describe_move] turns a move into a sentence);
* **positions**: [`format_position`][crapette.notation.format_position] /
  [`parse_position`][crapette.notation.parse_position], one line that holds a complete
  [`GameState`][crapette.GameState] (like chess's FEN),
  [`format_public_position`][crapette.notation.format_public_position] (hidden cards
  written ``??``); [`validate_position`][crapette.state.validate_position] (defined
  beside ``GameState`` in ``crapette.state``) is importable from here too.

``docs/notation.md`` specifies every format precisely.
"""

from __future__ import annotations

import re
from typing import Any, Final, NamedTuple

from crapette import _hooks
from crapette._engine import apply
from crapette._laws import illegal_move_error, refusal, source_card
from crapette._movegen import legal_moves
from crapette._quote import quote, show
from crapette.cards import (
    PACKS,
    RANK_CHARS,
    STANDARD,
    TAROT_RANK_CHARS,
    Card,
    Pack,
)
from crapette.errors import (
    IllegalMoveError,
    InvalidArgumentError,
    InvalidMoveError,
    InvalidRulesError,
    NotationError,
)
from crapette.moves import (
    ALL_MOVES,
    CALL_STOP,
    DISCARD,
    DRAW,
    END_TURN,
    FLIP,
    FOUNDATION,
    HAND,
    LET_STAND,
    MAX_GROUP,
    OPP_RESERVE,
    OPP_WASTE,
    RESERVE,
    REVEAL,
    WASTE,
    Move,
    listed,
)
from crapette.rules import Ruleset
from crapette.state import GameState, Pile, validate_position

__all__ = [
    "UNKNOWN_CARD",
    "format_move",
    "format_position",
    "format_public_position",
    "parse_move",
    "parse_position",
    "validate_position",
]

UNKNOWN_CARD: Final = "??"
"""How a public position writes a card its reader cannot see."""

_KEYWORDS: Final[dict[str, Move]] = {
    "draw": DRAW,
    "discard": DISCARD,
    "end": END_TURN,
    "reveal": REVEAL,
    "stop": CALL_STOP,
    "pass": LET_STAND,
    "flip": FLIP,
}
_BY_STR: Final[dict[str, Move]] = {str(m): m for m in ALL_MOVES}
_SOURCE_WORDS: Final = "R, T, W, R0, R1, W0, W1, H1..H8 or a card such as 7H"
_TARGET_WORDS: Final = "F, H1..H8, R0, R1, W0, W1, OR or OW"


# --------------------------------------------------------------------------------------
# Moves


class _MoveText(NamedTuple):
    """The syntax of a move, before it is resolved against a position."""

    keyword: Move | None
    source: str  # "R" "T" "W" "R0" "R1" "W0" "W1" "H1".."H8" or a card text
    target: str  # "F" "H1".."H8" "OR" "OW" "R0" "R1" "W0" "W1"
    n: int | None
    card: str | None  # the source card's text, when the source names one (read in the
    # position's pack kind when the move is resolved)


_HOUSE_RE: Final = re.compile(r"[Hh][1-8]\Z")

WHITESPACE: Final = " \t\r\n"
"""The white space the text formats allow (where they allow any): ASCII space, tab, carriage
return and line feed. Other characters, such as a no-break space, are errors."""

MAX_HOUSE: Final = 13
"""The most cards a house can hold: a run from a King down to an Ace."""


def _check_chars(text: str, body: str, base: int) -> None:
    """Refuse any character that cannot occur in a move (letters, digits and ``-`` only)."""
    for i, ch in enumerate(body):
        if not (ch.isascii() and (ch.isalnum() or ch == "-")):
            raise NotationError(
                f"unexpected character {ch!r} at {base + i} in move {quote(text, base + i)}",
                text,
                base + i,
            )


def _scan_move(text: str, offset: int = 0) -> _MoveText:
    """Check the syntax of a move (no position needed). ``offset`` is added to every
    character position reported, for callers that parse a longer text."""
    lead = len(text) - len(text.lstrip(WHITESPACE))
    body = text.strip(WHITESPACE)
    base = offset + lead
    if not body:
        raise NotationError(
            f"expected a move (draw, discard, end, reveal, stop, pass, flip or SOURCE-TARGET) at"
            f" {base}, found nothing",
            text,
            base,
        )
    _check_chars(text, body, base)
    word = body.lower()
    if word in _KEYWORDS:
        return _MoveText(_KEYWORDS[word], "", "", None, None)
    dash = body.find("-")
    if dash < 0:
        if _is_source(body):
            raise NotationError(
                f"expected '-' after the source at {base + len(body)} in move {quote(text)}",
                text,
                base + len(body),
            )
        if body.isalpha():
            raise NotationError(
                f"unknown move {quote(body)} at {base}: expected draw, discard, end, reveal,"
                " stop, pass, flip or SOURCE-TARGET",
                text,
                base,
            )
        raise NotationError(
            f"expected '-' after the source at {base + _token_end(body)} in move {quote(text)}",
            text,
            base + _token_end(body),
        )
    src = body[:dash]
    card: str | None = None
    upper = src.upper()
    if upper in ("R", "T", "W", "R0", "R1", "W0", "W1") or _HOUSE_RE.match(src):
        source = upper
    else:
        # a card of any pack kind (tarot78's texts hold every other pack's): the position's
        # pack kind reads it when the move is resolved
        for deck in (STANDARD, PACKS["tarot78"]):
            try:
                source = deck.parse(src).text
            except NotationError:
                continue
            card = source
            break
        else:
            raise NotationError(
                f"expected a source ({_SOURCE_WORDS}) at {base} in move {quote(text)}",
                text,
                base,
            ) from None
    rest = body[dash + 1 :]
    at = base + dash + 1
    size = next((n for n in (2, 1) if len(rest) >= n and rest[:n].upper() in _TARGETS), 0)
    if not size:
        raise NotationError(
            f"expected a target ({_TARGET_WORDS}) at {at} in move {quote(text)}", text, at
        )
    target = rest[:size].upper()
    tail = rest[size:]
    count: int | None = None
    if tail:
        match = re.fullmatch(r"[xX]([0-9]{1,2})", tail)
        if match is None or not 1 <= int(match.group(1)) <= MAX_GROUP:
            pos = at + size + (1 if tail[0] in "xX" else 0)
            what = (
                f"a count from 1 to {MAX_GROUP}"
                if tail[0] in "xX"
                else "the end of the move or 'x'"
            )
            raise NotationError(f"expected {what} at {pos} in move {quote(text)}", text, pos)
        count = int(match.group(1))
    return _MoveText(None, source, target, count, card)


_TARGETS: Final = frozenset(
    ("F", "OR", "OW", "R0", "R1", "W0", "W1", *(f"H{i}" for i in range(1, 9)))
)


def _is_source(token: str) -> bool:
    if token.upper() in ("R", "T", "W", "R0", "R1", "W0", "W1") or _HOUSE_RE.match(token):
        return True
    for deck in (STANDARD, PACKS["tarot78"]):
        try:
            deck.parse(token)
        except NotationError:
            continue
        return True
    return False


def _token_end(body: str) -> int:
    match = re.match(r"[A-Za-z0-9?]*", body)
    return match.end() if match else 0


def check_move_text(text: str, offset: int = 0) -> None:
    """Check the syntax of a move text without a position (``parse_move`` also checks that
    the move is legal in its position).

    Args:
        text: the move text.
        offset: added to the character position reported in an error (for a move read
            from inside a longer text).

    Raises:
        NotationError: the text is not a move, with the character position.
    """
    _scan_move(text, offset)


def move_from_text(text: str) -> Move:
    """The move written in its relative form, ``str(move)`` (``R-OR``, ``H2-H5x3``,
    ``draw``), with no position needed.

    Raises:
        NotationError: the text is not such a move.
    """
    move = _BY_STR.get(text)
    if move is None and text.isascii():
        body = text.strip(WHITESPACE)
        move = _BY_STR.get(body.upper().replace("X", "x")) or _KEYWORDS.get(body.lower())
    if move is None:
        raise NotationError(
            f"expected a move in relative form (R-F, T-H3, H2-H5x3, R-OR, draw, ...) at 0,"
            f" found {quote(text)}",
            text,
            0,
        )
    return move


def parse_move(state: GameState, text: str) -> Move:
    """Parse a move written for ``state`` and check that it is legal there.

    Accepted forms (case-insensitive except in card texts, whose suit letter tells the pack):
    ``draw``, ``discard``, ``end``, ``reveal``, ``stop``, ``pass``, and ``SOURCE-TARGET`` with
    an optional ``xN`` count. A source is ``R`` (your reserve), ``T`` (your turned card),
    ``W`` (your waste), ``R0``/``R1``/``W0``/``W1`` (yours, by player number), ``H1``..``H8``
    or the card itself (``7H-F``; for a group, its bottom card). A target is ``F``,
    ``H1``..``H8``, the opponent's ``R0``/``R1``/``W0``/``W1`` or, relatively, ``OR``/``OW``.

    Raises:
        NotationError: malformed text (with the character position and what was expected).
        IllegalMoveError: a well-formed move that is not legal in ``state``.
    """
    if not isinstance(text, str):
        raise TypeError(f"a move text must be a str, not {type(text).__name__}")
    move = _resolve(state, _scan_move(text), text)
    if not listed(move, legal_moves(state)):
        raise illegal_move_error(state, move, refusal(state, move))
    return move


def _resolve(state: GameState, parsed: _MoveText, text: str) -> Move:
    if parsed.keyword is not None:
        return parsed.keyword
    p = state.to_act
    count = parsed.n
    if parsed.card is not None:
        try:
            card = PACKS[state.rules.pack].parse(parsed.card)
        except NotationError:
            raise IllegalMoveError(
                f"move {quote(text)}: there is no {parsed.card} in the {state.rules.pack} pack"
            ) from None
        source, depth = _locate(state, card)
        if count is not None and count != depth:
            raise IllegalMoveError(
                f"move {quote(text)}: {card.text} would move {depth} card(s), not {count}"
            )
        count = depth
    elif parsed.source in ("R", "T", "W"):
        source = {"R": RESERVE, "T": HAND, "W": WASTE}[parsed.source]
    elif parsed.source[0] == "H":
        source = int(parsed.source[1]) - 1
    else:
        owner = int(parsed.source[1])
        if owner != p:
            raise IllegalMoveError(
                f"move {quote(text)}: {pile_name_abs(parsed.source)} belongs to your opponent;"
                f" player {p} cannot move a card from it"
            )
        source = RESERVE if parsed.source[0] == "R" else WASTE
    target_text = parsed.target
    if target_text == "F":
        target = FOUNDATION
    elif target_text[0] == "H":
        target = int(target_text[1]) - 1
    elif target_text in ("OR", "OW"):
        target = OPP_RESERVE if target_text == "OR" else OPP_WASTE
    else:
        owner = int(target_text[1])
        if owner == p:
            raise IllegalMoveError(
                f"move {quote(text)}: your own {'reserve' if target_text[0] == 'R' else 'waste'} is"
                " never a destination (use discard to end your turn)"
            )
        target = OPP_RESERVE if target_text[0] == "R" else OPP_WASTE
    count = count or 1
    if count > 1 and not (source < 8 and target < 8):
        if parsed.card is not None:
            raise IllegalMoveError(
                f"move {quote(text)}: {parsed.source} is under {count - 1} card(s) in"
                f" H{source + 1}; only the top card of a house moves to {target_text}"
            )
        raise IllegalMoveError(
            f"move {quote(text)}: a group of {count} cards moves only from house to house,"
            f" not from {parsed.source} to {target_text}"
        )
    if source == target:
        raise IllegalMoveError(
            f"move {quote(text)}: the source {parsed.source} is also the target"
            if parsed.card is None
            else f"move {quote(text)}: {parsed.source} is already in {target_text}"
        )
    try:
        return Move.play(source, target, count)
    except InvalidMoveError as exc:
        raise IllegalMoveError(str(exc)) from None


def pile_name_abs(token: str) -> str:
    """A readable name of an absolute pile token (``R0`` -> ``"player 0's reserve"``)."""
    kind = "reserve" if token[0] == "R" else "waste"
    return f"player {token[1]}'s {kind}"


def _locate(state: GameState, card: Card) -> tuple[int, int]:
    """Where ``card`` can be moved from by the player to act: (source, cards moved)."""
    for source in (RESERVE, HAND, WASTE):
        if source_card(state, source) == card:
            return source, 1
    for h, pile in enumerate(state.houses):
        if card in pile:
            return h, len(pile) - pile.index(card)
    raise IllegalMoveError(
        f"{card.text} is not available to player {state.to_act}: it is not the top of"
        " their reserve, their turned card, a playable waste top or in a house"
    )


def format_move(move: Move, /) -> str:
    """The move notation of ``move``: the same text as ``str(move)``, which
    [`parse_move`][crapette.notation.parse_move] reads back
    (``parse_move(state, format_move(move)) == move`` for every legal move of ``state``).

    Own piles are relative (``R`` your reserve, ``T`` your turned card, ``W`` your waste),
    houses are ``H1``..``H8``, a foundation is ``F``, and the opponent's reserve and waste
    are ``OR`` and ``OW``; a group move ends in ``xN`` (``H2-H5x3``). Other moves are their
    keyword (``draw``, ``discard``, ``end``, ``reveal``, ``stop``, ``pass``). The text does
    not depend on the position.

    Raises:
        TypeError: ``move`` is not a [`Move`][crapette.Move].
    """
    if not isinstance(move, Move):
        raise TypeError(f"format_move() needs a Move, not {move!r}")
    return str(move)


# --------------------------------------------------------------------------------------
# Positions


def format_position(state: GameState) -> str:
    """The whole state as one line (see ``docs/notation.md``).

    Fourteen fields separated by single spaces: rules, player to act, foundations, houses,
    reserves, face-up reserve counts, hands, wastes, turned card, emptied houses, passes,
    moves made, extra seen layout keys, and the pending Stop! move. With a Stop! decision
    open, fields 1-13 describe the position before the violating move and field 14 is that
    move: the position is the result of playing it.
    ``parse_position(format_position(state)) == state`` for every reachable state.
    """
    return _format(state, public=False)


def format_public_position(state: GameState, player: int) -> str:
    """The position as ``player`` sees it: every face-down card (hands, and reserve cards
    below the face-up ones) is written ``??``. Under the current rules nothing else is
    hidden, so both players get the same line; the argument names whose view it is.

    Raises:
        InvalidArgumentError: ``player`` is not 0 or 1.
    """
    if isinstance(player, bool) or player not in (0, 1):
        raise InvalidArgumentError(f"player must be 0 or 1, not {show(player)}")
    return _format(state, public=True)


def _pile(cards: Pile) -> str:
    return "".join(c.text for c in cards) or "-"


def _piles(piles: tuple[Pile, ...]) -> str:
    return "/".join(_pile(p) for p in piles)


def _format(state: GameState, *, public: bool) -> str:
    tail = "-"
    rules = state.rules
    call = ""
    if rules.stop != "enforced" and rules.call_window == "turn_start":
        mark = "f" if state.fault is not None else "w" if state.window else "-"
        call = f"{mark}{state.false_calls[0]}{state.false_calls[1]}"
    if state.stop is not None:
        tail = str(state.stop.move)
        state = state.stop.prior
    elif state.fault is not None:
        tail = str(state.fault.move)
        state = state.fault.prior
    if public:
        reserves = "/".join(
            UNKNOWN_CARD * (len(r) - up) + "".join(c.text for c in r[len(r) - up :]) or "-"
            for r, up in zip(state.reserves, state.reserve_up, strict=True)
        )
        hands = "/".join(UNKNOWN_CARD * len(h) or "-" for h in state.hands)
    else:
        reserves = _piles(state.reserves)
        hands = _piles(state.hands)
    extra = sorted(state.seen - {state.houses_key})
    fields = (
        str(state.rules).replace(" ", ""),
        str(state.to_act),
        _piles(state.foundations),
        _piles(state.houses),
        reserves,
        f"{state.reserve_up[0]}/{state.reserve_up[1]}",
        hands,
        _piles(state.wastes),
        state.turned.text if state.turned is not None else "-",
        "".join(str(h + 1) for h in range(8) if state.emptied >> h & 1) or "-",
        f"{state.passes[0]}/{state.passes[1]}",
        str(state.moves_made),
        ",".join(f"{k:016x}" for k in extra) or "-",
        tail,
    )
    return " ".join(fields) + (f" {call}" if call else "")


_FIELD_NAMES: Final = (
    "the rules",
    "the player to act (0 or 1)",
    "the 8 foundations",
    "the 8 houses",
    "the 2 reserves",
    "the face-up reserve counts (like 1/1)",
    "the 2 hands",
    "the 2 wastes",
    "the turned card (a card or -)",
    "the emptied houses (digits 1..8 or -)",
    "the passes (like 1/1, each 0..2)",
    "the number of moves made",
    "the seen layout keys (16 hex digits, comma-separated, or -)",
    "the pending Stop! move (a move like R-H3 or -)",
)
_CALL_FIELD: Final = (
    "the call window: -, w (open) or f (open, field 14 the faulty turn end), then each"
    " player's false calls (like w00)"
)


class _Field(NamedTuple):
    text: str
    start: int


def parse_position(text: str) -> GameState:
    """Parse a line written by [`format_position`][crapette.notation.format_position].

    Raises:
        NotationError: malformed text (with the character position and what was expected),
            a public position (``??`` cards), or a position that cannot occur (a card missing
            or doubled, a foundation that is not a run from its Ace, a house that is not a
            descending alternating run, impossible counts); the message names the problem.
    """
    if not isinstance(text, str):
        raise TypeError(f"a position must be a str, not {type(text).__name__}")
    fields = [_Field(m.group(0), m.start()) for m in re.finditer(r"[^ \t\r\n]+", text)]
    call_f = fields.pop() if len(fields) == len(_FIELD_NAMES) + 1 else None
    if len(fields) < len(_FIELD_NAMES):
        pos = len(text.rstrip())
        raise NotationError(
            f"expected {_FIELD_NAMES[len(fields)]} (field {len(fields) + 1} of"
            f" {len(_FIELD_NAMES)}) at {pos}: a position has {len(_FIELD_NAMES)}"
            " space-separated fields",
            text,
            pos,
        )
    if len(fields) > len(_FIELD_NAMES):
        extra = fields[len(_FIELD_NAMES)]
        raise NotationError(
            f"expected the end of the position at {extra.start}, found {quote(extra.text)}",
            text,
            extra.start,
        )
    rules_f, act_f, found_f, houses_f, res_f, up_f, hands_f, wastes_f = fields[:8]
    turned_f, emptied_f, passes_f, moves_f, seen_f, stop_f = fields[8:]
    try:
        rules = Ruleset.from_string(rules_f.text)
    except InvalidRulesError as exc:
        raise NotationError(
            f"expected the rules at {rules_f.start}: {exc}", text, rules_f.start
        ) from None
    deck = PACKS[rules.pack]
    calls = rules.stop != "enforced" and rules.call_window == "turn_start"
    if call_f is not None and not calls:
        raise NotationError(
            f"expected the end of the position at {call_f.start}, found {quote(call_f.text)}"
            " (a 15th field, the call window, is for call_window=turn_start)",
            text,
            call_f.start,
        )
    to_act = _small_int(text, act_f, 1)
    foundations = _parse_piles(text, found_f, deck.foundations, "foundation", deck)
    houses = _parse_piles(text, houses_f, 8, "house", deck)
    most = max(deck.ranks, deck.trumps)
    pos = houses_f.start
    for h, pile in enumerate(houses):
        if len(pile) > most:
            raise NotationError(
                f"house H{h + 1} at {pos} holds {len(pile)} cards; a house is a run down from"
                f" a King (or trump 21), at most {most} cards",
                text,
                pos,
            )
        pos += max(len(_pile(pile)), 1) + 1
    reserves = _parse_piles(text, res_f, 2, "reserve", deck)
    up = _int_pair(text, up_f, None)
    hands = _parse_piles(text, hands_f, 2, "hand", deck)
    wastes = _parse_piles(text, wastes_f, 2, "waste", deck)
    turned: Card | None = None
    if turned_f.text != "-":
        cards = _parse_cards(text, turned_f.text, turned_f.start, deck)
        if len(cards) != 1:
            raise NotationError(
                f"expected one turned card or - at {turned_f.start}", text, turned_f.start
            )
        turned = cards[0]
    emptied = _parse_emptied(text, emptied_f)
    passes = _int_pair(text, passes_f, 2)
    moves_made = _natural(text, moves_f)
    seen = _parse_seen(text, seen_f)
    window, fault, false_calls = _parse_call(text, call_f)
    stop_move = None
    if stop_f.text != "-":
        try:
            stop_move = move_from_text(stop_f.text)
        except NotationError:
            raise NotationError(
                f"expected - or the violating move (like R-H3) at {stop_f.start}",
                text,
                stop_f.start,
            ) from None
    keywords: dict[str, Any] = {
        "rules": rules,
        "to_act": to_act,
        "foundations": foundations,
        "houses": houses,
        "reserves": (reserves[0], reserves[1]),
        "reserve_up": up,
        "hands": (hands[0], hands[1]),
        "wastes": (wastes[0], wastes[1]),
        "turned": turned,
        "emptied": emptied,
        "seen": seen,
        "passes": passes,
        "moves_made": moves_made,
        "window": window and not fault,
        "false_calls": false_calls,
    }
    validate_position(keywords, text)  # the constructor's check, with the text quoted
    state = GameState(**keywords)
    if fault:
        if stop_move is None:
            raise NotationError(
                f"expected the faulty turn end at {stop_f.start} (field 15 is f)",
                text,
                stop_f.start,
            )
        return _rebuild_fault(state, stop_move, text, stop_f.start)
    if stop_move is not None:
        state = _rebuild_stop(state, stop_move, text, stop_f.start)
    return state


def _parse_call(text: str, field: _Field | None) -> tuple[bool, bool, tuple[int, int]]:
    """Field 15: the call window (``-``, ``w``, ``f``) and each player's false calls."""
    if field is None:
        return False, False, (0, 0)
    body = field.text
    if len(body) != 3 or body[0] not in "-wf" or not all(c in "0123" for c in body[1:]):
        raise NotationError(
            f"expected {_CALL_FIELD} at {field.start}, found {quote(body)}", text, field.start
        )
    return body[0] != "-", body[0] == "f", (int(body[1]), int(body[2]))


def _rebuild_fault(prior: GameState, move: Move, text: str, at: int) -> GameState:
    """The state after the faulty turn end ``move`` (call window ``f``)."""
    try:
        after = apply(prior, move)
    except IllegalMoveError as exc:
        raise NotationError(
            f"the faulty turn end at {at} cannot be played in the written position: {exc}",
            text,
            at,
        ) from None
    if after.fault is None:
        raise NotationError(
            f"the move {move} at {at} is not a priority violation ending the turn in the"
            " written position",
            text,
            at,
        )
    return after


def _rebuild_stop(prior: GameState, move: Move, text: str, at: int) -> GameState:
    try:
        after = apply(prior, move)
    except IllegalMoveError as exc:
        raise NotationError(
            f"the pending Stop! move at {at} cannot be played in the written position: {exc}",
            text,
            at,
        ) from None
    if after.stop is None:
        raise NotationError(
            f"the pending Stop! move {move} at {at} is not a priority violation awaiting a"
            " decision in the written position",
            text,
            at,
        )
    return after


def _small_int(text: str, field: _Field, top: int) -> int:
    if len(field.text) == 1 and "0" <= field.text <= str(top):
        return int(field.text)
    raise NotationError(
        f"expected a digit 0..{top} at {field.start}, found {quote(field.text)}",
        text,
        field.start,
    )


def _natural(text: str, field: _Field) -> int:
    if re.fullmatch(r"[0-9]{1,12}", field.text):
        return int(field.text)
    raise NotationError(
        f"expected the number of moves made (decimal digits) at {field.start}, found"
        f" {quote(field.text)}",
        text,
        field.start,
    )


def _int_pair(text: str, field: _Field, top: int | None) -> tuple[int, int]:
    match = re.fullmatch(r"([0-9]{1,3})/([0-9]{1,3})", field.text)
    if match is None:
        raise NotationError(
            f"expected two numbers like 1/1 at {field.start}, found {quote(field.text)}",
            text,
            field.start,
        )
    a, b = int(match.group(1)), int(match.group(2))
    if top is not None:
        for value, group in ((a, 1), (b, 2)):
            if value > top:
                pos = field.start + match.start(group)
                raise NotationError(
                    f"expected a number from 0 to {top} at {pos}, found {value}", text, pos
                )
    return a, b


def _parse_emptied(text: str, field: _Field) -> int:
    if field.text == "-":
        return 0
    mask = 0
    last = 0
    for i, ch in enumerate(field.text):
        if not "1" <= ch <= "8" or int(ch) <= last:
            pos = field.start + i
            raise NotationError(
                f"expected house digits 1..8 in increasing order (or -) at {pos}", text, pos
            )
        last = int(ch)
        mask |= 1 << (last - 1)
    return mask


def _parse_seen(text: str, field: _Field) -> frozenset[int]:
    if field.text == "-":
        return frozenset()
    keys = set()
    pos = field.start
    for part in field.text.split(","):
        if not re.fullmatch(r"[0-9a-fA-F]{1,16}", part):
            raise NotationError(f"expected a layout key of 1 to 16 hex digits at {pos}", text, pos)
        keys.add(int(part, 16))
        pos += len(part) + 1
    return frozenset(keys)


def _parse_piles(
    text: str, field: _Field, n: int, what: str, deck: Pack = STANDARD
) -> tuple[Pile, ...]:
    parts = field.text.split("/")
    if len(parts) != n:
        pos = field.start
        if len(parts) > n:
            pos += sum(len(p) + 1 for p in parts[:n]) - 1
        else:
            pos += len(field.text)
        raise NotationError(
            f"expected {n} {what} piles separated by '/' at {pos} ({len(parts)} found)",
            text,
            pos,
        )
    out = []
    pos = field.start
    for part in parts:
        out.append(() if part == "-" else _parse_cards(text, part, pos, deck))
        pos += len(part) + 1
    return tuple(out)


_TRUMP: Final = re.compile(r"[0-9]+[Mm]")


def _parse_cards(text: str, part: str, start: int, deck: Pack = STANDARD) -> Pile:
    if not part:
        raise NotationError(f"expected cards or - at {start}", text, start)
    cards = []
    i = 0
    chars = RANK_CHARS if deck.ranks == 13 else TAROT_RANK_CHARS
    while i < len(part):
        pos = start + i
        trump = _TRUMP.match(part, i) if part[i].isdigit() and deck.trumps else None
        if trump is not None:
            chunk = trump.group(0)
            try:
                cards.append(deck.parse(chunk))
            except NotationError as exc:
                raise NotationError(
                    f"{exc.args[0].split(' at 0 in ')[0]} at {pos}", text, pos
                ) from None
            i += len(chunk)
            continue
        chunk = part[i : i + 2]
        if chunk == UNKNOWN_CARD:
            raise NotationError(
                f"unknown card ?? at {pos}: a public position (with hidden cards) cannot be"
                " loaded as a state",
                text,
                pos,
            )
        rank_ok = len(chunk) >= 1 and chunk[0] in chars
        if not rank_ok or len(chunk) < 2 or chunk[1] not in "SHDCshdc":
            bad = pos if not rank_ok else pos + 1
            expected = f"a rank ({chars})" if not rank_ok else "a suit (SHDC or shdc)"
            if not rank_ok and deck.trumps:
                expected += " or a trump (like 17M)"
            raise NotationError(
                f"expected {expected} at {bad} (cards are written like 7H or Td)", text, bad
            )
        cards.append(deck.parse(chunk))
        i += 2
    return tuple(cards)


_hooks.parse_move = parse_move
_hooks.format_position = format_position
