"""docs/rules.md "The end of a deal and the score": the win and its score, the stalemate (decision
10) and its score, the move cap (decision 11) and scoring details (decision 13), with every
scoring weight option (``win_bonus``, ``reserve_points``, ``hand_points``, ``move_cap``)."""

from __future__ import annotations

import pytest

import crapette as c
from crapette.moves import HAND, RESERVE, WASTE
from positions import cards, names, play, position, quiet, random_states

CLASSIC = c.Ruleset()

# --- a blocked layout: nothing but draw and discard is ever possible --------------------
# Foundations A..6 of all 8 suits take only the 7s, hidden face down in the reserves (each
# player's own four, under player 0's KH and player 1's KD); the houses are the eight 8s on
# the eight 9s (they take only 7s); player 0 holds spades and hearts T..K (four of its own
# face down in its reserve), player 1 diamonds and clubs T..K, so nobody can load the
# other, and no 7 or 9 ever shows on a waste or reserve for a house 8 to be loaded on.
FOUNDATIONS = [" ".join(f"{r}{s}" for r in "A23456") for s in "SHDCshdc"]
HOUSES = ["9H 8S", "9D 8C", "9S 8H", "9C 8D", "9h 8s", "9d 8c", "9s 8h", "9c 8d"]


def high(suits: str, without: str = "") -> str:
    """Cards T..K of the given suit letters, both packs, minus ``without``."""
    out = [f"{r}{s}" for s in suits + suits.lower() for r in "TJQK"]
    return " ".join(x for x in out if x not in without.split())


def blocked(**kw: object) -> c.GameState:
    """The blocked layout: player 0's reserve holds 9 cards, player 1's 5; the hands the
    rest of the high cards (player 0's 11, player 1's 15) unless given."""
    spec: dict[str, object] = {
        "foundations": FOUNDATIONS,
        "houses": HOUSES,
        "reserve0": "7S 7H 7D 7C TS JS QS TH KH",
        "reserve1": "7s 7h 7d 7c KD",
        "rest": (),
    }
    spec.update(kw)
    written = f"{spec['reserve0']} {spec['reserve1']}"
    spec.setdefault("hand0", high("SH", without=written))
    spec.setdefault("hand1", high("DC", without=written))
    return position(**spec)  # type: ignore[arg-type]


def run_forced(state: c.GameState, prefer: str = "") -> tuple[c.GameState, list[int]]:
    """Play until the deal ends, taking ``prefer`` when legal, else the only legal move
    (draw or discard); return the final state and the move numbers at which a player
    turned their waste over."""
    turnovers = []
    while c.outcome(state) is None:
        legal = names(state)
        if prefer in legal:
            state = play(state, prefer)
            continue
        assert len(legal) == 1 and legal[0] in ("draw", "discard", "end"), legal
        if legal == ["draw"] and not state.hands[state.to_act]:
            turnovers.append(state.moves_made)
        state = play(state, legal[0])
    return state, turnovers


def test_stalemate_after_both_players_pass_through_their_hand() -> None:
    """Stalemate [G4A, P] and decision 10: "The deal is blocked once both players have
    completed a full pass since the last progress by either"; a pass ends when the player
    turns the waste over. Scoring [BY, G4A, P]: 2 per own reserve card, 1 per own hand and
    waste card (a turned card counts as a hand card, decision 13); "the lower count scores
    the difference; no 30 bonus"; no winner."""
    state = blocked()
    end, turnovers = run_forced(state)
    assert len(turnovers) == 2  # player 0's, then player 1's: then it is over
    assert end.turned is not None and end.to_act == 1
    result = c.outcome(end)
    # Player 0: 9 reserve cards, 11 hand cards (29); player 1: 5 reserve cards, 15 (25).
    assert result == c.Outcome(None, (0, 4), "stalemate")
    assert c.legal_moves(end) == () and c.is_over(end)


