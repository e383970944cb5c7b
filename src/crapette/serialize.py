"""JSON for states, rulesets, game records and matches in progress.

Every document is an object with ``"format": "crapette"``, a ``"version"`` (the layout of
the document, [`JSON_VERSION`][crapette.serialize.JSON_VERSION]), the ``"behaviour"`` version of the
engine that wrote it (``crapette.BEHAVIOUR_VERSION``) and a ``"type"``:
``"state"``, ``"rules"``, ``"record"`` or ``"match"``. A document of another format version is
refused with a [`NotationError`][crapette.NotationError]; nothing is half loaded.
``docs/notation.md`` specifies the layout.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any, Final

from crapette import _hooks, _spec
from crapette._engine import apply
from crapette._quote import show
from crapette._version import BEHAVIOUR_VERSION
from crapette.cards import PACKS, STANDARD, Card, Pack
from crapette.errors import IllegalMoveError, InvalidRulesError, NotationError
from crapette.match import DealResult, Match, _deal, _decide, deal_seed
from crapette.moves import Move
from crapette.notation import move_from_text
from crapette.outcome import Outcome
from crapette.rules import Ruleset
from crapette.state import GameState, PendingStop, Pile

__all__ = ["JSON_VERSION", "from_json", "to_json"]

JSON_VERSION: Final = 3
"""The newest version of the JSON layout written by [`to_json`][crapette.serialize.to_json].
Version 2 writes a match's seeds as decimal strings (a JavaScript ``JSON.parse`` rounds
integers above 2**53) and its resignation. Version 3 adds the options of the tarot packs and
the table rules (a rules document lists them) and, under ``call_window="turn_start"``, a
state's call window (``window``, ``false_calls``, ``fault``); a document whose ruleset leaves
every version 3 option at its default is still written as version 2
([`format_version`][crapette.serialize.format_version]).
[`from_json`][crapette.serialize.from_json] reads versions 1, 2 and 3, and a seed as a string
or an integer in any."""

_READ_VERSIONS: Final = (1, 2, 3)

FORMAT: Final = "crapette"
_HEX_KEY: Final = re.compile(r"[0-9a-fA-F]{1,16}\Z")


def to_json(obj: object, *, indent: int | None = None) -> str:
    """The JSON document for a state, a ruleset, a game record or a match in progress.

    Args:
        obj: what to write.
        indent: passed to ``json.dumps`` (``None``: one line).

    Raises:
        TypeError: ``obj`` is none of those.
    """
    rules = _rules_of(obj)
    version = 2 if rules is None else format_version(rules)
    head: dict[str, Any] = {"format": FORMAT, "version": version}
    head["behaviour"] = BEHAVIOUR_VERSION
    if isinstance(obj, GameState):
        head["type"] = "state"
        head["state"] = state_to_dict(obj)
    elif isinstance(obj, Ruleset):
        head["type"] = "rules"
        head["rules"] = str(obj)
        head["options"] = {
            o.name: getattr(obj, o.name) for o in _spec.OPTIONS if o.since <= version
        }
    elif _is_record(obj):
        head["type"] = "record"
        head.update(_records().record_to_dict(obj))
    elif isinstance(obj, Match):
        head["type"] = "match"
        head["match"] = _match_to_dict(obj)
    else:
        raise TypeError(
            f"to_json() writes a GameState, Ruleset, GameRecord or Match, not {type(obj).__name__}"
        )
    return json.dumps(head, indent=indent, ensure_ascii=False)


def format_version(rules: Ruleset) -> int:
    """The JSON format version a document of ``rules`` is written in: 2 while every option
    that version 3 added (the tarot packs and the table rules) is at its default and no
    older option has a value that version 3 added (``priority="bobcrapette"``,
    ``stop="lose_draw"``), so that a document of such a ruleset reads as before; else 3."""
    for option in _spec.OPTIONS:
        value = getattr(rules, option.name)
        if option.since > 2 and value != option.default:
            return JSON_VERSION
        if any(since > 2 and value == added for added, since in option.value_since):
            return JSON_VERSION
    return 2


def _rules_of(obj: object) -> Ruleset | None:
    """The ruleset a document is about, if any."""
    if isinstance(obj, Ruleset):
        return obj
    rules = getattr(obj, "rules", None)
    if rules is None:
        state = getattr(obj, "state", None)
        rules = getattr(state, "rules", None)
    return rules if isinstance(rules, Ruleset) else None


def _records() -> Any:
    # The records subpackage builds on the core (an optional part above it): the facade
    # lends a function that loads it, used only for a record document.
    return _hooks.need(_hooks.records, "records")()


def _is_record(obj: object) -> bool:
    records = sys.modules.get("crapette.records")
    return records is not None and isinstance(obj, records.GameRecord)


def from_json(text: str) -> Any:
    """Read a document written by [`to_json`][crapette.serialize.to_json] (a match comes back ready
    to resume).

    Raises:
        NotationError: not JSON (with the character position), not a crapette document, an
            unknown format version or type, or contents that are malformed or impossible
            (naming the field).
    """
    if not isinstance(text, str | bytes):
        raise TypeError(f"from_json() reads a str, not {type(text).__name__}")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotationError(f"not valid JSON at {exc.pos}: {exc.msg}", str(text), exc.pos) from None
    except (ValueError, RecursionError) as exc:
        raise NotationError(f"not valid JSON: {exc}", str(text), None) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise NotationError(
            'not a crapette JSON document: expected an object with "format": "crapette"'
        )
    version = data.get("version")
    if type(version) is not int or version not in _READ_VERSIONS:
        raise NotationError(
            f"unsupported crapette JSON version {_short(version)}: this library (behaviour"
            f" {BEHAVIOUR_VERSION}) reads versions {' and '.join(map(str, _READ_VERSIONS))}"
        )
    kind = data.get("type")
    if kind == "state":
        return state_from_dict(data.get("state"), "state")
    if kind == "rules":
        return _rules_from(data)
    if kind == "record":
        record = _records().record_from_dict(data)
        return record
    if kind == "match":
        return _match_from_dict(data.get("match"), "match")
    raise NotationError(
        f'unknown document type {_short(kind)}: expected "state", "rules", "record" or "match"'
    )


def _rules_from(data: dict[str, Any]) -> Ruleset:
    text = data.get("rules")
    if not isinstance(text, str):
        raise NotationError('"rules" must be the ruleset string, like "classic"')
    try:
        rules = Ruleset.from_string(text)
        options = data.get("options")
        if options is not None:
            if not isinstance(options, dict):
                raise NotationError('"options" must be an object of option values')
            other = Ruleset().replace(**options)
            if other != rules:
                raise NotationError(
                    f'"options" ({other}) and "rules" ({rules}) describe different rulesets'
                )
    except InvalidRulesError as exc:
        raise NotationError(f"bad ruleset: {exc}") from None
    return rules


def _pile(cards: Pile) -> list[str]:
    return [c.text for c in cards]


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The JSON-ready dict of a state (the ``"state"`` member of a document)."""
    out: dict[str, Any] = {
        "rules": str(state.rules),
        "to_act": state.to_act,
        "foundations": [_pile(p) for p in state.foundations],
        "houses": [_pile(p) for p in state.houses],
        "reserves": [_pile(p) for p in state.reserves],
        "reserve_up": list(state.reserve_up),
        "hands": [_pile(p) for p in state.hands],
        "wastes": [_pile(p) for p in state.wastes],
        "turned": state.turned.text if state.turned is not None else None,
        "emptied": [h + 1 for h in range(8) if state.emptied >> h & 1],
        "passes": list(state.passes),
        "moves_made": state.moves_made,
        "seen": [f"{k:016x}" for k in sorted(state.seen - {state.houses_key})],
        "stop": None,
    }
    if state.stop is not None:
        out["stop"] = {
            "prior": state_to_dict(state.stop.prior),
            "move": str(state.stop.move),
            "offender": state.stop.offender,
            "resume": state.stop.resume,
        }
    rules = state.rules
    if rules.stop != "enforced" and rules.call_window == "turn_start":
        # JSON version 3: the call window of call_window=turn_start (absent: closed)
        out["window"] = state.window
        out["false_calls"] = list(state.false_calls)
        out["fault"] = None
        if state.fault is not None:
            out["fault"] = {
                "prior": state_to_dict(state.fault.prior),
                "move": str(state.fault.move),
            }
    return out


