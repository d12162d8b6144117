"""How a workflow run reads on the command line: `Label: value` text, one JSON document, or JSONL events.

One shape for a live run (WorkflowRun) and for a run read back from its journal (RunRecord), so `run`
and `runs show` print the same thing.
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field
from typing import Any

from ..a2a.follow import Notice
from ..a2a.model import DataPart, FilePart, TextPart
from ..a2a.wire import v10
from ..workflow.state import (
    RunEvent,
    RunFinished,
    RunStarted,
    StepAwaitingInput,
    StepCanceled,
    StepCompleted,
    StepEvent,
    StepFailed,
    StepInputSubmitted,
    StepOutput,
    StepSkipped,
    StepStarted,
    StepState,
)
from .output import Out, json_text
from .render import describe_file, render_event, stream_response
from .runs import stamp


@dataclass
class RunView:
    """What is printed about a run, live or from the journal."""

    run_id: str
    workflow: str
    file: str
    status: str
    started_at: float | None
    ended_at: float | None
    steps: list[StepState]
    outputs: dict[str, str]
    inputs: dict[str, str] = field(default_factory=dict)
    journal: str | None = None

    @classmethod
    def of_run(cls, run: Any) -> RunView:
        return cls(
            run.run_id,
            run.workflow.name,
            str(run.workflow.path),
            run.status,
            run.started_at,
            run.ended_at,
            list(run.steps.values()),
            dict(run.outputs),
            dict(run.inputs),
            str(run.journal.path),
        )

    @classmethod
    def of_record(cls, record: Any) -> RunView:
        return cls(
            record.run_id,
            record.workflow,
            record.path,
            record.status,
            record.started_at,
            record.ended_at,
            list(record.steps.values()),
            dict(record.outputs),
            dict(record.inputs),
            str(record.journal) if record.journal else None,
        )

    @property
    def waiting(self) -> list[StepState]:
        return [s for s in self.steps if s.status == "waiting"]


def seconds(start: float | None, end: float | None) -> str | None:
    if start is None or end is None:
        return None
    return f"{max(0.0, end - start):.1f} s"


def resume_command(base: str, run: RunView, where: str = "") -> str | None:
    """The command that continues the run, with an --answer placeholder for each step that waits. `where` (the
    run's server: --temporal HOST:PORT ...) follows the subcommand, whose options they are."""
    if run.status in ("completed", "running"):
        return None
    bits = [base, "run", "--resume", run.run_id, *([where] if where else [])]
    for step in run.waiting:
        bits.append(f'--answer {shlex.quote(step.name)}="<your answer>"')
    return " ".join(bits)


# --- text ------------------------------------------------------------------------------------------------


def render_run(out: Out, run: RunView, resume: str | None) -> None:
    out.field("Run ID", run.run_id)
    out.field("Workflow", run.workflow)
    out.field("File", run.file)
    out.field("State", run.status.replace("_", "-"))
    out.field("Started", stamp(run.started_at))
    out.field("Duration", seconds(run.started_at, run.ended_at))
    out.field("Journal", run.journal)
    out.separate()
    for step in run.steps:
        render_step(out, step)
        out.separate()
    for name, value in run.outputs.items():
        out.block(f"Output {name}", value)
    if resume:
        out.field("Resume", resume)
    out.flush()


def render_step(out: Out, step: StepState) -> None:
    out.field("Step", step.name)
    out.field("Type", "shell" if step.type == "shell" else None)
    out.field("Agent", step.agent)
    out.field("State", step.status)
    shown = step.view.state.value if step.type == "a2a" and step.view.state is not None else None
    if shown and shown != step.status and step.status != "waiting":
        out.field("Task State", shown)
    if step.depends_on:
        out.field("After", ", ".join(step.depends_on))
    out.field("Task ID", step.task_id)
    out.field("Context ID", step.context_id)
    out.field("Correlation ID", step.correlation_id)
    if step.attempt > 1:
        out.field("Attempts", step.attempt)
    out.field("Exit Code", step.exit_code)
    out.field("Duration", seconds(step.started_at, step.ended_at))
    out.field("Error Code", step.error_code if step.status == "failed" else None)
    out.field("Error", step.error if step.status == "failed" else None)
    out.field("Skipped", step.skipped_reason if step.status == "skipped" else None)
    if step.question is not None and step.status == "waiting":
        out.field("Waiting For", step.question.state.value)
        text = "".join(p.text for p in step.question.question if isinstance(p, TextPart))
        if text:
            out.block("Question", text)
        for part in step.question.question:
            if isinstance(part, DataPart):
                out.block("Question Data", json_text(part.data, indent=2))
            elif isinstance(part, FilePart):
                out.field("Question File", describe_file(part))
    if step.output:
        out.block("Step Output", step.output)


# --- JSON ------------------------------------------------------------------------------------------------


def step_json(step: StepState) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "name": step.name,
        "type": step.type,
        "agent": step.agent,
        "status": step.status,
        "state": step.state,
        "dependsOn": step.depends_on,
        "taskId": step.task_id,
        "contextId": step.context_id,
        "correlationId": step.correlation_id,
        "attempt": step.attempt,
        "startedAt": stamp(step.started_at),
        "endedAt": stamp(step.ended_at),
        "output": step.output,
    }
    if step.exit_code is not None:
        doc["exitCode"] = step.exit_code
    if step.status == "failed":
        doc["errorCode"], doc["error"] = step.error_code, step.error
    if step.status == "skipped":
        doc["skippedReason"] = step.skipped_reason
    if step.question is not None and step.status == "waiting":
        doc["question"] = {
            "state": step.question.state.value,
            "parts": [v10.encode_part(p) for p in step.question.question],
            "taskId": step.question.task_id,
            "contextId": step.question.context_id,
            "correlationId": step.question.correlation_id,
        }
    return doc


