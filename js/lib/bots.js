/**
 * The bots of the Python library that need no search: the greedy bot (the same ranking as
 * crapette.bots.greedy, computed by the C core) and the random bot, both seeded with the
 * portable generator of crapette.deal.Rng, so that a bot of a seed plays the same moves
 * in both libraries; and playDeals, whole deals played inside the core (the batch entry
 * point of the Python library's native engine).
 * @module
 */
import * as engine from './engine.js';
import { InvalidArgumentError } from './errors.js';
import { ALL_MOVES, CALL_STOP, Move } from './moves.js';
import { toSeed } from './play.js';
import { illegalMoveError } from './refusals.js';
import { show } from './quote.js';
import { asRuleset } from './rules.js';
import { GameState } from './state.js';
import { PlayerView, sketch } from './views.js';

const MASK = (1n << 64n) - 1n;

/** SplitMix64 (crapette.deal.Rng): a tiny, portable, seedable generator of 64-bit
 *  integers; the same seed gives the same numbers as in Python. */
export class Rng {
  /** @param {bigint|number|string} seed any integer (taken modulo 2**64) */
  constructor(seed) {
    this.state = toSeed(seed) & MASK;
  }

  /** The next 64-bit unsigned integer (a BigInt). */
  next64() {
    this.state = (this.state + 0x9e3779b97f4a7c15n) & MASK;
    let z = this.state;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  }

  /** A uniform integer below n, from 1 to 2**64 (a number for a number, a BigInt for a
   *  BigInt; the draws are 64-bit, so a larger bound could never be served).
   *  @throws {InvalidArgumentError} n is not an integer from 1 to 2**64. */
  below(n) {
    const big = typeof n === 'bigint';
    if (!(big || Number.isSafeInteger(n)) || n <= 0 || (big && n > 1n << 64n)) {
      throw new InvalidArgumentError(`below() needs an int bound from 1 to 2**64, not ${show(n)}`);
    }
    const b = BigInt(n);
    const limit = (1n << 64n) - ((1n << 64n) % b);
    for (;;) {
      const x = this.next64();
      if (x < limit) return big ? x % b : Number(x % b);
    }
  }

  /** A float in [0, 1) with 53 random bits. */
  random() {
    return Number(this.next64() >> 11n) / 2 ** 53;
  }

  /** One item of a non-empty array, uniformly. */
  choice(items) {
    return items[this.below(items.length)];
  }
}

function position(what, subject) {
  if (subject instanceof PlayerView) {
    return { state: sketch(subject), moves: subject._legal };
  }
  if (subject instanceof GameState) return { state: subject, moves: engine.legalIndexes(subject) };
  throw new TypeError(`${what}.choose() needs a PlayerView or a GameState, not ${show(subject)}`);
}

function noMove(name) {
  return new InvalidArgumentError(`${name}: no legal move (the deal is over)`);
}

/**
 * The greedy bot (crapette.bots.GreedyBot): the best move by a fixed ranking (foundations
 * first, then emptying the reserve, loading the opponent, keeping houses open, no
 * pointless house shuffles; it calls "Stop!" when that helps), ties broken by its seeded
 * generator.
 */
export class GreedyBot {
  /** @param {bigint|number|string} [seed] the tie-breaking seed (default 0) */
  constructor(seed = 0) {
    this.seed = seed;
    this.name = 'greedy';
    this._rng = toSeed(seed) & MASK;
  }

  /** The best-ranked legal move of the position a view (or a state) shows. */
  choose(subject) {
    const { state, moves: legal } = position('GreedyBot', subject);
    if (!legal.length) throw noMove('GreedyBot');
    let moves = legal;
    if (subject instanceof PlayerView && subject.stop === null && legal.includes(CALL_STOP.index)) {
      // at the start of a turn (call_window=turn_start): call exactly on a fault
      if (subject.fault !== null) return CALL_STOP;
      moves = legal.filter((i) => i !== CALL_STOP.index);
    }
    const chosen = engine.greedyMoveOf(state, moves, this._rng);
    if (chosen.illegal !== undefined) {
      const move = ALL_MOVES[moves[chosen.illegal]];
      throw illegalMoveError(state, move);
    }
    this._rng = chosen.rng;
    return ALL_MOVES[chosen.move];
  }
}

