"""The terminal game (``crapette play``), driven by scripted input."""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from rich.console import Console

import crapette as c
from crapette.cli import main
from crapette.cli.game import TerminalGame, _menu, get_chooser, render_board
from crapette.deal import Rng
from crapette.moves import ALL_MOVES
from crapette.records import GameRecord
from crapette.testing import violation
from crapette.text import board, describe_move


def _number_or_text(state: c.GameState, move: c.Move) -> str:
    """What to type for ``move``: its number in the game's list, or its notation when the
    list leaves it out (another group size, another empty house)."""
    menu, _ = _menu(state, c.legal_moves(state))
    return str(menu.index(move) + 1) if move in menu else str(move)


def _reader(out: io.StringIO, answers: Iterable[str]) -> Callable[[str], str]:
    """An input function that answers the prompts with ``answers`` in turn (then EOF),
    echoing prompt and answer to ``out`` as a terminal shows them."""
    lines = iter(answers)

    def read(prompt: str) -> str:
        out.write(prompt)
        try:
            line = next(lines)
        except StopIteration:
            raise EOFError from None
        out.write(line + "\n")
        return line

    return read


def make_game(
    answers: Iterable[str] | Callable[[str], str],
    *,
    rules: c.Ruleset | None = None,
    seed: int = 3,
    human: int | None = None,
    bot: str = "greedy",
) -> tuple[TerminalGame, io.StringIO]:
    """A game whose input comes from ``answers`` (a list of lines, then EOF, or a function of
    the prompt) and whose output goes to a string."""
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None)
    rules = rules or c.Ruleset()
    if human is None:  # the human starts, so the first prompt comes at once
        human = c.new_match(rules, seed=seed).state.to_act
    read = answers if callable(answers) else _reader(out, answers)

    game = TerminalGame(
        rules, seed=seed, bot=bot, human=human, console=console, input_fn=read, sleep=lambda s: None
    )
    return game, out


def test_a_deal_played_to_the_end_with_scripted_choices() -> None:
    helper = get_chooser("greedy", 11)
    box: list[TerminalGame] = []

    def read(prompt: str) -> str:
        if prompt.startswith("Next deal"):
            return "n"
        state = box[0].state
        return _number_or_text(state, helper(state))

    game, out = make_game(read, seed=5)
    box.append(game)
    assert game.run() == 0
    result = c.outcome(game.state)
    assert result is not None
    assert game.totals == result.scores
    text = out.getvalue()
    assert "won the deal" in text or "stalemate" in text or "move cap" in text
    assert "Match totals" in text
    # Every move of the deal was shown and replays from the first state.
    state = game.states[0]
    for move in game.moves:
        state = c.apply(state, move)
    assert state == game.state


def test_eof_at_the_first_prompt_quits_cleanly() -> None:
    game, out = make_game([])
    assert game.run() == 0
    assert "Bye." in out.getvalue()
    assert game.moves == []


def test_quit_command() -> None:
    game, out = make_game(["quit"])
    assert game.run() == 0
    assert out.getvalue().rstrip().endswith("Bye.")


def snapshot(game: TerminalGame) -> tuple[str, list[str], list[c.Move]]:
    """Everything a refused input must leave as it was: the match (its whole JSON), the
    states kept for undo and the moves played."""
    return c.to_json(game.match), [c.to_json(s) for s in game.states], list(game.moves)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("xyzzy", "'xyzzy'"),
        ("0", "no move number 0"),
        ("999", "no move number 999"),
        ("save", "save needs a file name"),
        ("load", "load needs a file name"),
        ("[bold]oops[/bold]", "'[bold]oops[/bold]'"),
        ("load /nonexistent/dir/file.txt", "cannot read"),
        ("undo", "no move of yours that may be taken back"),
    ],
)
def test_bad_input_gets_one_line_and_the_prompt_again(line: str, expected: str) -> None:
    game, out = make_game([line])
    before = snapshot(game)
    assert game.run() == 0
    assert snapshot(game) == before
    text = out.getvalue()
    assert expected in text
    # After the explanation the prompt comes back (then EOF quits).
    after = text[text.index(expected) :]
    assert "Your move [" in after
    assert game.moves == []