def _get(data: dict[str, Any], key: str, path: str) -> Any:
    if key not in data:
        raise NotationError(f"{path}: missing {key!r}")
    return data[key]


def _short(value: Any) -> str:
    """A bounded quotation of a JSON value for an error message."""
    return show(value)


def _int(value: Any, path: str, low: int, high: int) -> int:
    if type(value) is not int or not low <= value <= high:
        raise NotationError(
            f"{path}: expected an integer from {low} to {high}, not {_short(value)}"
        )
    return value


def _card(value: Any, path: str, deck: Pack = STANDARD) -> Card:
    if not isinstance(value, str) or not 2 <= len(value) <= 3:
        raise NotationError(f"{path}: expected a card like '7H' or '7h', not {_short(value)}")
    try:
        return deck.parse(value)
    except NotationError as exc:
        raise NotationError(f"{path}: {exc}") from None


def _piles(value: Any, n: int, path: str, deck: Pack = STANDARD) -> tuple[Pile, ...]:
    if not isinstance(value, list) or len(value) != n:
        raise NotationError(f"{path}: expected a list of {n} piles")
    out = []
    for i, pile in enumerate(value):
        if not isinstance(pile, list):
            raise NotationError(f"{path}[{i}]: expected a list of cards")
        out.append(tuple(_card(c, f"{path}[{i}][{j}]", deck) for j, c in enumerate(pile)))
    return tuple(out)