def test_progress_restarts_the_stalemate_count() -> None:
    """Decision 10: "Progress is playing a card from your own reserve, turned hand card or
    own waste anywhere but your own waste" (here player 1 loads the Qh on player 0's
    reserve): both players must then complete two more passes."""
    state = blocked(
        hand0=high("SH", without="KH Qh TS JS QS TH"), hand1=high("DC", without="KD") + " Qh"
    )
    end, turnovers = run_forced(state, prefer="T-OR")
    # two clean passes each after the progress: player 0 (10 cards) turns its waste over a
    # third time while player 1 (16 cards) completes its second
    assert len(turnovers) == 5
    assert end.reserves[0][-1] == c.Card("Qh")
    # Player 0: 10 reserve cards + 10 = 30; player 1: 5 reserve cards + 15 = 25.
    assert c.outcome(end) == c.Outcome(None, (0, 5), "stalemate")


def test_stalemate_with_end_of_turn_moves() -> None:
    """Decision 10: a pass also ends when a player "end[s] a turn with hand and waste
    empty"."""
    own = "7S 7H 7D 7C TS JS QS KS TH JH QH TD JD QD TC JC QC KC"  # face down: own cards
    state = blocked(
        reserve0=own + " KH",
        reserve1="7s 7h 7d 7c Ts Js Qs Ks Th Jh Qh Td Jd Qd Tc Jc Qc Kc Kh Kd KD",  # KD face up
        hand0="",
        hand1="",
    )
    assert names(state) == ["end"]
    after = play(state, "end")
    assert c.outcome(after) is None
    after = play(after, "end")
    # Player 0: 19 reserve cards (38); player 1: 21 (42).
    assert c.outcome(after) == c.Outcome(None, (4, 0), "stalemate")


def test_stalemate_equal_counts_score_nothing() -> None:
    """ "equal counts score nothing" [BY, G4A, P]."""
    state = blocked(reserve0="7S 7H 7D 7C KH", reserve1="7s 7h 7d 7c KD")
    end, _ = run_forced(state)
    assert c.outcome(end) == c.Outcome(None, (0, 0), "stalemate")


def test_stalemate_scoring_weights() -> None:
    """``reserve_points`` and ``hand_points`` set the count; no ``win_bonus`` in a
    stalemate."""
    rules = CLASSIC.replace(reserve_points=5, hand_points=3, win_bonus=100)
    end, _ = run_forced(blocked(rules=rules))
    # Player 0: 9 * 5 + 11 * 3 = 78; player 1: 5 * 5 + 15 * 3 = 70.
    assert c.outcome(end) == c.Outcome(None, (0, 8), "stalemate")


# --- wins ------------------------------------------------------------------------------


def win_position(rules: c.Ruleset = CLASSIC, **kw: object) -> c.GameState:
    """Player 0 has only the turned 5H, which goes on the 4H foundation; player 1 has a
    2-card reserve, a 1-card waste and every other card in the hand."""
    spec: dict[str, object] = {
        "houses": quiet(),
        "foundations": {0: "AH 2H 3H 4H"},
        "turned": "5H",
        "reserve1": "2c 3c",
        "waste1": "4C",
        "rest": "hand1",
        "rules": rules,
    }
    spec.update(kw)
    return position(**spec)  # type: ignore[arg-type]


def test_win_at_once_when_reserve_hand_and_waste_are_empty() -> None:
    """ "A player who has emptied reserve, hand and waste wins the deal at once" [all]; a
    turned hand card counts as a hand card (decision 13), so not before it is played."""
    state = win_position()
    assert c.outcome(state) is None and names(state) == ["T-F"]
    after = play(state, "T-F")
    result = c.outcome(after)
    assert result is not None and result.winner == 0 and result.reason == "win"
    assert c.legal_moves(after) == () and c.is_over(after)
    with pytest.raises(c.IllegalMoveError, match="the deal is over"):
        c.apply(after, c.DRAW)


def test_win_score() -> None:
    """ "Winner scores 30, plus 2 per card in the opponent's reserve, plus 1 per card in the
    opponent's hand and waste" [all]."""
    after = play(win_position(), "T-F")
    # Player 1 holds every card but the 5 foundation cards, the 8 houses, 2 reserve cards
    # and 1 waste card: 88 in the hand.
    assert len(after.hands[1]) == 88 and after.reserves[1] == cards("2c 3c")
    assert c.outcome(after) == c.Outcome(0, (30 + 2 * 2 + 88 + 1, 0), "win")


def test_win_score_weights() -> None:
    """``win_bonus``, ``reserve_points`` and ``hand_points`` set the win score."""
    rules = CLASSIC.replace(win_bonus=50, reserve_points=3, hand_points=2)
    after = play(win_position(rules), "T-F")
    hand1 = len(after.hands[1])
    assert c.outcome(after) == c.Outcome(0, (50 + 3 * 2 + 2 * (hand1 + 1), 0), "win")


