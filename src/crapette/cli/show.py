"""``crapette show``: print a position (a position file or line, a JSON state or a
seeded deal) as the readable board of [`crapette.text`][crapette.text]."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from typing import Any, TypeVar

from crapette import legal_moves
from crapette._quote import show
from crapette.cli._input import read_input
from crapette.cli._output import check_writable, write_text
from crapette.deal import new_game
from crapette.errors import CrapetteError, InvalidRulesError, NotationError
from crapette.match import deal_seed
from crapette.notation import parse_position
from crapette.rules import parse_rules
from crapette.serialize import from_json
from crapette.state import GameState
from crapette.text import board, describe_move

T = TypeVar("T")

__all__ = ["add_parser", "load_document", "load_state", "run"]

SEED_HELP = (
    "SEED names a series of deals: deal K is shuffled from crapette.match.deal_seed(SEED,"
    " K - 1); play, show and simulate deal the same series (simulate plays each deal twice,"
    " seats swapped)"
)
"""What ``--seed`` means, on every command."""


def add_parser(subparsers: Any) -> None:
    """Add the ``show`` subcommand to the ``crapette`` parser."""
    parser = subparsers.add_parser(
        "show",
        help="print a position as a readable board",
        description="Print a position as a readable board. POSITION is a file holding a"
        " position line or a JSON state, '-' to read one from standard input, or the position"
        " line itself (as written by crapette.format_position: quote it, or pass its words"
        " after '--' since fields may begin with '-'); or use --seed or --deal-seed for a"
        " new deal.",
    )
    parser.add_argument("position", nargs="*", metavar="POSITION", help="the position")
    parser.add_argument(
        "--seed", type=int, default=None, help=f"show deal 1 (or --deal K) of a series. {SEED_HELP}"
    )
    parser.add_argument(
        "--deal",
        type=int,
        default=1,
        metavar="K",
        help="with --seed, show deal K (from 1) of the series (default: 1)",
    )
    parser.add_argument(
        "--deal-seed",
        type=int,
        default=None,
        metavar="N",
        help="show the deal shuffled from N itself: the Seed header of a game record,"
        " crapette.new_game(seed=N)",
    )
    parser.add_argument(
        "--rules",
        default="classic",
        metavar="RULES",
        help="rules for a new deal (default: classic)",
    )
    parser.add_argument(
        "--public",
        type=int,
        choices=(0, 1),
        default=None,
        metavar="PLAYER",
        help="show only what PLAYER (0 or 1) can see: face-down cards are counted, not named",
    )
    parser.add_argument(
        "--moves", action="store_true", help="also list the legal moves of the player to act"
    )
    parser.add_argument(
        "--ascii",
        action="store_true",
        help="write cards 7S/7s instead of 7♠ (pack 1 in lower case)",
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


def _new_deal(args: argparse.Namespace) -> GameState:
    if args.position:
        raise CrapetteError("give either a POSITION or --seed/--deal-seed, not both")
    if args.seed is not None and args.deal_seed is not None:
        raise CrapetteError("give --seed (with --deal) or --deal-seed, not both")
    try:
        rules = parse_rules(args.rules)
    except InvalidRulesError as exc:
        raise CrapetteError(f"--rules: {exc}") from None
    if args.deal_seed is not None:
        return new_game(rules, seed=args.deal_seed)
    if args.deal < 1:
        raise CrapetteError(f"--deal counts from 1, not {show(args.deal)}")
    return new_game(rules, seed=deal_seed(args.seed, args.deal - 1))


def _position_arg(words: list[str]) -> str:
    """The text a POSITION argument stands for: a file's text, standard input, or the
    position line itself (a position has 14 fields: one word is a file name)."""
    text = " ".join(words)
    if text == "-" or (len(words) == 1 and not text.lstrip().startswith("{") and " " not in text):
        return read_input(text)
    if len(words) == 1 and os.path.isfile(text):
        return read_input(text)
    return text


def run(args: argparse.Namespace) -> int:
    """Print the board; returns the exit status."""
    if args.svg is not None:
        check_writable(args.svg, "--svg")
    if args.seed is not None or args.deal_seed is not None:
        state = _new_deal(args)
    elif not args.position:
        raise CrapetteError(
            "give a POSITION (a file, '-' for standard input, or a position line) or --seed"
        )
    else:
        state = load_state(_position_arg(args.position))
    hidden = args.public is not None
    bottom = args.public if args.public is not None else 0
    if args.svg is not None:
        from crapette.svg import board as picture  # imported only when a picture is asked for

        write_text(args.svg, picture(state, seat=bottom, hidden=hidden) + "\n", "--svg")
    print(board(state, hidden=hidden, ascii=args.ascii, bottom=bottom))
    if args.moves:
        moves = legal_moves(state)
        print(f"\nLegal moves ({len(moves)}):")
        for move in moves:
            print(f"  {move!s:10} {describe_move(state, move, ascii=args.ascii)}")
    return 0
