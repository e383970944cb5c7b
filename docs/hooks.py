"""MkDocs hooks of the docs site (``hooks:`` in ``mkdocs.yml``).

``on_post_build`` puts the web page that needs no server into the site, as ``game/``: the
reference web page with the rules engine and the bots running in the browser (issue 21),
built by ``js/build_page.py``. Publishing the docs publishes the page with them.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def on_post_build(config: Any, **_: Any) -> None:
    """Build the serverless page into ``<site>/game/``."""
    spec = importlib.util.spec_from_file_location("build_page", ROOT / "js" / "build_page.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.build(Path(config["site_dir"]) / "game", "../")
