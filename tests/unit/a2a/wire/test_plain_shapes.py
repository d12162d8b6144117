"""The codecs read the plain shapes a stream repeats (text parts, plain messages, artifacts and updates) in one
step. That path must agree with the general one on every document: the same object, the same notes, the same
refusal. Each document is a valid encoding, or one with a few places broken.
"""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from properties_support import _replace, events, mutated, paths, writable_odd_values

from switchboard.a2a.model import ArtifactUpdate, Message, StatusUpdate, TextPart
from switchboard.a2a.wire import v03, v10
from switchboard.a2a.wire.common import Notes, WireFormatError

CODECS = pytest.mark.parametrize("codec", [v10, v03], ids=["v1.0", "v0.3"])


@contextmanager
def general_path_only(codec):
    object.__setattr__(codec.DIALECT, "fast", False)
    try:
        yield
    finally:
        object.__setattr__(codec.DIALECT, "fast", True)


def outcome(codec, document):
    notes = Notes()
    try:
        value = codec.decode_event(document, notes)
    except WireFormatError as exc:
        value = ("refused", exc.message)
    return value, list(notes)


def both_paths(codec, document):
    fast = outcome(codec, document)
    with general_path_only(codec):
        general = outcome(codec, document)
    return fast, general


@CODECS
@settings(max_examples=300)
@given(data=st.data(), event=events, broken=st.booleans())
def test_the_one_step_path_reads_every_event_as_the_general_path_does(codec, data, event, broken):
    document = codec.encode_event(event)
    if broken:
        document = data.draw(mutated(document, values=writable_odd_values))
    fast, general = both_paths(codec, document)
    assert fast == general


EDGE_VALUES = [None, "", "x", 0, 1.5, True, False, [], {}, [{"text": "y"}], {"k": 1}]
PLAIN_CHUNK = {
    "taskId": "t",
    "contextId": "c",
    "append": True,
    "lastChunk": False,
    "artifact": {"artifactId": "a", "name": "n", "description": "d", "parts": [{"text": "x"}, {"text": ""}]},
}
PLAIN_STATUS = {
    "taskId": "t",
    "contextId": "c",
    "status": {
        "state": "TASK_STATE_WORKING",
        "message": {
            "messageId": "m",
            "role": "ROLE_AGENT",
            "parts": [{"text": "busy"}],
            "taskId": "t",
            "contextId": "c",
        },
        "timestamp": "2026-01-01T00:00:00Z",
    },
}


def as_v03(update: dict, kind: str) -> dict:
    """The v1.0 update above in v0.3 words (kinds, lowercase enums)."""
    out = {**update, "kind": kind}
    if "artifact" in out:
        out["artifact"] = {**out["artifact"], "parts": [{"kind": "text", **p} for p in out["artifact"]["parts"]]}
    if "status" in out:
        message = out["status"]["message"]
        message = {**message, "kind": "message", "role": "agent", "parts": [{"kind": "text", "text": "busy"}]}
        out["status"] = {**out["status"], "state": "working", "message": message}
    return out


@CODECS
@pytest.mark.parametrize("kind", ["status", "chunk"])
def test_every_edge_value_in_every_field_of_a_plain_update_reads_the_same_on_both_paths(codec, kind):
    """Empty strings, wrong types and extra keys exactly where the one-step path looks, one place at a time."""
    if codec is v10:
        plain = {"statusUpdate": PLAIN_STATUS} if kind == "status" else {"artifactUpdate": PLAIN_CHUNK}
    else:
        plain = as_v03(PLAIN_STATUS, "status-update") if kind == "status" else as_v03(PLAIN_CHUNK, "artifact-update")
    tried = 0
    for place in paths(plain)[1:]:
        for value in EDGE_VALUES:
            for add_key in (False, True):
                document = mutate_at(plain, place, value, add_key)
                fast, general = both_paths(codec, document)
                assert fast == general, (place, value, add_key)
                tried += 1
    assert tried > 200


def mutate_at(document, place, value, add_key):
    """Replace the value at `place`, or (add_key) give the object there one more key."""
    target = document
    for step in place[:-1]:
        target = target[step]
    if add_key and isinstance(target, dict):
        return _replace(document, (*place[:-1], "extra"), value, delete=False)
    return _replace(document, place, value, delete=False)


def test_a_streamed_chunk_and_status_take_the_one_step_path_and_lose_nothing():
    chunk = {"taskId": "t", "contextId": "c", "append": True, "artifact": {"artifactId": "a", "parts": [{"text": "x"}]}}
    status = {
        "taskId": "t",
        "contextId": "c",
        "status": {
            "state": "TASK_STATE_WORKING",
            "message": {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": "busy"}], "taskId": "t"},
            "timestamp": "2026-01-01T00:00:00Z",
        },
    }
    for document in ({"artifactUpdate": chunk}, {"statusUpdate": status}):
        fast, general = both_paths(v10, document)
        assert fast == general and fast[1] == []
        assert v10.encode_event(fast[0]) == document
    update = outcome(v10, {"artifactUpdate": chunk})[0]
    assert isinstance(update, ArtifactUpdate) and update.artifact.parts == [TextPart(text="x")]
    status_update = outcome(v10, {"statusUpdate": status})[0]
    assert isinstance(status_update, StatusUpdate) and isinstance(status_update.status.message, Message)
    assert status_update.status.message.text == "busy"
