"""The smallest complete text frontend for Russian Bank, on the public API only.

Play player 0 against a random opponent::

    python examples/custom_frontend.py

With ``--auto`` (or when standard input is not a terminal, as in CI) both seats are played
automatically, so the script always runs to the end of the deal.
"""

import argparse
import sys

import crapette
from crapette.deal import Rng


def show(state: crapette.GameState) -> None:
    """Print the table as plain text."""

    def pile(cards: tuple[crapette.Card, ...]) -> str:
        return " ".join(card.symbol for card in cards) or "."

    for player in (1, 0):
        reserve = state.reserves[player]
        top = reserve[-1].symbol if reserve and state.reserve_up[player] else "??"
        waste = state.wastes[player]
        print(
            f"player {player}: reserve {len(reserve)} (top {top if reserve else '-'}),"
            f" hand {len(state.hands[player])},"
            f" waste {waste[-1].symbol if waste else '-'} ({len(waste)})"
        )
    for house in range(8):
        print(f"  H{house + 1}: {pile(state.houses[house])}")
    print("  foundations:", " ".join(f[-1].symbol if f else "." for f in state.foundations))
    if state.turned is not None:
        print(f"  player {state.turn_player} has turned {state.turned.symbol}")


def ask(moves: tuple[crapette.Move, ...]) -> crapette.Move:
    """Ask the human for a move until the answer is a valid number."""
    for number, move in enumerate(moves, 1):
        print(f"  {number}. {move}")
    while True:
        answer = input("your move: ").strip()
        if answer.isdigit() and 1 <= int(answer) <= len(moves):
            return moves[int(answer) - 1]
        print(f"type a number from 1 to {len(moves)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--auto", action="store_true", help="play both seats automatically")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    auto = args.auto or not sys.stdin.isatty()

    rng = Rng(args.seed)
    state = crapette.new_game(seed=args.seed)
    while crapette.outcome(state) is None:
        moves = crapette.legal_moves(state)
        if state.to_act == 0 and not auto:
            show(state)
            move = ask(moves)
        else:
            move = moves[rng.below(len(moves))]
        state = crapette.apply(state, move)

    show(state)
    result = crapette.outcome(state)
    assert result is not None
    who = "nobody" if result.winner is None else f"player {result.winner}"
    print(f"{result.reason}: {who} wins; scores {result.scores[0]} to {result.scores[1]}")


if __name__ == "__main__":
    main()
