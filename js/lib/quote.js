/**
 * Bounded quotations for error messages, written as the Python library writes them
 * (crapette._quote): a string as Python's repr() shows it, cut to an excerpt around the
 * problem when it is long, and any other value by its Python repr. The messages of both
 * libraries are compared character for character by the shared test vectors.
 * @module
 */

/** The most characters of an input an error message quotes. */
export const QUOTE_LIMIT = 60;

/** A float read from JSON (JavaScript numbers lose the difference between 1 and 1.0,
 *  which Python's messages show). */
export class PyFloat {
  constructor(value) {
    this.value = value;
  }
}

const NOT_PRINTABLE = /^[\p{C}\p{Z}]$/u;

function hex(code, width) {
  return code.toString(16).padStart(width, '0');
}

/** Python's repr() of a string. */
export function reprString(text) {
  const quoteChar = text.includes("'") && !text.includes('"') ? '"' : "'";
  let out = quoteChar;
  for (const ch of text) {
    const code = ch.codePointAt(0);
    if (ch === quoteChar || ch === '\\') out += '\\' + ch;
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += '\\x' + hex(code, 2);
    else if (code < 0x7f || ch === ' ' || !NOT_PRINTABLE.test(ch)) out += ch;
    else if (code < 0x100) out += '\\x' + hex(code, 2);
    else if (code < 0x10000) out += '\\u' + hex(code, 4);
    else out += '\\U' + hex(code, 8);
  }
  return out + quoteChar;
}

/** Python's repr() of a float. */
export function reprFloat(x) {
  if (Number.isNaN(x)) return 'nan';
  if (!Number.isFinite(x)) return x > 0 ? 'inf' : '-inf';
  if (x === 0) return Object.is(x, -0) ? '-0.0' : '0.0';
  const sign = x < 0 ? '-' : '';
  const [mantissa, e] = Math.abs(x).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exp = Number(e);
  if (exp >= -4 && exp < 16) {
    if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
    const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
    return `${sign}${whole}.${digits.slice(exp + 1) || '0'}`;
  }
  const lead = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign}${lead}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}

/** Python's repr() of a value: strings, numbers (an integral number as an int),
 *  BigInts, booleans, null (None), arrays (lists) and Maps or plain objects (dicts). */
export function repr(value) {
  if (value === null || value === undefined) return 'None';
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (typeof value === 'string') return reprString(value);
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : reprFloat(value);
  if (value instanceof PyFloat) return reprFloat(value.value);
  if (Array.isArray(value)) return `[${value.map(repr).join(', ')}]`;
  if (value instanceof Map) {
    return `{${[...value].map(([k, v]) => `${repr(k)}: ${repr(v)}`).join(', ')}}`;
  }
  if (typeof value === 'object') {
    return `{${Object.entries(value).map(([k, v]) => `${repr(k)}: ${repr(v)}`).join(', ')}}`;
  }
  return String(value);
}

/** The length of a string in code points (Python's len()). */
export function pyLength(text) {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** `repr(text)` when it is short, otherwise an excerpt of `limit` code points (around
 *  `position` if given, else from the start) marked with `...` and the full length. */
export function quote(text, position = null, limit = QUOTE_LIMIT) {
  const chars = Array.from(text);
  if (chars.length <= limit) return reprString(text);
  const start =
    position === null ? 0 : Math.max(0, Math.min(position - Math.floor(limit / 2), chars.length - limit));
  const piece = reprString(chars.slice(start, start + limit).join(''));
  const before = start > 0 ? '...' : '';
  const after = start + limit < chars.length ? '...' : '';
  return `${before}${piece}${after} (${chars.length} characters)`;
}

function bitLength(value) {
  let v = value < 0n ? -value : value;
  let n = 0;
  while (v > 0n) {
    v >>= 1n;
    n++;
  }
  return n;
}

/** A bounded form of any value for an error message (crapette._quote.show). */
export function show(value, limit = QUOTE_LIMIT) {
  if (typeof value === 'string') return quote(value, null, limit);
  if (typeof value === 'bigint' && bitLength(value) > 128) {
    return `<an integer of ${bitLength(value)} bits>`;
  }
  const text = repr(value);
  const chars = Array.from(text);
  return chars.length <= limit
    ? text
    : `${chars.slice(0, limit).join('')}... (${chars.length} characters)`;
}

/** A Python type name of a value, for the messages that name one. */
export function typeName(value) {
  if (value === null || value === undefined) return 'NoneType';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'bigint') return 'int';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'float';
  if (value instanceof PyFloat) return 'float';
  if (typeof value === 'string') return 'str';
  if (Array.isArray(value)) return 'list';
  if (value instanceof Map) return 'dict';
  return value.constructor?.name ?? typeof value;
}
