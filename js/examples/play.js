// Play one deal to its end: the greedy bot against a seeded random player.
import { GreedyBot, Rng, apply, formatPosition, legalMoves, newGame, observe, outcome } from 'crapette';

const greedy = new GreedyBot(7); // player 0: the greedy bot, ties broken by its seed
const rng = new Rng(2024n); // player 1: a random legal move from a seeded generator
let state = newGame('classic', 12345678901234567890n); // a 64-bit seed: a BigInt or a string
let moves = 0;
while (outcome(state) === null) {
  let move;
  if (state.toAct === 0) {
    move = greedy.choose(observe(state, 0)); // a bot sees only its player's view
  } else {
    const legal = legalMoves(state);
    move = legal[rng.below(legal.length)];
  }
  state = apply(state, move); // checked: an illegal move throws IllegalMoveError, with why
  moves += 1;
}
const { winner, scores, reason } = outcome(state);
console.log(`${reason} after ${moves} moves: winner ${winner}, scores ${scores.join('-')}`);
console.log(formatPosition(state));
