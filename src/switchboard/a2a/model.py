"""One normalized model of the A2A protocol, independent of the wire version.

The codecs in `switchboard.a2a.wire` turn v0.3 and v1.0 JSON into these objects and back. Optional
fields are `None` when the wire left them out, so a decoded object re-encodes to the JSON it came from.
"""

from __future__ import annotations

import base64
import binascii
from enum import StrEnum
from typing import Any, Literal, TypeVar, final

from pydantic import BaseModel, ConfigDict, Field


class _Model(BaseModel):
    # Not defer_build: a validator built on first use keeps what was alive where it first ran (the first TUI
    # conversation's view, its link and widgets, for the life of the app: tests/tui/test_tabs_release.py).
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


_M = TypeVar("_M", bound=_Model)


class TaskState(StrEnum):
    """Task states by their v0.3 names, which read well; the v1.0 codec maps TASK_STATE_*."""

    SUBMITTED = "submitted"
    WORKING = "working"
    INPUT_REQUIRED = "input-required"
    AUTH_REQUIRED = "auth-required"
    COMPLETED = "completed"
    CANCELED = "canceled"
    FAILED = "failed"
    REJECTED = "rejected"
    UNKNOWN = "unknown"

    @property
    def is_terminal(self) -> bool:
        return self in TERMINAL_STATES

    @property
    def is_interrupted(self) -> bool:
        return self in INTERRUPTED_STATES

    @property
    def ends_turn(self) -> bool:
        """A turn is over when the task is terminal or waits for the caller."""
        return self in TERMINAL_STATES or self in INTERRUPTED_STATES


TERMINAL_STATES = frozenset({TaskState.COMPLETED, TaskState.CANCELED, TaskState.FAILED, TaskState.REJECTED})
INTERRUPTED_STATES = frozenset({TaskState.INPUT_REQUIRED, TaskState.AUTH_REQUIRED})


class Role(StrEnum):
    USER = "user"
    AGENT = "agent"
    UNSPECIFIED = "unspecified"


# --- parts -------------------------------------------------------------------------------------------

# The parts and the stream events are @final: readers of a stream test them with `type(x) is`, which a subclass
# would slip past (and final lets mypy narrow by those tests).


@final
class TextPart(_Model):
    kind: Literal["text"] = "text"
    text: str
    media_type: str | None = None
    metadata: dict[str, Any] | None = None


