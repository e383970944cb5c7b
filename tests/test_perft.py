"""perft regression counts from seeded mid-game positions of every preset.

The files ``tests/perft/<preset>.txt`` hold, for each position, the behaviour version, the
rules string, the position line and the perft count at each depth. The test checks every
depth whose count stays under a node cap (so it stays fast) and prints the ``divide`` of a
failing depth. Regenerate the files (after a deliberate behaviour change, with
``BEHAVIOUR_VERSION`` bumped) with ``python tests/test_perft.py``, or those of new presets only
with ``python tests/test_perft.py NAME...``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import crapette as c
from crapette.deal import Rng
from crapette.testing import divide, perft

PERFT_DIR = Path(__file__).parent / "perft"
NODE_CAP = 6_000
"""The test checks a depth only when its count is at most this many nodes."""
GENERATE_LAST = 20_000
"""Generated files record one more depth after the first count above this."""


def load_cases() -> list[tuple[str, str, str, int, list[tuple[int, int]]]]:
    """Every (file, rules, position, behaviour, [(depth, count), ...]) in the regression files.

    A file is blocks separated by blank lines; ``#`` starts a comment line; each block has
    ``behaviour N``, ``rules TEXT``, ``position LINE`` and ``depth D COUNT`` lines.
    """
    cases = []
    for path in sorted(PERFT_DIR.glob("*.txt")):
        for block in path.read_text(encoding="utf-8").split("\n\n"):
            fields: dict[str, str] = {}
            depths: list[tuple[int, int]] = []
            for line in block.splitlines():
                if not line.strip() or line.startswith("#"):
                    continue
                key, _, value = line.partition(" ")
                if key == "depth":
                    depth, count = value.split()
                    depths.append((int(depth), int(count)))
                else:
                    fields[key] = value
            if fields:
                cases.append(
                    (
                        path.name,
                        fields["rules"],
                        fields["position"],
                        int(fields["behaviour"]),
                        depths,
                    )
                )
    return cases


CASES = load_cases()


def test_every_preset_has_regression_positions() -> None:
    presets = {c.Ruleset.from_string(rules) for _, rules, *_ in CASES}
    assert presets == set(c.PRESETS.values())
    states = [c.parse_position(position) for _, _, position, *_ in CASES]
    assert any(s.stop is not None and s.rules.stop == "undo" for s in states)
    assert any(s.stop is not None and s.rules.stop == "card" for s in states)
    assert any(s.fault is not None and s.rules.stop == "lose_draw" for s in states)
    assert any(len(s.foundations) == 10 and s.moves_made > 0 for s in states)
    assert any(
        s.rules == c.Ruleset.preset("serbian")
        and any(s.reserves[p] and not s.reserve_up[p] for p in (0, 1))
        and s.moves_made > 0
        for s in states
    )


@pytest.mark.parametrize(
    ("name", "rules", "position", "behaviour", "depths"),
    CASES,
    ids=[f"{case[0]}-{i}" for i, case in enumerate(CASES)],
)
def test_perft_counts(
    name: str, rules: str, position: str, behaviour: int, depths: list[tuple[int, int]]
) -> None:
    state = c.parse_position(position)
    assert str(state.rules) == rules
    assert behaviour == c.BEHAVIOUR_VERSION, "regenerate the perft files for the new behaviour"
    checked = 0
    for depth, expected in depths:
        if expected > NODE_CAP:
            break
        got = perft(state, depth)
        if got != expected:
            split = divide(state, depth)
            listing = "\n".join(f"  {move}: {count}" for move, count in split.items())
            pytest.fail(
                f"{name}: perft({depth}) = {got}, expected {expected}\nposition: {position}\n"
                f"divide({depth}):\n{listing}"
            )
        checked += 1
    assert checked >= 2


def test_perft_basics() -> None:
    state = c.new_game(c.Ruleset.preset("pagat"), seed=11)
    assert perft(state, 0) == 1
    assert perft(state, 1) == len(c.legal_moves(state))
    split = divide(state, 3)
    assert sum(split.values()) == perft(state, 3)
    assert list(split) == [str(m) for m in c.legal_moves(state)]
    with pytest.raises(ValueError):
        perft(state, -1)
    with pytest.raises(ValueError):
        divide(state, 0)


def test_perft_of_finished_deal_is_zero_beyond_depth_zero() -> None:
    done = c.new_game(seed=5).replace(passes=(2, 2))
    assert c.is_over(done)
    assert perft(done, 0) == 1
    assert perft(done, 1) == 0


# ------------------------------------------------------------------------------------------
# Generation of the regression files


def _walk(rules: c.Ruleset, seed: int, plies: int, want=None):  # type: ignore[no-untyped-def]
    """Play seeded random moves: the first state after ``plies`` moves satisfying ``want``,
    trying the next seeds until one has it. Returns (seed, state)."""
    for tried in range(seed, seed + 100):
        rng = Rng(tried)
        state = c.new_game(rules, seed=tried)
        while not c.is_over(state):
            if state.moves_made >= plies and (want is None or want(state)):
                return tried, state
            moves = c.legal_moves(state)
            state = c.apply(state, moves[rng.below(len(moves))])
    raise AssertionError(f"no position found from seed {seed}")


def _positions(name: str) -> list[tuple[str, c.GameState]]:
    rules = c.Ruleset.preset(name)
    base = 1000 * list(c.PRESETS).index(name)
    out = []
    for seed, plies in ((base + 101, 40), (base + 202, 150)):
        seed, state = _walk(rules, seed, plies, lambda s: s.stop is None)
        out.append((f"seed {seed}, {plies}+ random moves", state))
    if rules.callable_stop and rules.call_window == "after_move":
        for seed in (base + 303, base + 404):
            seed, state = _walk(rules, seed, 30, lambda s: s.stop is not None)
            out.append((f"seed {seed}, a pending Stop! decision", state))
    if rules.callable_stop and rules.call_window == "turn_start":
        for seed in (base + 606, base + 707):
            seed, state = _walk(rules, seed, 30, lambda s: s.fault is not None)
            out.append((f"seed {seed}, a faulty turn end at the start of a turn", state))
    if not rules.reserve_face_up:
        seed, state = _walk(
            rules,
            base + 505,
            20,
            lambda s: s.stop is None and any(s.reserves[p] and not s.reserve_up[p] for p in (0, 1)),
        )
        out.append((f"seed {seed}, a face-down reserve top", state))
    return out


def generate(names: list[str]) -> None:
    """Rewrite ``tests/perft/<preset>.txt`` for the presets named (default: every one)."""
    PERFT_DIR.mkdir(exist_ok=True)
    for name in names or c.PRESETS:
        lines = [
            f"# perft regression positions for the {name} preset (python tests/test_perft.py"
            " regenerates)",
            "",
        ]
        for label, state in _positions(name):
            lines += [
                f"# {label}",
                f"behaviour {c.BEHAVIOUR_VERSION}",
                f"rules {state.rules}",
                f"position {c.format_position(state)}",
            ]
            depth = 1
            while True:
                count = perft(state, depth)
                lines.append(f"depth {depth} {count}")
                if count > GENERATE_LAST or count == 0 or depth >= 10:
                    break
                depth += 1
            lines.append("")
        (PERFT_DIR / f"{name}.txt").write_text("\n".join(lines), encoding="utf-8")
        print(f"wrote {name}.txt", file=sys.stderr)


if __name__ == "__main__":
    generate(sys.argv[1:])
