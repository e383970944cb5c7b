// Cards as the page shows and names them, in the chosen language. A card is written as the
// payloads write it: rank (A 2-9 T J Q K) then suit (S H D C; s h d c for player 1's pack):
// "7H", "TD", "qs".
import { t } from "./i18n.js";

const RED = new Set(["H", "D"]);

/** {rank, suit, red} of a card text. */
export function parse(code) {
  const suit = code[1].toUpperCase(); // (player 1's pack writes its suits in lower case)
  return { rank: code[0].toUpperCase(), suit, red: RED.has(suit) };
}

/** The rank as printed on the card, in the chosen language ("7", "10", "Q" / "Д"). */
export function rankText(rank) {
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
  const { rank, suit } = parse(code);
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
  const { rank, suit, red } = parse(code);
  el.className = `card face ${red ? "red" : "black"}`;
  el.dataset.card = code;
  const index = `${rankText(rank)}<br>${suitText(suit)}`;
  el.innerHTML =
    `<span class="idx tl">${index}</span><span class="idx tr">${index}</span>` +
    `<span class="pip">${suitText(suit)}</span>`;
  return el;
}