@final
class FilePart(_Model):
    """A file, either inline (`raw`, base64 as on the wire) or by reference (`url`)."""

    kind: Literal["file"] = "file"
    raw: str | None = None
    url: str | None = None
    name: str | None = None
    media_type: str | None = None
    metadata: dict[str, Any] | None = None

    @property
    def content(self) -> bytes | None:
        """The decoded inline bytes; None for a file by reference or undecodable base64."""
        if self.raw is None:
            return None
        try:
            return base64.b64decode(self.raw, validate=False)
        except (binascii.Error, ValueError):
            return None

    @property
    def size(self) -> int | None:
        if self.raw is None:
            return None
        padding = self.raw[-2:].count("=")
        return max(0, len(self.raw) * 3 // 4 - padding)


@final
class DataPart(_Model):
    kind: Literal["data"] = "data"
    data: Any = None
    media_type: str | None = None
    metadata: dict[str, Any] | None = None


Part = TextPart | FilePart | DataPart


def text_of(parts: list[Part]) -> str:
    """The text parts joined exactly as sent: no separator is ever inserted."""
    return "".join(p.text for p in parts if isinstance(p, TextPart))


# --- messages, tasks, artifacts ----------------------------------------------------------------------


@final
class Message(_Model):
    kind: Literal["message"] = "message"
    message_id: str
    role: Role
    parts: list[Part] = Field(default_factory=list)
    task_id: str | None = None
    context_id: str | None = None
    metadata: dict[str, Any] | None = None
    extensions: list[str] | None = None
    reference_task_ids: list[str] | None = None

    @property
    def text(self) -> str:
        return text_of(self.parts)


class TaskStatus(_Model):
    state: TaskState
    message: Message | None = None
    # Kept as sent: sdk13 writes `...Z`, sdk03 `...+00:00`; both are ISO 8601.
    timestamp: str | None = None


class Artifact(_Model):
    artifact_id: str
    name: str | None = None
    description: str | None = None
    parts: list[Part] = Field(default_factory=list)
    metadata: dict[str, Any] | None = None
    extensions: list[str] | None = None

    @property
    def text(self) -> str:
        return text_of(self.parts)


@final
class Task(_Model):
    kind: Literal["task"] = "task"
    id: str
    context_id: str
    status: TaskStatus
    history: list[Message] | None = None
    artifacts: list[Artifact] | None = None
    metadata: dict[str, Any] | None = None


@final
class StatusUpdate(_Model):
    kind: Literal["status-update"] = "status-update"
    task_id: str
    context_id: str
    status: TaskStatus
    # v0.3 only, and unreliable for interrupted states (SPEC-NOTES §7); the state decides.
    final: bool | None = None
    metadata: dict[str, Any] | None = None


@final
class ArtifactUpdate(_Model):
    kind: Literal["artifact-update"] = "artifact-update"
    task_id: str
    context_id: str
    artifact: Artifact
    append: bool | None = None
    last_chunk: bool | None = None
    metadata: dict[str, Any] | None = None


StreamEvent = Task | Message | StatusUpdate | ArtifactUpdate


# --- built without validation ------------------------------------------------------------------------
#
# A stream repeats a few plain shapes (a text chunk, a working status) tens of thousands of times a second,
# and the codecs check every value of those shapes before building them. Validating them again would cost
# more than decoding them, so these build the same objects without it: equal, and dumped, copied and printed
# alike (tests/unit/a2a/test_model_built.py holds them to that).

_new = object.__new__
_set_dict = BaseModel.__dict__["__dict__"].__set__
_set_fields_set = BaseModel.__dict__["__pydantic_fields_set__"].__set__
_set_extra = BaseModel.__dict__["__pydantic_extra__"].__set__
_set_private = BaseModel.__dict__["__pydantic_private__"].__set__


def _built(cls: type[_M], fields: dict[str, Any], fields_set: frozenset[str]) -> _M:
    """An instance of `cls` holding `fields`: every field of the model, in declaration order, each already a
    value of its declared type. `fields_set` names the ones a validating constructor would have been given."""
    instance = _new(cls)
    _set_dict(instance, fields)
    _set_fields_set(instance, set(fields_set))
    _set_extra(instance, None)
    _set_private(instance, None)
    return instance


_TEXT_SET = frozenset({"text"})
_MESSAGE_SET = frozenset({"message_id", "role", "parts", "task_id", "context_id"})
_STATUS_SET = frozenset({"state", "message", "timestamp"})
_ARTIFACT_SET = frozenset({"artifact_id", "name", "description", "parts"})
_STATUS_UPDATE_SET = frozenset({"task_id", "context_id", "status", "final"})
_ARTIFACT_UPDATE_SET = frozenset({"task_id", "context_id", "artifact", "append", "last_chunk"})


def built_text_part(text: str) -> TextPart:
    """TextPart(text=text), for a checked str."""
    return _built(TextPart, {"kind": "text", "text": text, "media_type": None, "metadata": None}, _TEXT_SET)


def built_message(
    message_id: str, role: Role, parts: list[Part], task_id: str | None, context_id: str | None
) -> Message:
    """Message(...) of those fields, for checked values (parts already built)."""
    fields = {
        "kind": "message",
        "message_id": message_id,
        "role": role,
        "parts": parts,
        "task_id": task_id,
        "context_id": context_id,
        "metadata": None,
        "extensions": None,
        "reference_task_ids": None,
    }
    return _built(Message, fields, _MESSAGE_SET)


def built_status(state: TaskState, message: Message | None, timestamp: str | None) -> TaskStatus:
    """TaskStatus(...), for a decoded state, message and a str or None timestamp."""
    return _built(TaskStatus, {"state": state, "message": message, "timestamp": timestamp}, _STATUS_SET)


def built_artifact(artifact_id: str, name: str | None, description: str | None, parts: list[Part]) -> Artifact:
    """Artifact(...) of those fields, for checked values (parts already built)."""
    fields = {
        "artifact_id": artifact_id,
        "name": name,
        "description": description,
        "parts": parts,
        "metadata": None,
        "extensions": None,
    }
    return _built(Artifact, fields, _ARTIFACT_SET)


def built_status_update(task_id: str, context_id: str, status: TaskStatus, final: bool | None) -> StatusUpdate:
    """StatusUpdate(...) without metadata, for checked values."""
    fields = {
        "kind": "status-update",
        "task_id": task_id,
        "context_id": context_id,
        "status": status,
        "final": final,
        "metadata": None,
    }
    return _built(StatusUpdate, fields, _STATUS_UPDATE_SET)


def built_artifact_update(
    task_id: str, context_id: str, artifact: Artifact, append: bool | None, last_chunk: bool | None
) -> ArtifactUpdate:
    """ArtifactUpdate(...) without metadata, for checked values."""
    fields = {
        "kind": "artifact-update",
        "task_id": task_id,
        "context_id": context_id,
        "artifact": artifact,
        "append": append,
        "last_chunk": last_chunk,
        "metadata": None,
    }
    return _built(ArtifactUpdate, fields, _ARTIFACT_UPDATE_SET)


class TaskPage(_Model):
    """One page of ListTasks (v1.0 only)."""

    tasks: list[Task] = Field(default_factory=list)
    next_page_token: str | None = None
    page_size: int | None = None
    total_size: int | None = None


# --- agent card --------------------------------------------------------------------------------------


class Interface(_Model):
    url: str
    binding: str = "JSONRPC"
    protocol_version: str = "0.3"
    tenant: str | None = None

    @property
    def major_minor(self) -> str:
        """`1.0.2` -> `1.0`; patch digits never matter for compatibility."""
        bits = self.protocol_version.split(".")
        return ".".join(bits[:2]) if len(bits) >= 2 else self.protocol_version


class Skill(_Model):
    id: str
    name: str
    description: str = ""
    tags: list[str] = Field(default_factory=list)
    examples: list[str] = Field(default_factory=list)
    input_modes: list[str] | None = None
    output_modes: list[str] | None = None
    security: list[dict[str, list[str]]] | None = None


class SecurityScheme(_Model):
    """One entry of `securitySchemes`, flattened from either wire shape."""

    type: Literal["apiKey", "http", "oauth2", "openIdConnect", "mutualTLS", "unknown"]
    description: str | None = None
    # apiKey
    location: Literal["header", "query", "cookie"] | None = None
    param_name: str | None = None
    # http
    scheme: str | None = None
    bearer_format: str | None = None
    # oauth2 / openIdConnect, kept for display
    flows: dict[str, Any] | None = None
    open_id_connect_url: str | None = None
    oauth2_metadata_url: str | None = None


class Provider(_Model):
    organization: str = ""
    url: str | None = None


class Extension(_Model):
    uri: str
    description: str | None = None
    required: bool | None = None
    params: dict[str, Any] | None = None


class Capabilities(_Model):
    streaming: bool | None = None
    push_notifications: bool | None = None
    state_transition_history: bool | None = None
    extended_card: bool | None = None
    extensions: list[Extension] | None = None


CardShape = Literal["v1.0", "legacy"]


class AgentCard(_Model):
    name: str
    description: str = ""
    version: str = ""
    shape: CardShape
    interfaces: list[Interface] = Field(default_factory=list)
    provider: Provider | None = None
    icon_url: str | None = None
    documentation_url: str | None = None
    capabilities: Capabilities = Field(default_factory=Capabilities)
    default_input_modes: list[str] = Field(default_factory=list)
    default_output_modes: list[str] = Field(default_factory=list)
    skills: list[Skill] = Field(default_factory=list)
    security_schemes: dict[str, SecurityScheme] = Field(default_factory=dict)
    # Each requirement maps scheme name -> scopes; any one requirement satisfied is enough.
    security: list[dict[str, list[str]]] = Field(default_factory=list)
    signatures: list[dict[str, Any]] | None = None
    # The legacy card-level protocolVersion, when the card had one.
    legacy_protocol_version: str | None = None
    # The JSON exactly as served, for the raw view and `-o json`.
    raw: dict[str, Any] = Field(default_factory=dict, repr=False)
