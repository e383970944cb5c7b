/**
 * Dealing and playing: newGame and deal, the legal moves, the checked and unchecked apply,
 * and the end of a deal (outcome, isOver, winner, counts), all computed by the C core.
 * @module
 */
import * as engine from './engine.js';
import { PACKS } from './cards.js';
import { CrapetteError, InvalidArgumentError, InvalidPositionError } from './errors.js';
import { illegalMoveError } from './refusals.js';
import { ALL_MOVES, Move } from './moves.js';
import { parseMove } from './notation.js';
import { quote, show } from './quote.js';
import { asRuleset } from './rules.js';
import { GameState, stateAfter, stateOfBytes } from './state.js';

/**
 * A seed as a BigInt: a BigInt, a safe integer number, or a string of decimal digits
 * (with an optional sign). A number beyond 2**53 is refused: it was rounded already.
 */
export function toSeed(seed, what = 'seed') {
  if (typeof seed === 'bigint') return seed;
  if (typeof seed === 'number') {
    if (!Number.isInteger(seed)) throw new TypeError(`a ${what} must be an integer, not ${show(seed)}`);
    if (!Number.isSafeInteger(seed)) {
      throw new InvalidArgumentError(
        `${what} ${seed} is beyond 2**53 and was rounded: pass it as a BigInt or a string of digits`,
      );
    }
    return BigInt(seed);
  }
  if (typeof seed === 'string') {
    if (!/^[+-]?[0-9]+$/.test(seed)) {
      throw new InvalidArgumentError(`a ${what} must be an integer, not ${quote(seed)}`);
    }
    return BigInt(seed);
  }
  throw new TypeError(`a ${what} must be an integer (a BigInt, a number or a string of digits), not ${show(seed)}`);
}

/** A fresh random deal seed (63 bits from the platform's cryptographic generator). */
export function randomSeed() {
  const words = new Uint32Array(2);
  globalThis.crypto.getRandomValues(words);
  return (BigInt(words[0] & 0x7fffffff) << 32n) | BigInt(words[1]);
}

/**
 * A new deal, shuffled from a seed exactly as the Python library's
 * `crapette.new_game(rules, seed=seed)` (the seed taken modulo 2**64): the same seed
 * deals the same cards in both.
 * @param {Ruleset|string} [rules] a ruleset or a rules string (default classic)
 * @param {bigint|number|string} [seed] the seed (default: randomSeed())
 */
export function newGame(rules = null, seed = undefined) {
  const r = asRuleset(rules);
  const s = seed === undefined || seed === null ? randomSeed() : toSeed(seed);
  return stateOfBytes(r, engine.newGameBytes(r, s));
}

function packCard(value, owner, index, deck) {
  try {
    if (typeof value === 'string') return deck.parse(value);
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      throw new TypeError(
        `a card is an integer from 0 to ${deck.count - 1} or a text like "7H", not ${show(value)}`,
      );
    }
    deck.format(value); // throws on a code outside the pack
    return value;
  } catch (error) {
    if (!(error instanceof CrapetteError || error instanceof TypeError)) throw error;
    throw new InvalidPositionError(`pack${owner}[${index}] is not a card: ${error.message}`);
  }
}

function checkPack(pack, owner, deck) {
  const size = deck.size;
  if (!Array.isArray(pack)) {
    throw new InvalidPositionError(`pack${owner} must be an array of ${size} cards, not ${show(pack)}`);
  }
  const cards = pack.map((c, i) => packCard(c, owner, i, deck));
  const counts = new Map();
  for (const c of cards) counts.set(c, (counts.get(c) ?? 0) + 1);
  const own = Array.from({ length: size }, (_, i) => owner * size + i);
  const problems = [];
  const missing = own.filter((c) => !counts.has(c)).map((c) => deck.text[c]);
  const doubled = [...counts].filter(([, k]) => k > 1).map(([c]) => deck.text[c]);
  const foreign = [...counts.keys()].filter((c) => deck.owner[c] !== owner).map((c) => deck.text[c]);
  if (missing.length) problems.push('missing ' + missing.join(' '));
  if (doubled.length) problems.push('doubled ' + doubled.join(' '));
  if (foreign.length) problems.push(`not of pack ${owner}: ` + foreign.join(' '));
  if (problems.length || cards.length !== size) {
    throw new InvalidPositionError(
      `pack${owner} must hold the ${size} cards of player ${owner}'s ${deck.name} pack once each` +
        ` (${cards.length} given): ` +
        (problems.length ? problems : ['wrong length']).join('; '),
    );
  }
  return cards;
}

