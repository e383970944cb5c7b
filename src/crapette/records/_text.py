"""The text file form of a game record: [`format_record`][crapette.records.format_record]
writes it and [`parse_record`][crapette.records.parse_record] reads it back
(``docs/notation.md`` specifies it)."""

from __future__ import annotations

import re
from typing import Final

from crapette.errors import CrapetteError, NotationError
from crapette.notation import check_move_text
from crapette.records._record import HEADER_ORDER, GameRecord

__all__ = ["format_record", "parse_record"]

# A comment, a run of anything but ASCII white space and braces, or a stray brace.
_TOKEN: Final = re.compile(r"\{[^}]*\}|[^ \t\r\n{}]+|[{}]")
_LINE_WIDTH: Final = 79


def _actors(record: GameRecord) -> list[int | None]:
    """Who made each move, as far as the record replays (``None`` beyond)."""
    actors: list[int | None] = []
    try:
        for state, _ in record.replay():
            actors.append(state.to_act)
    except CrapetteError:
        pass
    actors = actors[: len(record.moves)]
    return actors + [None] * (len(record.moves) - len(actors))


def _quote(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def format_record(record: GameRecord) -> str:
    """The text file form: ``[Key "value"]`` header lines, a blank line, then the moves, one
    numbered line per run of moves by the same player (long runs wrap onto indented lines).
    ``parse_record(format_record(r)) == r``."""
    keys: list[str] = [k for k in HEADER_ORDER if k in record.headers]
    keys += [k for k in record.headers if k not in HEADER_ORDER]
    lines = [f"[{k} {_quote(record.headers[k])}]" for k in keys]
    lines.append("")
    actors = _actors(record)
    groups: list[list[str]] = []
    for i, text in enumerate(record.moves):
        if not groups or actors[i] != actors[i - 1]:
            groups.append([])
        groups[-1].append(text)
    for number, group in enumerate(groups, 1):
        line = f"{number}."
        indent = " " * len(line)
        for k, text in enumerate(group):
            if k and len(line) + 1 + len(text) > _LINE_WIDTH:
                lines.append(line)
                line = indent
            line += " " + text
        lines.append(line)
    return "\n".join(lines) + "\n"


def parse_record(text: str) -> GameRecord:
    """Read the text file form written by [`format_record`][crapette.records.format_record].

    Header lines ``[Key "value"]`` (``\\"`` and ``\\\\`` escape a quote and a backslash)
    come first; then the moves, separated by white space. Move numbers (``12.``) and
    comments in braces (``{like this}``) are skipped. The moves' syntax is checked here;
    their legality only on [`GameRecord.replay`][crapette.records.GameRecord.replay].

    Raises:
        NotationError: malformed text, with the character position and what was expected.
            Its ``text`` is always the whole record and its ``position`` an offset into it,
            also for a malformed move (the message quotes the move).
    """
    if not isinstance(text, str):
        raise TypeError(f"a record must be a str, not {type(text).__name__}")
    headers: dict[str, str] = {}
    pos = 0
    n = len(text)
    while True:
        while pos < n and text[pos] in " \t\r\n":
            pos += 1
        if pos >= n or text[pos] != "[":
            break
        pos = _header(text, pos, headers)
    moves: list[str] = []
    for match in _TOKEN.finditer(text, pos):
        token = match.group(0)
        at = match.start()
        if token.startswith("{"):
            if not token.endswith("}") or len(token) == 1:
                raise NotationError(f"unclosed comment '{{' at {at}", text, at)
            continue
        if token == "}":
            raise NotationError(f"unexpected '}}' at {at} (no comment is open)", text, at)
        if re.fullmatch(r"[0-9]+\.", token):
            continue
        if token.startswith("["):
            raise NotationError(
                f"unexpected header at {at}: headers come before the moves", text, at
            )
        try:
            check_move_text(token, at)
        except NotationError as exc:
            raise NotationError(str(exc), text, exc.position) from None
        moves.append(token)
    return GameRecord(headers, tuple(moves))


def _header(text: str, pos: int, headers: dict[str, str]) -> int:
    """Parse one ``[Key "value"]`` at ``pos``; returns the position after it."""
    match = re.compile(r"\[([A-Za-z][A-Za-z0-9_]*)[ \t]+\"").match(text, pos)
    if match is None:
        at = pos + 1
        name = re.compile(r"[A-Za-z][A-Za-z0-9_]*").match(text, at)
        if name is not None:
            at = name.end()
            while at < len(text) and text[at] in " \t":
                at += 1
            expected = 'a space and a quoted value ("...")'
        else:
            expected = "a header name (a letter, then letters, digits or _)"
        raise NotationError(f"expected {expected} at {at}", text, at)
    key = match.group(1)
    if key in headers:
        raise NotationError(f"header {key} given twice (again at {pos})", text, pos)
    value: list[str] = []
    i = match.end()
    while True:
        if i >= len(text) or text[i] in "\r\n":
            raise NotationError(f"expected the closing '\"' of header {key} at {i}", text, i)
        ch = text[i]
        if ch == "\\":
            if i + 1 < len(text) and text[i + 1] in '"\\':
                value.append(text[i + 1])
                i += 2
                continue
            raise NotationError(
                f'expected \\" or \\\\ at {i} in header {key} (a backslash escapes only those)',
                text,
                i,
            )
        if ch == '"':
            i += 1
            break
        value.append(ch)
        i += 1
    while i < len(text) and text[i] in " \t":
        i += 1
    if i >= len(text) or text[i] != "]":
        raise NotationError(f"expected ']' closing header {key} at {i}", text, i)
    headers[key] = "".join(value)
    return i + 1
