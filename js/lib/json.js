/**
 * JSON documents of states and rulesets in exactly the format of the Python library's
 * crapette.serialize.to_json (the same bytes: key order, separators, indentation), and
 * reading them back with the same checks (fromJson): the same documents read, the same
 * refused (a text that is not JSON at the same character position), with this package's
 * own messages.
 *
 * The reader accepts what the Python library's reader accepts (NaN and Infinity among
 * numbers) and tells integers from other numbers by how they are written, so that `1.0` is
 * refused where an integer is expected, as it is there. Record and match documents are not
 * read here.
 * @module
 */
import { PACKS, STANDARD } from './cards.js';
import { InvalidPositionError, InvalidRulesError, NotationError } from './errors.js';
import { moveFromText } from './moves.js';
import { extraSeen, playViolation } from './notation.js';
import { show } from './quote.js';
import { Ruleset } from './rules.js';
import { OPTIONS as SPEC } from './spec.js';
import { GameState, makeState, positionProblems } from './state.js';

/** The newest version of the JSON layout written by toJson (crapette.serialize.JSON_VERSION):
 *  version 3 adds the options of the tarot packs and the table rules and, under
 *  call_window=turn_start, a state's call window (window, false_calls, fault); a document
 *  whose ruleset leaves every version 3 option at its default is still written as version
 *  2 (formatVersion). fromJson reads versions 1, 2 and 3. */
export const JSON_VERSION = 3;
const READ_VERSIONS = [1n, 2n, 3n];

/** The JSON format version a document of `rules` is written in: 2 while every option that
 *  version 3 added is at its default and no older option has a value version 3 added, else
 *  3 (crapette.serialize.format_version). */
export function formatVersion(rules) {
  for (const option of SPEC) {
    const value = rules[option.name];
    if (option.since > 2 && value !== option.default) return JSON_VERSION;
    if ((option.value_since?.[value] ?? 2) > 2) return JSON_VERSION;
  }
  return 2;
}
/** The behaviour version of the engine (crapette.BEHAVIOUR_VERSION), written in every
 *  document. */
export const BEHAVIOUR_VERSION = 2;
const FORMAT = 'crapette';

// --- writing ---------------------------------------------------------------------------

function escapeString(text) {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (code < 0x20) out += '\\u' + code.toString(16).padStart(4, '0');
    else out += ch;
  }
  return out + '"';
}

/** The JSON text of plain values in the Python library's layout (its json.dumps with
 *  ensure_ascii=False): ', ' and ': ' on one line, or `indent` spaces per level. */
function dumps(value, indent = null) {
  const pad = indent === null ? null : typeof indent === 'string' ? indent : ' '.repeat(Math.max(indent, 0));
  const write = (v, level) => {
    if (v === null) return 'null';
    if (v === true) return 'true';
    if (v === false) return 'false';
    if (typeof v === 'string') return escapeString(v);
    if (typeof v === 'number' || typeof v === 'bigint') return String(v);
    const isArray = Array.isArray(v);
    const entries = isArray ? v.map((item) => [null, item]) : Object.entries(v);
    if (!entries.length) return isArray ? '[]' : '{}';
    const items = entries.map(([k, item]) => {
      const body = write(item, level + 1);
      return k === null ? body : `${escapeString(k)}: ${body}`;
    });
    const [open, close] = isArray ? ['[', ']'] : ['{', '}'];
    if (pad === null) return open + items.join(', ') + close;
    const inner = '\n' + pad.repeat(level + 1);
    return open + inner + items.join(',' + inner) + '\n' + pad.repeat(level) + close;
  };
  return write(value, 0);
}

