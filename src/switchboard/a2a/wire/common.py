"""Tolerant reading shared by both codecs.

Agents send odd JSON: wrong types, unknown enum values, empty strings for absent fields. Nothing here
raises on such input; each oddity becomes a note (a lint warning), and only a value the model cannot do
without (an id, a state) turns into a WireFormatError.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import InvalidResponseError

MAX_NOTES = 200


class WireFormatError(InvalidResponseError):
    """The JSON is missing something the protocol cannot do without."""


class Notes(list[str]):
    """Lint warnings collected while decoding; bounded so a hostile stream cannot grow it forever."""

    def add(self, message: str) -> None:
        if len(self) < MAX_NOTES:
            self.append(message)


def obj(value: Any, what: str, notes: Notes) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    raise WireFormatError(f"{what} is not a JSON object (got {type(value).__name__})")


def req_str(o: dict[str, Any], key: str, what: str, notes: Notes) -> str:
    value = o.get(key)
    if isinstance(value, str) and value:
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        notes.add(f"{what}.{key} is a number, expected a string")
        return str(value)
    raise WireFormatError(f"{what} has no {key}")


def opt_str(o: dict[str, Any], key: str, what: str, notes: Notes) -> str | None:
    value = o.get(key)
    if value is None or value == "":  # sdk13 ListTasks prints "" for absent strings
        return None
    if isinstance(value, str):
        return value
    notes.add(f"{what}.{key} should be a string, got {type(value).__name__}")
    return str(value) if isinstance(value, int | float) else None


def opt_bool(o: dict[str, Any], key: str, what: str, notes: Notes) -> bool | None:
    value = o.get(key)
    if value is None or isinstance(value, bool):
        return value
    notes.add(f"{what}.{key} should be true or false, got {value!r:.40}")
    return bool(value)


def opt_dict(o: dict[str, Any], key: str, what: str, notes: Notes) -> dict[str, Any] | None:
    value = o.get(key)
    if value is None or isinstance(value, dict):
        return value
    notes.add(f"{what}.{key} should be an object")
    return None


def opt_list(o: dict[str, Any], key: str, what: str, notes: Notes) -> list[Any] | None:
    value = o.get(key)
    if value is None or isinstance(value, list):
        return value
    notes.add(f"{what}.{key} should be a list")
    return None


def str_list(o: dict[str, Any], key: str, what: str, notes: Notes) -> list[str] | None:
    items = opt_list(o, key, what, notes)
    if items is None:
        return None
    good = [i for i in items if isinstance(i, str)]
    if len(good) != len(items):
        notes.add(f"{what}.{key} holds non-string items; they were dropped")
    return good


def unknown_keys(o: dict[str, Any], known: frozenset[str], what: str, notes: Notes) -> None:
    extra = o.keys() - known
    if extra:
        notes.add(f"{what} has unknown fields: {', '.join(sorted(extra)[:8])}")


def put(out: dict[str, Any], key: str, value: Any) -> None:
    """Set `key` only when the value is present, so encoded JSON omits what was absent."""
    if value is not None:
        out[key] = value


def decode_list(value: Any, decode: Callable[[Any, Notes], Any], what: str, notes: Notes) -> list | None:
    """Decode each entry; a broken entry is dropped with a note instead of failing the whole list."""
    if value is None:
        return None
    if not isinstance(value, list):
        notes.add(f"{what} should be a list")
        return None
    out = []
    for item in value:
        try:
            decoded = decode(item, notes)
        except WireFormatError as exc:
            notes.add(f"{what}: {exc.message}; entry dropped")
            continue
        if decoded is not None:
            out.append(decoded)
    return out
