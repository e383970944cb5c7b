"""Quickstart: deal a game, list the legal moves, apply some, and play to the end.

Run it with ``python examples/quickstart.py``.
"""

import crapette
from crapette.deal import Rng

# A deal is fully determined by its ruleset and an integer seed.
state = crapette.new_game(seed=42)
print("Rules:", state.rules)
print("Player to act:", state.to_act)

# The legal moves of the player to act, in a fixed order.
moves = crapette.legal_moves(state)
print("Legal moves:", " ".join(str(move) for move in moves))

# apply() returns a new state; the old one is unchanged.
after = crapette.apply(state, moves[0])
print(f"After {moves[0]}: {after.moves_made} move made, player {after.to_act} to act")

# An illegal move raises IllegalMoveError and says why.
try:
    crapette.apply(state, crapette.END_TURN)
except crapette.IllegalMoveError as exc:
    print("Illegal:", exc)

# Play the deal to its end, each player choosing at random (seeded, so reproducible).
rng = Rng(7)
while crapette.outcome(state) is None:
    moves = crapette.legal_moves(state)
    state = crapette.apply(state, moves[rng.below(len(moves))])

result = crapette.outcome(state)
print(f"The deal ended after {state.moves_made} moves: {result}")
