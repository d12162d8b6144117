"""The v0.3 JSON-RPC wire: `kind` discriminators, lowercase enums, slash method names, `final` flags.

0.2.x agents speak the same wire; their `type` part discriminator is read too.
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
    TaskState,
    TextPart,
    built_artifact_update,
    built_status_update,
)
from .card_parts import decode_capabilities, decode_openapi_scheme, decode_provider, decode_scope_lists, decode_skill
from .common import (
    Notes,
    WireFormatError,
    brief,
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

VERSION = "0.3"
METHODS = {
    "send": "message/send",
    "stream": "message/stream",
    "get": "tasks/get",
    "cancel": "tasks/cancel",
    "subscribe": "tasks/resubscribe",
    "extended_card": "agent/getAuthenticatedExtendedCard",
    "push_set": "tasks/pushNotificationConfig/set",
    "push_get": "tasks/pushNotificationConfig/get",
    "push_list": "tasks/pushNotificationConfig/list",
    "push_delete": "tasks/pushNotificationConfig/delete",
}


_PART_KEYS = frozenset({"kind", "type", "text", "file", "data", "metadata"})


# --- decoding ----------------------------------------------------------------------------------------


def decode_part(o: Any, notes: Notes) -> Part | None:
    o = obj(o, "part", notes)
    unknown_keys(o, _PART_KEYS, "part", notes)
    kind = o.get("kind") or o.get("type")
    if o.get("kind") is None and "type" in o:
        notes.add("part uses the 0.2 `type` discriminator instead of `kind`")
    metadata = opt_dict(o, "metadata", "part", notes)
    if kind == "text" or (kind is None and "text" in o):
        text = o.get("text")
        if not isinstance(text, str):
            notes.add("text part without a string `text`")
            text = "" if text is None else str(shallow(text, "text part", notes))
        return TextPart(text=text, metadata=metadata)
    if kind == "file" or (kind is None and "file" in o):
        f = o.get("file")
        if not isinstance(f, dict):
            notes.add("file part without a `file` object; dropped")
            return None
        raw, uri = opt_str(f, "bytes", "file", notes), opt_str(f, "uri", "file", notes)
        if raw is None and uri is None:
            notes.add("file part with neither bytes nor uri")
        return FilePart(
            raw=raw,
            url=uri,
            name=opt_str(f, "name", "file", notes),
            media_type=opt_str(f, "mimeType", "file", notes),
            metadata=metadata,
        )
    if kind == "data" or (kind is None and "data" in o):
        if not isinstance(o.get("data"), dict):
            notes.add("v0.3 data part whose data is not an object")
        return DataPart(data=shallow(o.get("data"), "data part", notes), metadata=metadata)
    notes.add(f"part of unknown kind {brief(kind)}; dropped")
    return None


_STATUS_FLAGS, _ARTIFACT_FLAGS = ("final",), ("append", "lastChunk")


def decode_event(o: Any, notes: Notes) -> StreamEvent:
    """One SSE `result`: the object itself, told apart by `kind`."""
    if type(o) is not dict:
        o = obj(o, "stream event", notes)
    kind = o.get("kind")
    if kind == "task":
        return decode_task(o, notes)
    if kind == "message":
        return decode_message(o, notes)
    if kind == "status-update":
        if DIALECT.fast and plain_update(o, _STATUS_FLAGS):
            return built_status_update(
                o["taskId"], o["contextId"], decode_status(o.get("status"), notes), o.get("final")
            )
        return StatusUpdate(
            task_id=req_str(o, "taskId", "status-update", notes),
            context_id=req_str(o, "contextId", "status-update", notes),
            status=decode_status(o.get("status"), notes),
            final=opt_bool(o, "final", "status-update", notes),
            metadata=opt_dict(o, "metadata", "status-update", notes),
        )
    if kind == "artifact-update":
        if DIALECT.fast and plain_update(o, _ARTIFACT_FLAGS):
            return built_artifact_update(
                o["taskId"],
                o["contextId"],
                decode_artifact(o.get("artifact"), notes),
                o.get("append"),
                o.get("lastChunk"),
            )
        return ArtifactUpdate(
            task_id=req_str(o, "taskId", "artifact-update", notes),
            context_id=req_str(o, "contextId", "artifact-update", notes),
            artifact=decode_artifact(o.get("artifact"), notes),
            append=opt_bool(o, "append", "artifact-update", notes),
            last_chunk=opt_bool(o, "lastChunk", "artifact-update", notes),
            metadata=opt_dict(o, "metadata", "artifact-update", notes),
        )
    raise WireFormatError(f"stream event of unknown kind {brief(kind)}")


def decode_send_result(o: Any, notes: Notes) -> Task | Message:
    event = decode_event(o, notes)
    if isinstance(event, Task | Message):
        return event
    raise WireFormatError(f"message/send answered with a {event.kind}, expected a task or a message")


# --- the agent card (legacy shape) -------------------------------------------------------------------


def decode_card(o: Any, notes: Notes) -> AgentCard:
    """A legacy card (no supportedInterfaces): endpoint at `url`, version at card level."""
    o = obj(o, "agent card", notes)
    version = opt_str(o, "protocolVersion", "card", notes)
    wire_version = version or "0.3"
    interfaces: list[Interface] = []
    url = opt_str(o, "url", "card", notes)
    if url and not valid_url(url):
        notes.add(f"card url {url!r:.80} is not a valid URL; ignored")
    elif url:
        interfaces.append(
            Interface(
                url=url,
                binding=opt_str(o, "preferredTransport", "card", notes) or "JSONRPC",
                protocol_version=wire_version,
            )
        )
    for extra in opt_list(o, "additionalInterfaces", "card", notes) or []:
        if not isinstance(extra, dict) or not isinstance(extra.get("url"), str) or not valid_url(extra["url"]):
            notes.add("additionalInterfaces entry without a valid url; ignored")
        else:
            binding = opt_str(extra, "transport", "additionalInterfaces", notes) or "JSONRPC"
            iface = Interface(url=extra["url"], binding=binding, protocol_version=wire_version)
            if iface not in interfaces:
                interfaces.append(iface)
    capabilities = decode_capabilities(o.get("capabilities"), notes)
    if opt_bool(o, "supportsAuthenticatedExtendedCard", "card", notes):
        capabilities.extended_card = True
    schemes = {}
    for name, scheme in (opt_dict(o, "securitySchemes", "card", notes) or {}).items():
        try:
            schemes[name] = decode_openapi_scheme(scheme, notes)
        except WireFormatError as exc:
            notes.add(f"securitySchemes.{name}: {exc.message}")
    return AgentCard(
        name=opt_str(o, "name", "card", notes) or "(unnamed agent)",
        description=opt_str(o, "description", "card", notes) or "",
        version=opt_str(o, "version", "card", notes) or "",
        shape="legacy",
        interfaces=interfaces,
        provider=decode_provider(o.get("provider"), notes),
        icon_url=opt_str(o, "iconUrl", "card", notes),
        documentation_url=opt_str(o, "documentationUrl", "card", notes),
        capabilities=capabilities,
        default_input_modes=str_list(o, "defaultInputModes", "card", notes) or [],
        default_output_modes=str_list(o, "defaultOutputModes", "card", notes) or [],
        skills=decode_list(o.get("skills"), decode_skill, "card.skills", notes) or [],
        security_schemes=schemes,
        security=decode_scope_lists(o.get("security"), "card.security", notes),
        signatures=signature_list(o, notes),
        legacy_protocol_version=version,
        raw=o,
    )


# --- encoding ----------------------------------------------------------------------------------------


def encode_part(part: Part) -> dict[str, Any]:
    if isinstance(part, TextPart):
        out: dict[str, Any] = {"kind": "text", "text": part.text}
    elif isinstance(part, FilePart):
        f: dict[str, Any] = {}
        put(f, "bytes", part.raw)
        put(f, "uri", part.url)
        put(f, "name", part.name)
        put(f, "mimeType", part.media_type)
        out = {"kind": "file", "file": f}
    else:
        out = {"kind": "data", "data": part.data}
    put(out, "metadata", part.metadata)
    return out


DIALECT = Dialect(
    decode_part=decode_part,
    encode_part=encode_part,
    role_names={Role.USER: "user", Role.AGENT: "agent", Role.UNSPECIFIED: "unspecified"},
    state_names={state: state.value for state in TaskState},
    kinds=True,
)
decode_state = DIALECT.decode_state
decode_message, decode_task = DIALECT.decode_message, DIALECT.decode_task
decode_status, decode_artifact = DIALECT.decode_status, DIALECT.decode_artifact
encode_message, encode_task = DIALECT.encode_message, DIALECT.encode_task
encode_status, encode_artifact = DIALECT.encode_status, DIALECT.encode_artifact


def encode_event(e: StreamEvent) -> dict[str, Any]:
    if isinstance(e, Task):
        return encode_task(e)
    if isinstance(e, Message):
        return encode_message(e)
    if isinstance(e, StatusUpdate):
        out: dict[str, Any] = {
            "kind": "status-update",
            "taskId": e.task_id,
            "contextId": e.context_id,
            "status": encode_status(e.status),
        }
        put(out, "final", e.final)
    else:
        out = {
            "kind": "artifact-update",
            "taskId": e.task_id,
            "contextId": e.context_id,
            "artifact": encode_artifact(e.artifact),
        }
        put(out, "append", e.append)
        put(out, "lastChunk", e.last_chunk)
    put(out, "metadata", e.metadata)
    return out


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


def get_params(task_id: str, history_length: int | None, tenant: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"id": task_id}
    put(out, "historyLength", history_length)
    return out


def id_params(task_id: str, tenant: str | None = None) -> dict[str, Any]:  # no tenants at 0.3
    return {"id": task_id}


# --- push-notification configs (JSON-RPC), in and out of the v1.0 ProtoJSON shape the rest of switchboard uses ---


def push_config_params(
    task_id: str,
    url: str,
    token: str | None,
    config_id: str | None = None,
    authentication: tuple[str, str] | None = None,
) -> dict[str, Any]:
    """tasks/pushNotificationConfig/set: a TaskPushNotificationConfig, its config nested as v0.3 has it (and its
    authentication as a list of schemes)."""
    config: dict[str, Any] = {}
    put(config, "id", config_id)
    config["url"] = url
    put(config, "token", token)
    if authentication is not None:
        config["authentication"] = {"schemes": [authentication[0]], "credentials": authentication[1]}
    return {"taskId": task_id, "pushNotificationConfig": config}


def push_id_params(task_id: str, config_id: str | None = None) -> dict[str, Any]:
    """get/delete (with `config_id`) and list (without): the task goes by `id` at v0.3."""
    out: dict[str, Any] = {"id": task_id}
    put(out, "pushNotificationConfigId", config_id)
    return out


def decode_push_config(o: Any) -> dict[str, Any]:
    """A v0.3 TaskPushNotificationConfig as the v1.0 one: {id, taskId, url, token, authentication}."""
    if not isinstance(o, dict):
        raise WireFormatError(f"a push config is an object, not {brief(o)}")
    inner = o.get("pushNotificationConfig")
    inner = inner if isinstance(inner, dict) else {}
    out: dict[str, Any] = {}
    for key, value in (("id", inner.get("id")), ("taskId", o.get("taskId")), ("url", inner.get("url"))):
        put(out, key, value)
    put(out, "token", inner.get("token"))
    put(out, "authentication", inner.get("authentication"))
    return out
