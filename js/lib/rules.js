/**
 * The ruleset: every rule option as an independent field, the named presets, and the
 * canonical string form ("serbian(house_filling=immediate)") that round-trips, exactly as
 * the Python library's crapette.rules (the same parsing, the same canonical strings, the
 * same error messages). Option names are those of the rules strings (snake_case).
 * @module
 */
import { InvalidRulesError } from './errors.js';
import { pyLength, quote, show, typeName } from './quote.js';

/** Every option: its kind ('bool', 'int', 'count_or_none' or the allowed names) and one
 *  line of documentation, in field order. */
export const OPTIONS = Object.freeze({
  reserve_size: ['int', "cards dealt to each reserve (13 classic, 12 Serbian); hand = 48 - it"],
  reserve_face_up: ['bool', 'the dealt reserve top is face up (false: its owner turns it)'],
  first_player: [
    ['reserve', 'reserve_first_house', 'cut'],
    'lower reserve top starts, ties by the houses outward / by the first house only / a cut',
  ],
  match_starter: [['rule', 'alternate'], 'later deals of a match: same rule, or alternate'],
  own_waste_playable: ['bool', 'your own waste top is an available card'],
  load_from: [['any', 'own'], 'which cards may load the opponent: any available / own piles'],
  load_wrap: ['bool', 'loading wraps between King and Ace'],
  group_moves: [
    ['single', 'supermove', 'whole'],
    'house-to-house sequences: single cards / supermove limit / whole sequences',
  ],
  house_filling: [
    ['before_hand', 'immediate', 'none'],
    'fill empty houses from the reserve: before turning a hand card / at once / never',
  ],
  priority: [['pagat', 'serbian'], "compulsory order: pagat's / foundation, tableau, loading"],
  stop: [
    ['enforced', 'undo', 'card'],
    'priority violations: impossible / callable, taken back / callable, penalty card',
  ],
  move_cap: ['int', 'a deal ends as a stalemate after this many moves'],
  win_bonus: ['int', 'points for winning a deal'],
  reserve_points: ['int', 'points per card in a reserve'],
  hand_points: ['int', 'points per card in a hand or waste'],
  match_target: ['count_or_none', 'a match ends when a total reaches this (none: no target)'],
  match_deals: ['count_or_none', 'a match ends after this many deals (none: no limit)'],
});

const NAMES = Object.keys(OPTIONS);

/** The allowed range [lowest, highest] of every numeric option. */
export const RANGES = Object.freeze({
  reserve_size: [1, 48],
  move_cap: [1, 1_000_000_000],
  win_bonus: [0, 1_000_000],
  reserve_points: [0, 1_000_000],
  hand_points: [0, 1_000_000],
  match_target: [1, 1_000_000_000],
  match_deals: [1, 1_000_000],
});

/** The longest rules string Ruleset.fromString reads. */
export const MAX_RULES_TEXT = 1000;

const BLANKS = ' \t';

function strip(text) {
  let a = 0;
  let b = text.length;
  while (a < b && BLANKS.includes(text[a])) a++;
  while (b > a && BLANKS.includes(text[b - 1])) b--;
  return text.slice(a, b);
}

function describe(name) {
  const kind = OPTIONS[name][0];
  if (Array.isArray(kind)) return 'one of ' + kind.join(', ');
  if (kind === 'bool') return 'true or false';
  const [low, high] = RANGES[name];
  const what = `an integer from ${low} to ${high}`;
  return kind === 'count_or_none' ? what + ' or none' : what;
}

function isInt(value) {
  return typeof value === 'bigint' || (typeof value === 'number' && Number.isInteger(value));
}

function short(value) {
  return show(value, 40);
}

function validate(name, value) {
  const kind = OPTIONS[name][0];
  let ok;
  if (Array.isArray(kind)) ok = typeof value === 'string' && kind.includes(value);
  else if (kind === 'bool') ok = typeof value === 'boolean';
  else if (kind === 'int') ok = isInt(value);
  else ok = value === null || isInt(value);
  if (!ok) {
    throw new InvalidRulesError(
      `option ${name}=${short(value)} is invalid: expected ${describe(name)}`,
    );
  }
  if (name in RANGES && value !== null) {
    const [low, high] = RANGES[name];
    const v = BigInt(value);
    if (v < BigInt(low) || v > BigInt(high)) {
      if (name === 'reserve_size') {
        throw new InvalidRulesError(
          `option reserve_size=${short(value)} is impossible: a pack of 52 cards` +
            ' deals 4 houses, so the reserve holds 1 to 48 cards',
        );
      }
      throw new InvalidRulesError(
        `option ${name}=${short(value)} is out of range: expected ${describe(name)}`,
      );
    }
  }
}

