/**
 * The immutable GameState of one deal, the one way to build it from its fields
 * (makeState, which checks it as the Python library's validate_position does), and the
 * building rules as card predicates (where a card may go), which the refusal reasons and
 * the checks read.
 *
 * A state holds the 196 bytes of the C core's cr_state, its ruleset, the layout keys seen
 * this turn (the no-cycle rule) and, while a Stop! decision is open, the state before the
 * violation. Its fields are read from the bytes.
 * @module
 */
import * as engine from './engine.js';
import { PACKS, STANDARD, TRUMPS } from './cards.js';
import { InvalidPositionError } from './errors.js';
import { ALL_MOVES } from './moves.js';
import { quote, show } from './quote.js';
import { Ruleset } from './rules.js';

const {
  STATE_BYTES,
  OFF_LEN,
  OFF_TURNED,
  OFF_TO_ACT,
  OFF_RESERVE_UP,
  OFF_PASSES,
  OFF_EMPTIED,
  OFF_CALLS,
  OFF_STOP,
  OFF_FAULT,
  OFF_MOVES_MADE,
  NO_CARD,
} = engine;

/** The number of piles in a state's bytes (cr_state.len): foundations 0..7, houses 8..15,
 *  reserves 16-17, hands 18-19, wastes 20-21, foundations 9 and 10 of a pack with trumps
 *  22-23. */
const NPILES = 24;
/** The pile number of foundation i. */
const foundationPile = (i) => (i < 8 ? i : 22 + i - 8);

// --- the shape of piles, for positionProblems (crapette._fits) ---------------------------

/** Whether a house showing `top` takes `card`: a suit card one rank lower of the other
 *  colour, a trump one rank lower (`deck`: the pack kind, PACKS[rules.pack]). */
export function buildsOn(top, card, deck = STANDARD) {
  const { suit, rank, red } = deck;
  if ((suit[top] === TRUMPS) !== (suit[card] === TRUMPS)) return false;
  if (suit[top] === TRUMPS) return rank[card] === rank[top] - 1;
  return rank[top] > 1 && rank[card] === rank[top] - 1 && red[card] !== red[top];
}

/** Whether cards (bottom first) descend one rank at a time, each building on the one below. */
export function isRun(cards, deck = STANDARD) {
  for (let i = 0; i + 1 < cards.length; i++) if (!buildsOn(cards[i], cards[i + 1], deck)) return false;
  return true;
}

/** Whether a foundation pile is a starter and the next ranks of its family. */
export function isFoundationRun(pile, deck = STANDARD) {
  const { starter, face } = deck;
  if (!pile.length || !starter[pile[0]]) return false;
  for (let i = 1; i < pile.length; i++) {
    if (starter[pile[i]] || face[pile[i]] !== face[pile[i - 1]] + 1) return false;
  }
  return true;
}

// --- states --------------------------------------------------------------------------------

let internal = false;

/** Every pile of a state's bytes, by pile number (bottom first). */
function allPiles(bytes) {
  const out = [];
  let off = 0;
  for (let i = 0; i < NPILES; i++) {
    const n = bytes[OFF_LEN + i];
    out.push(Array.from(bytes.subarray(off, off + n)));
    off += n;
  }
  return out;
}

/**
 * One position of a deal: every card's place, whose move it is and the counters the rules
 * need. Immutable and equal by value (equals); apply returns a new one. Piles are arrays
 * of cards (numbers 0..103), bottom first, so pile[pile.length - 1] is the top; per-player
 * pairs are arrays of two, indexed by player. Build one with newGame, deal, makeState,
 * parsePosition or fromJson.
 */
export class GameState {
  constructor(rules, bytes, keys, current, prior) {
    if (!internal) {
      throw new TypeError('build a GameState with newGame, deal, makeState, parsePosition or fromJson');
    }
    /** @type {Ruleset} the ruleset of the deal */
    this.rules = rules;
    this._bytes = bytes;
    this._keys = keys;
    this._current = current;
    this._prior = prior;
    this._cache = {};
    Object.freeze(this);
  }

  static _make(rules, bytes, keys = null, current = null, prior = null) {
    internal = true;
    try {
      return new GameState(rules, bytes, keys, current, prior);
    } finally {
      internal = false;
    }
  }

  _get(name, compute) {
    let value = this._cache[name];
    if (value === undefined) {
      value = compute();
      this._cache[name] = value;
    }
    return value;
  }

