// A refusal in the player's words. The backend refuses with an error code; a move the rules
// refuse carries the rules' reason as data beside the English message: {code, params}, a
// reason code of the rule spec (static/spec.js REASONS, with each parameter's type) and its
// parameters. The page says it with the catalogue key reason.<code> (every catalogue has
// words for every reason: tests/test_web_catalogues.py), each parameter written as the
// language writes it (cards as the page shows them).
import * as cards from "./cards.js";
import { t, has } from "./i18n.js";
import { REASONS } from "./spec.js";

const TYPES = new Map(REASONS.map((r) => [r.code, Object.fromEntries(r.params)]));

function value(kind, raw) {
  if (kind === "card") return cards.short(raw);
  if (kind === "cards") return raw.map((card) => cards.short(card)).join(", ");
  return raw; // a house (1..8), a number, a player, a pile token (R, T, W, OR, H3...), a move
}

/** The rules' reason of a refusal ({code, params}) in the chosen language, or null for a
 *  code the page does not know. */
export function reason(refusal) {
  const types = refusal && TYPES.get(refusal.code);
  if (!types || !has(`reason.${refusal.code}`)) return null;
  const params = {};
  for (const [name, kind] of Object.entries(types)) params[name] = value(kind, refusal.params[name]);
  return t(`reason.${refusal.code}`, params);
}

/** A backend error in the player's words. */
export function explain(error) {
  const code = error && error.code;
  if (code === "illegal_move" || code === "bad_move") {
    const why = reason(error.reason);
    return why ? t("refused.because", { reason: why }) : t("refused.plain");
  }
  const key = `error.${code}`;
  return has(key) ? t(key) : t("error.other");
}
