"""Every bad value given to a public function raises one of the library's errors (a
``CrapetteError``, and a ``ValueError`` but for ``BotError``), and its message names what was
wrong. A wrong Python type is a ``TypeError``, as in
Python."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import crapette as c
from crapette import svg, text
from crapette.adapters.encoding import decode
from crapette.bots import (
    Fallible,
    GreedyBot,
    SearchBot,
    get_bot,
    play_deal,
    register_bot,
    stop_decision,
)
from crapette.cards import full_pack
from crapette.deal import Rng
from crapette.errors import BotError, UnknownBotError
from crapette.notation import format_public_position
from crapette.records import parse_record
from crapette.simulation.errors import SimulationError
from crapette.testing import divide, perft

MESSAGE_LIMIT = 500  # no error message quotes more than a bounded excerpt of its input
# (an unknown option's message lists every option name: about 330 characters with the tarot
# packs' and table rules' options)

STATE = c.new_game(seed=1)
VIEW = c.observe(STATE, STATE.to_act)
OTHER = c.observe(STATE, 1 - STATE.to_act)
PACK1 = full_pack(1)

CASES: dict[str, tuple[Callable[[], object], type[c.CrapetteError], str]] = {
    "Card(200)": (lambda: c.Card(200), c.InvalidArgumentError, "index 200"),
    "Card(-1)": (lambda: c.Card(-1), c.InvalidArgumentError, "index -1"),
    "Card(huge)": (lambda: c.Card(10**5000), c.InvalidArgumentError, "16610 bits"),
    "format_card(104)": (lambda: c.format_card(104), c.InvalidArgumentError, "index 104"),
    "full_pack(3)": (lambda: full_pack(3), c.InvalidArgumentError, "pack must be 0 or 1, not 3"),
    "deal: no pack": (lambda: c.deal(None, None, PACK1), c.InvalidPositionError, "pack0"),  # type: ignore[arg-type]
    "deal: not cards": (
        lambda: c.deal(None, [*full_pack(0)[:5], None, *full_pack(0)[6:]], PACK1),  # type: ignore[list-item]
        c.InvalidPositionError,
        r"pack0\[5\] is not a card",
    ),
    "deal: card 300": (
        lambda: c.deal(None, [300, *full_pack(0)[1:]], PACK1),
        c.InvalidPositionError,
        r"pack0\[0\] is not a card: no card has index 300",
    ),
    "deal: starter 2": (
        lambda: c.deal(None, full_pack(0), PACK1, starter=2),
        c.InvalidArgumentError,
        "starter must be 0 or 1, not 2",
    ),
    "observe(state, 2)": (lambda: c.observe(STATE, 2), c.InvalidArgumentError, "player"),
    "format_public_position(state, 2)": (
        lambda: format_public_position(STATE, 2),
        c.InvalidArgumentError,
        "player must be 0 or 1, not 2",
    ),
    "board(bottom=2)": (lambda: text.board(STATE, bottom=2), c.InvalidArgumentError, "bottom"),
    "describe_move(state, 'zz')": (
        lambda: c.describe_move(STATE, "zz"),
        c.NotationError,
        "unknown move 'zz'",
    ),
    "describe_move(state, 'H1-H2')": (
        lambda: c.describe_move(STATE, "H1-H2"),
        c.IllegalMoveError,
        "H1-H2",
    ),
    "Rng.below(0)": (lambda: Rng(1).below(0), c.InvalidArgumentError, "from 1 to 2\\*\\*64, not 0"),
    "perft depth -1": (lambda: perft(STATE, -1), c.InvalidArgumentError, "depth"),
    "divide depth 0": (lambda: divide(STATE, 0), c.InvalidArgumentError, "depth"),
    "view.after by the other player": (
        lambda: OTHER.after(VIEW.legal_moves()[0]),
        c.IllegalMoveError,
        "not to act",
    ),
    "view.after(draw)": (lambda: VIEW.after(c.DRAW), c.InvalidArgumentError, "hidden cards"),
    "stop_decision without a decision": (
        lambda: stop_decision(VIEW),
        c.InvalidArgumentError,
        "no Stop! decision",
    ),
    "register_bot(bad name)": (
        lambda: register_bot("Bad Name", GreedyBot),
        UnknownBotError,
        "bad bot name 'Bad Name'",
    ),
    "register_bot(not callable)": (
        lambda: register_bot("nocall", 3),  # type: ignore[arg-type]
        UnknownBotError,
        "not callable",
    ),
    "register_bot(taken)": (
        lambda: register_bot("greedy", GreedyBot),
        UnknownBotError,
        "already registered",
    ),
    "Fallible(miss=2)": (
        lambda: Fallible(GreedyBot(), miss=2),
        UnknownBotError,
        "miss must be a probability",
    ),
    "SearchBot(budget=huge)": (
        lambda: SearchBot(budget=10**5000),
        UnknownBotError,
        "16610 bits",
    ),
    "SearchBot(width='x')": (
        lambda: SearchBot(width="x"),  # type: ignore[arg-type]
        UnknownBotError,
        "width must be an integer of at least 2, not 'x'",
    ),
    "play_deal(not bots)": (
        lambda: play_deal(STATE, (GreedyBot(), 3)),  # type: ignore[arg-type]
        BotError,
        r"bot 1 \(3\) has no choose",
    ),
    "svg.card(200)": (lambda: svg.card(200), c.InvalidArgumentError, "index 200"),
    "svg.card(width=0)": (lambda: svg.card(None, width=0), c.InvalidArgumentError, "width"),
    "svg.board(width=inf)": (
        lambda: svg.board(STATE, width=float("inf")),
        c.InvalidArgumentError,
        "width",
    ),
    "svg.card(width=huge)": (
        lambda: svg.card(None, width=10**5000),
        c.InvalidArgumentError,
        "16610 bits",
    ),
    "Move(huge source)": (
        lambda: c.Move(c.Action.PLAY, 10**5000, 2),
        c.InvalidMoveError,
        "16610 bits",
    ),
    "Move.play(huge)": (lambda: c.Move.play(10**5000, 1), c.InvalidMoveError, "16610 bits"),
    "perft depth -huge": (lambda: perft(STATE, -(10**5000)), c.InvalidArgumentError, "bits"),
    "play_deal(max_moves=-huge)": (
        lambda: play_deal(STATE, (GreedyBot(), GreedyBot()), max_moves=-(10**5000)),
        BotError,
        "16610 bits",
    ),
    "decode(huge)": (lambda: decode(10**5000), c.InvalidMoveError, "16610 bits"),
    "svg.board(seat=2)": (lambda: svg.board(STATE, seat=2), c.InvalidArgumentError, "seat"),
    "svg.move_piles(player=2)": (
        lambda: svg.move_piles(STATE, c.DRAW, player=2),
        c.InvalidArgumentError,
        "player must be 0 or 1, not 2",
    ),
    "svg.board(arrows=bad pile)": (
        lambda: svg.board(STATE, arrows=[("H1", "X9")]),
        c.InvalidArgumentError,
        "unknown pile name 'X9'",
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_bad_value_raises_a_library_error_naming_it(name: str) -> None:
    call, error, words = CASES[name]
    snapshot = c.to_json(STATE)
    with pytest.raises(error, match=words) as info:
        call()
    assert isinstance(info.value, c.CrapetteError)
    assert isinstance(info.value, ValueError) or error is BotError
    assert len(str(info.value)) < 400  # a bounded excerpt of the input, never all of it
    assert c.to_json(STATE) == snapshot  # nothing changed


def test_every_library_error_is_a_crapette_error() -> None:
    import crapette.errors as errors
    import crapette.simulation.errors as simulation_errors

    for module in (errors, simulation_errors):
        for name in module.__all__:
            error = getattr(module, name)
            if name in ("SimulationInterrupted", "RunInterrupted"):
                # Ctrl-C: a KeyboardInterrupt on purpose, so `except Exception` cannot swallow it
                assert issubclass(error, KeyboardInterrupt) and not issubclass(error, Exception)
                continue
            assert issubclass(error, c.CrapetteError), name
            if name in c.__all__:
                assert getattr(c, name) is error


# Where each layer's public errors are defined: the core's in crapette.errors, the
# simulator's in crapette.simulation.errors, the game server's in crapette.web, the command
# line's in crapette.cli (its OutputError is caught there and never reaches a library user).
ERROR_HOMES = {
    "crapette.errors",
    "crapette.simulation.errors",
    "crapette.web._error",
    "crapette.cli._output",
}


def test_every_exception_class_of_the_library_lives_in_its_layers_errors() -> None:
    """Every exception class that a module of the package defines (but the two private
    control-flow ones) is defined in its layer's home of errors; the simulator's errors are
    no longer in crapette.errors, and the modules that raise them import them from their
    home."""
    import importlib
    import pkgutil

    import crapette.errors as errors

    pytest.importorskip("fastapi")
    found: dict[str, str] = {}
    for info in pkgutil.walk_packages(c.__path__, "crapette."):
        if info.name == "crapette.__main__":
            continue
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            if (
                isinstance(value, type)
                and issubclass(value, BaseException)
                and value.__module__ == info.name
                and not name.startswith("_")
            ):
                found[name] = info.name
    assert set(found.values()) <= ERROR_HOMES, found
    assert found["SimulationError"] == found["PlotError"] == "crapette.simulation.errors"
    assert found["SimulationInterrupted"] == found["PoolError"] == "crapette.simulation.errors"
    assert found["WebError"] == "crapette.web._error"
    for moved in ("SimulationError", "PlotError", "PoolError", "SimulationInterrupted"):
        assert not hasattr(errors, moved)
    from crapette.session import SessionError
    from crapette.simulation import SimulationError
    from crapette.web import WebError

    assert SessionError is errors.SessionError and issubclass(WebError, SessionError)
    assert SimulationError.__module__ == "crapette.simulation.errors"


def test_errors_imports_nothing_of_the_library() -> None:
    """crapette.errors is layer 0: it imports no other module of the package, not even for
    a type (it used to import crapette.simulation for DealRecord)."""
    import ast

    import crapette.errors as errors

    tree = ast.parse(Path(errors.__file__).read_text(encoding="utf-8"))
    imported = [
        node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
    ] + [
        alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    assert not [m for m in imported if m.startswith("crapette")], imported


@pytest.mark.parametrize("field", ["games", "seed", "workers", "start"])
def test_simulation_messages_quote_huge_numbers_by_size(field: str) -> None:
    """A number of thousands of digits is refused with a short message, not a ValueError
    from printing it."""
    from crapette.simulation import simulate

    args = {"games": 2, "seed": 1, field: 10**5000}
    with pytest.raises(SimulationError, match="an integer of 16610 bits"):
        simulate("classic", ("random", "random"), **args)


# --------------------------------------------------------------------------------------
# Messages quote a bounded excerpt of their input


HUGE = "x" * 10_000_000


@pytest.mark.parametrize(
    "parse",
    [
        c.parse_card,
        c.parse_position,
        parse_record,
        c.from_json,
        c.Ruleset.from_string,
        lambda text: c.parse_move(c.new_game(seed=1), text),
        lambda text: c.parse_position(c.format_position(c.new_game(seed=1)) + " " + text),
        lambda text: parse_record('[Seed "1"]\n\n1. draw ' + text),
        lambda text: parse_record(f'[Seed "{text}"]\n\n1. draw').replay(),
        lambda text: c.from_json(json.dumps({"format": "crapette", "version": text})),
        lambda text: c.from_json(
            c.to_json(c.new_game(seed=1)).replace('"to_act": 0', '"to_act": "' + text + '"')
        ),
        lambda text: c.Ruleset.from_string(f"classic(stop={text})"),
        lambda text: c.from_json(
            c.to_json(c.Ruleset()).replace('"options": {', '"options": {"' + text + '": 1, ')
        ),
        lambda text: get_bot(text),
        lambda text: get_bot("search:" + text),
    ],
)
def test_error_messages_quote_a_bounded_excerpt(parse: Any) -> None:
    with pytest.raises(c.CrapetteError) as info:
        parse(HUGE)
    assert len(str(info.value)) < MESSAGE_LIMIT


def test_position_error_on_a_huge_line_quotes_an_excerpt() -> None:
    line = c.format_position(c.new_game(seed=1)).replace("0 -/", "1 -/", 1)
    fields = line.split(" ")
    fields[12] = ",".join(["00000000000000ff"] * 200_000)
    fields[9] = "1"  # house H1 marked emptied but holds a card: an impossible position
    with pytest.raises(c.NotationError, match="impossible position") as info:
        c.parse_position(" ".join(fields))
    assert len(str(info.value)) < 1000
