"""What a frontend reads (issue 23): seeds as strings in JSON (the Match document and the
web payloads), a resignation as an outcome with a winner and a score (decision 20), and
the strict types of the library's own move constructor."""

from __future__ import annotations

import json

import pytest

import crapette
from crapette.errors import InvalidArgumentError, InvalidMoveError, MatchError, NotationError
from crapette.moves import Move
from crapette.outcome import resignation

BIG = 2**62 + 12345
"""A seed a JavaScript ``JSON.parse`` cannot hold exactly (above 2**53)."""


def played(seed: int, moves: int = 3) -> crapette.Match:
    match = crapette.new_match(seed=seed)
    for _ in range(moves):
        match = match.play(crapette.legal_moves(match.state)[0])
    return match


# ---------------------------------------------------------------------------- seeds


def test_a_match_document_writes_its_seeds_as_strings_and_reads_both() -> None:
    match = played(BIG)
    match = match.with_state(match.state)
    text = crapette.to_json(match)
    doc = json.loads(text)
    assert doc["version"] == 2
    assert doc["match"]["seed"] == str(BIG)
    assert crapette.from_json(text) == match
    # version 1, integers: still read
    old = json.loads(text)
    old["version"] = 1
    old["match"]["seed"] = BIG
    del old["match"]["resigned"]
    assert crapette.from_json(json.dumps(old)) == match
    # an integer in a version 2 document is read too
    doc["match"]["seed"] = BIG
    assert crapette.from_json(json.dumps(doc)) == match


def test_finished_deals_carry_string_seeds() -> None:
    match = crapette.new_match("serbian", seed=BIG)
    for _ in range(20_000):
        moves = crapette.legal_moves(match.state)
        if not moves:
            break
        match = match.play(moves[-1] if len(moves) > 1 else moves[0])
    assert crapette.outcome(match.state) is not None, "the deal did not end"
    match = match.next_deal()
    doc = json.loads(crapette.to_json(match))
    (result,) = doc["match"]["results"]
    assert result["seed"] == str(crapette.match.deal_seed(BIG, 0))
    assert crapette.from_json(json.dumps(doc)) == match
    result["seed"] = int(result["seed"])
    assert crapette.from_json(json.dumps(doc)) == match


@pytest.mark.parametrize("seed", ["", "+5", "05", "-0", "1e5", " 5", "5 ", "1" * 41, 5.0, True])
def test_malformed_seeds_are_refused_by_name(seed: object) -> None:
    doc = json.loads(crapette.to_json(played(4)))
    doc["match"]["seed"] = seed
    with pytest.raises(NotationError, match=r"match\.seed"):
        crapette.from_json(json.dumps(doc))


# ---------------------------------------------------------------------------- resignation


def test_a_resignation_is_an_outcome_with_a_winner_and_its_score() -> None:
    """Decision 20: the opponent wins the deal, scored as a win with the cards where they
    lie, and the match whatever the totals."""
    match = played(7, moves=5)
    state = match.state
    resigner = state.to_act
    rules = state.rules
    holder = state.turn_player if state.turned is not None else -1
    expected = (
        rules.win_bonus
        + rules.reserve_points * len(state.reserves[resigner])
        + rules.hand_points
        * (len(state.hands[resigner]) + len(state.wastes[resigner]) + (holder == resigner))
    )
    over = match.resign(resigner)
    last = over.results[-1].outcome
    assert last.reason == "resigned" and last.winner == 1 - resigner
    assert last.scores[1 - resigner] == expected and last.scores[resigner] == 0
    assert last == resignation(state, resigner)
    done = over.outcome()
    assert done is not None and done.winner == 1 - resigner and done.resigned == resigner
    assert done.totals == over.totals and done.deals == 1
    assert crapette.outcome(over.state) is None  # the position itself is not over
    for step in (lambda: over.play(crapette.legal_moves(state)[0]), over.next_deal):
        with pytest.raises(MatchError, match="resigned"):
            step()
    with pytest.raises(MatchError):
        over.resign(1 - resigner)
    with pytest.raises(MatchError, match="0 or 1"):
        match.resign(True)  # type: ignore[arg-type]
    assert crapette.from_json(crapette.to_json(over)) == over


def test_resigning_between_deals_adds_no_deal_and_the_opponent_wins_even_when_behind() -> None:
    match = crapette.new_match("classic(match_target=1000)", seed=12)
    for _ in range(20_000):
        moves = crapette.legal_moves(match.state)
        if not moves:
            break
        match = match.play(moves[0])
    ended = crapette.outcome(match.state)
    assert ended is not None and ended.winner is not None
    leader = ended.winner
    finished = match.results
    over = match.resign(leader)  # the deal is over, the next not dealt: no deal is added
    assert over.results == finished
    done = over.outcome()
    assert done is not None and done.winner == 1 - leader and done.deals == 1
    assert done.totals[leader] > done.totals[1 - leader]
    with pytest.raises(InvalidArgumentError, match="over"):
        resignation(match.state, 0)
    assert crapette.from_json(crapette.to_json(over)) == over
    # at the start of the next deal, the resigned deal counts
    second = match.next_deal().resign(leader)
    assert len(second.results) == 2 and second.results[-1].outcome.reason == "resigned"


def test_a_resigned_match_document_is_checked() -> None:
    doc = json.loads(crapette.to_json(played(3)))
    for bad in (2, True, "0"):
        doc["match"]["resigned"] = bad
        with pytest.raises(NotationError, match=r"match\.resigned"):
            crapette.from_json(json.dumps(doc))


# ---------------------------------------------------------------------------- strict types


@pytest.mark.parametrize(
    "args", [(1.0, 2), (True, 2), (1, 2.0), (1, True), (1, 2, 1.0), (1, 2, True), ("1", 2)]
)
def test_move_play_refuses_bools_and_floats(args: tuple[object, ...]) -> None:
    with pytest.raises(InvalidMoveError, match="no such move"):
        Move.play(*args)  # type: ignore[arg-type]
    assert Move.play(1, 2) == crapette.moves.ALL_MOVES[Move.play(1, 2).index]


# ---------------------------------------------------------------------------- private helpers


def test_the_servers_helpers_are_private() -> None:
    """The server's helpers are private, and the names they had before the first release
    are gone (0.1.0 was never published: no deprecation shim)."""
    pytest.importorskip("fastapi")
    import crapette.web.session as session

    assert set(session.__all__) == {"MAX_SEARCH_BUDGET", "Game", "WebError"}
    for name in ("hash_token", "check_opponent", "parse_rules", "RECENT_MOVES"):
        with pytest.raises(AttributeError):
            getattr(session, name)
    assert len(session._hash_token("x")) == 64
