"""Write the shared test vectors of the JavaScript package (js/vectors/*.json) with the
Python library's public API.

    python js/vectors/gen_vectors.py            # write the vectors beside this file
    python js/vectors/gen_vectors.py --out DIR  # write them into DIR

The JavaScript package's tests (``node --test`` in ``js/``) check every vector, and
``tests/test_javascript.py`` regenerates them and compares with the committed files, so a
change of the Python library's behaviour (or of this generator) shows up as a drift in CI.
The output is the same on both Python engines and every Python version: seeded, no
clock, no hash order. Errors are pinned by what both libraries share: the error's class,
the character position of a notation error (``at``), the reason code and parameters of an
illegal move; the only message pinned is the English of a refusal, which both render from
the rule spec's template (the JavaScript package's other messages are its own).

Files:

* ``tables.json``: the move table, the card texts, the behaviour and JSON versions.
* ``rules.json``: every preset and random rulesets (canonical string, JSON document), rules
  strings that parse (to their canonical form) and that do not (to the error's class).
* ``deals.json``: deals from seeds (the position of ``new_game(rules, seed)``), seeds of
  every size and sign, and deals from explicit pack orders.
* ``games.json``: whole deals played move by move over every preset and random rulesets
  (greedy, random and an explorer that seeks Stop! decisions, group moves and the no-cycle
  rule): at every move the legal moves and the move played; at checkpoints the position,
  the outcome, both players' views, the public positions, the JSON document, the greedy
  bot's choice and scores, the refusals of illegal moves (reason code, parameters and the
  English of the spec's template) and how move texts parse.
* ``errors.json``: positions and JSON documents that do not parse, with the error's class
  and character position.
* ``batch.json``: deals played to their end by the random and greedy bots of given seeds
  (outcome and every move), for the JavaScript batch entry point and bots.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from pathlib import Path
from typing import Any

import crapette
from crapette import (
    ALL_CARDS,
    PRESETS,
    CrapetteError,
    GameState,
    IllegalMoveError,
    InvalidRulesError,
    Move,
    NotationError,
    Ruleset,
    apply,
    format_position,
    from_json,
    legal_moves,
    new_game,
    observe,
    outcome,
    parse_move,
    parse_position,
    to_json,
)
from crapette._tables import PACK_TABLES
from crapette.bots import GreedyBot, RandomBot, play_deal
from crapette.bots.greedy import ranked_scores
from crapette.cards import PACKS
from crapette.deal import Rng, shuffled
from crapette.moves import ALL_MOVES, action_count
from crapette.notation import format_public_position
from crapette.serialize import JSON_VERSION, format_version
from crapette.testing import option_samples

HERE = Path(__file__).resolve().parent
FILES = ("tables", "rules", "deals", "games", "errors", "batch")


# --------------------------------------------------------------------------------------
# helpers


def error_of(call: Any) -> dict[str, Any] | None:
    """The library error a call raises, or None: its class name; for a notation error its
    character position (``at``, when it has one); for an illegal move refused by the rules its
    reason code, parameters and message (the spec's English, the same in both libraries)."""
    try:
        call()
    except CrapetteError as exc:
        out: dict[str, Any] = {"error": type(exc).__name__}
        if isinstance(exc, NotationError) and exc.position is not None:
            out["at"] = exc.position
        if isinstance(exc, IllegalMoveError):
            out["code"] = exc.code
            if exc.code is not None:
                out["params"] = plain_params(exc.params)
                out["message"] = str(exc)
        return out
    return None


def plain_params(params: Any) -> dict[str, Any]:
    """A refusal's parameters as JSON (a ``cards`` parameter as a list)."""
    return {k: list(v) if isinstance(v, tuple) else v for k, v in params.items()}


def outcome_dict(state: GameState) -> dict[str, Any] | None:
    o = outcome(state)
    if o is None:
        return None
    return {"winner": o.winner, "scores": list(o.scores), "reason": o.reason}


def table(rules: Ruleset) -> tuple[Move, ...]:
    """The moves of the table a ruleset can make (a prefix of ``ALL_MOVES``: the first 791
    for the standard pack with discards), so that the vectors of today's rulesets do not
    change with the moves only tarot packs and flips make."""
    return ALL_MOVES[: action_count(PACK_TABLES[rules.pack].most, rules.turn_end == "flip")]


# The values that the tarot packs and the table rules (issue 31) added to options that
# existed before them, and the largest reserve of the standard pack: the random rulesets of
# today's options are drawn without them, as they were, so that their vectors stay the same;
# the rulesets of the new options are drawn apart (``random_rules(rng, new=True)``).
NEW_VALUES: dict[str, tuple[object, ...]] = {"priority": ("bobcrapette",), "stop": ("lose_draw",)}
STANDARD_RESERVE = 48


def old_samples() -> dict[str, tuple[object, ...]]:
    """``option_samples`` as it was before the tarot packs and table rules: the options of
    JSON version 2, without the values they added."""
    since = {o.name: o.since for o in crapette._spec.OPTIONS}
    out: dict[str, tuple[object, ...]] = {}
    for name, values in option_samples().items():
        if since[name] > 2:
            continue
        kept = tuple(v for v in values if v not in NEW_VALUES.get(name, ()))
        if name == "reserve_size":
            kept = tuple(sorted({min(v, STANDARD_RESERVE) for v in kept}))  # type: ignore[type-var]
        out[name] = kept
    return out


OLD_PRESETS = tuple(name for name, r in PRESETS.items() if format_version(r) == 2)
NEW_PRESETS = tuple(name for name in PRESETS if name not in OLD_PRESETS)


def random_rules(rng: Rng, new: bool = False) -> Ruleset:
    """A random ruleset: a preset, then each option, one time in two, drawn from the values
    worth trying (``crapette.testing.option_samples``, from the rule spec), in field order; a
    value that cannot go with those drawn before it is skipped. Without ``new``, the presets
    and values of today's rules only (``old_samples``); with it, any preset and value."""
    presets = tuple(PRESETS) if new else OLD_PRESETS
    rules = Ruleset.preset(presets[rng.below(len(presets))])
    for name, values in (option_samples() if new else old_samples()).items():
        if rng.below(2):
            with contextlib.suppress(InvalidRulesError):
                rules = rules.replace(**{name: values[rng.below(len(values))]})
    return rules


# Rulesets that put each new option to work in the games (flips, calls at turn start, false
# calls of every kind, lost draws, the sterile ban, blocked deals as draws, every pack).
FEATURE_RULES = (
    "bobcrapette(false_call=none)",
    "bobcrapette(false_call=rationed, pack=tarot78)",
    "bobcrapette(stop=card, pack=standard)",
    "tarot(pack=tarot56, turn_end=flip, own_waste_playable=true, sterile_moves=forbidden,"
    " blocked=draw)",
    "tarot(pack=tarot78, load_match=colour, load_wrap=true, group_moves=whole)",
    "pagat(turn_end=flip, own_waste_playable=true, stop=lose_draw, call_window=turn_start,"
    " false_call=rationed, move_cap=300)",
    "classic(turn_end=flip, own_waste_playable=true, priority=bobcrapette, blocked=draw,"
    " move_cap=250)",
)


def rulesets() -> list[Ruleset]:
    """The rulesets of the games: today's presets and 20 random rulesets of today's options
    (their vectors as before the tarot packs), then the new presets, the rulesets of
    ``FEATURE_RULES`` and 12 random rulesets of every option."""
    rng = Rng(2024)
    old = [PRESETS[name] for name in OLD_PRESETS] + [random_rules(rng) for _ in range(20)]
    rng = Rng(3031)
    new = [PRESETS[name] for name in NEW_PRESETS] + [Ruleset.from_string(t) for t in FEATURE_RULES]
    return old + new + [random_rules(rng, new=True) for _ in range(12)]


# --------------------------------------------------------------------------------------
# tables, rules, deals


def gen_tables() -> dict[str, Any]:
    generators = []
    for seed in (0, 1, 42, 2**64 - 1, -7, 10**30):
        rng = Rng(seed)
        words = [str(rng.next64()) for _ in range(5)]
        below = [[n, rng.below(n)] for n in (1, 2, 3, 7, 52, 1000, 2**40 + 3)]
        generators.append(
            {"seed": str(seed), "next64": words, "below": below, "random": rng.random()}
        )
    return {
        "moves": [str(m) for m in ALL_MOVES],
        "cards": [c.text for c in ALL_CARDS],
        "behaviour": crapette.BEHAVIOUR_VERSION,
        "json_version": JSON_VERSION,
        "rng": generators,
    }


BAD_RULES = [
    "",
    "   ",
    "chess",
    "Classic",
    "classic(",
    "classic)",
    "classic()",
    "classic( )",
    "classic(reserve_size)",
    "classic(reserve_size=)",
    "classic(reserve_size=0)",
    "classic(reserve_size=49)",
    "classic(reserve_size=-3)",
    "classic(reserve_size=-0012)",
    "classic(reserve_size=12.5)",
    "classic(reserve_size=1000000000000)",
    "classic(reserve_size=0000000000012)",
    "classic(reserve_size=12, reserve_size=13)",
    "classic(reserve_face_up=yes)",
    "classic(reserve_face_up=True)",
    "classic(first_player=dealer)",
    "classic(move_cap=0)",
    "classic(move_cap=1000000001)",
    "classic(win_bonus=-1)",
    "classic(match_target=none)",
    "classic(match_target=none, match_deals=none)",
    "classic(match_deals=0)",
    "classic(colour=red)",
    "classic(stop=enforced,)",
    "classic(,)",
    "classic(stop=enforced)(x)",
    "serbian(stop=undo",
    "serbian (stop=undo) trailing",
    "classic(priority=pagat, priority=serbian)",
    "pagat(house_filling=sometimes)",
    "classic(ü=1)",
    "classic(stop=\u00e9)",
    "classic(stop=\U0001f600)",
    "classic(stop=\x00)",
    "classic(stop='undo')",
    "classic(stop=a\\b)",
    'classic(stop="it\'s")',
    "classic(" + "x" * 80 + "=1)",
    "classic(move_cap=" + "9" * 13 + ")",
    "classic(move_cap=" + "1" * 12 + ")",
    "a" * 1001,
    "classic(" + ", ".join(["stop=undo"] * 120) + ")",
]

GOOD_RULES = [
    "classic",
    "  classic  ",
    "\tserbian\t",
    "classic()",
    "classic(stop=undo)",
    "classic( stop = undo , priority=serbian )",
    "serbian(house_filling=immediate)",
    "pagat(stop=enforced)",
    "g4a(match_target=300)",
    "belarusian(group_moves=supermove, house_filling=before_hand)",
    "classic(reserve_size=012)",
    "classic(win_bonus=-0)",
    "classic(match_target=none, match_deals=3)",
    "serbian(reserve_size=13, reserve_face_up=true, first_player=reserve, own_waste_playable=false,"
    " load_from=any, group_moves=supermove, house_filling=before_hand, priority=pagat,"
    " stop=enforced, match_target=300, match_deals=none)",
]


# rules strings of the tarot packs and table rules (after today's, whose vectors stay)
NEW_RULES = [
    "tarot",
    "bobcrapette",
    "classic(pack=tarot78, reserve_size=74)",
    "tarot(reserve_size=74)",
    "classic(pack=tarot56, reserve_size=53)",
    "classic(reserve_size=49)",
    "bobcrapette(pack=standard)",
    "bobcrapette(turn_end=discard)",
    "classic(stop=lose_draw)",
    "classic(turn_end=flip)",
    "classic(turn_end=flip, own_waste_playable=true)",
    "pagat(call_window=turn_start, false_call=rationed)",
    "classic(stop=enforced, call_window=turn_start)",
    "classic(pack=tarot79)",
    "classic(load_match=color)",
    "bobcrapette(priority=bobcrapette, sterile_moves=allowed, blocked=scored)",
]


def gen_rules() -> dict[str, Any]:
    presets = {name: {"string": str(r), "json": to_json(r)} for name, r in PRESETS.items()}
    rng = Rng(7)
    random_sets = []
    for _ in range(60):
        r = random_rules(rng)
        text = str(r)
        random_sets.append({"string": text, "json": to_json(r), "json2": to_json(r, indent=2)})
    rng = Rng(3107)
    for _ in range(40):
        r = random_rules(rng, new=True)
        text = str(r)
        random_sets.append({"string": text, "json": to_json(r), "json2": to_json(r, indent=2)})
    strings = []
    for text in GOOD_RULES + BAD_RULES + NEW_RULES:
        err = error_of(lambda text=text: Ruleset.from_string(text))
        if err is None:
            strings.append({"text": text, "canonical": str(Ruleset.from_string(text))})
        else:
            strings.append({"text": text, **err})
    return {"presets": presets, "random": random_sets, "strings": strings}


SEEDS = [
    0,
    1,
    2,
    42,
    1234567,
    2**31 - 1,
    2**32,
    2**53 - 1,
    2**53,
    2**53 + 1,
    2**63 - 1,
    2**63,
    2**64 - 1,
    2**64,
    2**64 + 7,
    -1,
    -(2**63),
    10**30 + 17,
    -(10**25) - 3,
]


def gen_deals() -> dict[str, Any]:
    seeded = []
    for r in rulesets():
        for seed in SEEDS[:6]:
            seeded.append(
                {
                    "rules": str(r),
                    "seed": str(seed),
                    "position": format_position(new_game(r, seed=seed)),
                }
            )
    for seed in SEEDS:
        seeded.append(
            {
                "rules": "classic",
                "seed": str(seed),
                "position": format_position(new_game("classic", seed=seed)),
            }
        )
    rng = Rng(99)
    packs = []
    for r in [*list(PRESETS.values())[:3], Ruleset().replace(first_player="cut")]:
        for starter in (None, 0, 1):
            pack0 = list(shuffled(ALL_CARDS[:52], rng))
            pack1 = list(shuffled(ALL_CARDS[52:], rng))
            state = crapette.deal(r, pack0, pack1, starter=starter)
            packs.append(
                {
                    "rules": str(r),
                    "pack0": [c.text for c in pack0],
                    "pack1": [c.text for c in pack1],
                    "starter": starter,
                    "position": format_position(state),
                }
            )
    # deals whose first-player rule is decided by ties (houses outward, cut by pack bottoms)
    full0, full1 = list(ALL_CARDS[:52]), list(ALL_CARDS[52:])
    for r in (
        Ruleset(),
        Ruleset().replace(first_player="reserve_first_house"),
        Ruleset().replace(first_player="cut"),
    ):
        state = crapette.deal(r, full0, full1)
        packs.append(
            {
                "rules": str(r),
                "pack0": [c.text for c in full0],
                "pack1": [c.text for c in full1],
                "starter": None,
                "position": format_position(state),
            }
        )
    # deals of the tarot packs (the Knight, the trumps, the Excuse) from explicit orders
    rng = Rng(131)
    for text in ("tarot(pack=tarot56)", "tarot", "tarot(pack=tarot78)", "bobcrapette"):
        r = Ruleset.from_string(text)
        deck = PACKS[r.pack]
        for starter in (None, 0, 1):
            order0 = list(shuffled(deck.player_cards(0), rng))
            order1 = list(shuffled(deck.player_cards(1), rng))
            state = crapette.deal(r, order0, order1, starter=starter)
            packs.append(
                {
                    "rules": str(r),
                    "pack0": [c.text for c in order0],
                    "pack1": [c.text for c in order1],
                    "starter": starter,
                    "position": format_position(state),
                }
            )
    bad_packs = []
    cases: list[tuple[list[Any], list[Any], Any]] = [
        (full0[:51], full1, None),
        ([*full0[:51], full0[0]], full1, None),
        ([*full0[:51], full1[0]], full1, None),
        (full0, [*full1[1:], "As"], None),
        ([*full0[:50], "ZZ", full0[51]], full1, None),
        ([*full0[:50], 200, full0[51]], full1, None),
        (full0, full1, 2),
        ([*full0[:51], "10s"], full1, None),
        ([*full0[:50], "Ks", "Qs"], full1, None),
    ]
    for p0, p1, starter in cases:
        err = error_of(
            lambda p0=p0, p1=p1, starter=starter: crapette.deal(None, p0, p1, starter=starter)
        )
        entry = {
            "pack0": [c.text if isinstance(c, crapette.Card) else c for c in p0],
            "pack1": [c.text if isinstance(c, crapette.Card) else c for c in p1],
            "starter": starter,
        }
        if err is None:
            entry["position"] = format_position(crapette.deal(None, p0, p1, starter=starter))
        else:
            entry.update(err)
        bad_packs.append(entry)
    return {"seeded": seeded, "packs": packs, "bad_packs": bad_packs}


# --------------------------------------------------------------------------------------
# games


class Explorer:
    """A player that seeks the rare paths: priority violations (Stop! decisions), calls
    and passes, group moves and house shuffles (the no-cycle rule), otherwise random."""

    def __init__(self, seed: int) -> None:
        self.rng = Rng(seed)

    def choose(self, state: GameState, moves: tuple[Move, ...]) -> Move:
        if self.rng.below(3) == 0:
            return moves[self.rng.below(len(moves))]
        groups = [m for m in moves if m.is_play and m.count > 1]
        shuffles = [m for m in moves if m.is_play and m.source < 8 and m.target < 8]
        risky = [m for m in moves if crapette.why_illegal(state, m) is None and _violates(state, m)]
        for pool in (risky, groups, shuffles):
            if pool and self.rng.below(2) == 0:
                return pool[self.rng.below(len(pool))]
        return moves[self.rng.below(len(moves))]


def _violates(state: GameState, move: Move) -> bool:
    if state.rules.stop == "enforced" or state.stop is not None:
        return False
    after = crapette.apply_unchecked(state, move)
    return after.stop is not None


FIXED_TEXTS = [
    "",
    "  ",
    "draw",
    "DRAW",
    "Discard",
    "end",
    "reveal",
    "stop",
    "pass",
    "jump",
    "R",
    "RF",
    "R-",
    "R-X",
    "R-H9",
    "R-Fx",
    "R-Fx0",
    "R-Fx14",
    "H1-H2x",
    "H1-H2x13",
    "H1-H2y2",
    "7H",
    "7X-F",
    "10h-F",
    "Zz-F",
    "R0-R0",
    "W1-W0",
    "R1-F",
    "W0-H1",
    "H3-H3",
    "T-T",
    "R-F-F",
    "R\u00a0-F",
    "R-F\u00e9",
    "T-OWx2",
    "R-ORx3",
    "A?-F",
    "??",
]


def move_texts(
    state: GameState, moves: tuple[Move, ...], rng: Rng, fixed: bool = False
) -> list[dict[str, Any]]:
    """How move texts parse in this position: the legal moves written in other forms
    (their card, absolute piles, lower case, white space) and some texts that do not."""
    p = state.to_act
    texts: list[str] = []
    for m in moves[:6]:
        text = str(m)
        texts.append(text)
        texts.append(" " + text.lower() + "\t")
        if m.is_play:
            texts.append(
                text.replace("R-", f"R{p}-").replace("W-", f"W{p}-").replace("OR", f"R{1 - p}")
            )
            card = None
            if m.source < 8:
                card = state.houses[m.source][-m.count]
            elif m.source == crapette.RESERVE:
                card = state.reserves[p][-1]
            elif m.source == crapette.HAND:
                card = state.turned
            if card is not None:
                texts.append(card.text + text[text.index("-") :])
    for source in ("R", "T", "W", "H1", "H5"):
        for target in ("F", "H2", "H8", "OR", "OW", "R0", "W1"):
            if rng.below(4) == 0:
                texts.append(f"{source}-{target}")
    houses = state.houses
    for h, pile in enumerate(houses):
        if pile and rng.below(2) == 0:
            texts.append(f"{pile[-1].text}-F")
            texts.append(f"{pile[0].text}-H{(h + 2) % 8 + 1}")
            if len(pile) > 1:
                texts.append(f"H{h + 1}-H{(h + 3) % 8 + 1}x{len(pile)}")
                texts.append(f"{pile[0].text}-H{(h + 1) % 8 + 1}x{len(pile) - 1}")
                texts.append(f"{pile[0].text}-F")
    if len(texts) > 16:
        texts = [texts[i] for i in sorted({rng.below(len(texts)) for _ in range(16)})]
    if fixed:
        texts += FIXED_TEXTS
    out = []
    seen: set[str] = set()
    for text in texts:
        if text in seen:
            continue
        seen.add(text)
        err = error_of(lambda text=text: parse_move(state, text))
        if err is not None:
            out.append({"text": text, **err})
        else:
            out.append({"text": text, "move": parse_move(state, text).index})
    return out


def refusals(
    state: GameState, legal: tuple[Move, ...], rng: Rng, seen_reasons: set[str]
) -> list[dict[str, Any]]:
    """Illegal moves with the refusal of the checked apply (its reason code, parameters and
    message): one move of each reason (the reasons new to the generator first), at most 14;
    a move refused by the no-cycle rule with the position ``apply_unchecked`` gives."""
    legal_set = set(legal)
    by_reason: dict[str, list[Move]] = {}
    for m in table(state.rules):
        if m in legal_set:
            continue
        reason = crapette.why_illegal(state, m)
        assert reason is not None
        key = "".join(ch for ch in reason if not ch.isdigit())[:40]
        by_reason.setdefault(key, []).append(m)
    fresh = [k for k in by_reason if k not in seen_reasons]
    old = [k for k in by_reason if k in seen_reasons]
    chosen = (
        fresh + [old[i] for i in sorted({rng.below(len(old)) for _ in range(3)})] if old else fresh
    )
    out = []
    for key in chosen[:14]:
        seen_reasons.add(key)
        moves = by_reason[key]
        m = moves[rng.below(len(moves))]
        err = error_of(lambda m=m: apply(state, m))
        assert err is not None and err["code"] is not None
        entry = {"move": m.index, **{k: err[k] for k in ("code", "params", "message")}}
        if err["code"] == "cycle":
            entry["unchecked"] = format_position(crapette.apply_unchecked(state, m))
        out.append(entry)
    return out


def all_reasons(state: GameState) -> list[dict[str, Any]]:
    """The refusal of every move of the table (``crapette.refusal``), grouped: its code,
    parameters and English (all ``None`` for the legal moves) and the moves."""
    groups: dict[str, dict[str, Any]] = {}
    for m in table(state.rules):
        found = crapette.refusal(state, m)
        entry = (
            {"code": None, "params": None, "reason": None}
            if found is None
            else {"code": found.code, "params": plain_params(found.params), "reason": str(found)}
        )
        key = json.dumps(entry, sort_keys=True)
        groups.setdefault(key, {**entry, "moves": []})["moves"].append(m.index)
    return list(groups.values())


def checkpoint(
    state: GameState, legal: tuple[Move, ...], rng: Rng, seen: set[str], full: bool
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "position": format_position(state),
        "outcome": outcome_dict(state),
    }
    if full:
        out["views"] = [observe(state, 0).to_string(), observe(state, 1).to_string()]
        if rng.below(2) == 0:
            out["public"] = format_public_position(state, rng.below(2))
        out["refusals"] = refusals(state, legal, rng, seen)
        if rng.below(12) == 0:
            out["reasons"] = all_reasons(state)
        if rng.below(5) == 0 or (state.stop is not None and rng.below(3) == 0) or not legal:
            out["json"] = to_json(state, indent=2 if rng.below(8) == 0 else None)
        if legal and rng.below(3) == 0:
            out["texts"] = move_texts(state, legal, rng, fixed=rng.below(8) == 0)
    if legal:
        seed = rng.below(1000)
        out["greedy"] = {
            "seed": seed,
            "move": GreedyBot(seed).choose(observe(state, state.to_act)).index,
            "scores": ranked_scores(state, legal),
        }
    return out


LOADS = tuple(
    m for m in ALL_MOVES if m.is_play and m.target in (crapette.OPP_RESERVE, crapette.OPP_WASTE)
)
SHUFFLES = tuple(m for m in ALL_MOVES if m.is_play and m.source < 8 and m.target < 8)


def rare(state: GameState, legal: tuple[Move, ...]) -> str | None:
    """The rare rule a position exercises (for an extra checkpoint), or None: the reserve
    priority, the Serbian order, the no-cycle rule, house filling."""
    rules = state.rules
    if not legal or state.stop is not None:
        return None
    if (
        rules.stop == "enforced"
        and rules.priority == "pagat"
        and legal == (crapette.Move.play(crapette.RESERVE, crapette.FOUNDATION),)
    ):
        return "reserve"
    if rules.stop == "enforced" and rules.priority == "serbian":
        for m in LOADS:
            reason = crapette.why_illegal(state, m)
            if reason is not None and "the tableau comes before" in reason:
                return "order"
    if len(state.seen) > 1:
        for m in SHUFFLES:
            reason = crapette.why_illegal(state, m)
            if reason is not None and "recreates a layout" in reason:
                return "cycle"
    if rules.stop == "enforced" and state.reserves[state.to_act]:
        if rules.house_filling == "immediate" and state.emptied:
            return "immediate"
        if rules.house_filling == "before_hand" and not all(state.houses) and state.turned is None:
            return "before_hand"
    return None


def play_game(
    rules: Ruleset, seed: int, kind: str, max_plies: int, seen: set[str]
) -> dict[str, Any]:
    rng = Rng(seed * 31 + 5)
    state = new_game(rules, seed=seed)
    bots: list[Any]
    if kind == "greedy":
        bots = [GreedyBot(seed), GreedyBot(seed + 1)]
    elif kind == "random":
        bots = [RandomBot(seed), RandomBot(seed + 1)]
    else:
        bots = [Explorer(seed), Explorer(seed + 1)]
    plies: list[list[int]] = []
    checkpoints: dict[str, Any] = {}
    every = 20
    n = 0
    extra: dict[str, int] = {}
    while True:
        legal = legal_moves(state)
        if n % every == 0 or not legal:
            checkpoints[str(n)] = checkpoint(
                state, legal, rng, seen, full=n % (2 * every) == 0 or not legal
            )
        else:
            kind_ = rare(state, legal)
            if kind_ is not None and extra.get(kind_, 0) < 2:
                extra[kind_] = extra.get(kind_, 0) + 1
                checkpoints[str(n)] = checkpoint(state, legal, rng, seen, full=True)
        if not legal or n >= max_plies:
            break
        p = state.to_act
        if kind == "explore":
            move = bots[p].choose(state, legal)
        else:
            move = bots[p].choose(observe(state, p))
        plies.append([*(m.index for m in legal), -1, move.index])
        state = apply(state, move)
        n += 1
        if state.stop is not None and str(n) not in checkpoints:
            full = rng.below(2) == 0
            checkpoints[str(n)] = checkpoint(state, legal_moves(state), rng, seen, full=full)
    return {
        "rules": str(rules),
        "seed": str(seed),
        "kind": kind,
        "plies": plies,
        "checkpoints": checkpoints,
        "final": {"position": format_position(state), "outcome": outcome_dict(state)},
    }


def available(state: GameState, source: int) -> crapette.Card | None:
    """The card a move from ``source`` would take, for the player to act (or None)."""
    p = state.to_act
    if source == crapette.RESERVE:
        pile = state.reserves[p]
        return pile[-1] if pile and state.reserve_up[p] else None
    if source == crapette.HAND:
        return state.turned
    if source == crapette.WASTE:
        pile = state.wastes[p]
        return pile[-1] if pile and state.rules.own_waste_playable else None
    return state.houses[source][-1] if state.houses[source] else None


def wrap_scenarios() -> list[dict[str, Any]]:
    """Positions where loading across King and Ace (load_wrap) fits but a priority forbids
    it, with the reason of every move: the refusal names the priority, not the loading."""
    found = []
    for rules in ("classic(load_wrap=true)", "serbian(load_wrap=true, stop=enforced)"):
        for seed in range(40):
            state = new_game(rules, seed=seed)
            bots = [RandomBot(seed), RandomBot(seed + 1)]
            for _ in range(300):
                legal = legal_moves(state)
                if not legal:
                    break
                for m in LOADS:
                    reason = crapette.why_illegal(state, m)
                    if reason and (
                        "foundation" in reason or "tableau" in reason or "comes first" in reason
                    ):
                        card = available(state, m.source)
                        q = 1 - state.to_act
                        pile = (
                            state.reserves[q]
                            if m.target == crapette.OPP_RESERVE
                            else state.wastes[q]
                        )
                        if (
                            card is not None
                            and pile
                            and abs(card.rank - pile[-1].rank) == 12
                            and card.suit == pile[-1].suit
                        ):
                            found.append(
                                {"position": format_position(state), "reasons": all_reasons(state)}
                            )
                            break
                if len(found) >= 2 * (1 + (rules != "classic(load_wrap=true)")):
                    break
                if found and found[-1]["position"] == format_position(state):
                    break
                state = apply(state, bots[state.to_act].choose(observe(state, state.to_act)))
            if len(found) >= 2 * (1 + (rules != "classic(load_wrap=true)")):
                break
    return found


def gen_games() -> dict[str, Any]:
    seen: set[str] = set()
    games = []
    for i, rules in enumerate(rulesets()):
        games.append(play_game(rules, 100 + i, "greedy", 400, seen))
        games.append(play_game(rules, 200 + i, "explore", 160, seen))
        if i % 3 == 0:
            games.append(play_game(rules, 300 + i, "random", 120, seen))
    return {"games": games, "scenarios": wrap_scenarios()}


# --------------------------------------------------------------------------------------
# errors


def corrupt_positions() -> list[str]:
    state = new_game("classic", seed=5)
    for move in ("H1-H2", "draw", "discard"):
        with contextlib.suppress(CrapetteError):
            state = apply(state, move)
    line = format_position(state)
    fields = line.split(" ")

    def with_field(i: int, value: str) -> str:
        return " ".join([*fields[:i], value, *fields[i + 1 :]])

    # the top card of player 0's hand moved elsewhere: still 104 cards (a position of more
    # cards is refused by the native engine before it is checked, in other words)
    hand0, hand1 = fields[6].split("/")
    moved = hand0[-2:]
    less = " ".join([*fields[:6], hand0[:-2] + "/" + hand1, *fields[7:]])
    less_fields = less.split(" ")

    def moving(i: int, value: str) -> str:
        return " ".join([*less_fields[:i], value, *less_fields[i + 1 :]])

    out = [
        "",
        "   ",
        "classic",
        "classic 0",
        line + " extra",
        line + "  ",
        "\t" + line,
        line.replace(" ", "\u00a0", 1),
        with_field(0, "chess"),
        with_field(0, "classic(stop=maybe)"),
        with_field(1, "2"),
        with_field(1, "x"),
        with_field(1, "01"),
        with_field(2, "-/-/-/-/-/-/-"),
        with_field(2, "-/-/-/-/-/-/-/-/-"),
        moving(2, moved + "/-/-/-/-/-/-/-"),
        moving(2, "-/-/-/-/-/-/-/" + moved),
        moving(8, moved),
        moving(7, moved + "/-"),
        moving(3, "/".join(p + moved if i == 2 else p for i, p in enumerate(fields[3].split("/")))),
        moving(4, fields[4].split("/")[0] + "/" + fields[4].split("/")[1] + moved),
        moving(4, moved + fields[4].split("/")[0][2:] + "/" + fields[4].split("/")[1]),
        with_field(2, "-/-/-/-/-/-/-/"),
        with_field(2, "??/-/-/-/-/-/-/-"),
        with_field(2, "1S/-/-/-/-/-/-/-"),
        with_field(2, "AX/-/-/-/-/-/-/-"),
        with_field(2, "A/-/-/-/-/-/-/-"),
        with_field(3, fields[3].replace("/", "", 1)),
        with_field(3, "KSQHJSTH9S8H7S6H5S4H3S2HASAS" + "/-" * 7),
        with_field(3, "-/4C/-/" + "KSQHJSTH9S8H7S6H5S4H3S2HASAS" + "/-" * 4),
        with_field(4, "-/-"),
        with_field(5, "1"),
        with_field(5, "1/x"),
        with_field(5, "0/0"),
        with_field(5, "99/1"),
        with_field(5, "1000/1"),
        with_field(8, "7H7H"),
        with_field(9, "9"),
        with_field(9, "21"),
        with_field(9, "11"),
        with_field(9, "1"),
        with_field(10, "3/1"),
        with_field(10, "1/3"),
        with_field(10, "a/b"),
        with_field(11, "-1"),
        with_field(11, "1" * 13),
        with_field(11, "30000"),
        with_field(12, "xyz"),
        with_field(12, "0123456789abcdef0"),
        with_field(12, "ab,,cd"),
        with_field(13, "nonsense"),
        with_field(13, "R-F"),
        with_field(13, "draw"),
        with_field(6, fields[6][2:]),
        with_field(1, "\u00e9"),
        "classic 0 " + "\U0001f600" * 3,
        with_field(3, fields[3][:1] + "\U0001f600" + fields[3][2:]),
    ]
    # a position whose pending Stop! field is a legal violation and one that is not
    s = new_game("pagat", seed=3)
    for _ in range(400):
        legal = legal_moves(s)
        if not legal:
            break
        violating = [
            m for m in legal if s.stop is None and crapette.apply_unchecked(s, m).stop is not None
        ]
        if violating:
            after = apply(s, violating[0])
            text = format_position(after)
            out.append(text)
            parts = text.split(" ")
            other = [m for m in legal if m not in violating]
            if other:
                out.append(" ".join([*parts[:13], str(other[0])]))
            out.append(" ".join([*parts[:13], "end"]))
            break
        s = apply(s, legal[0])
    return out


def corrupt_json() -> list[str]:
    state = new_game("pagat", seed=11)
    doc = json.loads(to_json(state))

    def edit(path: list[Any], value: Any, delete: bool = False) -> str:
        data = json.loads(json.dumps(doc))
        target = data
        for key in path[:-1]:
            target = target[key]
        if delete:
            del target[path[-1]]
        else:
            target[path[-1]] = value
        return json.dumps(data)

    out = [
        "",
        " ",
        "{",
        "[1, 2",
        '{"a": }',
        '{"a" 1}',
        '{"a": 1 "b": 2}',
        "[1 2]",
        '"abc',
        '"a\\qb"',
        '"\\u12"',
        '"tab\there"',
        "nul",
        "{} []",
        "\ufeff{}",
        "-",
        "01",
        "[]",
        "null",
        "42",
        '{"format": "chess"}',
        '{"format": "crapette"}',
        '{"format": "crapette", "version": 2}',
        '{"format": "crapette", "version": 1.0}',
        '{"format": "crapette", "version": true}',
        '{"format": "crapette", "version": "1"}',
        '{"format": "crapette", "version": 1}',
        '{"format": "crapette", "version": 1, "type": "game"}',
        '{"format": "crapette", "version": 1, "type": 7}',
        '{"format": "crapette", "version": 1, "type": "state"}',
        '{"format": "crapette", "version": 1, "type": "state", "state": []}',
        '{"format": "crapette", "version": 1, "type": "rules"}',
        '{"format": "crapette", "version": 1, "type": "rules", "rules": "chess"}',
        '{"format": "crapette", "version": 1, "type": "rules", "rules": "classic", "options": 3}',
        '{"format": "crapette", "version": 1, "type": "rules", "rules": "classic", "options": {}}',
        '{"format": "crapette", "version": 1, "type": "rules", "rules": "classic",'
        ' "options": {"stop": "undo"}}',
        '{"format": "crapette", "version": 1, "type": "rules", "rules": "classic",'
        ' "options": {"colour": 1}}',
        '{"format": "crapette", "version": 1, "type": "rules", "rules": "classic",'
        ' "options": {"move_cap": 1.5}}',
        '{"format": "crapette", "version": 1, "type": "rules", "rules": "classic",'
        ' "options": {"move_cap": 1e20}}',
        '{"format": "crapette", "version": 1, "type": "rules", "rules": "classic",'
        ' "options": {"move_cap": NaN}}',
        '{"format": "crapette", "version": 1, "type": "rules", "rules": "classic",'
        ' "options": {"reserve_face_up": 1}}',
        '{"format": "crapette", "version": 1, "type": "rules", "rules": "classic",'
        ' "options": {"reserve_size": 123456789012345678901234567890}}',
        '{"format": "crapette", "version": 1, "type": "rules", "rules": "classic",'
        ' "options": {"match_target": null, "match_deals": null}}',
        '{"format": "crapette", "version": 1, "type": "rules", "rules": "classic",'
        ' "options": {"first_player": ["cut"]}}',
        '{"format": "crapette", "version": 1, "type": "rules", "rules": "classic",'
        ' "options": {"first_player": {"a": [1, 2.5, true, null, "x"]}}}',
        edit(["state", "rules"], 5),
        edit(["state", "rules"], "classic(stop=never)"),
        edit(["state", "houses"], None, delete=True),
        edit(["state", "houses"], [[]] * 7),
        edit(["state", "houses", 0], "4C"),
        edit(["state", "houses", 0, 0], "4X"),
        edit(["state", "houses", 0, 0], "10c"),
        edit(["state", "houses", 0, 0], 3),
        edit(
            ["state", "houses", 0],
            ["KS", "QH", "JS", "TH", "9S", "8H", "7S", "6H", "5S", "4H", "3S", "2H", "AS", "AS"],
        ),
        edit(["state", "turned"], "ZZ"),
        edit(["state", "emptied"], 3),
        edit(["state", "emptied"], [9]),
        edit(["state", "emptied"], [1.0]),
        edit(["state", "seen"], "ab"),
        edit(["state", "seen"], ["xyz"]),
        edit(["state", "seen"], [12]),
        edit(["state", "to_act"], 2),
        edit(["state", "to_act"], True),
        edit(["state", "to_act"], 1.0),
        edit(["state", "to_act"], None, delete=True),
        edit(["state", "reserve_up"], [1]),
        edit(["state", "reserve_up"], [1, 105]),
        edit(["state", "reserve_up"], [0, 1]),
        edit(["state", "passes"], [3, 1]),
        edit(["state", "moves_made"], -1),
        edit(["state", "moves_made"], 30000),
        edit(["state", "moves_made"], "7"),
        edit(["state", "stop"], 5),
        edit(["state", "stop"], {"prior": None}),
        edit(["state", "stop"], {"move": "draw"}),
        edit(["state", "stop"], {"prior": doc["state"], "move": 3}),
        edit(["state", "stop"], {"prior": doc["state"], "move": "jump"}),
        edit(["state", "stop"], {"prior": doc["state"], "move": "discard"}),
        edit(
            ["state", "stop"], {"prior": doc["state"], "move": "H7-F", "offender": 0, "resume": 0}
        ),
        json.dumps(
            {
                **doc,
                "state": {
                    **doc["state"],
                    "foundations": [[doc["state"]["hands"][0][-1]], [], [], [], [], [], [], []],
                    "hands": [doc["state"]["hands"][0][:-1], doc["state"]["hands"][1]],
                },
            }
        ),
        json.dumps(
            {
                **doc,
                "state": {
                    **doc["state"],
                    "turned": doc["state"]["hands"][0][-1],
                    "hands": [doc["state"]["hands"][0][:-1], doc["state"]["hands"][1]],
                },
            }
        ),
        json.dumps({**doc, "state": {**doc["state"], "reserves": [[], []]}}),
    ]
    # a pending Stop! document and damaged copies of it
    s = new_game("pagat", seed=3)
    for _ in range(400):
        legal = legal_moves(s)
        if not legal:
            break
        violating = [
            m for m in legal if s.stop is None and crapette.apply_unchecked(s, m).stop is not None
        ]
        if violating:
            pending = json.loads(to_json(apply(s, violating[0])))
            out.append(json.dumps(pending))
            for key, value in (
                ("offender", 1 - pending["state"]["stop"]["offender"]),
                ("resume", 5),
            ):
                bad = json.loads(json.dumps(pending))
                bad["state"]["stop"][key] = value
                out.append(json.dumps(bad))
            bad = json.loads(json.dumps(pending))
            bad["state"]["moves_made"] += 1
            out.append(json.dumps(bad))
            bad = json.loads(json.dumps(pending))
            bad["state"]["stop"]["prior"]["stop"] = json.loads(json.dumps(bad["state"]["stop"]))
            out.append(json.dumps(bad))
            break
        s = apply(s, legal[0])
    return out


def faulty_state(rules: str, seed: int) -> GameState:
    """A state of ``rules`` (call_window=turn_start) whose turn starts with a fault to call:
    random bots play until a turn ends with a priority violation."""
    state = new_game(rules, seed=seed)
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    for _ in range(2000):
        if state.fault is not None:
            return state
        legal = legal_moves(state)
        if not legal:
            break
        state = apply(state, bots[state.to_act].choose(observe(state, state.to_act)))
    raise AssertionError(f"no fault in {rules} seed {seed}")


def played(rules: str, seed: int, plies: int) -> GameState:
    """The state after ``plies`` moves of two random bots from the deal of ``seed``."""
    state = new_game(rules, seed=seed)
    bots = [RandomBot(seed), RandomBot(seed + 1)]
    for _ in range(plies):
        if not legal_moves(state):
            break
        state = apply(state, bots[state.to_act].choose(observe(state, state.to_act)))
    return state


def new_corrupt_positions() -> list[str]:
    """Positions of the tarot packs and the call window, written right and wrong."""
    out = []
    fault = faulty_state("bobcrapette(false_call=rationed)", 3)
    tarot = played("tarot(pack=tarot78)", 4, 60)
    for state in (fault, tarot, played("tarot(pack=tarot56)", 5, 40)):
        out.append(format_position(state))
    line = format_position(fault)
    fields = line.split(" ")
    head = " ".join(fields[:14])
    for call in ("w00", "-00", "w31", "f", "x00", "w40", "w000", "f00"):
        out.append(f"{head} {call}")
    out.append(" ".join([*fields[:13], "-", fields[14]]))  # f without its move
    out.append(" ".join([*fields[:13], "flip", "w00"]))  # a move, but the window is w
    classic = format_position(new_game("classic", seed=5))
    out.append(classic + " w00")
    out.append(classic + " ")
    text = format_position(tarot)
    for old, new in (("M", "m"), ("1M", "22M"), ("0M", "00M"), ("N", "Q"), ("2M", "2X")):
        if old in text:
            out.append(text.replace(old, new, 1))
    standard = format_position(new_game("classic", seed=6))
    out.append(standard.replace("Q", "N", 1))
    out.append(standard.replace("/", "/1M", 1))
    found = format_position(new_game("tarot", seed=7)).split(" ")
    out.append(" ".join([*found[:2], "/".join(["-"] * 8), *found[3:]]))  # 8 foundations, not 10
    return out


def new_corrupt_json() -> list[str]:
    """JSON documents of version 3 (the tarot packs, the call window), right and wrong."""
    fault = faulty_state("bobcrapette(false_call=rationed)", 3)
    doc = json.loads(to_json(fault))

    def edit(path: list[Any], value: Any, delete: bool = False) -> str:
        data = json.loads(json.dumps(doc))
        target = data
        for key in path[:-1]:
            target = target[key]
        if delete:
            del target[path[-1]]
        else:
            target[path[-1]] = value
        return json.dumps(data)

    tarot = to_json(played("tarot(pack=tarot78)", 4, 60))
    out = [
        to_json(fault),
        to_json(fault, indent=2),
        tarot,
        tarot.replace('"version": 3', '"version": 2'),
        tarot.replace('"version": 3', '"version": 4'),
        edit(["state", "window"], 1),
        edit(["state", "window"], False),
        edit(["state", "false_calls"], [4, 0]),
        edit(["state", "false_calls"], [1]),
        edit(["state", "fault"], None),
        edit(["state", "fault", "move"], "draw"),
        edit(["state", "fault", "move"], 7),
        edit(["state", "fault", "prior"], None),
        edit(["state", "fault"], "flip"),
        edit(["state", "fault", "prior", "to_act"], 1 - fault.to_act),
        edit(["state", "moves_made"], fault.moves_made + 1),
        edit(["state", "foundations"], [[]] * 8),
        edit(["state", "turned"], "22M"),
        edit(["state", "turned"], "10c"),
        edit(["state", "turned"], "100M"),
        to_json(Ruleset.preset("bobcrapette")),
        to_json(Ruleset.preset("tarot"), indent=2),
        to_json(Ruleset.preset("tarot")).replace('"version": 3', '"version": 2'),
    ]
    return out


def gen_errors() -> dict[str, Any]:
    positions = []
    for text in corrupt_positions() + new_corrupt_positions():
        err = error_of(lambda text=text: parse_position(text))
        entry: dict[str, Any] = {"text": text}
        if err is None:
            entry["position"] = format_position(parse_position(text))
        else:
            entry.update(err)
        positions.append(entry)
    documents = []
    for text in corrupt_json() + new_corrupt_json():
        err = error_of(lambda text=text: from_json(text))
        entry = {"text": text}
        if err is None:
            value = from_json(text)
            entry["result"] = format_position(value) if isinstance(value, GameState) else str(value)
        else:
            entry.update(err)
        documents.append(entry)
    return {"positions": positions, "json": documents}


# --------------------------------------------------------------------------------------
# batch


def gen_batch() -> dict[str, Any]:
    deals = []
    plan = [
        ("classic", ["greedy", "greedy"]),
        ("classic", ["random", "greedy"]),
        ("serbian", ["greedy", "random"]),
        ("pagat", ["greedy", "greedy"]),
        ("belarusian", ["greedy", "greedy"]),
        ("g4a", ["greedy", "greedy"]),
        ("classic(move_cap=300)", ["random", "random"]),
        ("serbian(move_cap=200)", ["random", "random"]),
        ("pagat(move_cap=250, group_moves=whole)", ["random", "random"]),
    ]
    for i, (rules_text, kinds) in enumerate(plan * 2):
        seed = 1000 + i if i < len(plan) else 2**64 - 5 - i
        bot_seeds = [7 * i + 1, 2**63 + i]
        bots = [
            (GreedyBot if k == "greedy" else RandomBot)(s)
            for k, s in zip(kinds, bot_seeds, strict=True)
        ]
        moves: list[int] = []
        counts = [1, 0, 0]  # turns, Stop! decisions met, calls

        def on_move(
            before: GameState, move: Move, after: GameState, moves=moves, counts=counts
        ) -> None:
            moves.append(move.index)
            counts[0] += before.turn_player != after.turn_player
            counts[1] += after.stop is not None
            counts[2] += move == crapette.CALL_STOP

        start = new_game(rules_text, seed=seed)
        end = play_deal(start, bots, on_move=on_move)
        deals.append(
            {
                "rules": rules_text,
                "seed": str(seed),
                "bots": kinds,
                "bot_seeds": [str(s) for s in bot_seeds],
                "starter": start.to_act,
                "outcome": outcome_dict(end),
                "moves": moves,
                "turns": counts[0],
                "violations": counts[1],
                "calls": counts[2],
                "final": format_position(end),
            }
        )
    return {"deals": deals}


GENERATORS = {
    "tables": gen_tables,
    "rules": gen_rules,
    "deals": gen_deals,
    "games": gen_games,
    "errors": gen_errors,
    "batch": gen_batch,
}


def write(out: Path) -> list[Path]:
    """Write every vector file into ``out``; returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name in FILES:
        path = out / f"{name}.json"
        data = GENERATORS[name]()
        path.write_text(
            json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n", encoding="utf-8"
        )
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="the folder to write into")
    args = parser.parse_args(argv)
    for path in write(args.out):
        print(f"wrote {path} ({path.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
