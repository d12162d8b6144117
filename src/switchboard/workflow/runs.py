"""Reading runs back: a journal's records (a torn last line skipped), folded into a RunRecord; the list of runs
from the run index. What journal.py writes, runs.py reads."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..a2a.errors import UsageError
from ..a2a.model import TaskState
from ..a2a.turn import TaskView
from ..a2a.wire import v10
from ..a2a.wire.common import Notes, WireFormatError
from .index import RunIndex, RunPage, default_dir
from .state import AskRequest, StepState
from .summary import RUN_ENDS, RunSummary, epoch, is_running, step_status

_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")


def read_records(path: Path) -> tuple[list[dict[str, Any]], int]:
    """Every whole record of a journal, and how many lines were skipped (a torn last line, at most)."""
    records: list[dict[str, Any]] = []
    skipped = 0
    data = path.read_bytes()
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except ValueError:
            skipped += 1
            continue
        if isinstance(record, dict) and isinstance(record.get("type"), str):
            records.append(record)
        else:
            skipped += 1
    return records, skipped


@dataclass
class RunRecord(RunSummary):
    """A run rebuilt from its journal: every step's last known state, the inputs, the outputs."""

    inputs: dict[str, str] = field(default_factory=dict)
    steps: dict[str, StepState] = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)
    digest: str = ""
    workflow_name: str | None = None  # the relay layout's workflow, when the file holds several
    correlation_id: str | None = None  # the trace id of whoever started the run (delegates' parent id)
    origin: dict[str, Any] = field(default_factory=dict)  # who started the run, when not the command line
    records: list[dict[str, Any]] = field(default_factory=list)
    skipped_lines: int = 0

    def summary(self) -> RunSummary:
        return RunSummary(
            self.run_id,
            self.workflow,
            self.path,
            self.status,
            self.started_at,
            self.ended_at,
            self.steps_total,
            self.steps_completed,
            self.waiting,
            self.failed,
            self.journal,
        )


def fold(records: list[dict[str, Any]], run_id: str, *, journal: Path | None = None) -> RunRecord:
    """Replay journal records into a RunRecord (what `runs show`, the TUI and `--resume` start from)."""
    run = RunRecord(run_id, "", "", "running", None, None, 0, 0, journal=journal, records=records)
    steps = run.steps
    for record in records:
        kind = record["type"]
        at = epoch(record.get("at"))
        step = steps.get(record.get("step", "")) if "step" in record else None
        if kind == "RunStarted":
            run.workflow = str(record.get("workflow", ""))
            run.path = str(record.get("file", ""))
            run.digest = str(record.get("digest", ""))
            run.workflow_name = record.get("workflowName")
            run.correlation_id = record.get("correlationId")
            origin = record.get("origin")
            run.origin = origin if isinstance(origin, dict) else {}
            run.inputs = {str(k): str(v) for k, v in (record.get("inputs") or {}).items()}
            run.started_at = at
            for raw in record.get("steps") or []:
                name = str(raw.get("name"))
                steps[name] = StepState(
                    name,
                    type=raw.get("type", "a2a"),
                    agent=raw.get("agent"),
                    depends_on=list(raw.get("dependsOn") or []),
                )
        elif kind == "RunResumed":
            run.status, run.ended_at = "running", None
        elif kind in RUN_ENDS:
            run.status = RUN_ENDS[kind]
            run.ended_at = at
            run.outputs = {str(k): str(v) for k, v in (record.get("outputs") or {}).items()}
        elif step is not None:
            _fold_step(step, kind, record, at, run_id)
    run.steps_total = len(steps)
    run.steps_completed = sum(1 for s in steps.values() if s.status == "completed")
    run.waiting = [s.name for s in steps.values() if s.status == "waiting"]
    run.failed = [s.name for s in steps.values() if s.status == "failed"]
    if run.status == "running" and (journal is None or not is_running(journal)):
        run.status = "interrupted"
    return run


