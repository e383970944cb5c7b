"""The simulator: reproducible records, summaries, worker independence and bad input."""

from __future__ import annotations

import importlib
import json
import pathlib

import pytest

import crapette as c
from crapette.bots import UnknownBotError, get_bot
from crapette.cli import main
from crapette.views import PlayerView

# The module itself: ``simulate`` names the function.
sim = importlib.import_module("crapette.simulation")
run = importlib.import_module("crapette.simulation._run")  # where the runner lives

FAST = "classic(move_cap=400)"


def test_same_seed_same_results() -> None:
    a = sim.simulate(FAST, "greedy,random", 6, seed=3)
    b = sim.simulate(FAST, ("greedy", "random"), 6, seed=3)
    assert a == b
    assert a.summary == sim.summarize(a.records)
    assert [r.deal for r in a.records] == list(range(6))
    assert sim.simulate(FAST, "greedy,random", 6, seed=4).records != a.records


def test_workers_do_not_change_results() -> None:
    one = sim.simulate(FAST, "greedy,greedy", 8, seed=1, workers=1)
    two = sim.simulate(FAST, "greedy,greedy", 8, seed=1, workers=2)
    assert one == two


def test_records_alternate_seats_on_the_same_shuffle() -> None:
    result = sim.simulate(FAST, "greedy,random", 4, seed=9)
    r0, r1 = result.records[0], result.records[1]
    assert (r0.player0, r1.player0) == (0, 1)
    assert r0.seed == r1.seed == sim.deal_seed(9, 0)
    assert r0.starter == r1.starter == c.new_game(c.Ruleset.from_string(FAST), seed=r0.seed).to_act
    for record in result.records:
        assert record.rules == FAST
        assert record.winner_bot != 1  # greedy beats random (or hits the short move cap)
        assert record.moves > 0 and record.turns > 1
        if record.winner is not None:
            assert record.reason == "win" and record.scores[record.winner] > 0


def test_a_record_replays() -> None:
    record = sim.simulate(FAST, "greedy,random", 2, seed=2).records[1]
    again = run.play_numbered_deal(
        c.Ruleset.from_string(FAST), ("greedy", "random"), record.seed, 1
    )
    assert again == record
    pair = sim.simulate(FAST, "greedy,random", 2, seed=2, start=record.deal // 2 * 2)
    assert pair.records[1] == record  # the documented way to replay a deal of a run


def _record(
    winner: int | None, starter: int, player0: int, scores: tuple[int, int]
) -> sim.DealRecord:
    reason = "win" if winner is not None else "stalemate"
    return sim.DealRecord(0, 1, "classic", player0, starter, winner, scores, reason, 100, 10)


def test_summary() -> None:
    records = [
        _record(0, 0, 0, (50, 0)),  # bot A wins as player 0, the starter
        _record(0, 1, 1, (40, 0)),  # bot B wins as player 0
        _record(1, 1, 1, (0, 30)),  # bot A wins as player 1, the starter
        _record(None, 0, 0, (4, 0)),  # stalemate
    ]
    s = sim.summarize(records)
    assert s.games == 4 and s.wins == (2, 1)
    assert s.win_rate[0].rate == 0.5 and s.decided_share[0].trials == 3
    assert s.first_player.successes == 2 and s.first_player.trials == 3
    assert s.stalemate_rate.successes == 1
    assert s.mean_scores == ((50 + 0 + 30 + 4) / 4, (0 + 40 + 0 + 0) / 4)
    assert s.mean_margin == pytest.approx((50 - 40 + 30 + 4) / 4)
    assert s.mean_moves == 100 and s.mean_turns == 10


@pytest.mark.parametrize("name", ["wilson", "play_deal", "parse_rules"])
def test_names_that_left_the_face_are_gone(name: str) -> None:
    assert not hasattr(sim, "__getattr__")
    with pytest.raises(AttributeError, match=name):
        getattr(sim, name)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"games": 0}, sim.SimulationError, "games must be a positive integer"),
        ({"workers": -1}, sim.SimulationError, "workers must be a positive integer"),
        ({"bots": "greedy,nobody"}, UnknownBotError, "unknown bot 'nobody'"),
        ({"bots": "greedy"}, sim.SimulationError, "expected two bots"),
        ({"rules": "nonesuch"}, c.InvalidRulesError, "nonesuch"),
        ({"backend": "slurm"}, sim.SimulationError, "unknown backend"),
    ],
)
def test_bad_input_fails_before_work(kwargs: dict[str, object], error: type, match: str) -> None:
    args: dict[str, object] = {"rules": FAST, "bots": "greedy,random", "games": 2, "seed": 1}
    args.update(kwargs)
    progress: list[int] = []
    with pytest.raises(error, match=match):
        sim.simulate(**args, progress=lambda done, total: progress.append(done))  # type: ignore[arg-type]
    assert progress == []


def test_unreachable_ray_address() -> None:
    pytest.importorskip("ray")
    with pytest.raises(sim.SimulationError, match="cannot reach the Ray cluster"):
        sim.simulate(FAST, "greedy,random", 2, 1, backend="ray", ray_address="127.0.0.1:1")


class _Cheater:
    """Answers an illegal move after a few moves."""

    name = "cheater"

    def __init__(self, seed: int) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> c.Move:
        if view.moves_made >= 10 and view.stop is None:
            return c.CALL_STOP
        return view.legal_moves()[0]


