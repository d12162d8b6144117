"""Recordings are untrusted (someone else's file given to `demo --replay` or `replay`): whatever bytes a file holds,
reading it (demo.recording_file.read_recording, behind both commands and the TUI's replay) either gives a transcript
the replay agents can serve whole, or a UsageError (exit 2) that names the file and says what is wrong. Nothing else
escapes, nothing hangs, nothing past the size bound is read; and what a valid recording replays is what it recorded.

Seeds: the real recordings in tests/fixtures/recordings (made by `send --record` against the demo fleet).
"""

from __future__ import annotations

import copy
import json
import os
import tempfile
import threading
import tracemalloc
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from a2a.types import a2a_pb2 as pb
from fuzz_support import fuzz
from google.protobuf.json_format import MessageToDict, ParseDict
from hypothesis import given
from hypothesis import strategies as st

from switchboard.a2a.errors import UsageError
from switchboard.a2a.model import Task
from switchboard.a2a.wire import v10
from switchboard.a2a.wire.common import Notes
from switchboard.demo import recording_file
from switchboard.demo.recording_file import MAX_AGENTS, MAX_NESTING, read_recording
from switchboard.demo.replay import (
    base64_bytes,
    first_messages,
    live_event,
    pauses,
    replay_agents,
    scripts_of,
    servable_time,
)
from switchboard.demo.replay_numbers import recorded_numbers, restored
from switchboard.export.transcript import Transcript, replay
from switchboard.tui.replay import steps_of

SEEDS = sorted((Path(__file__).resolve().parents[1] / "fixtures" / "recordings").glob("*.json"))
SEED_DOCS = [json.loads(p.read_text()) for p in SEEDS]
_KEY = {
    pb.Task: "task",
    pb.Message: "message",
    pb.TaskStatusUpdateEvent: "status_update",
    pb.TaskArtifactUpdateEvent: "artifact_update",
}
_DIR = Path(tempfile.mkdtemp(prefix="fuzz-recordings-"))

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**64), max_value=2**64)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


def _file(content: bytes, name: str = "recording.json") -> Path:
    path = _DIR / name
    path.write_bytes(content)
    return path


def served_json(event: Any) -> dict[str, Any]:
    """A protobuf event as the SDK's server writes it: a StreamResponse, as JSON."""
    response = pb.StreamResponse()
    getattr(response, _KEY[type(event)]).CopyFrom(event)
    return MessageToDict(response)


def outcome(path: Path) -> Transcript | UsageError:
    """read_recording's answer: a transcript, or the one documented error (exit 2, naming the file)."""
    try:
        transcript = read_recording(path)
    except UsageError as exc:
        assert exc.exit_code == 2
        assert str(path) in exc.message or path.name in exc.message, exc.message
        assert exc.hint and "--record FILE.json" in exc.hint
        return exc
    usable(transcript, path)
    return transcript


def usable(transcript: Transcript, path: Path) -> None:
    """Everything the replay commands do with a loaded recording, done without an error: the agents built, the
    TUI's steps, the pauses, the views folded, and every event served as recorded (ids, times aside)."""
    scripts_of(transcript)
    first_messages(transcript)
    replay_agents(transcript, path, paced=True)
    steps_of(transcript)
    replay(transcript)
    for exchange in transcript.exchanges:
        pauses(exchange)
        table = recorded_numbers([v10.encode_event(r.event) for r in exchange.events])
        for recorded in exchange.events:
            event = recorded.event
            task_id = (event.id if isinstance(event, Task) else getattr(event, "task_id", None)) or "t"
            context_id = getattr(event, "context_id", None) or "c"
            served, _ = restored(served_json(live_event(recorded, task_id, context_id)), table)
            assert _comparable(served) == _comparable(v10.encode_event(event)), (served, v10.encode_event(event))


def _comparable(encoded: dict[str, Any]) -> Any:
    """A v1.0 event as decoded again, its status time as the instant it names (a zone-less one read as UTC, one
    that is no time left out): how a replayed event is compared with the recorded one."""
    doc = copy.deepcopy(encoded)
    inner = next(iter(doc.values()))
    status = inner.get("status") if isinstance(inner, dict) else None
    if isinstance(status, dict) and "timestamp" in status:
        stamp = servable_time(status.pop("timestamp"))
        if stamp is not None:
            status["timestamp"] = _instant(stamp)
    return _without_ids(v10.encode_event(v10.decode_event(doc, Notes())))


