"""What a run list shows about a run, folded from its journal's records one at a time (stdlib only).

The full fold (runs.fold) rebuilds every step's task; a list needs only the run's status, its times and
each step's status, and `SummaryFold` keeps just that, so it can go on from where it stopped: the run index
folds only the records appended since it last looked. Both folds take a step's status from `step_status`,
so they cannot disagree. Imports nothing heavy: `runs list` and the TUI's runs table load no pydantic.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

try:
    import fcntl
except ImportError:  # not on POSIX: no lock, the rest works
    fcntl = None  # type: ignore[assignment]

if TYPE_CHECKING:
    from .state import RunStatus, StepStatus

RUN_ENDS: dict[str, RunStatus] = {
    "RunCompleted": "completed",
    "RunFailed": "failed",
    "RunCanceled": "canceled",
    "RunAwaitingInput": "awaiting_input",
    "RunInterrupted": "interrupted",
}
# The records that change what a summary shows; StepEvent and StepNotice (nearly all of a journal) do not.
SUMMARY_KINDS = frozenset(
    {
        "RunStarted",
        "RunResumed",
        *RUN_ENDS,
        "StepRequested",
        "AwaitingInput",
        "InputSubmitted",
        "StepCompleted",
        "StepFailed",
        "StepCanceled",
        "StepSkipped",
    }
)
# A journal line starts with its type (the writer puts it first, without spaces): lines of other kinds are
# skipped without being parsed.
_LINE_HEADS = tuple(f'{{"type":"{kind}"'.encode() for kind in SUMMARY_KINDS)


def epoch(stamp: Any) -> float | None:
    if not isinstance(stamp, str):
        return None
    try:
        return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def step_status(kind: str, record: dict[str, Any]) -> StepStatus | None:
    """The status a step record moves its step to (None: it leaves the status alone)."""
    if kind == "StepRequested" or kind == "InputSubmitted":
        return "running"
    if kind == "AwaitingInput":
        return "waiting"
    if kind == "StepCompleted":
        return "completed"
    if kind == "StepFailed":
        return None if record.get("retrying") else "failed"
    if kind == "StepCanceled":
        return "canceled"
    if kind == "StepSkipped":
        return "skipped"
    return None


def is_running(path: Path) -> bool:
    """True while a live process holds the journal's lock."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return True
    finally:
        os.close(fd)
    return False


@dataclass
class RunSummary:
    run_id: str
    workflow: str
    path: str  # the workflow file
    status: RunStatus
    started_at: float | None
    ended_at: float | None
    steps_total: int
    steps_completed: int
    waiting: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    journal: Path | None = None


@dataclass
class SummaryFold:
    """A run's summary as far as the records seen so far tell it; `apply` takes the next record.

    `status` is what the records say ("running" until an end record); whether a running run's process is still
    alive is the lock's to tell (`summary`).
    """

    workflow: str = ""
    file: str = ""
    status: RunStatus = "running"
    started_at: float | None = None
    ended_at: float | None = None
    steps: dict[str, StepStatus] = field(default_factory=dict)

    def apply(self, record: dict[str, Any]) -> None:
        kind = record.get("type")
        if kind == "RunStarted":
            self.workflow = str(record.get("workflow", ""))
            self.file = str(record.get("file", ""))
            self.started_at = epoch(record.get("at"))
            self.steps = {str(raw.get("name")): "pending" for raw in record.get("steps") or [] if isinstance(raw, dict)}
        elif kind == "RunResumed":
            self.status, self.ended_at = "running", None
        elif kind in RUN_ENDS:
            self.status, self.ended_at = RUN_ENDS[kind], epoch(record.get("at"))
        elif isinstance(kind, str) and record.get("step") in self.steps:
            status = step_status(kind, record)
            if status is not None:
                self.steps[record["step"]] = status

    def apply_lines(self, data: bytes) -> int:
        """Fold the whole lines of `data` (journal bytes from a line start); how many bytes they take.

        A last line without its newline (being written, or torn by a crash) is left for next time.
        """
        import json

        end = data.rfind(b"\n") + 1
        for line in data[:end].split(b"\n"):
            if line.startswith(_LINE_HEADS):
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if isinstance(record, dict):
                    self.apply(record)
            elif line.startswith(b"{") and not line.startswith(b'{"type":"'):
                # Not our writer's layout (written by hand, or by another tool): parse it to be sure.
                try:
                    record = json.loads(line)
                except ValueError:
                    continue
                if isinstance(record, dict) and record.get("type") in SUMMARY_KINDS:
                    self.apply(record)
        return end

    def summary(self, run_id: str, journal: Path | None, *, alive: bool | None = None) -> RunSummary:
        """The summary; a run the records leave running is interrupted unless its process holds the lock."""
        status = self.status
        if status == "running":
            running = alive if alive is not None else (journal is not None and is_running(journal))
            status = "running" if running else "interrupted"
        steps = self.steps.items()
        return RunSummary(
            run_id,
            self.workflow,
            self.file,
            status,
            self.started_at,
            self.ended_at,
            len(self.steps),
            sum(1 for _, s in steps if s == "completed"),
            [name for name, s in steps if s == "waiting"],
            [name for name, s in steps if s == "failed"],
            journal,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "workflow": self.workflow,
            "file": self.file,
            "status": self.status,
            "startedAt": self.started_at,
            "endedAt": self.ended_at,
            "steps": self.steps,
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> SummaryFold:
        return cls(
            str(doc.get("workflow", "")),
            str(doc.get("file", "")),
            doc.get("status", "running"),
            doc.get("startedAt"),
            doc.get("endedAt"),
            dict(doc.get("steps") or {}),
        )
