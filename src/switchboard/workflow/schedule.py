"""What a run does, whatever runs it: which steps may start, which are skipped and why, when a failed step is
tried again, and how the run ends. Pure functions over step statuses, shared by the local engine (run.py)
and the Temporal workflow (temporal/workflow.py), so both schedule a file the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .spec import Step, Workflow
    from .state import RunStatus


def satisfied(workflow: Workflow, statuses: Mapping[str, str], name: str) -> bool:
    """A dependency is met when it completed, or failed or was canceled with `onError: continue`."""
    status = statuses[name]
    tolerated = workflow.step(name).on_error == "continue"
    return status == "completed" or (status in ("failed", "canceled") and tolerated)


def blocked_by(workflow: Workflow, statuses: Mapping[str, str], step: Step) -> str | None:
    """Why `step` will never run (a dependency skipped, or failed for good), or None."""
    for dep in step.depends_on:
        status = statuses[dep]
        if status == "skipped":
            return f"{dep} was skipped"
        if status in ("failed", "canceled") and not satisfied(workflow, statuses, dep):
            return f"{dep} {status}"
    return None


def ready(workflow: Workflow, statuses: Mapping[str, str], step: Step) -> bool:
    return all(satisfied(workflow, statuses, dep) for dep in step.depends_on)


def retry_delay(step: Step, attempts: int, retryable: bool, stopping: bool) -> float | None:
    """Seconds before attempt `attempts + 1` of a failed step, or None when it is not tried again."""
    if not retryable or stopping or attempts > step.retries.count:
        return None
    return step.retries.backoff * 2.0 ** (attempts - 1)


def final_status(workflow: Workflow, statuses: Mapping[str, str], canceled: bool) -> RunStatus:
    """How a run whose steps all stopped ends."""
    fatal = [s for s in workflow.steps if statuses[s.name] in ("failed", "canceled") and s.on_error == "fail"]
    if canceled:
        return "canceled"
    if fatal:
        return "canceled" if all(statuses[s.name] == "canceled" for s in fatal) else "failed"
    if any(status == "waiting" for status in statuses.values()):
        return "awaiting_input"
    if any(status in ("pending", "running") for status in statuses.values()):
        return "failed"  # cannot happen: a step neither ran nor was skipped
    return "completed"


END_RECORDS = {
    "completed": "RunCompleted",
    "failed": "RunFailed",
    "canceled": "RunCanceled",
    "awaiting_input": "RunAwaitingInput",
}