const DEFAULTS = {
  reserve_size: 13,
  reserve_face_up: true,
  first_player: 'reserve',
  match_starter: 'rule',
  own_waste_playable: false,
  load_from: 'any',
  load_wrap: false,
  group_moves: 'supermove',
  house_filling: 'before_hand',
  priority: 'pagat',
  stop: 'enforced',
  move_cap: 20000,
  win_bonus: 30,
  reserve_points: 2,
  hand_points: 1,
  match_target: 300,
  match_deals: null,
};

let building = false;

/**
 * One complete set of rules (immutable). Build one with `Ruleset.preset(name)`,
 * `Ruleset.fromString(text)` (or `parseRules`) and `replace({option: value})`; every
 * option is a read-only property named as in the rules strings (`rules.reserve_size`).
 */
export class Ruleset {
  constructor(options = {}) {
    if (!building) {
      return Ruleset.preset('classic').replace(options);
    }
    for (const name of NAMES) this[name] = options[name];
    Object.freeze(this);
  }

  static _make(values) {
    for (const name of NAMES) validate(name, values[name]);
    if (values.match_target === null && values.match_deals === null) {
      throw new InvalidRulesError(
        'options match_target=none and match_deals=none: a match would never end;' +
          ' set at least one of them',
      );
    }
    const clean = {};
    for (const name of NAMES) {
      const v = values[name];
      clean[name] = typeof v === 'bigint' ? Number(v) : v;
    }
    building = true;
    try {
      return new Ruleset(clean);
    } finally {
      building = false;
    }
  }

  /** Cards dealt to each hand: 48 - reserve_size. */
  get hand_size() {
    return 48 - this.reserve_size;
  }

  /** Whether priority violations are legal and the opponent may call "Stop!". */
  get callable_stop() {
    return this.stop !== 'enforced';
  }

  /** The preset with this name: one of classic, pagat, g4a, belarusian, serbian. */
  static preset(name) {
    const found = typeof name === 'string' && Object.hasOwn(PRESETS, name) ? PRESETS[name] : null;
    if (!found) {
      throw new InvalidRulesError(
        `unknown preset ${show(name)}: expected one of ${Object.keys(PRESETS).join(', ')}`,
      );
    }
    return found;
  }

  /** A copy with some options changed; unknown option names throw InvalidRulesError. */
  replace(changes = {}) {
    const entries = changes instanceof Map ? [...changes] : Object.entries(changes);
    for (const [key] of entries) {
      if (!Object.hasOwn(OPTIONS, key)) {
        throw new InvalidRulesError(
          `unknown option ${quote(key)}: expected one of ${NAMES.join(', ')}`,
        );
      }
    }
    const values = {};
    for (const name of NAMES) values[name] = this[name];
    for (const [key, value] of entries) values[key] = value;
    return Ruleset._make(values);
  }

  /** The canonical string: the nearest preset, then the options that differ from it, in
   *  field order ("classic", "serbian(house_filling=immediate)"). */
  toString() {
    let best = null;
    for (const [name, preset] of Object.entries(PRESETS)) {
      const diff = NAMES.filter((f) => this[f] !== preset[f]).map(
        (f) => `${f}=${formatValue(this[f])}`,
      );
      if (best === null || diff.length < best[1].length) best = [name, diff];
    }
    const [name, diff] = best;
    return diff.length ? `${name}(${diff.join(', ')})` : name;
  }

  /** The canonical string (the same as toString()). */
  toJSON() {
    return this.toString();
  }

  /** Whether two rulesets are the same (every option equal). */
  equals(other) {
    return other instanceof Ruleset && NAMES.every((f) => this[f] === other[f]);
  }

  /** Parse a canonical string (or any "preset(option=value, ...)" string). */
  static fromString(text) {
    if (typeof text !== 'string') {
      throw new InvalidRulesError(`a rules string must be a str, not ${typeName(text)}`);
    }
    const cached = PARSED.get(text);
    if (cached) return cached;
    const rules = parse(text);
    if (PARSED.size < 256) PARSED.set(text, rules);
    return rules;
  }
}

