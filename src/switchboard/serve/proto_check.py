"""Does a JSON value have the types a protobuf request message needs (ProtoJSON)? The first wrong field, or None.

The SDK parses v1.0 params and HTTP+JSON bodies with protobuf's ParseDict/Parse, which answers a wrong type
with its own exception text (or, for a message field given a string, silently ignores it). This walks the
message's descriptor first, so every field the SDK will read has its JSON type: an object for a message, an
array for a repeated field, a string, an integer in range, a bool, a known enum name, base64 for bytes, an
RFC 3339 time. Unknown keys are let through (forward compatibility, as the SDK parses them), and so is null
(ProtoJSON's "the default"). A2A's Part must carry exactly one kind of content.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor

from .refusal import INVALID_PARAMS, Refusal

_F = FieldDescriptor
_INT_RANGES = {
    _F.TYPE_INT32: (-(2**31), 2**31 - 1),
    _F.TYPE_SINT32: (-(2**31), 2**31 - 1),
    _F.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    _F.TYPE_UINT32: (0, 2**32 - 1),
    _F.TYPE_FIXED32: (0, 2**32 - 1),
    _F.TYPE_INT64: (-(2**63), 2**63 - 1),
    _F.TYPE_SINT64: (-(2**63), 2**63 - 1),
    _F.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    _F.TYPE_UINT64: (0, 2**64 - 1),
    _F.TYPE_FIXED64: (0, 2**64 - 1),
}
_INTEGER_TEXT = re.compile(r"-?\d{1,20}")
_BASE64 = re.compile(r"[A-Za-z0-9+/_-]*={0,2}")
_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})")
_ANY_JSON = "google.protobuf.Value"


def check_message(value: Any, descriptor: Descriptor, path: str) -> None:
    """Raise Refusal(-32602) naming the first field of `value` whose JSON type `descriptor` does not allow."""
    if not isinstance(value, dict):
        raise Refusal(INVALID_PARAMS, "expected an object", path or None)
    fields: dict[str, FieldDescriptor] = {}
    for known in descriptor.fields:
        fields[known.json_name] = known
        fields[known.name] = known
    chosen: dict[str, str] = {}
    for key, item in value.items():
        field = fields.get(key)
        if field is None or item is None:
            continue
        where = f"{path}.{key}" if path else key
        oneof = field.containing_oneof
        if oneof is not None and not oneof.name.startswith("_"):  # "_x" is proto3's `optional`, not a choice
            if oneof.name in chosen:
                raise Refusal(INVALID_PARAMS, f"give only one of {chosen[oneof.name]} and {key}", where)
            chosen[oneof.name] = key
        check_field(item, field, where)
    if descriptor.full_name.endswith(".Part") and not chosen:
        kinds = ", ".join(f.json_name for f in descriptor.oneofs[0].fields) if descriptor.oneofs else "content"
        raise Refusal(INVALID_PARAMS, f"a part needs one of {kinds}", path or None)


def check_field(value: Any, field: FieldDescriptor, path: str) -> None:
    if _is_map(field):
        if not isinstance(value, dict):
            raise Refusal(INVALID_PARAMS, "expected an object", path)
        assert field.message_type is not None
        entry = field.message_type.fields_by_name["value"]
        for key, item in value.items():
            if item is not None:
                _check_single(item, entry, f"{path}.{key}")
        return
    if field.is_repeated:
        if not isinstance(value, list):
            raise Refusal(INVALID_PARAMS, "expected an array", path)
        for index, item in enumerate(value):
            if item is None:
                raise Refusal(INVALID_PARAMS, "an array entry is null", f"{path}[{index}]")
            _check_single(item, field, f"{path}[{index}]")
        return
    _check_single(value, field, path)


def _check_single(value: Any, field: FieldDescriptor, path: str) -> None:
    kind = field.type
    if kind == _F.TYPE_MESSAGE or kind == _F.TYPE_GROUP:
        assert field.message_type is not None
        _check_well_known(value, field.message_type, path)
    elif kind == _F.TYPE_STRING:
        if not isinstance(value, str):
            raise Refusal(INVALID_PARAMS, "expected a string", path)
    elif kind == _F.TYPE_BYTES:
        if not isinstance(value, str) or not _BASE64.fullmatch(value) or len(value.rstrip("=")) % 4 == 1:
            raise Refusal(INVALID_PARAMS, "expected base64 text", path)
    elif kind == _F.TYPE_BOOL:
        if not isinstance(value, bool):
            raise Refusal(INVALID_PARAMS, "expected true or false", path)
    elif kind == _F.TYPE_ENUM:
        assert field.enum_type is not None
        names = [v.name for v in field.enum_type.values]
        numbers = {v.number for v in field.enum_type.values}
        known = value in names if isinstance(value, str) else isinstance(value, int) and value in numbers
        if isinstance(value, bool) or not known:
            raise Refusal(INVALID_PARAMS, f"expected one of {', '.join(names)}", path)
    elif kind in _INT_RANGES:
        _check_integer(value, _INT_RANGES[kind], path)
    elif isinstance(value, bool) or not isinstance(value, int | float | str):  # double, float
        raise Refusal(INVALID_PARAMS, "expected a number", path)
    elif isinstance(value, str) and value not in ("NaN", "Infinity", "-Infinity"):
        try:
            float(value)
        except ValueError:
            raise Refusal(INVALID_PARAMS, "expected a number", path) from None


def _check_integer(value: Any, bounds: tuple[int, int], path: str) -> None:
    number = _as_integer(value)
    if number is None:
        raise Refusal(INVALID_PARAMS, "expected an integer", path)
    low, high = bounds
    if not low <= number <= high:
        raise Refusal(INVALID_PARAMS, f"expected an integer from {low} to {high}", path)


def _as_integer(value: Any) -> int | None:
    """An integer as ProtoJSON writes one: a number without a fraction, or its decimal text."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        return int(value) if value.is_integer() else None
    if isinstance(value, str) and _INTEGER_TEXT.fullmatch(value):
        return int(value)
    return None


def _check_well_known(value: Any, descriptor: Descriptor, path: str) -> None:
    name = descriptor.full_name
    if name == _ANY_JSON:
        return
    if name == "google.protobuf.Struct":
        if not isinstance(value, dict):
            raise Refusal(INVALID_PARAMS, "expected an object", path)
    elif name == "google.protobuf.ListValue":
        if not isinstance(value, list):
            raise Refusal(INVALID_PARAMS, "expected an array", path)
    elif name == "google.protobuf.Timestamp":
        if not isinstance(value, str) or not _is_timestamp(value):
            raise Refusal(INVALID_PARAMS, "expected an RFC 3339 time, e.g. 2026-01-31T12:00:00Z", path)
    elif name.startswith("google.protobuf.") and name.endswith("Value"):  # wrappers: the bare value
        _check_single(value, descriptor.fields_by_name["value"], path)
    elif name.startswith("google.protobuf."):
        raise Refusal(INVALID_PARAMS, "this field is not accepted here", path)
    else:
        check_message(value, descriptor, path)


def _is_timestamp(text: str) -> bool:
    if not _TIMESTAMP.fullmatch(text):
        return False
    try:
        datetime.fromisoformat(re.sub(r"\.(\d{6})\d*", r".\1", text.replace("Z", "+00:00")))
    except ValueError:
        return False
    return True


def _is_map(field: FieldDescriptor) -> bool:
    return field.is_repeated and field.message_type is not None and field.message_type.GetOptions().map_entry
