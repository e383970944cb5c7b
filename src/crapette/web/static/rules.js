// The rules summary and the first-deal guide, built from the catalogue for the options of
// the game (or of the preset chosen in the form): the building rules, the priorities of
// those rules, the scoring. The texts follow docs/rules.md.
import { current, has, t } from "./i18n.js";
import { OPTIONS } from "./spec.js";
import { matchWords } from "./words.js";

/** The guide's steps, in order (catalogue keys). */
export const GUIDE_STEPS = [
  "guide.step.piles",
  "guide.step.move",
  "guide.step.foundations",
  "guide.step.houses",
  "guide.step.hand",
  "guide.step.load",
  "guide.step.win",
  "guide.step.hint",
];

/** The guide's steps in the words of these rules (every option's value; none: the
 * standard pack, the usual priorities and the discard turn): ten foundations with a pack of
 * trumps, the Knight and the trumps on the foundations, Bobcrapette's two compulsory moves,
 * the flip that ends a turn under `turn_end=flip`, loading by colour. */
export function guideSteps(options = {}) {
  const pack = options.pack || "standard";
  const ten = FOUNDATIONS[pack] === 10;
  const steps = [];
  for (const key of GUIDE_STEPS) {
    if (key === "guide.step.piles" && ten) {
      steps.push("guide.step.piles.ten");
    } else if (key === "guide.step.foundations" && (pack !== "standard" || options.priority === "bobcrapette")) {
      const family = pack === "standard" ? "standard" : ten ? "trumps" : "knight";
      steps.push(`guide.step.foundations.${family}`);
      steps.push(options.priority === "bobcrapette" ? "guide.step.compulsory.bobcrapette" : "guide.step.compulsory");
    } else if (key === "guide.step.hand" && options.turn_end === "flip") {
      steps.push("guide.step.hand.flip");
    } else if (key === "guide.step.load" && options.load_match === "colour") {
      steps.push("guide.step.load.colour");
    } else {
      steps.push(key);
    }
  }
  return steps;
}

/** Each pack's size and foundations (RULES.md, "Packs and table rules"). */
const PACK_SIZE = { standard: 52, tarot56: 56, tarot77: 77, tarot78: 78 };
const FOUNDATIONS = { standard: 8, tarot56: 8, tarot77: 10, tarot78: 10 };

function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  if (className) node.className = className;
  return node;
}

function section(title, ...paragraphs) {
  const part = el("section");
  part.append(el("h3", title));
  for (const item of paragraphs) {
    if (Array.isArray(item)) {
      const list = el(item.ordered ? "ol" : "ul");
      for (const line of item) if (line) list.append(el("li", line));
      part.append(list);
    } else if (item) {
      part.append(el("p", item));
    }
  }
  return part;
}

function ordered(items) {
  const list = items.filter(Boolean);
  list.ordered = true;
  return list;
}

/** The rules summary for `options` (every option's value) and `presetTitle` (in words),
 * as DOM sections; `match` {target, deals} is the game's match format. */
