"""The two builds of the core: compiled (mypyc wheel) and pure Python (``CRAPETTE_PURE=1``).

These run on either install. On a pure install both sides are the pure modules (the checks
still hold); ``.ci/wheel-test`` runs them on the compiled wheel, where they compare the two.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys

import crapette

# Calls of public entry points with bad arguments, whose error type and message must not
# depend on the build: mypyc checks an argument annotated with a compiled class, int, str,
# tuple... before the body runs and raises its own TypeError, so a public function either
# takes such arguments loosely typed and checks them itself, or raises
# crapette._build.argument_type_error (mypyc's wording) from its own check in the pure build.
# (Private helpers such as legality.fits_house are not held to this.)
BAD_CALLS = r"""
import json
import crapette as c
from crapette import testing, views
from crapette.deal import Rng

state = c.new_game(seed=1)
view = c.observe(state, 0)
names = "rules to_act foundations houses reserves reserve_up hands wastes turned stop emptied"
fields = {name: getattr(state, name) for name in names.split()}
calls = {
    "new_game seed str": lambda: c.new_game(seed="1"),
    "new_game seed float": lambda: c.new_game(seed=1.5),
    "new_game seed None": lambda: c.new_game(seed=None),
    "new_game rules int": lambda: c.new_game(3, seed=1),
    "Rng str": lambda: Rng("1"),
    "preset int": lambda: c.Ruleset.preset(3),
    "preset unknown": lambda: c.Ruleset.preset("nope"),
    "from_string None": lambda: c.Ruleset.from_string(None),
    "from_string bad option": lambda: c.Ruleset.from_string("classic(foo=1)"),
    "legal_moves str": lambda: c.legal_moves("state"),
    "legal_moves None": lambda: c.legal_moves(None),
    "apply text": lambda: c.apply(state, "R-F"),
    "apply int": lambda: c.apply(state, 3),
    "apply None": lambda: c.apply(state, None),
    "apply not a state": lambda: c.apply("state", c.DRAW),
    "apply illegal": lambda: c.apply(state, c.Move.play(0, 1)),
    "apply_unchecked not a state": lambda: c.apply_unchecked("state", c.DRAW),
    "observe player str": lambda: c.observe(state, "0"),
    "observe player 2": lambda: c.observe(state, 2),
    "observe player None": lambda: c.observe(state, None),
    "observe not a state": lambda: c.observe("state", 0),
    "determinize int rng": lambda: views.determinize(view, 5),
    "outcome str": lambda: c.outcome("state"),
    "is_over str": lambda: c.is_over("state"),
    "why_illegal str": lambda: c.why_illegal(state, "R-F"),
    "Move.play str": lambda: c.Move.play("H1", 2),
    "Move.play float": lambda: c.Move.play(0, 1.0),
    "parse_card int": lambda: c.parse_card(3),
    "perft depth str": lambda: testing.perft(state, "2"),
    "legal_moves tuple": lambda: c.legal_moves((1, "a", None)),
    "legal_moves view": lambda: c.legal_moves(view),
    "why_illegal not a state": lambda: c.why_illegal("state", c.DRAW),
    "reference_legal_moves str": lambda: testing.reference_legal_moves("state"),
    "determinize not a view": lambda: views.determinize(state, Rng(1)),
    "assign a field": lambda: setattr(state, "to_act", 1),
    "assign a property": lambda: setattr(state, "seen", frozenset()),
    "assign a method": lambda: setattr(state, "replace", None),
    "assign a new name": lambda: setattr(state, "colour", 1),
    "assign __class__": lambda: setattr(state, "__class__", int),
    "delete a field": lambda: delattr(state, "houses"),
    "delete a new name": lambda: delattr(state, "colour"),
    "GameState to_act str": lambda: state.replace(to_act="1"),
    "GameState houses list": lambda: c.GameState(**{**fields, "houses": list(state.houses)}),
    "GameState stop str": lambda: state.replace(stop="R-F"),
    "GameState houses_key str": lambda: c.GameState(**{**fields, "houses_key": "0"}),
}
out = {}
for name, call in calls.items():
    try:
        call()
    except Exception as error:
        out[name] = [type(error).__name__, str(error)]
    else:
        out[name] = ["no error", ""]
print(json.dumps(out))
"""


def _run(code: str, pure: bool) -> str:
    env = {k: v for k, v in os.environ.items() if k != "CRAPETTE_PURE"}
    if pure:
        env["CRAPETTE_PURE"] = "1"
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return result.stdout.strip().splitlines()[-1]


def test_compiled_says_which_modules_run() -> None:
    """``crapette.COMPILED`` is True exactly when a loaded core module is an extension."""
    loaded = [m for name, m in sys.modules.items() if name.startswith("crapette.")]
    extension = [
        m for m in loaded if isinstance(m.__loader__, importlib.machinery.ExtensionFileLoader)
    ]
    assert bool(extension) == crapette.COMPILED
    if os.environ.get("CRAPETTE_EXPECT_COMPILED") == "1":  # set by .ci/wheel-test
        assert crapette.COMPILED, "the compiled wheel runs the pure modules"


def test_crapette_pure_loads_every_module_from_source() -> None:
    """``CRAPETTE_PURE=1`` makes every crapette module (the core, bots, ...) a .py source."""
    code = (
        "import sys, crapette, crapette.bots, crapette.simulation\n"
        "mods = {n: type(m.__loader__).__name__ for n, m in sys.modules.items()"
        " if n == 'crapette' or n.startswith('crapette.')}\n"
        "print(crapette.COMPILED, sorted(set(mods.values())), len(mods))"
    )
    line = _run(code, pure=True)
    assert line.startswith("False ['SourceFileLoader'] "), line
    assert int(line.rsplit(" ", 1)[1]) > 10


def test_crapette_pure_0_does_not_force_the_pure_build() -> None:
    """``CRAPETTE_PURE=0`` (or empty) leaves the build as installed."""
    code = "import crapette; print(crapette.COMPILED)"
    env = dict(os.environ, CRAPETTE_PURE="0")
    result = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == _run(code, pure=False)


def test_bad_arguments_raise_the_same_errors_in_both_builds() -> None:
    """Every bad call raises the same error type and message, compiled or pure."""
    pure = json.loads(_run(BAD_CALLS, pure=True))
    installed = json.loads(_run(BAD_CALLS, pure=False))
    assert installed == pure
    assert pure["observe player str"] == ["InvalidArgumentError", "player must be 0 or 1, not '0'"]
    assert pure["apply not a state"][0] == "TypeError"
