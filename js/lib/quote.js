/**
 * Bounded quotations of input for this package's error messages: a text in double quotes
 * (as JSON.stringify writes it), cut to an excerpt around the problem when it is long, and
 * any other value as JavaScript shows it. The messages are this package's own; the shared
 * test vectors pin what is refused and where, not the words.
 * @module
 */

/** The most characters of an input an error message quotes. */
export const QUOTE_LIMIT = 60;

/** The length of a text in code points (positions in texts are counted in code points,
 *  as the Python library counts them). */
export function codePoints(text) {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** A text in double quotes when it is short, else an excerpt of `limit` code points
 *  (around `position` if given, else from the start) marked with '…' and the length. */
export function quote(text, position = null, limit = QUOTE_LIMIT) {
  const chars = Array.from(text);
  if (chars.length <= limit) return JSON.stringify(text);
  const start =
    position === null ? 0 : Math.max(0, Math.min(position - Math.floor(limit / 2), chars.length - limit));
  const piece = JSON.stringify(chars.slice(start, start + limit).join(''));
  const before = start > 0 ? '…' : '';
  const after = start + limit < chars.length ? '…' : '';
  return `${before}${piece}${after} (${chars.length} characters)`;
}

const jsonValue = (_, v) => (typeof v === 'bigint' ? Number(v) : v instanceof Map ? Object.fromEntries(v) : v);

function plain(value) {
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'function') return value.name ? `function ${value.name}` : 'a function';
  if (typeof value !== 'object' || value === null) return String(value);
  const proto = Object.getPrototypeOf(value);
  if (Array.isArray(value) || value instanceof Map || proto === Object.prototype || proto === null) {
    try {
      return JSON.stringify(value, jsonValue);
    } catch {
      return Array.isArray(value) ? 'an array' : 'an object';
    }
  }
  return `a ${value.constructor?.name ?? 'object'}`;
}

/** A bounded form of any value for an error message: a text quoted, a number, null,
 *  undefined or a boolean as written in JavaScript, an array or plain object as JSON, any
 *  other object by its class. */
export function show(value, limit = QUOTE_LIMIT) {
  if (typeof value === 'string') return quote(value, null, limit);
  const text = value?.jsonText ?? plain(value);
  const chars = Array.from(text);
  return chars.length <= limit ? text : `${chars.slice(0, limit).join('')}… (${chars.length} characters)`;
}
