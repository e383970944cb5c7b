"""``crapette play``: a game against a bot in the terminal, or ``--demo`` between two bots."""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Any

from crapette.bots import bot_names
from crapette.cli.game import TerminalGame
from crapette.cli.show import SEED_HELP
from crapette.errors import CrapetteError
from crapette.rules import PRESETS, parse_rules

__all__ = ["MAX_DELAY", "add_parser", "run"]

MAX_DELAY = 60
"""The longest ``--delay`` in seconds (``nan`` and ``inf`` are refused too)."""


def add_parser(subparsers: Any) -> None:
    """Add the ``play`` subcommand to the ``crapette`` parser."""
    parser = subparsers.add_parser(
        "play",
        help="play against a bot in the terminal (or --demo: watch two bots)",
        description="Play Russian Bank against a bot. Choose moves by number or type them in"
        " move notation; type 'help' at the prompt for the commands.",
    )
    parser.add_argument(
        "--rules",
        default="classic",
        metavar="RULES",
        help=f"a preset ({', '.join(PRESETS)}) or a rules string such as"
        " 'serbian(house_filling=immediate)' (default: classic)",
    )
    parser.add_argument(
        "--bot",
        default="greedy",
        metavar="NAME",
        help=f"the opponent: one of {', '.join(bot_names())} (default: greedy)",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help=f"the deals of the match. {SEED_HELP} (default: random)",
    )
    parser.add_argument(
        "--player", type=int, choices=(0, 1), default=0, help="your seat, 0 or 1 (default: 0)"
    )
    parser.add_argument(
        "--demo", action="store_true", help="two bots play one deal on screen; no input needed"
    )
    parser.add_argument(
        "--delay",
        type=float,
        default=0.5,
        metavar="SECONDS",
        help=f"in a demo, the pause after each turn, 0 to {MAX_DELAY} (default: 0.5)",
    )
    parser.add_argument(
        "--ascii",
        action="store_true",
        help="write cards 7S/7s instead of 7♠ (pack 1 in lower case)",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``crapette play`` with parsed arguments; returns the exit status."""
    rules = parse_rules(args.rules)
    if not math.isfinite(args.delay) or not 0 <= args.delay <= MAX_DELAY:
        raise CrapetteError(
            f"--delay must be a number of seconds from 0 to {MAX_DELAY}, not {args.delay}"
        )
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    if args.seed is None:
        print(f"seed {seed} (replay this deal with --seed {seed})", file=sys.stderr)
    game = TerminalGame(
        rules,
        seed=seed,
        bot=args.bot,
        human=None if args.demo else args.player,
        delay=args.delay,
        ascii=args.ascii,
    )
    return game.run()
