"""Game records: the headers and moves of one deal, replayable move by move.

A [`GameRecord`][crapette.records.GameRecord] holds text only (headers and moves in move
notation, ``str(move)``), like a chess PGN. Its start position comes from its ``Position``
header, or else from its ``Rules`` and ``Seed`` headers (``new_game``). It owns its forms:
``str(record)`` (the same as [`format_record`][crapette.records.format_record]) and
[`parse_record`][crapette.records.parse_record] write and read the text file form::

    [Rules "classic"]
    [Seed "42"]
    [Player0 "alice"]
    [Player1 "random"]
    [Result "P0 wins 45-0"]

    1. R-F H3-H5 draw T-H2 discard
    2. H1-F draw discard

and [`to_dict`][crapette.records.GameRecord.to_dict] /
[`from_dict`][crapette.records.GameRecord.from_dict] and
[`to_json`][crapette.records.GameRecord.to_json] /
[`from_json`][crapette.records.GameRecord.from_json] the JSON form.
[`GameRecord.replay`][crapette.records.GameRecord.replay] walks the deal:
``for state, move in record.replay()``.
``docs/notation.md`` specifies the format.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from crapette.records._record import HEADER_ORDER as HEADER_ORDER
from crapette.records._record import GameRecord, Headers, format_result
from crapette.records._text import format_record, parse_record

__all__ = ["GameRecord", "Headers", "format_record", "format_result", "parse_record"]


def record_to_dict(record: GameRecord) -> dict[str, Any]:
    """The JSON payload of a record: ``record.to_dict()``, the one public name (this function,
    out of ``__all__``, is what ``crapette.serialize`` calls)."""
    return record.to_dict()


def record_from_dict(data: Mapping[str, Any]) -> GameRecord:
    """A record from its JSON payload: ``GameRecord.from_dict(data)``, the one public name
    (this function, out of ``__all__``, is what ``crapette.serialize`` calls).

    Raises:
        NotationError: the payload has the wrong shape.
    """
    return GameRecord.from_dict(data)