def _without_ids(value: Any) -> Any:
    """`value` with the ids a replay gives live values (task and context ids) left out, and the empty lists and
    objects the protocol's JSON does not tell from absent ones."""
    if isinstance(value, list):
        return [_without_ids(item) for item in value]
    if not isinstance(value, dict):
        return value
    live = ("taskId", "contextId", "id")
    out = {k: _without_ids(v) for k, v in value.items() if k not in live and v not in ([], {})}
    if isinstance(out.get("raw"), str):  # a file's bytes: base64 in any of its spellings
        out["raw"] = base64_bytes(out["raw"])
    return out


def _instant(stamp: str) -> str:
    from google.protobuf.timestamp_pb2 import Timestamp

    moment = Timestamp()
    moment.FromJsonString(stamp)
    return moment.ToJsonString()


# --- arbitrary input ----------------------------------------------------------------------------------------


@fuzz(examples=300)
@given(st.binary(max_size=400))
def test_arbitrary_bytes_are_a_recording_or_a_usage_error(content):
    outcome(_file(content))


@fuzz(examples=300)
@given(json_values)
def test_arbitrary_json_is_a_recording_or_a_usage_error(doc):
    outcome(_file(json.dumps(doc).encode()))


@fuzz(examples=200)
@given(json_values, st.sampled_from(["exchanges", "agents", "title", "kind", "run", "exportedAt", "version"]))
def test_a_transcript_with_any_value_at_a_top_field_is_loaded_or_refused(value, key):
    doc = copy.deepcopy(SEED_DOCS[0])
    doc[key] = value
    outcome(_file(json.dumps(doc).encode()))


def _paths(value: Any, at: tuple = ()) -> Iterator[tuple]:
    yield at
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _paths(item, (*at, index))


def _set(doc: Any, path: tuple, value: Any) -> Any:
    if not path:
        return value
    parent = doc
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return doc


WRONG = [None, True, 0, 2**70, 1.5, "", "2026-11-27T05:06:22.393536", [1], {"a": 1}]


def _shapes(doc: Any) -> list[tuple]:
    """Every field of `doc`, once per place in its shape (a list's first item stands for the rest)."""
    seen: dict[tuple, tuple] = {}
    for path in list(_paths(doc))[1:]:
        seen.setdefault(tuple("[]" if isinstance(step, int) else step for step in path), path)
    return list(seen.values())


def _one_exchange(name: str, number: int) -> dict[str, Any]:
    doc = copy.deepcopy(SEED_DOCS[[p.stem for p in SEEDS].index(name)])
    doc["exchanges"] = [doc["exchanges"][number]]
    return doc


# Each seed whole, but the conversation by its answer alone (its question is interviewer-question's shape).
SHAPES = {p.stem: d for p, d in zip(SEEDS, SEED_DOCS, strict=True) if p.stem != "interviewer-conversation"}
SHAPES["interviewer-answer"] = _one_exchange("interviewer-conversation", 1)


@pytest.mark.parametrize("seed", sorted(SHAPES))
def test_every_field_of_a_real_recording_with_every_wrong_type_is_loaded_or_refused(seed):
    """Exhaustive: every field (and list item) of a real recording, in turn, set to each of WRONG."""
    tried = 0
    for path in _shapes(SHAPES[seed]):
        for value in WRONG:
            doc = _set(copy.deepcopy(SHAPES[seed]), path, value)
            outcome(_file(json.dumps(doc).encode(), f"wrong-{seed}.json"))
            tried += 1
    assert tried > 100


@st.composite
def mutated_recordings(draw) -> Any:
    """A real recording with a few fields replaced, removed, or added (any JSON value)."""
    doc = copy.deepcopy(draw(st.sampled_from(SEED_DOCS)))
    for _ in range(draw(st.integers(1, 4))):
        paths = list(_paths(doc))
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "remove", "add"]))
        target = doc
        for step in path[:-1] if path else ():
            target = target[step]
        if action == "replace" or not path:
            doc = _set(doc, path, draw(json_values))
        elif action == "remove":
            target.pop(path[-1])
        else:
            holder = _set(doc, (), doc) if not path else target[path[-1]]
            if isinstance(holder, dict):
                holder[draw(st.text(max_size=10))] = draw(json_values)
            elif isinstance(holder, list):
                holder.append(draw(json_values))
    return doc


