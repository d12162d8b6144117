"""The v1.0 JSON-RPC wire: ProtoJSON of a2a.proto. Wrapper keys (`task`, `statusUpdate`, ...), TASK_STATE_* and
ROLE_* enums, oneof parts told apart by their member name, PascalCase methods, no `final` flag.

This is also the shape `-o json` prints, whatever the agent's own wire version.
"""

from __future__ import annotations

from typing import Any

from ..model import (
    AgentCard,
    ArtifactUpdate,
    DataPart,
    FilePart,
    Interface,
    Message,
    Part,
    Role,
    StatusUpdate,
    StreamEvent,
    Task,
    TaskPage,
    TaskState,
    TextPart,
    built_artifact_update,
    built_status_update,
)
from .card_parts import (
    decode_capabilities,
    decode_provider,
    decode_schemes_requirements,
    decode_scope_lists,
    decode_skill,
    decode_wrapped_scheme,
)
from .common import (
    Notes,
    WireFormatError,
    decode_list,
    obj,
    opt_bool,
    opt_dict,
    opt_list,
    opt_str,
    plain_update,
    put,
    req_str,
    shallow,
    signature_list,
    str_list,
    unknown_keys,
    valid_url,
)
from .dialect import Dialect

VERSION = "1.0"
METHODS = {
    "send": "SendMessage",
    "stream": "SendStreamingMessage",
    "get": "GetTask",
    "list": "ListTasks",
    "cancel": "CancelTask",
    "subscribe": "SubscribeToTask",
    "extended_card": "GetExtendedAgentCard",
    "push_set": "CreateTaskPushNotificationConfig",
    "push_get": "GetTaskPushNotificationConfig",
    "push_list": "ListTaskPushNotificationConfigs",
    "push_delete": "DeleteTaskPushNotificationConfig",
}

_STATE_NAMES = {
    TaskState.SUBMITTED: "TASK_STATE_SUBMITTED",
    TaskState.WORKING: "TASK_STATE_WORKING",
    TaskState.INPUT_REQUIRED: "TASK_STATE_INPUT_REQUIRED",
    TaskState.AUTH_REQUIRED: "TASK_STATE_AUTH_REQUIRED",
    TaskState.COMPLETED: "TASK_STATE_COMPLETED",
    TaskState.CANCELED: "TASK_STATE_CANCELED",
    TaskState.FAILED: "TASK_STATE_FAILED",
    TaskState.REJECTED: "TASK_STATE_REJECTED",
    TaskState.UNKNOWN: "TASK_STATE_UNSPECIFIED",
}
_ROLE_NAMES = {Role.USER: "ROLE_USER", Role.AGENT: "ROLE_AGENT", Role.UNSPECIFIED: "ROLE_UNSPECIFIED"}

_PART_KEYS = frozenset({"text", "raw", "url", "data", "filename", "mediaType", "metadata"})


def state_name(state: TaskState) -> str:
    return _STATE_NAMES[state]


# --- decoding ----------------------------------------------------------------------------------------


def decode_part(o: Any, notes: Notes) -> Part | None:
    o = obj(o, "part", notes)
    unknown_keys(o, _PART_KEYS, "part", notes)
    media_type = opt_str(o, "mediaType", "part", notes)
    metadata = opt_dict(o, "metadata", "part", notes)
    members = [k for k in ("text", "raw", "url", "data") if k in o]
    if len(members) > 1:
        # ListTasks output fills every member with its default; the non-empty one is the real one.
        filled = [k for k in members if o[k] not in ("", None)]
        members = filled[:1] or members[:1]
        if len(filled) > 1:
            notes.add(f"part sets several oneof members ({', '.join(filled)}); {members[0]} used")
    if not members:
        notes.add("part with none of text, raw, url, data; dropped")
        return None
    member = members[0]
    if member == "text":
        text = o["text"]
        if not isinstance(text, str):
            notes.add("text part whose text is not a string")
            text = str(shallow(text, "text part", notes))
        return TextPart(text=text, media_type=media_type, metadata=metadata)
    if member == "data":
        return DataPart(data=shallow(o["data"], "data part", notes), media_type=media_type, metadata=metadata)
    return FilePart(
        raw=opt_str(o, "raw", "part", notes),
        url=opt_str(o, "url", "part", notes),
        name=opt_str(o, "filename", "part", notes),
        media_type=media_type,
        metadata=metadata,
    )


