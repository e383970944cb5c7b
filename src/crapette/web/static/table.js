// The card table, drawn from a payload's view in the DOM: every pile an element the player
// can focus and name, every visible card an absolutely placed element, so that cards can
// slide between piles (each move, the player's and the opponent's) and follow the pointer.
//
// Three layouts from the same piles, whichever gives the biggest cards in the room the page
// gives the board (the window less the header, the turn line, the message and the buttons,
// so that the board and every control fit the window without scrolling):
// - "wide" (a desktop window): the four rows of houses fanned outward from the two columns of
//   foundations, each player's reserve, waste, turned card and hand in a column at their side
//   of the table (the opponent's on the left, yours on the right), each pile's name and count
//   under it;
// - "rows" (a narrower window): the same houses, each player's piles in a row above (the
//   opponent's) and below (yours) them;
// - "tall" (a phone held upright): the rows, with cards at least 44 CSS px wide, fans kept
//   short, labels on their own lines.
// Pile names are those of the payloads: H1..H8, R0/R1, W0/W1, K0/K1 (hands), T (the turned
// card) and F (the foundations, one target: a move says only "to a foundation").
import * as cards from "./cards.js";
import { t } from "./i18n.js";

const TALL_BELOW = 640; // CSS px: narrower boards get the phone layout

/** The cards a pile shows, bottom to top: card texts, or null for a face-down card. */
export function pileCards(view, name) {
  const kind = name[0];
  if (name === "T") return view.turned ? [view.turned] : [];
  if (kind === "H") return view.houses[Number(name.slice(1)) - 1];
  if (kind === "F") return view.foundations[Number(name.slice(1)) - 1];
  const p = Number(name.slice(1));
  if (kind === "R") {
    const r = view.reserves[p];
    return [...(r.down ? [null] : []), ...r.up];
  }
  if (kind === "W") return view.wastes[p];
  if (kind === "K") return view.hands[p] ? [null] : [];
  return [];
}

/** How many cards a pile holds (the figure its label shows). */
export function pileSize(view, name) {
  const kind = name[0];
  const p = Number(name.slice(1));
  if (kind === "R") return view.reserves[p].down + view.reserves[p].up.length;
  if (kind === "K") return view.hands[p];
  if (kind === "W") return view.wastes[p].length;
  if (kind === "H") return view.houses[p - 1].length;
  return 0;
}

function houseOrder(me) {
  const opp = 1 - me;
  const left = [0, 1, 2, 3].map((i) => `H${4 * opp + 1 + i}`); // nearest the top reserve first
  const right = [0, 1, 2, 3].map((i) => `H${4 * me + 4 - i}`); // nearest my reserve last
  return { left, right };
}

/** The pile names in the keyboard's focus order: your own piles, the houses, the
 * foundations, then the opponent's piles you may load. */
export function focusOrder(me) {
  const opp = 1 - me;
  const { left, right } = houseOrder(me);
  return [`K${me}`, "T", `W${me}`, `R${me}`, ...right.slice().reverse(), ...left, "F", `R${opp}`, `W${opp}`];
}

/** The width of a card's rank index at card width `w` (CSS px): the index's font size is
 * clamp(12px, 0.27w, 22px) (style.css), and "10", the widest, takes 1.3em of it. */
export function indexWidth(w) {
  const font = Math.max(12, Math.min(22, w * 0.27));
  return Math.ceil(font * 1.3) + 3;
}

/** How far apart the cards of a fan of `kind` are at full spread: enough for the whole rank
 * index of the card below to show ("10", not "1"). */
export function fanStep(w, kind) {
  if (kind === "H") return Math.max(Math.round(w * 0.34), indexWidth(w));
  if (kind === "R") return Math.max(Math.round(w * 0.24), indexWidth(w));
  return 0;
}

const LABEL = 16; // one line: a pile's name and count (the wide layout)
const LABELS = 32; // two lines: the name, then the count (the other layouts)
const MAX_CARD = 150;

/** The card width of the "rows" layouts (the phone's and the narrower window's). */
function rowsWidth(width, height, tall) {
  if (tall) return Math.max(44, Math.min(60, Math.floor((width - 8 - 12) / 7.4)));
  // height = 2 pad + 2 labels + 6 rows of cards (h = 1.4 w) + 4 g + 3 row gaps (0.1 h):
  // 9.6 w + 64 with pad = g = 0.13 w
  return Math.floor(Math.max(48, Math.min(MAX_CARD, width / 9.8, (height - 2 * LABELS) / 9.6)));
}

