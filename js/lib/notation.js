/**
 * Text notation of moves and positions, as the Python library writes and reads it
 * (crapette.notation, specified in docs/notation.md): the same texts, and the same texts
 * refused, at the same character positions (counted in code points, as Python counts),
 * with this package's own messages.
 * @module
 */
import * as engine from './engine.js';
import { PACKS, STANDARD } from './cards.js';
import { IllegalMoveError, InvalidArgumentError, InvalidMoveError, InvalidRulesError, NotationError } from './errors.js';
import { illegalMoveError } from './refusals.js';
import {
  FOUNDATION,
  HAND,
  KEYWORDS,
  MAX_GROUP,
  Move,
  OPP_RESERVE,
  OPP_WASTE,
  RESERVE,
  WASTE,
  WHITESPACE,
  moveFromText,
} from './moves.js';
import { codePoints, quote, show } from './quote.js';
import { Ruleset } from './rules.js';
import { GameState, makeState, stateAfter } from './state.js';

/** How a public position writes a card its reader cannot see. */
export const UNKNOWN_CARD = '??';
/** The most cards a house of the standard pack can hold: a run from a King down to an Ace
 *  (14 with the Knight of a tarot pack, 21 or 22 with the trumps). */
export const MAX_HOUSE = 13;

/** The card of `text` in the standard pack or else in tarot78 (whose texts hold every other
 *  pack's), as its text, or null: a move names a card of any pack kind, which the
 *  position's pack kind reads when the move is resolved. */
function anyCardText(text) {
  for (const deck of [STANDARD, PACKS.tarot78]) {
    try {
      return deck.text[deck.parse(text)];
    } catch (error) {
      if (!(error instanceof NotationError)) throw error;
    }
  }
  return null;
}

const SOURCE_WORDS = 'R, T, W, R0, R1, W0, W1, H1..H8 or a card such as 7H';
const TARGET_WORDS = 'F, H1..H8, R0, R1, W0, W1, OR or OW';
const TARGETS = new Set(['F', 'OR', 'OW', 'R0', 'R1', 'W0', 'W1', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'H7', 'H8']);
const OWN_WORDS = ['R', 'T', 'W', 'R0', 'R1', 'W0', 'W1'];
const HOUSE_RE = /^[Hh][1-8]$/;

// --- moves -------------------------------------------------------------------------------

function isAsciiAlnumOrDash(ch) {
  return /^[A-Za-z0-9-]$/.test(ch);
}

function isSource(token) {
  if (OWN_WORDS.includes(token.toUpperCase()) || HOUSE_RE.test(token)) return true;
  return anyCardText(token) !== null;
}

function tokenEnd(body) {
  const match = /^[A-Za-z0-9?]*/.exec(body);
  return match ? match[0].length : 0;
}

/** The syntax of a move (crapette.notation._scan_move); `offset` is added to every
 *  position reported. */