def _one_member(o: dict[str, Any], allowed: tuple[str, ...], what: str, notes: Notes) -> str:
    present = [k for k in allowed if k in o]
    if not present:
        raise WireFormatError(f"{what} has none of {', '.join(allowed)}")
    if len(present) > 1 or len(o) > 1:
        notes.add(f"{what} should hold exactly one of {', '.join(allowed)}; {present[0]} used")
    return present[0]


_EVENT_MEMBERS = ("task", "message", "statusUpdate", "artifactUpdate")
_ARTIFACT_FLAGS = ("append", "lastChunk")


def decode_event(o: Any, notes: Notes) -> StreamEvent:
    """One StreamResponse: a wrapper with exactly one of task, message, statusUpdate, artifactUpdate."""
    if type(o) is not dict:
        o = obj(o, "stream response", notes)
    key = next(iter(o)) if len(o) == 1 else None
    if key not in _EVENT_MEMBERS:
        key = _one_member(o, _EVENT_MEMBERS, "stream response", notes)
    inner = o[key]
    if type(inner) is not dict:
        inner = obj(inner, key, notes)
    if key == "task":
        return decode_task(inner, notes)
    if key == "message":
        return decode_message(inner, notes)
    if key == "statusUpdate":
        if DIALECT.fast and plain_update(inner, ()):
            return built_status_update(
                inner["taskId"], inner["contextId"], decode_status(inner.get("status"), notes), None
            )
        return StatusUpdate(
            task_id=req_str(inner, "taskId", "statusUpdate", notes),
            context_id=req_str(inner, "contextId", "statusUpdate", notes),
            status=decode_status(inner.get("status"), notes),
            metadata=opt_dict(inner, "metadata", "statusUpdate", notes),
        )
    if DIALECT.fast and plain_update(inner, _ARTIFACT_FLAGS):
        return built_artifact_update(
            inner["taskId"],
            inner["contextId"],
            decode_artifact(inner.get("artifact"), notes),
            inner.get("append"),
            inner.get("lastChunk"),
        )
    return ArtifactUpdate(
        task_id=req_str(inner, "taskId", "artifactUpdate", notes),
        context_id=req_str(inner, "contextId", "artifactUpdate", notes),
        artifact=decode_artifact(inner.get("artifact"), notes),
        append=opt_bool(inner, "append", "artifactUpdate", notes),
        last_chunk=opt_bool(inner, "lastChunk", "artifactUpdate", notes),
        metadata=opt_dict(inner, "metadata", "artifactUpdate", notes),
    )


def decode_send_result(o: Any, notes: Notes) -> Task | Message:
    o = obj(o, "SendMessageResponse", notes)
    key = _one_member(o, ("task", "message"), "SendMessageResponse", notes)
    return decode_task(o[key], notes) if key == "task" else decode_message(o[key], notes)


def decode_task_page(o: Any, notes: Notes) -> TaskPage:
    o = obj(o, "ListTasksResponse", notes)
    page_size, total = o.get("pageSize"), o.get("totalSize")
    return TaskPage(
        tasks=decode_list(o.get("tasks"), decode_task, "tasks", notes) or [],
        next_page_token=opt_str(o, "nextPageToken", "ListTasksResponse", notes),
        page_size=page_size if isinstance(page_size, int) else None,
        total_size=total if isinstance(total, int) else None,
    )


# --- the agent card (v1.0 shape) ---------------------------------------------------------------------

_CARD_KEYS = frozenset(
    {
        "name",
        "description",
        "supportedInterfaces",
        "provider",
        "version",
        "documentationUrl",
        "capabilities",
        "securitySchemes",
        "securityRequirements",
        "defaultInputModes",
        "defaultOutputModes",
        "skills",
        "signatures",
        "iconUrl",
        # the v0.3 fields a 1.x server merges in when it also serves v0.3 (SPEC-NOTES §3)
        "url",
        "preferredTransport",
        "additionalInterfaces",
        "protocolVersion",
        "supportsAuthenticatedExtendedCard",
        "security",
    }
)