def _pair(value: Any, path: str, high: int) -> tuple[int, int]:
    if not isinstance(value, list) or len(value) != 2:
        raise NotationError(f"{path}: expected a list of 2 integers")
    return (_int(value[0], f"{path}[0]", 0, high), _int(value[1], f"{path}[1]", 0, high))


def state_from_dict(data: Any, path: str = "state", *, stop: bool = True) -> GameState:
    """Rebuild a state from [`state_to_dict`][crapette.serialize.state_to_dict]'s dict, checking it
    completely.

    Args:
        data: the dict.
        path: how errors name it (``"state"``).
        stop: whether it may hold a pending Stop! (the prior state of a pending Stop! never
            holds one, so a nested one is refused).

    Raises:
        NotationError: a field is missing or malformed (named by its path), or the state is
            impossible (see [`validate_position`][crapette.notation.validate_position]).
    """
    if not isinstance(data, dict):
        raise NotationError(f"{path}: expected an object")
    rules = _rules_field(data, path)
    deck = PACKS[rules.pack]
    most = max(deck.ranks, deck.trumps)
    houses = _piles(_get(data, "houses", path), 8, f"{path}.houses", deck)
    for i, pile in enumerate(houses):
        if len(pile) > most:
            raise NotationError(
                f"{path}.houses[{i}]: house H{i + 1} holds {len(pile)} cards; a house is a run"
                f" down from a King (or trump 21), at most {most} cards"
            )
    reserves = _piles(_get(data, "reserves", path), 2, f"{path}.reserves", deck)
    hands = _piles(_get(data, "hands", path), 2, f"{path}.hands", deck)
    wastes = _piles(_get(data, "wastes", path), 2, f"{path}.wastes", deck)
    turned_value = _get(data, "turned", path)
    turned = None if turned_value is None else _card(turned_value, f"{path}.turned", deck)
    emptied_value = _get(data, "emptied", path)
    if not isinstance(emptied_value, list):
        raise NotationError(f"{path}.emptied: expected a list of house numbers 1..8")
    emptied = 0
    for i, h in enumerate(emptied_value):
        emptied |= 1 << (_int(h, f"{path}.emptied[{i}]", 1, 8) - 1)
    seen_value = _get(data, "seen", path)
    if not isinstance(seen_value, list):
        raise NotationError(f"{path}.seen: expected a list of hex layout keys")
    seen: set[int] = set()
    for i, item in enumerate(seen_value):
        if not isinstance(item, str) or not _HEX_KEY.match(item):
            raise NotationError(
                f"{path}.seen[{i}]: expected 1 to 16 hex digits, not {_short(item)}"
            )
        seen.add(int(item, 16))
    window = data.get("window", False)
    if not isinstance(window, bool):
        raise NotationError(f"{path}.window: expected true or false, not {_short(window)}")
    calls = data.get("false_calls", [0, 0])
    fault = data.get("fault")
    state = GameState(
        rules=rules,
        to_act=_int(_get(data, "to_act", path), f"{path}.to_act", 0, 1),
        foundations=_piles(
            _get(data, "foundations", path), deck.foundations, f"{path}.foundations", deck
        ),
        houses=houses,
        reserves=(reserves[0], reserves[1]),
        reserve_up=_pair(_get(data, "reserve_up", path), f"{path}.reserve_up", len(deck.cards)),
        hands=(hands[0], hands[1]),
        wastes=(wastes[0], wastes[1]),
        turned=turned,
        emptied=emptied,
        seen=frozenset(seen),
        passes=_pair(_get(data, "passes", path), f"{path}.passes", 2),
        moves_made=_int(_get(data, "moves_made", path), f"{path}.moves_made", 0, 10**12),
        window=window and fault is None,
        false_calls=_pair(calls, f"{path}.false_calls", 3),
    )
    if fault is not None:
        return _with_fault(state, fault, f"{path}.fault")
    pending = _get(data, "stop", path)
    if pending is None:
        return state  # checked by its constructor (validate_position's error)
    if not stop:
        raise NotationError(
            f"{path}.stop: the prior state of a pending Stop! cannot itself hold a pending"
            " Stop! (the opponent's decision comes before any other move)"
        )
    return _with_stop(state, pending, f"{path}.stop")