/** The card width of the "wide" layout, or 0 where it does not fit. */
function wideWidth(width, height) {
  // across: 2 pad + 2 reserve fans (about 0.85 w: two cards' indexes) + 2 side columns + 2
  // gaps + 4 columns (houses and foundations) + 3 g + 2 house fans of at least 1.6 w each
  // (four cards' indexes): 11.8 w
  // down: 2 pad + the side column's 4 piles with their labels and 3 gaps of 4 px
  const w = Math.floor(Math.min(MAX_CARD, width / 11.8, (height - 4 * LABEL - 12) / 5.86));
  return w >= 52 ? w : 0;
}

/** The geometry of the table for a board `width` px wide and at most `height` px tall. */
export function layout(width, height, me, nf = 8) {
  const tall = width < TALL_BELOW;
  const rowsW = rowsWidth(width, height, tall);
  const wideW = tall ? 0 : wideWidth(width, height);
  return wideW > rowsW ? wideLayout(width, wideW, me, nf) : rowsLayout(width, rowsW, me, tall, nf);
}

/** The `nf` foundations (8, or 10 under the tarot packs) in two columns beside the houses'
 * four rows: with 10, five to a column in the same height, each overlapping the one above
 * by a fifth (its corner index and most of it still show). */
function placeFoundations(piles, nf, colA, colB, rowY) {
  const rows = Math.ceil(nf / 2);
  const pitch = (rowY(3) - rowY(0)) / Math.max(1, rows - 1);
  for (let i = 0; i < nf; i++) {
    const y = Math.round(rowY(0) + Math.floor(i / 2) * pitch);
    piles[`F${i + 1}`] = { x: i % 2 ? colB : colA, y, fan: 0 };
  }
}

function rowsLayout(width, w, me, tall, nf) {
  const g = tall ? 4 : Math.round(w * 0.13);
  const pad = tall ? 4 : g;
  const h = Math.round(w * 1.4);
  const label = LABELS;
  const cx = width / 2;
  const colA = Math.round(cx - g / 2 - w);
  const colB = Math.round(cx + g / 2);
  const leftBase = colA - g - w;
  const rightBase = colB + w + g;
  const fanRoom = Math.max(0, leftBase - pad); // room for a fan beside each column
  const rowGap = tall ? 6 : Math.round(h * 0.1);
  const top = pad + label;
  const housesTop = top + h + (tall ? 10 : 2 * g);
  const rowY = (i) => housesTop + i * (h + rowGap);
  const bottom = rowY(3) + h + (tall ? 10 : 2 * g);
  const opp = 1 - me;
  const { left, right } = houseOrder(me);
  const piles = {};
  left.forEach((name, i) => (piles[name] = { x: leftBase, y: rowY(i), fan: -1, room: fanRoom }));
  right.forEach((name, i) => (piles[name] = { x: rightBase, y: rowY(i), fan: 1, room: fanRoom }));
  placeFoundations(piles, nf, colA, colB, rowY);
  piles[`R${opp}`] = { x: leftBase, y: top, fan: -1, room: fanRoom, label: "above" };
  piles[`W${opp}`] = { x: colA, y: top, fan: 0, label: "above" };
  piles[`K${opp}`] = { x: rightBase, y: top, fan: 0, label: "above" };
  piles[`K${me}`] = { x: leftBase, y: bottom, fan: 0, label: "below" };
  piles[`W${me}`] = { x: colB, y: bottom, fan: 0, label: "below" };
  piles[`R${me}`] = { x: rightBase, y: bottom, fan: 1, room: fanRoom, label: "below" };
  const turned = { mine: { x: colA, y: bottom }, theirs: { x: colB, y: top } };
  return {
    kind: tall ? "tall" : "rows", tall, w, h, g, pad, width, piles, turned, labelHeight: label,
    height: bottom + h + label + pad,
    foundations: { x: colA, y: rowY(0), w: colB + w - colA, h: rowY(3) + h - rowY(0) },
  };
}

