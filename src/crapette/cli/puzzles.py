"""``crapette puzzles``: find positions where one line of the turn is clearly best, in
self-play deals or in given records, and write them as a puzzle file.

Example::

    crapette puzzles --games 20 --seed 3 --out puzzles.json
    crapette puzzles game1.txt game2.json --margin 0.15
    crapette puzzles --check 3 --answer "H3-H5 R-H3 draw"     # a shipped puzzle
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterator
from typing import Any

from crapette.analysis import (
    MARGIN,
    PUZZLE_LIMIT,
    THEMES,
    Limit,
    Puzzle,
    check_answer,
    find_puzzles,
    load_puzzles,
    read_record,
    write_puzzles,
)
from crapette.cli._input import read_input
from crapette.errors import CrapetteError
from crapette.moves import Move
from crapette.state import GameState

__all__ = ["add_parser", "run"]


def add_parser(subparsers: Any) -> None:
    """Add the ``puzzles`` subcommand."""
    parser = subparsers.add_parser(
        "puzzles",
        help="find positions where one line is clearly best; check a puzzle's answer",
        description="Search self-play deals (or the given records) for positions where one"
        " line of the player to act is clearly better than every other (by --margin in win"
        " probability), and write them as a puzzle file with the rules, the position, the"
        " solution and a theme. With --check, show a shipped puzzle or check an answer.",
    )
    parser.add_argument("records", nargs="*", metavar="RECORD", help="records to search")
    parser.add_argument(
        "--games", type=int, default=4, help="self-play deals without RECORD (default 4)"
    )
    parser.add_argument(
        "--bots", default="planner:512,planner:512", help="the self-play bots (default planner:512)"
    )
    parser.add_argument("--rules", default="classic", help="the self-play rules (default classic)")
    parser.add_argument("--seed", type=int, default=0, help="the run seed (default 0)")
    parser.add_argument(
        "--margin",
        type=float,
        default=MARGIN,
        help=f"how much better the solution must be, in win probability (default {MARGIN})",
    )
    parser.add_argument(
        "--rollouts",
        type=int,
        default=PUZZLE_LIMIT.rollouts,
        help=f"play-outs per position (default {PUZZLE_LIMIT.rollouts})",
    )
    parser.add_argument(
        "--every", type=int, default=1, help="look at one position with a choice in N (default 1)"
    )
    parser.add_argument("--max", type=int, default=None, help="stop after this many puzzles")
    parser.add_argument("--out", metavar="FILE", help="write the puzzles as a puzzle file")
    parser.add_argument(
        "--check",
        metavar="N",
        type=int,
        help="show shipped puzzle N (from 1), or check --answer against it",
    )
    parser.add_argument("--answer", help='with --check: a line in move notation, e.g. "R-H3 draw"')
    parser.set_defaults(run=run)


def _keep(played: list[Move]) -> Callable[[GameState, Move, GameState], None]:
    """An on-move hook that keeps the moves played."""

    def hook(before: GameState, move: Move, after: GameState) -> None:
        played.append(move)

    return hook


def _records(args: argparse.Namespace) -> Iterator[Any]:
    if args.records:
        for name in args.records:
            yield read_record(read_input(name))
        return
    from crapette.bots import get_bot, play_deal
    from crapette.deal import new_game
    from crapette.match import deal_seed
    from crapette.records import GameRecord
    from crapette.rules import as_ruleset
    from crapette.simulation import parse_bots

    rules = as_ruleset(args.rules)
    a, b = parse_bots(args.bots)
    for k in range(args.games):
        seed = deal_seed(args.seed, k)
        start = new_game(rules, seed=seed)
        played: list[Move] = []
        play_deal(start, (get_bot(a, seed ^ 0xA), get_bot(b, seed ^ 0xB)), on_move=_keep(played))
        yield GameRecord.from_moves(start, played, {"Seed": str(seed), "Player0": a, "Player1": b})


def _check(args: argparse.Namespace) -> int:
    shipped = load_puzzles()
    if not 1 <= args.check <= len(shipped):
        raise CrapetteError(
            f"--check {args.check}: the shipped set has puzzles 1 to {len(shipped)}"
        )
    puzzle = shipped[args.check - 1]
    if args.answer is None:
        from crapette.views import observe

        print(f"puzzle {args.check} ({puzzle.id}): {puzzle.title}; player {puzzle.player} to play")
        print(observe(puzzle.state(), puzzle.player))
        return 0
    verdict = check_answer(puzzle, args.answer)
    print(verdict.message)
    return 0 if verdict.correct else 1


def _describe(puzzle: Puzzle) -> str:
    return (
        f"{puzzle.id}: {puzzle.title} (win {puzzle.win * 100:.0f}%, {puzzle.margin * 100:.0f}"
        f" points above the next line): {' '.join(puzzle.solution)}"
    )


def run(args: argparse.Namespace) -> int:
    """Run ``crapette puzzles``."""
    if args.check is not None:
        return _check(args)
    if args.out:
        try:
            with open(args.out, "a", encoding="utf-8"):
                pass
        except OSError as exc:
            raise CrapetteError(f"cannot write --out {args.out}: {exc.strerror}") from None
    found: list[Puzzle] = []
    for puzzle in find_puzzles(
        _records(args),
        limit=Limit(rollouts=args.rollouts),
        margin=args.margin,
        seed=args.seed,
        every=args.every,
    ):
        found.append(puzzle)
        print(_describe(puzzle), flush=True)
        if args.max is not None and len(found) >= args.max:
            break
    themes = {t: sum(1 for p in found if p.theme == t) for t in THEMES}
    print(f"{len(found)} puzzles: " + ", ".join(f"{n} {THEMES[t]}" for t, n in themes.items() if n))
    if args.out:
        about = {
            "found_by": " ".join(
                ["crapette puzzles", f"--margin {args.margin}", f"--rollouts {args.rollouts}"]
            )
        }
        with open(args.out, "w", encoding="utf-8") as out:
            out.write(write_puzzles(found, **about))
    return 0