@fuzz(examples=200)
@given(mutated_recordings())
def test_a_mutated_real_recording_is_loaded_and_replays_as_recorded_or_is_refused(doc):
    outcome(_file(json.dumps(doc).encode()))


@fuzz(examples=150)
@given(st.sampled_from(SEEDS), st.integers(0, 10_000), st.binary(min_size=1, max_size=8))
def test_a_real_recording_with_bytes_overwritten_is_loaded_or_refused(seed, offset, junk):
    content = bytearray(seed.read_bytes())
    at = offset % len(content)
    content[at : at + len(junk)] = junk
    outcome(_file(bytes(content)))


@pytest.mark.parametrize("seed", SEEDS, ids=[p.stem for p in SEEDS])
def test_every_real_recording_loads_and_replays_as_recorded(seed):
    assert isinstance(outcome(seed), Transcript)


# --- the bounds -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "nested"),
        (b'{"format": "a2a-switchboard.transcript", "x": ' + b"[" * 300 + b"]" * 300 + b"}", "nested"),
        (b"\xff\xfe{}", "not UTF-8"),
        (b'{"format": "a2a-switchboard.transcript\xc3"}', "not UTF-8"),
        (b'{"version": NaN}', "NaN"),
        (b'{"a": Infinity}', "Infinity"),
        (b'{"a": ' + b"9" * 5000 + b"}", "is not JSON"),
        (b'{"format": "a2a-switchboard.transcript", "title": "\\ud800"}', "\\ud800"),
        (b"", "is not JSON"),
    ],
    ids=["deep-array", "deep-field", "utf16-bom", "bad-utf8", "nan", "infinity", "huge-int", "surrogate", "empty"],
)
def test_malformed_files_are_refused_saying_what_is_wrong(content, says):
    result = outcome(_file(content))
    assert isinstance(result, UsageError) and says in result.message, result


def test_nesting_up_to_the_bound_is_read_and_past_it_refused():
    inside = {"format": "a2a-switchboard.transcript", "version": 1, "exchanges": [], "run": {}}
    deep: Any = 1
    for _ in range(MAX_NESTING - 1):
        deep = [deep]
    assert isinstance(outcome(_file(json.dumps({**inside, "run": {"x": deep[0]}}).encode())), Transcript)
    refused = outcome(_file(json.dumps({**inside, "run": {"x": [deep]}}).encode()))
    assert isinstance(refused, UsageError) and "nested" in refused.message


def test_a_huge_file_is_refused_unread(tmp_path):
    huge = tmp_path / "huge.json"
    with huge.open("wb") as file:
        file.truncate(50 * 2**30)  # 50 GB, sparse: reading it would take the machine's memory
    tracemalloc.start()
    try:
        refused = outcome(huge)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert isinstance(refused, UsageError) and "larger than" in refused.message
    assert peak < 2**20  # nothing of it was read


def test_an_endless_stream_is_read_only_up_to_the_bound(tmp_path, monkeypatch):
    """A FIFO (or a device) has no size: the reader stops one byte past the bound, whatever keeps coming."""
    monkeypatch.setattr(recording_file, "MAX_BYTES", 2**20)
    fifo = tmp_path / "endless.json"
    os.mkfifo(fifo)
    written = [0]

    def feed() -> None:
        try:
            with fifo.open("wb") as pipe:
                while written[0] < 64 * 2**20:  # far past the bound: a reader that kept reading would get it all
                    pipe.write(b" " * 65536)
                    written[0] += 65536
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    refused = outcome(fifo)
    writer.join(30)
    assert not writer.is_alive()
    assert isinstance(refused, UsageError) and "larger than 1 MB" in refused.message
    assert written[0] < 8 * 2**20  # the writer was cut off soon after the bound, not read to its end


def test_a_directory_and_a_missing_file_are_refused(tmp_path):
    assert "directory" in outcome(tmp_path).message  # type: ignore[union-attr]
    assert "cannot read" in outcome(tmp_path / "absent.json").message  # type: ignore[union-attr]