function wideLayout(width, w, me, nf) {
  const g = Math.round(w * 0.13);
  const pad = g;
  const h = Math.round(w * 1.4);
  const reserveFan = 2 * fanStep(w, "R") + 4; // room for two cards' indexes
  const cx = width / 2;
  const colA = Math.round(cx - g / 2 - w);
  const colB = Math.round(cx + g / 2);
  const leftBase = colA - g - w;
  const rightBase = colB + w + g;
  const oppColumn = pad + reserveFan;
  const myColumn = width - pad - reserveFan - w;
  const fanRoom = Math.max(0, leftBase - (oppColumn + w + g));
  const rowGap = Math.round(h * 0.1);
  const rowY = (i) => pad + i * (h + rowGap);
  const pitch = h + LABEL + 4; // a side pile, its label and a gap
  const sideY = (i) => pad + i * pitch;
  const opp = 1 - me;
  const { left, right } = houseOrder(me);
  const piles = {};
  left.forEach((name, i) => (piles[name] = { x: leftBase, y: rowY(i), fan: -1, room: fanRoom }));
  right.forEach((name, i) => (piles[name] = { x: rightBase, y: rowY(i), fan: 1, room: fanRoom }));
  placeFoundations(piles, nf, colA, colB, rowY);
  // the opponent's column, top down: reserve (beside the houses nearest it), waste, turned
  // card, hand; yours, top down: hand, turned card, waste, reserve (beside yours)
  piles[`R${opp}`] = { x: oppColumn, y: sideY(0), fan: -1, room: reserveFan, label: "under" };
  piles[`W${opp}`] = { x: oppColumn, y: sideY(1), fan: 0, label: "under" };
  piles[`K${opp}`] = { x: oppColumn, y: sideY(3), fan: 0, label: "under" };
  piles[`K${me}`] = { x: myColumn, y: sideY(0), fan: 0, label: "under" };
  piles[`W${me}`] = { x: myColumn, y: sideY(2), fan: 0, label: "under" };
  piles[`R${me}`] = { x: myColumn, y: sideY(3), fan: 1, room: reserveFan, label: "under" };
  const turned = { mine: { x: myColumn, y: sideY(1) }, theirs: { x: oppColumn, y: sideY(2) } };
  const sideBottom = sideY(3) + h + LABEL;
  return {
    kind: "wide", tall: false, w, h, g, pad, width, piles, turned, labelHeight: LABEL,
    height: Math.max(sideBottom, rowY(3) + h) + pad,
    foundations: { x: colA, y: rowY(0), w: colB + w - colA, h: rowY(3) + h - rowY(0) },
  };
}

/** Where each card of a pile lies: [{x, y}] bottom to top. */
function positions(geo, pile, count, kind) {
  const out = [];
  if (!count) return out;
  const fanned = (kind === "H" || kind === "R") && pile.fan;
  const room = Math.max(0, (pile.room || 0) - 4);
  let offset = fanned ? fanStep(geo.w, kind) : 0;
  if (count > 1 && offset * (count - 1) > room) offset = Math.max(2, Math.floor(room / (count - 1)));
  for (let i = 0; i < count; i++) {
    out.push({ x: pile.x + (fanned ? i * offset * pile.fan : 0), y: pile.y });
  }
  return out;
}

export class Table {
  constructor(board) {
    this.board = board;
    this.geo = null;
    this.view = null;
    this.seat = 0;
    this.rects = {}; // pile name -> {x, y, w, h} (board coordinates), hit areas
    this.cardEls = {}; // pile name -> [card elements] bottom to top
    this.pileEls = {};
  }

  /** The pile under a point of the board (board coordinates), or null; for a house, also
   * how many cards from the top the point picks: {pile, depth}. */
  hit(x, y) {
    let found = null;
    for (const [name, r] of Object.entries(this.rects)) {
      if (x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h) {
        found = name;
        if (name !== "F") break;
      }
    }
    if (!found) return null;
    let depth = 1;
    if (found[0] === "H") {
      const els = this.cardEls[found] || [];
      for (let i = els.length - 1; i >= 0; i--) {
        const p = els[i].pos;
        if (x >= p.x && x <= p.x + this.geo.w && y >= p.y && y <= p.y + this.geo.h) {
          depth = els.length - i;
          break;
        }
      }
    }
    return { pile: found, depth };
  }

