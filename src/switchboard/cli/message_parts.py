"""The message `send` builds from what was typed: the positional text, then --text, --file, --data in order."""

from __future__ import annotations

import base64
import json
import mimetypes
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..a2a.errors import UsageError
from ..a2a.model import DataPart, FilePart, Part, TextPart


def _read_json(source: str) -> Any:
    if source == "-":
        text, where = sys.stdin.read(), "stdin"
    elif source.startswith("@") or (not source.lstrip().startswith(("{", "[", '"')) and Path(source).is_file()):
        path = Path(source.removeprefix("@")).expanduser()
        try:
            text, where = path.read_text(encoding="utf-8"), str(path)
        except OSError as exc:
            raise UsageError(f"cannot read --data file {path}: {exc.strerror}", hint="Check the path.") from None
    else:
        text, where = source, "--data"
    hint = "Pass inline JSON ('{\"k\": 1}'), @file.json, or - for stdin."
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"{where} is not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}", hint=hint
        ) from None
    except (ValueError, RecursionError) as exc:  # valid JSON Python will not read: 4,300+ digits, deep nesting
        raise UsageError(f"cannot read {where}: {exc}", hint=hint) from None


def _file_part(value: str, media_type: str | None) -> FilePart:
    if value.startswith(("http://", "https://")):
        url_path = urlsplit(value).path  # the name and type come from the path, not the host or query
        name = url_path.rstrip("/").rsplit("/", 1)[-1] or None
        return FilePart(url=value, name=name, media_type=media_type or mimetypes.guess_type(url_path)[0])
    path = Path(value).expanduser()
    try:
        content = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"cannot read --file {path}: {exc.strerror}", hint="Check the path.") from None
    guessed = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    return FilePart(raw=base64.b64encode(content).decode("ascii"), name=path.name, media_type=media_type or guessed)


def build_parts(text_words: list[str], flags: list[tuple[str, str, str | None]]) -> list[Part]:
    """The positional text first, then --text/--file/--data in the order given."""
    parts: list[Part] = []
    if text_words:
        parts.append(TextPart(text=" ".join(text_words)))
    for kind, value, media_type in flags:
        if kind == "text":
            parts.append(TextPart(text=value, media_type=media_type))
        elif kind == "file":
            parts.append(_file_part(value, media_type))
        else:
            parts.append(DataPart(data=_read_json(value), media_type=media_type or "application/json"))
    return parts


def metadata_of(raw: str | None) -> dict[str, Any] | None:
    if raw is None:
        return None
    value = _read_json(raw)
    if not isinstance(value, dict):
        raise UsageError("--metadata must be a JSON object", hint="""For example --metadata '{"k": "v"}'""")
    return value
