"""Bot plug-ins through the ``crapette.bots`` entry point group, with a real installed
distribution: a dist-info folder (metadata and entry points, as pip writes them) on a
temporary ``sys.path`` entry, read by ``importlib.metadata`` like any installed package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from crapette.bots import UnknownBotError, bot_names, get_bot, parse_bot, registry
from crapette.simulation import simulate

PLUGIN = '''
"""A bot distributed apart from crapette."""

from crapette.bots import RandomBot


class FirstMoveBot:
    """Always the first legal move (a plug-in from another distribution)."""

    def __init__(self, seed=0, budget="1"):
        self.name = "firstmove" if budget == "1" else f"firstmove:{budget}"
        self.seed = seed

    def choose(self, view):
        return view.legal_moves()[0]


not_a_factory = 42
'''

ENTRY_POINTS = """\
[crapette.bots]
firstmove = crapette_plugin_demo:FirstMoveBot
brokenbot = crapette_plugin_demo_missing:Bot
notabot = crapette_plugin_demo:not_a_factory
greedy = crapette_plugin_demo:FirstMoveBot
"""


def install(root: Path) -> Path:
    """Install the plug-in distribution into ``root`` (its module and its dist-info)."""
    (root / "crapette_plugin_demo.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    info = root / "crapette_plugin_demo-1.2.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: crapette-plugin-demo\nVersion: 1.2\n", encoding="utf-8"
    )
    (info / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    (info / "RECORD").write_text("", encoding="utf-8")
    return root


@pytest.fixture
def plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = install(tmp_path)
    monkeypatch.syspath_prepend(str(root))
    saved = dict(registry._REGISTRY)
    monkeypatch.setattr(registry, "_discovered", False)
    yield root
    registry._REGISTRY.clear()
    registry._REGISTRY.update(saved)
    sys.modules.pop("crapette_plugin_demo", None)


def test_an_installed_plugin_is_a_bot_name(plugin: Path) -> None:
    with pytest.warns(UserWarning, match="'greedy' of the plug-in .* ignored: the name is a"):
        names = bot_names()
    assert "firstmove" in names and names[:4] == ("random", "greedy", "search", "planner")
    assert "crapette_plugin_demo" not in sys.modules  # listed without importing it
    assert registry.bot_summaries()["firstmove"] == "a plug-in from crapette-plugin-demo 1.2"
    bot = get_bot("firstmove", 3)
    assert type(bot).__name__ == "FirstMoveBot" and bot.seed == 3
    assert registry.bot_summaries()["firstmove"].startswith("Always the first legal move")
    assert get_bot("firstmove:7").name == "firstmove:7"  # arguments reach the factory
    assert str(parse_bot("firstmove:miss=0.5")) == "firstmove:miss=0.5"
    assert type(get_bot("greedy")).__name__ == "GreedyBot"  # a shipped name stays shipped
    result = simulate("classic(move_cap=300)", "firstmove,random", 2, seed=1)
    assert result.bots == ("firstmove", "random") and len(result.records) == 2


def test_a_broken_plugin_names_its_distribution(plugin: Path) -> None:
    with pytest.warns(UserWarning):
        registry._discover()
    with pytest.raises(UnknownBotError, match=r"crapette-plugin-demo 1\.2 failed to load"):
        get_bot("brokenbot")
    with pytest.raises(UnknownBotError, match="is not a bot factory"):
        get_bot("notabot")


def test_the_command_line_plays_a_plugin(plugin: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugin), *sys.path])}
    command = [sys.executable, "-W", "ignore::UserWarning", "-m", "crapette"]
    done = subprocess.run(
        [
            *command,
            *("simulate", "--bots", "firstmove,random", "--games", "2", "--json", "-"),
            *("--rules", "classic(move_cap=300)", "--workers", "2"),
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["results"][0]["bots"] == ["firstmove", "random"]
    helped = subprocess.run(
        [*command, "play", "--help"], env=env, capture_output=True, text=True, timeout=60
    )
    assert "firstmove" in helped.stdout
