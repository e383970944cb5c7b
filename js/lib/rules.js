/**
 * The ruleset: every rule option as an independent field, the named presets, and the
 * canonical string form ("serbian(house_filling=immediate)") that round-trips, exactly as
 * the Python library's crapette.rules (the same parsing, the same canonical strings, the
 * same strings refused). Option names are those of the rules strings (snake_case).
 * @module
 */
import { InvalidRulesError } from './errors.js';
import { codePoints, quote, show } from './quote.js';
import { COMBINATIONS, OPTIONS as SPEC, PACKS, PRESETS as PRESET_SPEC } from './spec.js';

/** Every option: its kind ('bool', 'int', 'count_or_none' or the allowed names) and one
 *  line of documentation, in field order (from the rule spec, ./spec.js). */
export const OPTIONS = Object.freeze(
  Object.fromEntries(
    SPEC.map((o) => [
      o.name,
      Object.freeze([
        o.kind === 'choice'
          ? Object.freeze(o.values.map(([value]) => value))
          : o.kind === 'count'
            ? 'count_or_none'
            : o.kind,
        o.doc,
      ]),
    ]),
  ),
);

const NAMES = Object.keys(OPTIONS);

/** The allowed range [lowest, highest] of every numeric option. */
export const RANGES = Object.freeze(
  Object.fromEntries(SPEC.filter((o) => o.range).map((o) => [o.name, o.range])),
);

/** The cards of one player's pack, by pack kind; the largest pack's. */
const PACK_CARDS = Object.fromEntries(PACKS.map((p) => [p.name, p.cards]));
const LARGEST = Math.max(...PACKS.map((p) => p.cards));

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
    throw new InvalidRulesError(`option ${name}=${short(value)} is invalid: expected ${describe(name)}`, {
      code: 'bad_value',
    });
  }
  if (name in RANGES && value !== null) {
    const [low, high] = RANGES[name];
    const v = BigInt(value);
    if (v < BigInt(low) || v > BigInt(high)) {
      if (name === 'reserve_size') {
        throw new InvalidRulesError(
          `option reserve_size=${short(value)} is impossible: the largest pack, of ${LARGEST} cards,` +
            ` deals 4 houses, so the reserve holds 1 to ${LARGEST - 4} cards`,
          { code: 'bad_value' },
        );
      }
      throw new InvalidRulesError(`option ${name}=${short(value)} is out of range: expected ${describe(name)}`, {
        code: 'bad_value',
      });
    }
  }
}

