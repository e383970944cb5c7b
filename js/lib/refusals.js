/**
 * Why a move is illegal, as data: the C core answers with a reason code of the rule spec
 * and its parameters (cr_why_illegal, the same function the Python library's native
 * engine calls), and the English is the spec's template (spec.js REASONS) filled in here,
 * so that the words are the Python library's. Nothing here restates a rule.
 * @module
 */
import * as engine from './engine.js';
import { PACKS } from './cards.js';
import { CrapetteError, IllegalMoveError } from './errors.js';
import { ALL_MOVES, FOUNDATION, HAND, Move, OPP_RESERVE, OPP_WASTE, RESERVE, WASTE } from './moves.js';
import { parseMove, sourceCard } from './notation.js';
import { REASONS } from './spec.js';
import { GameState } from './state.js';

const BY_CODE = new Map(REASONS.map((reason) => [reason.code, reason]));

const PILE_TOKENS = { [RESERVE]: 'R', [HAND]: 'T', [WASTE]: 'W', [FOUNDATION]: 'F', [OPP_RESERVE]: 'OR', [OPP_WASTE]: 'OW' };
const PILE_WORDS = {
  R: 'your reserve',
  T: 'your turned hand card',
  W: 'your waste',
  F: 'a foundation',
  OR: "your opponent's reserve",
  OW: "your opponent's waste",
};

const pileToken = (pile) => PILE_TOKENS[pile] ?? `H${pile + 1}`;

/** A refusal of the C core (a reason number, 0 for none, and its parameters as integers)
 *  as `{code, params}`, each parameter as the spec's type writes it in data: a card as its
 *  text, cards as an array of texts, a house as its number 1..8, a pile as its notation
 *  token ('R', 'OW', 'H3'), a move as its text, a number as itself. */
function fromCore({ code, raw }, deck) {
  if (code <= 0) return null;
  const text = deck.text;
  const reason = REASONS[code - 1];
  const params = {};
  let at = 0;
  for (const [name, kind] of reason.params) {
    const value = raw[at++];
    if (kind === 'card') params[name] = text[value];
    else if (kind === 'cards') {
      params[name] = raw.slice(at, at + value).map((card) => text[card]);
      at += value;
    } else if (kind === 'house') params[name] = value + 1;
    else if (kind === 'pile') params[name] = pileToken(value);
    else if (kind === 'move') params[name] = String(ALL_MOVES[value]);
    else params[name] = value;
  }
  return Object.freeze({ code: reason.code, params: Object.freeze(params) });
}

function words(kind, value) {
  if (kind === 'cards') return value.join(', ');
  if (kind === 'pile') return PILE_WORDS[value] ?? `house ${value.slice(1)}`;
  return String(value);
}

/**
 * The English sentence of a refusal: its reason's template in the rule spec, each
 * parameter written by its type (the Python library's crapette._laws.render_reason).
 * @param {{code: string, params: object}} refusal
 */
export function renderReason({ code, params }) {
  const reason = BY_CODE.get(code);
  if (reason === undefined) throw new TypeError(`no refusal reason has the code ${JSON.stringify(code)}`);
  const kinds = Object.fromEntries(reason.params);
  return reason.template.replace(/\{(\w+)\}/g, (_, name) => words(kinds[name], params[name]));
}

function check(state, move, what) {
  if (!(state instanceof GameState)) throw new TypeError(`${what}() needs a GameState`);
  if (!(move instanceof Move)) throw new TypeError(`${what}() needs a Move`);
}

/**
 * Why `move` is illegal in `state` as data, or null when it is legal: `{code, params}`,
 * a reason code of the rule spec (REASONS in spec.js) and its parameters, as the Python
 * library's `crapette.refusal` gives it.
 */
export function refusal(state, move) {
  check(state, move, 'refusal');
  return fromCore(engine.whyIllegalIndex(state, move.index, false), PACKS[state.rules.pack]);
}

/** The priority rule a move breaks as a refusal (whatever the Stop! rule), or null. */
export function violationRefusal(state, move) {
  return fromCore(engine.whyIllegalIndex(state, move.index, true), PACKS[state.rules.pack]);
}

/**
 * Why `move` is not legal in `state` (the English of refusal()), or null when it is legal.
 * A move text is read as parseMove reads it: a text that is not a legal move gets the
 * message of the error parseMove throws.
 */
export function whyIllegal(state, move) {
  if (typeof move === 'string') {
    try {
      parseMove(state, move);
    } catch (error) {
      if (!(error instanceof CrapetteError)) throw error;
      return error.message;
    }
    return null;
  }
  const found = refusal(state, move);
  return found === null ? null : renderReason(found);
}

function label(state, move) {
  if (move.action === 'play') {
    let card = sourceCard(state, move.source);
    if (card !== null && move.source < 8 && move.count > 1) {
      const house = state.houses[move.source];
      if (move.count <= house.length) card = house[house.length - move.count];
    }
    if (card !== null) return `${move} (${PACKS[state.rules.pack].text[card]})`;
  }
  return String(move);
}

/** The IllegalMoveError of an illegal move: the move, its card, the player and the
 *  reason (the Python library's words), with the refusal's code and parameters. */
export function illegalMoveError(state, move) {
  const found = refusal(state, move);
  const why = found === null ? 'it is not legal here' : renderReason(found);
  const message = `illegal move ${label(state, move)} for player ${state.toAct}: ${why}`;
  return new IllegalMoveError(message, found === null ? {} : found);
}

/** The message of illegalMoveError (a full sentence: the move, its card, and why). */
export function describeIllegal(state, move) {
  return illegalMoveError(state, move).message;
}