  /** The height the board may take: the window's, less what is above the board and what
   * follows it in the table's column (the message line and the buttons, measured), so that
   * the board and every game control fit the window without scrolling. */
  room() {
    const box = this.board.getBoundingClientRect();
    const section = this.board.parentElement.getBoundingClientRect();
    const below = section.bottom - box.bottom; // (the board's own height is not in it)
    const top = box.top + window.scrollY;
    const margin = parseFloat(getComputedStyle(document.querySelector("main")).paddingBottom) || 0;
    return Math.max(240, window.innerHeight - top - below - margin - 2);
  }

  /** Board coordinates of a client point. */
  local(clientX, clientY) {
    const box = this.board.getBoundingClientRect();
    return { x: clientX - box.left, y: clientY - box.top };
  }

  /** Where the top `count` cards of `pile` lie now (client coordinates), for a slide. */
  snapshot(pile, count = 1) {
    const els = this.cardEls[pile] || [];
    const picked = els.slice(Math.max(0, els.length - count));
    if (picked.length) return picked.map((el) => el.getBoundingClientRect());
    const r = this.rects[pile];
    if (!r) return [];
    const box = this.board.getBoundingClientRect();
    return [{ left: box.left + r.x, top: box.top + r.y }];
  }

  /** Draw `payload`'s view (the seat's side at the bottom). */
  render(payload) {
    const view = payload.view;
    this.view = view;
    this.seat = payload.seat;
    const me = payload.seat;
    const width = this.board.clientWidth;
    const geo = layout(width, this.room(), me, view.foundations.length);
    this.geo = geo;
    const board = this.board;
    board.style.height = `${geo.height}px`;
    board.style.setProperty("--w", `${geo.w}px`);
    board.style.setProperty("--h", `${geo.h}px`);
    board.classList.toggle("tall", geo.tall);
    board.dataset.layout = geo.kind;
    for (const el of board.querySelectorAll(".card, .slot, .plabel")) el.remove();
    for (const el of board.querySelectorAll(".arrows")) el.remove();
    this.rects = {};
    this.cardEls = {};
    const turnPlayer = payload.turn_player;
    const turnedAt = turnPlayer === me ? geo.turned.mine : geo.turned.theirs;
    const all = { ...geo.piles, T: { ...turnedAt, fan: 0 } };
    let z = 1;
    for (const [name, pile] of Object.entries(all)) {
      const kind = name[0];
      const list = pileCards(view, name);
      const owner = kind === "K" || kind === "R" || kind === "W" ? Number(name[1]) : me;
      const slot = document.createElement("div");
      slot.className = `slot slot-${kind}`;
      place(slot, pile.x, pile.y);
      board.append(slot);
      const shown = kind === "W" || kind === "F" ? list.slice(-2) : list;
      const where = positions(geo, pile, shown.length, kind);
      const els = shown.map((code, i) => {
        const el = cards.element(code, owner);
        el.dataset.pile = name;
        el.pos = where[i];
        place(el, where[i].x, where[i].y);
        el.style.zIndex = String(z++);
        board.append(el);
        return el;
      });
      this.cardEls[name] = els;
      const xs = [pile.x, ...where.map((p) => p.x)];
      const x0 = Math.min(...xs);
      const x1 = Math.max(...xs) + geo.w;
      if (kind !== "F") this.rects[name] = { x: x0, y: pile.y, w: x1 - x0, h: geo.h };
      if (kind === "K" || kind === "R" || kind === "W") {
        const tag = document.createElement("div");
        tag.className = `plabel ${pile.label}`;
        tag.setAttribute("aria-hidden", "true");
        const mine = owner === me ? "mine" : "theirs";
        const size = pileSize(view, name);
        tag.innerHTML = `<span>${t(`pile.short.${kindName(kind)}`)}</span> <b>${t("pile.count", { count: size })}</b>`;
        tag.dataset.side = mine;
        tag.style.left = `${pile.x - geo.g / 2}px`;
        tag.style.width = `${geo.w + geo.g}px`;
        const below = pile.y + geo.h + 1;
        tag.style.top = pile.label === "above" ? `${pile.y - geo.labelHeight}px` : `${below}px`;
        board.append(tag);
      }
    }
    const f = geo.foundations;
    this.rects.F = { x: f.x, y: f.y, w: f.w, h: f.h };
    this.cardEls.F = [];
    for (let i = 1; i <= view.foundations.length; i++) this.cardEls.F.push(...this.cardEls[`F${i}`]);
    this.updatePiles(payload);
  }

