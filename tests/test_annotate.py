"""Annotated games: judgments, faults, accuracy, the annotated record's forms and
``crapette analyse``."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

import crapette as c
from crapette._laws import violation
from crapette.analysis import (
    THRESHOLDS,
    AnnotatedRecord,
    Decision,
    Fault,
    Limit,
    accuracy,
    annotate,
    annotate_many,
    judge,
)
from crapette.analysis._annotate import fault_of
from crapette.bots import call_helps, get_bot, play_deal
from crapette.cli import main
from crapette.errors import InvalidArgumentError, NotationError
from crapette.records import GameRecord, parse_record
from positions import mv, position, quiet

SMALL = Limit(rollouts=48)


def _record(rules: str, bots: tuple[str, str], seed: int, moves: int) -> GameRecord:
    start = c.new_game(rules, seed=seed)
    played: list[c.Move] = []
    play_deal(
        start,
        (get_bot(bots[0], seed), get_bot(bots[1], seed + 1)),
        on_move=lambda before, move, after: played.append(move),
        max_moves=moves,
    )
    heads = {"Seed": str(seed), "Player0": bots[0], "Player1": bots[1]}
    return GameRecord.from_moves(start, played, heads)


def test_judgments_by_threshold() -> None:
    assert [name for name, _ in THRESHOLDS] == ["blunder", "mistake", "inaccuracy"]
    assert judge(0.0) is None and judge(0.04) is None
    assert judge(0.05) == "inaccuracy" and judge(0.099) == "inaccuracy"
    assert judge(0.10) == "mistake" and judge(0.15) == "blunder" and judge(0.6) == "blunder"
    # a drop within two standard errors is noise
    assert judge(0.12, se=0.07) is None and judge(0.12, se=0.05) == "mistake"
    assert judge(math.nan) is None


def test_accuracy_formula() -> None:
    assert accuracy([0.0, 0.0]) == 100.0
    assert accuracy([0.1]) == pytest.approx(100 * math.exp(-1))
    assert accuracy([0.0, 0.05]) == pytest.approx((100 + 100 * math.exp(-0.5)) / 2)
    assert math.isnan(accuracy([]))
    assert accuracy([-0.01]) == 100.0  # a gain within noise counts as a best move


def test_a_whole_record_is_annotated() -> None:
    record = _record("classic", ("random", "greedy"), 7, 70)
    done: list[int] = []
    annotated = annotate(record, SMALL, seed=3, deep=4, progress=lambda k, n: done.append(k))
    assert done == list(range(1, 71))
    assert len(annotated.decisions) == len(record.moves) == 70
    states = [s for s, _ in record.replay()]
    for k, (d, text) in enumerate(zip(annotated.decisions, record.moves, strict=True)):
        state = states[k]
        assert d.ply == k + 1 and d.move == text and d.player == state.to_act
        assert d.forced == (len(c.legal_moves(state)) == 1)
        if d.judged:
            assert d.win_before is not None and 0 <= d.win_before <= 1
            assert d.loss >= 0 and d.best
            assert d.judgment == judge(d.loss, 0) or d.judgment is None
        if d.loss == 0 and d.judged:
            assert d.judgment is None
    # the random player loses more than the greedy one
    assert annotated.accuracy(0) < annotated.accuracy(1)
    # the same seed, the same annotations
    assert annotate(record, SMALL, seed=3, deep=4) == annotated


def test_a_missed_win_is_judged_against_the_winning_line() -> None:
    state = position(
        houses=quiet({0: "6S", 1: ""}), reserve0="5D", hand0="", waste0="", rest="hand1"
    )
    assert c.END_TURN in c.legal_moves(state)
    record = GameRecord.from_moves(state, [c.END_TURN])
    annotated = annotate(record, SMALL, deep=8)
    d = annotated.decisions[0]
    assert d.win_before == 1.0 and d.win_after is not None and d.win_after < 1.0
    assert d.loss == pytest.approx(1.0 - d.win_after, abs=1e-4)
    after = state
    for text in d.best:
        after = c.apply(after, text)
    assert c.outcome(after) is not None and c.outcome(after).winner == 0  # type: ignore[union-attr]


def test_stop_faults_under_callable_rules() -> None:
    record = _record("pagat", ("greedy:miss=0.6:call=0.5", "greedy:miss=0.6:call=0.5"), 5, 160)
    annotated = annotate(record, Limit(rollouts=6), deep=0)
    states = [s for s, _ in record.replay()]
    kinds: set[str] = set()
    for d, state in zip(annotated.decisions, states, strict=False):
        move = c.parse_move(state, d.move)
        expected = fault_of(state, move)
        assert d.fault == expected
        if d.fault is None:
            continue
        kinds.add(d.fault.kind)
        if d.fault.kind == "missed_compulsory":
            broken = violation(state, move)
            assert broken is not None and d.fault.reason == broken.reason
            assert d.fault.rule == broken.kind
            assert d.fault.remedy == tuple(str(m) for m in broken.remedy)
        elif d.fault.kind == "missed_call":
            assert move == c.LET_STAND and state.stop is not None
            assert call_helps(state.rules, state.stop.offender, state.stop.resume)
        else:
            assert move == c.CALL_STOP and state.stop is not None
            assert not call_helps(state.rules, state.stop.offender, state.stop.resume)
    assert "missed_compulsory" in kinds and "missed_call" in kinds
    report = annotated.report()
    assert "missed compulsory move" in report and "you had to play" in report


def test_no_stop_faults_under_enforced_rules() -> None:
    state = position(houses=quiet({0: "6S"}), reserve0="JD 5D", hand0="AC", rest="hand1")
    for move in c.legal_moves(state):
        assert fault_of(state, move) is None


def test_a_false_call_is_named() -> None:
    """Under undo, calling after a violation that already ended the offender's turn does
    not help the caller: reported as a false call."""
    rules = "pagat"
    state = position(
        houses=quiet({0: "6S"}), reserve0="JD AH", hand0="2C 9C", turned="8C", rules=rules,
        rest="hand1",
    )  # fmt: skip
    after = c.apply(state, mv("discard"))  # the ace of hearts could go up: a violation
    assert after.stop is not None
    assert not call_helps(after.rules, after.stop.offender, after.stop.resume)
    fault = fault_of(after, c.CALL_STOP)
    assert fault is not None and fault.kind == "false_call"
    assert fault_of(after, c.LET_STAND) is None


def test_annotated_record_forms_round_trip() -> None:
    record = _record("classic", ("greedy", "random"), 2, 40)
    annotated = annotate(record, SMALL, deep=2)
    text = annotated.to_json()
    again = AnnotatedRecord.from_json(text)
    assert again == annotated
    # still a record document: the plain reader takes it
    assert c.from_json(text) == record
    data = json.loads(text)
    assert data["annotations"]["version"] == 1 and data["type"] == "record"
    commented = annotated.commented()
    assert parse_record(commented) == GameRecord(
        {**record.headers, "Annotator": f"crapette analysis 1 {annotated.limit}"}, record.moves
    )
    report = annotated.report()
    assert "accuracy" in report and "P0 greedy" in report
    assert Decision.from_dict(annotated.decisions[3].to_dict()) == annotated.decisions[3]
    assert Fault.from_dict(Fault("missed_call", None, "x").to_dict()) == Fault(
        "missed_call", None, "x"
    )


def test_annotated_record_reading_refuses() -> None:
    record = _record("classic", ("greedy", "greedy"), 2, 10)
    with pytest.raises(NotationError, match="annotations"):
        AnnotatedRecord.from_json(record.to_json())
    data = annotate(record, Limit(rollouts=8), deep=0).to_dict()
    data["annotations"]["version"] = 99
    with pytest.raises(NotationError, match="version"):
        AnnotatedRecord.from_dict(data)
    data["annotations"]["version"] = 1
    data["annotations"]["decisions"].pop()
    with pytest.raises(NotationError, match="judge 9 moves"):
        AnnotatedRecord.from_dict(data)
    with pytest.raises(NotationError, match="JSON"):
        AnnotatedRecord.from_json("{not json")
    with pytest.raises(InvalidArgumentError):
        annotate("1. draw")  # type: ignore[arg-type]


def test_annotate_many_in_workers_equals_one_process() -> None:
    records = [_record("classic", ("greedy", "greedy"), seed, 20) for seed in (1, 2, 3)]
    one = annotate_many(records, Limit(rollouts=8), deep=2)
    two = annotate_many(records, Limit(rollouts=8), deep=2, workers=2)
    assert one == two == [annotate(r, Limit(rollouts=8), deep=2) for r in records]


def test_analyse_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = _record("classic", ("random", "greedy"), 4, 30)
    path = tmp_path / "deal.txt"
    path.write_text(str(record), encoding="utf-8")
    out_json = tmp_path / "deal.annotated.json"
    out_text = tmp_path / "deal.commented.txt"
    outputs = ["--json", str(out_json), "--commented", str(out_text)]
    code = main(
        ["analyse", str(path), "--rollouts", "16", "--deep", "2", *outputs, "--no-progress"]
    )
    report = capsys.readouterr().out
    assert code == 0 and "accuracy" in report
    annotated = AnnotatedRecord.from_json(out_json.read_text(encoding="utf-8"))
    assert annotated.record == record and annotated.limit == "rollouts=16,deep=2"
    assert parse_record(out_text.read_text(encoding="utf-8")).moves == record.moves
    folder = tmp_path / "out"
    folder.mkdir()
    code = main(
        [
            "analyse",
            str(path),
            str(path),
            "--rollouts",
            "8",
            "--deep",
            "0",
            "--out-dir",
            str(folder),
        ]
    )
    assert code == 0 and (folder / "deal.annotated.json").exists()
    assert (folder / "deal.report.txt").read_text(encoding="utf-8").startswith("Analysis of")
    code = main(["analyse", str(path), str(path), "--json", str(out_json)])
    assert code == 1 and "one record" in capsys.readouterr().err