function scanMove(text, offset = 0) {
  const chars = Array.from(text);
  let a = 0;
  let b = chars.length;
  while (a < b && WHITESPACE.includes(chars[a])) a++;
  while (b > a && WHITESPACE.includes(chars[b - 1])) b--;
  const base = offset + a;
  const bodyChars = chars.slice(a, b);
  if (!bodyChars.length) {
    throw new NotationError(
      `expected a move (draw, discard, end, reveal, stop, pass, flip or SOURCE-TARGET) at ${base}, found nothing`,
      { code: 'bad_move', text, position: base },
    );
  }
  bodyChars.forEach((ch, i) => {
    if (!isAsciiAlnumOrDash(ch)) {
      throw new NotationError(
        `unexpected character ${JSON.stringify(ch)} at ${base + i} in move ${quote(text, base + i)}`,
        { code: 'bad_move', text, position: base + i },
      );
    }
  });
  const body = bodyChars.join(''); // ASCII from here on
  const word = body.toLowerCase();
  if (Object.hasOwn(KEYWORDS, word)) return { keyword: KEYWORDS[word] };
  const dash = body.indexOf('-');
  if (dash < 0) {
    if (isSource(body)) {
      throw new NotationError(
        `expected '-' after the source at ${base + body.length} in move ${quote(text)}`,
        { code: 'bad_move', text, position: base + body.length },
      );
    }
    if (/^[A-Za-z]+$/.test(body)) {
      throw new NotationError(
        `unknown move ${quote(body)} at ${base}: expected draw, discard, end, reveal, stop, pass, flip or SOURCE-TARGET`,
        { code: 'bad_move', text, position: base },
      );
    }
    const end = base + tokenEnd(body);
    throw new NotationError(
      `expected '-' after the source at ${end} in move ${quote(text)}`,
      { code: 'bad_move', text, position: end },
    );
  }
  const src = body.slice(0, dash);
  let card = null;
  let source;
  const upper = src.toUpperCase();
  if (OWN_WORDS.includes(upper) || HOUSE_RE.test(src)) {
    source = upper;
  } else {
    card = anyCardText(src);
    if (card === null) {
      throw new NotationError(
        `expected a source (${SOURCE_WORDS}) at ${base} in move ${quote(text)}`,
        { code: 'bad_move', text, position: base },
      );
    }
    source = card;
  }
  const rest = body.slice(dash + 1);
  const at = base + dash + 1;
  let size = 0;
  for (const n of [2, 1]) {
    if (rest.length >= n && TARGETS.has(rest.slice(0, n).toUpperCase())) {
      size = n;
      break;
    }
  }
  if (!size) {
    throw new NotationError(
      `expected a target (${TARGET_WORDS}) at ${at} in move ${quote(text)}`,
      { code: 'bad_move', text, position: at },
    );
  }
  const target = rest.slice(0, size).toUpperCase();
  const tail = rest.slice(size);
  let count = null;
  if (tail) {
    const match = /^[xX]([0-9]{1,2})$/.exec(tail);
    if (match === null || !(Number(match[1]) >= 1 && Number(match[1]) <= MAX_GROUP)) {
      const xed = 'xX'.includes(tail[0]);
      const pos = at + size + (xed ? 1 : 0);
      const what = xed ? `a count from 1 to ${MAX_GROUP}` : "the end of the move or 'x'";
      throw new NotationError(
        `expected ${what} at ${pos} in move ${quote(text)}`,
        { code: 'bad_move', text, position: pos },
      );
    }
    count = Number(match[1]);
  }
  return { keyword: null, source, target, count, card };
}

/** Check the syntax of a move text without a position (parseMove also checks that the
 *  move is legal in its position). */
export function checkMoveText(text, offset = 0) {
  scanMove(text, offset);
}

/** The available card at `source` for the player to act, or null (the card a move of
 *  that source would move; crapette._laws.source_card). */
export function sourceCard(state, source) {
  const p = state.toAct;
  const top = (pile) => (pile.length ? pile[pile.length - 1] : null);
  if (source === RESERVE) return state.reserveUp[p] > 0 ? top(state.reserves[p]) : null;
  if (source === HAND) return state.turned;
  if (source === WASTE) return state.rules.own_waste_playable ? top(state.wastes[p]) : null;
  return top(state.houses[source]);
}

function pileNameAbs(token) {
  return `player ${token[1]}'s ${token[0] === 'R' ? 'reserve' : 'waste'}`;
}

function locate(state, card) {
  for (const source of [RESERVE, HAND, WASTE]) {
    if (sourceCard(state, source) === card) return [source, 1];
  }
  const houses = state.houses;
  for (let h = 0; h < 8; h++) {
    const at = houses[h].indexOf(card);
    if (at >= 0) return [h, houses[h].length - at];
  }
  throw new IllegalMoveError(
    `${PACKS[state.rules.pack].text[card]} is not available to player ${state.toAct}: it is not the top of` +
      ' their reserve, their turned card, a playable waste top or in a house',
  );
}

