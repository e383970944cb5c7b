"""Hypothesis strategies for the engine's tests: rulesets, seeds, and states reached by
random legal move sequences (or built at random, for the move-generator oracle).

Random walks pick their moves with ``crapette.deal.Rng`` from a drawn seed, so a failing
example shrinks to a few integers and replays the same on every platform.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import strategies as st

import crapette as c
from crapette import _spec
from crapette._tables import PACK_TABLES
from crapette.cards import PACKS, Card
from crapette.deal import Rng
from crapette.testing import option_samples

__all__ = [
    "OPTION_VALUES",
    "every_card",
    "random_position",
    "random_walk",
    "rulesets",
    "seeds",
    "states",
    "synthetic_states",
    "walk_to",
]

OPTION_VALUES: dict[str, tuple[Any, ...]] = option_samples()
"""Values worth trying for every option (every allowed value of the choice options), from
the rule spec."""

RULE_OPTIONS = tuple(option.name for option in _spec.OPTIONS if option.engine)
"""The options the engine reads (the rest only change matches)."""


def every_card(state: c.GameState) -> list[c.Card]:
    """Every card of the state's game (both packs of its pack kind), in code order."""
    return list(PACKS[state.rules.pack].cards)


def seeds() -> st.SearchStrategy[int]:
    """Deal seeds: small ones, 64-bit ones and a few beyond (taken modulo 2**64)."""
    return st.one_of(st.integers(0, 1000), st.integers(0, 2**64 - 1), st.integers(-(2**70), 2**70))


@st.composite
def rulesets(
    draw: st.DrawFn,
    presets: tuple[str, ...] = tuple(c.PRESETS),
    options: tuple[str, ...] = tuple(OPTION_VALUES),
    max_changes: int = 4,
    max_move_cap: int | None = None,
) -> c.Ruleset:
    """A preset with 0 to ``max_changes`` options changed to random allowed values."""
    rules = c.Ruleset.preset(draw(st.sampled_from(presets)))
    names = draw(st.lists(st.sampled_from(options), unique=True, max_size=max_changes))
    changes = {name: draw(st.sampled_from(OPTION_VALUES[name])) for name in names}
    for name in changes:  # values that cannot go together: keep the preset's instead
        try:
            rules = rules.replace(**{name: changes[name]})
        except c.InvalidRulesError:
            continue
    if max_move_cap is not None and rules.move_cap > max_move_cap:
        rules = rules.replace(move_cap=max_move_cap)
    return rules


def play_rulesets(max_move_cap: int = 3000) -> st.SearchStrategy[c.Ruleset]:
    """Rulesets that change how the game is played, with a moderate move cap."""
    return rulesets(options=RULE_OPTIONS, max_move_cap=max_move_cap)


def random_walk(state: c.GameState, rng: Rng, steps: int) -> Iterator[tuple[c.GameState, c.Move]]:
    """Up to ``steps`` random legal moves from ``state``: yields (state before, move)."""
    for _ in range(steps):
        legal = c.legal_moves(state)
        if not legal:
            return
        move = legal[rng.below(len(legal))]
        yield state, move
        state = c.apply_unchecked(state, move)


def walk_to(state: c.GameState, rng: Rng, steps: int) -> c.GameState:
    """The state after up to ``steps`` random legal moves."""
    for before, move in random_walk(state, rng, steps):
        state = c.apply_unchecked(before, move)
    return state


@st.composite
def states(
    draw: st.DrawFn,
    rules: st.SearchStrategy[c.Ruleset] | None = None,
    max_steps: int = 400,
) -> c.GameState:
    """A state reached from a seeded deal by a random legal move sequence."""
    ruleset = draw(rules if rules is not None else play_rulesets())
    state = c.new_game(ruleset, seed=draw(seeds()))
    return walk_to(state, Rng(draw(st.integers(0, 2**32))), draw(st.integers(0, max_steps)))


# --- synthetic positions, for the move-generator oracle ---------------------------------