def decode_card(o: Any, notes: Notes) -> AgentCard:
    o = obj(o, "agent card", notes)
    unknown_keys(o, _CARD_KEYS, "agent card", notes)
    interfaces = []
    for item in opt_list(o, "supportedInterfaces", "card", notes) or []:
        if not isinstance(item, dict) or not isinstance(item.get("url"), str) or not valid_url(item["url"]):
            notes.add("supportedInterfaces entry without a valid url; ignored")
            continue
        interfaces.append(
            Interface(
                url=item["url"],
                binding=opt_str(item, "protocolBinding", "interface", notes) or "JSONRPC",
                protocol_version=opt_str(item, "protocolVersion", "interface", notes) or "1.0",
                tenant=opt_str(item, "tenant", "interface", notes),
            )
        )
    schemes = {}
    for name, scheme in (opt_dict(o, "securitySchemes", "card", notes) or {}).items():
        try:
            schemes[name] = decode_wrapped_scheme(scheme, notes)
        except WireFormatError as exc:
            notes.add(f"securitySchemes.{name}: {exc.message}")
    capabilities = decode_capabilities(o.get("capabilities"), notes)
    # The v0.3 flag a mixed card may carry alone: the older field a client falls back to (SPEC-NOTES §3).
    if capabilities.extended_card is None and opt_bool(o, "supportsAuthenticatedExtendedCard", "card", notes):
        capabilities.extended_card = True
    security = decode_schemes_requirements(o.get("securityRequirements"), "card.securityRequirements", notes)
    if not security and o.get("security"):
        security = decode_scope_lists(o.get("security"), "card.security", notes)
    skills = []
    for item in opt_list(o, "skills", "card", notes) or []:
        try:
            skill = decode_skill(item, notes, security_key="securityRequirements")
        except WireFormatError as exc:
            notes.add(f"card.skills: {exc.message}; skill dropped")
            continue
        if isinstance(item, dict) and item.get("securityRequirements"):
            skill.security = decode_schemes_requirements(item["securityRequirements"], "skill.security", notes)
        skills.append(skill)
    return AgentCard(
        name=opt_str(o, "name", "card", notes) or "(unnamed agent)",
        description=opt_str(o, "description", "card", notes) or "",
        version=opt_str(o, "version", "card", notes) or "",
        shape="v1.0",
        interfaces=interfaces,
        provider=decode_provider(o.get("provider"), notes),
        icon_url=opt_str(o, "iconUrl", "card", notes),
        documentation_url=opt_str(o, "documentationUrl", "card", notes),
        capabilities=capabilities,
        default_input_modes=str_list(o, "defaultInputModes", "card", notes) or [],
        default_output_modes=str_list(o, "defaultOutputModes", "card", notes) or [],
        skills=skills,
        security_schemes=schemes,
        security=security,
        signatures=signature_list(o, notes),
        legacy_protocol_version=opt_str(o, "protocolVersion", "card", notes),
        raw=o,
    )


# --- encoding ----------------------------------------------------------------------------------------


def encode_part(part: Part) -> dict[str, Any]:
    if isinstance(part, TextPart):
        out: dict[str, Any] = {"text": part.text}
    elif isinstance(part, FilePart):
        out = {}
        put(out, "raw", part.raw)
        put(out, "url", part.url)
        put(out, "filename", part.name)
    else:
        out = {"data": part.data}
    put(out, "mediaType", part.media_type)
    put(out, "metadata", part.metadata)
    return out


DIALECT = Dialect(
    decode_part=decode_part,
    encode_part=encode_part,
    role_names=_ROLE_NAMES,
    state_names=_STATE_NAMES,
    kinds=False,
    state_aliases=(("TASK_STATE_CANCELLED", TaskState.CANCELED),),  # the v0.3 proto's spelling
)
decode_state = DIALECT.decode_state
decode_message, decode_task = DIALECT.decode_message, DIALECT.decode_task
decode_status, decode_artifact = DIALECT.decode_status, DIALECT.decode_artifact
encode_message, encode_task = DIALECT.encode_message, DIALECT.encode_task
encode_status, encode_artifact = DIALECT.encode_status, DIALECT.encode_artifact


