"""Judging the artifacts a stream delivered, read from the frames as the agent sent them (the transport drops or
mends what it cannot decode, an artifact without an id among them), and the task read once the stream closed:

- `artifacts` (MUST, §4.1.7): each artifact has an `artifactId` and at least one part; ids are unique within a
  task's `artifacts`;
- `artifact chunks` (SHOULD, §4.2.2): `append` extends an artifact sent before (in this stream, or in the Task it
  began with); nothing follows an artifact's `lastChunk`; its chunks keep one name;
- `artifacts: in the task` (MUST, §3.1.3): the task GetTask answers afterwards holds every artifact the stream
  delivered, under the same id (and name).

Pure functions over the text the tap kept (bounded by it); the counts read are bounded here too."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..a2a.client import new_message
from ..a2a.errors import SwitchboardError
from ..a2a.model import StatusUpdate, StreamEvent, Task, TaskState
from .streams import Finding
from .wire_log import Exchange

if TYPE_CHECKING:
    from .interface_probe import Probe

FRAMES_READ = 10_000  # frames of one stream judged; the probe reads no more events than that either
ARTIFACTS_READ = 1_000  # artifacts of one task, or chunks of one stream, judged
FOLLOW_UP_TEXT = "switchboard conformance"  # the answer to an agent that asks for input (a name, most often)


@dataclass
class Chunk:
    """One artifact as an event or a task carried it."""

    artifact_id: str  # "" when missing or not a string
    name: str | None
    parts: int  # how many parts; -1 when `parts` is not an array
    append: bool = False
    last: bool = False


@dataclass
class StreamArtifacts:
    """What a stream carried: the artifacts of the Task it began with, then each artifact update, in order."""

    task_id: str = ""
    begun: list[Chunk] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _event(value: Any, binding: str) -> tuple[str, dict[str, Any]] | None:
    """A stream frame's event: ("task", the task) or ("artifact", the update); None for anything else. v1.0 and
    v0.3's REST wrap it (`{"task": ...}`, `{"artifactUpdate": ...}`), v0.3's JSON-RPC names it by `kind`."""
    if binding == "JSONRPC":
        value = value.get("result") if isinstance(value, dict) else None
    if not isinstance(value, dict):
        return None
    for key, kind in (("task", "task"), ("artifactUpdate", "artifact")):
        if isinstance(value.get(key), dict):
            return kind, value[key]
    kinds = {"task": "task", "artifact-update": "artifact"}
    return (kinds[value["kind"]], value) if value.get("kind") in kinds else None


def chunk_of(artifact: Any, update: dict[str, Any] | None = None) -> Chunk:
    """An artifact object as sent (and the update that carried it: its append and lastChunk)."""
    found = artifact if isinstance(artifact, dict) else {}
    artifact_id, name, parts = found.get("artifactId"), found.get("name"), found.get("parts")
    return Chunk(
        artifact_id[:200] if isinstance(artifact_id, str) else "",
        name[:200] if isinstance(name, str) and name else None,
        len(parts) if isinstance(parts, list) else -1,
        append=bool(update and update.get("append") is True),
        last=bool(update and update.get("lastChunk") is True),
    )


def task_artifacts(task: Any) -> list[Chunk]:
    artifacts = task.get("artifacts") if isinstance(task, dict) else None
    return [chunk_of(a) for a in artifacts[:ARTIFACTS_READ]] if isinstance(artifacts, list) else []


def read_stream(exchange: Exchange | None, binding: str) -> StreamArtifacts:
    """The artifacts in a stream's frames (or its one JSON answer): the first Task's, then each update's."""
    seen = StreamArtifacts()
    if exchange is None or exchange.grpc:
        return seen
    texts = [data for data, cut in exchange.frames[:FRAMES_READ] if not cut]
    if not texts and not exchange.truncated:
        texts = [exchange.body]
    for text in texts:
        event = _event(_load(text), binding)
        if event is None:
            continue
        kind, body = event
        if kind == "task" and not seen.task_id and isinstance(body.get("id"), str):
            seen.task_id = body["id"][:200]
            seen.begun = task_artifacts(body)
        elif kind == "artifact" and len(seen.chunks) < ARTIFACTS_READ:
            seen.chunks.append(chunk_of(body.get("artifact"), body))
    return seen


def read_task(exchange: Exchange | None, binding: str) -> Any:
    """The task a GetTask answered (JSON-RPC's result, HTTP+JSON's body); None when it answered none."""
    if exchange is None or exchange.grpc or exchange.truncated:
        return None
    value = _load(exchange.body)
    if binding == "JSONRPC":
        value = value.get("result") if isinstance(value, dict) else None
    return value if isinstance(value, dict) else None


def judge_shape(stream: StreamArtifacts, task: Any) -> Finding | None:
    """Every artifact has an id and parts, and a task's ids are unique (§4.1.7); None when there was none."""
    every = stream.begun + stream.chunks + task_artifacts(task)
    if not every:
        return None
    for chunk in every:
        if not chunk.artifact_id:
            return Finding("artifacts", False, "an artifact without an artifactId", _shown(chunk))
        if chunk.parts <= 0:
            said = f"artifact {chunk.artifact_id!r} has no parts" if chunk.parts == 0 else (
                f"artifact {chunk.artifact_id!r}: `parts` is not an array"
            )  # fmt: skip
            return Finding("artifacts", False, said, _shown(chunk))
    for where, listed in (("the stream's Task", stream.begun), ("the task read afterwards", task_artifacts(task))):
        ids = [c.artifact_id for c in listed]
        twice = next((i for i in ids if ids.count(i) > 1), None)
        if twice is not None:
            return Finding("artifacts", False, f"{where} lists artifact {twice!r} {ids.count(twice)} times")
    return Finding("artifacts", True, f"{len(every)} artifact(s) and chunk(s), each with an id and parts")


