"""serve's whole-number rewrite (serve/whole_numbers.py) on any input: a JSON text comes out equal as numbers
with no whole double left in it (within +/-2**53); bytes that are not JSON pass untouched and nothing raises; a
stream cut anywhere comes out as its lines rewritten one by one, and a line over the bound passes as it is."""

from __future__ import annotations

import asyncio
import itertools
import json
import math
from typing import Any

from fuzz_support import fuzz
from hypothesis import given
from hypothesis import strategies as st

from switchboard.serve.whole_numbers import EXACT, WholeNumbers, data_line, whole_numbers

numbers = st.one_of(
    st.integers(min_value=-(2**60), max_value=2**60),
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(min_value=-(2**54), max_value=2**54).map(float),  # whole doubles, as the Struct holds them
)
scalars = st.one_of(st.none(), st.booleans(), st.text(max_size=8), numbers)
documents = st.recursive(
    scalars,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)),
    max_leaves=20,
)


def whole_doubles_left(value: Any) -> bool:
    if isinstance(value, float):
        return value.is_integer() and abs(value) <= EXACT
    if isinstance(value, dict):
        return any(whole_doubles_left(v) for v in value.values())
    if isinstance(value, list):
        return any(whole_doubles_left(v) for v in value)
    return False


def same_numbers(a: Any, b: Any) -> bool:
    """Equal as JSON: 5 and 5.0 are one number, True is not 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b and not (isinstance(a, float) and math.isnan(a))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same_numbers(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_numbers(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


@fuzz(examples=300)
@given(documents, st.booleans())
def test_any_json_comes_out_equal_with_no_whole_double_left(document, spaced):
    text = json.dumps(document, separators=(", ", ": ") if spaced else (",", ":")).encode()
    out = whole_numbers(text)
    back = json.loads(out)
    assert same_numbers(back, document)
    assert not whole_doubles_left(back)


@fuzz(examples=300)
@given(st.binary(max_size=64))
def test_garbage_bytes_pass_untouched(raw):
    try:
        json.loads(raw)
    except (ValueError, RecursionError):
        assert whole_numbers(raw) == raw
    else:
        json.loads(whole_numbers(raw))


def test_bad_and_deep_texts_pass_untouched():
    for raw in (b"{", b"[1.0,", b"\xff1.0", b"[" * 100_000 + b"1.0", b'{"a":NaN,"b":1.0}', b"1" * 5000 + b".0"):
        assert whole_numbers(raw) == raw
    assert whole_numbers(b'{"n":5.0,"x":2.5,"big":1e+300}') == b'{"n":5,"x":2.5,"big":1e+300}'
    assert whole_numbers(b"[9007199254740994.0]") == b"[9007199254740994.0]"  # past 2**53: stays a double


def relay(chunks: list[bytes], content_type: bytes, limit: int = 1 << 20) -> tuple[list[dict], bytes]:
    sent: list[dict] = []

    async def send(message: dict) -> None:
        sent.append(message)

    async def run() -> None:
        numbers = WholeNumbers(send, limit=limit)
        await numbers.send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", content_type)]})
        for i, chunk in enumerate(chunks):
            await numbers.send({"type": "http.response.body", "body": chunk, "more_body": i < len(chunks) - 1})

    asyncio.run(run())
    return sent, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def cut(raw: bytes, points: list[int]) -> list[bytes]:
    marks = sorted({0, len(raw), *(p % (len(raw) + 1) for p in points)})
    return [raw[a:b] for a, b in itertools.pairwise(marks)] or [b""]


frames = st.lists(st.one_of(documents.map(lambda d: b"data: " + json.dumps(d).encode()), st.binary(max_size=12)))


@fuzz(examples=200)
@given(frames, st.lists(st.integers(min_value=0), max_size=8), st.sampled_from([b"\n", b"\r\n"]))
def test_a_stream_cut_anywhere_comes_out_line_by_line(lines, points, newline):
    raw = b"".join(line + newline for line in lines)
    _, out = relay(cut(raw, points), b"text/event-stream")
    assert out == b"\n".join(data_line(line) for line in raw.split(b"\n"))


@fuzz(examples=100)
@given(st.lists(st.integers(min_value=0), max_size=8))
def test_a_line_over_the_bound_passes_as_it_is_and_the_next_is_rewritten(points):
    long = b"data: [" + b"1.0," * 40 + b"1.0]\n"
    raw = long + b'data: {"n":5.0}\n'
    _, out = relay(cut(raw, points), b"text/event-stream", limit=64)
    assert out == long + b'data: {"n":5}\n'


def test_a_json_answer_gets_its_new_length_and_one_over_the_bound_passes_as_it_is():
    sent, out = relay([b'{"n":', b"5.0}"], b"application/json")
    assert out == b'{"n":5}' and (b"content-length", b"7") in sent[0]["headers"]
    big = b"[" + b"1.0," * 100 + b"1.0]"
    _, out = relay([big[:50], big[50:]], b"application/json", limit=64)
    assert out == big
    _, out = relay([b"5.0"], b"text/plain")
    assert out == b"5.0"