/** The random bot (crapette.bots.RandomBot): a uniformly random legal move. */
export class RandomBot {
  /** @param {bigint|number|string} [seed] the generator's seed (default 0) */
  constructor(seed = 0) {
    this.seed = seed;
    this.name = 'random';
    this._rng = new Rng(seed);
  }

  /** A uniformly random move of the legal moves. */
  choose(subject) {
    const { moves } = position('RandomBot', subject);
    if (!moves.length) throw noMove('RandomBot');
    return ALL_MOVES[moves[this._rng.below(moves.length)]];
  }
}

/** The most moves greedyScores ranks at once: every move of the table (a list of legal
 *  moves is shorter). */
const MOST_MOVES = ALL_MOVES.length;

/**
 * The greedy score of each move (crapette.bots.greedy.ranked_scores): higher is better.
 * @param {GameState} state
 * @param {Move[]} moves moves legal in the state (at most MOST_MOVES)
 * @throws {TypeError} not a GameState, or not an array of moves
 * @throws {InvalidArgumentError} more than MOST_MOVES moves
 * @throws {IllegalMoveError} a move that is not legal in the state (the first, named)
 */
export function greedyScores(state, moves) {
  if (!(state instanceof GameState)) throw new TypeError(`greedyScores() needs a GameState, not ${show(state)}`);
  if (!Array.isArray(moves)) throw new TypeError(`greedyScores() needs an array of moves, not ${show(moves)}`);
  if (moves.length > MOST_MOVES) {
    throw new InvalidArgumentError(
      `greedyScores(): moves must hold at most ${MOST_MOVES} moves (each legal), not ${moves.length}`,
    );
  }
  for (const m of moves) if (!(m instanceof Move)) throw new TypeError(`not a Move: ${show(m)}`);
  const ranked = engine.greedyScoresOf(state, moves.map((m) => m.index));
  if (ranked.illegal !== undefined) throw illegalMoveError(state, moves[ranked.illegal]);
  return ranked.scores;
}

const POLICIES = { random: 0, greedy: 1 };

/**
 * Play whole deals inside the engine, fast: each deal from its seed to its end, player p
 * played by the bot `bots[p]` ('random' or 'greedy') seeded `botSeeds[p]`, exactly as
 * RandomBot and GreedyBot of those seeds play it move by move.
 * @param {Ruleset|string|null} rules
 * @param {Array<{seed, bots?: string[], botSeeds?: Array}>} deals
 * @param {{record?: boolean}} [options] record: also return the moves played
 * @returns {Array<{seed, starter, winner, scores, reason, moves, turns, violations, calls,
 *   record?}>} (violations: the Stop! decisions met; calls: of them, called)
 */
export function playDeals(rules, deals, { record = false } = {}) {
  const r = asRuleset(rules);
  return deals.map((d) => {
    const bots = d.bots ?? ['random', 'random'];
    const policies = bots.map((name) => {
      if (!Object.hasOwn(POLICIES, name)) {
        throw new InvalidArgumentError(`playDeals plays the bots random and greedy, not ${show(name)}`);
      }
      return POLICIES[name];
    });
    const seeds = (d.botSeeds ?? [0, 0]).map((s) => toSeed(s, 'bot seed'));
    const seed = toSeed(d.seed);
    const res = engine.playDealRaw(r, seed, policies, seeds, record ? Math.min(r.move_cap, 1_000_000) : 0);
    const out = {
      seed: d.seed,
      starter: res.starter,
      winner: res.winner,
      scores: res.scores,
      reason: res.reason,
      moves: res.moves,
      turns: res.turns,
      violations: res.violations,
      calls: res.calls,
    };
    if (record) out.record = res.record.map((i) => ALL_MOVES[i]);
    return out;
  });
}

/** Play `count` random deals (seeds seed, seed + 1, ...) in one call and return the number
 *  of moves played: the benchmark of the batch speed. */
export function playRandomDeals(rules, seed, count, botSeeds = [1, 2]) {
  return engine.playRandomBatch(asRuleset(rules), toSeed(seed), toSeed(botSeeds[0]), toSeed(botSeeds[1]), count);
}
