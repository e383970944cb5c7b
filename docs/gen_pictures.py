"""Draw the pictures of positions shown in the docs (``docs/pictures/*.svg``).

Run ``python docs/gen_pictures.py`` after a change to the renderer or the rules; the test
``tests/test_svg.py::test_doc_pictures_are_current`` fails while a committed picture differs
from what this script draws. Every position comes from a seeded deal, so the pictures are the
same on every machine.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import crapette
from crapette import svg
from crapette.deal import Rng

HERE = Path(__file__).resolve().parent / "pictures"
WIDTH = 720


def positions(rules: crapette.Ruleset, seed: int, moves: int = 600) -> Iterator[crapette.GameState]:
    """The positions of a deal played by random moves (seeded)."""
    state = crapette.new_game(rules, seed=seed)
    rng = Rng(seed)
    for _ in range(moves):
        if crapette.is_over(state):
            return
        yield state
        legal = crapette.legal_moves(state)
        state = crapette.apply(state, legal[rng.below(len(legal))])


def table() -> str:
    """A new deal: the layout of the table."""
    return svg.board(crapette.new_game(seed=1), width=WIDTH)


def building() -> str:
    """A position where a card can be built on a house and another can load the opponent."""
    for state in positions(crapette.Ruleset(), 5):
        legal = crapette.legal_moves(state)
        loads = [m for m in legal if m.is_play and m.target >= crapette.OPP_RESERVE]
        builds = [
            m
            for m in legal
            if m.is_play and m.target < 8 and state.houses[m.target] and m.source >= 8
        ]
        if loads and builds:
            return svg.board(state, seat=state.to_act, arrows=[builds[0], loads[0]], width=WIDTH)
    raise AssertionError("no such position")  # pragma: no cover


def group() -> str:
    """A group move between houses."""
    for state in positions(crapette.Ruleset(), 2, 3000):
        moves = [m for m in crapette.legal_moves(state) if m.count > 1]
        if moves:
            return svg.board(state, seat=state.to_act, arrows=moves[:1], width=WIDTH)
    raise AssertionError("no such position")  # pragma: no cover


def classic_priority() -> str:
    """``classic``, seed 4: only foundation moves are legal."""
    state = crapette.new_game(seed=4)
    return svg.board(state, seat=state.to_act, arrows=crapette.legal_moves(state), width=WIDTH)


def pagat_stop() -> str:
    """``pagat``, seed 4: a violating draw awaits the opponent's Stop! decision."""
    state = crapette.new_game(crapette.Ruleset.preset("pagat"), seed=4)
    after = crapette.apply(state, crapette.DRAW)
    return svg.board(
        after,
        seat=state.to_act,
        last_move=svg.move_piles(state, crapette.DRAW),
        width=WIDTH,
    )


def belarusian_fill() -> str:
    """``belarusian``, seed 0, after H2-H3: the reserve must fill H2."""
    state = crapette.new_game(crapette.Ruleset.preset("belarusian"), seed=0)
    move = crapette.Move.play(1, 2)
    after = crapette.apply(state, move)
    return svg.board(
        after,
        seat=after.to_act,
        last_move=svg.move_piles(state, move),
        arrows=crapette.legal_moves(after),
        width=WIDTH,
    )


def serbian_reveal() -> str:
    """``serbian``, seed 0: both reserves face down; the first player reveals."""
    state = crapette.new_game(crapette.Ruleset.preset("serbian"), seed=0)
    return svg.board(state, seat=state.to_act, arrows=[crapette.REVEAL], width=WIDTH)


PICTURES: dict[str, Callable[[], str]] = {
    "table.svg": table,
    "building.svg": building,
    "group.svg": group,
    "classic-priority.svg": classic_priority,
    "pagat-stop.svg": pagat_stop,
    "belarusian-fill.svg": belarusian_fill,
    "serbian-reveal.svg": serbian_reveal,
}
"""File name to the function that draws it."""


def pictures() -> dict[str, str]:
    """Every picture's file name and SVG text (ending in a newline)."""
    return {name: draw() + "\n" for name, draw in PICTURES.items()}


def main() -> int:
    """Write the pictures into ``docs/pictures``; print the names of those that changed."""
    HERE.mkdir(exist_ok=True)
    for name, text in pictures().items():
        path = HERE / name
        if not path.exists() or path.read_text("utf-8") != text:
            path.write_text(text, "utf-8")
            print("wrote", path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
