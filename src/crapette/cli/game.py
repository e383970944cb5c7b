"""The terminal game: a human against a bot, or two bots in a demo, drawn with rich.

The loop only talks to the outside world through two injected functions, so tests (and
other frontends) can drive it: ``input_fn(prompt) -> str`` reads one line (raising
``EOFError`` at the end of input) and a `rich.console.Console` receives everything
printed. ``crapette play`` is a thin command-line wrapper around
[`TerminalGame`][crapette.cli.game.TerminalGame].

The game itself is a [`Session`][crapette.session.Session], as on the game server: the
same match, the same bots seeded the same way (a game of ``crapette play --seed N`` and a
server game dealt from the chosen seed ``N`` play the same bot moves), the same policy of
undo and the same hint. This module is the terminal's words and drawing around it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from crapette import legal_moves, why_illegal
from crapette._laws import FALSE_CALLS, violation
from crapette._quote import quote, show
from crapette.bots import Bot, get_bot
from crapette.cards import PACKS, Card
from crapette.cli._input import read_input
from crapette.errors import CrapetteError, IllegalMoveError, NotationError
from crapette.match import Match, deal_seed
from crapette.moves import Action, Move, listed
from crapette.notation import parse_move, parse_position
from crapette.outcome import Outcome, outcome
from crapette.records import GameRecord, format_record, parse_record
from crapette.rules import OPTIONS, Ruleset
from crapette.serialize import from_json
from crapette.session import Seat, Session, chosen_secret
from crapette.state import GameState
from crapette.text import board, describe_move
from crapette.views import observe

_CARD_TEXT = re.compile(r"\b(?:[A2-9TJNQK][SHDCshdc]|1[0-9][Mm]|2[01][Mm]|[0-9][Mm])\b")
"""A card in the library's short form (``7H``, ``Td``, a tarot pack's ``NH`` and ``17M``), as
messages name cards."""

__all__ = ["TerminalGame", "load_game_file", "render_board"]

InputFn = Callable[[str], str]
"""Reads one line after printing the prompt; raises ``EOFError`` at the end of input."""


class Chooser(Protocol):
    """Something that picks a move for the player to act in a state."""

    def __call__(self, state: GameState, /) -> Move:
        """The chosen move, one of ``legal_moves(state)``."""


def get_chooser(name: str, seed: int) -> Chooser:
    """A move chooser for the bot called ``name`` (see
    [`crapette.bots.get_bot`][crapette.bots.get_bot]), seeded with ``seed``. The bot sees only its
    player's view ([`crapette.observe`][crapette.observe]).

    Raises:
        UnknownBotError: an unknown bot name.
    """
    return _chooser(get_bot(name, seed))


def _chooser(bot: Bot) -> Chooser:
    def choose(state: GameState, /) -> Move:
        return bot.choose(observe(state, state.to_act))

    return choose


def _third_person(text: str, other: str) -> str:
    """Rewrite a description addressed to the mover for an onlooker: the mover's piles
    become "their", the other player's become ``other`` ("your" or "bot 1's")."""
    return text.replace("your opponent's", "\0").replace("your ", "their ").replace("\0", other)


def card_text(card: Card, *, ascii: bool = False) -> Text:
    """A card as coloured text: ``7♥`` in red, ``7♠`` in bold (``7H``/``7S`` with ``ascii``);
    a tarot trump (``17★``, ``17M``) in bold magenta."""
    style = "bold magenta" if card.trump else "bold red" if card.red else "bold"
    return Text(card.text if ascii else card.symbol, style=style)


_RED_CARD = r"(?<![\w])(?:10|[2-9AJNQK])[♥♦]|(?<![\w])[2-9TAJNQK][HDhd](?![\w])"
_BLACK_CARD = r"(?<![\w])(?:10|[2-9AJNQK])[♠♣]|(?<![\w])[2-9TAJNQK][SCsc](?![\w])"
_TRUMP = r"(?<![\w])(?:1[0-9]|2[01]|[0-9])(?:★|[Mm](?![\w]))"


