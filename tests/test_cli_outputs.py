"""Every command that writes a file reports a path it cannot write (a missing folder, a
directory) as a bad argument: one line on standard error naming the option and the path,
exit status 2, no traceback, nothing written and (for the simulations) no deal played."""

from __future__ import annotations

from pathlib import Path

import pytest

import crapette.cli.simulate as simulate_command
from crapette.cli import main


def _no_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a deal was played")

    monkeypatch.setattr(simulate_command, "simulate", refuse)


def _unwritable(tmp_path: Path, name: str) -> list[str]:
    """A path in a folder that does not exist, and a folder."""
    folder = tmp_path / "here"
    folder.mkdir()
    return [str(tmp_path / "missing" / name), str(folder)]


def _refused(argv: list[str], option: str, bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err  # one line, no traceback
    assert lines[0].startswith(f"crapette {argv[0]}: cannot write {option} {bad!r}: "), err
    assert "Traceback" not in err


def test_show_svg_to_a_path_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for bad in _unwritable(tmp_path, "table.svg"):
        _refused(["show", "--seed", "3", "--svg", bad], "--svg", bad, capsys)
    assert [p.name for p in tmp_path.iterdir()] == ["here"]
    assert list((tmp_path / "here").iterdir()) == []
    good = tmp_path / "table.svg"
    assert main(["show", "--seed", "3", "--svg", str(good)]) == 0
    assert good.read_text(encoding="utf-8").startswith("<svg")


@pytest.mark.parametrize("command", ["simulate", "compare"])
@pytest.mark.parametrize("option", ["--json", "--csv", "--plot", "--report"])
def test_simulation_outputs_to_a_path_they_cannot_write(
    command: str,
    option: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    if option == "--plot":
        pytest.importorskip("matplotlib")
    _no_deals(monkeypatch)
    for bad in _unwritable(tmp_path, "out.png"):
        _refused([command, "--games", "2", option, bad], option, bad, capsys)
    assert list((tmp_path / "here").iterdir()) == []


def test_ladder_json_to_a_path_it_cannot_write(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for bad in _unwritable(tmp_path, "ladder.json"):
        argv = ["ladder", "--bots", "random,greedy", "--games", "2", "--json", bad]
        _refused(argv, "--json", bad, capsys)
    assert list((tmp_path / "here").iterdir()) == []


def test_serve_db_a_path_it_cannot_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder, or a file where a folder of the path would be, is refused before the
    server starts; a missing folder is made (the default database's folder is made so)."""
    uvicorn = pytest.importorskip("uvicorn")
    pytest.importorskip("fastapi")
    started: list[object] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: started.append(app))
    folder = tmp_path / "here"
    folder.mkdir()
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    for bad in (str(folder), str(blocker / "games.sqlite3")):
        _refused(["serve", "--db", bad], "--db", bad, capsys)
    assert started == []
    made = tmp_path / "missing" / "games.sqlite3"
    assert main(["serve", "--db", str(made)]) == 0
    capsys.readouterr()
    assert len(started) == 1 and made.parent.is_dir()
