"""Messages, statuses, artifacts and tasks: the same structure in both wire versions.

The versions differ only in their vocabulary — how a part, a role and a state are written, and whether
objects carry a `kind` — so each codec states that vocabulary as a Dialect and gets these for free.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..model import (
    Artifact,
    Message,
    Part,
    Role,
    Task,
    TaskState,
    TaskStatus,
    built_artifact,
    built_message,
    built_status,
    built_text_part,
)
from .common import Notes, brief, decode_list, obj, opt_dict, opt_str, put, req_str, str_list, unknown_keys

_MESSAGE_KEYS = frozenset(
    {"messageId", "role", "parts", "taskId", "contextId", "metadata", "extensions", "referenceTaskIds"}
)
_TASK_KEYS = frozenset({"id", "contextId", "status", "history", "artifacts", "metadata"})
_ARTIFACT_KEYS = frozenset({"artifactId", "name", "description", "parts", "metadata", "extensions"})
# The plain shapes a stream repeats thousands of times: only these keys, each of the JSON type the model
# wants. They are read in one step; anything else takes the general path, which notes what was odd.
_PLAIN_MESSAGE_KEYS = frozenset({"messageId", "role", "parts", "taskId", "contextId"})
_PLAIN_ARTIFACT_KEYS = frozenset({"artifactId", "name", "description", "parts"})

T = TypeVar("T")


def _lookup(table: dict[str, T], fallback: T, what: str) -> Callable[[Any, Notes], T]:
    def read(value: Any, notes: Notes) -> T:
        found = table.get(value) if isinstance(value, str) else None
        if found is None:
            notes.add(f"unknown {what} {brief(value)}")
            return fallback
        return found

    return read


@dataclass(frozen=True)
class Dialect:
    decode_part: Callable[[Any, Notes], Part | None]
    encode_part: Callable[[Part], dict[str, Any]]
    role_names: dict[Role, str]
    state_names: dict[TaskState, str]
    kinds: bool  # v0.3 writes {"kind": "message" | "task"} on those objects (and "kind": "text" on parts)
    state_aliases: tuple[tuple[str, TaskState], ...] = ()
    # Read the plain shapes in one step. Off, every object takes the general path (tests compare the two).
    fast: bool = True
    # Where a message keeps its parts: `parts`, except in the v0.3 proto (the v0.3 HTTP+JSON binding): `content`.
    message_parts: str = "parts"
    # Derived from the above in __post_init__: the readers of names, and the keys each object may hold.
    _role: Callable[[Any, Notes], Role] = field(init=False, repr=False, compare=False)
    _state: Callable[[Any, Notes], TaskState] = field(init=False, repr=False, compare=False)
    _message_keys: frozenset[str] = field(init=False, repr=False, compare=False)
    _task_keys: frozenset[str] = field(init=False, repr=False, compare=False)
    _plain_message_keys: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        states = {name: state for state, name in self.state_names.items()} | dict(self.state_aliases)
        object.__setattr__(self, "_role", _lookup({n: r for r, n in self.role_names.items()}, Role.UNSPECIFIED, "role"))
        object.__setattr__(self, "_state", _lookup(states, TaskState.UNKNOWN, "task state"))
        extra = frozenset({"kind"}) if self.kinds else frozenset()
        parts = frozenset({self.message_parts})
        object.__setattr__(self, "_message_keys", (_MESSAGE_KEYS - {"parts"}) | parts | extra)
        object.__setattr__(self, "_task_keys", _TASK_KEYS | extra)
        object.__setattr__(self, "_plain_message_keys", (_PLAIN_MESSAGE_KEYS - {"parts"}) | parts | extra)

    # --- decoding ------------------------------------------------------------------------------------

    def decode_parts(self, value: Any, what: str, notes: Notes) -> list[Part]:
        if self.fast and type(value) is list:
            plain: list[Part] = []
            for part in value:
                text = self._plain_text(part)
                if text is None:
                    break
                plain.append(built_text_part(text))
            else:
                return plain
        return decode_list(value, self.decode_part, f"{what}.parts", notes) or []

    def _plain_text(self, o: Any) -> str | None:
        """The text of a part that is nothing but text: {"text": ...}, in v0.3 with "kind": "text"."""
        if type(o) is not dict or len(o) != (2 if self.kinds else 1):
            return None
        text = o.get("text")
        if type(text) is not str or (self.kinds and o.get("kind") != "text"):
            return None
        return text

    def decode_state(self, value: Any, notes: Notes) -> TaskState:
        return self._state(value, notes)

    def decode_message(self, o: Any, notes: Notes) -> Message:
        if self.fast and type(o) is dict and self._plain_message_keys.issuperset(o):
            message_id, task_id, context_id = o.get("messageId"), o.get("taskId"), o.get("contextId")
            if (
                type(message_id) is str
                and message_id
                and (task_id is None or type(task_id) is str)
                and (context_id is None or type(context_id) is str)
            ):
                return built_message(
                    message_id,
                    self._role(o.get("role"), notes),
                    self.decode_parts(o.get(self.message_parts), "message", notes),
                    task_id or None,
                    context_id or None,
                )
        o = obj(o, "message", notes)
        unknown_keys(o, self._message_keys, "message", notes)
        return Message(
            message_id=req_str(o, "messageId", "message", notes),
            role=self._role(o.get("role"), notes),
            parts=self.decode_parts(o.get(self.message_parts), "message", notes),
            task_id=opt_str(o, "taskId", "message", notes),
            context_id=opt_str(o, "contextId", "message", notes),
            metadata=opt_dict(o, "metadata", "message", notes),
            # sdk 1.x ListTasks prints empty lists for absent ones
            extensions=str_list(o, "extensions", "message", notes) or None,
            reference_task_ids=str_list(o, "referenceTaskIds", "message", notes) or None,
        )

    def decode_status(self, o: Any, notes: Notes) -> TaskStatus:
        o = obj(o, "status", notes)
        message = o.get("message")
        if self.fast:  # each value below is decoded to its type already
            return built_status(
                self._state(o.get("state"), notes),
                self.decode_message(message, notes) if message is not None else None,
                opt_str(o, "timestamp", "status", notes),
            )
        return TaskStatus(
            state=self._state(o.get("state"), notes),
            message=self.decode_message(message, notes) if message is not None else None,
            timestamp=opt_str(o, "timestamp", "status", notes),
        )

    def decode_artifact(self, o: Any, notes: Notes) -> Artifact:
        if self.fast and type(o) is dict and _PLAIN_ARTIFACT_KEYS.issuperset(o):
            artifact_id, name, description = o.get("artifactId"), o.get("name"), o.get("description")
            if (
                type(artifact_id) is str
                and artifact_id
                and (name is None or type(name) is str)
                and (description is None or type(description) is str)
            ):
                return built_artifact(
                    artifact_id, name or None, description or None, self.decode_parts(o.get("parts"), "artifact", notes)
                )
        o = obj(o, "artifact", notes)
        unknown_keys(o, _ARTIFACT_KEYS, "artifact", notes)
        return Artifact(
            artifact_id=req_str(o, "artifactId", "artifact", notes),
            name=opt_str(o, "name", "artifact", notes),
            description=opt_str(o, "description", "artifact", notes),
            parts=self.decode_parts(o.get("parts"), "artifact", notes),
            metadata=opt_dict(o, "metadata", "artifact", notes),
            extensions=str_list(o, "extensions", "artifact", notes) or None,
        )

    def decode_task(self, o: Any, notes: Notes) -> Task:
        o = obj(o, "task", notes)
        unknown_keys(o, self._task_keys, "task", notes)
        return Task(
            id=req_str(o, "id", "task", notes),
            context_id=req_str(o, "contextId", "task", notes),
            status=self.decode_status(o.get("status"), notes),
            history=decode_list(o.get("history"), self.decode_message, "task.history", notes),
            artifacts=decode_list(o.get("artifacts"), self.decode_artifact, "task.artifacts", notes),
            metadata=opt_dict(o, "metadata", "task", notes),
        )

    # --- encoding ------------------------------------------------------------------------------------

    def encode_message(self, m: Message) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "message"} if self.kinds else {}
        out["messageId"] = m.message_id
        put(out, "contextId", m.context_id)
        put(out, "taskId", m.task_id)
        out["role"] = self.role_names[m.role]
        out[self.message_parts] = [self.encode_part(p) for p in m.parts]
        put(out, "metadata", m.metadata)
        put(out, "extensions", m.extensions)
        put(out, "referenceTaskIds", m.reference_task_ids)
        return out

    def encode_status(self, s: TaskStatus) -> dict[str, Any]:
        out: dict[str, Any] = {"state": self.state_names[s.state]}
        if s.message is not None:
            out["message"] = self.encode_message(s.message)
        put(out, "timestamp", s.timestamp)
        return out

    def encode_artifact(self, a: Artifact) -> dict[str, Any]:
        out: dict[str, Any] = {"artifactId": a.artifact_id}
        put(out, "name", a.name)
        put(out, "description", a.description)
        out["parts"] = [self.encode_part(p) for p in a.parts]
        put(out, "metadata", a.metadata)
        put(out, "extensions", a.extensions)
        return out

    def encode_task(self, t: Task) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": "task"} if self.kinds else {}
        out.update(id=t.id, contextId=t.context_id, status=self.encode_status(t.status))
        if t.artifacts is not None:
            out["artifacts"] = [self.encode_artifact(a) for a in t.artifacts]
        if t.history is not None:
            out["history"] = [self.encode_message(m) for m in t.history]
        put(out, "metadata", t.metadata)
        return out
