"""The documentation's code blocks run, so they cannot go stale.

Every fenced block tagged ``python`` in ``docs/**/*.md`` is executed; the blocks of one page
run in order in one namespace (a later block may use an earlier block's names), in a
temporary working directory. A block that must not run (it needs a terminal, the network or
a long time) is preceded, on the line just above its fence, by the HTML comment::

    <!-- test: skip -->

which the rendered site does not show. Blocks in other languages (``bash``, ``text``, ...)
are never run.

A block that shows its output does so in comments that begin ``# ->``, one per printed line
(after the statement that prints it); the test checks that the block prints exactly those
lines (trailing spaces aside)::

    print(crapette.format_move(crapette.DRAW))
    # -> draw
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import importlib.metadata
import importlib.util
import io
import itertools
import re
from pathlib import Path

import pytest

import crapette

DOCS = Path(__file__).resolve().parents[1] / "docs"
SKIP = "<!-- test: skip -->"
_FENCE = re.compile(
    r"^(?P<indent>[ ]*)```(?P<lang>[\w+-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```", re.M | re.S
)


_OUTPUT = re.compile(r"^[ ]*# ->(?: (?P<text>.*))?$", re.M)


def expected_output(code: str) -> list[str] | None:
    """The lines a block says it prints (its ``# ->`` comments), or ``None`` if it shows
    no output."""
    found = [(m.group("text") or "").rstrip() for m in _OUTPUT.finditer(code)]
    return found or None


def test_expected_output_extraction() -> None:
    assert expected_output("x = 1\nprint(x)\n") is None
    assert expected_output("print(1)\n# -> 1\nprint('')\n# ->\n") == ["1", ""]


def code_blocks(text: str) -> list[tuple[int, str, bool]]:
    """The ``python`` blocks of a page: (line number, code, skipped)."""
    out = []
    for match in _FENCE.finditer(text):
        if match.group("lang") != "python":
            continue
        before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1].strip()
        line = text.count("\n", 0, match.start()) + 2
        indent = len(match.group("indent"))
        body = "\n".join(row[indent:] for row in match.group("body").splitlines())
        out.append((line, body, before == SKIP))
    return out


ALL_PAGES = sorted(DOCS.rglob("*.md")) if DOCS.is_dir() else []
PAGES = [p for p in ALL_PAGES if any(not s for _, _, s in code_blocks(p.read_text("utf-8")))]


def test_the_docs_are_found() -> None:
    if not DOCS.is_dir():
        pytest.skip("no docs/ directory next to the tests (an installed-wheel run)")
    assert (DOCS / "index.md").exists()
    assert sum(len(code_blocks(p.read_text(encoding="utf-8"))) for p in ALL_PAGES) >= 10


def test_code_block_extraction() -> None:
    page = (
        "text\n\n```python\nx = 1\n```\n\n"
        f"{SKIP}\n```python\nraise SystemExit\n```\n\n"
        "```bash\nls\n```\n\n    ```python\n    y = x + 1\n    ```\n"
    )
    blocks = code_blocks(page)
    assert [(code.strip(), skipped) for _, code, skipped in blocks] == [
        ("x = 1", False),
        ("raise SystemExit", True),
        ("y = x + 1", False),
    ]
    assert blocks[0][0] == 4


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(DOCS)) for p in PAGES])
def test_page_code_blocks_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocks = [
        (line, code) for line, code, skipped in code_blocks(page.read_text("utf-8")) if not skipped
    ]
    if not blocks:
        pytest.skip("no python blocks")
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    for line, code in blocks:
        source = "\n" * (line - 1) + code  # tracebacks point at the page's own lines
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            try:
                exec(compile(source, str(page), "exec"), namespace)
            except ModuleNotFoundError as exc:
                if exc.name is None or exc.name.split(".")[0] == "crapette":
                    raise
                pytest.skip(f"needs the optional dependency {exc.name}")
            except Exception as exc:  # pragma: no cover - the failure report
                raise AssertionError(f"{page.name}, block at line {line} failed: {exc!r}") from exc
        expected = expected_output(code)
        if expected is not None:
            shown = [row.rstrip() for row in printed.getvalue().splitlines()]
            assert shown == expected, f"{page.name}, block at line {line} printed other output"


def documented_modules() -> set[str]:
    """The objects rendered by a ``::: name`` directive in the API reference (modules, or
    single names such as ``crapette.apply``)."""
    found = set()
    for page in (DOCS / "reference").glob("*.md"):
        for line in page.read_text(encoding="utf-8").splitlines():
            if line.startswith("::: "):
                found.add(line[4:].strip())
    return found


def test_every_public_name_is_in_the_api_reference() -> None:
    if not DOCS.is_dir():
        pytest.skip("no docs/ directory next to the tests (an installed-wheel run)")
    modules = documented_modules()
    exported: set[str] = set()
    for name in modules:
        parent, _, leaf = name.rpartition(".")
        if parent == "crapette" and leaf in crapette.__all__:
            exported.add(leaf)  # one facade name documented on its own
            continue
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:  # an adapter whose optional extra is missing
            if exc.name is None or exc.name.split(".")[0] == "crapette":
                raise
            continue
        exported.update(getattr(module, "__all__", ()))
    facade = (DOCS / "reference" / "crapette.md").read_text(encoding="utf-8")
    missing = [
        name for name in crapette.__all__ if name not in exported and f"`{name}`" not in facade
    ]
    assert not missing, f"public names missing from docs/reference: {missing}"


SRC = Path(crapette.__file__).resolve().parent
_SPHINX_ROLE = re.compile(r":(?:class|func|meth|data|attr|mod|exc|obj|const|ref):`")


def test_no_raw_sphinx_roles_in_docstrings() -> None:
    """The API reference renders markdown cross-references (``[`Name`][crapette.Name]``);
    a Sphinx role such as ``:class:`Name``` would show up raw on the page (in a docstring
    or on a page of docs/)."""
    pages = sorted(DOCS.rglob("*.md")) if DOCS.is_dir() else []
    found = [
        f"{path}:{number}: {line.strip()}"
        for path in [*sorted(SRC.rglob("*.py")), *pages]
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _SPHINX_ROLE.search(line)
    ]
    assert not found, "raw Sphinx roles:\n" + "\n".join(found)


def test_no_page_cites_a_missing_rules_file() -> None:
    """The project's rules are ``docs/rules.md``, with numbered decisions; no page or
    docstring cites a ``RULES.md`` that the repository does not hold."""
    root = DOCS.parent
    if (root / "RULES.md").exists():
        pytest.skip("the repository holds a RULES.md")
    tests = [p for p in Path(__file__).parent.glob("*.py") if p.name != "test_docs.py"]
    texts = [*SRC.rglob("*.py"), *tests]
    if DOCS.is_dir():
        texts += [*DOCS.rglob("*.md"), root / "README.md"]
    cited = [str(path) for path in texts if path.exists() and "RULES.md" in path.read_text("utf-8")]
    assert not cited, f"pages citing RULES.md: {cited}"


def test_the_command_line_page_is_generated_and_current() -> None:
    """``docs/cli.md`` documents every command and flag, generated from the parser by
    ``python -m crapette.cli._reference docs/cli.md``; it must match the parser of today."""
    pytest.importorskip("rich")
    import argparse

    from crapette.cli import build_parser
    from crapette.cli._reference import render

    page = render()
    parser = build_parser()
    subparsers = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in subparsers.choices.items():
        assert f"## `crapette {name}`" in page
        for action in sub._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert f"`{flag}" in page, (name, flag)
    if not DOCS.is_dir():
        pytest.skip("no docs/ directory next to the tests (an installed-wheel run)")
    current = (DOCS / "cli.md").read_text(encoding="utf-8")
    assert current == page, (
        "docs/cli.md is stale: regenerate it with python -m crapette.cli._reference docs/cli.md"
    )


def test_release_workflow_builds_checks_and_publishes_by_trusted_publishing() -> None:
    """``.github/workflows/release.yml``: the CI first; then the sdist and no pure wheel
    (pip would take it over building the sdist), the native wheels of every supported
    CPython on Linux (x86_64, aarch64), macOS (x86_64, arm64) and Windows (AMD64, ARM64),
    the Pyodide wheel, ``twine check``; a PyPI upload by trusted publishing (OIDC,
    ``id-token: write``) and the npm package with provenance, only for a version tag."""
    yaml = pytest.importorskip("yaml")
    path = DOCS.parent / ".github" / "workflows" / "release.yml"
    if not path.exists():
        pytest.skip("no .github/ next to the tests (an installed-wheel run)")
    text = path.read_text(encoding="utf-8")
    flow = yaml.safe_load(text)
    jobs = flow["jobs"]
    steps = {
        name: "\n".join(str(s.get("run", s.get("uses", ""))) for s in job["steps"])
        for name, job in jobs.items()
    }
    assert ".ci/run" in steps["test"]
    assert jobs["sdist"]["needs"] == "test"
    assert "python -m build --sdist" in steps["sdist"] and "twine check --strict" in steps["sdist"]
    assert "--wheel" not in text and "CRAPETTE_PURE_BUILD" not in text  # no pure wheel
    assert "-none-any.whl" in steps["check"] and "twine check --strict" in steps["check"]
    runners = {entry["os"] for entry in jobs["wheels"]["strategy"]["matrix"]["include"]}
    assert runners == {
        "ubuntu-latest",
        "ubuntu-24.04-arm",
        "macos-15-intel",
        "macos-15",
        "windows-latest",
        "windows-11-arm",
    }
    assert jobs["wheels"]["needs"] == "test" and "pypa/cibuildwheel" in steps["wheels"]
    pyodide = jobs["pyodide"]
    assert pyodide["steps"][-2]["env"]["CIBW_PLATFORM"] == "pyodide"
    assert jobs["check"]["needs"] == ["sdist", "wheels", "pyodide"]
    publish = jobs["publish"]
    assert publish["needs"] == "check" and "refs/tags/v" in publish["if"]
    assert publish["permissions"] == {"id-token": "write"}
    assert publish["environment"]["name"] == "pypi"
    assert "pypa/gh-action-pypi-publish" in steps["publish"]
    npm = jobs["npm"]
    assert "refs/tags/v" in npm["if"] and npm["permissions"]["id-token"] == "write"
    assert "npm publish --provenance" in steps["npm"] and "node --test" in steps["npm"]
    assert "password" not in text and "NPM_TOKEN" not in text  # no stored token
    assert "mypyc" not in text
    pyproject = (DOCS.parent / "pyproject.toml").read_text(encoding="utf-8")
    builds = re.search(r"\[tool\.cibuildwheel\]\nbuild = \[([^]]*)\]", pyproject)
    assert builds is not None
    versions = re.findall(r'"cp3(\d+)-\*"', builds.group(1))
    assert sorted(int(v) for v in versions) == [10, 11, 12, 13, 14]
    classifiers = re.findall(r'"Programming Language :: Python :: 3\.(\d+)"', pyproject)
    assert sorted(int(v) for v in classifiers) == [10, 11, 12, 13, 14]
    install = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    assert "pip install -e ." in install and "pip install crapette" in install
    assert "git tag v" in install and "release.yml" in install


_DOTTED = re.compile(r"`((?:crapette\.)?[a-z_]+(?:\.[A-Za-z_]+)+)(?:\(\))?`")


@pytest.mark.parametrize("page", ["architecture.md", "versioning.md"])
def test_every_module_and_name_a_design_page_cites_exists(page: str) -> None:
    """docs/architecture.md says where each rule lives (``_laws.fits_house``,
    ``state.position_problems``, ...) and docs/versioning.md what is public: every dotted
    name they cite is a module of the package or a name in one."""
    if not DOCS.is_dir():
        pytest.skip("no docs/ directory next to the tests (an installed-wheel run)")
    missing = []
    for name in sorted(set(_DOTTED.findall((DOCS / page).read_text(encoding="utf-8")))):
        parts = name.split(".")
        if parts[0] == "sys" or name == "crapette.NAME":  # NAME: the page's placeholder
            continue
        if parts[0] != "crapette":
            parts = ["crapette", *parts]
        for cut in range(len(parts), 0, -1):
            try:
                obj: object = importlib.import_module(".".join(parts[:cut]))
            except ModuleNotFoundError as exc:
                if exc.name is not None and not exc.name.startswith("crapette"):
                    break  # an optional dependency is missing: cannot check this one
                continue
            for attr in parts[cut:]:
                if not hasattr(obj, attr):
                    missing.append(name)
                    break
                obj = getattr(obj, attr)
            break
    assert not missing, f"{page} cites names the code does not have: {missing}"


def _public_section() -> str:
    text = (DOCS / "versioning.md").read_text(encoding="utf-8")
    return text[text.index("## What is public") : text.index("Everything else is internal")]


def test_the_versioning_page_lists_exactly_the_documented_modules() -> None:
    """docs/versioning.md names every public module; the API reference renders exactly
    those (a package whose names its modules hold, such as ``crapette.web``, need not be
    rendered itself); the facade has as many names as the page says."""
    if not DOCS.is_dir():
        pytest.skip("no docs/ directory next to the tests (an installed-wheel run)")
    section = _public_section()
    listed = set()
    for name in set(_DOTTED.findall(section)):
        try:
            importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name is None or exc.name.startswith("crapette"):
                continue  # a name in a module, not a module
        listed.add(name)
    facade_names = {f"crapette.{name}" for name in crapette.__all__}  # crapette.apply, ...
    modules = {"crapette.deal", "crapette.outcome"}  # modules named like a facade function
    rendered = {name for name in documented_modules() if name not in facade_names} | modules
    rendered.discard("crapette")
    exported: dict[str, set[str]] = {}
    for name in listed | rendered:
        try:
            exported[name] = set(getattr(importlib.import_module(name), "__all__", ()))
        except ModuleNotFoundError as exc:  # an adapter whose optional extra is missing
            if exc.name is None or exc.name.startswith("crapette"):
                raise
            exported[name] = set()
    unlisted = {name for name in rendered - listed if exported[name]}
    assert not unlisted, f"rendered in docs/reference but not public: {sorted(unlisted)}"
    on_pages = set().union(*(exported[name] for name in rendered))
    unrendered = {name for name in listed - rendered if not exported[name] <= on_pages}
    assert not unrendered, f"public but not in docs/reference: {sorted(unrendered)}"
    count = re.search(r"`crapette.__all__` \((\d+) names", section)
    assert count is not None and int(count[1]) == len(crapette.__all__)


MATRIX_OPTIONS = {
    "pack": ("pack",),
    "turn end": ("turn_end",),
    "reserve": ("reserve_size", "reserve_face_up"),
    "hand": ("reserve_size", "pack"),
    "first player": ("first_player",),
    "own waste top playable": ("own_waste_playable",),
    "loading sources": ("load_from",),
    "group moves": ("group_moves",),
    "house filling": ("house_filling",),
    "priority": ("priority",),
    "Stop!": ("stop",),
    "match": ("match_target", "match_deals"),
}


@pytest.mark.parametrize("page", ["rules.md", "variants.md"])
def test_the_variant_matrix_agrees_with_the_presets(page: str) -> None:
    """In the variant matrix two presets have the same text in a row exactly when they have
    the same options ("same" repeats the ``classic`` column): under ``belarusian`` the
    first player follows the same rule as under ``classic``."""
    if not DOCS.is_dir():
        pytest.skip("no docs/ directory next to the tests (an installed-wheel run)")
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in (DOCS / page).read_text(encoding="utf-8").splitlines()
        if line.startswith("| ")
    ]
    header = next(row for row in rows if row[0] == "option" and "`classic` (default)" in row)
    presets = [cell.strip("`").split("`")[0] for cell in header[1:]]
    assert presets == list(crapette.PRESETS)
    seen = set()
    for row in rows:
        if row[0] not in MATRIX_OPTIONS:
            continue
        seen.add(row[0])
        cells = [row[1], *(row[1] if cell == "same" else cell for cell in row[2:])]
        for (a, text_a), (b, text_b) in itertools.combinations(zip(presets, cells, strict=True), 2):
            same = all(
                getattr(crapette.PRESETS[a], o) == getattr(crapette.PRESETS[b], o)
                for o in MATRIX_OPTIONS[row[0]]
            )
            assert same == (text_a == text_b), (row[0], a, text_a, b, text_b)
    assert seen == set(MATRIX_OPTIONS)


_PYPI_INSTALL = re.compile(r"""pip install ["']?crapette\b""")


def test_no_page_installs_from_pypi_without_saying_it_needs_a_release() -> None:
    """crapette is not on PyPI before its first release, so a paragraph
    or table that shows ``pip install crapette...`` says that it is for after a release (or
    for PyPI)."""
    if not DOCS.is_dir():
        pytest.skip("no docs/ directory next to the tests (an installed-wheel run)")
    bad = [
        f"{page.name}: {block.strip()[:80]}"
        for page in [*sorted(DOCS.rglob("*.md")), DOCS.parent / "README.md"]
        for block in re.split(r"\n\s*\n", page.read_text(encoding="utf-8"))
        if _PYPI_INSTALL.search(block) and not re.search(r"release|PyPI", block)
    ]
    assert not bad, "pip install crapette before a release:\n" + "\n".join(bad)


def test_the_install_table_names_every_extra() -> None:
    """Every optional extra of the package has its row in getting-started's install table
    (the ``web`` extra was once missing)."""
    if not DOCS.is_dir():
        pytest.skip("no docs/ directory next to the tests (an installed-wheel run)")
    extras = set(importlib.metadata.metadata("crapette").get_all("Provides-Extra") or [])
    assert {"cli", "web", "all"} <= extras
    text = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    table = text[text.index("| what |") :].split("\n\n", 1)[0]
    named = set(re.findall(r"""\.\[(\w+)\]|"\.?\[?(?:crapette)?\[(\w+)\]""", table))
    found = {a or b for a, b in named}
    assert extras - found == set(), f"extras missing from the install table: {extras - found}"


def _is_facade_name(name: str) -> bool:
    """A name ``crapette.NAME`` gives: one of the facade's or a module of the package."""
    if name in crapette.__all__ or name.startswith("__"):
        return True
    try:
        return importlib.util.find_spec(f"crapette.{name}") is not None
    except ModuleNotFoundError:
        return False


def unknown_uses(code: str) -> list[str]:
    """The top-level names a Python block uses that the facade does not have: ``from
    crapette import X``, ``crapette.X`` (also under an ``import crapette as c`` alias)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return []
    aliases = {"crapette"}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            aliases |= {a.asname or a.name for a in node.names if a.name == "crapette"}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "crapette":
            found += [a.name for a in node.names if not _is_facade_name(a.name)]
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in aliases
            and not _is_facade_name(node.attr)
        ):
            found.append(node.attr)
    return found


def test_unknown_uses_finds_each_form() -> None:
    code = (
        "import crapette\nimport crapette as c\nfrom crapette import perft, new_game, bots\n"
        "crapette.simulate()\nc.Rng(1)\ncrapette.new_game()\nfrom crapette.deal import Rng\n"
        "crapette.cards.full_pack()\n"
    )
    assert sorted(unknown_uses(code)) == ["Rng", "perft", "simulate"]


def test_no_code_block_of_the_docs_uses_a_name_the_facade_does_not_have() -> None:
    """Every Python block of the docs and the README, skipped ones included, imports the
    names from their homes (the top-level names of earlier shapes of the package, such as
    ``crapette.simulate`` or ``crapette.full_pack``, are gone)."""
    if not DOCS.is_dir():
        pytest.skip("no docs/ directory next to the tests (an installed-wheel run)")
    bad = [
        f"{page.name}:{line}: crapette.{name}"
        for page in [*ALL_PAGES, DOCS.parent / "README.md"]
        for line, code, _ in code_blocks(page.read_text(encoding="utf-8"))
        for name in unknown_uses(code)
    ]
    assert not bad, "names the facade does not have in the docs' code:\n" + "\n".join(bad)


def test_the_json_example_shows_what_the_library_writes() -> None:
    """The notation page's JSON example starts as ``to_json`` writes it (it once showed
    ``"behaviour": 1``)."""
    if not DOCS.is_dir():
        pytest.skip("no docs/ directory next to the tests (an installed-wheel run)")
    text = (DOCS / "notation.md").read_text(encoding="utf-8")
    example = text[text.index("```json\n") + 8 :].split("\n")[0]
    written = crapette.to_json(crapette.Ruleset.preset("serbian"))
    head = example.split(', "options"')[0].rstrip(",")
    assert written.startswith(head), (head, written[:120])


def test_ci_runs_the_readmes_test_command_and_the_selection_exists() -> None:
    """The README's test command installs what the tests need (the package, axe-core), runs
    the whole suite, then the ``engine`` selection on the Python engine; ``.ci/run`` reads
    that command from the README and runs it as written; the selection names only modules
    that exist."""
    if not (DOCS.parent / ".ci" / "run").is_file():
        pytest.skip("no checkout beside the tests (an installed-wheel run)")
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    match = re.search(r"run the test suite on both engines.*?```bash\n(.*?)\n```", readme, re.S)
    assert match is not None
    command = match.group(1).strip()
    steps = [step.strip() for step in command.split("&&")]
    assert steps == [
        "pip install -e '.[all]'",
        "npm ci --prefix tests/browser",
        "python -m pytest -n auto",
        "CRAPETTE_PURE=1 python -m pytest -n auto -m engine",
    ]
    ci = (DOCS.parent / ".ci" / "run").read_text(encoding="utf-8")
    assert "run the test suite on both engines" in ci and 'eval "$command"' in ci
    assert "python -m pytest" not in ci  # no test run of its own beside the README's
    import conftest

    tests = {p.stem for p in (DOCS.parent / "tests").glob("test_*.py")}
    assert tests >= conftest.ENGINE_MODULES | conftest.NATIVE_MODULES
    assert not conftest.ENGINE_MODULES & conftest.NATIVE_MODULES


def test_getting_started_deals_a_game_before_making_a_release() -> None:
    page = (DOCS / "getting-started.md").read_text(encoding="utf-8")
    headings = [line for line in page.splitlines() if line.startswith("## ")]
    titles = [h[3:].strip() for h in headings]
    assert "Deal a game" in titles and "Making a release" in titles
    assert titles.index("Deal a game") < titles.index("Making a release")
