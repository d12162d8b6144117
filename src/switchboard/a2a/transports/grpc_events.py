"""A v1.0 gRPC stream's plain messages read straight from their protos into the model.

A stream repeats a few plain shapes thousands of times: artifact chunks of text and working statuses, with
ids, no metadata, no extensions. The general path turns each proto into ProtoJSON and decodes that (v10), and
the ProtoJSON step costs more than grpc's own read of the message. For the plain shapes `plain_event` builds
the same model objects from the proto's fields, the way the codec's own fast path does from JSON; anything
else (a task, a message, metadata, a part that is not bare text, an empty id, an unknown enum value) gives
None, and the caller takes the general path, which notes whatever is odd. tests/unit/a2a/transports/test_grpc_events.py
checks that both paths build equal events.
"""

from __future__ import annotations

from typing import Any

from a2a.types import a2a_pb2 as pb

from ..model import (
    Artifact,
    ArtifactUpdate,
    Message,
    Part,
    Role,
    StatusUpdate,
    TaskState,
    TaskStatus,
    built_artifact,
    built_artifact_update,
    built_message,
    built_status,
    built_status_update,
    built_text_part,
)
from ..wire import v10

# The enum values ProtoJSON writes by name; 0 (unspecified) is omitted there, so it takes the general path.
_STATES = {pb.TaskState.Value(v10.state_name(s)): s for s in TaskState if s is not TaskState.UNKNOWN}
_ROLES = {pb.Role.ROLE_USER: Role.USER, pb.Role.ROLE_AGENT: Role.AGENT}


def plain_event(response: Any) -> StatusUpdate | ArtifactUpdate | None:
    """A StreamResponse holding a plain status or artifact update, as the model's event; else None."""
    kind = response.WhichOneof("payload")
    if kind == "artifact_update":
        return _artifact_update(response.artifact_update)
    if kind == "status_update":
        return _status_update(response.status_update)
    return None


def _artifact_update(u: Any) -> ArtifactUpdate | None:
    if not u.task_id or not u.context_id or u.HasField("metadata") or not u.HasField("artifact"):
        return None
    artifact = _artifact(u.artifact)
    if artifact is None:
        return None
    return built_artifact_update(u.task_id, u.context_id, artifact, u.append or None, u.last_chunk or None)


def _status_update(u: Any) -> StatusUpdate | None:
    if not u.task_id or not u.context_id or u.HasField("metadata") or not u.HasField("status"):
        return None
    status = _status(u.status)
    return None if status is None else built_status_update(u.task_id, u.context_id, status, None)


def _status(s: Any) -> TaskStatus | None:
    state = _STATES.get(s.state)
    if state is None:
        return None
    message = None
    if s.HasField("message"):
        message = _message(s.message)
        if message is None:
            return None
    return built_status(state, message, s.timestamp.ToJsonString() if s.HasField("timestamp") else None)


def _message(m: Any) -> Message | None:
    role = _ROLES.get(m.role)
    if role is None or not m.message_id or m.HasField("metadata") or m.extensions or m.reference_task_ids:
        return None
    parts = _text_parts(m.parts)
    if parts is None:
        return None
    return built_message(m.message_id, role, parts, m.task_id or None, m.context_id or None)


def _artifact(a: Any) -> Artifact | None:
    if not a.artifact_id or a.HasField("metadata") or a.extensions:
        return None
    parts = _text_parts(a.parts)
    if parts is None:
        return None
    return built_artifact(a.artifact_id, a.name or None, a.description or None, parts)


def _text_parts(parts: Any) -> list[Part] | None:
    """Bare text parts (no metadata, media type or file name) as the model's; None if any is not."""
    out: list[Part] = []
    for part in parts:
        if part.WhichOneof("content") != "text" or part.HasField("metadata") or part.media_type or part.filename:
            return None
        out.append(built_text_part(part.text))
    return out
