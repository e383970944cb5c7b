"""Player views: what a player sees, legal moves from a view, and determinization."""

from __future__ import annotations

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import crapette as c
from crapette.cards import PACKS, Card
from crapette.deal import Rng, shuffled
from crapette.text import board
from crapette.views import VIEW_FORMAT, PlayerView, StopView, determinize, observe
from strategies import play_rulesets, states, synthetic_states


def _positions(preset: str, seed: int, cap: int = 400) -> list[c.GameState]:
    """Every position of a short random deal."""
    state = c.new_game(c.Ruleset.preset(preset).replace(move_cap=cap), seed=seed)
    rng = Rng(seed)
    out = [state]
    while not c.is_over(state):
        moves = c.legal_moves(state)
        state = c.apply_unchecked(state, moves[rng.below(len(moves))])
        out.append(state)
    return out


def _cards_in(value: object) -> list[int]:
    """Every card held anywhere in a view (nested piles, the turned card, the prior view)."""
    if isinstance(value, Card):
        return [value]
    if isinstance(value, tuple):
        return [card for item in value for card in _cards_in(item)]
    if isinstance(value, PlayerView | StopView):
        return [
            card for f in attrs.fields(type(value)) for card in _cards_in(getattr(value, f.name))
        ]
    return []


def _with_hidden_shuffled(state: c.GameState, seed: int) -> c.GameState:
    """The same position with the hidden cards (face-down reserve cards, both hands) dealt
    again at random among the hidden places (a face-down reserve card from its owner's
    pack, as in every possible state)."""
    rng = Rng(seed)
    downs = [len(state.reserves[p]) - state.reserve_up[p] for p in (0, 1)]
    hidden = [*state.reserves[0][: downs[0]], *state.reserves[1][: downs[1]]]
    hidden += [*state.hands[0], *state.hands[1]]
    pool = list(shuffled(hidden, rng))
    reserves = []
    for p in (0, 1):
        own = [card for card in pool if PACKS[state.rules.pack].owner[card] == p][: downs[p]]
        reserves.append(tuple(own) + state.reserves[p][downs[p] :])
        pool = [card for card in pool if card not in own]
    n0 = len(state.hands[0])
    return state.replace(
        reserves=(reserves[0], reserves[1]),
        hands=(tuple(pool[:n0]), tuple(pool[n0:])),
    )


def test_view_holds_no_hidden_fields() -> None:
    names = {f.name for f in attrs.fields(PlayerView)}
    assert not names & {"hands", "reserves", "prior_state"}
    assert "hand_sizes" in names and "reserves_down" in names


@pytest.mark.parametrize("preset", sorted(c.PRESETS))
def test_view_shows_only_visible_cards(preset: str) -> None:
    for state in _positions(preset, 7, cap=300)[::5]:
        hidden = set(state.hands[0]) | set(state.hands[1])
        for p in (0, 1):
            hidden |= set(state.reserves[p][: len(state.reserves[p]) - state.reserve_up[p]])
        for player in (0, 1):
            view = observe(state, player)
            shown = (
                _cards_in(view) if view.stop is None else _cards_in(attrs.evolve(view, stop=None))
            )
            assert not hidden & set(shown)
            assert sorted(view.hidden_cards()) == sorted(hidden)


@pytest.mark.parametrize("preset", sorted(c.PRESETS))
def test_hidden_cards_do_not_change_the_view(preset: str) -> None:
    for i, state in enumerate(_positions(preset, 11, cap=300)[::7]):
        if state.stop is not None:
            continue
        other = _with_hidden_shuffled(state, i)
        for player in (0, 1):
            assert observe(other, player) == observe(state, player)
            assert observe(other, player).to_string() == observe(state, player).to_string()


@pytest.mark.parametrize("preset", sorted(c.PRESETS))
def test_legal_moves_from_the_view(preset: str) -> None:
    for state in _positions(preset, 3):
        for player in (0, 1):
            assert observe(state, player).legal_moves() == c.legal_moves(state)


@pytest.mark.parametrize("preset", sorted(c.PRESETS))
def test_determinize_is_consistent(preset: str) -> None:
    rng = Rng(99)
    for state in _positions(preset, 5, cap=500)[::3]:
        for player in (0, 1):
            view = observe(state, player)
            sample = determinize(view, rng)
            assert sorted(sample.cards()) == list(PACKS[state.rules.pack].cards)
            assert observe(sample, player) == view
            assert c.legal_moves(sample) == c.legal_moves(state)


