"""What one request may hold (bounds.py), checked on its JSON once its types are right; the first excess, or None.

Walks the params (JSON-RPC) or the body (HTTP+JSON) of any version, by the A2A names both versions share: a
message's `parts` (v0.3 HTTP+JSON: `content`) at least one and at most MAX_PARTS; a part's `text` at most
MAX_TEXT characters; every `metadata` object at most MAX_METADATA bytes; any other string at most MAX_STRING,
any other list at most MAX_LIST entries. A data part's `data` and a file's bytes are the caller's payload:
the body's size bounds them.
"""

from __future__ import annotations

import json
from typing import Any

from .bounds import MAX_LIST, MAX_METADATA, MAX_PARTS, MAX_STRING, MAX_TEXT
from .refusal import INVALID_PARAMS, Refusal

_PARTS = ("parts", "content")
_PAYLOAD = ("data", "raw", "bytes")


def check_bounds(value: Any, path: str) -> None:
    """Raise Refusal(-32602) naming the first place where `value` holds more than a request may."""
    stack: list[tuple[str | None, Any, str]] = [(None, value, path)]
    while stack:
        key, item, where = stack.pop()
        if key in _PAYLOAD:
            continue
        if key == "metadata" and isinstance(item, dict):
            size = len(json.dumps(item, ensure_ascii=False, separators=(",", ":")).encode())
            if size > MAX_METADATA:
                raise Refusal(INVALID_PARAMS, f"metadata is {size} bytes as JSON; at most {MAX_METADATA}", where)
            continue
        if isinstance(item, str):
            limit = MAX_TEXT if key == "text" else MAX_STRING
            if len(item) > limit:
                raise Refusal(INVALID_PARAMS, f"{len(item)} characters; at most {limit}", where)
        elif isinstance(item, list):
            limit = MAX_PARTS if key in _PARTS else MAX_LIST
            if len(item) > limit:
                noun = "parts" if key in _PARTS else "entries"
                raise Refusal(INVALID_PARAMS, f"{len(item)} {noun}; at most {limit}", where)
            stack.extend((key, entry, f"{where}[{index}]") for index, entry in enumerate(item))
        elif isinstance(item, dict):
            if key == "message":
                _has_parts(item, where)
            for name, entry in item.items():
                stack.append((name, entry, f"{where}.{name}" if where else name))


def _has_parts(message: dict[str, Any], where: str) -> None:
    for name in _PARTS:
        parts = message.get(name)
        if isinstance(parts, list) and parts:
            return
    name = "content" if "content" in message else "parts"
    raise Refusal(INVALID_PARAMS, "a message needs at least one part", f"{where}.{name}" if where else name)