def test_illegal_move_stops_the_run_and_keeps_records(monkeypatch: pytest.MonkeyPatch) -> None:
    bad = sim.deal_seed(5, 1)  # the shuffle of deals 2 and 3

    def fake_get_bot(name: str, seed: int = 0) -> object:
        if name == "cheater" and seed in (run._bot_seed(bad, 0), run._bot_seed(bad, 1)):
            return _Cheater(seed)
        return get_bot("greedy" if name == "cheater" else name, seed)

    monkeypatch.setattr(run, "get_bot", fake_get_bot)
    with pytest.raises(sim.BotError) as info:
        sim.simulate(FAST, "cheater,random", 6, seed=5)
    err = info.value
    assert err.bot == "cheater" and err.seed == bad and err.move == c.CALL_STOP
    assert [r.deal for r in err.records] == [0, 1]
    assert "stop" in str(err) and str(bad) in str(err) and "'cheater'" in str(err)


def test_compare_checks_everything_first() -> None:
    with pytest.raises(c.InvalidRulesError):
        sim.compare([FAST, "bogus"], "greedy,random", 2, 1)
    results = sim.compare([FAST, "serbian(move_cap=400)"], "greedy,random", 2, 1)
    assert [r.rules for r in results] == [FAST, "serbian(move_cap=400)"]


def test_cli_simulate_json_and_csv(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    out = f"{tmp_path}/out.json"
    table = f"{tmp_path}/out.csv"
    argv = ["simulate", "--rules", FAST, "--rules", "serbian(move_cap=400)", "--bots"]
    code = main(
        [*argv, "greedy,random", "--games", "4", "--seed", "2", "--json", out, "--csv", table]
    )
    assert code == 0
    shown = capsys.readouterr().out
    assert "share of decided deals" in shown and "serbian(move_cap=400)" in shown
    with open(out) as handle:
        data = json.load(handle)
    assert [r["rules"] for r in data["results"]] == [FAST, "serbian(move_cap=400)"]
    again = sim.simulate(FAST, "greedy,random", 4, 2)
    assert data["results"][0].pop("stats") == again.stats(medians=False).to_dict()
    assert data["results"][0] == again.to_dict()
    assert data["differences"]["serbian(move_cap=400)"]["moves"]["n"] > 0
    with open(table) as handle:
        lines = handle.read().splitlines()
    assert lines[0].startswith("rules,bot_a,bot_b,deal,seed") and len(lines) == 9


def test_cli_compare_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "--rules", FAST, "--rules", "g4a(move_cap=400)", "--games", "2"]) == 0
    shown = capsys.readouterr().out
    assert FAST in shown and "first player wins" in shown
    assert main(["simulate", "--games", "0"]) == 1
    assert "games must be a positive integer" in capsys.readouterr().err
    assert main(["compare", "--bots", "greedy,zz", "--games", "2"]) == 1
    assert "unknown bot 'zz'" in capsys.readouterr().err
    assert main(["simulate", "--ray-address", "x:1", "--games", "2"]) == 1


def test_piped_compare_is_not_wrapped_and_its_help_agrees(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Piped output keeps each ruleset's name and interval on one line;
    ``compare --help`` names one default."""
    rules = [FAST, "g4a(move_cap=400)", "serbian(move_cap=400)", "belarusian(move_cap=400)"]
    argv = ["compare", "--games", "2", "--bots", "greedy,greedy"]
    for r in rules:
        argv += ["--rules", r]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    header = next(line for line in lines if FAST in line)
    assert all(r in header for r in rules)
    rate = next(line for line in lines if "A (greedy) win rate" in line)
    assert rate.count("%") == len(rules)
    with pytest.raises(SystemExit):
        main(["compare", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "default: every preset" in text and "default: classic" not in text


def test_cli_compare_classic_tarot_bobcrapette(
    tmp_path: pathlib.Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``crapette compare --rules classic --rules tarot --rules bobcrapette``: every deal of
    each ruleset is played to its end, with the pack's cards, and compared shuffle by
    shuffle; a fallible pair makes and calls faults at the start of turns under
    bobcrapette."""
    out = tmp_path / "compare.json"
    argv = ["compare", "--rules", "classic", "--rules", "tarot", "--rules", "bobcrapette"]
    assert main([*argv, "--bots", "greedy,greedy", "--games", "4", "--json", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "tarot - classic" in shown and "bobcrapette - classic" in shown
    data = json.loads(out.read_text())
    labels = [r["label"] for r in data["results"]]
    assert labels == ["classic", "tarot", "bobcrapette"]
    for result in data["results"]:
        records = result["records"]
        assert len(records) == 4
        assert all(r["reason"] in ("win", "stalemate") for r in records)
    assert set(data["differences"]) == {"tarot", "bobcrapette"}
    results = sim.compare(
        ["classic", "tarot", "bobcrapette"], "greedy:miss=0.5:false_call=0.1,greedy:call=0.5", 2, 1
    )
    assert [r.label for r in results] == ["classic", "tarot", "bobcrapette"]
    assert all(len(r.records) == 2 for r in results)
    assert results[0].stats()["stop_calls"].value == 0  # no call under stop=enforced