def test_determinize_with_open_stop_decisions() -> None:
    found = 0
    rng = Rng(1)
    for preset in ("pagat", "serbian"):
        for seed in range(4):
            for state in _positions(preset, seed, cap=600):
                if state.stop is None:
                    continue
                found += 1
                view = observe(state, 1 - state.stop.offender)
                sample = determinize(view, rng)
                assert sample.stop is not None
                assert observe(sample, view.player) == view
                assert sorted(sample.stop.prior.cards()) == list(range(104))
                assert observe(sample.stop.prior, view.player) == view.stop.prior  # type: ignore[union-attr]
    assert found > 10


@given(st.integers(0, 2**64 - 1), st.integers(0, 2**32))
def test_determinize_reproducible_and_faithful(seed: int, sample_seed: int) -> None:
    state = c.new_game(seed=seed)
    view = observe(state, seed % 2)
    a = determinize(view, Rng(sample_seed))
    assert a == determinize(view, Rng(sample_seed))
    assert observe(a, seed % 2) == view
    # Face-down reserve cards come from their owner's pack.
    for p in (0, 1):
        assert all(card.pack == p for card in a.reserves[p][:-1])


def test_to_string_is_stable_and_one_line() -> None:
    state = c.new_game(seed=3)
    text = observe(state, 0).to_string()
    assert "\n" not in text
    assert text.startswith("view/1 | classic | player 0 | to_act 0 | F - - - - - - - - | H ")
    assert "| R0 12:6S | R1 12:6d | hands 35 35 | W0 - | W1 - | T - | stop - | moves 0 |" in text
    assert str(observe(state, 0)) != text  # str() is the board for people (tested below)
    assert observe(state, 1).to_string() != text


def test_observe_rejects_bad_player() -> None:
    with pytest.raises(ValueError, match="player must be 0 or 1"):
        observe(c.new_game(seed=1), 2)


def test_determinize_keeps_a_hand_formed_from_the_waste() -> None:
    # A violating draw from a hand just formed by turning the waste over: that hand's order
    # is known (it was the face-up waste) and the sample keeps it.
    rng = Rng(2)
    found = 0
    for seed in range(40):
        for state in _positions("serbian", seed, cap=1500):
            stop = state.stop
            if stop is None or stop.move != c.DRAW or stop.prior.hands[stop.offender]:
                continue
            found += 1
            view = observe(state, 1 - stop.offender)
            sample = determinize(view, rng)
            assert sample.hands[stop.offender] == state.hands[stop.offender]
            assert observe(sample, view.player) == view
            assert sorted(sample.cards()) == list(range(104))
        if found >= 3:
            break
    assert found >= 3


def _check_determinize(state: c.GameState, rng: Rng) -> None:
    """A sample of each player's view is consistent with the view and the state."""
    for player in (0, 1):
        view = observe(state, player)
        sample = determinize(view, rng)
        assert observe(sample, player) == view
        assert sorted(sample.cards()) == sorted(state.cards())
        assert view.legal_moves() == c.legal_moves(state) == c.legal_moves(sample)
        for pending, real in ((sample.stop, state.stop), (sample.fault, state.fault)):
            if real is not None:
                assert pending is not None
                assert sorted(pending.prior.cards()) == sorted(real.prior.cards())
                assert observe(pending.prior, player) == observe(real.prior, player)


@settings(max_examples=60, deadline=None)
@given(states(rules=play_rulesets(max_move_cap=600), max_steps=300), st.integers(0, 2**32))
def test_determinize_round_trips_over_random_rulesets(state: c.GameState, seed: int) -> None:
    # Every option of the spec (packs, turn_end, call_window, false_call...) is drawn.
    _check_determinize(state, Rng(seed))


@settings(max_examples=60, deadline=None)
@given(synthetic_states(), st.integers(0, 2**32))
def test_determinize_round_trips_on_synthetic_positions(state: c.GameState, seed: int) -> None:
    # Random positions of every pack, with an open call window and false calls or not.
    for player in (0, 1):
        view = observe(state, player)
        assert observe(determinize(view, Rng(seed)), player) == view
        assert view.legal_moves() == c.legal_moves(state)


def _faulty_flips(rules: c.Ruleset, seeds: range) -> list[c.GameState]:
    """Positions at the start of a turn whose previous turn ended by a violating flip (a
    fault), or with a Stop! decision on a violating flip, from random deals."""
    out = []
    for seed in seeds:
        for state in _positions_of(rules, seed):
            pending = state.fault if state.fault is not None else state.stop
            if pending is not None and pending.move == c.FLIP:
                out.append(state)
    return out


