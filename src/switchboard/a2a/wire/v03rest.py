"""The v0.3 HTTP+JSON wire: ProtoJSON of the v0.3 proto, which is neither the v0.3 JSON-RPC shape nor v1.0.

Like v1.0: wrapper keys (`task`, `message`, `statusUpdate`, `artifactUpdate`), ROLE_* and TASK_STATE_* enums, no
`kind`. Unlike it: a message keeps its parts in `content`, a canceled task is TASK_STATE_CANCELLED, a status update
carries `final`, and parts are `{"text"}`, `{"file": {"fileWithBytes" | "fileWithUri", "mimeType", "name"}}` and
`{"data": {"data": {...}}}`. Send configuration is v0.3's (`blocking`). There is no ListTasks.
"""

from __future__ import annotations

from typing import Any

from ..model import (
    ArtifactUpdate,
    DataPart,
    FilePart,
    Message,
    Part,
    Role,
    StatusUpdate,
    StreamEvent,
    Task,
    TaskState,
    TextPart,
)
from . import v03, v10
from .common import Notes, WireFormatError, brief, obj, opt_bool, opt_dict, opt_str, put, req_str, shallow, unknown_keys
from .dialect import Dialect

VERSION = "0.3"

_PART_KEYS = frozenset({"text", "file", "data", "metadata"})
_FILE_KEYS = frozenset({"fileWithBytes", "fileWithUri", "mimeType", "name"})
# v1.0's names, but for the double L of the v0.3 proto.
_STATE_NAMES = {state: v10.state_name(state) for state in TaskState} | {TaskState.CANCELED: "TASK_STATE_CANCELLED"}


def decode_part(o: Any, notes: Notes) -> Part | None:
    o = obj(o, "part", notes)
    unknown_keys(o, _PART_KEYS, "part", notes)
    metadata = opt_dict(o, "metadata", "part", notes)
    if "text" in o:
        text = o["text"]
        if not isinstance(text, str):
            notes.add("text part whose text is not a string")
            text = str(shallow(text, "text part", notes))
        return TextPart(text=text, metadata=metadata)
    if "file" in o:
        f = o["file"]
        if not isinstance(f, dict):
            notes.add("file part without a `file` object; dropped")
            return None
        unknown_keys(f, _FILE_KEYS, "file", notes)
        raw, uri = opt_str(f, "fileWithBytes", "file", notes), opt_str(f, "fileWithUri", "file", notes)
        if raw is None and uri is None:
            notes.add("file part with neither fileWithBytes nor fileWithUri")
        return FilePart(
            raw=raw,
            url=uri,
            name=opt_str(f, "name", "file", notes),
            media_type=opt_str(f, "mimeType", "file", notes),
            metadata=metadata,
        )
    if "data" in o:
        wrapper = o["data"]
        if not isinstance(wrapper, dict) or "data" not in wrapper:
            notes.add("data part without its inner `data` (the v0.3 proto wraps it); read as it stands")
            return DataPart(data=shallow(wrapper, "data part", notes), metadata=metadata)
        return DataPart(data=shallow(wrapper["data"], "data part", notes), metadata=metadata)
    notes.add(f"part with none of text, file, data ({', '.join(f'{k:.40}' for k in list(o)[:4])}); dropped")
    return None


def encode_part(part: Part) -> dict[str, Any]:
    if isinstance(part, TextPart):
        out: dict[str, Any] = {"text": part.text}
    elif isinstance(part, FilePart):
        f: dict[str, Any] = {}
        put(f, "fileWithBytes", part.raw)
        put(f, "fileWithUri", part.url)
        put(f, "mimeType", part.media_type)
        put(f, "name", part.name)
        out = {"file": f}
    else:
        out = {"data": {"data": part.data}}
    put(out, "metadata", part.metadata)
    return out


DIALECT = Dialect(
    decode_part=decode_part,
    encode_part=encode_part,
    role_names={Role.USER: "ROLE_USER", Role.AGENT: "ROLE_AGENT", Role.UNSPECIFIED: "ROLE_UNSPECIFIED"},
    state_names=_STATE_NAMES,
    kinds=False,
    state_aliases=(("TASK_STATE_CANCELED", TaskState.CANCELED),),  # v1.0's spelling, from servers that mix them
    message_parts="content",
)
decode_state = DIALECT.decode_state
decode_message, decode_task = DIALECT.decode_message, DIALECT.decode_task
decode_status, decode_artifact = DIALECT.decode_status, DIALECT.decode_artifact
encode_message, encode_task = DIALECT.encode_message, DIALECT.encode_task

_EVENT_MEMBERS = ("task", "message", "msg", "statusUpdate", "artifactUpdate")


def decode_event(o: Any, notes: Notes) -> StreamEvent:
    """One StreamResponse: a wrapper with one of task, message, statusUpdate, artifactUpdate."""
    o = obj(o, "stream response", notes)
    present = [k for k in _EVENT_MEMBERS if k in o]
    if not present:
        raise WireFormatError(f"stream response has none of task, message, statusUpdate, artifactUpdate ({brief(o)})")
    if len(present) > 1 or len(o) > 1:
        notes.add(f"stream response should hold exactly one member; {present[0]} used")
    key = present[0]
    inner = obj(o[key], key, notes)
    if key == "task":
        return decode_task(inner, notes)
    if key in ("message", "msg"):
        return decode_message(inner, notes)
    if key == "statusUpdate":
        return StatusUpdate(
            task_id=req_str(inner, "taskId", key, notes),
            context_id=req_str(inner, "contextId", key, notes),
            status=decode_status(inner.get("status"), notes),
            final=opt_bool(inner, "final", key, notes),
            metadata=opt_dict(inner, "metadata", key, notes),
        )
    return ArtifactUpdate(
        task_id=req_str(inner, "taskId", key, notes),
        context_id=req_str(inner, "contextId", key, notes),
        artifact=decode_artifact(inner.get("artifact"), notes),
        append=opt_bool(inner, "append", key, notes),
        last_chunk=opt_bool(inner, "lastChunk", key, notes),
        metadata=opt_dict(inner, "metadata", key, notes),
    )


def decode_send_result(o: Any, notes: Notes) -> Task | Message:
    event = decode_event(o, notes)
    if isinstance(event, Task | Message):
        return event
    raise WireFormatError(f"message:send answered with a {event.kind}, expected a task or a message")


def send_params(
    message: Message,
    *,
    blocking: bool,
    history_length: int | None,
    accepted_output_modes: list[str] | None,
    metadata: dict[str, Any] | None,
    tenant: str | None = None,  # v0.3 has no tenants (see codec.Codec)
) -> dict[str, Any]:
    config: dict[str, Any] = {"blocking": blocking}
    put(config, "historyLength", history_length)
    put(config, "acceptedOutputModes", accepted_output_modes)
    out: dict[str, Any] = {"message": encode_message(message), "configuration": config}
    put(out, "metadata", metadata)
    return out


# The ids of a request read as the JSON-RPC binding's do.
get_params = v03.get_params
id_params = v03.id_params