# --- what a valid recording replays -----------------------------------------------------------------------------

zone_less = st.datetimes(min_value=datetime(1, 1, 2), max_value=datetime(9999, 12, 30)).map(lambda d: d.isoformat())
stamps = (
    zone_less
    | st.datetimes(timezones=st.just(UTC)).map(lambda d: d.isoformat().replace("+00:00", "Z"))
    | st.datetimes(min_value=datetime(2, 1, 1), max_value=datetime(9998, 1, 1), timezones=st.timezones()).map(
        lambda d: d.isoformat()
    )
    | st.text(max_size=30)
)


@fuzz(examples=200)
@given(stamps)
def test_a_status_time_in_any_style_replays_as_the_instant_it_names_or_is_left_out(stamp):
    doc = copy.deepcopy(SEED_DOCS[SEEDS.index(next(p for p in SEEDS if p.stem == "legacy-task"))])
    doc["exchanges"][0]["events"][0]["event"]["task"]["status"]["timestamp"] = stamp
    transcript = outcome(_file(json.dumps(doc).encode()))
    assert isinstance(transcript, Transcript), transcript  # a time is never a reason to refuse a recording
    served = served_json(live_event(transcript.exchanges[0].events[0], "t", "c"))["task"]["status"]
    try:
        meant = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        meant = None
    if meant is None or servable_time(stamp) is None:
        assert "timestamp" not in served or stamp == served.get("timestamp")
        return
    if meant.tzinfo is None:
        meant = meant.replace(tzinfo=UTC)  # a time without a zone is UTC (the A2A spec's times are)
    assert datetime.fromisoformat(served["timestamp"].replace("Z", "+00:00")) == meant


def test_the_zone_less_time_of_the_issue_replays_as_utc():
    stamp = "2026-11-27T05:06:22.393536"
    assert servable_time(stamp) == "2026-11-27T05:06:22.393536Z"
    assert servable_time("2026-11-27T05:06:22.123456789Z") == "2026-11-27T05:06:22.123456789Z"  # as recorded
    assert servable_time("yesterday") is None


data_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=25,
)


@fuzz(examples=200)
@given(data_values, st.dictionaries(st.text(max_size=6), data_values, max_size=3))
def test_numbers_in_data_and_metadata_come_back_as_recorded(data, metadata):
    """Through the SDK's protobuf Struct (every number a double) and back: the recorded value, int or float, in
    data parts and metadata alike, as the replay server's RecordedNumbers puts it back."""
    event = {
        "message": {
            "messageId": "m",
            "role": "ROLE_AGENT",
            "parts": [{"data": data}, {"text": "t", "metadata": metadata}] if metadata else [{"data": data}],
            **({"metadata": metadata} if metadata else {}),
        }
    }
    served = MessageToDict(ParseDict(event, pb.StreamResponse()))
    back, _ = restored(served, recorded_numbers([event]))
    assert json.dumps(back, sort_keys=True) == json.dumps(event, sort_keys=True)


def test_a_recording_of_more_agents_than_a_replay_serves_is_refused():
    """Each agent is served on a port of its own: a recording naming thousands would take as many."""
    doc = copy.deepcopy(SEED_DOCS[[p.stem for p in SEEDS].index("legacy-task")])
    exchange = doc["exchanges"][0]
    doc["exchanges"] = [{**copy.deepcopy(exchange), "agent": f"agent{n}"} for n in range(MAX_AGENTS + 1)]
    refused = outcome(_file(json.dumps(doc).encode()))
    assert isinstance(refused, UsageError) and f"at most {MAX_AGENTS}" in refused.message
    doc["exchanges"] = doc["exchanges"][:MAX_AGENTS]
    assert isinstance(outcome(_file(json.dumps(doc).encode())), Transcript)


def test_a_key_named_raw_inside_data_is_data_not_a_file():
    """Only a file part's `raw` must be base64; an agent's data may hold any key, `raw` too."""
    doc = copy.deepcopy(SEED_DOCS[[p.stem for p in SEEDS].index("echo-data")])
    doc["exchanges"][0]["events"][0]["event"]["message"]["parts"][1]["data"] = {"raw": "not base64 at all!"}
    assert isinstance(outcome(_file(json.dumps(doc).encode())), Transcript)
