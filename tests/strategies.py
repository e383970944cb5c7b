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
from crapette.cards import RANK, RED, SUIT, Card
from crapette.deal import Rng
from crapette.testing import option_samples

__all__ = [
    "OPTION_VALUES",
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
    """A random but well-formed position: valid foundation piles, houses that are runs
    (some long, some empty), random reserves (face-up counts), hands, wastes, a turned card
    or not, an "emptied" mask and a few seen layouts (so that the no-cycle rule bites)."""
    pool = list(c.ALL_CARDS)
    for i in range(len(pool) - 1, 0, -1):
        j = rng.below(i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    free = set(pool)

    def take(card: Card) -> Card:
        free.discard(card)
        return card

    def find(rank: int, ok: Callable[[Card], bool]) -> Card | None:
        """The first free card of this rank that passes ``ok``."""
        for card in pool:
            if card in free and RANK[card] == rank and ok(card):
                return card
        return None

    foundations: list[tuple[Card, ...]] = []
    for _ in range(8):
        height = rng.below(14) if rng.below(3) else 0
        suit = rng.below(4)
        pile: list[Card] = []
        for rank in range(1, height + 1):
            card = find(rank, lambda x, suit=suit: SUIT[x] == suit)
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
            if RANK[run[0]] == 13:
                break
            below = find(RANK[run[0]] + 1, lambda x, top=run[0]: RED[x] != RED[top])
            if below is None:
                break
            run.insert(0, take(below))
        houses.append(tuple(run))
    rest = [x for x in pool if x in free]
    cuts = sorted(rng.below(len(rest) + 1) for _ in range(5))
    r0, r1, h0, h1, w0 = (
        rest[: cuts[0]],
        rest[cuts[0] : cuts[1]],
        rest[cuts[1] : cuts[2]],
        rest[cuts[2] : cuts[3]],
        rest[cuts[3] : cuts[4]],
    )
    w1 = rest[cuts[4] :]
    to_act = rng.below(2)
    hands = [list(h0), list(h1)]
    turned = hands[to_act].pop() if hands[to_act] and rng.below(2) else None
    reserves = (tuple(r0), tuple(r1))
    reserve_up = tuple(
        min(len(r), rng.below(3)) if r and rng.below(4) else min(len(r), 1) for r in reserves
    )
    empty_mask = sum(1 << h for h in range(8) if not houses[h] and rng.below(2))
    state = c.GameState(
        rules=rules,
        to_act=to_act,
        foundations=tuple(foundations),
        houses=tuple(houses),
        reserves=reserves,
        reserve_up=(reserve_up[0], reserve_up[1]),
        hands=(tuple(hands[0]), tuple(hands[1])),
        wastes=(tuple(w0), tuple(w1)),
        turned=turned,
        emptied=empty_mask,
        passes=(rng.below(3), rng.below(2)),
    )
    # Remember a few layouts one house move away, as if the turn had visited them.
    seen = set(state.seen)
    for move in c.legal_moves(state):
        if move.is_play and move.source < 8 and move.target < 8 and rng.below(3) == 0:
            seen.add(c.apply_unchecked(state, move).houses_key)
    return c.GameState(
        rules=rules,
        to_act=to_act,
        foundations=state.foundations,
        houses=state.houses,
        reserves=state.reserves,
        reserve_up=state.reserve_up,
        hands=state.hands,
        wastes=state.wastes,
        turned=state.turned,
        emptied=state.emptied,
        passes=state.passes,
        seen=frozenset(seen),
    )


@st.composite
def synthetic_states(
    draw: st.DrawFn, rules: st.SearchStrategy[c.Ruleset] | None = None
) -> c.GameState:
    """A random well-formed position (see :func:`random_position`)."""
    ruleset = draw(rules if rules is not None else play_rulesets())
    return random_position(ruleset, Rng(draw(st.integers(0, 2**64 - 1))))
