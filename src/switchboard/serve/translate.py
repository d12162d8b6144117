"""A run's events as the served task's A2A events (the SDK's protobuf types), and a run's journal as its task.

Every status message names its step in metadata (`step`, and `event`: started, completed, failed, ...); a
question also names the step's `agent`, and its text opens with a line saying who asks (the delegate's parts
follow, as sent). A
delegate's artifact chunks pass through under the id `STEP/ARTIFACT_ID` (two steps never share a buffer),
with `append` and `lastChunk` exactly as the delegate sent them; a task snapshot that changes an artifact
(a re-attachment, a reconciliation) replaces it whole. The workflow's outputs end a completed run as the
artifact `outputs`: the text, and a data part holding the outputs object.
"""

from __future__ import annotations

import json
import time
import uuid
from typing import Any

from a2a.helpers.proto_helpers import new_data_part
from a2a.types import a2a_pb2 as pb
from google.protobuf.json_format import ParseDict

from ..a2a.follow import Notice, TurnEvent
from ..a2a.model import ArtifactUpdate, Message, Part, StatusUpdate, Task, TaskState
from ..a2a.turn import ArtifactView, TaskView
from ..a2a.wire import v10
from ..workflow.state import AskRequest, StepState

State = pb.TaskState
OUTPUTS_ARTIFACT = "outputs"
_STATES = {
    TaskState.INPUT_REQUIRED: State.TASK_STATE_INPUT_REQUIRED,
    TaskState.AUTH_REQUIRED: State.TASK_STATE_AUTH_REQUIRED,
}


def text_part(text: str) -> pb.Part:
    return pb.Part(text=text)


def data_part(value: Any) -> pb.Part:
    return new_data_part(value, media_type="application/json")


def part_of(part: Part) -> pb.Part:
    """A part of the switchboard model as the SDK's protobuf part (through the v1.0 JSON form both share)."""
    return ParseDict(v10.encode_part(part), pb.Part(), ignore_unknown_fields=True)


def served_artifact_id(step: str, artifact_id: str) -> str:
    return f"{step}/{artifact_id}"


def _now_ms() -> int:
    """Now, in whole milliseconds since the epoch (what the status timestamps carry)."""
    return time.time_ns() // 1_000_000


def outputs_text(outputs: dict[str, str]) -> str:
    """One output: its text. Several: `name: text` blocks, in the file's order."""
    if len(outputs) == 1:
        return next(iter(outputs.values()))
    return "\n\n".join(f"{name}: {text}" for name, text in outputs.items())


def failure_of(steps: dict[str, StepState]) -> tuple[str, str, str | None]:
    """(code, message, step) of the failure that ended a run: the first failed step's, in file order."""
    for state in steps.values():
        if state.status == "failed":
            return state.error_code or "A2A_TASK_FAILED", state.error or "the step failed", state.name
    return "A2A_TASK_FAILED", "the run failed", None


