"""`switchboard runs list`: a page of runs from the run index, filtered, newest first.

Synchronous and light (stdlib, the index, the summary): it reads a page of the index beside the journals, so
it answers in the same time at ten runs or ten thousand, and loads neither asyncio nor the protocol model.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..workflow.summary import RunSummary
from .output import Out

if TYPE_CHECKING:
    from .groups.runs import RunsListOptions


def stamp(epoch: float | None) -> str | None:
    if epoch is None:
        return None
    return datetime.fromtimestamp(epoch, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def status_filter(value: str | None) -> str | None:
    """The status as the index keeps it: `awaiting-input` (as printed) is `awaiting_input`."""
    return value.replace("-", "_") if value else None


def render_summaries(
    out: Out, runs: list[RunSummary], total: int | None = None, next_offset: int | None = None
) -> None:
    for run in runs:
        out.field("Run ID", run.run_id)
        out.field("Workflow", run.workflow)
        out.field("State", run.status.replace("_", "-"))
        out.field("Started", stamp(run.started_at))
        out.field("Steps", f"{run.steps_completed}/{run.steps_total} completed")
        if run.waiting:
            out.field("Waiting", ", ".join(run.waiting))
        if run.failed:
            out.field("Failed", ", ".join(run.failed))
        out.separate()
    out.field("Runs", len(runs))
    if total is not None and total != len(runs):
        out.field("Matching", total)
    if next_offset is not None:
        out.field("Next Offset", next_offset)


def summary_json(run: RunSummary) -> dict[str, Any]:
    return {
        "runId": run.run_id,
        "workflow": run.workflow,
        "file": run.path,
        "status": run.status,
        "startedAt": stamp(run.started_at),
        "endedAt": stamp(run.ended_at),
        "stepsTotal": run.steps_total,
        "stepsCompleted": run.steps_completed,
        "waiting": run.waiting,
        "failed": run.failed,
        "journal": str(run.journal) if isinstance(run.journal, Path) else run.journal,
    }


def runs_list(options: RunsListOptions) -> int:
    from ..workflow.index import RunIndex, RunPage, default_dir

    directory = default_dir()
    if directory.is_dir():
        with RunIndex.open(directory) as index:
            index.heal()
            page = index.page(
                status=status_filter(options.status),
                workflow=options.workflow,
                waiting=options.waiting,
                limit=options.limit,
                offset=options.offset,
            )
    else:
        page = RunPage([], 0, options.offset)
    out = Out()
    if options.output == "json":
        doc: dict[str, Any] = {"runs": [summary_json(r) for r in page.runs], "total": page.total}
        doc["offset"], doc["nextOffset"] = page.offset, page.next_offset
        out.json_doc(doc)
    else:
        render_summaries(out, page.runs, page.total, page.next_offset)
    return 0
