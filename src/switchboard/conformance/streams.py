"""Judging one stream (SendStreamingMessage, SubscribeToTask) from what went over the wire and the events the
transport made of it: the content type, every frame, the first event, the task every event is about, the state
values and their order, and where the stream closed. Pure functions: the probe feeds them and turns each Finding
into a Check."""

from __future__ import annotations

import json
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from ..a2a.model import ArtifactUpdate, Message, StatusUpdate, StreamEvent, Task, TaskState
from .wire_log import Exchange

_V10_STATES = frozenset(
    f"TASK_STATE_{name}"
    for name in (
        "SUBMITTED",
        "WORKING",
        "INPUT_REQUIRED",
        "AUTH_REQUIRED",
        "COMPLETED",
        "CANCELED",
        "FAILED",
        "REJECTED",
    )
)
# v0.3's JSON names (with `unknown`), and its REST binding's proto names (CANCELLED, as the v0.3 proto spells it)
_V03_STATES = frozenset(state.value for state in TaskState)
_V03_REST_STATES = _V10_STATES | {"TASK_STATE_CANCELLED"}


@dataclass
class Finding:
    key: str  # the requirement (requirements.py)
    ok: bool
    detail: str
    answered: str = ""


def valid_states(version: str, binding: str) -> frozenset[str]:
    """The task state values the interface's wire version defines."""
    if version == "1.0":
        return _V10_STATES
    return _V03_REST_STATES if binding == "HTTP+JSON" else _V03_STATES


def judge_transport(exchange: Exchange | None, binding: str, version: str) -> list[Finding]:
    """The stream as bytes: answered as text/event-stream, each frame a JSON-RPC response (JSON-RPC) or a JSON
    object (HTTP+JSON). Nothing to judge over gRPC, or when the tap did not see the exchange."""
    if exchange is None or exchange.grpc:
        return []
    key = "stream: jsonrpc sse" if binding == "JSONRPC" else "stream: rest sse"
    answered = f"HTTP {exchange.status} {exchange.content_type or '(no Content-Type)'}"
    if not is_event_stream(exchange):
        return [Finding(key, False, f"answered {answered}: one JSON document, not a text/event-stream", answered)]
    bad = [data for data, cut in exchange.frames if not cut and data.strip() and not _well_formed(data, binding)]
    if bad:
        said = f"{len(bad)} of {len(exchange.frames)} SSE frame(s) are not {_frame_kind(binding)}: {bad[0][:60]!r}"
        return [Finding(key, False, said, answered)]
    return [Finding(key, True, f"text/event-stream, {len(exchange.frames)} well-formed frame(s)", answered)]


def is_event_stream(exchange: Exchange | None) -> bool:
    """Whether the answer came as text/event-stream (True where the tap did not see it, or over gRPC)."""
    return exchange is None or exchange.grpc or "text/event-stream" in exchange.content_type.lower()


def judge_stream(
    exchange: Exchange | None, events: list[StreamEvent], version: str, binding: str, *, going: bool
) -> list[Finding]:
    """A SendStreamingMessage: its wire (judge_transport), then its events (judge_events). An answer that was no
    event stream carried no event to judge, whatever a tolerant client made of it (a JSON document read as one
    event): the stream fails too, as the TCK's does (it finds no event)."""
    findings = judge_transport(exchange, binding, version)
    if not is_event_stream(exchange):
        said = f"no event stream: {len(events)} event(s) read from one JSON document, none sent as an SSE event"
        return [*findings, Finding("stream", False, said, "no SSE event")]
    return findings + judge_events(events, raw_states(exchange), version, binding, going=going, subscribe=False)


def _frame_kind(binding: str) -> str:
    return "JSON-RPC responses" if binding == "JSONRPC" else "JSON objects"


def _well_formed(data: str, binding: str) -> bool:
    try:
        value: Any = json.loads(data)
    except (ValueError, RecursionError):
        return False
    if binding != "JSONRPC":
        return isinstance(value, dict)
    return isinstance(value, dict) and value.get("jsonrpc") == "2.0" and ("result" in value or "error" in value)


def raw_states(exchange: Exchange | None) -> list[str]:
    """Every `status.state` value in the stream's frames (or its one JSON answer), in order, as sent."""
    if exchange is None or exchange.grpc:
        return []
    found: list[str] = []
    texts = [data for data, cut in exchange.frames if not cut] or ([exchange.body] if not exchange.truncated else [])
    for text in texts:
        try:
            _collect_states(json.loads(text), found, 0)
        except (ValueError, RecursionError):
            continue
    return found


