"""Reading the command line's input files and standard input, with a size cap.

Every file or standard input a command reads goes through ``read_input``, so no input
(``/dev/zero``, a runaway pipe) is read without limit.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO, Final

from crapette.errors import CrapetteError

__all__ = ["MAX_INPUT_BYTES", "read_input"]

MAX_INPUT_BYTES: Final = 16 * 1024 * 1024
"""The largest input a command reads (16 MiB); a longer one is refused, unread."""


def read_input(name: str | Path, limit: int = MAX_INPUT_BYTES) -> str:
    """The UTF-8 text of a file, or of standard input for ``"-"``, of at most ``limit`` bytes.

    Raises:
        CrapetteError: the file cannot be read, is not UTF-8, or is longer than ``limit``
            (the message names the file and the limit).
    """
    shown = "standard input" if str(name) == "-" else repr(str(name))
    try:
        if str(name) == "-":
            data = _read(sys.stdin.buffer, limit, shown)
        else:
            with open(name, "rb") as handle:
                data = _read(handle, limit, shown)
        return data.decode("utf-8")
    except OSError as exc:
        raise CrapetteError(f"cannot read {shown}: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise CrapetteError(f"cannot read {shown}: not UTF-8 text (byte {exc.start})") from None


def _read(handle: BinaryIO, limit: int, shown: str) -> bytes:
    data = handle.read(limit + 1)
    if len(data) > limit:
        raise CrapetteError(f"cannot read {shown}: longer than the limit of {limit:,} bytes")
    return data