/** The JSON-ready object of a state (the "state" member of a document). */
export function stateToDict(state) {
  const text = PACKS[state.rules.pack].text;
  const pile = (cards) => cards.map((c) => text[c]);
  const out = {
    rules: String(state.rules),
    to_act: state.toAct,
    foundations: state.foundations.map(pile),
    houses: state.houses.map(pile),
    reserves: state.reserves.map(pile),
    reserve_up: state.reserveUp,
    hands: state.hands.map(pile),
    wastes: state.wastes.map(pile),
    turned: state.turned !== null ? text[state.turned] : null,
    emptied: [0, 1, 2, 3, 4, 5, 6, 7].filter((h) => (state.emptied >> h) & 1).map((h) => h + 1),
    passes: state.passes,
    moves_made: state.movesMade,
    seen: extraSeen(state).map((k) => k.toString(16).padStart(16, '0')),
    stop: null,
  };
  const stop = state.stop;
  if (stop !== null) {
    out.stop = {
      prior: stateToDict(stop.prior),
      move: String(stop.move),
      offender: stop.offender,
      resume: stop.resume,
    };
  }
  const rules = state.rules;
  if (rules.stop !== 'enforced' && rules.call_window === 'turn_start') {
    // version 3: the call window of call_window=turn_start (absent: closed)
    out.window = state.window;
    out.false_calls = state.falseCalls;
    out.fault = null;
    const fault = state.fault;
    if (fault !== null) out.fault = { prior: stateToDict(fault.prior), move: String(fault.move) };
  }
  return out;
}

/**
 * The JSON document of a state or a ruleset, byte for byte as the Python library's
 * to_json writes it.
 * @param {GameState|Ruleset} obj what to write
 * @param {{indent?: number|string|null}} [options] indentation (null: one line)
 */
export function toJson(obj, { indent = null } = {}) {
  let version = 2;
  if (obj instanceof GameState) version = formatVersion(obj.rules);
  else if (obj instanceof Ruleset) version = formatVersion(obj);
  const head = { format: FORMAT, version, behaviour: BEHAVIOUR_VERSION };
  if (obj instanceof GameState) {
    head.type = 'state';
    head.state = stateToDict(obj);
  } else if (obj instanceof Ruleset) {
    head.type = 'rules';
    head.rules = String(obj);
    head.options = Object.fromEntries(
      SPEC.filter((o) => o.since <= version).map((o) => [o.name, obj[o.name]]),
    );
  } else {
    throw new TypeError(`toJson() writes a GameState or a Ruleset, not ${show(obj)}`);
  }
  return dumps(head, indent);
}

// --- reading JSON ----------------------------------------------------------------------

/** A JSON number written with a fraction or an exponent (or NaN, Infinity): never an
 *  integer of a document, whatever its value. `jsonText` is how it was written. */
class JsonNumber {
  constructor(value, jsonText) {
    this.value = value;
    this.jsonText = jsonText;
  }

  toJSON() {
    return Number.isFinite(this.value) ? this.value : null;
  }
}

/** A text that is not JSON: why, at which UTF-16 index. */
class JsonSyntax extends Error {
  constructor(message, at) {
    super(message);
    this.at = at;
  }
}

const WS = ' \t\n\r';
const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const ESCAPES = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
const MAX_DEPTH = 900;

/** Parse JSON: objects as Maps (the last of a repeated key wins), integers as BigInts,
 *  other numbers as JsonNumber. A problem is reported where the Python library's reader
 *  reports it (its position is pinned by the shared vectors). */
