// Cards as the page shows and names them, in the chosen language. A card is written as the
// payloads write it: rank (A 2-9 T J N Q K, the Knight N of the tarot packs) then suit (S H D
// C; s h d c for player 1's pack): "7H", "TD", "qs", "NH"; a trump of the tarot packs is its
// number then M (m for player 1's pack): "17M", "1m", the Excuse "0M".
import { t } from "./i18n.js";

const RED = new Set(["H", "D"]);

/** {rank, suit, red, trump} of a card text (a trump's rank is its number as text, its suit
 * "M"). */
export function parse(code) {
  const last = code.at(-1).toUpperCase(); // (player 1's pack writes its suits in lower case)
  if (last === "M") return { rank: code.slice(0, -1), suit: "M", red: false, trump: true };
  return { rank: code[0].toUpperCase(), suit: last, red: RED.has(last), trump: false };
}

/** The rank as printed on the card, in the chosen language ("7", "10", "Q" / "Д"). */
export function rankText(rank) {
  if (/^\d+$/.test(rank) && !/^[2-9]$/.test(rank)) return rank; // a trump's number (0, 1, 10..21)
  return t(`rank.short.${rank}`);
}

/** The suit's symbol. */
export function suitText(suit) {
  return t(`suit.symbol.${suit}`);
}

/** The short form of a card ("7♥", "Д♠"). */
export function short(code) {
  const { rank, suit } = parse(code);
  return t("card.short", { rank: rankText(rank), suit: suitText(suit) });
}

/** The card's full name, for screen readers ("seven of hearts", "дама пик"). */
export function name(code) {
  const { rank, suit, trump } = parse(code);
  if (trump) return rank === "0" ? t("card.name.excuse") : t("card.name.M", { number: Number(rank) });
  return t(`card.name.${suit}`, { rank: t(`rank.name.${rank}`) });
}

/** A card face or back as a DOM element (positioned by the table). */
export function element(code, owner) {
  const el = document.createElement("div");
  el.setAttribute("aria-hidden", "true");
  if (code === null) {
    el.className = `card back p${owner}`;
    return el;
  }
  const { rank, suit, red, trump } = parse(code);
  el.className = `card face ${trump ? "trump" : red ? "red" : "black"}`;
  el.dataset.card = code;
  if (trump) {
    // a trump: its number in the corners and large in the middle, under the trumps' star;
    // the Excuse (0): the star large
    const number = rank === "0" ? suitText(suit) : rank;
    const index = `${rank}<br>${suitText(suit)}`;
    el.innerHTML =
      `<span class="idx tl">${index}</span><span class="idx tr">${index}</span>` +
      `<span class="pip number">${number}</span>`;
    return el;
  }
  const index = `${rankText(rank)}<br>${suitText(suit)}`;
  el.innerHTML =
    `<span class="idx tl">${index}</span><span class="idx tr">${index}</span>` +
    `<span class="pip">${suitText(suit)}</span>`;
  return el;
}