def _collect_states(value: Any, found: list[str], depth: int) -> None:
    if depth > 6 or not isinstance(value, dict):
        return
    status = value.get("status")
    if isinstance(status, dict) and isinstance(status.get("state"), str):
        found.append(status["state"])
    for key, inner in value.items():
        if key not in ("status", "history", "artifacts", "metadata"):
            _collect_states(inner, found, depth + 1)


def event_task_id(event: StreamEvent) -> str | None:
    if isinstance(event, Task):
        return event.id
    if isinstance(event, StatusUpdate | ArtifactUpdate):
        return event.task_id
    return None


def judge_events(
    events: list[StreamEvent], states_sent: list[str], version: str, binding: str, *, going: bool, subscribe: bool
) -> list[Finding]:
    """The stream as events: what it begins with, the task each event is about, the state values and their order,
    and whether it closed when the task ended (or asked), or was still open when the probe let go (`going`)."""
    key = "subscribe" if subscribe else "stream"
    if not events:
        return [Finding(key, False, "the stream closed without an event", "no event")]
    first = events[0]
    findings: list[Finding] = []
    invalid = [s for s in states_sent if s not in valid_states(version, binding)]
    if invalid:
        said = f"a state value the protocol does not define: {invalid[0]!r}"
        findings.append(Finding("state values", False, said, f"states {', '.join(states_sent)}"[:200]))
    elif states_sent:
        findings.append(Finding("state values", True, f"{len(states_sent)} state value(s), each one defined"))
    if isinstance(first, Message) and not subscribe:
        if len(events) > 1:
            findings.append(Finding("stream: message", False, f"a Message stream held {len(events)} events, not one"))
        else:
            findings.append(Finding("stream: message", True, "one direct message"))
        return findings
    if not isinstance(first, Task):
        said = f"the stream began with a {type(first).__name__}; it MUST begin with the Task"
        return [*findings, Finding(key, False, said, f"a {type(first).__name__} first")]
    others = sorted({i for e in events if (i := event_task_id(e)) is not None and i != first.id})
    if others:
        said = f"events for another task ({others[0][:40]!r}) in the stream of task {first.id[:40]!r}"
        return [*findings, Finding(key, False, said)]
    states = [e.status.state for e in events if isinstance(e, Task | StatusUpdate)]
    problem = _order_problem(states, events)
    if problem:
        return [*findings, Finding(key, False, problem)]
    last = states[-1] if states else None
    head = f"{len(events)} event(s), the Task first"
    if going:
        return [*findings, Finding(key, True, f"{head}, still {last.value if last else 'open'} when let go")]
    if last is not None and (last.is_terminal or last.is_interrupted):
        return [*findings, Finding(key, True, f"{head}, closed at {last.value}")]
    said = f"{head}: closed while the task was {last.value if last else 'without a state'}, before it ended"
    return [*findings, Finding("subscribe: kept open" if subscribe else key, False, said)]


def _order_problem(states: list[TaskState], events: list[StreamEvent]) -> str:
    """An event after a terminal state (the stream MUST close there), or `submitted` once the task had moved on."""
    for earlier, later in pairwise(states):
        if later is TaskState.SUBMITTED and earlier is not TaskState.SUBMITTED:
            return f"the task went back from {earlier.value} to submitted"
    for at, event in enumerate(events):
        if isinstance(event, Task | StatusUpdate) and event.status.state.is_terminal and at < len(events) - 1:
            after = events[at + 1]
            what = after.status.state.value if isinstance(after, Task | StatusUpdate) else type(after).__name__
            return f"{len(events) - 1 - at} event(s) after the task ended {event.status.state.value} (next: {what})"
    return ""


def summary(events: list[StreamEvent]) -> str:
    """`Task, StatusUpdate x3, ArtifactUpdate` : the kinds of events, in order, runs counted."""
    runs: list[list[Any]] = []
    for event in events:
        kind = type(event).__name__
        if runs and runs[-1][0] == kind:
            runs[-1][1] += 1
        else:
            runs.append([kind, 1])
    return ", ".join(kind + (f" x{n}" if n > 1 else "") for kind, n in runs) or "no event"