def _fold_step(step: StepState, kind: str, record: dict[str, Any], at: float | None, run_id: str) -> None:
    if kind == "StepRequested":
        attempt = int(record.get("attempt", 1))
        if attempt != step.attempt or step.finished:
            step.view = TaskView()
            step.task_id = step.context_id = None
            step.error_code = step.error = None
            step.output = ""
        step.attempt = attempt
        step.correlation_id = record.get("correlationId", step.correlation_id)
        step.message_id = record.get("messageId")
        step.context_id = record.get("contextId") or step.context_id
        step.started_at = step.started_at if step.started_at and attempt > 1 else at
        step.ended_at = None
    elif kind == "StepEvent":
        try:
            event = v10.decode_event(record.get("event"), Notes())
        except (WireFormatError, ValueError, TypeError):
            return
        step.view.apply(event)
        step.task_id = step.view.task_id or step.task_id
        step.context_id = step.view.context_id or step.context_id
    elif kind == "StepTaskMoved":
        step.view = TaskView()  # the new task's events follow
        step.task_id = record.get("taskId") or step.task_id
    elif kind == "AwaitingInput":
        step.task_id = record.get("taskId") or step.task_id
        step.context_id = record.get("contextId") or step.context_id
        notes = Notes()
        parts = [p for p in (v10.decode_part(raw, notes) for raw in record.get("question") or []) if p is not None]
        try:
            state = TaskState(record.get("state", "input-required"))
        except ValueError:
            state = TaskState.INPUT_REQUIRED
        step.question = AskRequest(
            step.name, state, parts, step.task_id, step.context_id, step.correlation_id or "", step.agent or "", run_id
        )
    elif kind == "InputSubmitted":
        step.question = None
    elif kind == "StepCompleted":
        step.output = str(record.get("output", ""))
        step.task_id = record.get("taskId") or step.task_id
        step.context_id = record.get("contextId") or step.context_id
        step.exit_code = record.get("exitCode")
        step.ended_at = at
        step.question = None
    elif kind == "StepFailed":
        step.error_code = record.get("code")
        step.error = record.get("error")
        step.task_id = record.get("taskId") or step.task_id
        step.exit_code = record.get("exitCode", step.exit_code)
        if "output" in record:  # what the step gave before it failed its expect (Temporal runs record it)
            step.output = str(record["output"])
        if not record.get("retrying"):
            step.ended_at = at
            step.question = None
    elif kind == "StepCanceled":
        step.ended_at, step.question = at, None
    elif kind == "StepSkipped":
        step.ended_at = at
        step.skipped_reason = record.get("reason")
    step.status = step_status(kind, record) or step.status  # one rule for this fold and the index's


def journal_path(run_id: str, journal_dir: Path | None = None) -> Path:
    """The journal of `run_id` (a unique prefix is enough); UsageError when there is no such run."""
    directory = journal_dir or default_dir()
    if not _RUN_ID.fullmatch(run_id):
        raise UsageError(f"{run_id!r} is not a run id", hint="`switchboard runs list` shows the runs.")
    exact = directory / f"{run_id}.jsonl"
    if exact.exists():
        return exact
    matches = sorted(directory.glob(f"{run_id}*.jsonl")) if directory.is_dir() else []
    if len(matches) == 1:
        return matches[0]
    if matches:
        names = ", ".join(m.stem for m in matches[:5])
        raise UsageError(f"{run_id} matches several runs: {names}", hint="Give more of the run id.")
    raise UsageError(f"there is no run {run_id} in {directory}", hint="`switchboard runs list` shows the runs.")


def read_run(run_id: str, journal_dir: Path | None = None) -> RunRecord:
    """A run as its journal tells it (a torn last line is skipped)."""
    path = journal_path(run_id, journal_dir)
    records, skipped = read_records(path)
    run = fold(records, path.stem, journal=path)
    run.skipped_lines = skipped
    return run


def list_runs(
    journal_dir: Path | None = None,
    *,
    status: str | None = None,
    workflow: str | None = None,
    waiting: bool = False,
    limit: int | None = None,
    offset: int = 0,
) -> list[RunSummary]:
    """The runs in the journal directory, newest first (filtered and paged as `query_runs`)."""
    return query_runs(journal_dir, status=status, workflow=workflow, waiting=waiting, limit=limit, offset=offset).runs


def query_runs(
    journal_dir: Path | None = None,
    *,
    status: str | None = None,
    workflow: str | None = None,
    waiting: bool = False,
    limit: int | None = None,
    offset: int = 0,
) -> RunPage:
    """A page of runs from the run index, mended from the journals first: filtered by status, workflow name or a
    step waiting for input, `limit` runs from `offset`, with the number that match in all."""
    directory = journal_dir or default_dir()
    if not directory.is_dir():
        return RunPage([], 0, offset)
    with RunIndex.open(directory) as index:
        index.heal()
        return index.page(status=status, workflow=workflow, waiting=waiting, limit=limit, offset=offset)
