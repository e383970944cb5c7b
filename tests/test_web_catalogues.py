"""The web page's message catalogues and what the page reads from the server (no browser).

Every language has every key of the English catalogue, with the same placeholders and valid
plural forms, and every key the rule spec needs (``i18n/spec-keys.json``, written by
``python tools/generate.py``: each option value, preset and refusal reason); no user-visible
text lives in the page's code (its HTML and JavaScript); every key the code names exists;
every refusal of a move by the rules carries a reason code the page has words for (with
placeholders among the reason's parameters); and the outcome's tally, which the result
panel shows, adds up to the scores.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

import pytest

import crapette
from crapette import _spec
from crapette.deal import Rng
from crapette.moves import ALL_MOVES, listed

pytest.importorskip("fastapi")

from crapette.session.payload import outcome_info
from crapette.web.session import Game, WebError

STATIC = resources.files("crapette.web") / "static"
I18N = STATIC / "i18n"
LANGUAGES = [entry["code"] for entry in json.loads((I18N / "languages.json").read_text("utf-8"))]
PLURALS = {
    "en": {"one", "other"},
    "fr": {"one", "many", "other"},
    "de": {"one", "other"},
    "ru": {"one", "few", "many", "other"},
    "be": {"one", "few", "many", "other"},
    "sr-Latn": {"one", "few", "other"},
    "sr-Cyrl": {"one", "few", "other"},
    "ms": {"other"},
}
"""The CLDR plural categories of each language (what Intl.PluralRules can answer)."""


def catalogue(code: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((I18N / f"{code}.json").read_text("utf-8"))
    return data


def placeholders(message: Any) -> set[str]:
    texts = message.values() if isinstance(message, dict) else [message]
    return {name for text in texts for name in re.findall(r"\{(\w+)\}", text)}


def test_the_seven_languages_are_offered() -> None:
    assert LANGUAGES == ["en", "fr", "de", "ru", "be", "sr-Latn", "sr-Cyrl", "ms"]


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_language_has_every_key_with_its_placeholders(code: str) -> None:
    english = catalogue("en")
    other = catalogue(code)
    assert sorted(set(english) - set(other)) == [], "missing keys"
    assert sorted(set(other) - set(english)) == [], "keys English does not have"
    for key, message in other.items():
        assert message, key
        if isinstance(message, dict):
            assert "other" in message, key
            assert set(message) <= PLURALS[code], (key, set(message))
        else:
            assert isinstance(message, str), key
        # a translation names the same pieces (a plural form may leave out the count)
        assert placeholders(message) - {"count"} <= placeholders(english[key]) | {"count"}, key
        assert placeholders(english[key]) - {"count"} <= placeholders(message), key


def _literals(source: str) -> list[str]:
    """The string literals of a JavaScript source (quotes and template literals)."""
    source = re.sub(r"^\s*//.*$", "", source, flags=re.M)
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    found = re.findall(
        r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|`((?:[^`\\]|\\.)*)`', source
    )
    return [next(part for part in parts if part) for parts in found if any(parts)]


TECHNICAL = {
    # CSS class lists, selectors and values, a media query, URLs: no words for a player
    ".card, .slot, .plabel",
    "#result-table thead",
    "#result-table tbody",
    "card back p${owner}",
    'card face ${trump ? "trump" : red ? "red" : "black"}',
    "slot slot-${kind}",
    "translate(${dx}px, ${dy}px)",
    "translate(0, 0)",
    "(prefers-reduced-motion: reduce)",
    "/record?deal=${deal}",
    "${location.origin}/?game=${game.game_id}&invite=${invite}",
    "${source}-${target}${selected.depth > 1 ? ",
}

BACKEND = "local.js"
"""The page's stand-in for the server (the page without a server): it speaks the server's
protocol, whose messages are English for programs (the page shows a refusal by its code and
the rules engine's reason, through ``explain`` of refusals.js), and writes records in the
text format of ``crapette.records``."""

BACKEND_TECHNICAL = {
    "crapette: a chosen seed|${seed}",  # the key of a chosen seed (crapette.session)
    "P${result.winner} wins ${scores}",  # a record's result line (crapette.records)
    "not a saved game",  # wrapped into a no_such_game refusal
    "resigned by ${seat}",  # the payload's "ended", as the server writes it
}


def _refusals(source: str) -> list[tuple[str, str]]:
    """The (code, message) of each ``refuse(status, code, message)`` of the backend."""
    found = []
    for match in re.finditer(r'refuse\(\d+,\s*"(\w+)",\s*', source):
        found.append((match.group(1), _literals(source[match.end() :])[0]))
    return found


def _server_codes() -> set[str]:
    """Every error code the server's source (and the session's, whose refusals the server
    answers with) can answer with."""
    codes: set[str] = set()
    for package in ("crapette.web", "crapette.session"):
        for path in resources.files(package).iterdir():
            if path.name.endswith(".py"):
                text = path.read_text("utf-8")
                codes |= set(re.findall(r'WebError\(\s*\d+,\s*"(\w+)"', text))
                codes |= set(re.findall(r'_refusal\(\s*"(\w+)"', text))
                codes |= set(re.findall(r'"code":\s*"(\w+)"', text))
                codes |= set(re.findall(r'\d{3}:\s*"(\w+)"', text))
    return codes


def test_no_user_visible_string_lives_in_the_code() -> None:
    """The page's code holds no words: each literal is a catalogue key, an identifier, a
    selector, markup or a format of placeholders and punctuation (or one of the technical
    strings above)."""
    words = re.compile(r"[^\W\d_]{2,}")
    offenders: list[tuple[str, str]] = []
    for path in sorted(STATIC.iterdir()):
        if not path.name.endswith(".js"):
            continue
        source = path.read_text("utf-8")
        allowed = set(TECHNICAL)
        if path.name == BACKEND:  # the server's messages, which the page never shows
            allowed |= BACKEND_TECHNICAL | {message for _, message in _refusals(source)}
        for literal in _literals(source):
            if literal in allowed:
                continue
            bare = re.sub(r"\$\{[^}]*\}", "", literal)
            bare = re.sub(r"<[^>]*>", "", bare)  # markup: its words come from t()
            if " " not in bare.strip() or not words.search(bare):
                continue
            offenders.append((path.name, literal))
    assert offenders == []


def test_the_page_without_a_server_refuses_with_the_servers_codes() -> None:
    """The local backend answers with the server's error codes, so the page explains its
    refusals in the player's language exactly as it explains the server's."""
    refusals = _refusals((STATIC / BACKEND).read_text("utf-8"))
    codes = {code for code, _ in refusals}
    assert len(codes) >= 10
    server = _server_codes()
    assert {"no_such_game", "invalid_request", "stale_version"} <= server
    assert sorted(codes - server) == []


def test_the_html_holds_no_words_and_names_only_known_keys() -> None:
    html = (STATIC / "index.html").read_text("utf-8")
    english = catalogue("en")
    keys = re.findall(r'data-i18n(?:-label|-title|-placeholder)?="([^"]+)"', html)
    assert keys and sorted(set(keys) - set(english)) == []
    # (the title holds the package's name until the page sets it from the catalogue)
    assert re.search(r"<title>crapette</title>", html)
    body = re.sub(r"<(script|style|title)[^>]*>.*?</\1>", "", html, flags=re.S)
    text = re.sub(r"<[^>]*>", " ", body)
    assert re.findall(r"[A-Za-z]{2,}", text) == []


def test_every_key_the_code_names_exists() -> None:
    english = catalogue("en")
    named: set[str] = set()
    for path in STATIC.iterdir():
        if path.name.endswith(".js"):
            named |= set(re.findall(r'\bt\(\s*"([\w.]+)"', path.read_text("utf-8")))
    assert named and sorted(named - set(english)) == []


SPEC_KEYS: list[str] = json.loads((I18N / "spec-keys.json").read_text("utf-8"))
"""The catalogue keys the rule spec needs (``python tools/generate.py`` writes the list)."""

REASON_PARAMS = {reason.code: {name for name, _ in reason.params} for reason in _spec.REASONS}


def test_the_spec_keys_are_the_specs() -> None:
    """Every option value, preset and reason of the spec has its key in the list (the list
    is generated; ``tests/test_spec.py`` fails when it is stale)."""
    assert {f"reason.{code}" for code in REASON_PARAMS} <= set(SPEC_KEYS)
    assert {f"preset.{name}" for name in crapette.PRESETS} <= set(SPEC_KEYS)
    assert "option.stop.undo" in SPEC_KEYS and "option.load_wrap.true" in SPEC_KEYS


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_language_has_words_for_every_key_of_the_spec(code: str) -> None:
    """Each option value, preset and refusal reason of the rule spec is said in every
    language; a reason's words name only the reason's parameters; no reason key is left
    that the spec no longer has."""
    messages = catalogue(code)
    assert sorted(set(SPEC_KEYS) - set(messages)) == [], "missing keys of the spec"
    for key, message in messages.items():
        if not key.startswith("reason."):
            continue
        reason = key.removeprefix("reason.")
        assert reason in REASON_PARAMS, f"{key}: no such reason in the spec"
        assert placeholders(message) <= REASON_PARAMS[reason], key


def _has_words(reason: dict[str, Any] | None, messages: list[dict[str, Any]]) -> bool:
    """Whether a refusal body's reason is a code of the spec with its parameters, which
    every catalogue says."""
    if reason is None or set(reason["params"]) != REASON_PARAMS.get(reason["code"]):
        return False
    return all(f"reason.{reason['code']}" in m for m in messages)


@pytest.mark.parametrize("preset", list(crapette.PRESETS))
def test_every_refusal_of_the_engine_has_words(preset: str) -> None:
    """Play random deals and try every move that is not legal, as the page sends it: the
    server's refusal carries the rules' reason (a code of the spec and its parameters),
    which every catalogue says with the parameters it has."""
    rules = crapette.Ruleset.preset(preset).replace(match_target=None, match_deals=1)
    messages = [catalogue(code) for code in LANGUAGES]
    unmatched: set[str] = set()
    tried = 0
    for seed in range(3):
        game, _, _ = Game.create("t", rules, seed=seed, opponent="random", seat=0)
        rng = Rng(seed)
        for _ in range(150):
            if game.status() != "playing":
                break
            state = game.state
            seat = state.to_act
            legal = crapette.legal_moves(state)
            for move in ALL_MOVES[:: 7 if seed else 3]:
                if listed(move, legal):
                    continue
                tried += 1
                try:
                    game.parse(seat, crapette.format_move(move), None)
                except WebError as error:
                    if not _has_words(error.reason, messages):
                        unmatched.add(error.message)
            move = legal[rng.below(len(legal))]
            game.match = game.match.play(move)
    assert tried > 100
    assert sorted(unmatched) == []


def test_the_tally_adds_up_to_the_scores() -> None:
    """The counts by pile the result panel shows give the outcome's scores: the winner's is
    the bonus plus the loser's count; with no winner the lower count scores the difference."""
    ended = 0
    for seed in range(12):
        state = crapette.new_game(seed=seed)
        rng = Rng(seed)
        while crapette.outcome(state) is None:
            moves = crapette.legal_moves(state)
            state = crapette.apply_unchecked(state, moves[rng.below(len(moves))])
        result = crapette.outcome(state)
        data = outcome_info(result, state)
        assert data is not None and result is not None
        tally, points = data["tally"], data["points"]
        for p in (0, 1):
            t = tally[p]
            assert t["reserve"] == len(state.reserves[p])
            assert t["count"] == 2 * t["reserve"] + t["hand"] + t["waste"]
        if result.winner is not None:
            loser = 1 - result.winner
            assert data["scores"][result.winner] == points["win_bonus"] + tally[loser]["count"]
            assert points["win_bonus"] == 30
        else:
            assert points["win_bonus"] == 0
            diff = tally[1]["count"] - tally[0]["count"]
            assert data["scores"] == [max(diff, 0), max(-diff, 0)]
        ended += 1
    assert ended == 12
