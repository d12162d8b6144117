"""Property tests of both wire codecs: valid shapes round-trip; broken shapes decode or raise WireFormatError.

Every document is a valid encoding with a few places broken (wrong types, unknown enum values, missing fields,
huge strings, deep nesting). Decoding either returns a model object, with each oddity as a note, or raises
WireFormatError (the client turns that into InvalidAgentResponseError); nothing else escapes.
"""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from properties_support import (
    HOSTILE_TEXT,
    deep_dict,
    deep_list,
    events,
    has_terminal_controls,
    mutated,
    tasks,
)

from switchboard.a2a.model import Message, StreamEvent, Task, TaskPage
from switchboard.a2a.turn import TaskView
from switchboard.a2a.wire import v03, v10
from switchboard.a2a.wire.common import MAX_DEPTH, MAX_NOTES, Notes, WireFormatError
from switchboard.cli.output import Out, json_text
from switchboard.cli.render import render_event, stream_response

CODECS = pytest.mark.parametrize("codec", [v10, v03], ids=["v1.0", "v0.3"])
FEW = settings(max_examples=150)


def decode_or_wire_error(decode, document):
    """The decoded value (None when the decoder refused with WireFormatError), and the notes."""
    notes = Notes()
    try:
        value = decode(document, notes)
    except WireFormatError as exc:
        assert exc.message
        value = None
    assert len(notes) <= MAX_NOTES and all(isinstance(n, str) for n in notes)
    return value, notes


def shown_as_text(event: StreamEvent) -> str:
    buffer = io.StringIO()
    render_event(Out(buffer), event)
    return buffer.getvalue()


@CODECS
@FEW
@given(event=events)
def test_a_valid_event_round_trips_without_notes(codec, event):
    encoded = codec.encode_event(event)
    notes = Notes()
    decoded = codec.decode_event(encoded, notes)
    assert codec.encode_event(decoded) == encoded
    assert list(notes) == []


@CODECS
@FEW
@given(data=st.data(), event=events)
def test_a_broken_stream_event_decodes_or_is_refused_as_a_wire_error(codec, data, event):
    document = data.draw(mutated(codec.encode_event(event)))
    decoded, _ = decode_or_wire_error(codec.decode_event, document)
    if decoded is None:
        return
    assert isinstance(decoded, StreamEvent)
    # What was decoded can be shown, re-encoded and written out as JSON: nothing was kept too deep or unencodable.
    text = shown_as_text(decoded)
    assert not has_terminal_controls(text)
    written = json_text(stream_response(decoded))
    written.encode("utf-8")
    assert not has_terminal_controls(written.replace("\n", ""))
    TaskView().apply(decoded)


@CODECS
@FEW
@given(data=st.data(), task=tasks)
def test_a_broken_task_or_send_result_decodes_or_is_refused_as_a_wire_error(codec, data, task):
    decoded, _ = decode_or_wire_error(codec.decode_task, data.draw(mutated(codec.encode_task(task))))
    assert decoded is None or isinstance(decoded, Task)
    wrapped = v10.encode_send_result(task) if codec is v10 else codec.encode_task(task)
    decoded, _ = decode_or_wire_error(codec.decode_send_result, data.draw(mutated(wrapped)))
    assert decoded is None or isinstance(decoded, Task | Message)


@FEW
@given(data=st.data(), page=st.lists(tasks, max_size=3))
def test_a_broken_task_list_page_decodes_or_is_refused(data, page):
    document = data.draw(mutated(v10.encode_task_page(TaskPage(tasks=page, next_page_token="n", page_size=3))))
    decoded, _ = decode_or_wire_error(v10.decode_task_page, document)
    assert decoded is None or isinstance(decoded, TaskPage)


@CODECS
@settings(max_examples=60)
@given(value=st.sampled_from([deep_list(5000), deep_dict(5000), deep_dict(MAX_DEPTH + 5)]))
def test_metadata_and_data_nested_deeper_than_the_limit_are_cut_with_a_note(codec, value):
    frame = {
        "kind": "status-update",
        "taskId": "t",
        "contextId": "c",
        "status": {"state": "working"},
        "metadata": {"deep": value},
    }
    document = frame if codec is v03 else {"statusUpdate": {k: v for k, v in frame.items() if k != "kind"}}
    notes = Notes()
    update = codec.decode_event(document, notes)
    assert any("nested more than" in note for note in notes)
    json_text(stream_response(update))  # writable: the depth left is far below the recursion limit
    part = {"kind": "data", "data": {"deep": value}} if codec is v03 else {"data": {"deep": value}}
    notes = Notes()
    decoded = codec.decode_part(part, notes)
    assert decoded is not None and any("nested more than" in note for note in notes)


@CODECS
@settings(max_examples=60)
@given(
    odd=st.sampled_from([deep_list(5000), deep_dict(5000), 10**40, "TASK_STATE_BOGUS", "bogus-state", *HOSTILE_TEXT])
)
def test_odd_state_role_and_text_values_become_notes(codec, odd):
    message = {
        "messageId": "m",
        "role": odd,
        "parts": [{"kind": "text", "text": odd} if codec is v03 else {"text": odd}],
    }
    notes = Notes()
    decoded = codec.decode_message(message, notes)
    assert notes, "an odd role is reported"
    assert isinstance(decoded.text, str) and len(decoded.text) < 100_000
    notes = Notes()
    assert codec.decode_state(odd, notes).value == "unknown" and notes
    assert all(len(note) < 300 for note in notes)
