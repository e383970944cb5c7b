"""The size of the versioned surface, as docs/versioning.md defines it: one versioned export
per public object, a name in the ``__all__`` of a versioned module, counted once however
many of those modules list it; the provisional modules are public but not counted. The
limit keeps the surface small: a new public name has to earn its place."""

from __future__ import annotations

import importlib
import importlib.util
import re
import warnings
from pathlib import Path

import pytest

LIMIT = 154  # 150, crapette.refusal and Refusal, crapette.FLIP and cards.PACKS
PAGE = Path(__file__).resolve().parent.parent / "docs" / "versioning.md"
_CITED = re.compile(r"`(crapette(?:\.[a-z_]+)*)`")


def _is_module(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ModuleNotFoundError:
        return False


def _listed(text: str) -> list[str]:
    """The modules a part of the page cites, in order, once each (``crapette.__all__``, the
    facade's list, cites the facade)."""
    cited = (m.removesuffix(".__all__") for m in _CITED.findall(text))
    return list(dict.fromkeys(m for m in cited if _is_module(m)))


def page_modules() -> tuple[list[str], list[str]]:
    """The versioned and the provisional modules that docs/versioning.md lists."""
    if not PAGE.is_file():
        pytest.skip("no docs/ directory next to the tests (an installed-wheel run)")
    text = PAGE.read_text(encoding="utf-8")
    public = text.split("## What is public", 1)[1].split("- The attributes and methods", 1)[0]
    versioned, provisional = public.split("- **Provisional modules**", 1)
    return _listed(versioned), _listed(provisional)


def versioned_exports(modules: list[str]) -> dict[tuple[str, int], str]:
    """Every versioned export: (name, object id) to the first module listing it."""
    found: dict[tuple[str, int], str] = {}
    for name in modules:
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", ()):
            found.setdefault((attr, id(getattr(module, attr))), name)
    return found


def test_the_page_lists_the_modules_it_means() -> None:
    versioned, provisional = page_modules()
    assert versioned[:2] == ["crapette", "crapette.cards"]
    assert {"crapette.bots", "crapette.simulation.ladder", "crapette.cli"} <= set(versioned)
    assert set(provisional) == {
        "crapette.analysis",
        "crapette.bots.expert",
        "crapette.bots.value",
        "crapette.bots.allseeing",
        "crapette.simulation.sprt",
        "crapette.simulation.jobs",
        "crapette.adapters.encoding",
        "crapette.adapters.pettingzoo",
        "crapette.adapters.openspiel",
        "crapette.session",
        "crapette.session.payload",
        "crapette.cli.game",
        "crapette.web",
        "crapette.web.app",
        "crapette.web.store",
        "crapette.web.session",
    }
    assert not set(versioned) & set(provisional)


def test_fewer_than_150_versioned_exports() -> None:
    versioned, _ = page_modules()
    exports = versioned_exports(versioned)
    by_module: dict[str, list[str]] = {}
    for (name, _), module in exports.items():
        by_module.setdefault(module, []).append(name)
    listing = "\n".join(f"{len(v):3} {m}: {' '.join(sorted(v))}" for m, v in by_module.items())
    assert len(exports) < LIMIT, f"{len(exports)} versioned exports:\n{listing}"


def test_a_re_export_is_counted_once() -> None:
    exports = versioned_exports(
        ["crapette", "crapette.moves", "crapette.bots", "crapette.bots.greedy"]
    )
    names = [name for name, _ in exports]
    assert names.count("Move") == 1 and names.count("GreedyBot") == 1


def test_every_documented_module_is_versioned_or_provisional() -> None:
    versioned, provisional = page_modules()
    documented = set()
    for page in (PAGE.parent / "reference").glob("*.md"):
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("::: ") and _is_module(line[4:].strip()):
                documented.add(line[4:].strip())
    assert documented - {"crapette.adapters"} <= set(versioned) | set(provisional)
    for module in [*versioned, *provisional]:  # a face may be documented by its modules
        assert module in documented or any(d.startswith(module + ".") for d in documented)


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("crapette.simulation", "wilson"),
        ("crapette.simulation", "play_deal"),
        ("crapette.simulation", "parse_rules"),
        ("crapette.bots", "notify_deal_start"),
        ("crapette.bots", "notify_opponent_move"),
        ("crapette.bots.base", "notify_deal_start"),
    ],
)
def test_a_helper_that_left_a_face_has_no_shim(module: str, name: str) -> None:
    with pytest.raises(AttributeError, match=name):
        getattr(importlib.import_module(module), name)


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("crapette.simulation", "MAX_GAMES"),
        ("crapette.simulation", "BotLike"),
        ("crapette.simulation", "BotMaker"),
        ("crapette.simulation", "parse_bots"),
        ("crapette.simulation.stats", "RESAMPLES"),
        ("crapette.simulation.stats", "ratio_interval"),
        ("crapette.simulation.plots", "have_matplotlib"),
        ("crapette.bots", "MoveHook"),
        ("crapette.bots", "call_helps"),
        ("crapette.records", "record_to_dict"),
        ("crapette.records", "HEADER_ORDER"),
        ("crapette.notation", "move_from_text"),
        ("crapette.cards", "SUIT_SYMBOLS"),
        ("crapette.cli", "RICH_MISSING"),
        ("crapette.cli.game", "get_chooser"),
        ("crapette.simulation.errors", "RunInterrupted"),
    ],
)
def test_a_name_that_left_the_versioned_surface_is_still_importable(module: str, name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = getattr(importlib.import_module(module), name)
    assert value is not None and name not in importlib.import_module(module).__all__
