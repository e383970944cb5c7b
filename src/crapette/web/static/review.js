// The review screen and puzzle mode in the player's words: a judged move, a best line, a
// Stop! fault, a verdict, and the arrows that show a line on the table. The judgments and
// the lines are the engine's (the server's review and puzzle answers); this module only
// says them (every text from the catalogues) and turns their moves into arrows.
import * as cards from "./cards.js";
import { t } from "./i18n.js";
import * as refusals from "./refusals.js";
import * as words from "./words.js";

/** The mark of a judgment beside a move, as chess writes it. */
export const MARKS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** A win chance (0..1) as the language writes a percentage; a dash when unknown. */
export function percent(x) {
  if (x === null || x === undefined) return "–";
  return t("review.percent", { value: Math.round(x * 100) });
}

/** A review or puzzle move ({move, player, count, cards, from?, to?}) as words.describe
 * takes it. */
export function moveOf(entry) {
  return {
    action: words.actionOf(entry.move),
    from: entry.from,
    to: entry.to,
    count: entry.count || 1,
    card: entry.cards[0] || null,
  };
}

/** A played move in words, for the seat `me` ("You played 7♥ from house 3 onto house 5."). */
export function played(entry, me) {
  return words.describe(moveOf(entry), entry.player === me ? "you" : "opp", me);
}

/** A step of a line in words, whoever makes it ("7♥ from house 3 onto house 5"). */
export function step(entry, me) {
  const move = moveOf(entry);
  const card = move.card ? cards.short(move.card) : "";
  if (move.action === "play") {
    const params = { card, count: move.count, from: words.fromPhrase(move.from, me), to: words.toPhrase(move.to, me) };
    return t(move.count > 1 ? "review.step.group" : "review.step.play", params);
  }
  return t(`review.step.${move.action}`);
}

/** A line's steps in words, joined. */
export function lineText(line, me) {
  return line.map((entry) => step(entry, me)).join("; ");
}

/** A Stop! fault in words, for the seat `me` (`mine`: the fault is `me`'s). */
export function faultText(fault, mine, me) {
  const side = mine ? "you" : "opp";
  if (fault.kind === "missed_compulsory") {
    const reason = fault.reason ? refusals.reason(fault.reason) : null;
    return t(`review.fault.compulsory.${side}`, {
      moves: fault.remedy.map((entry) => step(entry, me)).join(t("review.or")),
      reason: reason || "",
    });
  }
  const move = fault.about ? step(fault.about, me) : "";
  return t(`review.fault.${fault.kind}.${side}`, { move });
}

/** The arrows of a move of `player` ({from, to, count, label, kind}), or none (a Stop!
 * decision, the end of a turn). */
function arrowOf(entry, kind, label) {
  const move = moveOf(entry);
  const p = entry.player;
  const base = { kind, label, count: move.count };
  if (move.action === "play") return { ...base, from: move.from, to: move.to };
  if (move.action === "draw") return { ...base, from: `K${p}` };
  if (move.action === "discard") return { ...base, from: "T", to: `W${p}` };
  if (move.action === "flip") return { ...base, from: `K${p}`, to: `W${p}` };
  if (move.action === "reveal") return { ...base, from: `R${p}` };
  return null;
}

/** The arrows of a line: each step numbered, from 1. */
export function lineArrows(line, kind = "best") {
  return line.map((entry, i) => arrowOf(entry, kind, String(i + 1))).filter(Boolean);
}

/** The arrows of a review's decision: the move played, then the best line (unless the move
 * played was the best line's first move: then the line alone). */
export function decisionArrows(decision) {
  const best = lineArrows(decision.best);
  const same = decision.best.length && decision.best[0].move === decision.played.move;
  const mine = same ? null : arrowOf(decision.played, "played", "");
  return mine ? [mine, ...best] : best;
}
