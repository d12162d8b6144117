"""What each conformance finding is judged against: a requirement of the A2A specification (its section, in the
version the interface speaks), its level (a MUST broken is a fail, a SHOULD a warning), and the requirement id the
official TCK (a2aproject/a2a-tck, branch 1.0-dev, tck/requirements/) gives it where it has one. v0.3 has no TCK ids,
and its specification asks for less in places (the error a refused push config gets is an example there, a MUST in
v1.0): the v0.3 entry says so."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Level = Literal["MUST", "SHOULD"]


@dataclass(frozen=True)
class Requirement:
    section: str  # "§3.1.2 Send Streaming Message"
    level: Level
    tck: str = ""  # the TCK's requirement id ("CORE-STREAM-001"); "" where it has none
    spec: str = "1.0"  # the version of the specification the section is in

    @property
    def label(self) -> str:
        """`A2A §3.1.2 Send Streaming Message` (v1.0) or `A2A v0.3 §7.2 message/stream`."""
        return f"A2A {'' if self.spec == '1.0' else 'v' + self.spec + ' '}{self.section}"

    def as_json(self) -> dict[str, Any]:
        return {"spec": self.spec, "section": self.section, "level": self.level, "tck": self.tck or None}


def _must(section: str, tck: str = "") -> Requirement:
    return Requirement(section, "MUST", tck)


def _v03(section: str, level: Level = "MUST") -> Requirement:
    return Requirement(section, level, "", "0.3")


# key -> (the v1.0 requirement, the v0.3 one; None: the same section has no v0.3 counterpart worth naming)
_TABLE: dict[str, tuple[Requirement, Requirement | None]] = {
    "card": (_must("§8.2 Discovery Mechanisms", "CARD-DISC-001"), _v03("§5.2 Discovery Mechanisms")),
    "card lint": (Requirement("§4.4.1 AgentCard", "SHOULD"), _v03("§5.5 AgentCard Object Structure", "SHOULD")),
    "interfaces": (_must("§8.3.1 Supported Interfaces Declaration", "CARD-PROTO-001"), _v03("§5.5.5 AgentInterface")),
    "send": (_must("§3.1.1 Send Message", "CORE-SEND-001"), _v03("§7.1 message/send")),
    "task fields": (_must("§4.1.1 Task", "DM-TASK-001"), _v03("§6.1 Task Object")),
    "state values": (_must("§4.1.3 TaskState", "DM-TASK-002"), _v03("§6.3 TaskState Enum")),
    "stream": (_must("§3.1.2 Send Streaming Message", "CORE-STREAM-003"), _v03("§7.2 message/stream")),
    "stream: message": (_must("§3.1.2 Send Streaming Message", "CORE-STREAM-002"), _v03("§7.2 message/stream")),
    "stream: jsonrpc sse": (
        _must("§9.4.2 Streaming (JSON-RPC): text/event-stream, each event a JSON-RPC response", "JSONRPC-SSE-001"),
        _v03("§3.3 Streaming Transport (Server-Sent Events)"),
    ),
    "stream: rest sse": (
        _must("§11.7 Streaming (HTTP+JSON): Server-Sent Events", "HTTP_JSON-SSE-001"),
        _v03("§3.3 Streaming Transport (Server-Sent Events)"),
    ),
    "stream: undeclared": (
        _must("§3.3.4 Capability Validation (UnsupportedOperationError)", "CORE-CAP-002"),
        _v03("§7.2 message/stream (UnsupportedOperationError)", "SHOULD"),
    ),
    "ended task: send": (
        _must("§3.1.1 Send Message (UnsupportedOperationError for an ended task)", "CORE-SEND-002"),
        _v03("§6.3 TaskState (terminal states)", "SHOULD"),
    ),
    "card caching": (Requirement("§8.6.1 Caching: Cache-Control and ETag", "SHOULD", "CARD-CACHE-001"), None),
    "get": (_must("§3.1.3 Get Task", "CORE-GET-001"), _v03("§7.3 tasks/get")),
    "artifacts": (
        _must("§4.1.7 Artifact: an artifactId, at least one part", "DM-ART-001"),
        _v03("§6.7 Artifact Object"),
    ),
    "artifact chunks": (
        Requirement("§4.2.2 TaskArtifactUpdateEvent: append, lastChunk", "SHOULD"),
        _v03("§7.2.3 TaskArtifactUpdateEvent: append, lastChunk", "SHOULD"),
    ),
    "artifacts: in the task": (
        _must("§3.1.3 Get Task: the task's artifacts"),
        _v03("§7.3 tasks/get: the task's artifacts"),
    ),
    "list": (_must("§3.1.4 List Tasks", "CORE-LIST-001"), None),
    "subscribe": (_must("§3.1.6 Subscribe to Task", "STREAM-SUB-001"), _v03("§7.9 tasks/resubscribe", "SHOULD")),
    "subscribe: ended task": (
        _must("§3.1.6 Subscribe to Task", "STREAM-SUB-003"),
        _v03("§7.9 tasks/resubscribe", "SHOULD"),
    ),
    "subscribe: kept open": (
        _must("§3.1.6 Subscribe to Task", "STREAM-SUB-002"),
        _v03("§7.9 tasks/resubscribe", "SHOULD"),
    ),
    "subscribe: every stream": (
        _must("§3.5.2 Streaming Event Delivery: every open stream, the same events", "STREAM-ORDER-003"),
        _v03("§7.9 tasks/resubscribe", "SHOULD"),
    ),
    "cancel": (_must("§3.1.5 Cancel Task", "CORE-CANCEL-001"), _v03("§7.4 tasks/cancel", "SHOULD")),
    "cancel: ended task": (_must("§3.1.5 Cancel Task", "CORE-CANCEL-002"), _v03("§7.4 tasks/cancel", "SHOULD")),
    "unknown task: get": (_must("§3.1.3 Get Task (TaskNotFoundError)", "CORE-GET-002"), _v03("§7.3 tasks/get")),
    "unknown task: cancel": (
        _must("§3.1.5 Cancel Task (TaskNotFoundError)", "CORE-CANCEL-003"),
        _v03("§7.4 tasks/cancel"),
    ),
    "unknown task: send": (
        _must("§3.4.2 Task Identifier Semantics (TaskNotFoundError)", "CORE-MULTI-004"),
        _v03("§7.1 message/send", "SHOULD"),
    ),
    "unknown task: subscribe": (
        _must("§3.1.6 Subscribe to Task (TaskNotFoundError)", "STREAM-SUB-004"),
        _v03("§7.9 tasks/resubscribe", "SHOULD"),
    ),
    "extended card": (
        _must("§3.1.11 Get Extended Agent Card, §3.3.4 Capability Validation", "CORE-CAP-003"),
        _v03("§7.10 agent/getAuthenticatedExtendedCard", "SHOULD"),
    ),
    "version": (_must("§3.6.2 Versioning: Server Responsibilities", "VER-SERVER-002"), None),
    "version: minor": (
        _must("§3.6.2 Versioning: another Major.Minor is VersionNotSupportedError", "VER-SERVER-002"),
        None,
    ),
    "version: patch": (_must("§3.6 Versioning: a patch number is not negotiated", "VER-CLIENT-002"), None),
    "version: empty": (_must("§3.6.2 Versioning: an empty A2A-Version is 0.3", "VER-SERVER-003"), None),
    "push config": (
        _must("§3.1.7-3.1.10 Push Notification Configs", "PUSH-CREATE-001"),
        _v03("§7.5-7.8 tasks/pushNotificationConfig/*"),
    ),
    "push delivery": (
        _must("§4.3.3 Push Notification Payload: delivered at least once", "PUSH-DELIVER-002"),
        _v03("§9.5 Push Notification Setup and Usage", "SHOULD"),
    ),
    "push delivery: token": (
        Requirement("§4.3.3 Push Notification Payload: the config's token, X-A2A-Notification-Token", "SHOULD"),
        _v03("§9.5 Push Notification Setup and Usage: the token", "SHOULD"),
    ),
    "push delivery: authentication": (
        _must(
            "§4.3.3 Push Notification Payload: the config's authentication, sent as Authorization", "PUSH-DELIVER-001"
        ),
        _v03("§9.5 Push Notification Setup and Usage: the config's authentication", "SHOULD"),
    ),
    "push delivery: payload": (
        _must("§4.3.3 Push Notification Payload: a StreamResponse", "PUSH-DELIVER-003"),
        _v03("§9.5 Push Notification Setup and Usage", "SHOULD"),
    ),
    "push config: refused": (
        _must("§3.3.4 Capability Validation (PushNotificationNotSupportedError)", "CORE-CAP-001"),
        _v03("§7.5 tasks/pushNotificationConfig/set (PushNotificationNotSupportedError)", "SHOULD"),
    ),
    "history length": (
        _must("§3.2.4 History Length Semantics", "CORE-HIST-002"),
        _v03("§7.3.1 TaskQueryParams", "SHOULD"),
    ),
    "timestamps": (_must("§5.6.1 Timestamps: ISO 8601 in UTC", "DM-SERIAL-003"), _v03("§6.2 TaskStatus", "SHOULD")),
    "error data": (
        _must("§9.5 Error Handling (JSON-RPC): ErrorInfo in error.data", "JSONRPC-ERR-003"),
        None,
    ),
    "error body: jsonrpc": (_must("§9.5 Error Handling (JSON-RPC): the error object", "JSONRPC-ERR-001"), None),
    "error body: rest": (
        _must("§11.6 Error Handling (HTTP+JSON): a google.rpc.Status (AIP-193)", "HTTP_JSON-ERR-001"),
        None,
    ),
    "error details": (
        _must("§11.6 Error Handling (HTTP+JSON): ErrorInfo in details", "HTTP_JSON-ERR-002"),
        None,
    ),
}


def requirement(key: str, version: str) -> Requirement:
    """The requirement `key` names, as the specification of `version` ("1.0", "0.3") states it."""
    v10, v03 = _TABLE[key]
    return v03 if version == "0.3" and v03 is not None else v10


def scenario_section(key: str) -> str:
    """The v1.0 section of a scenario, for findings that carry no requirement of their own."""
    found = _TABLE.get(key)
    return found[0].label if found else ""
