"""Workflows: several A2A agents (and shell commands) in a dependency graph, run live and journaled.

`spec` reads and validates the file, `template` fills in `{{...}}`, `engine` runs it, `journal` records it
so a run survives a crash. Never imports textual (an import-linter contract says so).
"""

from .engine import Ask, WorkflowRun, resume_run, start_run
from .journal import RunRecord, RunSummary, list_runs, read_run
from .spec import Issue, Step, Workflow, WorkflowInvalid, load_workflow
from .state import AskRequest, RunEvent, StepState

__all__ = [
    "Ask",
    "AskRequest",
    "Issue",
    "RunEvent",
    "RunRecord",
    "RunSummary",
    "Step",
    "StepState",
    "Workflow",
    "WorkflowInvalid",
    "WorkflowRun",
    "list_runs",
    "load_workflow",
    "read_run",
    "resume_run",
    "start_run",
]
