import assert from 'node:assert/strict';
import { test } from 'node:test';

import { GreedyBot, RandomBot, apply, formatPosition, legalMoves, newGame, observe, outcome, playDeals } from '../lib/index.js';
import { vectors } from '../vectors/load.js';

const { deals } = vectors('batch');

test('playDeals plays the deals the Python bots play, move for move', () => {
  for (const d of deals) {
    const [r] = playDeals(d.rules, [{ seed: d.seed, bots: d.bots, botSeeds: d.bot_seeds }]);
    assert.deepEqual({ winner: r.winner, scores: r.scores, reason: r.reason }, d.outcome);
    assert.equal(r.moves, d.moves.length);
    assert.equal(r.starter, d.starter);
    assert.equal(r.turns, d.turns);
    assert.equal(r.violations, d.violations);
    assert.equal(r.calls, d.calls);
    assert.equal(r.record, undefined);
  }
});

test('playDeals records every move', () => {
  for (const d of deals) {
    const [r] = playDeals(d.rules, [{ seed: d.seed, bots: d.bots, botSeeds: d.bot_seeds }], { record: true });
    assert.deepEqual(r.record.map((m) => m.index), d.moves, `${d.rules} ${d.seed}`);
    assert.deepEqual({ winner: r.winner, scores: r.scores, reason: r.reason }, d.outcome);
  }
});

test('the bots, move by move through their views, play the same deals', () => {
  for (const d of deals) {
    const bots = d.bots.map((kind, p) => (kind === 'greedy' ? new GreedyBot(d.bot_seeds[p]) : new RandomBot(d.bot_seeds[p])));
    let state = newGame(d.rules, d.seed);
    const played = [];
    while (legalMoves(state).length) {
      const move = bots[state.toAct].choose(observe(state, state.toAct));
      played.push(move.index);
      state = apply(state, move);
    }
    assert.deepEqual(played, d.moves, `${d.rules} ${d.seed}`);
    assert.equal(formatPosition(state), d.final);
    assert.deepEqual(outcome(state), d.outcome);
  }
});