def _positions_of(rules: c.Ruleset, seed: int) -> list[c.GameState]:
    state = c.new_game(rules, seed=seed)
    rng = Rng(seed)
    out = [state]
    while not c.is_over(state):
        moves = c.legal_moves(state)
        state = c.apply_unchecked(state, moves[rng.below(len(moves))])
        out.append(state)
    return out


@pytest.mark.parametrize("pack", ["standard", "tarot56", "tarot77", "tarot78"])
@pytest.mark.parametrize("window", ["turn_start", "after_move"])
def test_determinize_a_violating_flip(pack: str, window: str) -> None:
    # Bobcrapette's rules: a flip that leaves a compulsory move is the fault a call at the
    # next turn's start punishes (turn_start), or opens a Stop! decision (after_move). The
    # flipped card lies on the waste; the sample's prior hand has it on top, and the call
    # (lose_draw: the flip taken back) shows the caller the same position in both.
    rules = c.Ruleset.preset("bobcrapette").replace(pack=pack, call_window=window, move_cap=700)
    found = _faulty_flips(rules, range(6))
    assert len(found) >= 3
    rng = Rng(5)
    from_waste = 0  # faults whose flip turned the waste over first
    for state in found:
        pending = state.fault if state.fault is not None else state.stop
        assert pending is not None
        caller = state.to_act
        off = pending.offender
        view = observe(state, caller)
        assert (view.fault if window == "turn_start" else view.stop) is not None
        sample = determinize(view, rng)
        got = sample.fault if sample.fault is not None else sample.stop
        assert got is not None and got.move == c.FLIP
        if pending.prior.hands[off]:
            assert got.prior.hands[off][-1] == state.wastes[off][-1]
        else:
            from_waste += 1
            assert got.prior.wastes[off] == pending.prior.wastes[off]
            assert sample.hands[off] == state.hands[off]  # the waste turned over is known
        _check_determinize(state, rng)
        called = c.apply_unchecked(sample, c.CALL_STOP)
        assert observe(called, caller) == observe(c.apply_unchecked(state, c.CALL_STOP), caller)
    if (pack, window) == ("standard", "turn_start"):
        assert from_waste  # these deals reach a flip from a hand formed from the waste


def test_view_string_of_the_call_window() -> None:
    rules = c.Ruleset.preset("bobcrapette").replace(move_cap=700)
    state = next(s for s in _faulty_flips(rules, range(6)) if s.fault is not None)
    view = observe(state, state.to_act)
    text = view.to_string()
    assert VIEW_FORMAT == "view/2" and text.startswith("view/2 | bobcrapette(move_cap=700) | ")
    assert f" | window 1 | false_calls 00 | fault flip by {1 - state.to_act} resume " in text
    assert text.count("view/2 |") == 2  # the fault's prior view, inside brackets
    assert "\n" not in text
    # A view that differs only in the window, the false calls or the fault differs in text.
    for change in ({"window": False}, {"false_calls": (1, 0)}, {"fault": None}):
        assert attrs.evolve(view, **change).to_string() != text
    # Today's rules keep view/1, without the new fields.
    plain = observe(c.new_game(seed=3), 0).to_string()
    assert plain.startswith("view/1 |") and "window" not in plain


def test_tarot_cards_in_the_view_string() -> None:
    state = c.new_game(c.Ruleset.preset("tarot"), seed=1)
    view = observe(state, 0)
    text = view.to_string()
    assert text.startswith("view/1 | tarot | ")
    assert " | F - - - - - - - - - - | H " in text  # 10 empty foundations
    assert " | R0 12:10M | R1 12:3m | hands 60 60 | " in text  # trumps of both packs
    assert len(view.foundations) == 10
    assert sorted(view.hidden_cards() + tuple(view.visible_cards())) == list(PACKS["tarot77"].cards)


@pytest.mark.parametrize("player", [0, 1])
def test_a_view_prints_as_the_board_its_player_sees(player: int) -> None:
    state = c.new_game(seed=5)
    view = c.observe(state, player)
    text = board(view)
    assert str(view) == text
    assert text == board(state, hidden=True, bottom=player)
    assert text.splitlines()[-2].startswith(f"player {player}")  # the viewer at the bottom
    assert board(view, ascii=True, bottom=0, names=("a", "b")) == board(
        state, hidden=True, ascii=True, bottom=0, names=("a", "b")
    )
    assert "|" not in text and view.to_string().startswith("view/1 |")  # the machine form