function resolve(state, parsed, text) {
  if (parsed.keyword) return parsed.keyword;
  const p = state.toAct;
  let count = parsed.count;
  let source;
  if (parsed.card !== null) {
    const deck = PACKS[state.rules.pack];
    let card;
    try {
      card = deck.parse(parsed.card);
    } catch (error) {
      if (!(error instanceof NotationError)) throw error;
      throw new IllegalMoveError(`move ${quote(text)}: there is no ${parsed.card} in the ${state.rules.pack} pack`);
    }
    const [where, depth] = locate(state, card);
    if (count !== null && count !== depth) {
      throw new IllegalMoveError(
        `move ${quote(text)}: ${deck.text[card]} would move ${depth} card(s), not ${count}`,
      );
    }
    source = where;
    count = depth;
  } else if (['R', 'T', 'W'].includes(parsed.source)) {
    source = { R: RESERVE, T: HAND, W: WASTE }[parsed.source];
  } else if (parsed.source[0] === 'H') {
    source = Number(parsed.source[1]) - 1;
  } else {
    const owner = Number(parsed.source[1]);
    if (owner !== p) {
      throw new IllegalMoveError(
        `move ${quote(text)}: ${pileNameAbs(parsed.source)} belongs to your opponent;` +
          ` player ${p} cannot move a card from it`,
      );
    }
    source = parsed.source[0] === 'R' ? RESERVE : WASTE;
  }
  const t = parsed.target;
  let target;
  if (t === 'F') target = FOUNDATION;
  else if (t[0] === 'H') target = Number(t[1]) - 1;
  else if (t === 'OR' || t === 'OW') target = t === 'OR' ? OPP_RESERVE : OPP_WASTE;
  else {
    const owner = Number(t[1]);
    if (owner === p) {
      throw new IllegalMoveError(
        `move ${quote(text)}: your own ${t[0] === 'R' ? 'reserve' : 'waste'} is` +
          ' never a destination (use discard to end your turn)',
      );
    }
    target = t[0] === 'R' ? OPP_RESERVE : OPP_WASTE;
  }
  count = count || 1;
  if (count > 1 && !(source < 8 && target < 8)) {
    if (parsed.card !== null) {
      throw new IllegalMoveError(
        `move ${quote(text)}: ${parsed.source} is under ${count - 1} card(s) in` +
          ` H${source + 1}; only the top card of a house moves to ${t}`,
      );
    }
    throw new IllegalMoveError(
      `move ${quote(text)}: a group of ${count} cards moves only from house to house,` +
        ` not from ${parsed.source} to ${t}`,
    );
  }
  if (source === target) {
    throw new IllegalMoveError(
      parsed.card === null
        ? `move ${quote(text)}: the source ${parsed.source} is also the target`
        : `move ${quote(text)}: ${parsed.source} is already in ${t}`,
    );
  }
  try {
    return Move.play(source, target, count);
  } catch (error) {
    if (error instanceof InvalidMoveError) throw new IllegalMoveError(error.message);
    throw error;
  }
}

/**
 * Parse a move written for `state` and check that it is legal there: draw, discard, end,
 * reveal, stop, pass, or SOURCE-TARGET with an optional xN count (R-F, T-H3, 7H-F,
 * H2-H5x3, R-OR, W0-R1...).
 * @throws {NotationError} malformed text (with the character position).
 * @throws {IllegalMoveError} a well-formed move that is not legal in `state`.
 */
export function parseMove(state, text) {
  if (typeof text !== 'string') throw new TypeError(`a move text must be a string, not ${typeof text}`);
  const move = resolve(state, scanMove(text), text);
  if (!engine.isLegalIndex(state, move.index)) throw illegalMoveError(state, move);
  return move;
}

/** The move notation of a move (the same text as String(move)). */
export function formatMove(move) {
  if (!(move instanceof Move)) throw new TypeError(`formatMove() needs a Move, not ${show(move)}`);
  return move.text;
}

// --- positions ----------------------------------------------------------------------------

const pileString = (cards, text) => cards.map((c) => text[c]).join('') || '-';
const pilesString = (piles, text) => piles.map((p) => pileString(p, text)).join('/');
const hex16 = (key) => key.toString(16).padStart(16, '0');