  /** The player who makes the next move (during a "Stop!" decision, the caller). */
  get toAct() {
    return this._bytes[OFF_TO_ACT];
  }
  _piles(first, count) {
    const all = this._get('piles', () => allPiles(this._bytes));
    return all.slice(first, first + count);
  }
  /** The foundation piles, left to right: 8, or 10 with a pack of trumps (tarot77, tarot78). */
  get foundations() {
    return this._get('foundations', () => {
      const n = PACKS[this.rules.pack].foundations;
      const all = this._get('piles', () => allPiles(this._bytes));
      return Array.from({ length: n }, (_, i) => all[foundationPile(i)]);
    });
  }
  /** The 8 houses: 0..3 player 0's column, 4..7 player 1's. */
  get houses() {
    return this._get('houses', () => this._piles(8, 8));
  }
  /** Each player's reserve. */
  get reserves() {
    return this._get('reserves', () => this._piles(16, 2));
  }
  /** How many cards at the top of each reserve are face up. */
  get reserveUp() {
    return [this._bytes[OFF_RESERVE_UP], this._bytes[OFF_RESERVE_UP + 1]];
  }
  /** Each player's face-down hand (the last card is the next one turned). */
  get hands() {
    return this._get('hands', () => this._piles(18, 2));
  }
  /** Each player's face-up waste. */
  get wastes() {
    return this._get('wastes', () => this._piles(20, 2));
  }
  /** The turned hand card of the player whose turn it is, or null. */
  get turned() {
    const t = this._bytes[OFF_TURNED];
    return t === NO_CARD ? null : t;
  }
  /** Bit h set when house h was emptied this turn and is still empty. */
  get emptied() {
    return this._bytes[OFF_EMPTIED];
  }
  /** Per player, the stalemate rule's pass marks (0..2). */
  get passes() {
    return [this._bytes[OFF_PASSES], this._bytes[OFF_PASSES + 1]];
  }
  /** How many moves have been applied in this deal. */
  get movesMade() {
    const b = this._bytes;
    return (
      b[OFF_MOVES_MADE] + b[OFF_MOVES_MADE + 1] * 2 ** 8 + b[OFF_MOVES_MADE + 2] * 2 ** 16 +
      b[OFF_MOVES_MADE + 3] * 2 ** 24
    );
  }
  /** Under call_window=turn_start, whether the player to act may still call "Stop!" this
   *  turn (before their first move). */
  get window() {
    return (this._bytes[OFF_CALLS] & 1) === 1;
  }
  /** Under false_call=rationed, each player's wrong "Stop!" calls in this deal (0..3). */
  get falseCalls() {
    const c = this._bytes[OFF_CALLS];
    return [(c >> 1) & 3, (c >> 3) & 3];
  }
  get _faultBits() {
    return this._bytes[OFF_FAULT] | (this._bytes[OFF_FAULT + 1] << 8);
  }
  /** Under call_window=turn_start, the priority violation that ended the other player's
   *  turn, which a call at the start of this turn punishes, or null: `{prior, move,
   *  offender, resume}` (the state before the faulty turn end, that move, who made it, who
   *  acts after it). */
  get fault() {
    const bits = this._faultBits;
    if (!bits || !this._prior) return null;
    return {
      prior: this._prior,
      move: ALL_MOVES[(bits & 0x0fff) - 1],
      offender: (bits >> 12) & 1,
      resume: (bits >> 13) & 1,
    };
  }
  get _stopBits() {
    return this._bytes[OFF_STOP] | (this._bytes[OFF_STOP + 1] << 8);
  }
  /** The violation awaiting a "Stop!" decision, or null: `{prior, move, offender,
   *  resume}` (the state before the violating move, the move, who made it, who acts if
   *  it is let stand). */
  get stop() {
    const bits = this._stopBits;
    if (!bits || !this._prior) return null;
    return {
      prior: this._prior,
      move: ALL_MOVES[(bits & 0x0fff) - 1],
      offender: (bits >> 12) & 1,
      resume: (bits >> 13) & 1,
    };
  }
  /** The player whose turn it is (differs from toAct during a Stop! decision). */
  get turnPlayer() {
    const bits = this._stopBits;
    return bits ? (bits >> 13) & 1 : this.toAct;
  }
  /** The layout key of the houses (a BigInt of 64 bits). */
  get housesKey() {
    if (this._current !== null) return this._current;
    return this._get('key', () => engine.housesKeyOf(this.rules, this._bytes));
  }
  /** The layout keys (BigInts) seen since the last move that cannot be undone in this
   *  turn, the current one included, as a Set (the no-cycle rule). */
  get seen() {
    return new Set(this._keys ? this._keys : [this.housesKey]);
  }

