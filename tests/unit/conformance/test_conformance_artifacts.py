"""The artifact judges (conformance/artifacts.py), from stream frames and task bodies as agents send them: each
artifact has an id and parts (§4.1.7), chunks append to what was sent and stop at lastChunk (§4.2.2), and the task
read afterwards holds what the stream delivered (§3.1.3); v1.0 and v0.3 shapes, JSON-RPC and HTTP+JSON."""

from __future__ import annotations

import json

import pytest

from switchboard.conformance.artifacts import judge_chunks, judge_in_task, judge_shape, read_stream, read_task
from switchboard.conformance.wire_log import Exchange


def art(artifact_id: str | None = "a1", name: str | None = "report", parts: object = None) -> dict:
    found: dict = {"parts": [{"text": "x"}] if parts is None else parts}
    found |= {"artifactId": artifact_id} if artifact_id is not None else {}
    return found | ({"name": name} if name else {})


def chunk(artifact: dict, *, append: bool = False, last: bool = False) -> dict:
    flags = ({"append": True} if append else {}) | ({"lastChunk": True} if last else {})
    return {"artifactUpdate": {"taskId": "t1", "contextId": "c1", "artifact": artifact, **flags}}


def task(*artifacts: dict) -> dict:
    found = {"id": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_WORKING"}}
    return found | ({"artifacts": list(artifacts)} if artifacts else {})


def stream(*results: dict, binding: str = "JSONRPC") -> Exchange:
    exchange = Exchange(1, "POST", "http://agent/", status=200, content_type="text/event-stream")
    wrap = (lambda r: {"jsonrpc": "2.0", "id": 1, "result": r}) if binding == "JSONRPC" else (lambda r: r)
    exchange.frames = [(json.dumps(wrap(r)), False) for r in results]
    return exchange


def judged(*results: dict, after: dict | None = None) -> list[tuple[str, bool]]:
    seen = read_stream(stream(*results), "JSONRPC")
    found = [judge_shape(seen, after), judge_chunks(seen), judge_in_task(seen, after)]
    return [(f.key, f.ok) for f in found if f is not None]


def test_a_chunked_artifact_held_by_the_task_afterwards_passes_all_three():
    frames = [{"task": task()}, chunk(art()), chunk(art(), append=True), chunk(art(), append=True, last=True)]
    assert judged(*frames, after=task(art())) == [
        ("artifacts", True),
        ("artifact chunks", True),
        ("artifacts: in the task", True),
    ]


@pytest.mark.parametrize(
    ("artifact", "said"),
    [(art(artifact_id=None), "without an artifactId"), (art(artifact_id=""), "without"), (art(parts=[]), "no parts"),
     (art(parts={"text": "x"}), "not an array")],
)  # fmt: skip
def test_an_artifact_needs_an_id_and_parts(artifact, said):
    seen = read_stream(stream({"task": task()}, chunk(artifact)), "JSONRPC")
    finding = judge_shape(seen, None)
    assert finding is not None and not finding.ok and said in finding.detail


def test_artifact_ids_are_unique_within_a_task():
    finding = judge_shape(read_stream(stream({"task": task(art(), art())}), "JSONRPC"), None)
    assert finding is not None and not finding.ok and "2 times" in finding.detail


@pytest.mark.parametrize(
    ("frames", "said"),
    [
        ([chunk(art(), last=True), chunk(art(), append=True)], "after its lastChunk"),
        ([chunk(art("a2"), append=True)], "append to an artifact never sent"),
        ([chunk(art()), chunk(art(name="other"), append=True)], "renamed it"),
    ],
)
def test_chunks_append_to_what_was_sent_and_stop_at_the_last(frames, said):
    finding = judge_chunks(read_stream(stream({"task": task()}, *frames), "JSONRPC"))
    assert finding is not None and not finding.ok and said in finding.detail, finding


def test_appending_to_an_artifact_the_opening_task_held_is_right():
    finding = judge_chunks(read_stream(stream({"task": task(art())}, chunk(art(), append=True)), "JSONRPC"))
    assert finding is not None and finding.ok


def test_a_replacing_chunk_after_an_open_one_is_right():
    finding = judge_chunks(read_stream(stream({"task": task()}, chunk(art()), chunk(art(name="v2"))), "JSONRPC"))
    assert finding is not None and finding.ok


@pytest.mark.parametrize(
    ("after", "ok", "said"),
    [(task(), False, "not in the task"), (task(art(name="else")), False, "is named 'else'"), (task(art()), True, "")],
)
def test_the_task_read_afterwards_holds_what_was_streamed(after, ok, said):
    finding = judge_in_task(read_stream(stream({"task": task()}, chunk(art(), last=True)), "JSONRPC"), after)
    assert finding is not None and finding.ok is ok and said in finding.detail


def test_v03_events_are_named_by_kind_and_rest_frames_carry_no_envelope():
    v03 = {"kind": "artifact-update", "taskId": "t1", "contextId": "c1", "artifact": art(), "lastChunk": True}
    seen = read_stream(stream({"kind": "task", **task()}, v03), "JSONRPC")
    assert (seen.task_id, [c.artifact_id for c in seen.chunks], seen.chunks[0].last) == ("t1", ["a1"], True)
    rest = read_stream(stream({"task": task()}, chunk(art()), binding="HTTP+JSON"), "HTTP+JSON")
    assert [c.artifact_id for c in rest.chunks] == ["a1"]


def test_a_stream_without_artifacts_is_nothing_to_judge():
    assert judged({"task": task()}, {"statusUpdate": {"taskId": "t1", "status": {"state": "x"}}}) == []


def test_a_task_answer_is_read_per_binding_and_anything_else_is_none():
    body = Exchange(1, "POST", "http://agent/", status=200, body=json.dumps({"jsonrpc": "2.0", "result": task()}))
    assert read_task(body, "JSONRPC")["id"] == "t1"
    assert (
        read_task(Exchange(2, "GET", "http://agent/", status=200, body=json.dumps(task())), "HTTP+JSON")["id"] == "t1"
    )
    assert read_task(Exchange(3, "GET", "http://agent/", status=200, body="not json"), "HTTP+JSON") is None
    assert read_task(None, "JSONRPC") is None
