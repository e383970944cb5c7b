"""crapette.stats against values worked out by hand: rates at the effective sample size of
the pairs, cluster-robust means and paired differences, the cluster bootstrap."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from crapette.simulation import DealRecord, stats


def test_wilson_interval_known_values() -> None:
    assert stats.wilson_interval(50, 100) == (
        pytest.approx(0.4038, abs=1e-4),
        pytest.approx(0.5962, abs=1e-4),
    )
    assert stats.wilson_interval(20, 20)[0] == pytest.approx(0.8389, abs=1e-4)
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)


def test_independent_deals_give_wilson_at_n_minus_one() -> None:
    # 100 one-deal clusters, 50 successes: the cluster-robust variance is G/(G-1) times the
    # binomial one, so the effective sample size is 99.
    num = [1.0] * 50 + [0.0] * 50
    got = stats.ratio_interval(num, [1.0] * 100, rate=True)
    assert got.value == 0.5 and got.n == 100
    assert (got.low, got.high) == pytest.approx(stats.wilson_interval(49.5, 99))


def test_pairs_that_agree_count_as_one_deal_each() -> None:
    # 50 pairs whose two deals always agree: as informative as 49 independent deals.
    num = [2.0] * 25 + [0.0] * 25
    got = stats.ratio_interval(num, [2.0] * 50, rate=True)
    assert (got.low, got.high) == pytest.approx(stats.wilson_interval(24.5, 49))
    naive = stats.wilson_interval(50, 100)
    assert got.high - got.low > naive[1] - naive[0]


def test_pairs_that_always_split_fall_back_to_plain_wilson() -> None:
    got = stats.ratio_interval([1.0] * 40, [2.0] * 40, rate=True)
    assert (got.low, got.high) == pytest.approx(stats.wilson_interval(40, 80))


def test_cluster_robust_mean_of_singletons_is_the_textbook_interval() -> None:
    values = [float(x) for x in range(1, 11)]
    got = stats.ratio_interval(values, [1.0] * 10)
    half = stats.Z95 * statistics.stdev(values) / math.sqrt(10)
    assert got.value == 5.5
    assert (got.low, got.high) == pytest.approx((5.5 - half, 5.5 + half))
    assert got.half_width == pytest.approx(1.8765, abs=1e-4)


def test_one_cluster_has_no_interval() -> None:
    got = stats.ratio_interval([3.0], [2.0])
    assert got.value == 1.5 and math.isnan(got.low) and got.half_width == math.inf
    assert got.to_dict() == {"value": 1.5, "low": None, "high": None, "n": 2}
    assert got.format() == "1.5 [-, -]"


def _rec(seed: int, deal: int, **kw: object) -> DealRecord:
    base: dict[str, object] = {
        "deal": deal,
        "seed": seed,
        "rules": "classic",
        "player0": deal % 2,
        "starter": 0,
        "winner": 0,
        "scores": (10, 0),
        "reason": "win",
        "moves": 100,
        "turns": 10,
    }
    base.update(kw)
    return DealRecord(**base)  # type: ignore[arg-type]


def test_paired_difference_of_a_constant_shift_is_exact() -> None:
    base = [_rec(s, 2 * s + k, moves=100 + 7 * s + k) for s in range(30) for k in (0, 1)]
    other = [_rec(r.seed, r.deal, moves=r.moves + 12) for r in base]
    diff = stats.paired_differences(base, other)["moves"]
    assert diff.value == pytest.approx(12) and diff.half_width == pytest.approx(0, abs=1e-9)
    same = stats.paired_differences(base, base)
    assert all(v.value == 0 and v.half_width == pytest.approx(0) for v in same.values())


def test_paired_difference_is_the_paired_t_interval_for_singletons() -> None:
    d = [1.0, 2.0, 3.0, 4.0, 7.0]
    base = [_rec(s, 2 * s, moves=50) for s in range(5)]
    other = [_rec(s, 2 * s, moves=50 + int(x)) for s, x in enumerate(d)]
    got = stats.paired_differences(base, other)["moves"]
    half = stats.Z95 * statistics.stdev(d) / math.sqrt(5)
    assert got.value == pytest.approx(3.4) and got.half_width == pytest.approx(half)


def test_differences_use_only_shared_shuffles() -> None:
    base = [_rec(s, s, moves=10 * s) for s in range(6)]
    other = [_rec(s, s, moves=10 * s + 1) for s in range(3, 9)]
    got = stats.paired_differences(base, other)["moves"]
    # n counts the deals of each side (3 shared shuffles of one deal), as a run's own figures
    assert got.value == pytest.approx(1) and got.n == 3


def test_cluster_bootstrap_known_cases() -> None:
    assert stats.cluster_bootstrap([[5.0], [5.0], [5.0]]).format() == "5.0 [5.0, 5.0]"
    singles = [[float(x)] for x in range(1, 102)]
    got = stats.cluster_bootstrap(singles)
    assert got.value == 51.0 and got.n == 101
    # the distribution-free interval for a median of 101 is about order statistics 41..61
    assert 38 <= got.low <= 45 and 57 <= got.high <= 64
    assert stats.cluster_bootstrap(singles) == got  # a fixed seed: the same numbers
    # each value twice in one cluster: no more information than once, the same interval
    doubled = stats.cluster_bootstrap([[x[0], x[0]] for x in singles])
    assert (doubled.low, doubled.high) == (got.low, got.high) and doubled.n == 202


def test_woodruff_median_known_cases() -> None:
    singles = [[float(x)] for x in range(1, 102)]
    got = stats.woodruff_median(singles)
    assert got.value == 51.0 and got.n == 101
    # about order statistics 41..61, as the distribution-free interval and the bootstrap
    assert 40 <= got.low <= 43 and 59 <= got.high <= 62
    # each value twice in one cluster: no more information than once, about the same
    # interval (the quantiles of 202 values interpolate a little differently)
    doubled = stats.woodruff_median([[x[0], x[0]] for x in singles])
    assert (doubled.low, doubled.high) == pytest.approx((got.low, got.high), abs=0.5)
    assert doubled.n == 202
    # the same values as 202 independent deals: a narrower interval
    apart = stats.woodruff_median([[x[0]] for x in singles for _ in range(2)])
    assert doubled.low < apart.low and apart.high < doubled.high
    one = stats.woodruff_median([[1.0, 2.0, 3.0]])
    assert one.value == 2.0 and math.isnan(one.low) and math.isnan(one.high)
    assert stats.woodruff_median([[], []]).n == 0


def test_woodruff_median_agrees_with_the_bootstrap_on_a_large_clustered_sample() -> None:
    rng = random.Random(5)
    clusters = []
    for _ in range(1200):  # pairs that share part of their value (a shuffle's luck)
        shared = rng.gauss(0, 40)
        clusters.append([float(round(300 + shared + rng.gauss(0, 30))) for _ in range(2)])
    boot = stats.cluster_bootstrap(clusters, resamples=1000, seed=2)
    wood = stats.woodruff_median(clusters)
    assert wood.value == boot.value
    assert wood.low == pytest.approx(boot.low, abs=1.5)
    assert wood.high == pytest.approx(boot.high, abs=1.5)
    assert wood.high - wood.low == pytest.approx(boot.high - boot.low, rel=0.35)


def test_analyse_bootstraps_medians_up_to_a_thousand_shuffles_then_uses_woodruff() -> None:
    def records(shuffles: int) -> list[DealRecord]:
        out = []
        for k in range(shuffles):
            for swap in (0, 1):
                moves = 200 + (k * 37 + swap * 11) % 150
                out.append(_rec(k, swap, moves=moves, turns=moves // 10, scores=(k % 7, 3)))
        return out

    small = records(stats._BOOTSTRAP_MAX_SHUFFLES)
    large = records(stats._BOOTSTRAP_MAX_SHUFFLES + 1)
    for recs, method in ((small, "bootstrap"), (large, "woodruff")):
        groups = [[float(r.moves) for r in recs if r.seed == k] for k in range(len(recs) // 2)]
        want = (
            stats.cluster_bootstrap(groups)
            if method == "bootstrap"
            else stats.woodruff_median(groups)
        )
        assert stats.analyse(recs).medians["moves"] == want, method


def test_analyse_leaves_move_caps_out_of_lengths_and_margins() -> None:
    records = [
        _rec(1, 0, moves=300, turns=30, scores=(20, 0)),
        _rec(1, 1, winner=1, moves=320, turns=32, scores=(0, 40)),  # bot A is player 1: wins
        _rec(2, 2, winner=None, reason="move_cap", moves=5000, turns=400, scores=(3, 9)),
        _rec(2, 3, winner=None, reason="stalemate", moves=280, turns=28, scores=(5, 1)),
    ]
    s = stats.analyse(records, resamples=200)
    assert (s.games, s.shuffles, s.move_caps) == (4, 2, 1)
    assert s["moves"].value == pytest.approx((300 + 320 + 280) / 3) and s["moves"].n == 3
    assert s["turns"].value == pytest.approx(30)
    assert s["margin"].value == pytest.approx((20 + 40 + (1 - 5)) / 3)
    assert s["points_a"].value == pytest.approx((20 + 40 + 1) / 3)
    assert s["win_a"].value == 0.5 and s["win_b"].value == 0
    assert s["share"].value == 1.0 and s["share"].n == 2
    assert s["first_player"].value == 0.5
    assert s["stalemate"].value == 0.25 and s["move_cap"].value == 0.25
    assert s.medians["moves"].value == 300.0
    assert s.to_dict()["figures"]["moves"]["n"] == 3


def test_the_fast_median_bootstrap_gives_the_list_bootstraps_numbers() -> None:
    """``analyse`` bootstraps the medians from the counts of the clusters drawn (one series
    of draws for the three figures); the numbers are those of resampling the lists."""
    import random

    rng = random.Random(7)
    records = [
        _rec(
            s,
            2 * s + k,
            moves=rng.randint(50, 400),
            turns=rng.randint(5, 40),
            scores=(rng.randint(0, 60), rng.randint(0, 60)),
            reason="move_cap" if rng.random() < 0.1 else "win",
        )
        for s in range(60)
        for k in (0, 1)
    ]
    fast = stats.analyse(records, resamples=300, seed=3)
    groups = list(stats._clusters(records).values())
    for key, _label in stats.MEDIANS:
        values = [[stats._median_value(r, key) for r in g if not stats._capped(r)] for g in groups]

        def median(xs: list[float]) -> float:  # not ``_median`` itself: the list path
            return stats._median(xs)

        by_list = stats.cluster_bootstrap(values, median, resamples=300, seed=3)
        assert fast.medians[key] == by_list, key
        assert stats.cluster_bootstrap(values, resamples=300, seed=3) == by_list


def test_the_bootstrap_reports_its_progress() -> None:
    seen: list[tuple[int, int]] = []
    records = [_rec(s, 2 * s + k, moves=100 + s) for s in range(20) for k in (0, 1)]
    stats.analyse(records, resamples=500, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (500, 500) and len(seen) == 100
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
