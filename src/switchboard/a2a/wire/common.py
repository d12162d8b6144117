"""Tolerant reading shared by both codecs.

Agents send odd JSON: wrong types, unknown enum values, empty strings for absent fields. Nothing here
raises on such input; each oddity becomes a note (a lint warning), and only a value the model cannot do
without (an id, a state) turns into a WireFormatError.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

from ..errors import InvalidResponseError

T = TypeVar("T")

MAX_NOTES = 200
# Free-form JSON (metadata, data parts, a card's raw JSON) deeper than this is cut: code that walks it
# recursively later (json.dumps, ==, repr) would otherwise hit the interpreter's recursion limit.
MAX_DEPTH = 64


class WireFormatError(InvalidResponseError):
    """The JSON is missing something the protocol cannot do without."""


class Notes(list[str]):
    """Lint warnings collected while decoding; bounded so a hostile stream cannot grow it forever."""

    def add(self, message: str) -> None:
        if len(self) < MAX_NOTES:
            self.append(message)


def brief(value: Any) -> str:
    """A short, safe description of a JSON value for a note: never a recursive repr of a deep structure."""
    if isinstance(value, dict | list):
        return f"a JSON {'object' if isinstance(value, dict) else 'array'}"
    return f"{value!r:.40}"


def _deeper_than(value: Any, limit: int) -> bool:
    if isinstance(value, dict):
        value = list(value.values())
    elif not isinstance(value, list):
        return False
    if limit <= 0:
        return True
    return any(_deeper_than(item, limit - 1) for item in value if isinstance(item, dict | list))


def _cut(value: Any, limit: int) -> Any:
    if not isinstance(value, dict | list):
        return value
    if limit <= 0:
        return "(nested too deep; cut)"
    if isinstance(value, dict):
        return {k: _cut(v, limit - 1) for k, v in value.items()}
    return [_cut(v, limit - 1) for v in value]


def shallow(value: Any, what: str, notes: Notes) -> Any:
    """`value`, with whatever is nested deeper than MAX_DEPTH replaced by a marker string (and a note)."""
    if not isinstance(value, dict | list) or not _deeper_than(value, MAX_DEPTH):
        return value
    notes.add(f"{what} is nested more than {MAX_DEPTH} levels deep; the deeper levels were cut")
    return _cut(value, MAX_DEPTH)


def valid_url(value: str) -> bool:
    """Whether `value` parses as a URL with a usable port (urlsplit and .port raise on e.g. `http://[::1`)."""
    try:
        _ = urlsplit(value).port
    except ValueError:
        return False
    return True


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
    notes.add(f"{what}.{key} should be true or false, got {brief(value)}")
    return bool(value)


def opt_dict(o: dict[str, Any], key: str, what: str, notes: Notes) -> dict[str, Any] | None:
    value = o.get(key)
    if value is None:
        return None
    if isinstance(value, dict):
        cut: dict[str, Any] = shallow(value, f"{what}.{key}", notes)  # still an object, its depth bounded
        return cut
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


def signature_list(o: dict[str, Any], notes: Notes) -> list[dict[str, Any]] | None:
    """A card's `signatures`: objects kept as sent (for display), anything else dropped with a note."""
    items = opt_list(o, "signatures", "card", notes)
    if items is None:
        return None
    good = [i for i in items if isinstance(i, dict)]
    if len(good) != len(items):
        notes.add("card.signatures holds entries that are not objects; they were dropped")
    return good


def unknown_keys(o: dict[str, Any], known: frozenset[str], what: str, notes: Notes) -> None:
    if known.issuperset(o):  # the usual case, without building a set per object
        return
    extra = o.keys() - known
    if extra:
        names = ", ".join(f"{name:.40}" for name in sorted(extra)[:8])
        notes.add(f"{what} has unknown fields: {names}" + (f" and {len(extra) - 8} more" if len(extra) > 8 else ""))


def plain_update(o: dict[str, Any], flags: tuple[str, ...]) -> bool:
    """Whether an update is the plain kind a stream repeats: non-empty string ids, each flag true, false or
    absent, no metadata. Such an update needs none of the per-field checks (the codecs read it in one step)."""
    task_id, context_id = o.get("taskId"), o.get("contextId")
    if type(task_id) is not str or not task_id or type(context_id) is not str or not context_id:
        return False
    if o.get("metadata") is not None:
        return False
    for flag in flags:
        value = o.get(flag)
        if value is not None and type(value) is not bool:
            return False
    return True


def put(out: dict[str, Any], key: str, value: Any) -> None:
    """Set `key` only when the value is present, so encoded JSON omits what was absent."""
    if value is not None:
        out[key] = value


def decode_list(value: Any, decode: Callable[[Any, Notes], T | None], what: str, notes: Notes) -> list[T] | None:
    """Decode each entry; a broken entry is dropped with a note instead of failing the whole list."""
    if value is None:
        return None
    if not isinstance(value, list):
        notes.add(f"{what} should be a list")
        return None
    out: list[T] = []
    for item in value:
        try:
            decoded = decode(item, notes)
        except WireFormatError as exc:
            notes.add(f"{what}: {exc.message}; entry dropped")
            continue
        if decoded is not None:
            out.append(decoded)
    return out
