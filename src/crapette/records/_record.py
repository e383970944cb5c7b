"""The game record itself: [`GameRecord`][crapette.records.GameRecord], its
[`Headers`][crapette.records.Headers] and the ``Result`` header of an outcome."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final

import attrs

from crapette import BEHAVIOUR_VERSION, apply, apply_unchecked
from crapette._quote import quote
from crapette.deal import new_game
from crapette.errors import CrapetteError, IllegalMoveError, InvalidRulesError, NotationError
from crapette.moves import Move
from crapette.notation import check_move_text, format_position, parse_move, parse_position
from crapette.outcome import Outcome, outcome
from crapette.rules import Ruleset
from crapette.serialize import from_json, to_json
from crapette.state import GameState

__all__ = ["HEADER_ORDER", "GameRecord", "Headers", "format_result"]

HEADER_ORDER: Final = (
    "Rules",
    "Seed",
    "Position",
    "Player0",
    "Player1",
    "Date",
    "Result",
    "Behaviour",
)
"""The standard headers, in the order [`format_record`][crapette.records.format_record] writes them
(others follow in their own order)."""

_KEY_RE: Final = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")


def format_result(result: Outcome | None) -> str:
    """The ``Result`` header for an outcome: ``"P0 wins 45-0"``, ``"stalemate 0-3"``,
    ``"move cap 0-0"``, or ``"*"`` while the deal runs."""
    if result is None:
        return "*"
    scores = f"{result.scores[0]}-{result.scores[1]}"
    if result.winner is not None:
        return f"P{result.winner} wins {scores}"
    return f"{result.reason.replace('_', ' ')} {scores}"


class Headers(Mapping[str, str]):
    """The headers of a record: an immutable, hashable mapping of header name to value, in
    the order given. Built from any mapping; names and values are checked."""

    __slots__ = ("_items",)

    def __init__(self, value: Mapping[str, str] | None = None) -> None:
        """Check and copy ``value``.

        Raises:
            TypeError: ``value`` is not a mapping.
            NotationError: a name is not a letter then letters, digits or ``_``, or a value
                is not one line of text.
        """
        self._items: dict[str, str] = _headers(value if value is not None else {})

    def __getitem__(self, key: str) -> str:
        return self._items[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __hash__(self) -> int:
        return hash(frozenset(self._items.items()))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Headers):
            return self._items == other._items
        if isinstance(other, Mapping):
            return self._items == dict(other)
        return NotImplemented

    def __repr__(self) -> str:
        return f"Headers({self._items!r})"

    def __reduce__(self) -> tuple[type[Headers], tuple[dict[str, str]]]:
        return (Headers, (dict(self._items),))


def _headers(value: Mapping[str, str]) -> dict[str, str]:
    if isinstance(value, Headers):
        return dict(value._items)
    if not isinstance(value, Mapping):
        raise TypeError(f"headers must be a mapping of str to str, not {type(value).__name__}")
    out: dict[str, str] = {}
    for key, text in value.items():
        if not isinstance(key, str) or not _KEY_RE.match(key):
            raise NotationError(
                f"header name {quote(str(key))} must be a letter then letters, digits or _",
                str(key),
                0,
            )
        if not isinstance(text, str) or "\n" in text or "\r" in text:
            raise NotationError(f"header {key} must be one line of text, not {quote(str(text))}")
        out[key] = text
    return out


def _as_headers(value: Mapping[str, str]) -> Headers:
    return value if isinstance(value, Headers) else Headers(value)


def _moves(value: Iterable[str]) -> tuple[str, ...]:
    if isinstance(value, str):
        raise TypeError("moves must be a sequence of move texts, not one str")
    out = tuple(value)
    for i, text in enumerate(out, 1):
        if not isinstance(text, str) or not text or any(ch.isspace() for ch in text):
            raise NotationError(
                f"move {i} must be a non-empty text without spaces: {quote(str(text))}"
            )
        try:
            check_move_text(text)
        except NotationError as exc:
            raise NotationError(
                f"move {i} ({quote(text)}) is not a move: {exc}", text, exc.position
            ) from None
    return out


@attrs.frozen(slots=True)
class GameRecord:
    """The record of one deal: headers and the moves as text. Immutable and hashable;
    ``str(record)`` is its text file form ([`format_record`][crapette.records.format_record]).

    Attributes:
        headers: ``Rules`` (the ruleset string), ``Seed`` (the ``new_game`` seed) or
            ``Position`` (an explicit start position, see
            [`format_position`][crapette.notation.format_position]), ``Player0``, ``Player1``,
            ``Date``, ``Result`` (see [`format_result`][crapette.records.format_result]),
            ``Behaviour`` (the ``crapette.BEHAVIOUR_VERSION`` it was recorded
            with), and any others. Built from any mapping, held as an immutable
            [`Headers`][crapette.records.Headers].
        moves: each move's text in move notation (``str(move)``;
            [`parse_move`][crapette.notation.parse_move] also reads the other spellings it
            accepts). A text that is not a move at all is refused here.
    """

    headers: Headers = attrs.field(converter=_as_headers)
    moves: tuple[str, ...] = attrs.field(converter=_moves, default=())

    def __str__(self) -> str:
        from crapette.records._text import format_record

        return format_record(self)

    @classmethod
    def from_text(cls, text: str) -> GameRecord:
        """The record written in ``text`` (the same as
        [`parse_record`][crapette.records.parse_record])."""
        from crapette.records._text import parse_record

        return parse_record(text)

    def to_dict(self) -> dict[str, Any]:
        """The JSON payload: ``{"headers": {...}, "moves": [...]}``."""
        return {"headers": dict(self.headers), "moves": list(self.moves)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameRecord:
        """A record from its JSON payload ([`to_dict`][crapette.records.GameRecord.to_dict]).

        Raises:
            NotationError: the payload has the wrong shape or a move is not a move.
        """
        if not isinstance(data, Mapping):
            raise NotationError("a record payload must be an object")
        heads = data.get("headers")
        moves = data.get("moves")
        if not isinstance(heads, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in heads.items()
        ):
            raise NotationError('record "headers" must be an object of strings')
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise NotationError('record "moves" must be a list of strings')
        return cls(heads, tuple(moves))

    def to_json(self) -> str:
        """The JSON document of the record ([`to_json`][crapette.to_json])."""
        return to_json(self)

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        """The record of a JSON record document ([`from_json`][crapette.from_json]).

        Raises:
            NotationError: the text is not a JSON record document.
        """
        obj = from_json(text)
        if not isinstance(obj, GameRecord):
            raise NotationError("the JSON document is not a game record")
        return obj

    @classmethod
    def from_moves(
        cls,
        start: GameState,
        moves: Iterable[Move | str],
        headers: Mapping[str, str] | None = None,
    ) -> GameRecord:
        """Record ``moves`` (``Move`` values or texts) played from ``start``.

        Sets ``Rules`` from the start position, ``Position`` unless the headers name a
        ``Seed`` that deals exactly ``start``, ``Result`` from the final position and
        ``Behaviour``; other headers are kept as given.

        Raises:
            IllegalMoveError: a move is illegal (naming its number and text).
            NotationError: a move text is malformed, or the headers contradict ``start``.
        """
        heads = dict(_headers(headers or {}))
        rules = str(start.rules)
        if "Rules" in heads and _same_rules(heads["Rules"]) != start.rules:
            raise NotationError(
                f"header Rules {quote(heads['Rules'])} does not match the start position's"
                f" {rules!r}"
            )
        heads["Rules"] = rules
        seeded = False
        if "Seed" in heads:
            seeded = new_game(start.rules, seed=_seed(heads["Seed"])) == start
        if seeded:
            heads.pop("Position", None)
        else:
            heads["Position"] = format_position(start)
        state = start
        texts: list[str] = []
        for number, move in enumerate(moves, 1):
            try:
                if isinstance(move, str):
                    move = parse_move(state, move)
                text = str(move)
                state = apply(state, move)
            except CrapetteError as exc:
                raise _at_move(exc, number, str(move)) from exc
            texts.append(text)
        heads["Result"] = format_result(outcome(state))
        heads["Behaviour"] = str(BEHAVIOUR_VERSION)
        return cls(heads, tuple(texts))

    def start_state(self) -> GameState:
        """The start position: the ``Position`` header, or ``new_game(Rules, seed=Seed)``.

        Raises:
            NotationError: the headers hold neither, or hold bad values.
        """
        rules_text = self.headers.get("Rules")
        rules = _same_rules(rules_text) if rules_text is not None else None
        if "Position" in self.headers:
            state = parse_position(self.headers["Position"])
            if rules is not None and state.rules != rules:
                raise NotationError(
                    f"header Rules {quote(str(rules_text))} differs from the rules of the Position"
                    f" header ({state.rules})"
                )
            return state
        if "Seed" in self.headers:
            return new_game(rules, seed=_seed(self.headers["Seed"]))
        raise NotationError("a record needs a Position header or a Seed header to start from")

    def replay(self) -> Iterator[tuple[GameState, Move | None]]:
        """Walk the deal: yields ``(start, None)``, then ``(state, move)`` for each move,
        ``state`` being the position after ``move``. The states of the deal are
        ``[state for state, _ in record.replay()]``.

        Raises:
            NotationError: the start position cannot be built (raised at once); a move
                text is malformed (raised when the walk reaches it, naming the move).
            IllegalMoveError: a move is not legal where it is played (raised when the walk
                reaches it); the message names its number (1 for the first move) and text.
        """
        return self._walk(self.start_state())

    def _walk(self, state: GameState) -> Iterator[tuple[GameState, Move | None]]:
        yield state, None
        for number, text in enumerate(self.moves, 1):
            try:
                move = parse_move(state, text)
            except CrapetteError as exc:
                raise _at_move(exc, number, text) from exc
            state = apply_unchecked(state, move)
            yield state, move

    def final_state(self) -> GameState:
        """The state after the last move (see [`replay`][crapette.records.GameRecord.replay] for
        the errors)."""
        last = deque(self.replay(), maxlen=1)
        return last[0][0]


def _same_rules(text: str) -> Ruleset:
    try:
        return Ruleset.from_string(text)
    except InvalidRulesError as exc:
        raise NotationError(f"header Rules: {exc}", text, None) from None


def _seed(text: str) -> int:
    if not re.fullmatch(r"-?[0-9]{1,40}", text):
        raise NotationError(f"header Seed must be an integer, not {quote(text)}", text, 0)
    return int(text)


def _at_move(exc: CrapetteError, number: int, text: str) -> CrapetteError:
    message = f"move {number} ({text}): {exc}"
    if isinstance(exc, NotationError):
        return NotationError(message, exc.text, exc.position)
    if isinstance(exc, IllegalMoveError):
        return IllegalMoveError(message, exc.code, exc.params)
    return type(exc)(message)