const PARSED = new Map();

function parse(text) {
  if (pyLength(text) > MAX_RULES_TEXT) {
    throw new InvalidRulesError(
      `rules string ${quote(text)} is too long: at most ${MAX_RULES_TEXT} characters`,
    );
  }
  const body = strip(text);
  const open = body.indexOf('(');
  const name = strip(open < 0 ? body : body.slice(0, open));
  const base = Ruleset.preset(name);
  if (open < 0) return base;
  const rest = body.slice(open + 1);
  if (!rest.endsWith(')')) {
    throw new InvalidRulesError(`rules string ${quote(text)} lacks the closing ')'`);
  }
  const inner = strip(rest.slice(0, -1));
  const changes = new Map();
  if (inner) {
    for (const item of inner.split(',')) {
      const eq = item.indexOf('=');
      const key = strip(eq < 0 ? item : item.slice(0, eq));
      if (eq < 0) {
        throw new InvalidRulesError(
          `expected option=value, got ${quote(strip(item))} in ${quote(text)}`,
        );
      }
      if (!Object.hasOwn(OPTIONS, key)) {
        throw new InvalidRulesError(
          `unknown option ${quote(key)} in ${quote(text)}: expected one of ${NAMES.join(', ')}`,
        );
      }
      if (changes.has(key)) {
        throw new InvalidRulesError(`option ${reprKey(key)} given twice in ${quote(text)}`);
      }
      changes.set(key, parseValue(key, strip(item.slice(eq + 1))));
    }
  }
  return base.replace(changes);
}

function reprKey(key) {
  return `'${key}'`; // an option name: letters and underscores only
}

const INT_TEXT = /^-?[0-9]+$/;

function parseValue(name, raw) {
  const kind = OPTIONS[name][0];
  if (Array.isArray(kind)) return raw;
  if (kind === 'bool' && (raw === 'true' || raw === 'false')) return raw === 'true';
  if (kind === 'count_or_none' && raw === 'none') return null;
  if (kind !== 'bool' && INT_TEXT.test(raw)) {
    if (raw.replace(/^-+/, '').length > 12) {
      throw new InvalidRulesError(
        `option ${name}=${quote(raw)} is out of range: expected ${describe(name)}`,
      );
    }
    return Number(raw) + 0; // never -0
  }
  throw new InvalidRulesError(`option ${name}=${quote(raw)} is invalid: expected ${describe(name)}`);
}

function formatValue(value) {
  if (value === null) return 'none';
  if (value === true) return 'true';
  if (value === false) return 'false';
  return String(value);
}

const CLASSIC = Ruleset._make(DEFAULTS);

/** The named presets, in the order of the variant matrix in the rules. */
export const PRESETS = Object.freeze({
  classic: CLASSIC,
  pagat: Ruleset._make({ ...DEFAULTS, stop: 'undo' }),
  g4a: Ruleset._make({ ...DEFAULTS, match_target: 150 }),
  belarusian: Ruleset._make({ ...DEFAULTS, group_moves: 'single', house_filling: 'immediate' }),
  serbian: Ruleset._make({
    ...DEFAULTS,
    reserve_size: 12,
    reserve_face_up: false,
    first_player: 'cut',
    own_waste_playable: true,
    load_from: 'own',
    group_moves: 'single',
    house_filling: 'none',
    priority: 'serbian',
    stop: 'card',
    match_target: null,
    match_deals: 5,
  }),
});

/** Parse a rules string: a preset name or a preset with options, as formatRules writes it. */
export function parseRules(text) {
  return Ruleset.fromString(text);
}

/** The canonical rules string of a ruleset. */
export function formatRules(rules) {
  if (!(rules instanceof Ruleset)) {
    throw new TypeError(`formatRules() needs a Ruleset, not ${typeName(rules)}`);
  }
  return rules.toString();
}

/** A ruleset from a Ruleset, a preset name or a rules string (null/undefined: classic). */
export function asRuleset(rules) {
  if (rules instanceof Ruleset) return rules;
  if (rules === null || rules === undefined) return CLASSIC;
  if (typeof rules !== 'string') {
    throw new InvalidRulesError(
      `rules must be a Ruleset, a preset name or a rules string, not ${show(rules)}`,
    );
  }
  return Ruleset.fromString(rules);
}
