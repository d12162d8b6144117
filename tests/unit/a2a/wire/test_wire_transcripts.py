"""The codecs read every captured exchange and write it back exactly as the official servers sent it."""

from __future__ import annotations

import json

import pytest
from transcripts import JSONRPC_DIRS, ROOT, files, load_json, sse_payloads, version_of

from switchboard.a2a.cards import choose_endpoint, parse_card
from switchboard.a2a.errors import protocol_error_from
from switchboard.a2a.model import ArtifactUpdate, DataPart, FilePart, Message, StatusUpdate, Task, TaskState
from switchboard.a2a.turn import TaskView
from switchboard.a2a.wire import codec_for
from switchboard.a2a.wire.common import Notes

SSE_FILES = [(d, p) for d in JSONRPC_DIRS for p in files(d, ".sse")]


@pytest.mark.parametrize(("directory", "path"), SSE_FILES, ids=[p.name for _, p in SSE_FILES])
def test_every_stream_event_round_trips(directory, path):
    codec = codec_for(version_of(directory))
    results = [payload["result"] for _, payload in sse_payloads(path) if "result" in payload]
    assert results or "error" in path.read_text()
    for result in results:
        notes = Notes()
        event = codec.decode_event(result, notes)
        assert codec.encode_event(event) == result
        assert not notes, notes


RESULT_FILES = [
    (d, p)
    for d in JSONRPC_DIRS
    for p in files(d, ".json")
    if "card" not in p.name and "list-tasks" not in p.name and "result" in (load_json(p) or {})
]


@pytest.mark.parametrize(("directory", "path"), RESULT_FILES, ids=[p.name for _, p in RESULT_FILES])
def test_every_json_result_round_trips(directory, path):
    codec = codec_for(version_of(directory))
    result = json.loads(path.read_text())["result"]
    notes = Notes()
    if "send" in path.name:
        decoded = codec.decode_send_result(result, notes)
        encoded = codec.encode_send_result(decoded) if codec.VERSION == "1.0" else codec.encode_event(decoded)
    else:
        decoded = codec.decode_task(result, notes)
        encoded = codec.encode_task(decoded)
    assert encoded == result
    assert not notes, notes


def test_list_tasks_reads_defaults_printed_as_empty_strings():
    result = json.loads((ROOT / "v10-jsonrpc/v10-45-list-tasks.json").read_text())["result"]
    page = codec_for("1.0").decode_task_page(result, Notes())
    assert page.total_size == 1 and page.page_size == 50
    assert page.next_page_token is None
    task = page.tasks[0]
    assert task.status.state is TaskState.COMPLETED
    assert [m.text for m in task.history][:2] == ["hi", "thinking"]
    assert task.history[0].parts[0].media_type is None  # "" means absent


ERROR_FILES = [(d, p) for d in JSONRPC_DIRS for p in files(d, ".json") if "error" in (load_json(p) or {})]
EXPECTED_NAMES = {
    -32001: "TaskNotFoundError",
    -32002: "TaskNotCancelableError",
    -32004: "UnsupportedOperationError",
    -32601: "MethodNotFoundError",
    -32009: "VersionNotSupportedError",
}


@pytest.mark.parametrize(("directory", "path"), ERROR_FILES, ids=[p.name for _, p in ERROR_FILES])
def test_every_error_keeps_its_a2a_name(directory, path):
    error = protocol_error_from(json.loads(path.read_text())["error"])
    assert error.a2a_code == json.loads(path.read_text())["error"]["code"]
    if error.a2a_code in EXPECTED_NAMES:
        assert error.code == EXPECTED_NAMES[error.a2a_code]
    assert error.message
    assert error.envelope()["error"]["code"] == error.code


@pytest.mark.parametrize("directory", JSONRPC_DIRS)
def test_greeting_turn_assembles_the_chunked_artifact_exactly(directory):
    prefix = "v10" if directory.startswith("v10") else "v03"
    codec = codec_for(version_of(directory))
    view = TaskView()
    for name in (f"{prefix}-30-stream-first.sse", f"{prefix}-31-stream-followup-chunked-artifact.sse"):
        for _, payload in sse_payloads(ROOT / directory / name):
            view.apply(codec.decode_event(payload["result"], Notes()))
        if name.endswith("first.sse"):
            assert view.state is TaskState.INPUT_REQUIRED and view.turn_over
            assert view.status_text == "What name should I greet?"
    assert view.state is TaskState.COMPLETED
    assert view.artifacts["greeting-artifact"].text == "Hello, Grace! Nice to meet you."
    assert view.artifacts["greeting-artifact"].closed
    extras = view.artifacts["extras-artifact"].parts
    assert isinstance(extras[0], DataPart) and extras[0].data["name"] == "Grace"
    assert isinstance(extras[1], FilePart) and extras[1].content == b"hello bytes\n" and extras[1].name == "hello.txt"
    assert isinstance(extras[2], FilePart) and extras[2].url == "https://example.com/hello.png"
    assert [s.state for s in view.timeline][-1] is TaskState.COMPLETED
    assert len({m.message_id for m in view.history}) == len(view.history)


def test_event_kinds_are_told_apart_in_both_versions():
    v10 = sse_payloads(ROOT / "v10-jsonrpc/v10-31-stream-followup-chunked-artifact.sse")
    kinds = [type(codec_for("1.0").decode_event(p["result"], Notes())) for _, p in v10]
    assert kinds == [StatusUpdate, ArtifactUpdate, ArtifactUpdate, ArtifactUpdate, ArtifactUpdate, StatusUpdate]
    quick = json.loads((ROOT / "v03-jsonrpc-sdk03-native/v03-21-send-quick-message-reply.json").read_text())
    assert isinstance(codec_for("0.3").decode_send_result(quick["result"], Notes()), Message)
    first = json.loads((ROOT / "v10-jsonrpc/v10-10-send-blocking-first.json").read_text())
    assert isinstance(codec_for("1.0").decode_send_result(first["result"], Notes()), Task)


CARD_CASES = [
    ("v10-jsonrpc/v10-01-agent-card.json", "v1.0", "1.0"),
    ("v03-jsonrpc-sdk13-compat/v03-01-agent-card.json", "v1.0", "1.0"),  # the same merged card
    ("v03-jsonrpc-sdk03-native/v03-01-agent-card.json", "legacy", "0.3"),
    ("v03-jsonrpc-sdk03-native/v03-02-agent-card-legacy-path.json", "legacy", "0.3"),
]


@pytest.mark.parametrize(("name", "shape", "version"), CARD_CASES)
def test_cards_choose_the_interface_spec_notes_section_10_says(name, shape, version):
    raw = json.loads((ROOT / name).read_text())
    card = parse_card(raw)
    assert card.shape == shape
    endpoint = choose_endpoint(card)
    assert endpoint.version == version
    assert endpoint.url.startswith("http://127.0.0.1:")
    assert card.skills[0].examples == ["hi", "quick hello", "slow job"]
    assert card.capabilities.streaming is True
    assert card.raw == raw


def test_merged_card_ignores_its_top_level_legacy_version():
    card = parse_card(json.loads((ROOT / "v10-jsonrpc/v10-01-agent-card.json").read_text()))
    assert card.legacy_protocol_version == "0.3"  # the misleading merged field
    assert choose_endpoint(card).version == "1.0"
    assert choose_endpoint(card, prefer_version="0.3").version == "0.3"
    assert card.capabilities.extended_card is True