def _with_fault(state: GameState, fault: Any, path: str) -> GameState:
    """The state after the faulty turn end of ``fault`` (``call_window="turn_start"``): the
    written fields must be its result."""
    if not isinstance(fault, dict):
        raise NotationError(f"{path}: expected null or an object")
    prior = state_from_dict(_get(fault, "prior", path), f"{path}.prior", stop=False)
    text = _get(fault, "move", path)
    if not isinstance(text, str):
        raise NotationError(f"{path}.move: expected a move like 'flip'")
    move: Move = move_from_text(text)
    try:
        rebuilt = apply(prior, move)
    except IllegalMoveError as exc:
        raise NotationError(f"{path}.move: not playable in {path}.prior: {exc}") from None
    if rebuilt.fault is None:
        raise NotationError(f"{path}: {text} from {path}.prior is not a faulty turn end")
    if state.replace(fault=rebuilt.fault, window=True) != rebuilt:
        raise NotationError(
            f"{path}: the state's fields are not the result of {text} played from {path}.prior"
        )
    return rebuilt


def _with_stop(state: GameState, stop: Any, path: str) -> GameState:
    if not isinstance(stop, dict):
        raise NotationError(f"{path}: expected null or an object")
    prior = state_from_dict(_get(stop, "prior", path), f"{path}.prior", stop=False)
    text = _get(stop, "move", path)
    if not isinstance(text, str):
        raise NotationError(f"{path}.move: expected a move like 'R-H3'")
    move: Move = move_from_text(text)
    try:
        rebuilt = apply(prior, move)
    except IllegalMoveError as exc:
        raise NotationError(f"{path}.move: not playable in {path}.prior: {exc}") from None
    pending = rebuilt.stop
    expected = (
        PendingStop(
            prior,
            move,
            _int(_get(stop, "offender", path), f"{path}.offender", 0, 1),
            _int(_get(stop, "resume", path), f"{path}.resume", 0, 1),
        )
        if pending is not None
        else None
    )
    if pending is None or pending != expected:
        raise NotationError(f"{path}: {text} from {path}.prior is not this pending violation")
    # The written fields must agree with the violation's result.
    if any(getattr(state, name) != getattr(rebuilt, name) for name in _WRITTEN):
        raise NotationError(
            f"{path}: the state's fields are not the result of {text} played from {path}.prior"
        )
    return rebuilt


_WRITTEN: Final = (
    "rules",
    "to_act",
    "foundations",
    "houses",
    "reserves",
    "reserve_up",
    "hands",
    "wastes",
    "turned",
    "emptied",
    "passes",
    "moves_made",
    "seen",
)
"""The fields a state document writes besides its pending Stop! decision."""

_REASONS: Final = ("win", "stalemate", "move_cap")
_SEED_LIMIT: Final = 10**40


def _match_to_dict(match: Match) -> dict[str, Any]:
    return {
        "rules": str(match.rules),
        "seed": str(match.seed),
        "results": [
            {
                "seed": str(r.seed),
                "starter": r.starter,
                "winner": r.outcome.winner,
                "scores": list(r.outcome.scores),
                "reason": r.outcome.reason,
            }
            for r in match.results[: match.number]
        ],
        "starter": match.starter,
        "state": state_to_dict(match.state),
        "resigned": match.resigned,
    }


