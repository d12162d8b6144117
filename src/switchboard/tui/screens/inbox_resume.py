"""A local run stopped at a question, made ready to go on with the answer the inbox was given: the run's workflow
read again from its file, and the engine's `start` for a run view (main.py opens it in a tab of its own)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal


@dataclass(frozen=True)
class Resumable:
    workflow: str  # the run's workflow name, the tab's label
    start: Callable[[Any], Any]  # RunView's start: given the view's `ask`, the engine's run


@dataclass(frozen=True)
class Refusal:
    message: str
    severity: Literal["information", "error"]


def resumable_run(app: Any, run_id: str, step: str, text: str) -> Resumable | Refusal:
    """The run `run_id` with `text` as its step's answer, or why it cannot go on here (running in another process;
    a journal or file that cannot be read: said, never fatal)."""
    from ...agents import AgentsFile
    from ...workflow.engine import resume_run
    from ...workflow.loader import load_workflow
    from ...workflow.runs import read_run
    from ...workflow.summary import is_running
    from .sign_in import TuiInteraction

    try:
        record = read_run(run_id)
        if record.journal is not None and is_running(record.journal):
            return Refusal(f"the run {run_id} is running in another process: answer it there", "information")
        workflow = load_workflow(Path(record.path), AgentsFile(None, app.agents(), []), workflow=record.workflow_name)
    except Exception as exc:
        return Refusal(f"cannot continue run {run_id}: {exc}", "error")

    def start(ask: Any) -> Any:
        return resume_run(run_id, workflow=workflow, ask=ask, answers={step: [text]}, http=app.http, tap=app.tap,
                          interaction=TuiInteraction(app))  # fmt: skip

    return Resumable(record.workflow, start)
