"""A served run's task rebuilt from its journal, for a server that starts again after it stopped or was killed.

The journal is the one record of a served run: the task (id = run id, context, the caller's first message)
is in its RunStarted `origin`, every delegate's events in its step records. The task rebuilt from it has the
same id, context, artifacts (under the same ids, with the same content) and state: terminal as the run
ended, input-required with the oldest question still open, else working while the run goes on.
"""

from __future__ import annotations

from typing import Any

from a2a.types import a2a_pb2 as pb
from google.protobuf.json_format import ParseDict

from ..workflow.runs import RunRecord
from ..workflow.state import AskRequest
from .translate import Translator, failure_of, part_of, served_artifact_id

ORIGIN = "serve"  # RunStarted.origin.by of a served run


def is_served(record: RunRecord, file: str, workflow: str) -> bool:
    """A run this workflow served (its RunStarted origin says so, with the same file and workflow name)."""
    return record.origin.get("by") == ORIGIN and record.path == file and record.workflow == workflow


def context_of(record: RunRecord) -> str:
    return str(record.origin.get("contextId") or record.run_id)


def oldest_question(record: RunRecord) -> AskRequest | None:
    """The question asked first among the steps still waiting (the journal's order)."""
    for raw in record.records:
        if raw.get("type") == "AwaitingInput":
            step = record.steps.get(str(raw.get("step")))
            if step is not None and step.status == "waiting" and step.question is not None:
                return step.question
    return None


def task_from_record(record: RunRecord) -> pb.Task:
    """The served task as the journal tells it."""
    t = Translator(record.run_id, context_of(record))
    task = pb.Task(id=record.run_id, context_id=t.context_id)
    first = record.origin.get("message")
    if isinstance(first, dict):
        message = _message(first)
        if message is not None:
            task.history.append(message)
    for step in record.steps.values():
        for view in step.view.artifacts.values():
            artifact = view.to_artifact()
            served = pb.Artifact(
                artifact_id=served_artifact_id(step.name, artifact.artifact_id),
                name=f"{step.name}: {artifact.name}" if artifact.name else step.name,
                parts=[part_of(p) for p in artifact.parts],
            )
            served.metadata.update({"step": step.name})
            task.artifacts.append(served)
    status: pb.TaskStatusUpdateEvent
    if record.status == "completed":
        task.artifacts.append(t.outputs(record.outputs).artifact)
        status = t.completed()
    elif record.status == "canceled":
        status = t.canceled()
    elif record.status == "failed":
        status = t.failed(*failure_of(record.steps))
    else:
        question = oldest_question(record)
        if question is not None:
            status = t.question(question)
        else:
            status = t.working("the server restarted; the run goes on from its journal", event="restarted")
    task.status.CopyFrom(status.status)
    return task


def _message(raw: dict[str, Any]) -> pb.Message | None:
    try:
        return ParseDict(raw, pb.Message(), ignore_unknown_fields=True)
    except Exception:  # a journal written by another version: the history is only a courtesy
        return None