  /** The focusable pile elements: placed over their piles, named in the chosen language. */
  updatePiles(payload) {
    const me = payload.seat;
    const order = focusOrder(me);
    const board = this.board;
    const wanted = new Set(order);
    for (const [name, el] of Object.entries(this.pileEls)) {
      if (!wanted.has(name)) {
        el.remove();
        delete this.pileEls[name];
      }
    }
    let previous = null;
    for (const name of order) {
      let el = this.pileEls[name];
      if (!el) {
        el = document.createElement("div");
        el.className = "pile";
        el.dataset.pile = name;
        el.tabIndex = 0;
        el.setAttribute("role", "button");
        this.pileEls[name] = el;
      }
      // keep the DOM order the focus order (without moving the focused element needlessly)
      const next = previous ? previous.nextElementSibling : board.firstElementChild;
      if (next !== el) board.insertBefore(el, previous ? previous.nextElementSibling : board.firstChild);
      previous = el;
      const rect = this.rects[name] || { x: 0, y: 0, w: 0, h: 0 };
      el.style.left = `${rect.x}px`;
      el.style.top = `${rect.y}px`;
      el.style.width = `${rect.w}px`;
      el.style.height = `${rect.h}px`;
      el.setAttribute("aria-label", this.describe(name, payload));
    }
  }

  /** A pile's accessible name: what it is, how many cards, the card on top. */
  describe(name, payload) {
    const view = payload.view;
    const me = payload.seat;
    const kind = name[0];
    if (name === "F") {
      const tops = view.foundations.filter((p) => p.length).map((p) => cards.name(p.at(-1)));
      return tops.length
        ? t("pile.foundations.some", { cards: tops.join(", ") })
        : t("pile.foundations.empty");
    }
    if (name === "T") {
      return view.turned ? t("pile.turned.card", { card: cards.name(view.turned) }) : t("pile.turned.none");
    }
    const list = pileCards(view, name);
    const top = list.length ? list.at(-1) : null;
    const size = pileSize(view, name);
    let base;
    if (kind === "H") base = t("pile.house", { number: Number(name.slice(1)) });
    else {
      const side = Number(name[1]) === me ? "mine" : "theirs";
      base = t(`pile.${kindName(kind)}.${side}`);
    }
    const parts = [base, t("pile.cards", { count: size })];
    if (top) parts.push(t("pile.top", { card: cards.name(top) }));
    else if (size && kind === "R") parts.push(t("pile.facedown"));
    return parts.join(", ");
  }

  /** Light piles: a Map pile name -> class list ("selected", "target", "hint", "best"). */
  mark(marks) {
    for (const [name, el] of Object.entries(this.pileEls)) {
      const classes = marks.get(name) || [];
      for (const c of ["selected", "target", "hint", "best"]) el.classList.toggle(c, classes.includes(c));
      if (classes.includes("selected")) el.setAttribute("aria-pressed", "true");
      else el.removeAttribute("aria-pressed");
    }
    for (const els of Object.values(this.cardEls)) {
      for (const el of els) el.classList.remove("picked");
    }
    for (const [name, classes] of marks) {
      const depth = classes.depth || 1;
      if (classes.includes("selected")) {
        for (const el of (this.cardEls[name] || []).slice(-depth)) el.classList.add("picked");
      }
    }
  }

  /** The middle of a pile's card that a move of `depth` cards picks (its top card; the
   * deepest card of a group), or of the pile's place when it is empty (board coordinates). */
  anchor(name, depth = 1) {
    const els = this.cardEls[name] || [];
    const g = this.geo;
    if (name !== "F" && els.length) {
      const p = els[Math.max(0, els.length - depth)].pos;
      return { x: p.x + g.w / 2, y: p.y + g.h / 2 };
    }
    const r = this.rects[name];
    return r ? { x: r.x + r.w / 2, y: r.y + r.h / 2 } : { x: 0, y: 0 };
  }

