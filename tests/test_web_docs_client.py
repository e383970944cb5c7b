"""The JavaScript client of docs/web.md, run as written with Node against a real
``crapette serve``: it plays a deal to its end and follows it over the WebSocket (Node 20
with the flag the page names)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from test_web_serve import serving

DOCS = Path(__file__).resolve().parents[1] / "docs"


def javascript_client() -> str:
    text = (DOCS / "web.md").read_text(encoding="utf-8")
    section = text[text.index("## A JavaScript client") :]
    section = section[: section.index("\n## ", 3)]
    blocks = re.findall(r"```javascript\n(.*?)```", section, re.S)
    assert len(blocks) == 1, "one JavaScript block in the section"
    return blocks[0]


def node() -> tuple[str, int]:
    path = shutil.which("node")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("Node is needed for the docs' JavaScript client (CI has Node 20)")
        pytest.skip("no node on this machine (Debian: apt-get install nodejs)")
    version = subprocess.run([path, "--version"], capture_output=True, text=True, check=True)
    major = int(version.stdout.strip().lstrip("v").split(".")[0])
    return path, major


def test_the_javascript_client_plays_a_deal_to_its_end(tmp_path: Path) -> None:
    binary, major = node()
    if major < 20:
        pytest.skip(f"Node {major}: the page is written for Node 20 and later")
    code = javascript_client()
    text = (DOCS / "web.md").read_text(encoding="utf-8")
    flags = []
    if major < 22:
        assert "--experimental-websocket" in text, "the page names Node 20's flag"
        flags.append("--experimental-websocket")
    assert "legal_moves[0]" not in code.replace("Always taking legal_moves[0]", "")
    with serving(tmp_path / "games.sqlite3") as server:
        script = tmp_path / "client.mjs"
        script.write_text(code.replace("http://127.0.0.1:8000", server.url), encoding="utf-8")
        run = subprocess.run(
            [binary, *flags, str(script)],
            capture_output=True,
            text=True,
            timeout=600,
            cwd=tmp_path,
        )
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.strip().splitlines()
    over = next(line for line in lines if line.startswith("deal over: "))
    assert re.search(r"\((win|stalemate|move_cap)\), seed \d+$", over), over
    updates = int(re.fullmatch(r"(\d+) updates", lines[-1]).group(1))  # type: ignore[union-attr]
    assert updates > 10, run.stdout[-1000:]
    assert any(line.startswith("opponent: ") for line in lines)