class Translator:
    """Builds the served task's events; keeps, per step, the delegate's task as served so far."""

    def __init__(self, task_id: str, context_id: str) -> None:
        self.task_id = task_id
        self.context_id = context_id
        self.views: dict[str, TaskView] = {}

    # --- building blocks ---------------------------------------------------------------------------------

    def message(self, parts: list[pb.Part], metadata: dict[str, Any] | None = None) -> pb.Message:
        message = pb.Message(
            message_id=str(uuid.uuid4()),
            role=pb.Role.ROLE_AGENT,
            task_id=self.task_id,
            context_id=self.context_id,
            parts=parts,
        )
        if metadata:
            message.metadata.update(metadata)
        return message

    def status(
        self, state: pb.TaskState, parts: list[pb.Part] | str, metadata: dict[str, Any] | None = None
    ) -> pb.TaskStatusUpdateEvent:
        if isinstance(parts, str):
            parts = [text_part(parts)]
        status = pb.TaskStatus(state=state, message=self.message(parts, metadata))
        status.timestamp.FromMilliseconds(_now_ms())  # not through RFC 3339 text: strptime costs more per event
        event = pb.TaskStatusUpdateEvent(task_id=self.task_id, context_id=self.context_id, status=status)
        if metadata:
            event.metadata.update(metadata)
        return event

    def working(self, text: str, **metadata: Any) -> pb.TaskStatusUpdateEvent:
        return self.status(State.TASK_STATE_WORKING, text, {k: v for k, v in metadata.items() if v is not None})

    def artifact(
        self, artifact_id: str, name: str | None, parts: list[pb.Part], *, append: bool, last_chunk: bool, step: str
    ) -> pb.TaskArtifactUpdateEvent:
        artifact = pb.Artifact(artifact_id=artifact_id, parts=parts)
        if name:
            artifact.name = name
        artifact.metadata.update({"step": step})
        event = pb.TaskArtifactUpdateEvent(task_id=self.task_id, context_id=self.context_id, artifact=artifact)
        if append:
            event.append = True
        if last_chunk:
            event.last_chunk = True
        return event

    # --- a step's delegate ---------------------------------------------------------------------------------

    def reset(self, step: str) -> None:
        """A new attempt (or a new task) of the step: its next chunks build afresh."""
        self.views[step] = TaskView(spill_after=None)

    def seed(self, step: str, view: TaskView) -> None:
        """What the served task already holds for `step` (rebuilt from the journal after a restart)."""
        self.views[step] = view

    def delegate_event(
        self, step: str, event: TurnEvent
    ) -> list[pb.TaskStatusUpdateEvent | pb.TaskArtifactUpdateEvent]:
        """A delegate's event as the served task's: chunks as sent, changed snapshots whole, progress as status."""
        if isinstance(event, Notice):
            if event.kind == "new-task":
                self.reset(step)
            return []
        view = self.views.setdefault(step, TaskView(spill_after=None))
        if type(event) is ArtifactUpdate:  # type(): see TaskView.apply (the event classes are final)
            view.apply(event)
            artifact = event.artifact
            return [
                self.artifact(
                    served_artifact_id(step, artifact.artifact_id),
                    f"{step}: {artifact.name}" if artifact.name else step,
                    [part_of(p) for p in artifact.parts],
                    append=bool(event.append),
                    last_chunk=bool(event.last_chunk),
                    step=step,
                )
            ]
        if type(event) is Task:
            before = {aid: _signature(a) for aid, a in view.artifacts.items()}
            view.apply(event)
            changed = [a for aid, a in view.artifacts.items() if before.get(aid) != _signature(a)]
            return [self._whole(step, a) for a in changed]
        if type(event) is Message:
            view.apply(event)
            if event.task_id is None and event.parts:
                parts = [part_of(p) for p in event.parts]
                return [self.status(State.TASK_STATE_WORKING, parts, {"step": step, "event": "reply"})]
            return []
        if type(event) is StatusUpdate:
            view.apply(event)
            status = event.status
            # Questions and ends come as the run's own events; progress passes through as it was said.
            if status.state in (TaskState.WORKING, TaskState.SUBMITTED) and status.message and status.message.parts:
                parts = [part_of(p) for p in status.message.parts]
                return [self.status(State.TASK_STATE_WORKING, parts, {"step": step, "event": "progress"})]
        return []

    def _whole(self, step: str, view: ArtifactView) -> pb.TaskArtifactUpdateEvent:
        artifact = view.to_artifact()
        return self.artifact(
            served_artifact_id(step, artifact.artifact_id),
            f"{step}: {artifact.name}" if artifact.name else step,
            [part_of(p) for p in artifact.parts],
            append=False,
            last_chunk=True,
            step=step,
        )

    # --- questions and ends ----------------------------------------------------------------------------

    def question(self, request: AskRequest, note: str | None = None) -> pb.TaskStatusUpdateEvent:
        """input-required (or auth-required): a line saying which step (and its agent) asks, then the delegate's
        question, parts as sent. Text parts are joined as sent, so each line of ours ends with a newline."""
        parts = [text_part(f"{note}\n")] if note else []
        parts.append(text_part(asker_line(request)))
        parts += [part_of(p) for p in request.question]
        metadata = {
            "step": request.step,
            "event": request.state.value,
            "correlationId": request.correlation_id,
            **({"agent": request.agent} if request.agent else {}),
            **({"delegateTaskId": request.task_id} if request.task_id else {}),
        }
        return self.status(_STATES.get(request.state, State.TASK_STATE_INPUT_REQUIRED), parts, metadata)

    def outputs(self, outputs: dict[str, str]) -> pb.TaskArtifactUpdateEvent:
        parts = [text_part(outputs_text(outputs)), data_part(outputs)] if outputs else [data_part({})]
        return self.artifact(OUTPUTS_ARTIFACT, OUTPUTS_ARTIFACT, parts, append=False, last_chunk=True, step="")

    def completed(self) -> pb.TaskStatusUpdateEvent:
        return self.status(State.TASK_STATE_COMPLETED, "the workflow completed", {"event": "completed"})

    def failed(self, code: str, message: str, step: str | None) -> pb.TaskStatusUpdateEvent:
        where = f"step {step} failed" if step else "the workflow failed"
        detail = {"code": code, "message": message, **({"step": step} if step else {})}
        return self.status(
            State.TASK_STATE_FAILED,
            [text_part(f"{where}: {code}: {message}"), data_part(detail)],
            {"event": "failed", "code": code, **({"step": step} if step else {})},
        )

    def canceled(self, text: str = "the run was canceled") -> pb.TaskStatusUpdateEvent:
        return self.status(State.TASK_STATE_CANCELED, text, {"event": "canceled"})


def asker_line(request: AskRequest) -> str:
    """Who asks, for the person reading the question: `step NAME (AGENT) asks:` and a newline."""
    agent = f" ({request.agent})" if request.agent else ""
    if not request.question:
        return f"step {request.step}{agent} asks ({request.state.value}) and says nothing more\n"
    return f"step {request.step}{agent} asks:\n"


def _signature(view: ArtifactView) -> str:
    return json.dumps([v10.encode_part(p) for p in view.to_artifact().parts], sort_keys=True, default=str)