  /** Draw moves over the table as arrows: `steps` = [{from, to, count, label, kind}], kind
   * "best" (the best line, each step numbered by its label) or "played" (the move made);
   * a step with no `to` (turning a card) rings its pile. The next render clears them. */
  arrows(steps) {
    for (const el of this.board.querySelectorAll(".arrows")) el.remove();
    if (!steps.length || !this.geo) return;
    const NS = "http://www.w3.org/2000/svg";
    const node = (tag, attrs) => {
      const el = document.createElementNS(NS, tag);
      for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
      return el;
    };
    const width = this.board.clientWidth;
    const height = this.geo.height;
    const svg = node("svg", { class: "arrows", "aria-hidden": "true", width, height, viewBox: `0 0 ${width} ${height}` });
    const defs = node("defs", {});
    for (const kind of ["best", "played"]) {
      const marker = node("marker", {
        id: `arrowhead-${kind}`, viewBox: "0 0 10 10", refX: 7, refY: 5,
        markerWidth: 3.2, markerHeight: 3.2, orient: "auto",
      });
      marker.append(node("path", { d: "M0,0 L10,5 L0,10 z", class: `head-${kind}` }));
      defs.append(marker);
    }
    svg.append(defs);
    const stroke = Math.max(3, Math.round(this.geo.w * 0.07));
    const badge = Math.max(9, Math.round(this.geo.w * 0.16));
    for (const step of steps) {
      const group = node("g", { class: `arrow ${step.kind}`, "data-from": step.from, "data-to": step.to || "" });
      const a = this.anchor(step.from, step.count || 1);
      let at = a; // where the step's number goes: a little way along its arrow (arrows from one
      // pile, such as a reserve played card after card, keep their numbers apart)
      if (step.to && step.to !== step.from) {
        const b = this.anchor(step.to, 1);
        const length = Math.hypot(b.x - a.x, b.y - a.y) || 1;
        const cut = Math.min(length / 3, this.geo.w * 0.3); // the head stops short of the card's middle
        const end = { x: b.x - ((b.x - a.x) * cut) / length, y: b.y - ((b.y - a.y) * cut) / length };
        group.append(node("line", {
          x1: a.x, y1: a.y, x2: end.x, y2: end.y, "stroke-width": stroke,
          "marker-end": `url(#arrowhead-${step.kind})`,
        }));
        const along = Math.min(0.35, (this.geo.w * 0.9) / length);
        at = { x: a.x + (b.x - a.x) * along, y: a.y + (b.y - a.y) * along };
      } else {
        group.append(node("circle", { cx: a.x, cy: a.y, r: this.geo.w * 0.42, "stroke-width": stroke, fill: "none" }));
      }
      if (step.label) {
        group.append(node("circle", { class: "badge", cx: at.x, cy: at.y, r: badge }));
        const text = node("text", { x: at.x, y: at.y, "font-size": Math.round(badge * 1.3), "text-anchor": "middle", "dominant-baseline": "central" });
        text.textContent = step.label;
        group.append(text);
      }
      svg.append(group);
    }
    this.board.append(svg);
  }

  /** Slide the top `count` cards of `to` in from `from` (client rects of where they were),
   * over `duration` ms; resolves when done. For the foundations, the card `card` is found
   * on whichever foundation took it. */
  async slide(to, fromRects, { duration, count = 1, card = null }) {
    if (!duration || !fromRects || !fromRects.length) return;
    let els;
    if (to === "F") {
      els = card ? this.cardEls.F.filter((el) => el.dataset.card === card).slice(-1) : [];
    } else {
      els = (this.cardEls[to] || []).slice(-count);
    }
    const runs = els.map((el, i) => {
      const from = fromRects[Math.min(i, fromRects.length - 1)];
      const now = el.getBoundingClientRect();
      const dx = from.left - now.left;
      const dy = from.top - now.top;
      if (!dx && !dy) return null;
      el.classList.add("moving");
      const run = el.animate(
        [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "translate(0, 0)" }],
        { duration, easing: "cubic-bezier(.2,.7,.3,1)" },
      );
      return run.finished.catch(() => {}).then(() => el.classList.remove("moving"));
    });
    await Promise.all(runs.filter(Boolean));
  }
}

function kindName(kind) {
  return { R: "reserve", W: "waste", K: "hand", H: "house", T: "turned" }[kind];
}

function place(el, x, y) {
  el.style.left = `${x}px`;
  el.style.top = `${y}px`;
}