def run_json(run: RunView, resume: str | None) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "runId": run.run_id,
        "workflow": run.workflow,
        "file": run.file,
        "status": run.status,
        "startedAt": stamp(run.started_at),
        "endedAt": stamp(run.ended_at),
        "journal": run.journal,
        "inputs": run.inputs,
        "steps": [step_json(s) for s in run.steps],
        "outputs": run.outputs,
    }
    if resume:
        doc["resume"] = resume
    return doc


# --- events ----------------------------------------------------------------------------------------------


def event_json(event: RunEvent) -> dict[str, Any]:
    """One run event as a JSONL line; A2A events keep the v1.0 StreamResponse shape under `data`."""
    if isinstance(event, StepEvent):
        if isinstance(event.event, Notice):
            return {"event": "StepNotice", "step": event.step, "text": event.event.text, "level": event.event.level}
        return {"event": "StepEvent", "step": event.step, "data": stream_response(event.event)}
    if isinstance(event, StepAwaitingInput):
        request = event.request
        return {
            "event": "StepAwaitingInput",
            "step": request.step,
            "state": request.state.value,
            "question": [v10.encode_part(p) for p in request.question],
            "taskId": request.task_id,
            "contextId": request.context_id,
            "correlationId": request.correlation_id,
        }
    fields = {k: v for k, v in vars(event).items()}
    out: dict[str, Any] = {"event": type(event).__name__}
    for key, value in fields.items():
        out[_camel(key)] = value
    return out


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def render_live(out: Out, event: RunEvent) -> None:
    """One run event as `Label: value` lines (text mode with --stream)."""
    if isinstance(event, StepEvent):
        out.field("Step", event.step)
        if isinstance(event.event, Notice):
            out.field("Event", "notice")
            out.field("Notice", event.event.text)
            out.separate()
        else:
            render_event(out, event.event)
        return
    name = {
        RunStarted: "run-started",
        StepStarted: "step-started",
        StepOutput: "step-output",
        StepAwaitingInput: "step-awaiting-input",
        StepInputSubmitted: "step-input-submitted",
        StepCompleted: "step-completed",
        StepFailed: "step-failed",
        StepCanceled: "step-canceled",
        StepSkipped: "step-skipped",
        RunFinished: "run-finished",
    }[type(event)]
    out.field("Event", name)
    if isinstance(event, RunStarted):
        out.field("Run ID", event.run_id)
        out.field("Workflow", event.workflow)
        out.field("Resumed", "yes" if event.resumed else None)
    elif isinstance(event, StepAwaitingInput):
        out.field("Step", event.request.step)
        out.field("Waiting For", event.request.state.value)
        out.field("Task ID", event.request.task_id)
        if event.request.text:
            out.block("Question", event.request.text)
    elif isinstance(event, StepStarted):
        out.field("Step", event.step)
        out.field("Agent", event.agent)
        out.field("Attempt", event.attempt)
        out.field("Reattached", "yes" if event.reattached else None)
    elif isinstance(event, StepOutput):
        out.field("Step", event.step)
        out.field("Stream", event.stream)
        out.field("Line", event.text)
    elif isinstance(event, StepFailed):
        out.field("Step", event.step)
        out.field("Error Code", event.code)
        out.field("Error", event.error)
        out.field("Task ID", event.task_id)
        out.field("Retrying", "yes" if event.retrying else None)
    elif isinstance(event, StepSkipped):
        out.field("Step", event.step)
        out.field("Skipped", event.reason)
    elif isinstance(event, RunFinished):
        out.field("State", event.status.replace("_", "-"))
    else:
        out.field("Step", getattr(event, "step", None))
    out.separate()
    out.flush()


def progress_line(event: RunEvent) -> str | None:
    """A short line on stderr for a person watching a text-mode run, or None."""
    if isinstance(event, RunStarted):
        return f"run {event.run_id} ({event.workflow}){' resumed' if event.resumed else ''}"
    if isinstance(event, StepStarted):
        if event.reattached:
            return f"{event.step}: re-attached to its task on {event.agent}"
        where = f" on {event.agent}" if event.agent else ""
        again = f" (attempt {event.attempt})" if event.attempt > 1 else ""
        return f"{event.step}: started{where}{again}"
    if isinstance(event, StepEvent) and isinstance(event.event, Notice):
        return f"{event.step}: {event.event.text}"
    if isinstance(event, StepAwaitingInput):
        return f"{event.request.step}: the agent asks ({event.request.state.value})"
    if isinstance(event, StepInputSubmitted):
        return f"{event.step}: answered"
    if isinstance(event, StepCompleted):
        return f"{event.step}: completed"
    if isinstance(event, StepFailed):
        then = "; retrying" if event.retrying else ""
        return f"{event.step}: failed with {event.code}: {event.error}{then}"
    if isinstance(event, StepCanceled):
        return f"{event.step}: canceled"
    if isinstance(event, StepSkipped):
        return f"{event.step}: skipped ({event.reason})"
    if isinstance(event, RunFinished):
        return f"run {event.status.replace('_', '-')}"
    return None