def render_board(
    state: GameState,
    *,
    bottom: int = 0,
    names: tuple[str, str] = ("player 0", "player 1"),
    header: str = "",
    ascii: bool = False,
) -> RenderableType:
    """The table as a rich renderable: the board of [`board`][crapette.text.board] (what the
    players can see), coloured.

    Args:
        state: the position to draw.
        bottom: the player drawn at the bottom (the human, usually).
        names: how to call each player.
        header: a line printed above the table (deal number, totals, ...).
        ascii: write cards ``7S`` instead of ``7♠``.
    """
    text = Text(board(state, hidden=True, ascii=ascii, bottom=bottom, names=names))
    text.highlight_regex(_RED_CARD, "bold red")
    text.highlight_regex(_BLACK_CARD, "bold")
    text.highlight_regex(_TRUMP, "bold magenta")
    text.highlight_regex(r"▶.*?(?=reserve)", "bold cyan")
    text.highlight_regex(r"\[[^\]]*\]", "dim")
    if header:
        return Group(Text(header, style="bold"), text)
    return text


# ----------------------------------------------------------------------------- records


def load_game_file(text: str) -> tuple[list[GameState], list[Move]]:
    """The states and moves of a saved game: a game record (its text or JSON form) or a
    single position (a position line or a JSON state, with no moves yet).

    Raises:
        CrapetteError: the text is none of these; the message says what it was read as.
    """
    body = text.strip()
    if body.startswith("{"):
        obj = from_json(body)
        if isinstance(obj, GameState):
            return [obj], []
        if not isinstance(obj, GameRecord):
            raise NotationError("the JSON document is neither a game record nor a state")
        record = obj
    elif body.startswith("[") or "\n" in body:
        record = parse_record(text)
    else:
        return [parse_position(body)], []
    states: list[GameState] = []
    moves: list[Move] = []
    for state, move in record.replay():
        states.append(state)
        if move is not None:
            moves.append(move)
    return states, moves


# ----------------------------------------------------------------------------- the game

_LISTED = 12
"""The longest move list printed one move a line at the start of a decision (longer lists
are printed in columns, so the board and the list fit an 80x24 terminal)."""


def _menu(state: GameState, moves: Sequence[Move]) -> tuple[list[Move], str]:
    """The moves to number, and a note on the others: one entry per source and target,
    holding the largest group (``H3-H5x4`` stands for ``H3-H5``, ``x2`` and ``x3`` too), and
    one entry for the empty houses a card could go to (the first of them). The note, empty
    when nothing was left out, says how to type the moves left out."""
    entries: dict[tuple[object, ...], list[Move]] = {}
    for move in moves:
        target: object = move.target
        if move.is_play and move.target < 8 and not state.houses[move.target]:
            target = "empty"
        key = (move.action, move.source, target) if move.is_play else (move,)
        entries.setdefault(key, []).append(move)
    menu = [max(group, key=lambda m: m.count) for group in entries.values()]
    example = next((m for m in moves if m not in menu), None)
    if example is None:
        return menu, ""
    return menu, (f"(others in notation, e.g. {example}: 'help' says how the list is made)")


HELP = """\
Type the number of a move, or a move in notation (R-F, T-H3, H2-H5x2, R-OR, draw, ...).
The list has one line per card or run and target (the largest group, and a move to an
empty house once): type the others in notation (H2-H5x2 moves two cards, R-H6 another
empty house). With one move to make, Enter makes it.
On the board, [12 face down] counts a reserve's face-down cards and [+2 more face up]
the face-up cards (loaded on it) below the ones shown.
A deal seed saved with the game lets it be replayed.
Commands:
  undo         take back your last move (within your turn; not a move that
               showed a card, such as a draw or a reveal, nor one that ended it)
  hint         the engine's best line for you, its win chance and why
  moves        list your legal moves again, each with what it does
  board        draw the table again
  rules        the ruleset and its options
  save FILE    save this deal as a game record (JSON for FILE.json, else text)
  load FILE    load a saved game record or a position (line or JSON)
  help         this text
  quit         leave the game (end of input quits too)"""


class _Quit(Exception):
    """The user left the game."""


