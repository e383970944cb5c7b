"""The sequential test between two bots: the pentanomial LLR, the stopping rule and
``crapette compare --sprt``."""

from __future__ import annotations

import json
import math

import pytest

from crapette.cli import main
from crapette.simulation import DealRecord
from crapette.simulation.errors import SimulationError
from crapette.simulation.sprt import (
    SprtResult,
    elo_of_score,
    llr,
    pentanomial,
    score_of_elo,
    sprt,
    wald_bounds,
)


def _record(deal: int, winner_bot: int | None) -> DealRecord:
    """A deal record whose winning bot is ``winner_bot`` (A is player ``deal % 2``)."""
    player0 = deal % 2
    winner = None if winner_bot is None else winner_bot ^ player0
    reason = "stalemate" if winner is None else "win"
    return DealRecord(deal, 1, "classic", player0, 0, winner, (0, 0), reason, 10, 2)


def test_elo_and_score_are_inverse() -> None:
    assert score_of_elo(0) == 0.5
    assert score_of_elo(400) == pytest.approx(10 / 11)
    for elo in (-300.0, -50.0, 0.0, 35.0, 200.0):
        assert elo_of_score(score_of_elo(elo)) == pytest.approx(elo)
    assert elo_of_score(1.0) == math.inf and elo_of_score(0.0) == -math.inf


def test_wald_bounds() -> None:
    lower, upper = wald_bounds(0.05, 0.05)
    assert lower == pytest.approx(math.log(0.05 / 0.95))
    assert upper == pytest.approx(math.log(0.95 / 0.05))
    low2, up2 = wald_bounds(0.05, 0.10)
    assert up2 < upper and low2 > lower  # a larger beta: H1 is easier to accept


def test_pentanomial_counts_pairs_by_score() -> None:
    records = [
        _record(0, 0), _record(1, 0),  # A wins both: 2 points
        _record(2, 0), _record(3, 1),  # split: 1 point
        _record(4, None), _record(5, 1),  # a stalemate and a loss: 1/2
        _record(6, 1), _record(7, 1),  # two losses: 0
        _record(8, 0), _record(9, None),  # a win and a stalemate: 3/2
        _record(10, 0),  # a pair cut short: not counted
    ]  # fmt: skip
    assert pentanomial(records) == (1, 1, 1, 1, 1)
    assert pentanomial(list(reversed(records))) == (1, 1, 1, 1, 1)


def test_llr_favours_the_hypothesis_the_pairs_fit() -> None:
    strong = (1, 4, 10, 20, 5)  # mean pair score 0.65 per deal: about +108 Elo
    weak = (5, 20, 10, 4, 1)
    even = (3, 10, 14, 10, 3)
    assert llr(strong, 0, 50) > 0 > llr(weak, 0, 50)
    assert abs(llr(even, -25, 25)) < 1e-6  # symmetric counts, symmetric hypotheses
    assert llr((0, 0, 0, 0, 0), 0, 50) == 0.0
    # More of the same evidence: a larger ratio.
    assert llr(tuple(3 * n for n in strong), 0, 50) > llr(strong, 0, 50)
    # Swapping the hypotheses flips the sign.
    assert llr(strong, 50, 0) == pytest.approx(-llr(strong, 0, 50))


def test_llr_matches_the_constrained_maximum_directly() -> None:
    """The LLR is the log ratio of the two most likely distributions with the hypotheses'
    means: check the distributions it implies sum to 1 and have those means."""
    from crapette.simulation.sprt import PAIR_SCORES, _frequencies, _lagrange

    counts = (2, 7, 15, 9, 4)
    freqs = _frequencies(counts)
    total = 0.0
    for elo, sign in ((60.0, 1.0), (-10.0, -1.0)):
        s = score_of_elo(elo)
        lam = _lagrange(freqs, s)
        p = [f / (1 + lam * (x - s)) for f, x in zip(freqs, PAIR_SCORES, strict=True)]
        assert sum(p) == pytest.approx(1.0, abs=1e-9)
        assert sum(pk * x for pk, x in zip(p, PAIR_SCORES, strict=True)) == pytest.approx(s)
        total += sign * sum(n * math.log(pk) for n, pk in zip(counts, p, strict=True))
    assert llr(counts, -10, 60) == pytest.approx(total)


def test_llr_refuses_bad_input() -> None:
    with pytest.raises(SimulationError, match="five"):
        llr((1, 2, 3), 0, 10)
    with pytest.raises(SimulationError, match="finite"):
        llr((1, 1, 1, 1, 1), 0, math.inf)


def test_sprt_accepts_h1_for_a_much_stronger_bot() -> None:
    result = sprt("classic", "greedy,random", seed=1, elo1=100, batch=10, max_games=200)
    assert isinstance(result, SprtResult)
    assert result.decision == "H1"
    assert result.llr >= result.upper
    assert result.counts[4] == result.pairs  # greedy wins every deal
    assert result.games % 2 == 0 and result.games <= 200
    assert [g for g, _ in result.history] == list(range(10, result.games + 1, 10))
    assert "H1 accepted" in result.summary()
    # The same arguments, the same decision after the same deals.
    again = sprt("classic", "greedy,random", seed=1, elo1=100, batch=10, max_games=200)
    assert again.records == result.records and again.llr == result.llr


def test_sprt_accepts_h0_for_a_much_weaker_bot() -> None:
    result = sprt("classic", "random,greedy", seed=1, elo0=0, elo1=50, batch=10, max_games=200)
    assert result.decision == "H0"
    assert result.llr <= result.lower
    assert result.counts[0] == result.pairs


def test_sprt_stops_at_the_deal_limit() -> None:
    result = sprt("classic", "greedy,greedy", seed=3, elo0=-5, elo1=5, batch=4, max_games=8)
    assert result.decision is None and result.games == 8
    assert "inconclusive" in result.summary()
    data = json.loads(json.dumps(result.to_dict()))
    assert data["pentanomial"] == list(result.counts) and len(data["records"]) == 8


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"elo0": 10, "elo1": 10}, "below"),
        ({"alpha": 0.7}, "alpha"),
        ({"beta": 0}, "beta"),
        ({"batch": 3}, "even"),
        ({"max_games": 0}, "max_games"),
        ({"elo1": float("nan")}, "finite"),
    ],
)
def test_sprt_refuses_bad_arguments(kwargs: dict[str, float], match: str) -> None:
    with pytest.raises(SimulationError, match=match):
        sprt("classic", "greedy,random", **kwargs)  # type: ignore[arg-type]


def test_compare_sprt_command(capsys: pytest.CaptureFixture[str]) -> None:
    test = ["compare", "--bots", "greedy,random", "--sprt", "--games", "10", "--no-progress"]
    code = main([*test, "--elo1", "100", "--max-games", "100", "--seed", "2"])
    out = capsys.readouterr().out
    assert code == 0
    assert "SPRT greedy vs random on classic" in out and "H1 accepted" in out
    assert "alpha 0.05" in out and "pairs scoring" in out
    code = main([*test, "--max-games", "40", "--json", "-"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["decision"] in ("H1", None) and data["bots"] == ["greedy", "random"]


def test_compare_sprt_takes_one_ruleset(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["compare", "--sprt", "--rules", "classic", "--rules", "pagat"])
    assert code == 1
    assert "one ruleset" in capsys.readouterr().err