def test_an_illegal_move_in_notation_says_why() -> None:
    game, out = make_game([])
    state = game.state
    illegal = next(m for m in ALL_MOVES if m.is_play and m not in c.legal_moves(state))
    game, out = make_game([str(illegal)])
    before = snapshot(game)
    game.run()
    assert f"'{illegal}'" in out.getvalue()
    assert snapshot(game) == before


def test_a_move_typed_in_notation_is_played() -> None:
    game, _ = make_game([])
    first = c.legal_moves(game.state)[0]
    game, _ = make_game([str(first)])
    game.run()
    assert game.moves[:1] == [first]


def test_help_rules_board_and_moves_commands() -> None:
    game, out = make_game(["help", "rules", "board", "moves"], rules=c.Ruleset.preset("serbian"))
    assert game.run() == 0
    text = out.getvalue()
    assert "undo" in text and "save FILE" in text
    assert "Rules: serbian" in text and "house_filling" in text and "priority" in text
    assert text.count("Totals —") >= 2


def test_hint_names_a_legal_move() -> None:
    game, out = make_game(["hint"])
    game.run()
    line = next(x for x in out.getvalue().splitlines() if x.startswith("Hint: "))
    number = int(line.split()[1].rstrip("."))
    assert 1 <= number <= len(c.legal_moves(game.state))


def test_undo_returns_to_the_previous_decision() -> None:
    game, _ = make_game([])
    start = game.state
    moves = c.legal_moves(start)
    # Play a move that keeps the turn, then undo it.
    game, out = make_game(["1", "undo"])
    game.run()
    assert game.state == start
    assert game.moves == []
    assert "Taken back" in out.getvalue()
    assert moves


def test_undo_never_crosses_the_bots_turn() -> None:
    """The server's policy of undo: once the human's turn has ended (a discard) and the bot
    has played, nothing may be taken back; the refusal says so and changes nothing."""

    def script(game: TerminalGame) -> Callable[[str], str]:
        def read(prompt: str) -> str:
            state = game.state
            if any(s.to_act != game.human for s in game.states):
                raise EOFError  # the bot has played a turn: stop here
            moves = c.legal_moves(state)
            # Discard as soon as possible, so the bot gets a turn.
            for want in (c.DISCARD, c.DRAW, c.END_TURN):
                if want in moves:
                    return _number_or_text(state, want)
            return "1"

        return read

    game, _ = make_game([])
    game.input_fn = script(game)
    game.run()
    assert any(s.to_act != game.human for s in game.states), "the bot never played"
    assert game.state.to_act == game.human
    before = snapshot(game)
    out = io.StringIO()
    game.console = Console(file=out, width=200, color_system=None)
    lines = iter(["undo", "quit"])
    game.input_fn = lambda prompt: next(lines)
    game.run()
    assert "there is no move of yours that may be taken back" in out.getvalue()
    assert snapshot(game) == before


def test_undo_never_takes_back_a_draw() -> None:
    """A draw shows a card hidden before: it may not be taken back (the server's policy)."""
    game, _ = make_game([])
    state = game.state
    moves = c.legal_moves(state)
    while c.DRAW not in moves:  # play on (the human starts) until drawing is legal
        state = c.apply(state, moves[0])
        moves = c.legal_moves(state)
        assert state.to_act == game.human
    game, out = make_game([_number_or_text(state, c.DRAW), "undo"], human=game.human)
    game.session.load(state)
    before_draw = game.state
    game.run()
    assert game.moves == [c.DRAW] and game.state != before_draw
    assert "there is no move of yours that may be taken back" in out.getvalue()


def test_save_and_load(tmp_path: Path) -> None:
    path = tmp_path / "game.txt"
    game, out = make_game(["1", "2", f"save {path}"])
    game.run()
    assert path.exists()
    assert "Saved" in out.getvalue()
    other, out2 = make_game([f"load {path}"], seed=99, human=game.human)
    other.run()
    assert "Loaded" in out2.getvalue()
    # The loaded deal continues from the saved position (the bot may have played on).
    assert other.states[: len(game.states)] == game.states
    assert other.moves[: len(game.moves)] == game.moves


