// The page's languages: one message catalogue per language (static/i18n/<code>.json, a flat
// object of key -> message), the list of languages in static/i18n/languages.json. Messages
// hold named placeholders ("{card}"); a message with a {count} may be an object of plural
// forms keyed by the Intl.PluralRules categories of its language ("one", "few", "many",
// "other"). No user-visible text lives in the code: every string comes from a catalogue.

const state = { code: "en", messages: {}, fallback: {}, languages: [], plural: null };

/** The languages the page offers: [{code, name}] (each name in its own language). */
export function languages() {
  return state.languages;
}

/** The code of the language in use ("en", "sr-Latn", ...). */
export function current() {
  return state.code;
}

async function load(code) {
  const response = await fetch(new URL(`./i18n/${code}.json`, import.meta.url));
  if (!response.ok) throw new Error(response.url);
  return response.json();
}

/** The language best matching the browser's preferred ones (navigator.languages). */
export function pick(preferred, offered) {
  const codes = offered.map((l) => l.code);
  for (const raw of preferred) {
    const tag = String(raw);
    const lower = tag.toLowerCase();
    const exact = codes.find((c) => c.toLowerCase() === lower);
    if (exact) return exact;
    const [base, ...rest] = lower.split("-");
    if (base === "sr") {
      // Serbian: Latin when the tag says so (sr-Latn, sr-Latn-RS) or for Montenegro; else
      // Cyrillic, the script of plain "sr" and "sr-RS".
      const latin = rest.includes("latn") || rest.includes("me");
      return latin ? "sr-Latn" : "sr-Cyrl";
    }
    if (base === "zsm") return "ms";
    const same = codes.find((c) => c.split("-")[0].toLowerCase() === base);
    if (same) return same;
  }
  return "en";
}

/** Load the language list and the catalogue of `code` (or of the browser's language). */
export async function init(code) {
  const response = await fetch(new URL("./i18n/languages.json", import.meta.url));
  state.languages = await response.json();
  state.fallback = await load("en");
  const chosen = code && state.languages.some((l) => l.code === code) ? code : null;
  await use(chosen || pick(navigator.languages || [navigator.language || "en"], state.languages));
}

/** Switch to the language `code`. */
export async function use(code) {
  state.messages = code === "en" ? state.fallback : await load(code);
  state.code = code;
  state.plural = new Intl.PluralRules(code);
  state.number = new Intl.NumberFormat(code);
  document.documentElement.lang = code;
}

/** The message `key` with its placeholders filled from `params`. */
export function t(key, params = {}) {
  let message = state.messages[key] ?? state.fallback[key];
  if (message === undefined) return key;
  if (typeof message === "object") {
    const n = params.count ?? 0;
    message = message[state.plural.select(n)] ?? message.other;
  }
  return message.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return typeof value === "number" ? state.number.format(value) : String(value);
  });
}

/** Whether the catalogue has `key`. */
export function has(key) {
  return key in state.messages || key in state.fallback;
}

/** Fill every element of `root` that names a message: data-i18n (its text),
 * data-i18n-label (aria-label), data-i18n-title (title), data-i18n-placeholder. */
export function translate(root = document) {
  for (const el of root.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  for (const el of root.querySelectorAll("[data-i18n-label]")) {
    el.setAttribute("aria-label", t(el.dataset.i18nLabel));
  }
  for (const el of root.querySelectorAll("[data-i18n-title]")) {
    el.setAttribute("title", t(el.dataset.i18nTitle));
  }
  for (const el of root.querySelectorAll("[data-i18n-placeholder]")) {
    el.setAttribute("placeholder", t(el.dataset.i18nPlaceholder));
  }
}