export function rulesSections(options, presetTitle, match) {
  const worded = new Set(); // the options the sections below read, and so word
  const o = new Proxy(options, {
    get(target, name) {
      worded.add(name);
      return target[name];
    },
  });
  const reserve = o.reserve_size;
  const pack = o.pack || "standard";
  const flip = o.turn_end === "flip";
  const waste = o.own_waste_playable; // (under flip, the flip sentence says it is playable)
  const atStart = o.call_window === "turn_start" && o.stop !== "enforced";
  const parts = [];
  parts.push(el("p", t("rules.intro", { preset: presetTitle }), "lead"));
  parts.push(
    section(
      t("rules.h.table"),
      pack === "standard" ? t("rules.table.packs") : t(`rules.table.packs.${pack}`),
      o.reserve_face_up
        ? t("rules.table.reserve", { count: reserve, down: reserve - 1 })
        : t("rules.table.reserve.down", { count: reserve }),
      t("rules.table.houses"),
      t("rules.table.hand", { count: PACK_SIZE[pack] - reserve - 4 }),
      FOUNDATIONS[pack] === 10 ? t("rules.table.foundations.trumps") : t("rules.table.foundations"),
      o.first_player === "cut" ? t("rules.start.cut") : t("rules.start.reserve"),
    ),
  );
  parts.push(
    section(
      t("rules.h.available"),
      flip ? t("rules.available.flip") : t("rules.available"),
      flip ? null : waste ? t("rules.available.waste.yes") : t("rules.available.waste.no"),
      o.reserve_face_up ? null : t("rules.available.reveal"),
    ),
  );
  parts.push(
    section(
      t("rules.h.building"),
      [
        t("rules.build.foundation"),
        t("rules.build.house"),
        o.load_match === "colour" ? t("rules.build.load.colour") : t("rules.build.load"),
        o.load_wrap ? t("rules.build.load.wrap") : t("rules.build.load.nowrap"),
        o.load_from === "own" ? t("rules.build.load.own") : t("rules.build.load.any"),
        t(`rules.groups.${o.group_moves}`),
        t("rules.build.never"),
      ],
    ),
  );
  parts.push(
    section(
      t("rules.h.turn"),
      flip
        ? ordered([t("rules.turn.flip.moves"), t("rules.turn.flip.end")])
        : ordered([t("rules.turn.compulsory"), t("rules.turn.draw"), t("rules.turn.discard")]),
      flip ? t("rules.turn.flip.empty") : t("rules.turn.empty"),
      flip ? null : t("rules.turn.end"),
      t("rules.turn.cycles"),
    ),
  );
  const priorities = [];
  if (o.priority === "bobcrapette") {
    priorities.push(t("rules.priority.bobcrapette"));
  } else if (o.priority === "serbian") {
    priorities.push(t("rules.priority.serbian.foundation"), t("rules.priority.serbian.order"));
  } else {
    priorities.push(t("rules.priority.reserve"), t("rules.priority.foundation"));
  }
  priorities.push(t(`rules.filling.${o.house_filling}`));
  parts.push(
    section(
      t("rules.h.priority", { preset: presetTitle }),
      ordered(priorities),
      atStart ? t("rules.call.turn_start") : t(`rules.stop.${o.stop}`),
      atStart ? t(`rules.call.penalty.${o.stop}`) : null,
      atStart ? t(`rules.false.${o.false_call}`) : null,
    ),
  );
  parts.push(
    section(
      t("rules.h.scoring"),
      t("rules.score.win", { bonus: o.win_bonus, reserve: o.reserve_points, hand: o.hand_points }),
      o.blocked === "draw"
        ? t("rules.score.blocked.draw")
        : t("rules.score.stalemate", { reserve: o.reserve_points, hand: o.hand_points }),
      t("rules.score.cap"),
    ),
  );
  const more = moreRules(options, worded);
  if (more.length) parts.push(section(t("rules.h.more"), more));
  const matchText = [matchWords(match)];
  if (match.target !== null) matchText.push(t("rules.match.target", { target: match.target }));
  if (match.deals !== null && match.deals > 1) matchText.push(t("rules.match.deals", { count: match.deals }));
  parts.push(section(t("rules.h.match"), ...matchText));
  return parts;
}

/** The lines of "More rules": for every option of the spec (crapette._spec, through the
 * generated spec.js) that the sections did not word (`worded`: the names they read; the
 * match's options are the match section's) and whose value is not its default, the
 * catalogue's sentence `rules.<name>.<value>` when it has one, else the value's own words
 * (`option.<name>.<value>`, or `option.<name>` with the number), which every catalogue has.
 * A new rule option needs no code here (docs/architecture.md, "Adding a rule option"). */
export function moreRules(options, worded = new Set()) {
  const lines = [];
  for (const option of OPTIONS) {
    const value = options[option.name];
    if (worded.has(option.name) || option.kind === "count") continue;
    if (value === undefined || value === option.default) continue;
    const sentence = `rules.${option.name}.${value}`;
    if (has(sentence)) {
      lines.push(t(sentence));
    } else {
      const words = option.kind === "int" ? t(`option.${option.name}`, { value }) : t(`option.${option.name}.${value}`);
      lines.push(words.charAt(0).toLocaleUpperCase(current()) + words.slice(1) + ".");
    }
  }
  return lines;
}

/** The first-deal guide as a list of steps. */
export function guideItems(options) {
  return guideSteps(options).map((key) => el("li", t(key)));
}

/** The whole rules dialog body: the guide, then the rules. */
export function rulesBody(options, presetTitle, match) {
  const body = document.createDocumentFragment();
  const guide = el("section");
  guide.append(el("h3", t("guide.title")));
  const list = el("ol");
  list.append(...guideItems(options));
  guide.append(list);
  body.append(guide, ...rulesSections(options, presetTitle, match));
  return body;
}