const DEFAULTS = Object.fromEntries(SPEC.map((o) => [o.name, o.default]));

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
    const cards = PACK_CARDS[values.pack];
    if (Number(values.reserve_size) > cards - 4) {
      throw new InvalidRulesError(
        `option reserve_size=${values.reserve_size} is impossible with pack=${values.pack}:` +
          ` a pack of ${cards} cards deals 4 houses, so the reserve holds 1 to ${cards - 4} cards`,
        { code: 'bad_value' },
      );
    }
    for (const { first, second, why } of COMBINATIONS) {
      const [one, other] = [values[first[0]], values[second[0]]];
      if (first[1].includes(one) && second[1].includes(other)) {
        throw new InvalidRulesError(
          `options ${first[0]}=${formatValue(one)} and ${second[0]}=${formatValue(other)}: ${why}`,
          { code: 'refused_combination' },
        );
      }
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

  /** The option codes in spec order (the C core's rules table: a choice's index, 0/1, the
   *  number, or -1 for none). */
  get codes() {
    let codes = CODES.get(this);
    if (!codes) {
      codes = SPEC.map((o) => {
        const value = this[o.name];
        if (o.kind === 'choice') return o.values.findIndex(([v]) => v === value);
        if (value === null) return -1;
        return Number(value);
      });
      CODES.set(this, codes);
    }
    return codes;
  }

  /** Cards dealt to each hand: the pack's cards but the reserve and the 4 houses
   *  (48 - reserve_size with the standard pack). */
  get hand_size() {
    return PACK_CARDS[this.pack] - this.reserve_size - 4;
  }

  /** How many moves of ALL_MOVES these rules can make (a prefix of the table,
   *  crapette.moves.action_count): 791 for the standard pack with discards, one more with
   *  turn_end=flip or a tarot pack, and 56 more for each group size above 13 (runs of 14
   *  cards with the Knight, 21 or 22 with the trumps). */
  get action_count() {
    const cards = PACK_CARDS[this.pack];
    const ranks = cards === 52 ? 13 : 14;
    const most = Math.max(ranks, cards - 4 * ranks);
    if (most <= 13 && this.turn_end !== 'flip') return 791;
    return 792 + 56 * (most - 13);
  }

  /** Whether priority violations are legal and the opponent may call "Stop!". */
  get callable_stop() {
    return this.stop !== 'enforced';
  }

  /** The preset with this name, one of PRESETS (classic, pagat, ...). */
  static preset(name) {
    const found = typeof name === 'string' && Object.hasOwn(PRESETS, name) ? PRESETS[name] : null;
    if (!found) {
      throw new InvalidRulesError(`unknown preset ${show(name)}: expected one of ${Object.keys(PRESETS).join(', ')}`, {
        code: 'unknown_preset',
      });
    }
    return found;
  }

  /** A copy with some options changed; unknown option names throw InvalidRulesError. */
  replace(changes = {}) {
    const entries = changes instanceof Map ? [...changes] : Object.entries(changes);
    for (const [key] of entries) {
      if (!Object.hasOwn(OPTIONS, key)) {
        throw new InvalidRulesError(`unknown option ${quote(key)}: expected one of ${NAMES.join(', ')}`, {
          code: 'unknown_option',
        });
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
      throw new InvalidRulesError(`a rules string must be a string, not ${show(text)}`, { code: 'bad_syntax' });
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
  if (codePoints(text) > MAX_RULES_TEXT) {
    throw new InvalidRulesError(`rules string ${quote(text)} is too long: at most ${MAX_RULES_TEXT} characters`, {
      code: 'too_long',
    });
  }
  const body = strip(text);
  const open = body.indexOf('(');
  const name = strip(open < 0 ? body : body.slice(0, open));
  const base = Ruleset.preset(name);
  if (open < 0) return base;
  const rest = body.slice(open + 1);
  if (!rest.endsWith(')')) {
    throw new InvalidRulesError(`rules string ${quote(text)} lacks the closing ')'`, { code: 'bad_syntax' });
  }
  const inner = strip(rest.slice(0, -1));
  const changes = new Map();
  if (inner) {
    for (const item of inner.split(',')) {
      const eq = item.indexOf('=');
      const key = strip(eq < 0 ? item : item.slice(0, eq));
      if (eq < 0) {
        throw new InvalidRulesError(`expected option=value, got ${quote(strip(item))} in ${quote(text)}`, {
          code: 'bad_syntax',
        });
      }
      if (!Object.hasOwn(OPTIONS, key)) {
        throw new InvalidRulesError(
          `unknown option ${quote(key)} in ${quote(text)}: expected one of ${NAMES.join(', ')}`,
          { code: 'unknown_option' },
        );
      }
      if (changes.has(key)) {
        throw new InvalidRulesError(`option ${key} given twice in ${quote(text)}`, { code: 'bad_syntax' });
      }
      changes.set(key, parseValue(key, strip(item.slice(eq + 1))));
    }
  }
  return base.replace(changes);
}

const INT_TEXT = /^-?[0-9]+$/;

function parseValue(name, raw) {
  const kind = OPTIONS[name][0];
  if (Array.isArray(kind)) return raw;
  if (kind === 'bool' && (raw === 'true' || raw === 'false')) return raw === 'true';
  if (kind === 'count_or_none' && raw === 'none') return null;
  if (kind !== 'bool' && INT_TEXT.test(raw)) {
    if (raw.replace(/^-+/, '').length > 12) {
      throw new InvalidRulesError(`option ${name}=${quote(raw)} is out of range: expected ${describe(name)}`, {
        code: 'bad_value',
      });
    }
    return Number(raw) + 0; // never -0
  }
  throw new InvalidRulesError(`option ${name}=${quote(raw)} is invalid: expected ${describe(name)}`, {
    code: 'bad_value',
  });
}

function formatValue(value) {
  if (value === null) return 'none';
  if (value === true) return 'true';
  if (value === false) return 'false';
  return String(value);
}

const CODES = new WeakMap();

const CLASSIC = Ruleset._make(DEFAULTS);

/** The named presets, in the order of the variant matrix in the rules. */
export const PRESETS = Object.freeze(
  Object.fromEntries(
    PRESET_SPEC.map((p) => [p.name, Ruleset._make({ ...DEFAULTS, ...p.changes })]),
  ),
);

/** Parse a rules string: a preset name or a preset with options, as formatRules writes it. */
export function parseRules(text) {
  return Ruleset.fromString(text);
}

/** The canonical rules string of a ruleset. */
export function formatRules(rules) {
  if (!(rules instanceof Ruleset)) {
    throw new TypeError(`formatRules() needs a Ruleset, not ${show(rules)}`);
  }
  return rules.toString();
}

/** A ruleset from a Ruleset, a preset name or a rules string (null/undefined: classic). */
export function asRuleset(rules) {
  if (rules instanceof Ruleset) return rules;
  if (rules === null || rules === undefined) return CLASSIC;
  if (typeof rules !== 'string') {
    throw new InvalidRulesError(`rules must be a Ruleset, a preset name or a rules string, not ${show(rules)}`, {
      code: 'bad_value',
    });
  }
  return Ruleset.fromString(rules);
}