  /** Every card on the table, pile by pile, the turned card last. */
  cards() {
    const total = this._bytes.subarray(OFF_LEN, OFF_LEN + NPILES).reduce((a, b) => a + b, 0);
    const out = Array.from(this._bytes.subarray(0, total));
    if (this.turned !== null) out.push(this.turned);
    return out;
  }

  /** Whether two states are the same position (every field, the layouts seen and the
   *  state before a pending Stop! included). */
  equals(other) {
    if (this === other) return true;
    if (!(other instanceof GameState)) return false;
    const a = this._bytes;
    const b = other._bytes;
    for (let i = 0; i < STATE_BYTES; i++) if (a[i] !== b[i]) return false;
    if (!this.rules.equals(other.rules)) return false;
    const mine = this.seen;
    const theirs = other.seen;
    if (mine.size !== theirs.size) return false;
    for (const k of mine) if (!theirs.has(k)) return false;
    if (this._prior === other._prior) return true;
    if (!this._prior || !other._prior) return false;
    return this._prior.equals(other._prior);
  }
}

/** The GameState of the bytes of the core (a new deal: nothing seen, no prior). */
export function stateOfBytes(rules, bytes) {
  return GameState._make(rules, bytes);
}

/**
 * The state after a move played by the core (crapette._core's do_apply): the layouts seen
 * are cleared, kept or extended by the new key, and a new pending Stop! decision keeps
 * the state before it.
 */
export function stateAfter(state, result) {
  const { bytes, effect, key } = result;
  let keys = null;
  let current = null;
  if (effect === 1) {
    keys = state._keys;
    current = state._current;
  } else if (effect === 2) {
    const log = state._keys;
    if (!log) {
      const first = state.housesKey;
      if (key !== first) {
        keys = BigUint64Array.of(first, key);
        current = key;
      }
    } else if (log.includes(key)) {
      keys = log; // a layout seen before (no legal move recreates one)
    } else {
      keys = new BigUint64Array(log.length + 1);
      keys.set(log);
      keys[log.length] = key;
      current = key;
    }
  }
  const stopNow = bytes[OFF_STOP] | bytes[OFF_STOP + 1];
  const faultNow = bytes[OFF_FAULT] | bytes[OFF_FAULT + 1];
  let prior = null;
  if (stopNow && !state._stopBits) {
    prior = state;
  } else if (faultNow) {
    // the position before the faulty turn end, its own call window closed
    if (!(state._bytes[OFF_CALLS] & 1) && !state._faultBits) {
      prior = state;
    } else {
      const before = state._bytes.slice();
      before[OFF_CALLS] &= ~1;
      before[OFF_FAULT] = 0;
      before[OFF_FAULT + 1] = 0;
      prior = GameState._make(state.rules, before, state._keys, state._current, null);
    }
  }
  return GameState._make(state.rules, bytes, keys, current, prior);
}

// --- building a state from its fields ----------------------------------------------------

function pileText(cards, deck) {
  return cards.map((c) => deck.text[c]).join('') || '-';
}

function pilesProblem(value, n, what, deck) {
  if (!Array.isArray(value) || value.length !== n) {
    return `${what} must be an array of ${n} piles, not ${show(value)}`;
  }
  for (let i = 0; i < n; i++) {
    const pile = value[i];
    if (!Array.isArray(pile)) return `${what}[${i}] must be an array of cards, not ${show(pile)}`;
    for (let j = 0; j < pile.length; j++) {
      if (!deck.isCard(pile[j])) return `${what}[${i}][${j}] is not a card: ${show(pile[j])}`;
    }
  }
  return null;
}

function pairProblem(value, high, what) {
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    !value.every((v) => Number.isInteger(v) && v >= 0 && v <= high)
  ) {
    return `${what} must be a pair of integers from 0 to ${high}, not ${show(value)}`;
  }
  return null;
}

const FIELD_DEFAULTS = {
  turned: null,
  emptied: 0,
  passes: [1, 1],
  movesMade: 0,
  seen: null,
  window: false,
  falseCalls: [0, 0],
};

/**
 * Every reason a state made of these fields could not occur in a deal, as readable
 * sentences (the problems of crapette.state.position_problems):
 * the type and range of every field, every card of both packs once, foundations built up
 * in their family from a starter, houses descending one rank at a time (alternating
 * colours for suits), possible counts, the call window of call_window=turn_start.
 */