def random_position(rules: c.Ruleset, rng: Rng) -> c.GameState:
    """A random but well-formed position of the rules' pack: valid foundation piles, houses
    that are runs (some long, some empty), random reserves (face-up counts), hands, wastes,
    a turned card or not (never under ``turn_end=flip``), an "emptied" mask, a few seen
    layouts (so that the no-cycle rule bites), and under ``call_window=turn_start`` an open
    call window or not and false calls."""
    deck = PACKS[rules.pack]
    t = PACK_TABLES[rules.pack]
    pool = list(deck.cards)
    for i in range(len(pool) - 1, 0, -1):
        j = rng.below(i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    free = set(pool)

    def take(card: Card) -> Card:
        free.discard(card)
        return card

    def find(ok: Callable[[Card], bool]) -> Card | None:
        """The first free card that passes ``ok``."""
        for card in pool:
            if card in free and ok(card):
                return card
        return None

    need = t.fneed
    foundations: list[tuple[Card, ...]] = []
    for _ in range(deck.foundations):
        height = rng.below(deck.ranks + 1) if rng.below(3) else 0
        family = rng.below(deck.families)
        pile: list[Card] = []
        for _step in range(height):
            if pile:
                top_face = t.face[pile[-1]]
                card = find(lambda x, f=top_face: need[x] == f)
            else:
                card = find(lambda x, family=family: need[x] == -2 and deck.suit[x] == family)
            if card is None:
                break
            pile.append(take(card))
        foundations.append(tuple(pile))
    houses: list[tuple[Card, ...]] = []
    for _ in range(8):
        if rng.below(4) == 0:
            houses.append(())
            continue
        top = next(x for x in pool if x in free)
        run = [take(top)]
        for _ in range(rng.below(6)):
            below = find(lambda x, top=run[0]: t.takes[x] == t.kind[top])
            if below is None:
                break
            run.insert(0, take(below))
        houses.append(tuple(run))
    # The reserves: face-down cards of their owner's pack (every card dealt to a reserve is
    # its owner's; loaded cards lie face up), under 0 to 2 face-up ones (at least 1 when
    # the rules deal the top face up).
    reserves_: list[tuple[Card, ...]] = []
    up_counts: list[int] = []
    for p in (0, 1):
        own = [x for x in pool if x in free and deck.owner[x] == p]
        down = [take(x) for x in own[: rng.below(min(len(own), 20) + 1) if rng.below(5) else 0]]
        up = rng.below(3) if rng.below(4) else 1
        if not rules.reserve_face_up and rng.below(3) == 0:
            up = 0
        ups = [take(x) for x in [x for x in pool if x in free][:up]]
        if not ups and down and rules.reserve_face_up:
            ups.append(down.pop())  # the top is face up: its owner's card still
        reserves_.append((*down, *ups))
        up_counts.append(len(ups))
    rest = [x for x in pool if x in free]
    cuts = sorted(rng.below(len(rest) + 1) for _ in range(3))
    h0, h1, w0 = (rest[: cuts[0]], rest[cuts[0] : cuts[1]], rest[cuts[1] : cuts[2]])
    w1 = rest[cuts[2] :]
    to_act = rng.below(2)
    hands = [list(h0), list(h1)]
    flip = rules.turn_end == "flip"
    turned = hands[to_act].pop() if hands[to_act] and rng.below(2) and not flip else None
    reserves = (reserves_[0], reserves_[1])
    reserve_up = (up_counts[0], up_counts[1])
    empty_mask = sum(1 << h for h in range(8) if not houses[h] and rng.below(2))
    calls = rules.stop != "enforced" and rules.call_window == "turn_start"
    window = calls and bool(rng.below(2))
    rationed = calls and rules.false_call == "rationed"
    false_calls = (rng.below(4), rng.below(4)) if rationed else (0, 0)
    fields = {
        "rules": rules,
        "to_act": to_act,
        "foundations": tuple(foundations),
        "houses": tuple(houses),
        "reserves": reserves,
        "reserve_up": (reserve_up[0], reserve_up[1]),
        "hands": (tuple(hands[0]), tuple(hands[1])),
        "wastes": (tuple(w0), tuple(w1)),
        "turned": turned,
        "emptied": empty_mask,
        "passes": (rng.below(3), rng.below(2)),
        "window": window,
        "false_calls": false_calls,
    }
    state = c.GameState(**fields)  # type: ignore[arg-type]
    # Remember a few layouts one house move away, as if the turn had visited them.
    seen = set(state.seen)
    for move in c.legal_moves(state):
        if move.is_play and move.source < 8 and move.target < 8 and rng.below(3) == 0:
            seen.add(c.apply_unchecked(state, move).houses_key)
    return c.GameState(**fields, seen=frozenset(seen))  # type: ignore[arg-type]


@st.composite
def synthetic_states(
    draw: st.DrawFn, rules: st.SearchStrategy[c.Ruleset] | None = None
) -> c.GameState:
    """A random well-formed position (see :func:`random_position`)."""
    ruleset = draw(rules if rules is not None else play_rulesets())
    return random_position(ruleset, Rng(draw(st.integers(0, 2**64 - 1))))
