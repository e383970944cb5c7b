"""A newcomer's first hour (issue 23): a view prints as a board, the terminal game fits an
80x24 terminal and reads well, ``save FILE.json`` writes JSON, and the getting-started page
deals a game before it talks about releases."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

import crapette as c
from crapette.cli.game import TerminalGame
from crapette.records import GameRecord
from crapette.text import board

DOCS = Path(__file__).resolve().parent.parent / "docs"

# Three empty houses, a turned card and runs that move in groups: 56 legal moves.
CROWDED = (
    "classic 0 AC2C3c4c5C6c7c/AS2S3S/Ah2H3H4H/AD2d/Ad/AH/As/- -/6d5s4D/9d8c7h6s5D/6h/-/-/"
    "TC9D8S7d6S5d/Td9S8d7C6D 9C5S7HKSQCKcQc/- 3/0 5H7S/2s3sTs4dAc5c"
    " KC3D4S8H9h4CJS2D7D8DTSJsQSKDJC9HJDQd6H8C9cTHJHQH6C/"
    "8hQhKH4h3dTcJc5hKh7s8s9s2hQsThJh3hJdTD2c3CKd4sKs QD 156 0/0 350 - -"
)


@pytest.mark.parametrize("player", [0, 1])
def test_a_view_prints_as_the_board_its_player_sees(player: int) -> None:
    state = c.new_game(seed=5)
    view = c.observe(state, player)
    text = board(view)
    assert str(view) == text
    assert text == board(state, hidden=True, bottom=player)
    assert text.splitlines()[-2].startswith(f"player {player}")  # the viewer at the bottom
    assert board(view, ascii=True, bottom=0, names=("a", "b")) == board(
        state, hidden=True, ascii=True, bottom=0, names=("a", "b")
    )
    assert "|" not in text and view.to_string().startswith("view/1 |")  # the machine form


def _game(state: c.GameState, answers: list[str], *, width: int = 80) -> tuple[TerminalGame, str]:
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None)
    lines = iter(answers)

    def read(prompt: str) -> str:
        out.write(prompt)
        try:
            line = next(lines)
        except StopIteration:
            raise EOFError from None
        out.write(line + "\n")
        return line

    game = TerminalGame(state.rules, seed=1, human=state.to_act, console=console, input_fn=read)
    game.session.load(state)
    game.run()
    return game, out.getvalue()


def test_a_crowded_position_fits_an_80x24_terminal() -> None:
    state = c.parse_position(CROWDED)
    assert len(c.legal_moves(state)) > 50
    _, text = _game(state, [])
    screen = text.split("Russian Bank: you are player 0; type 'help' for help.\n", 1)[1]
    screen = screen.split("\nBye.", 1)[0]
    rows = screen.splitlines()
    assert len(rows) <= 24 and max(len(row) for row in rows) <= 80, screen
    listed = [row.split()[1] for row in rows if row.strip()[:1].isdigit()]
    assert "H3-H1x4" in listed and "H3-H1x2" not in listed  # one line per run and target
    assert "R-H1" in listed and "R-H5" not in listed  # an empty house once
    assert len(listed) == len(set(listed)) == 10
    assert "(others in notation, e.g. R-H5" in screen  # and how to type the others


def test_every_move_the_list_leaves_out_can_be_typed() -> None:
    state = c.parse_position(CROWDED)
    for move in (c.Move.play(c.RESERVE, 4), c.Move.play(2, 0, 2)):
        assert move in c.legal_moves(state)
        game, _ = _game(state, [str(move)])
        assert game.moves[:1] == [move]


def test_the_moves_command_describes_every_listed_move() -> None:
    state = c.parse_position(CROWDED)
    _, text = _game(state, ["moves"])
    assert "8♣ 7♥ 6♠ 5♦ (4 cards) from house 3 to house 1" in text


def _forced() -> c.GameState:
    state = c.new_game(seed=3)
    while len(c.legal_moves(state)) != 1 or state.to_act != state.turn_player:
        state = c.apply(state, c.legal_moves(state)[0])
    return state


def test_a_forced_move_is_made_with_enter() -> None:
    state = _forced()
    (only,) = c.legal_moves(state)
    game, text = _game(state, [""])
    assert "[1-1" not in text and f"[Enter: {only}, help]" in text
    assert game.moves[:1] == [only]


def test_the_header_is_printed_once_and_the_totals_read_well() -> None:
    state = c.new_game(seed=3)
    _, text = _game(state, [])
    first = text.splitlines()[1:3]
    assert first[0] == "Deal 1 of a match to 300 · Totals — you: 0, greedy bot: 0"
    assert first[1] == "classic · move 0"  # the board's own line: rules and move once
    assert text.count("classic") == 1


def test_the_demo_totals_do_not_run_names_and_numbers_together() -> None:
    out = io.StringIO()
    game = TerminalGame(
        c.parse_rules("classic(move_cap=200)"),
        seed=4,
        human=None,
        console=Console(file=out, width=100, color_system=None),
        sleep=lambda _: None,
    )
    game.run()
    text = out.getvalue()
    assert "greedy bot 0: " in text and "greedy bot 1: " in text
    assert "greedy bot 0 0" not in text and "Totals: greedy" not in text


@pytest.mark.parametrize(("name", "is_json"), [("deal.json", True), ("deal.txt", False)])
def test_save_writes_json_for_a_json_file(tmp_path: Path, name: str, is_json: bool) -> None:
    state = c.new_game(seed=3)
    path = tmp_path / name
    game, _ = _game(state, ["1", f"save {path}"])
    text = path.read_text(encoding="utf-8")
    if is_json:
        record = GameRecord.from_json(text)
        assert json.loads(text)["type"] == "record"
    else:
        assert text.startswith("[Rules ")
        record = GameRecord.from_text(text)
    assert [str(m) for m in game.moves] == list(record.moves)
    loaded, _ = _game(state, [f"load {path}"])
    assert loaded.moves == game.moves


def test_getting_started_deals_a_game_before_making_a_release() -> None:
    page = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    headings = [line for line in page.splitlines() if line.startswith("## ")]
    titles = [h[3:].strip() for h in headings]
    assert "Deal a game" in titles and "Making a release" in titles
    assert titles.index("Deal a game") < titles.index("Making a release")
