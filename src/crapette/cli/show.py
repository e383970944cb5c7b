"""``crapette show``: print a position (a position line, a JSON state or a seeded deal) as a
readable board."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any, TypeVar

from crapette._movegen import legal_moves
from crapette.cards import TEXT
from crapette.cli._input import read_input
from crapette.deal import new_game
from crapette.errors import CrapetteError, InvalidRulesError, NotationError
from crapette.notation import UNKNOWN_CARD, describe_move, format_move, parse_position
from crapette.outcome import outcome
from crapette.records import format_result
from crapette.rules import Ruleset
from crapette.serialize import from_json
from crapette.state import GameState, Pile

T = TypeVar("T")

__all__ = ["add_parser", "board_text", "load_document", "load_state", "run"]


def add_parser(subparsers: Any) -> None:
    """Add the ``show`` subcommand to the ``crapette`` parser."""
    parser = subparsers.add_parser(
        "show",
        help="print a position as a readable board",
        description="Print a position as a readable board. POSITION is a position line (as"
        " written by crapette.format_position: quote it, or pass its words after '--' since"
        " fields may begin with '-'), '-' to read it from standard input, or a JSON state"
        " document; or use --seed for a new deal.",
    )
    parser.add_argument("position", nargs="*", metavar="POSITION", help="the position")
    parser.add_argument("--seed", type=int, default=None, help="show the new deal of this seed")
    parser.add_argument(
        "--rules", default="classic", metavar="RULES", help="rules for --seed (default: classic)"
    )
    parser.add_argument(
        "--public",
        type=int,
        choices=(0, 1),
        default=None,
        metavar="PLAYER",
        help="show only what PLAYER (0 or 1) can see: face-down cards as ??",
    )
    parser.add_argument(
        "--moves", action="store_true", help="also list the legal moves of the player to act"
    )
    parser.add_argument(
        "--svg",
        default=None,
        metavar="FILE",
        help="also write the table as an SVG picture to FILE (seen by --public PLAYER, or"
        " player 0; with --public, face-down cards as backs)",
    )
    parser.set_defaults(run=run)


def load_document(text: str, kind: type[T], parse_text: Callable[[str], T], what: str) -> T:
    """``text`` as a JSON document of type ``kind``, or else parsed by ``parse_text``.

    Raises:
        NotationError: the JSON document holds something else (``what`` names the
            expected kind), or the text does not parse.
    """
    if text.lstrip().startswith("{"):
        obj = from_json(text)
        if not isinstance(obj, kind):
            raise NotationError(f"the JSON document is not {what}")
        return obj
    return parse_text(text)


def load_state(text: str) -> GameState:
    """A state from a position line or a JSON state document.

    Raises:
        NotationError: the text is neither.
    """
    return load_document(text, GameState, lambda line: parse_position(line.strip()), "a state")


def run(args: argparse.Namespace) -> int:
    """Print the board; returns the exit status."""
    if args.seed is not None:
        if args.position:
            raise CrapetteError("give either a POSITION or --seed, not both")
        try:
            rules = Ruleset.from_string(args.rules)
        except InvalidRulesError as exc:
            raise CrapetteError(f"--rules: {exc}") from None
        state = new_game(rules, seed=args.seed)
    elif not args.position:
        raise CrapetteError("give a POSITION (or '-' to read one from standard input) or --seed")
    else:
        text = " ".join(args.position)
        if text == "-":
            text = read_input("-")
        state = load_state(text)
    if args.svg is not None:
        from crapette.svg import board  # imported only when a picture is asked for

        seat = 0 if args.public is None else args.public
        picture = board(state, seat=seat, hidden=args.public is not None)
        with open(args.svg, "w", encoding="utf-8") as file:
            file.write(picture + "\n")
    print(board_text(state, hidden=args.public is not None))
    if args.moves:
        moves = legal_moves(state)
        print(f"\nLegal moves ({len(moves)}):")
        for move in moves:
            print(f"  {format_move(state, move):10} {describe_move(state, move)}")
    return 0


def _cards(pile: Pile) -> str:
    return " ".join(TEXT[c] for c in pile) or "-"


def _reserve(state: GameState, p: int, hidden: bool) -> str:
    pile, up = state.reserves[p], state.reserve_up[p]
    if not pile:
        return "empty"
    down = len(pile) - up
    if hidden:
        shown = [UNKNOWN_CARD] * down + [TEXT[c] for c in pile[down:]]
    else:
        shown = [TEXT[c] for c in pile[:down]] + ["|"] * bool(down) + [TEXT[c] for c in pile[down:]]
    return f"{len(pile)} cards, {up} face up: " + " ".join(shown)


def _hand(state: GameState, p: int, hidden: bool) -> str:
    hand = state.hands[p]
    if hidden or not hand:
        return f"{len(hand)} cards"
    return f"{len(hand)} cards (next last): {_cards(hand)}"


def board_text(state: GameState, *, hidden: bool = False) -> str:
    """The board as plain text: each player's reserve, hand and waste, the houses of both
    columns, the foundations and what is to happen next.

    Args:
        state: the position.
        hidden: write face-down cards (hands, reserve cards below the face-up ones) as
            ``??`` instead of showing them.
    """
    turn = state.turn_player
    lines = [f"Rules: {state.rules}    moves made: {state.moves_made}"]
    for p in (1, 0):
        turned = (
            f"    turned: {TEXT[state.turned]}" if state.turned is not None and turn == p else ""
        )
        lines.append(f"Player {p}{turned}")
        lines.append(f"  reserve: {_reserve(state, p, hidden)}")
        lines.append(f"  hand:    {_hand(state, p, hidden)}")
        lines.append(f"  waste:   {_cards(state.wastes[p])}")
        if p == 1:
            lines.append("")
            lines.append("Houses (bottom card first)      Foundations")
            tops = [TEXT[f[-1]] if f else "-" for f in state.foundations]
            for i in range(4):
                left = f"  H{i + 1}: {_cards(state.houses[i])}"
                right = f"  H{i + 5}: {_cards(state.houses[i + 4])}"
                lines.append(f"{left:32}{tops[2 * i]:4}{tops[2 * i + 1]:4}{right}")
            lines.append("")
    result = outcome(state)
    if result is not None:
        lines.append(f"The deal is over: {format_result(result)} ({result.reason}).")
    elif state.stop is not None:
        pending = state.stop
        lines.append(
            f"Player {state.to_act} decides: call Stop! (stop) on player {pending.offender}'s"
            f" {format_move(pending.prior, pending.move)} or let it stand (pass)."
        )
    else:
        lines.append(f"Player {state.to_act} to act.")
    return "\n".join(lines)