class TerminalGame:
    """A game of Russian Bank in a terminal: a human against a bot, or two bots (a demo).

    A match is played deal after deal (the human is asked before each new deal) until the
    ruleset's match target or number of deals is reached, or the user quits. The demo plays
    one deal. The game is a [`Session`][crapette.session.Session] (``session``) keyed by
    the seed ([`chosen_secret`][crapette.session.chosen_secret]), so its bots play as a
    server game dealt from the same chosen seed would.

    Args:
        rules: the ruleset.
        seed: the seed of the first deal (later deals derive theirs from it).
        bot: the bot's name (``random``, ``greedy`` or ``search``).
        human: the human's seat (0 or 1), or ``None`` for a demo between two bots.
        console: where to print (default: a new ``Console``).
        input_fn: how to read a line (default: ``console.input``).
        delay: in a demo, seconds to pause after each turn.
        sleep: the pause function (tests pass a no-op).
        ascii: write cards ``7S`` instead of ``7♠``.
    """

    def __init__(
        self,
        rules: Ruleset,
        *,
        seed: int,
        bot: str = "greedy",
        human: int | None = 0,
        console: Console | None = None,
        input_fn: InputFn | None = None,
        delay: float = 0.0,
        sleep: Callable[[float], None] = time.sleep,
        ascii: bool = False,
    ) -> None:
        if human not in (0, 1, None):
            raise CrapetteError(f"the human plays seat 0 or 1, not {show(human)}")
        self.seed = seed
        self.bot_name = bot
        self.human = human
        self.console = console if console is not None else Console()
        self.input_fn: InputFn = input_fn if input_fn is not None else self.console.input
        self.delay = delay
        self.sleep = sleep
        self.ascii = ascii
        seats = [Seat("bot", bot), Seat("bot", bot)]
        if human is not None:
            seats[human] = Seat("human", "human")
        self.session = Session.new(rules, seed=seed, seats=seats, secret=chosen_secret(seed))
        """The game: the match, the bots, undo and the hint."""
        self.session.on_move = self._played
        if human is None:
            self.names = (f"{bot} bot 0", f"{bot} bot 1")
        else:
            self.names = ("you", f"{bot} bot") if human == 0 else (f"{bot} bot", "you")

    # -- state ----------------------------------------------------------------------------

    @property
    def rules(self) -> Ruleset:
        """The ruleset (a loaded game's, once one is loaded)."""
        return self.session.rules

    @property
    def match(self) -> Match:
        """The match, current deal included."""
        return self.session.match

    @property
    def state(self) -> GameState:
        """The current position."""
        return self.session.state

    @property
    def states(self) -> list[GameState]:
        """The positions of the current deal so far, from its start to the current one."""
        return [state for state, _ in self.session.history()] + [self.state]

    @property
    def moves(self) -> list[Move]:
        """The moves of the current deal so far."""
        return [move for _, move in self.session.history()]

    @property
    def totals(self) -> tuple[int, int]:
        """The match totals, the current deal included once it is over."""
        return self.match.totals

    @property
    def deal_no(self) -> int:
        """The number of the current deal, from 1."""
        return self.match.number + 1

    def _header(self) -> str:
        """One line above the board (which names the rules and the move itself)."""
        rules = self.rules
        match = []
        if rules.match_target is not None:
            match.append(f"to {rules.match_target}")
        if rules.match_deals is not None:
            match.append(f"of {rules.match_deals} deals")
        return f"Deal {self.deal_no} of a match {' or '.join(match)} · Totals — {self._scores()}"

    def _scores(self, scores: tuple[int, int] | None = None) -> str:
        """``"you: 30, greedy bot: 0"``: each name with its points (the match totals by
        default)."""
        a, b = self.totals if scores is None else scores
        return f"{self.names[0]}: {a}, {self.names[1]}: {b}"

    def show_board(self) -> None:
        """Print the table."""
        bottom = 0 if self.human is None else self.human
        self.console.print(
            render_board(
                self.state,
                bottom=bottom,
                names=self.names,
                header=self._header(),
                ascii=self.ascii,
            )
        )

    def _say(self, text: str, style: str = "") -> None:
        self.console.print(Text(text, style=style))

    # -- main loop ------------------------------------------------------------------------

    def run(self) -> int:
        """Play until the match ends, the demo deal ends, or the user quits; return 0."""
        try:
            if self.human is None:
                self._demo()
                return 0
            self._say(f"Russian Bank: you are player {self.human}; type 'help' for help.")
            while True:
                self._play_deal()
                if not self._next_deal():
                    return 0
        except _Quit:
            self._say("Bye.")
            return 0

    def _demo(self) -> None:
        self.show_board()
        while not self.session.deal_over:
            self.session.run_bots()
        self._finish()

    def _played(self, before: GameState, move: Move, after: GameState) -> None:
        """Say what ``move`` did (the session's hook: every move, the bots' included); in a
        demo, draw the table at each new turn."""
        player = before.to_act
        if before.stop is not None:
            self._say(self._stop_text(before, move, after), style="yellow")
        elif move.action is Action.CALL_STOP:
            self._say(self._call_text(before, after), style="yellow")
        else:
            self._report(before, player, move, after)
        turned = after.to_act != before.to_act and after.stop is None
        if self.human is None and turned and not self.session.deal_over:
            self.show_board()
            self.sleep(self.delay)

    def _play_deal(self) -> None:
        self.show_board()
        while not self.session.deal_over:
            if self.state.to_act == self.human:
                self._human_turn()
            else:
                self._bot_turn()
        self._finish()

    def _finish(self) -> None:
        result = self.session.deal_outcome()
        assert result is not None
        self.show_board()
        self._say(self._outcome_text(result), style="bold green")

    def _outcome_text(self, result: Outcome) -> str:
        scores = self._scores(result.scores)
        if result.winner is not None:
            text = f"{self.names[result.winner]} won the deal ({scores})."
        elif self.rules.blocked == "draw":
            why = "a stalemate" if result.reason == "stalemate" else "the move cap"
            text = f"The deal is blocked ({why}): a draw ({scores})."
        elif result.reason == "stalemate":
            text = f"The deal is blocked: a stalemate ({scores})."
        else:
            text = f"The deal reached the move cap ({scores})."
        return f"{text} Match totals — {self._scores()}."

    def _next_deal(self) -> bool:
        """Start the next deal of the match if it goes on and the user wants it."""
        result = self.match.outcome()
        if result is not None:
            if result.winner is None:
                self._say("The match is a draw.", style="bold green")
            else:
                self._say(f"{self.names[result.winner]} won the match.", style="bold green")
            return False
        while True:
            answer = self._read("Next deal? [Y/n] ").strip().lower()
            if answer in ("", "y", "yes"):
                break
            if answer in ("n", "no", "quit", "q"):
                return False
            self._say("Please answer y or n.")
        assert self.human is not None
        self.session.next_deal(self.human, bots=False)  # they play once the table is drawn
        return True

    def _report(self, state: GameState, player: int, move: Move, after: GameState) -> None:
        text = describe_move(state, move, ascii=self.ascii)
        if player != self.human:
            other = "your" if self.human is not None else f"{self.names[1 - player]}'s"
            text = _third_person(text, other)
        notation = str(move)
        line = Text(f"{self.names[player]}: ", style="cyan")
        line.append(notation, style="bold")
        line.append(f"  {text}")
        if move.action is Action.FLIP:  # the flipped card, face up now
            line.append(" (flipped ")
            line.append(card_text(after.wastes[player][-1], ascii=self.ascii))
            line.append(")")
        # Under call_window=turn_start the caller judges the turn end alone: no hint.
        hint = player == self.human or state.rules.call_window != "turn_start"
        if hint and state.stop is None and state.rules.callable_stop:
            broken = violation(state, move)
            if broken is not None:
                line.append("  (breaks a priority)", style="yellow")
        self.console.print(line)

    def _stop_text(self, before: GameState, move: Move, after: GameState) -> str:
        """What a Stop! decision did: the move taken back or the penalty, and whose turn."""
        pending = before.stop
        assert pending is not None
        caller, offender = self.names[before.to_act], self.names[pending.offender]
        if move.action is Action.LET_STAND:
            return (
                f"{caller} let {offender}'s {pending.move} stand; {self.names[after.to_act]}"
                " to play."
            )
        if before.rules.stop == "undo":
            broken = violation(pending.prior, pending.move)
            made = [str(m) for m in broken.remedy] if broken is not None else []
            missed = f" and the missed move {' '.join(made)} was made" if made else ""
            done = f"{offender}'s {pending.move} was taken back{missed}"
        elif before.rules.stop == "lose_draw":
            done = (
                f"{offender}'s {pending.move} was taken back (no card turned); the missed move"
                " still waits"
                if pending.move.action is Action.FLIP
                else f"{offender}'s {pending.move} stands and their turn ends"
            )
        else:
            given = len(after.hands[pending.offender]) - len(before.hands[pending.offender])
            given -= int(after.turned is None and before.turned is not None)
            card = "a penalty card" if given > 0 else "no penalty card (none left)"
            done = f"{offender}'s {pending.move} stands and {caller} gave {offender} {card}"
        return f'"Stop!" called by {caller}: {done}; {self.names[after.to_act]} to play.'

    def _call_text(self, before: GameState, after: GameState) -> str:
        """What a Stop! call at the start of a turn did (``call_window="turn_start"``): a
        right call's penalty, or a false call's."""
        caller_seat = before.to_act
        caller, offender = self.names[caller_seat], self.names[1 - caller_seat]
        fault = before.fault
        rules = before.rules
        if fault is not None:
            broken = violation(fault.prior, fault.move)
            why = f" ({broken.reason})" if broken is not None else ""
            if rules.stop == "undo":
                made = [str(m) for m in broken.remedy] if broken is not None else []
                missed = f" and the missed move {' '.join(made)} was made" if made else ""
                done = f"{offender}'s {fault.move} was taken back{missed}"
            elif rules.stop == "lose_draw":
                done = (
                    f"{offender}'s {fault.move} was taken back (no card turned this time);"
                    " the missed move still waits"
                    if fault.move.action is Action.FLIP
                    else f"{offender}'s {fault.move} stands"
                )
            else:
                done = f"{offender}'s {fault.move} stands and {offender} took a penalty card"
            return self._screen_words(
                f'"Stop!" called by {caller}: right, {offender}\'s {fault.move} broke a'
                f" priority{why}.\n{done}; the turn goes on."
            )
        if rules.false_call == "lose_turn":
            cost = f"the turn passes to {self.names[after.to_act]}"
        elif rules.false_call == "rationed":
            used = after.false_calls[caller_seat]
            cost = f"{used} of {FALSE_CALLS} false calls used this deal; the turn goes on"
        else:
            cost = "no penalty; the turn goes on"
        return (
            f'"Stop!" called by {caller}: a false call, {offender}\'s turn ended without'
            f" breaking a priority; {cost}."
        )

    def _bot_turn(self) -> None:
        self.session.run_bots()
        if self.state.to_act == self.human and not self.session.deal_over:
            self.show_board()

    # -- the human's decision -------------------------------------------------------------

    def _read(self, prompt: str) -> str:
        try:
            return self.input_fn(prompt)
        except (EOFError, KeyboardInterrupt):
            self.console.print()
            raise _Quit from None

    def _list_moves(self, moves: Sequence[Move], compact: bool = False) -> None:
        """Say what the human decides and list the moves: one entry per source and target
        (the largest group, to the first empty house; the others are typed in notation),
        in columns when ``compact`` and the list is long."""
        state = self.state
        if state.stop is not None:
            broken = violation(state.stop.prior, state.stop.move)
            why = f": {broken.reason}" if broken is not None else ""
            self._say(
                f"{self.names[state.stop.offender]} broke a priority rule with "
                f"{state.stop.move}{why}.",
                style="yellow",
            )
            penalty = {
                "undo": "the move is taken back and the missed move made",
                "lose_draw": "a flip is taken back and the missed move waits",
            }.get(state.rules.stop, "they take your bottom hand card")
            self._say(f"Call Stop! ({penalty}; the turn passes to you) or let it stand?")
        elif state.window:
            self._say(self._window_text(state), style="yellow")
        menu, note = _menu(state, moves)
        width = len(str(len(menu)))
        if compact and len(menu) > _LISTED:
            self._grid(menu, width)
        else:
            callable_stop = state.rules.callable_stop and state.stop is None
            for i, move in enumerate(menu, 1):
                line = Text(f"  {i:>{width}}. ")
                line.append(f"{move!s:<9}", style="bold")
                line.append(f" {describe_move(state, move, ascii=self.ascii)}")
                if callable_stop and violation(state, move) is not None:
                    line.append("  (breaks a priority: Stop! may be called)", style="yellow")
                self.console.print(line)
        if note:
            self._say(f"  {note}", style="dim")

    def _window_text(self, state: GameState) -> str:
        """The call at the start of the turn (``call_window="turn_start"``): what calling
        costs, never whether it would be right."""
        other = self.names[1 - state.to_act]
        rules = state.rules
        if rules.stop == "lose_draw":
            right = "a flip is taken back and the missed move waits"
        elif rules.stop == "undo":
            right = "the turn end is taken back and the missed move made"
        else:
            right = f"{other} takes a penalty card"
        if rules.false_call == "lose_turn":
            wrong = "you lose your turn"
        elif rules.false_call == "rationed":
            left = FALSE_CALLS - state.false_calls[state.to_act]
            wrong = f"it uses one of your {left} false calls left this deal"
        else:
            wrong = "nothing happens"
        return (
            f"You may call Stop! (stop) before your first move, if {other} ended their turn"
            f" breaking a priority.\nRight: {right}. Wrong: {wrong}."
        )

    def _grid(self, menu: Sequence[Move], width: int) -> None:
        """The menu in columns, moves only: a long list still fits an 80x24 terminal."""
        cell = max(len(str(move)) for move in menu) + width + 4
        per_line = max(1, 76 // cell)
        for start in range(0, len(menu), per_line):
            line = Text(" ")
            for i, move in enumerate(menu[start : start + per_line], start + 1):
                line.append(f" {i:>{width}}. ")
                line.append(f"{move!s:<{cell - width - 3}}", style="bold")
            self.console.print(line)
        self._say("  ('moves' says what each move does)", style="dim")

    def _human_turn(self) -> None:
        moves = legal_moves(self.state)
        menu, _ = _menu(self.state, moves)
        self._list_moves(moves, compact=True)
        if len(menu) == 1:
            prompt = f"Your move [Enter: {menu[0]}, help]: "
        else:
            prompt = f"Your move [1-{len(menu)}, help]: "
        while True:
            raw = self._read(prompt)
            text = raw.strip()
            if not text:
                if len(menu) != 1:
                    continue
                text = "1"  # Enter plays the only move
            try:
                done, move = self._command(text, menu, moves)
            except CrapetteError as exc:
                self._say(self._screen_words(str(exc)), style="red")
                continue
            if done:
                return
            if move is not None:
                assert self.human is not None
                self.session.play(self.human, code=move.index)  # the bots answer
                if self.state.to_act == self.human and not self.session.deal_over:
                    self.show_board()
                return

    def _command(
        self, text: str, menu: Sequence[Move], moves: Sequence[Move]
    ) -> tuple[bool, Move | None]:
        """Handle one line: ``(True, None)`` when the position changed (undo, load), ``(False,
        move)`` for a chosen move (``menu`` is the numbered list, ``moves`` every legal
        move), ``(False, None)`` to prompt again."""
        word, _, rest = text.partition(" ")
        word = word.lower()
        rest = rest.strip()
        if word.isdigit():
            n = int(word)
            if not 1 <= n <= len(menu):
                raise CrapetteError(f"no move number {n}: choose 1 to {len(menu)}")
            return False, menu[n - 1]
        if word in ("quit", "exit", "q"):
            raise _Quit
        if word in ("help", "?"):
            self.console.print(Text(HELP))
        elif word == "moves":
            self._list_moves(moves)
        elif word == "board":
            self.show_board()
        elif word == "rules":
            self._show_rules()
        elif word == "hint":
            assert self.human is not None
            found = self.session.advice(self.human)
            move = found.move
            state = self.state
            number = menu.index(move) + 1 if move in menu else "-"
            described = describe_move(state, move, ascii=self.ascii)
            self._say(f"Hint: {number}. {move}  {described}\n  {found.reason}")
        elif word == "undo":
            return self._undo(), None
        elif word in ("save", "load"):
            if not rest:
                raise CrapetteError(f"{word} needs a file name: {word} FILE")
            if word == "save":
                self._save(Path(rest))
                return False, None
            self._load(Path(rest))
            return True, None
        else:
            return False, self._parse_move(text, moves)
        return False, None

    def _screen_words(self, message: str) -> str:
        """A library message in the words of this screen: cards as the board shows them
        (``A♣``, not ``AC``) and the players as "you" and the opponent's name (not
        "player 0"); the move the player typed is quoted as typed."""
        if self.human is not None:
            other = self.names[1 - self.human]
            message = re.sub(rf"\bplayer {self.human}\b", "you", message)
            message = re.sub(rf"\bplayer {1 - self.human}\b", other, message)
        parts = re.split(r"('[^']*')", message)  # leave quoted input alone
        for i in range(0, len(parts), 2):
            parts[i] = _CARD_TEXT.sub(self._symbol, parts[i])
        return "".join(parts)

    def _symbol(self, match: re.Match[str]) -> str:
        """A card's short form as the board shows it, in the rules' pack (``17M`` stays as
        it is under the standard pack, where it names no card)."""
        try:
            return PACKS[self.rules.pack].parse(match.group(0)).symbol
        except CrapetteError:
            return match.group(0)

    def _parse_move(self, text: str, moves: Sequence[Move]) -> Move:
        state = self.state
        for move in moves:
            if text.lower() == str(move).lower():
                return move
        try:
            move = parse_move(state, text)
        except IllegalMoveError as exc:
            raise CrapetteError(f"{quote(text)} is not legal here: {exc}") from None
        except NotationError as exc:
            raise CrapetteError(
                f"{quote(text)} is neither a move nor a command: {exc} (type 'help' for help)"
            ) from None
        if not listed(move, moves):
            reason = why_illegal(state, move) or "not a legal move here"
            raise CrapetteError(f"{quote(text)} is not legal here: {reason}")
        return move

    def _undo(self) -> bool:
        """Take back the human's last move, as the session's policy of undo allows (the
        refusal says why not)."""
        assert self.human is not None
        self.session.take_back(self.human)
        self._say(f"Taken back to move {self.state.moves_made}.")
        self.show_board()
        return True

    def _show_rules(self) -> None:
        table = Table(title=f"Rules: {self.rules}", show_header=True)
        table.add_column("option")
        table.add_column("value")
        table.add_column("meaning")
        for name, (_, doc) in OPTIONS.items():
            value = getattr(self.rules, name)
            table.add_row(name, "none" if value is None else str(value).lower(), doc)
        self.console.print(table)

    def _headers(self) -> dict[str, str]:
        seats = [f"{self.bot_name} bot"] * 2
        if self.human is not None:
            seats[self.human] = "human"
        return {
            "Event": f"crapette play, deal {self.deal_no}",
            "Rules": str(self.rules),
            "Seed": str(deal_seed(self.match.seed, self.match.number)),
            "Player0": seats[0],
            "Player1": seats[1],
        }

    def _save(self, path: Path) -> None:
        """Save the deal: a JSON record document for a ``.json`` file, else the record's
        text form."""
        record = GameRecord.from_moves(self.session.start, self.moves, self._headers())
        text = record.to_json() + "\n" if path.suffix.lower() == ".json" else format_record(record)
        try:
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise CrapetteError(f"cannot save to {str(path)!r}: {exc.strerror}") from None
        self._say(f"Saved {len(self.moves)} moves to {path}.")

    def _load(self, path: Path) -> None:
        text = read_input(path)
        try:
            states, moves = load_game_file(text)
        except CrapetteError as exc:
            raise CrapetteError(f"cannot load {str(path)!r}: {exc}") from None
        if outcome(states[-1]) is not None:
            raise CrapetteError(f"{str(path)!r} holds a finished deal: nothing left to play")
        self.session.load(states[0], moves)  # the first deal of a new match
        self._say(f"Loaded {len(moves)} moves from {path}.")
        self.show_board()
