"""The files the command line writes: every path a command will write is checked before the
command does any work, and a path that cannot be written (a missing folder, a directory, no
permission) is reported as a bad argument is: one line on standard error and exit status
2 (``OutputError``)."""

from __future__ import annotations

import os

from crapette.errors import CrapetteError

__all__ = ["OutputError", "check_writable", "write_text"]


class OutputError(CrapetteError):
    """A file a command was asked to write that cannot be written; the message names the
    option and the path. The command line reports it with exit status 2, as a usage error
    (``crapette.cli.main``)."""


def _reason(error: OSError) -> str:
    return error.strerror or type(error).__name__


def check_writable(path: str, option: str) -> None:
    """Fail at once when ``path`` cannot be written (a missing folder, a directory, no
    permission); a file created by the check is removed again.

    Raises:
        OutputError: it cannot be written (the message names the option and the path).
    """
    existed = os.path.lexists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as error:
        raise OutputError(f"cannot write {option} {path!r}: {_reason(error)}") from None
    if not existed:
        os.remove(path)


def write_text(path: str, text: str, option: str) -> None:
    """Write ``text`` to ``path`` (UTF-8, newlines as given).

    Raises:
        OutputError: it cannot be written (the message names the option and the path).
    """
    try:
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
    except OSError as error:
        raise OutputError(f"cannot write {option} {path!r}: {_reason(error)}") from None