function parseJson(text) {
  let depth = 0;
  const skip = (i) => {
    while (i < text.length && WS.includes(text[i])) i++;
    return i;
  };
  const string = (i) => {
    // i: after the opening quote
    const begin = i - 1;
    let out = '';
    for (;;) {
      let j = i;
      while (j < text.length && text[j] !== '"' && text[j] !== '\\' && text.charCodeAt(j) >= 0x20) j++;
      out += text.slice(i, j);
      if (j >= text.length) throw new JsonSyntax('a string that never ends', begin);
      if (text[j] === '"') return [out, j + 1];
      if (text[j] !== '\\') throw new JsonSyntax('a control character inside a string', j);
      const esc = text[j + 1];
      if (esc === undefined) throw new JsonSyntax('a string that never ends', begin);
      if (esc !== 'u') {
        if (!Object.hasOwn(ESCAPES, esc)) throw new JsonSyntax('an unknown escape in a string', j);
        out += ESCAPES[esc];
        i = j + 2;
        continue;
      }
      const hex4 = (at) => {
        const h = text.slice(at, at + 4);
        if (!/^[0-9a-fA-F]{4}$/.test(h)) throw new JsonSyntax('a \\u escape without 4 hex digits', at - 1);
        return parseInt(h, 16);
      };
      let code = hex4(j + 2);
      i = j + 6;
      if (code >= 0xd800 && code <= 0xdbff && text[i] === '\\' && text[i + 1] === 'u') {
        const low = hex4(i + 2);
        if (low >= 0xdc00 && low <= 0xdfff) {
          code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          i += 6;
        }
      }
      out += String.fromCodePoint(code);
    }
  };
  const nest = () => {
    if (++depth > MAX_DEPTH) throw new JsonSyntax(`nested more than ${MAX_DEPTH} levels deep`, null);
  };
  const value = (i) => {
    const ch = text[i];
    if (ch === '"') return string(i + 1);
    if (ch === '{') return object(i + 1);
    if (ch === '[') return array(i + 1);
    for (const [word, v] of [['null', null], ['true', true], ['false', false]]) {
      if (text.startsWith(word, i)) return [v, i + word.length];
    }
    for (const [word, v] of [['NaN', NaN], ['Infinity', Infinity], ['-Infinity', -Infinity]]) {
      if (text.startsWith(word, i)) return [new JsonNumber(v, word), i + word.length];
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (m) {
      const end = i + m[0].length;
      if (m[1] === undefined && m[2] === undefined) return [BigInt(m[0]), end];
      return [new JsonNumber(Number(m[0]), m[0]), end];
    }
    throw new JsonSyntax('expected a value', i);
  };
  const items = (i, close, item) => {
    nest();
    i = skip(i);
    if (text[i] === close) {
      depth--;
      return i + 1;
    }
    for (;;) {
      i = skip(item(i));
      if (text[i] === close) {
        depth--;
        return i + 1;
      }
      if (text[i] !== ',') throw new JsonSyntax(`expected ',' or '${close}'`, i);
      i = skip(i + 1);
    }
  };
  const object = (i) => {
    const out = new Map();
    const end = items(i, '}', (at) => {
      if (text[at] !== '"') throw new JsonSyntax('expected a key in double quotes', at);
      const [key, afterKey] = string(at + 1);
      const colon = skip(afterKey);
      if (text[colon] !== ':') throw new JsonSyntax("expected ':' after a key", colon);
      const [item, after] = value(skip(colon + 1));
      out.set(key, item);
      return after;
    });
    return [out, end];
  };
  const array = (i) => {
    const out = [];
    const end = items(i, ']', (at) => {
      const [item, after] = value(at);
      out.push(item);
      return after;
    });
    return [out, end];
  };
  if (text.startsWith('\ufeff')) throw new JsonSyntax('a byte order mark before the JSON', 0);
  const [result, end] = value(skip(0));
  const rest = skip(end);
  if (rest !== text.length) throw new JsonSyntax('more text after the JSON value', rest);
  return result;
}

/** The code point index of a UTF-16 index (positions are counted in code points). */
function codePointIndex(text, index) {
  let n = 0;
  for (let i = 0; i < index; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < index) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

// --- reading documents ------------------------------------------------------------------------

const isDict = (v) => v instanceof Map;
const isInt = (v) => typeof v === 'bigint';

/** The error of a field of a document: its path (such as 'state.houses[2][0]') and why. */
function field(path, why) {
  return new NotationError(`${path}: ${why}`, { code: 'bad_field', path });
}

/** The error of a document that is not one this package reads. */
function notDocument(why) {
  return new NotationError(why, { code: 'bad_document' });
}

function get(data, key, path) {
  if (!data.has(key)) throw field(`${path}.${key}`, 'missing');
  return data.get(key);
}

function int(value, path, low, high) {
  if (!isInt(value) || value < BigInt(low) || value > BigInt(high)) {
    throw field(path, `expected an integer from ${low} to ${high}, not ${show(value)}`);
  }
  return Number(value);
}

function card(value, path, deck = STANDARD) {
  const length = typeof value === 'string' ? Array.from(value).length : 0;
  if (length < 2 || length > 3) {
    throw field(path, `expected a card like "7H" or "7h", not ${show(value)}`);
  }
  try {
    return deck.parse(value);
  } catch (error) {
    if (!(error instanceof NotationError)) throw error;
    throw field(path, error.message);
  }
}

function piles(value, n, path, deck) {
  if (!Array.isArray(value) || value.length !== n) throw field(path, `expected an array of ${n} piles`);
  return value.map((p, i) => {
    if (!Array.isArray(p)) throw field(`${path}[${i}]`, 'expected an array of cards');
    return p.map((c, j) => card(c, `${path}[${i}][${j}]`, deck));
  });
}

function pair(value, path, high) {
  if (!Array.isArray(value) || value.length !== 2) throw field(path, 'expected an array of 2 integers');
  return [int(value[0], `${path}[0]`, 0, high), int(value[1], `${path}[1]`, 0, high)];
}

function rulesField(data, path) {
  const text = get(data, 'rules', path);
  if (typeof text !== 'string') throw field(`${path}.rules`, 'expected a rules string');
  try {
    return Ruleset.fromString(text);
  } catch (error) {
    if (!(error instanceof InvalidRulesError)) throw error;
    throw field(`${path}.rules`, error.message);
  }
}

const HEX_KEY = /^[0-9a-fA-F]{1,16}$/;

function fieldsFromDict(data, path) {
  const rules = rulesField(data, path);
  const deck = PACKS[rules.pack];
  const most = Math.max(deck.ranks, deck.trumps);
  const houses = piles(get(data, 'houses', path), 8, `${path}.houses`, deck);
  houses.forEach((p, i) => {
    if (p.length > most) {
      throw field(
        `${path}.houses[${i}]`,
        `house H${i + 1} holds ${p.length} cards; a house is a run down from a King (or trump 21),` +
          ` at most ${most} cards`,
      );
    }
  });
  const reserves = piles(get(data, 'reserves', path), 2, `${path}.reserves`, deck);
  const hands = piles(get(data, 'hands', path), 2, `${path}.hands`, deck);
  const wastes = piles(get(data, 'wastes', path), 2, `${path}.wastes`, deck);
  const turnedValue = get(data, 'turned', path);
  const turned = turnedValue === null ? null : card(turnedValue, `${path}.turned`, deck);
  const emptiedValue = get(data, 'emptied', path);
  if (!Array.isArray(emptiedValue)) throw field(`${path}.emptied`, 'expected an array of house numbers 1..8');
  let emptied = 0;
  emptiedValue.forEach((h, i) => {
    emptied |= 1 << (int(h, `${path}.emptied[${i}]`, 1, 8) - 1);
  });
  const seenValue = get(data, 'seen', path);
  if (!Array.isArray(seenValue)) throw field(`${path}.seen`, 'expected an array of hex layout keys');
  const seen = new Set();
  seenValue.forEach((item, i) => {
    if (typeof item !== 'string' || !HEX_KEY.test(item)) {
      throw field(`${path}.seen[${i}]`, `expected 1 to 16 hex digits, not ${show(item)}`);
    }
    seen.add(BigInt('0x' + item));
  });
  const window = data.has('window') ? data.get('window') : false;
  if (typeof window !== 'boolean') throw field(`${path}.window`, `expected true or false, not ${show(window)}`);
  const calls = data.has('false_calls') ? data.get('false_calls') : [0n, 0n];
  const fault = data.has('fault') ? data.get('fault') : null;
  const toAct = int(get(data, 'to_act', path), `${path}.to_act`, 0, 1);
  const foundations = piles(get(data, 'foundations', path), deck.foundations, `${path}.foundations`, deck);
  const reserveUp = pair(get(data, 'reserve_up', path), `${path}.reserve_up`, deck.count);
  const passes = pair(get(data, 'passes', path), `${path}.passes`, 2);
  const movesMade = int(get(data, 'moves_made', path), `${path}.moves_made`, 0, 10 ** 12);
  const falseCalls = pair(calls, `${path}.false_calls`, 3);
  return {
    fields: {
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
      window: window && fault === null,
      falseCalls,
    },
    fault,
  };
}

/** Rebuild a state from stateToDict's object (a parsed Map), checking it completely. */
function stateFromDict(data, path, allowStop = true) {
  if (!isDict(data)) throw field(path, 'expected an object');
  const { fields, fault } = fieldsFromDict(data, path);
  if (fault !== null) return withFault(fields, fault, `${path}.fault`);
  const pending = get(data, 'stop', path);
  if (pending === null) return makeState(fields);
  if (!allowStop) {
    throw field(
      `${path}.stop`,
      "the prior state of a pending Stop! cannot itself hold a pending Stop! (the opponent's" +
        ' decision comes before any other move)',
    );
  }
  return withStop(fields, pending, `${path}.stop`);
}

function sameFields(fields, state) {
  // state.replace(stop=pending) == rebuilt: every written field is the rebuilt state's
  const eqPiles = (a, b) =>
    a.length === b.length && a.every((p, i) => p.length === b[i].length && p.every((c, j) => c === b[i][j]));
  const same =
    fields.rules.equals(state.rules) &&
    fields.toAct === state.toAct &&
    eqPiles(fields.foundations, state.foundations) &&
    eqPiles(fields.houses, state.houses) &&
    eqPiles(fields.reserves, state.reserves) &&
    eqPiles(fields.hands, state.hands) &&
    eqPiles(fields.wastes, state.wastes) &&
    fields.reserveUp[0] === state.reserveUp[0] &&
    fields.reserveUp[1] === state.reserveUp[1] &&
    fields.turned === state.turned &&
    fields.emptied === state.emptied &&
    fields.passes[0] === state.passes[0] &&
    fields.passes[1] === state.passes[1] &&
    fields.movesMade === state.movesMade &&
    fields.falseCalls[0] === state.falseCalls[0] &&
    fields.falseCalls[1] === state.falseCalls[1];
  if (!same) return false;
  const written = new Set(fields.seen);
  written.add(state.housesKey); // the houses are the same: so is their layout key
  const seen = state.seen;
  return written.size === seen.size && [...written].every((k) => seen.has(k));
}

function withStop(fields, stop, path) {
  if (!isDict(stop)) throw field(path, 'expected null or an object');
  const prior = stateFromDict(get(stop, 'prior', path), `${path}.prior`, false);
  const text = get(stop, 'move', path);
  if (typeof text !== 'string') throw field(`${path}.move`, 'expected a move like "R-H3"');
  const move = moveFromText(text);
  const played = playViolation(prior, move);
  if (played.error !== undefined) {
    throw field(`${path}.move`, `not playable in ${path}.prior: ${played.error}`);
  }
  const rebuilt = played.state;
  const pending = rebuilt === null ? null : rebuilt.stop;
  let same = false;
  if (pending !== null) {
    const offender = int(get(stop, 'offender', path), `${path}.offender`, 0, 1);
    const resume = int(get(stop, 'resume', path), `${path}.resume`, 0, 1);
    same = offender === pending.offender && resume === pending.resume;
  }
  if (!same) throw field(path, `${text} from ${path}.prior is not this pending violation`);
  if (!sameFields(fields, rebuilt)) {
    throw field(path, `the state's fields are not the result of ${text} played from ${path}.prior`);
  }
  return rebuilt;
}

/** The state after the faulty turn end of `fault` (call_window=turn_start): the written
 *  fields must be its result. */
function withFault(fields, fault, path) {
  if (!isDict(fault)) throw field(path, 'expected null or an object');
  const prior = stateFromDict(get(fault, 'prior', path), `${path}.prior`, false);
  const text = get(fault, 'move', path);
  if (typeof text !== 'string') throw field(`${path}.move`, 'expected a move like "flip"');
  const move = moveFromText(text);
  const played = playViolation(prior, move);
  if (played.error !== undefined) {
    throw field(`${path}.move`, `not playable in ${path}.prior: ${played.error}`);
  }
  const rebuilt = played.state;
  if (rebuilt === null || rebuilt.fault === null) {
    throw field(path, `${text} from ${path}.prior is not a faulty turn end`);
  }
  // the written fields must make a state (its call window open) before they are compared
  const problems = positionProblems({ ...fields, window: true });
  if (problems.length) {
    throw new InvalidPositionError(`impossible position: ${problems.join('; ')}`, { text: '' });
  }
  if (!sameFields(fields, rebuilt)) {
    throw field(path, `the state's fields are not the result of ${text} played from ${path}.prior`);
  }
  return rebuilt;
}

function rulesFrom(data) {
  const text = data.get('rules');
  if (typeof text !== 'string') throw field('rules', 'expected a rules string, like "classic"');
  try {
    const rules = Ruleset.fromString(text);
    const options = data.has('options') ? data.get('options') : null;
    if (options !== null) {
      if (!isDict(options)) throw field('options', 'expected an object of option values');
      const other = Ruleset.preset('classic').replace(options);
      if (!other.equals(rules)) {
        throw field('options', `${other} is not the ruleset of "rules" (${rules})`);
      }
    }
    return rules;
  } catch (error) {
    if (!(error instanceof InvalidRulesError)) throw error;
    throw field('rules', error.message);
  }
}

/**
 * Read a document written by toJson (or the Python library's to_json): a "state" gives a
 * GameState, a "rules" document a Ruleset.
 * @throws {NotationError} not JSON (with the character position), not a crapette
 *   document, an unknown format version or type, or contents that are malformed or
 *   impossible (naming the field).
 */
export function fromJson(text) {
  if (typeof text !== 'string') throw new TypeError(`fromJson() reads a string, not ${show(text)}`);
  let data;
  try {
    data = parseJson(text);
  } catch (error) {
    if (!(error instanceof JsonSyntax)) throw error;
    const position = error.at === null ? null : codePointIndex(text, error.at);
    const where = position === null ? '' : ` at ${position}`;
    throw new NotationError(`not JSON${where}: ${error.message}`, { code: 'bad_json', text, position });
  }
  if (!isDict(data) || data.get('format') !== FORMAT) {
    throw notDocument('not a crapette JSON document: expected an object with "format": "crapette"');
  }
  const version = data.get('version');
  if (!isInt(version) || !READ_VERSIONS.includes(version)) {
    const shown = data.has('version') ? show(version) : '(none given)';
    throw notDocument(
      `unsupported crapette JSON version ${shown}: this package (behaviour ${BEHAVIOUR_VERSION})` +
        ` reads versions ${READ_VERSIONS.join(' and ')}`,
    );
  }
  const kind = data.get('type');
  if (kind === 'state') return stateFromDict(data.has('state') ? data.get('state') : null, 'state');
  if (kind === 'rules') return rulesFrom(data);
  if (kind === 'record' || kind === 'match') {
    throw notDocument(`document type "${kind}": the JavaScript package reads "state" and "rules" documents only`);
  }
  const shown = data.has('type') ? show(kind) : '(none given)';
  throw notDocument(`unknown document type ${shown}: expected "state", "rules", "record" or "match"`);
}