def encode_event(e: StreamEvent) -> dict[str, Any]:
    """A StreamResponse wrapper."""
    if isinstance(e, Task):
        return {"task": encode_task(e)}
    if isinstance(e, Message):
        return {"message": encode_message(e)}
    if isinstance(e, StatusUpdate):
        inner: dict[str, Any] = {"taskId": e.task_id, "contextId": e.context_id, "status": encode_status(e.status)}
        put(inner, "metadata", e.metadata)
        return {"statusUpdate": inner}
    inner = {"taskId": e.task_id, "contextId": e.context_id, "artifact": encode_artifact(e.artifact)}
    if e.append:
        inner["append"] = True
    if e.last_chunk:
        inner["lastChunk"] = True
    put(inner, "metadata", e.metadata)
    return {"artifactUpdate": inner}


def encode_send_result(result: Task | Message) -> dict[str, Any]:
    """A SendMessageResponse wrapper."""
    return {"task": encode_task(result)} if isinstance(result, Task) else {"message": encode_message(result)}


def encode_task_page(page: TaskPage) -> dict[str, Any]:
    out: dict[str, Any] = {"tasks": [encode_task(t) for t in page.tasks]}
    put(out, "nextPageToken", page.next_page_token)
    put(out, "pageSize", page.page_size)
    put(out, "totalSize", page.total_size)
    return out


def send_params(
    message: Message,
    *,
    blocking: bool,
    history_length: int | None,
    accepted_output_modes: list[str] | None,
    metadata: dict[str, Any] | None,
    tenant: str | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    put(out, "tenant", tenant)
    out["message"] = encode_message(message)
    config: dict[str, Any] = {}
    if not blocking:
        config["returnImmediately"] = True
    put(config, "historyLength", history_length)
    put(config, "acceptedOutputModes", accepted_output_modes)
    if config:
        out["configuration"] = config
    put(out, "metadata", metadata)
    return out


def get_params(task_id: str, history_length: int | None, tenant: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    put(out, "tenant", tenant)
    out["id"] = task_id
    put(out, "historyLength", history_length)
    return out


def id_params(task_id: str, tenant: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    put(out, "tenant", tenant)
    out["id"] = task_id
    return out


def list_params(
    *,
    context_id: str | None,
    state: TaskState | None,
    page_size: int | None,
    page_token: str | None,
    history_length: int | None,
    tenant: str | None = None,
) -> dict[str, Any]:
    out: dict[str, Any] = {}
    put(out, "tenant", tenant)
    put(out, "contextId", context_id)
    put(out, "status", _STATE_NAMES[state] if state else None)
    put(out, "pageSize", page_size)
    put(out, "pageToken", page_token)
    put(out, "historyLength", history_length)
    return out


def push_config_params(
    task_id: str,
    url: str,
    token: str | None,
    config_id: str | None = None,
    tenant: str | None = None,
    authentication: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """A TaskPushNotificationConfig to create: where the agent POSTs the task's updates, with `token` echoed in
    X-A2A-Notification-Token and `authentication` (scheme, credentials) sent as the POST's Authorization."""
    out: dict[str, Any] = {}
    put(out, "tenant", tenant)
    out["taskId"] = task_id
    put(out, "id", config_id)
    out["url"] = url
    put(out, "token", token)
    if authentication is not None:
        out["authentication"] = {"scheme": authentication[0], "credentials": authentication[1]}
    return out


def push_id_params(task_id: str, config_id: str | None = None, tenant: str | None = None) -> dict[str, Any]:
    """Get/Delete (with `config_id`) or List (without) TaskPushNotificationConfig requests."""
    out: dict[str, Any] = {}
    put(out, "tenant", tenant)
    out["taskId"] = task_id
    put(out, "id", config_id)
    return out