_SEED_TEXT: Final = re.compile(r"(0|-?[1-9][0-9]{0,39})\Z")


def _seed(value: Any, path: str) -> int:
    """A seed written as a decimal string (version 2: no sign but ``-``, no leading zero)
    or a JSON integer (version 1), of at most 40 digits."""
    if isinstance(value, str) and _SEED_TEXT.match(value):
        value = int(value)
    if type(value) is not int or not -_SEED_LIMIT < value < _SEED_LIMIT:
        raise NotationError(
            f"{path}: expected a seed, a decimal string or an integer of at most 40 digits,"
            f" not {_short(value)}"
        )
    return value


def _result_from_dict(data: Any, path: str, seed: int) -> DealResult:
    if not isinstance(data, dict):
        raise NotationError(f"{path}: expected an object")
    written = _get(data, "seed", path)
    if _seed(written, f"{path}.seed") != seed:
        raise NotationError(f"{path}.seed: expected this deal's seed {seed}, not {_short(written)}")
    starter = _int(_get(data, "starter", path), f"{path}.starter", 0, 1)
    winner_value = _get(data, "winner", path)
    winner = None if winner_value is None else _int(winner_value, f"{path}.winner", 0, 1)
    scores = _pair(_get(data, "scores", path), f"{path}.scores", 10**15)
    reason = _get(data, "reason", path)
    if reason not in _REASONS:
        raise NotationError(
            f"{path}.reason: expected one of {', '.join(_REASONS)}, not {_short(reason)}"
        )
    if (reason == "win") != (winner is not None):
        raise NotationError(f"{path}: a deal has a winner exactly when its reason is 'win'")
    return DealResult(seed, starter, Outcome(winner, scores, reason))


def _rules_field(data: dict[str, Any], path: str) -> Ruleset:
    """The ruleset named by the ``rules`` field of the object at ``path``."""
    rules_text = _get(data, "rules", path)
    if not isinstance(rules_text, str):
        raise NotationError(f"{path}.rules: expected a ruleset string")
    try:
        return Ruleset.from_string(rules_text)
    except InvalidRulesError as exc:
        raise NotationError(f"{path}.rules: {exc}") from None


def _match_from_dict(data: Any, path: str) -> Match:
    """Rebuild a match in progress, checking what can be checked without its moves: the deal
    seeds, the starters the rules give, a match that was not over before its current deal,
    and the current deal's state."""
    if not isinstance(data, dict):
        raise NotationError(f"{path}: expected an object")
    rules = _rules_field(data, path)
    seed = _seed(_get(data, "seed", path), f"{path}.seed")
    listed = _get(data, "results", path)
    if not isinstance(listed, list):
        raise NotationError(f"{path}.results: expected a list of the finished deals")
    results: tuple[DealResult, ...] = ()
    for k, item in enumerate(listed):
        if k and _decide(rules, results) is not None:
            raise NotationError(f"{path}.results[{k}]: the match was over before this deal")
        here = f"{path}.results[{k}]"
        result = _result_from_dict(item, here, deal_seed(seed, k))
        if result.starter != _deal(rules, seed, k, results)[1]:
            raise NotationError(f"{here}.starter: the rules give deal {k + 1} to the other player")
        results = (*results, result)
    if results and _decide(rules, results) is not None:
        raise NotationError(f"{path}.results: the finished deals already end the match")
    number = len(results)
    starter = _int(_get(data, "starter", path), f"{path}.starter", 0, 1)
    if starter != _deal(rules, seed, number, results)[1]:
        raise NotationError(f"{path}.starter: the rules give deal {number + 1} to the other player")
    state = state_from_dict(_get(data, "state", path), f"{path}.state")
    if state.rules != rules:
        raise NotationError(
            f"{path}.state: its rules ({state.rules}) are not the match's rules ({rules})"
        )
    match = Match(rules, seed, results, state, starter)
    resigned = data.get("resigned")  # absent in version 1
    if resigned is not None:
        _int(resigned, f"{path}.resigned", 0, 1)
        if match.outcome() is not None:
            raise NotationError(f"{path}.resigned: the match was over before the resignation")
        match = match.resign(resigned)
    return match