def judge_chunks(stream: StreamArtifacts) -> Finding | None:
    """append extends an artifact begun before; nothing after lastChunk; one name per artifact (§4.2.2)."""
    if not stream.chunks:
        return None
    known = {c.artifact_id: c.name for c in stream.begun}
    closed: set[str] = set()
    for at, chunk in enumerate(stream.chunks, 1):
        where = f"update {at} of {len(stream.chunks)}, artifact {chunk.artifact_id!r}"
        if chunk.artifact_id in closed:
            return Finding("artifact chunks", False, f"{where}: a chunk after its lastChunk", _shown(chunk))
        if chunk.append and chunk.artifact_id not in known:
            return Finding("artifact chunks", False, f"{where}: append to an artifact never sent", _shown(chunk))
        before = known.get(chunk.artifact_id)
        if chunk.append and before and chunk.name and chunk.name != before:
            said = f"{where}: a chunk renamed it from {before!r} to {chunk.name!r}"
            return Finding("artifact chunks", False, said, _shown(chunk))
        known[chunk.artifact_id] = (before or chunk.name) if chunk.append else chunk.name
        if chunk.last:
            closed.add(chunk.artifact_id)
    return Finding("artifact chunks", True, f"{len(stream.chunks)} artifact update(s) for {len(known)} artifact(s)")


def judge_in_task(stream: StreamArtifacts, task: Any) -> Finding | None:
    """The task read once the stream closed holds each artifact the stream delivered, by id and name (§3.1.3)."""
    delivered: dict[str, str | None] = {}
    for chunk in stream.chunks:
        if chunk.artifact_id:
            delivered[chunk.artifact_id] = chunk.name or delivered.get(chunk.artifact_id)
    if not delivered or task is None:
        return None
    held = {c.artifact_id: c.name for c in task_artifacts(task)}
    missing = [i for i in delivered if i not in held]
    if missing:
        said = f"{len(missing)} of the {len(delivered)} artifact(s) the stream delivered are not in the task"
        return Finding("artifacts: in the task", False, f"{said} (first: {missing[0]!r})", f"{len(held)} artifact(s)")
    renamed = [i for i, name in delivered.items() if name and held[i] and held[i] != name]
    if renamed:
        first = renamed[0]
        said = f"artifact {first!r} is named {held[first]!r} in the task, {delivered[first]!r} in the stream"
        return Finding("artifacts: in the task", False, said, f"{len(held)} artifact(s)")
    return Finding("artifacts: in the task", True, f"the task holds the {len(delivered)} artifact(s) streamed")


def _shown(chunk: Chunk) -> str:
    flags = [name for name, on in (("append", chunk.append), ("lastChunk", chunk.last)) if on]
    named = f"artifact {chunk.artifact_id[:60]!r}" if chunk.artifact_id else "an artifact without an artifactId"
    return named + (f" ({', '.join(flags)})" if flags else "")


async def judge_stream_artifacts(p: Probe, exchange: Exchange | None, events: list[StreamEvent]) -> None:
    """The artifacts of the probe's stream (its exchange, as the tap kept it), then of its task read afterwards
    with GetTask. A stream that stopped for input and carried no artifact is followed up once, on its task, as a
    person would answer (most agents make their artifacts then). Nothing to judge where none came."""
    stream = read_stream(exchange, p.binding)
    states = [e.status.state for e in events if isinstance(e, Task | StatusUpdate)]
    if not stream.chunks and stream.task_id and states and states[-1] is TaskState.INPUT_REQUIRED:
        stream = await _follow_up(p, events[0]) or stream
    task: Any = None
    if stream.chunks and stream.task_id:
        mark = p.wire.mark()
        try:
            await p.t.get_task(stream.task_id)
        except SwitchboardError as exc:
            p.add("artifacts: in the task", "skip", f"the task could not be read: {exc.code}", op="get")
        task = read_task(next(iter(p.wire.since(mark)), None), p.binding)
    found = [judge_shape(stream, task), judge_chunks(stream), judge_in_task(stream, task)]
    if not any(found):
        p.add("artifacts", "skip", "the stream delivered no artifact", op="stream")
    for finding in found:
        if finding is not None:
            op = "get" if finding.key == "artifacts: in the task" else "stream"
            p.judge(finding.key, finding.ok, finding.detail, op=op, answered=finding.answered or finding.detail[:80])


async def _follow_up(p: Probe, first: StreamEvent) -> StreamArtifacts | None:
    """A second streamed message on the task the stream left waiting for input: its artifacts (None: no answer)."""
    if not isinstance(first, Task):
        return None
    message = new_message(FOLLOW_UP_TEXT, task_id=first.id, context_id=first.context_id)
    mark = p.wire.mark()
    try:
        async with asyncio.timeout(p.timeout / 2):
            read = 0
            async for _ in p.t.stream(message):
                read += 1
                if read >= FRAMES_READ:
                    break
    except (TimeoutError, SwitchboardError):
        pass  # judged from what came before the stream broke or was let go
    exchange = next(iter(p.wire.since(mark)), None)
    if exchange is None:
        return None
    followed = read_stream(exchange, p.binding)
    followed.task_id = followed.task_id or first.id  # a follow-up may open without the Task (v0.3 does)
    return followed