export function positionProblems(fields) {
  const f = { ...FIELD_DEFAULTS, ...fields };
  const problems = [];
  const ok = f.rules instanceof Ruleset;
  if (!ok) problems.push(`rules must be a Ruleset, not ${show(f.rules)}`);
  const deck = ok ? PACKS[f.rules.pack] : STANDARD;
  const count = deck.count;
  if (f.toAct !== 0 && f.toAct !== 1) problems.push(`to_act must be 0 or 1, not ${show(f.toAct)}`);
  const shape = [
    pilesProblem(f.foundations, deck.foundations, 'foundations', deck),
    pilesProblem(f.houses, 8, 'houses', deck),
    pilesProblem(f.reserves, 2, 'reserves', deck),
    pilesProblem(f.hands, 2, 'hands', deck),
    pilesProblem(f.wastes, 2, 'wastes', deck),
    pairProblem(f.reserveUp, count, 'reserve_up'),
    pairProblem(f.passes, 2, 'passes'),
    pairProblem(f.falseCalls, 3, 'false_calls'),
  ];
  if (f.turned !== null && !deck.isCard(f.turned)) {
    shape.push(`turned must be a card or null, not ${show(f.turned)}`);
  }
  if (!Number.isInteger(f.emptied) || f.emptied < 0 || f.emptied > 255) {
    shape.push(`emptied must be a bitmask of houses from 0 to 255, not ${show(f.emptied)}`);
  }
  if (!Number.isInteger(f.movesMade) || f.movesMade < 0 || f.movesMade > 1e12) {
    shape.push(`moves_made must be an integer from 0, not ${show(f.movesMade)}`);
  }
  if (
    f.seen !== null &&
    ![...f.seen].every((k) => typeof k === 'bigint' && k >= 0n && k < 1n << 64n)
  ) {
    shape.push('seen must hold layout keys, integers from 0 to 2**64 - 1');
  }
  if (typeof f.window !== 'boolean') shape.push(`window must be a boolean, not ${show(f.window)}`);
  problems.push(...shape.filter((p) => p !== null));
  if (problems.length) return problems;
  const rules = f.rules;
  const most = Math.max(deck.ranks, deck.trumps);
  const tall = f.houses.map((p, h) => (p.length > most ? `H${h + 1}` : null)).filter(Boolean);
  if (tall.length) {
    problems.push(`houses hold at most ${most} cards (a run of the ${rules.pack} pack): ${tall.join(' ')}`);
  }
  const counts = new Array(count).fill(0);
  const all = [...f.foundations, ...f.houses, ...f.reserves, ...f.hands, ...f.wastes].flat();
  if (f.turned !== null) all.push(f.turned);
  for (const c of all) counts[c]++;
  const missing = deck.text.filter((_, c) => counts[c] === 0);
  const doubled = deck.text.filter((_, c) => counts[c] > 1);
  if (missing.length) problems.push('missing cards: ' + missing.join(' '));
  if (doubled.length) problems.push('cards written more than once: ' + doubled.join(' '));
  f.foundations.forEach((pile, i) => {
    if (pile.length && !isFoundationRun(pile, deck)) {
      problems.push(
        `foundation ${i + 1} (${pileText(pile, deck)}) is not a run up in its family from its starter`,
      );
    }
  });
  f.houses.forEach((pile, i) => {
    if (!isRun(pile, deck)) {
      problems.push(
        `house H${i + 1} (${pileText(pile, deck)}) does not descend one rank at a time in alternating colours`,
      );
    }
  });
  for (const p of [0, 1]) {
    const reserve = f.reserves[p];
    const up = f.reserveUp[p];
    if (up > reserve.length) {
      problems.push(
        `player ${p}'s reserve has ${reserve.length} cards, fewer than its ${up} face-up cards (reserve_up)`,
      );
    } else if (reserve.length && up === 0 && rules.reserve_face_up) {
      problems.push(`player ${p}'s reserve top is face down, but these rules deal it face up`);
    }
    const foreign = reserve
      .slice(0, Math.max(reserve.length - up, 0))
      .filter((c) => deck.owner[c] !== p)
      .map((c) => deck.text[c]);
    if (foreign.length) {
      problems.push(
        `face-down cards of player ${p}'s reserve come from the other pack: ${foreign.join(' ')}`,
      );
    }
  }
  for (let h = 0; h < 8; h++) {
    if ((f.emptied >> h) & 1 && f.houses[h].length) {
      problems.push(`house H${h + 1} is marked emptied this turn but holds cards`);
    }
  }
  if (f.movesMade > rules.move_cap) {
    problems.push(`${f.movesMade} moves made is beyond the rules' move cap of ${rules.move_cap}`);
  }
  if (rules.turn_end === 'flip' && f.turned !== null) {
    problems.push('turned must be null: no hand card is turned under turn_end=flip');
  }
  const calls = rules.stop !== 'enforced' && rules.call_window === 'turn_start';
  if (!calls && f.window) {
    problems.push('window belongs to call_window=turn_start with a callable stop: it must be false under these rules');
  }
  if ((rules.false_call !== 'rationed' || !calls) && (f.falseCalls[0] || f.falseCalls[1])) {
    problems.push('false_calls must be [0, 0] unless false_call=rationed');
  }
  return problems;
}