def test_win_with_the_last_reserve_card_mid_turn() -> None:
    """The win comes "at once", whatever else could still be played (here player 0 has
    other moves left: the win ends the deal)."""
    state = position(houses=quiet({1: "TD", 4: "", 5: ""}), reserve0="9C", rest="hand1")
    assert c.outcome(state) is None
    after = play(state, "R-H2")
    result = c.outcome(after)
    assert result is not None and result.winner == 0
    assert result.scores == (30 + len(after.hands[1]), 0)


def test_win_for_player_one() -> None:
    """Wins and scores are the same for player 1."""
    state = win_position(
        turned="5h", reserve1="", waste1="", reserve0="2C 3C", waste0="4C", rest="hand0", to_act=1
    )
    after = play(state, "T-F")
    assert c.outcome(after) == c.Outcome(1, (0, 30 + 4 + len(after.hands[0]) + 1), "win")


# --- the move cap (decision 11) --------------------------------------------------------


def test_move_cap_ends_the_deal_scored_as_a_stalemate() -> None:
    """Decision 11: "every applied move counts ...; reaching it ends the deal scored as a
    stalemate"; decision 13: "a turned hand card counts as a hand card" and "the move cap
    [has] no winner"."""
    state = blocked(rules=CLASSIC.replace(move_cap=3))
    after = play(state, "draw", "discard")
    assert c.outcome(after) is None and after.moves_made == 2
    after = play(after, "draw")  # player 1 turns a card: 3 moves
    result = c.outcome(after)
    # Player 0: 9 reserve cards, 10 hand + 1 waste (29); player 1: 5, 14 + turned (25).
    assert result == c.Outcome(None, (0, 4), "move_cap")
    assert after.turned is not None and c.legal_moves(after) == ()


def test_move_cap_counts_stop_decisions() -> None:
    """Decision 11: "every applied move counts (Stop decisions too)"."""
    rules = c.Ruleset.preset("pagat").replace(move_cap=2)
    state = position(houses=quiet({1: "TD", 2: "AS"}), reserve0="5H 9C", hand0="2C", rules=rules)
    after = play(state, "R-H2")
    assert after.stop is not None and c.outcome(after) is None
    after = play(after, "pass")
    result = c.outcome(after)
    assert result is not None and result.reason == "move_cap" and result.winner is None


def test_default_move_cap() -> None:
    """Decision 11: "20,000 by default"."""
    assert CLASSIC.move_cap == 20_000
    state = blocked(moves_made=19_999)
    after = play(state, "draw")
    assert c.outcome(after) is not None and c.outcome(after).reason == "move_cap"  # type: ignore[union-attr]


def test_no_outcome_while_the_deal_runs() -> None:
    """``outcome`` is ``None`` while the deal runs."""
    state = c.new_game(seed=3)
    assert c.outcome(state) is None and not c.is_over(state)


@pytest.mark.parametrize(
    ("source", "rules"),
    [(RESERVE, "classic"), (HAND, "classic"), (WASTE, "serbian"), (RESERVE, "serbian")],
)
def test_a_card_played_from_reserve_turned_card_or_waste_is_progress(
    source: int, rules: str
) -> None:
    """Decision 10: "progress is playing a card from your own reserve, turned card or own
    waste anywhere but your own waste": it clears both players' pass marks, whatever they
    were. A card moved between houses is not progress."""
    played = 0
    for seed in range(1, 4):
        for state in random_states(rules, seed)[::7]:
            for move in c.legal_moves(state):
                if not move.is_play or move.source != source:
                    continue
                for marks in ((1, 2), (2, 1), (1, 1)):
                    after = c.apply(state.replace(passes=marks), move)
                    assert after.passes == (0, 0), (str(move), marks)
                played += 1
                break
    assert played >= 10  # the walk met such moves
    houses = 0
    for state in random_states(rules, 5)[::5]:
        for move in c.legal_moves(state):
            if move.is_play and move.source < 8 and move.target < 8:
                after = c.apply(state.replace(passes=(1, 2)), move)
                assert after.passes == (1, 2)
                houses += 1
    assert houses > 0