/**
 * Deal from two explicit pack orders (crapette.deal): the first card of each order is
 * dealt first (the reserve, then the 4 houses, then the hand).
 * @param {Ruleset|string|null} rules
 * @param {Array<number|string>} pack0 the cards of player 0's pack (52 with the standard
 *   pack, 56, 77 or 78 with a tarot pack: PACKS[rules.pack].size), in dealing order
 * @param {Array<number|string>} pack1 the cards of player 1's pack
 * @param {{starter?: number|null}} [options] who starts (default: the first-player rule)
 */
export function deal(rules, pack0, pack1, { starter = null } = {}) {
  const r = asRuleset(rules);
  const deck = PACKS[r.pack];
  const packs = [checkPack(pack0, 0, deck), checkPack(pack1, 1, deck)];
  if (starter !== null && starter !== 0 && starter !== 1) {
    throw new InvalidArgumentError(`starter must be 0 or 1, not ${show(starter)}`);
  }
  return stateOfBytes(r, engine.dealBytes(r, packs[0], packs[1], starter === null ? -1 : starter));
}

function checkState(state) {
  if (!(state instanceof GameState)) {
    throw new TypeError(`a GameState is needed, not ${show(state)}`);
  }
}

/** The legal moves of the player to act, in the fixed order of ALL_MOVES (empty when the
 *  deal is over). */
export function legalMoves(state) {
  checkState(state);
  return engine.legalIndexes(state).map((i) => ALL_MOVES[i]);
}

/** Whether a move is legal (the same answer as legalMoves(state).includes(move)). */
export function isLegal(state, move) {
  checkState(state);
  if (!(move instanceof Move)) throw new TypeError(`isLegal() needs a Move, not ${show(move)}`);
  return engine.isLegalIndex(state, move.index);
}

function play(state, move) {
  const result = engine.applyIndex(state, move.index);
  if (result === null) throw illegalMoveError(state, move);
  return stateAfter(state, result);
}

/**
 * The state after a move; `state` itself never changes. `move` is a Move or its text in
 * move notation (read by parseMove: apply(state, 'R-F')).
 * @throws {IllegalMoveError} the move is not legal: the message names the move and says
 *   why, in the Python library's words (the rule spec's template); `code` and `params`
 *   give the reason as data.
 * @throws {NotationError} a malformed move text.
 */
export function apply(state, move) {
  checkState(state);
  if (typeof move === 'string') return play(state, parseMove(state, move));
  if (!(move instanceof Move)) throw new TypeError(`apply() needs a Move, not ${show(move)}`);
  if (!engine.isLegalIndex(state, move.index)) throw illegalMoveError(state, move);
  return play(state, move);
}

/** Like apply without the legality check, for moves taken from legalMoves(state) (a move
 *  that cannot be made at all throws IllegalMoveError; another illegal move gives an
 *  undefined state). */
export function applyUnchecked(state, move) {
  checkState(state);
  if (!(move instanceof Move)) throw new TypeError(`applyUnchecked() needs a Move, not ${show(move)}`);
  return play(state, move);
}

/** null while the deal runs, else `{winner, scores, reason}`: winner 0, 1 or null; scores
 *  a pair of numbers; reason 'win', 'stalemate' or 'move_cap'. */
export function outcome(state) {
  checkState(state);
  return engine.outcomeOf(state);
}

/** Whether the deal has ended (a win, a stalemate or the move cap). */
export function isOver(state) {
  checkState(state);
  return engine.isOverOf(state);
}

/** The player who has emptied reserve, hand and waste, or null. */
export function winner(state) {
  checkState(state);
  return engine.winnerOf(state);
}

/** Each player's count as a stalemate scores it. */
export function counts(state) {
  checkState(state);
  return engine.countsOf(state);
}