def test_loading_garbage_is_an_error_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "bad.txt"
    path.write_text("this is not a game record\n[[[", encoding="utf-8")
    game, out = make_game([f"load {path}"])
    assert game.run() == 0
    assert "Loaded" not in out.getvalue()
    assert game.moves == []


def _state_with_a_pending_stop(rules: c.Ruleset) -> c.GameState:
    rng = Rng(1)
    state = c.new_game(rules, seed=2)
    while True:
        moves = c.legal_moves(state)
        for move in moves:
            if violation(state, move) is not None:
                after = c.apply(state, move)
                if after.stop is not None:
                    return after
        state = c.apply(state, moves[rng.below(len(moves))])


@pytest.mark.parametrize("preset", ["pagat", "serbian"])
def test_the_human_gets_the_stop_decision(preset: str) -> None:
    rules = c.Ruleset.preset(preset)
    pending = _state_with_a_pending_stop(rules)
    assert pending.stop is not None
    game, out = make_game(["stop"], rules=rules, human=pending.to_act)
    game.session.load(pending)
    game.run()
    text = out.getvalue()
    assert "broke a priority rule" in text
    assert "Call Stop!" in text and "let it stand" in text
    assert "1. stop" in text and "2. pass" in text
    assert game.moves == [c.CALL_STOP]
    assert game.states[1].stop is None


def test_describe_names_the_card() -> None:
    state = c.new_game(seed=1)
    for move in c.legal_moves(state):
        assert describe_move(state, move)
    board = Console(file=io.StringIO(), width=100, color_system=None)
    board.print(render_board(state))
    text = board.file.getvalue()  # type: ignore[attr-defined]
    assert "H1" in text and "H8" in text and "reserve" in text


def test_demo_runs_without_input_and_prints_the_outcome(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_input(*_args: object, **_kwargs: object) -> str:
        raise AssertionError("the demo must not read input")

    monkeypatch.setattr("builtins.input", no_input)
    assert main(["play", "--demo", "--seed", "4", "--delay", "0"]) == 0
    out = capsys.readouterr().out
    assert "won the deal" in out or "stalemate" in out or "move cap" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--rules", "nosuch"], "unknown preset"),
        (["play", "--rules", "classic(colour=red)"], "unknown option"),
        (["play", "--bot", "nosuch", "--seed", "1"], "nosuch"),
        (["play", "--demo", "--delay", "-1", "--seed", "1"], "--delay"),
    ],
)
def test_cli_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 1
    assert message in capsys.readouterr().err


