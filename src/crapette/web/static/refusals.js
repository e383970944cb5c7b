// A refusal in the player's words. The backend refuses with an error code and, for an
// illegal move, the library's reason in English; i18n/reasons.json lists every reason the
// rules engine gives (a pattern over the English text, with its catalogue key and the
// pieces it carries: cards are shown as the language writes them). The test suite checks
// that every reason the engine can give matches a pattern.
import * as cards from "./cards.js";
import { t, has } from "./i18n.js";

let table = [];

/** Load the reason patterns. */
export async function init() {
  const response = await fetch(new URL("./i18n/reasons.json", import.meta.url));
  table = (await response.json()).map((r) => ({ ...r, regex: new RegExp(r.pattern) }));
}

function value(kind, raw) {
  if (kind === "card") return /^[A2-9TJQK][SHDCshdc]$/.test(raw) ? cards.short(raw) : raw;
  if (kind === "cards") return raw.split(/,\s*/).map((c) => value("card", c)).join(", ");
  return Number(raw);
}

/** The reason of an English refusal message in the chosen language, or null. */
export function reason(message) {
  for (const entry of table) {
    const found = entry.regex.exec(message);
    if (!found) continue;
    const params = {};
    entry.params.forEach((spec, i) => {
      const [name, kind] = spec.split(":");
      params[name] = value(kind || "number", found[i + 1]);
    });
    return t(entry.key, params);
  }
  return null;
}

/** A backend error in the player's words. */
export function explain(error) {
  const code = error && error.code;
  if (code === "illegal_move" || code === "bad_move") {
    const why = reason(error.message || "");
    return why ? t("refused.because", { reason: why }) : t("refused.plain");
  }
  const key = `error.${code}`;
  return has(key) ? t(key) : t("error.other");
}