function compareBig(a, b) {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The layout keys seen besides the current one, sorted (the notation's field 13). */
export function extraSeen(state) {
  const key = state.housesKey;
  return [...state.seen].filter((k) => k !== key).sort(compareBig);
}

function format(state, isPublic) {
  let tail = '-';
  const rules = state.rules;
  const text = PACKS[rules.pack].text;
  let call = '';
  if (rules.stop !== 'enforced' && rules.call_window === 'turn_start') {
    const mark = state.fault !== null ? 'f' : state.window ? 'w' : '-';
    call = `${mark}${state.falseCalls[0]}${state.falseCalls[1]}`;
  }
  if (state.stop !== null) {
    tail = String(state.stop.move);
    state = state.stop.prior;
  } else if (state.fault !== null) {
    tail = String(state.fault.move);
    state = state.fault.prior;
  }
  let reserves;
  let hands;
  if (isPublic) {
    reserves = state.reserves
      .map((r, p) => {
        const up = state.reserveUp[p];
        return UNKNOWN_CARD.repeat(r.length - up) + r.slice(r.length - up).map((c) => text[c]).join('') || '-';
      })
      .join('/');
    hands = state.hands.map((h) => UNKNOWN_CARD.repeat(h.length) || '-').join('/');
  } else {
    reserves = pilesString(state.reserves, text);
    hands = pilesString(state.hands, text);
  }
  const emptied = [0, 1, 2, 3, 4, 5, 6, 7].filter((h) => (state.emptied >> h) & 1).map((h) => h + 1).join('');
  const fields = [
    String(state.rules).replaceAll(' ', ''),
    String(state.toAct),
    pilesString(state.foundations, text),
    pilesString(state.houses, text),
    reserves,
    `${state.reserveUp[0]}/${state.reserveUp[1]}`,
    hands,
    pilesString(state.wastes, text),
    state.turned !== null ? text[state.turned] : '-',
    emptied || '-',
    `${state.passes[0]}/${state.passes[1]}`,
    String(state.movesMade),
    extraSeen(state).map(hex16).join(',') || '-',
    tail,
  ];
  if (call) fields.push(call);
  return fields.join(' ');
}

function checkState(state) {
  if (!(state instanceof GameState)) throw new TypeError(`a GameState is needed, not ${show(state)}`);
}

/** The whole state as one line of 14 space-separated fields (docs/notation.md), 15 under
 *  call_window=turn_start (the call window); parsePosition reads it back. */
export function formatPosition(state) {
  checkState(state);
  return format(state, false);
}

/** The position as `player` sees it: every face-down card written ??. */
export function formatPublicPosition(state, player) {
  checkState(state);
  if (player !== 0 && player !== 1) {
    throw new InvalidArgumentError(`player must be 0 or 1, not ${show(player)}`);
  }
  return format(state, true);
}

const FIELD_NAMES = [
  'the rules',
  'the player to act (0 or 1)',
  'the 8 foundations',
  'the 8 houses',
  'the 2 reserves',
  'the face-up reserve counts (like 1/1)',
  'the 2 hands',
  'the 2 wastes',
  'the turned card (a card or -)',
  'the emptied houses (digits 1..8 or -)',
  'the passes (like 1/1, each 0..2)',
  'the number of moves made',
  'the seen layout keys (16 hex digits, comma-separated, or -)',
  'the pending Stop! move (a move like R-H3 or -)',
];
const CALL_FIELD =
  'the call window: -, w (open) or f (open, field 14 the faulty turn end), then each' +
  " player's false calls (like w00)";

// The Unicode white space that the Python library's reader strips from the end of a
// position (where a missing field is reported)
const PY_SPACE = new Set(
  Array.from(
    ' \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005' +
      '\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000',
  ),
);

function splitFields(chars) {
  const fields = [];
  let i = 0;
  while (i < chars.length) {
    if (' \t\r\n'.includes(chars[i])) {
      i++;
      continue;
    }
    const start = i;
    while (i < chars.length && !' \t\r\n'.includes(chars[i])) i++;
    fields.push({ text: chars.slice(start, i).join(''), chars: chars.slice(start, i), start });
  }
  return fields;
}

/**
 * Parse a line written by formatPosition.
 * @throws {NotationError} malformed text (with the character position and what was
 *   expected), a public position (?? cards), or a position that cannot occur.
 */
export function parsePosition(text) {
  if (typeof text !== 'string') throw new TypeError(`a position must be a string, not ${typeof text}`);
  const chars = Array.from(text);
  const fields = splitFields(chars);
  const callF = fields.length === FIELD_NAMES.length + 1 ? fields.pop() : null;
  if (fields.length < FIELD_NAMES.length) {
    let end = chars.length;
    while (end > 0 && PY_SPACE.has(chars[end - 1])) end--;
    throw new NotationError(
      `expected ${FIELD_NAMES[fields.length]} (field ${fields.length + 1} of ${FIELD_NAMES.length})` +
        ` at ${end}: a position has ${FIELD_NAMES.length} space-separated fields`,
      { code: 'bad_position', text, position: end },
    );
  }
  if (fields.length > FIELD_NAMES.length) {
    const extra = fields[FIELD_NAMES.length];
    throw new NotationError(
      `expected the end of the position at ${extra.start}, found ${quote(extra.text)}`,
      { code: 'bad_position', text, position: extra.start },
    );
  }
  const [rulesF, actF, foundF, housesF, resF, upF, handsF, wastesF] = fields;
  const [turnedF, emptiedF, passesF, movesF, seenF, stopF] = fields.slice(8);
  let rules;
  try {
    rules = Ruleset.fromString(rulesF.text);
  } catch (error) {
    if (!(error instanceof InvalidRulesError)) throw error;
    throw new NotationError(
      `expected the rules at ${rulesF.start}: ${error.message}`,
      { code: 'bad_position', text, position: rulesF.start },
    );
  }
  const deck = PACKS[rules.pack];
  const calls = rules.stop !== 'enforced' && rules.call_window === 'turn_start';
  if (callF !== null && !calls) {
    throw new NotationError(
      `expected the end of the position at ${callF.start}, found ${quote(callF.text)}` +
        ' (a 15th field, the call window, is for call_window=turn_start)',
      { code: 'bad_position', text, position: callF.start },
    );
  }
  const toAct = smallInt(text, actF, 1);
  const foundations = parsePiles(text, foundF, deck.foundations, 'foundation', deck);
  const houses = parsePiles(text, housesF, 8, 'house', deck);
  const most = Math.max(deck.ranks, deck.trumps);
  let pos = housesF.start;
  houses.forEach((pile, h) => {
    if (pile.length > most) {
      throw new NotationError(
        `house H${h + 1} at ${pos} holds ${pile.length} cards; a house is a run down from` +
          ` a King (or trump 21), at most ${most} cards`,
        { code: 'bad_position', text, position: pos },
      );
    }
    pos += Math.max(pileString(pile, deck.text).length, 1) + 1;
  });
  const reserves = parsePiles(text, resF, 2, 'reserve', deck);
  const reserveUp = intPair(text, upF, null);
  const hands = parsePiles(text, handsF, 2, 'hand', deck);
  const wastes = parsePiles(text, wastesF, 2, 'waste', deck);
  let turned = null;
  if (turnedF.text !== '-') {
    const cards = parseCards(text, turnedF.chars, turnedF.start, deck);
    if (cards.length !== 1) {
      throw new NotationError(
        `expected one turned card or - at ${turnedF.start}`,
        { code: 'bad_position', text, position: turnedF.start },
      );
    }
    turned = cards[0];
  }
  const emptied = parseEmptied(text, emptiedF);
  const passes = intPair(text, passesF, 2);
  const movesMade = natural(text, movesF);
  const seen = parseSeen(text, seenF);
  const [window, fault, falseCalls] = parseCall(text, callF);
  let stopMove = null;
  if (stopF.text !== '-') {
    try {
      stopMove = moveFromText(stopF.text);
    } catch (error) {
      if (!(error instanceof NotationError)) throw error;
      throw new NotationError(
        `expected - or the violating move (like R-H3) at ${stopF.start}`,
        { code: 'bad_position', text, position: stopF.start },
      );
    }
  }
  const state = makeState(
    {
      rules,
      toAct,
      foundations,
      houses,
      reserves,
      reserveUp,
      hands,
      wastes,
      turned,
      emptied,
      seen,
      passes,
      movesMade,
      window: window && !fault,
      falseCalls,
    },
    text,
  );
  if (fault) {
    if (stopMove === null) {
      throw new NotationError(
        `expected the faulty turn end at ${stopF.start} (field 15 is f)`,
        { code: 'bad_position', text, position: stopF.start },
      );
    }
    return rebuildFault(state, stopMove, text, stopF.start);
  }
  return stopMove === null ? state : rebuildStop(state, stopMove, text, stopF.start);
}

/** Field 15: the call window (-, w, f) and each player's false calls. */
function parseCall(text, field) {
  if (field === null) return [false, false, [0, 0]];
  const body = field.text;
  if (field.chars.length !== 3 || !'-wf'.includes(body[0]) || ![...body.slice(1)].every((c) => '0123'.includes(c))) {
    throw new NotationError(`expected ${CALL_FIELD} at ${field.start}, found ${quote(body)}`, {
      code: 'bad_position',
      text,
      position: field.start,
    });
  }
  return [body[0] !== '-', body[0] === 'f', [Number(body[1]), Number(body[2])]];
}

/** The state after the faulty turn end `move` (call window f). */
function rebuildFault(prior, move, text, at) {
  const played = playViolation(prior, move);
  if (played.error !== undefined) {
    throw new NotationError(
      `the faulty turn end at ${at} cannot be played in the written position: ${played.error}`,
      { code: 'bad_position', text, position: at },
    );
  }
  if (played.state === null || played.state.fault === null) {
    throw new NotationError(
      `the move ${move} at ${at} is not a priority violation ending the turn in the written position`,
      { code: 'bad_position', text, position: at },
    );
  }
  return played.state;
}

/** The state after the violating move `move` of `prior` (a pending Stop! decision), for
 *  the readers of positions and JSON; `fail(message)` makes their error. */
export function playViolation(prior, move) {
  if (!engine.isLegalIndex(prior, move.index)) {
    return { error: illegalMoveError(prior, move).message };
  }
  const after = engine.applyIndex(prior, move.index);
  return { state: after === null ? null : stateAfter(prior, after) };
}

function rebuildStop(prior, move, text, at) {
  const played = playViolation(prior, move);
  if (played.error !== undefined) {
    throw new NotationError(
      `the pending Stop! move at ${at} cannot be played in the written position: ${played.error}`,
      { code: 'bad_position', text, position: at },
    );
  }
  if (played.state === null || played.state.stop === null) {
    throw new NotationError(
      `the pending Stop! move ${move} at ${at} is not a priority violation awaiting a decision in the written position`,
      { code: 'bad_position', text, position: at },
    );
  }
  return played.state;
}

function smallInt(text, field, top) {
  if (field.chars.length === 1 && field.text >= '0' && field.text <= String(top)) return Number(field.text);
  throw new NotationError(
    `expected a digit 0..${top} at ${field.start}, found ${quote(field.text)}`,
    { code: 'bad_position', text, position: field.start },
  );
}

function natural(text, field) {
  if (/^[0-9]{1,12}$/.test(field.text)) return Number(field.text);
  throw new NotationError(
    `expected the number of moves made (decimal digits) at ${field.start}, found ${quote(field.text)}`,
    { code: 'bad_position', text, position: field.start },
  );
}

function intPair(text, field, top) {
  const match = /^([0-9]{1,3})\/([0-9]{1,3})$/.exec(field.text);
  if (match === null) {
    throw new NotationError(
      `expected two numbers like 1/1 at ${field.start}, found ${quote(field.text)}`,
      { code: 'bad_position', text, position: field.start },
    );
  }
  const a = Number(match[1]);
  const b = Number(match[2]);
  if (top !== null) {
    for (const [value, offset] of [
      [a, 0],
      [b, match[1].length + 1],
    ]) {
      if (value > top) {
        const pos = field.start + offset;
        throw new NotationError(
          `expected a number from 0 to ${top} at ${pos}, found ${value}`,
          { code: 'bad_position', text, position: pos },
        );
      }
    }
  }
  return [a, b];
}

function parseEmptied(text, field) {
  if (field.text === '-') return 0;
  let mask = 0;
  let last = 0;
  field.chars.forEach((ch, i) => {
    if (!(ch >= '1' && ch <= '8') || Number(ch) <= last) {
      const pos = field.start + i;
      throw new NotationError(
        `expected house digits 1..8 in increasing order (or -) at ${pos}`,
        { code: 'bad_position', text, position: pos },
      );
    }
    last = Number(ch);
    mask |= 1 << (last - 1);
  });
  return mask;
}

function parseSeen(text, field) {
  if (field.text === '-') return null;
  const keys = new Set();
  let pos = field.start;
  for (const part of field.text.split(',')) {
    if (!/^[0-9a-fA-F]{1,16}$/.test(part)) {
      throw new NotationError(
        `expected a layout key of 1 to 16 hex digits at ${pos}`,
        { code: 'bad_position', text, position: pos },
      );
    }
    keys.add(BigInt('0x' + part));
    pos += codePoints(part) + 1;
  }
  return keys;
}

function parsePiles(text, field, n, what, deck) {
  const parts = field.text.split('/');
  if (parts.length !== n) {
    let pos = field.start;
    if (parts.length > n) pos += parts.slice(0, n).reduce((s, p) => s + codePoints(p) + 1, 0) - 1;
    else pos += field.chars.length;
    throw new NotationError(
      `expected ${n} ${what} piles separated by '/' at ${pos} (${parts.length} found)`,
      { code: 'bad_position', text, position: pos },
    );
  }
  const out = [];
  let pos = field.start;
  for (const part of parts) {
    const partChars = Array.from(part);
    out.push(part === '-' ? [] : parseCards(text, partChars, pos, deck));
    pos += partChars.length + 1;
  }
  return out;
}

function parseCards(text, part, start, deck) {
  if (!part.length) {
    throw new NotationError(`expected cards or - at ${start}`, { code: 'bad_position', text, position: start });
  }
  const cards = [];
  const chars = deck.rankChars;
  let i = 0;
  while (i < part.length) {
    const pos = start + i;
    if (deck.trumps && /[0-9]/.test(part[i])) {
      let j = i;
      while (j < part.length && /[0-9]/.test(part[j])) j++;
      if (j < part.length && 'Mm'.includes(part[j])) {
        const chunk = part.slice(i, j + 1).join('');
        try {
          cards.push(deck.parse(chunk));
        } catch (error) {
          if (!(error instanceof NotationError)) throw error;
          throw new NotationError(`${error.message.replace(/ at 0$/, '')} at ${pos}`, {
            code: 'bad_position',
            text,
            position: pos,
          });
        }
        i = j + 1;
        continue;
      }
    }
    const chunk = part.slice(i, i + 2);
    if (chunk.join('') === UNKNOWN_CARD) {
      throw new NotationError(
        `unknown card ?? at ${pos}: a public position (with hidden cards) cannot be loaded as a state`,
        { code: 'bad_position', text, position: pos },
      );
    }
    const rankOk = chunk.length >= 1 && chars.includes(chunk[0]);
    if (!rankOk || chunk.length < 2 || !'SHDCshdc'.includes(chunk[1])) {
      const bad = rankOk ? pos + 1 : pos;
      let expected = rankOk ? 'a suit (SHDC or shdc)' : `a rank (${chars})`;
      if (!rankOk && deck.trumps) expected += ' or a trump (like 17M)';
      throw new NotationError(
        `expected ${expected} at ${bad} (cards are written like 7H or Td)`,
        { code: 'bad_position', text, position: bad },
      );
    }
    cards.push(deck.parse(chunk.join('')));
    i += 2;
  }
  return cards;
}
