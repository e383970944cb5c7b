// Moves, piles and rules in the player's words (every text from the catalogues).
import * as cards from "./cards.js";
import { t, has } from "./i18n.js";

/** The kind and side of a pile seen by `me`: {kind, side, number}. */
function pileOf(name, me) {
  const kind = name[0];
  if (kind === "H") return { kind: "H", number: Number(name.slice(1)) };
  if (kind === "F" || name === "T") return { kind };
  return { kind, side: Number(name.slice(1)) === me ? "mine" : "theirs" };
}

/** "from house 3", "from your reserve" (the source of a move), as `me` sees it. */
export function fromPhrase(name, me) {
  const p = pileOf(name, me);
  if (p.kind === "H") return t("place.from.house", { number: p.number });
  if (p.kind === "T") return t("place.from.turned");
  return t(`place.from.${p.kind === "R" ? "reserve" : "waste"}.${p.side}`);
}

/** "onto house 3", "onto a foundation", "onto your waste", as `me` sees it. */
export function toPhrase(name, me) {
  const p = pileOf(name, me);
  if (p.kind === "H") return t("place.to.house", { number: p.number });
  if (p.kind === "F") return t("place.to.foundation");
  return t(`place.to.${p.kind === "R" ? "reserve" : "waste"}.${p.side}`);
}

/** Absolute pile names of a recent-move entry (its "to" may be OR/OW: the mover's
 * opponent's reserve or waste). */
export function ends(entry) {
  if (!entry.from) return null;
  let to = entry.to;
  if (to === "OR") to = `R${1 - entry.seat}`;
  else if (to === "OW") to = `W${1 - entry.seat}`;
  return { from: entry.from, to };
}

/**
 * A move in words. `move` = {action, from, to, count, card}; `actor` "you" or "opp";
 * `me` the viewer's seat. The card (when known) is a card text.
 */
export function describe(move, actor, me) {
  const card = move.card ? cards.short(move.card) : null;
  const count = move.count || 1;
  switch (move.action) {
    case "play": {
      const params = { card: card ?? "", count, from: fromPhrase(move.from, me), to: toPhrase(move.to, me) };
      if (count > 1) return t(`move.${actor}.group`, params);
      return t(card ? `move.${actor}.play` : `move.${actor}.play.nocard`, params);
    }
    case "draw":
      return card ? t(`move.${actor}.draw`, { card }) : t(`move.${actor}.draw.nocard`);
    case "discard":
      return card ? t(`move.${actor}.discard`, { card }) : t(`move.${actor}.discard.nocard`);
    case "reveal":
      return card ? t(`move.${actor}.reveal`, { card }) : t(`move.${actor}.reveal.nocard`);
    case "flip":
      return card ? t(`move.${actor}.flip`, { card }) : t(`move.${actor}.flip.nocard`);
    case "end":
      return t(`move.${actor}.end`);
    case "stop":
      return t(`move.${actor}.stop`);
    case "pass":
      return t(`move.${actor}.pass`);
    default:
      return t("move.unknown");
  }
}

/** The action of a move's notation ("draw", "H3-F" -> "play"). */
export function actionOf(notation) {
  if (notation.includes("-")) return "play";
  return notation;
}

/** The rules as the player reads them: the preset's name and its changed options in words
 * (the match format apart). `rules` is the payload's rules string "preset(option=value, ...)". */
export function rulesName(rules) {
  const { preset, changes } = parseRules(rules);
  const name = has(`preset.${preset}`) ? t(`preset.${preset}`) : preset;
  const words = Object.entries(changes)
    .filter(([option]) => !option.startsWith("match_"))
    .map(([option, value]) => optionWords(option, value));
  return words.length ? t("rules.changed", { preset: name, changes: words.join("; ") }) : t("rules.plain", { preset: name });
}

/** An option's value in words ("empty houses filled at once"). */
export function optionWords(option, value) {
  const key = `option.${option}.${value}`;
  if (has(key)) return t(key);
  if (has(`option.${option}`)) return t(`option.${option}`, { value: Number(value), count: Number(value) });
  return `${option}=${value}`;
}

/** {preset, changes} of a rules string (the values as written: "true", "none", "12"). */
export function parseRules(text) {
  const open = text.indexOf("(");
  if (open < 0) return { preset: text.trim(), changes: {} };
  const changes = {};
  for (const item of text.slice(open + 1, -1).split(",")) {
    const [key, value] = item.split("=").map((s) => s.trim());
    if (key) changes[key] = value;
  }
  return { preset: text.slice(0, open).trim(), changes };
}

/** Every option's value for a rules string, from the presets' options (from the backend). */
export function optionsOf(text, presets) {
  const { preset, changes } = parseRules(text);
  const base = presets.find((p) => p.name === preset);
  const options = { ...(base ? base.options : {}) };
  for (const [key, raw] of Object.entries(changes)) {
    if (raw === "true" || raw === "false") options[key] = raw === "true";
    else if (raw === "none" && typeof options[key] !== "string") options[key] = null; // (false_call=none is a word)
    else if (/^-?\d+$/.test(raw)) options[key] = Number(raw);
    else options[key] = raw;
  }
  return options;
}

/** The match format in words ("one deal", "a match to 300 points", "a match of 5 deals"). */
export function matchWords(match) {
  if (match.target === null && match.deals === 1) return t("match.one");
  if (match.target !== null && match.deals !== null) {
    return t("match.both", { target: match.target, deals: match.deals, count: match.deals });
  }
  if (match.target !== null) return t("match.target", { target: match.target, count: match.target });
  return t("match.deals", { deals: match.deals, count: match.deals });
}