def test_cli_play_with_no_input_quits(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--seed", "2", "--player", "1"]) == 0
    assert "Bye." in capsys.readouterr().out


def test_the_board_is_redrawn_after_the_humans_own_move() -> None:
    """After a move that keeps the turn, the board shows the new position."""
    game, _ = make_game([])
    first = c.legal_moves(game.state)[0]
    after = c.apply(game.state, first)
    assert after.to_act == game.human  # the seed's first move keeps the turn
    game, out = make_game(["1"])
    game.run()
    text = out.getvalue()
    boards = text.count("Totals —")
    assert boards >= 2
    assert f"· move {after.moves_made}\n" in text.split(str(first), 1)[1]


def test_the_board_explains_the_reserve_counts() -> None:
    state = c.new_game(seed=1)
    console = Console(file=io.StringIO(), width=120, color_system=None)
    console.print(render_board(state))
    text = console.file.getvalue()  # type: ignore[attr-defined]
    assert "[12 face down]" in text and "(+" not in text
    assert text.splitlines() == board(state, hidden=True).splitlines()  # one layout

    loaded = state.replace(reserve_up=(6, 1))  # say 5 cards were loaded on reserve 0
    line = next(row for row in board(loaded).splitlines() if row.startswith("player 0"))
    assert "[7 face down] [+2 more face up]" in line


@pytest.mark.parametrize("preset", ["pagat", "serbian"])
@pytest.mark.parametrize("answer", ["stop", "pass"])
def test_after_a_stop_decision_the_game_says_what_happened(preset: str, answer: str) -> None:
    rules = c.Ruleset.preset(preset)
    pending = _state_with_a_pending_stop(rules)
    assert pending.stop is not None
    game, out = make_game([answer], rules=rules, human=pending.to_act)
    game.session.load(pending)
    game.run()
    text = out.getvalue()
    offender = game.names[pending.stop.offender]
    if answer == "pass":
        assert f"you let {offender}'s {pending.stop.move} stand" in text
    elif rules.stop == "undo":
        assert f'"Stop!" called by you: {offender}\'s {pending.stop.move} was taken back' in text
    else:
        assert f"{offender}'s {pending.stop.move} stands and you gave {offender} a" in text
    assert "to play." in text


def test_loading_a_position_file_in_the_game(tmp_path: Path) -> None:
    """A position line or a JSON state loads as a deal with no moves."""
    state = c.new_game(c.Ruleset.preset("g4a"), seed=6)
    for name, text in (("p.txt", c.format_position(state) + "\n"), ("p.json", c.to_json(state))):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        game, out = make_game([f"load {path}"], human=state.to_act)
        game.run()
        assert "Loaded 0 moves" in out.getvalue(), out.getvalue()
        assert game.states[0] == state and game.rules == state.rules


def test_refusals_name_cards_and_players_as_the_screen_does() -> None:
    """The library says "AC" and "player 0"; the terminal game shows A♣ and "you" (and the
    move the player typed as typed)."""
    game, out = make_game([])
    you, other = game.human, 1 - game.human
    words = game._screen_words(
        f"'H3-F' is not legal here: illegal move H3-F (TD) for player {you}: TD does not fit"
        f" on any foundation; player {other} waits"
    )
    assert "10♦" in words and "TD" not in words.split("'H3-F'")[1]
    assert "for you:" in words and "player" not in words
    assert game.names[other] in words and words.startswith("'H3-F'")
    state = game.state
    illegal = next(
        m for m in ALL_MOVES if m.is_play and m.source < 8 and m not in c.legal_moves(state)
    )
    game, out = make_game([str(illegal)])
    game.run()
    refusal = next(line for line in out.getvalue().splitlines() if "not legal here" in line)
    assert f"player {game.human}" not in refusal and "for you" in refusal


def _scripted(helper_seed: int, call_at: Callable[[c.GameState], bool]) -> Callable[..., str]:
    """Input for a whole deal: 'stop' when ``call_at`` says so at a turn start, else the
    greedy bot's choice; no next deal."""
    helper = get_chooser("greedy", helper_seed)
    box: list[TerminalGame] = []

    def read(prompt: str) -> str:
        if prompt.startswith("Next deal"):
            return "n"
        state = box[0].state
        if state.window and call_at(state):
            return "stop"
        return _number_or_text(state, helper(state))

    read.box = box  # type: ignore[attr-defined]
    return read


@pytest.mark.parametrize("false_call", ["lose_turn", "rationed"])
def test_a_bobcrapette_deal_with_a_call_at_turn_start(false_call: str) -> None:
    # crapette play --rules bobcrapette: a whole tarot deal of flips, the human calling
    # "Stop!" at the start of their first turn (a false call: its penalty is said).
    rules = c.Ruleset.preset("bobcrapette").replace(false_call=false_call)
    read = _scripted(11, lambda state: state.moves_made < 2)
    game, out = make_game(read, rules=rules, seed=5)
    read.box.append(game)  # type: ignore[attr-defined]
    assert game.run() == 0
    assert c.outcome(game.state) is not None
    text = out.getvalue()
    assert "may call Stop! (stop) before the first move" in text
    assert "You may call Stop! (stop) before your first move, if greedy bot ended" in text
    assert '"Stop!" called by you: a false call' in text
    if false_call == "lose_turn":
        assert "the turn passes to greedy bot" in text and "Wrong: you lose your turn." in text
    else:
        assert "1 of 3 false calls used this deal; the turn goes on" in text
        assert "Wrong: it uses one of your 3 false calls left this deal." in text
    assert "flip the top card of their hand onto their waste" in text and "(flipped " in text
    assert "★" in text  # trumps on the table
    assert "Match totals" in text
    assert game.moves[0] == c.CALL_STOP and c.FLIP in game.moves


def test_a_right_call_at_turn_start_in_the_terminal() -> None:
    # The bot's flip left a compulsory move: the human's call at the start of the next turn
    # is right; lose_draw takes the flip back and the human plays on.
    rules = c.Ruleset.preset("bobcrapette").replace(move_cap=800)
    faulty = None
    for seed in range(10):
        state = c.new_game(rules, seed=seed)
        rng = Rng(seed)
        while not c.is_over(state) and faulty is None:
            if state.fault is not None and state.fault.move == c.FLIP:
                faulty = state
            moves = c.legal_moves(state)
            state = c.apply_unchecked(state, moves[rng.below(len(moves))])
        if faulty is not None:
            break
    assert faulty is not None
    game, out = make_game(["stop", "quit"], rules=rules, human=faulty.to_act)
    game.session.load(faulty)
    game.run()
    text = out.getvalue()
    assert '"Stop!" called by you: right, greedy bot\'s flip broke a priority' in text
    assert "was taken back (no card turned this time); the missed move still waits" in text
    assert game.moves == [c.CALL_STOP]
    assert game.state.to_act == faulty.to_act and not game.state.window


def test_a_blocked_bobcrapette_deal_is_a_draw_in_the_terminal() -> None:
    rules = c.Ruleset.preset("bobcrapette").replace(move_cap=40)
    read = _scripted(2, lambda state: False)
    game, out = make_game(read, rules=rules, seed=4)
    read.box.append(game)  # type: ignore[attr-defined]
    game.run()
    assert "The deal is blocked (the move cap): a draw (greedy bot: 0, you: 0)." in out.getvalue()


def test_a_tarot_deal_in_the_terminal() -> None:
    read = _scripted(3, lambda state: False)
    game, out = make_game(read, rules=c.Ruleset.preset("tarot"), seed=8)
    read.box.append(game)  # type: ignore[attr-defined]
    assert game.run() == 0
    assert c.outcome(game.state) is not None
    text = out.getvalue()
    assert "★" in text and "Match totals" in text
    lines = board(game.states[0], hidden=True).splitlines()
    assert [line.split()[0] for line in lines[2:6]] == ["H1", "H2", "H3", "H4"]
    assert lines[6].split() == ["·", "·"]  # F9 and F10: a fifth row, no houses beside it
    assert lines[7].startswith("player 1") or lines[7].startswith("player 0")


@pytest.mark.parametrize("delay", ["nan", "inf", "-inf", "-1", "1e400", "61"])
def test_demo_delay_must_be_a_finite_number_of_seconds(
    delay: str, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("rich")
    from crapette.cli import main

    assert main(["play", "--demo", "--seed", "1", f"--delay={delay}"]) == 1
    err = capsys.readouterr().err
    assert "--delay must be a number of seconds from 0 to 60" in err
    assert "Traceback" not in err


# --------------------------------------------------------------------------------------
# A crowded position on an 80x24 terminal, forced moves, the header and save


CROWDED = (
    "classic 0 AC2C3c4c5C6c7c/AS2S3S/Ah2H3H4H/AD2d/Ad/AH/As/- -/6d5s4D/9d8c7h6s5D/6h/-/-/"
    "TC9D8S7d6S5d/Td9S8d7C6D 9C5S7HKSQCKcQc/- 3/0 5H7S/2s3sTs4dAc5c"
    " KC3D4S8H9h4CJS2D7D8DTSJsQSKDJC9HJDQd6H8C9cTHJHQH6C/"
    "8hQhKH4h3dTcJc5hKh7s8s9s2hQsThJh3hJdTD2c3CKd4sKs QD 156 0/0 350 - -"
)


def _game(state: c.GameState, answers: list[str], *, width: int = 80) -> tuple[TerminalGame, str]:
    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None)
    read = _reader(out, answers)
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