/**
 * A state from its fields, checked (crapette.state.validate_position): `{rules, toAct,
 * foundations, houses, reserves, reserveUp, hands, wastes}` and optionally `turned`,
 * `emptied`, `passes` ([1, 1] by default), `movesMade`, `seen` (the layout keys seen this
 * turn, BigInts; the current layout is always added), and under call_window=turn_start
 * `window` (the player to act may still call "Stop!" this turn) and `falseCalls` (under
 * false_call=rationed). Cards are codes of the rules' pack kind; `foundations` has
 * PACKS[rules.pack].foundations piles. No pending Stop! decision and no fault: play the
 * violating move (or the faulty turn end) from the state before it (apply) to get one.
 * `text` is the text the fields were read from, quoted in the error.
 * @throws {InvalidPositionError} naming every problem found.
 */
export function makeState(fields, text = '') {
  const problems = positionProblems(fields);
  if (problems.length) {
    const where = text ? ` ${quote(text)}` : '';
    throw new InvalidPositionError(`impossible position${where}: ${problems.join('; ')}`, { text });
  }
  const f = { ...FIELD_DEFAULTS, ...fields };
  const bytes = packFields(f);
  return stateOfFields(f.rules, bytes, f.seen);
}

/** The state of packed bytes with the layouts `seen` (a collection of keys, or null) as
 *  the Python constructor keeps them: the extra keys sorted, then the current one. */
export function stateOfFields(rules, bytes, seen) {
  let keys = null;
  let current = null;
  if (seen) {
    const key = engine.housesKeyOf(rules, bytes);
    const extra = [...new Set(seen)].filter((k) => k !== key).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (extra.length) {
      keys = BigUint64Array.from([...extra, key]);
      current = key;
    }
  }
  return GameState._make(rules, bytes, keys, current, null);
}

/**
 * The 196 bytes of a state of these fields, unchecked (a pending Stop! given as `stop`, its
 * raw bits), or null when they do not fit (more cards than the core holds). Internal:
 * makeState checks the fields first; the bots' sketches of a view hold placeholder cards.
 */
export function packFields(f) {
  const foundations = f.foundations;
  const order = [
    ...foundations.slice(0, 8),
    ...f.houses,
    ...f.reserves,
    ...f.hands,
    ...f.wastes,
    ...foundations.slice(8),
  ];
  const total = order.reduce((n, pile) => n + pile.length, 0) + (f.turned === null ? 0 : 1);
  if (total > OFF_LEN || foundations.length > 10) return null;
  const bytes = new Uint8Array(STATE_BYTES);
  let o = 0;
  order.forEach((pile, i) => {
    bytes.set(pile, o);
    o += pile.length;
    bytes[OFF_LEN + i] = pile.length;
  });
  bytes[OFF_TURNED] = f.turned === null ? NO_CARD : f.turned;
  bytes[OFF_TO_ACT] = f.toAct;
  bytes[OFF_RESERVE_UP] = f.reserveUp[0];
  bytes[OFF_RESERVE_UP + 1] = f.reserveUp[1];
  bytes[OFF_PASSES] = f.passes[0];
  bytes[OFF_PASSES + 1] = f.passes[1];
  bytes[OFF_EMPTIED] = f.emptied;
  const falseCalls = f.falseCalls ?? [0, 0];
  bytes[OFF_CALLS] = (f.window ? 1 : 0) | (falseCalls[0] << 1) | (falseCalls[1] << 3);
  const view = new DataView(bytes.buffer);
  view.setUint16(OFF_STOP, f.stop ?? 0, true);
  view.setUint16(OFF_FAULT, f.fault ?? 0, true);
  view.setUint32(OFF_MOVES_MADE, f.movesMade, true);
  return bytes;
}
