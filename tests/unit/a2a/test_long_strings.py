"""LongStringFilter: JSON in byte chunks cut anywhere comes out as the same JSON with its long strings left out."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from switchboard.a2a.long_strings import LongStringFilter

# Quotes and backslashes (escaped on the wire), controls (\n, \u0000), and text past ASCII (two to four bytes).
CHARS = st.sampled_from(['"', "\\", "\n", "\x00", "/", "a", "b", " ", "é", "✓", "😀", "{", "]", ":", ","])
TEXT = st.text(CHARS, max_size=30) | st.text(max_size=12)
SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | TEXT
DOCUMENTS = st.recursive(
    SCALARS, lambda inner: st.lists(inner, max_size=5) | st.dictionaries(TEXT, inner, max_size=5), max_leaves=30
)


def encoded_length(text: str, ensure_ascii: bool) -> int:
    """The bytes of `text` between its quotes, as json.dumps writes it."""
    return len(json.dumps(text, ensure_ascii=ensure_ascii).encode()) - 2


def without_long(value: Any, limit: int, ensure_ascii: bool) -> Any:
    """What the filtered document must parse to: each string longer than `limit` bytes as sent becomes ""."""
    if isinstance(value, str):
        return "" if encoded_length(value, ensure_ascii) > limit else value
    if isinstance(value, list):
        return [without_long(v, limit, ensure_ascii) for v in value]
    if isinstance(value, dict):
        reduced: dict[str, Any] = {}
        for key, item in value.items():  # two keys left out both become "": the later wins, as in json.loads
            reduced[without_long(key, limit, ensure_ascii)] = without_long(item, limit, ensure_ascii)
        return reduced
    return value


def filtered(raw: bytes, cuts: list[int], limit: int) -> LongStringFilter:
    text = LongStringFilter(limit)
    start = 0
    for cut in [*sorted(cuts), len(raw)]:
        text.feed(raw[start:cut])
        start = cut
    return text


def strings_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for v in value for s in strings_in(v)]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in [k, *strings_in(v)]]
    return []


@settings(max_examples=400)
@given(
    document=DOCUMENTS,
    limit=st.integers(0, 40),
    ensure_ascii=st.booleans(),
    indent=st.sampled_from([None, 1]),
    data=st.data(),
)
def test_any_document_cut_anywhere_keeps_its_structure_and_short_strings(document, limit, ensure_ascii, indent, data):
    raw = json.dumps(document, ensure_ascii=ensure_ascii, indent=indent).encode()
    cuts = data.draw(st.lists(st.integers(0, len(raw)), max_size=12))
    text = filtered(raw, cuts, limit)
    assert json.loads(text.out) == without_long(document, limit, ensure_ascii)
    assert text.read == len(raw)
    long = [s for s in strings_in(document) if encoded_length(s, ensure_ascii) > limit]
    assert text.dropped == len(long)


@settings(max_examples=200)
@given(document=DOCUMENTS, data=st.data())
def test_with_no_long_string_the_bytes_pass_through_unchanged(document, data):
    raw = json.dumps(document, ensure_ascii=False).encode()
    cuts = data.draw(st.lists(st.integers(0, len(raw)), max_size=12))
    text = filtered(raw, cuts, len(raw))
    assert bytes(text.out) == raw and text.dropped == 0


# Escapes json.dumps never writes, and runs of backslashes before a quote: every cut point of each is tried.
TRICKY = [
    rb'{"a":"x\\\"y","b":"\\\\","c":"\\\\\\\"","d":"\/\u0022\"","e":"ok"}',
    rb'["\\\\\\\\\\\\\\\"\"\"", "", "\"", "\\\\", 1, "xyz"]',
    rb'{"long":"' + b"\\n" * 50 + rb"\"" * 20 + b'","short":"\\""}',
]


def reference(raw: bytes, limit: int) -> bytes:
    """The filter's job done the obvious way, a byte at a time: the oracle for the hand-written cases."""
    out, string, inside, escaped = bytearray(), bytearray(), False, False
    for byte in raw:
        if not inside:
            if byte == ord('"'):
                inside, string = True, bytearray()
            else:
                out.append(byte)
        elif escaped:
            string.append(byte)
            escaped = False
        elif byte == ord("\\"):
            string.append(byte)
            escaped = True
        elif byte == ord('"'):
            out += b'""' if len(string) > limit else b'"' + string + b'"'
            inside = False
        else:
            string.append(byte)
    return bytes(out)


def test_every_cut_point_of_tricky_escapes():
    for raw in TRICKY:
        for limit in (0, 1, 2, 4, 8, 1000):
            expected = reference(raw, limit)
            json.loads(expected)
            for cut in range(len(raw) + 1):
                assert bytes(filtered(raw, [cut], limit).out) == expected, (raw, limit, cut)
            for first in range(len(raw) + 1):  # and pairs of cuts one or two bytes apart: a chunk of one byte
                for second in (first + 1, first + 2):
                    assert bytes(filtered(raw, [first, min(second, len(raw))], limit).out) == expected


def test_one_byte_chunks_match_the_reference():
    raw = json.dumps({"k": ['\\"' * 30, "short", {"\\": "é" * 10}]}).encode()
    text = LongStringFilter(12)
    for i in range(len(raw)):
        text.feed(raw[i : i + 1])
    assert bytes(text.out) == reference(raw, 12)
