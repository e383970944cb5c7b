"""Match play (docs/rules.md "Matches"): races to a target, fixed numbers of deals, totals."""

from __future__ import annotations

import json
from typing import Any

import pytest

import crapette
from crapette.bots import GreedyBot, play_deal
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


# --------------------------------------------------------------------------------------
# Matches saved and resumed


def _play_match(rules: crapette.Ruleset, seed: int) -> list[crapette.Match]:
    """Every match value from the first move to the end, deal after deal."""
    match = crapette.new_match(rules, seed=seed)
    rng = Rng(seed)
    out = [match]
    while True:
        while crapette.outcome(match.state) is None:
            moves = crapette.legal_moves(match.state)
            match = match.play(moves[rng.below(len(moves))])
            out.append(match)
        if match.outcome() is not None:
            return out
        match = match.next_deal()
        out.append(match)


@pytest.mark.parametrize(
    "rules",
    [
        crapette.Ruleset().replace(move_cap=60, match_target=90),
        crapette.Ruleset.preset("serbian").replace(move_cap=40, match_deals=3),
        crapette.Ruleset.preset("pagat").replace(
            move_cap=50, match_target=60, match_starter="alternate"
        ),
    ],
    ids=["classic", "serbian", "pagat-alternate"],
)
def test_a_match_in_progress_is_saved_and_resumed(rules: crapette.Ruleset) -> None:
    matches = _play_match(rules, seed=4)
    assert matches[-1].number >= 1  # more than one deal was played
    for match in matches[::7] + matches[-3:]:
        text = crapette.to_json(match)
        resumed = crapette.from_json(text)
        assert resumed == match
        assert isinstance(resumed, crapette.Match)
        assert resumed.results == match.results and resumed.totals == match.totals
        assert resumed.outcome() == match.outcome()
        assert json.loads(text)["type"] == "match"
    # A resumed match goes on exactly like the original.
    middle = len(matches) // 2
    resumed = crapette.from_json(crapette.to_json(matches[middle]))
    assert isinstance(resumed, crapette.Match)
    assert (
        resumed.play(crapette.legal_moves(resumed.state)[0])
        == matches[middle].play(crapette.legal_moves(matches[middle].state)[0])
        or crapette.outcome(resumed.state) is not None
    )


def test_results_include_the_last_deal_once_the_match_is_over() -> None:
    final = _play_match(crapette.Ruleset().replace(move_cap=60, match_target=90), seed=4)[-1]
    result = final.outcome()
    assert result is not None
    assert len(final.results) == result.deals == final.number + 1
    last = final.results[-1]
    assert last.outcome == crapette.outcome(final.state)
    assert last.seed == deal_seed(final.seed, final.number)
    assert result.totals == (
        sum(r.outcome.scores[0] for r in final.results),
        sum(r.outcome.scores[1] for r in final.results),
    )


@pytest.mark.parametrize(
    ("path", "value", "words"),
    [
        (("results", 0, "scores"), [0, 10**6], "over before this deal"),
        (("results", 0, "seed"), 12345, "this deal's seed"),
        (("results", 0, "reason"), "resigned", "reason"),
        (("results", 0, "reason"), "swap", "winner exactly when"),
        (("starter",), "flip", "starter"),
        (("results", 1, "starter"), "flip", r"results\[1\].starter"),
        (("seed",), 1.5, "seed"),
        (("rules",), "serbian", "not the match's rules"),
        (("results",), {}, "results"),
    ],
)
def test_a_tampered_match_is_refused(path: tuple[Any, ...], value: Any, words: str) -> None:
    matches = _play_match(crapette.Ruleset().replace(move_cap=60, match_target=90), seed=4)
    match = next(m for m in matches if m.number >= 2)
    doc = json.loads(crapette.to_json(match))
    target = doc["match"]
    for key in path[:-1]:
        target = target[key]
    if value == "flip":
        value = 1 - target[path[-1]]
    if value == "swap":
        value = "stalemate" if target["winner"] is not None else "win"
    target[path[-1]] = value
    with pytest.raises(crapette.NotationError, match=words):
        crapette.from_json(json.dumps(doc))


# --------------------------------------------------------------------------------------
# A match ends when a total reaches the target


def _first_deal(target: int) -> crapette.Match:
    """The first deal of a match to ``target`` (seed 11), played to its end by two greedy
    bots (the deal does not depend on the target)."""
    match = crapette.new_match(f"classic(match_target={target})", seed=11)
    return match.with_state(play_deal(match.state, (GreedyBot(1), GreedyBot(2))))


def test_a_match_ends_when_a_total_reaches_the_target_exactly() -> None:
    """docs/rules.md, matches: the match ends once a player's total *reaches* the target
    (``>=``): a deal that brings the winner exactly to it ends the match."""
    result = crapette.outcome(_first_deal(10**6).state)
    assert result is not None and result.winner is not None
    points = max(result.scores)
    for target, over in ((points, True), (points + 1, False), (points - 1, True)):
        match = _first_deal(target)
        assert match.totals == result.scores
        decided = match.outcome()
        assert (decided is not None) is over, (target, points)
        if decided is not None:
            assert decided.winner == result.winner and decided.totals == result.scores
            with pytest.raises(crapette.MatchError, match="the match is over"):
                match.next_deal()
        else:
            assert match.next_deal().number == 1
