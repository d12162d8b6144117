"""An SSE frame's data is read by client._loads, the scanner behind json.loads without the steps around it: it
must read every string as json.loads does, the same value or the same error."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from switchboard.a2a.transports.http_transport import loads_frame as _loads

ODD = [
    '{"a": 1}',
    ' {"a": 1}',
    '{"a": 1} ',
    '{"a": 1}\n',
    '{"a": 1}x',
    '{"a": 1}{"b": 2}',
    "",
    " ",
    "[",
    '{"a": ',
    "\ufeff{}",
    "1",
    "null",
    "NaN",
    '"s"',
    "[1, 2]",
    '{"a": "\\ud800"}',
    '{"a": "tab\there"}',
]


def outcome(read, data):
    try:
        return "value", read(data)
    except json.JSONDecodeError as exc:
        return "error", str(exc)


@pytest.mark.parametrize("data", ODD)
def test_odd_data_reads_as_json_loads_reads_it(data):
    assert outcome(_loads, data) == outcome(json.loads, data)


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(value=json_values, before=st.sampled_from(["", " ", "\n"]), after=st.sampled_from(["", " ", "x", "]"]))
def test_any_document_reads_as_json_loads_reads_it(value, before, after):
    data = before + json.dumps(value) + after
    assert outcome(_loads, data) == outcome(json.loads, data)


def test_nesting_too_deep_raises_as_json_loads_does():
    with pytest.raises(RecursionError):
        json.loads("[" * 100_000)
    with pytest.raises(RecursionError):
        _loads("[" * 100_000)
