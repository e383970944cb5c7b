"""Match play (docs/rules.md "Matches"): races to a target, fixed numbers of deals, totals."""

from __future__ import annotations

import pytest

import crapette
from crapette.deal import Rng
from crapette.match import deal_seed


def _play_out(match: crapette.Match, rng: Rng) -> crapette.Match:
    while crapette.outcome(match.state) is None:
        moves = crapette.legal_moves(match.state)
        match = match.with_state(
            crapette.apply_unchecked(match.state, moves[rng.below(len(moves))])
        )
    return match


def _run(rules: crapette.Ruleset, seed: int, *, deals: int = 200) -> crapette.Match:
    """The match of random play-outs from ``seed``, stopped after ``deals`` deals at most."""
    match = crapette.new_match(rules, seed=seed)
    rng = Rng(seed)
    for _ in range(deals):
        match = _play_out(match, rng)
        if match.outcome() is not None:
            break
        match = match.next_deal()
    return match


@pytest.mark.parametrize("name", list(crapette.PRESETS))
def test_matches_end_and_totals_are_the_sum_of_the_deals(name: str) -> None:
    """Every preset's match ends; its totals are the sums of its deals' scores. (Random
    play-outs seldom finish a deal: capped at 600 moves, they are blocked deals, which
    ``blocked=draw`` scores 0 to both, so the match is played with its blocked deals scored;
    the next test plays them drawn.)"""
    rules = crapette.Ruleset.preset(name).replace(move_cap=600, blocked="scored")
    match = _run(rules, seed=7)
    result = match.outcome()
    assert result is not None
    deals = match._finished()
    assert result.deals == len(deals)
    assert result.totals == (
        sum(d.outcome.scores[0] for d in deals),
        sum(d.outcome.scores[1] for d in deals),
    )
    if rules.match_deals is not None:
        assert len(deals) == rules.match_deals
    if rules.match_target is not None:
        assert max(result.totals) >= rules.match_target
        before = [sum(d.outcome.scores[p] for d in deals[:-1]) for p in (0, 1)]
        assert max(before) < rules.match_target
    if result.totals[0] != result.totals[1]:
        assert result.winner == (0 if result.totals[0] > result.totals[1] else 1)
    else:
        assert result.winner is None


def test_drawn_blocked_deals_score_nothing_and_the_match_goes_on() -> None:
    """``blocked=draw`` [BOB]: a deal blocked at the move cap is a draw, 0 to both, so a
    match to 300 of such deals never reaches its target."""
    rules = crapette.Ruleset.preset("bobcrapette").replace(move_cap=50)
    match = _run(rules, seed=7, deals=12)
    assert match.outcome() is None and len(match.results) == 12
    assert all(r.outcome.scores == (0, 0) and r.outcome.winner is None for r in match.results)


def test_race_to_150_is_shorter_than_to_300() -> None:
    """[G4A] a match to 150; [BY, P] a match to 300."""
    g4a = _run(crapette.Ruleset.preset("g4a").replace(move_cap=600), seed=3).outcome()
    classic = _run(crapette.Ruleset.preset("classic").replace(move_cap=600), seed=3).outcome()
    assert g4a is not None and classic is not None
    assert max(g4a.totals) >= 150 and max(classic.totals) >= 300
    assert g4a.deals <= classic.deals


def test_five_deal_match_is_a_draw_on_equal_totals() -> None:
    """[SR] 5 deals, highest total wins; equal totals are a draw (decision)."""
    rules = crapette.Ruleset.preset("serbian").replace(move_cap=1)
    match = crapette.new_match(rules, seed=1)
    for _ in range(4):
        match = _play_out(match, Rng(0)).next_deal()
    match = _play_out(match, Rng(0))
    result = match.outcome()
    assert result is not None and result.deals == 5
    assert result.totals == (0, 0) and result.winner is None


def test_next_deal_is_explicit_and_checked() -> None:
    match = crapette.new_match(seed=5)
    with pytest.raises(crapette.CrapetteError, match="not over"):
        match.next_deal()
    finished = _play_out(match, Rng(5))
    second = finished.next_deal()
    assert second.number == 1 and len(second.results) == 1
    assert second.state.moves_made == 0
    assert second.state == crapette.new_game(seed=deal_seed(5, 1))


def test_alternate_starter_option() -> None:
    """match_starter=alternate: later deals alternate the starter (docs/rules.md, decision
    18)."""
    rules = crapette.Ruleset().replace(match_starter="alternate", move_cap=50)
    match = crapette.new_match(rules, seed=11)
    starters = [match.starter]
    for _ in range(4):
        match = _play_out(match, Rng(1)).next_deal()
        starters.append(match.starter)
        assert match.state.to_act == match.starter
    assert starters == [starters[0], 1 - starters[0]] * 2 + [starters[0]]


def test_rule_starter_applies_the_first_player_rule_to_each_deal() -> None:
    rules = crapette.Ruleset().replace(move_cap=50)
    match = crapette.new_match(rules, seed=11)
    for _ in range(3):
        match = _play_out(match, Rng(1)).next_deal()
        fresh = crapette.new_game(rules, seed=deal_seed(11, match.number))
        assert match.starter == fresh.to_act


def test_same_seed_same_match_and_bad_seed() -> None:
    assert crapette.new_match(seed=4) == crapette.new_match(seed=4)
    with pytest.raises(TypeError):
        crapette.new_match(seed="4")  # type: ignore[arg-type]


def test_repr_pastes_back_at_every_step_of_a_match() -> None:
    """``repr(match)`` is code that builds the same match (with ``import crapette``), before
    any move, in the middle of a deal and after finished deals."""
    import crapette
    from crapette.bots import GreedyBot, play_deal

    namespace = {"crapette": crapette}
    match = crapette.new_match("serbian(move_cap=300)", seed=3)
    seen = 0
    for _ in range(3):
        assert eval(repr(match), namespace) == match
        half = play_deal(match.state, (GreedyBot(1), GreedyBot(2)), max_moves=40)
        assert eval(repr(match.with_state(half)), namespace) == match.with_state(half)
        match = match.with_state(play_deal(half, (GreedyBot(1), GreedyBot(2))))
        assert eval(repr(match), namespace) == match
        seen = max(seen, len(match.results))
        if match.outcome() is not None:
            break
        match = match.next_deal()
    assert seen >= 2 and repr(match).startswith("crapette.Match(rules=crapette.parse_rules(")
