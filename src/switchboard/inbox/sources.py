"""Where waiting items are found, away from any screen: local runs (the run index, then each waiting run's
journal), runs on a Temporal server (its visibility, then each run's `waiting` query), and remembered conversation
tasks re-read from their agents. The TUI adds its own open tabs to these; `switchboard inbox` lists these."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from ..a2a.call_context import BACKGROUND
from ..a2a.errors import AuthFailedError, SwitchboardError
from ..a2a.model import Task, TaskState
from ..a2a.turn import task_question
from ..workflow.index import default_dir
from ..workflow.runs import RunRecord, query_runs, read_run
from ..workflow.summary import epoch
from .item import InboxItem, question_text
from .store import Remembered

TEMPORAL_PAGE = 200  # waiting runs read from a Temporal server's visibility at most
LOCAL_PAGE = 500  # waiting local runs read at most

OpenLink = Callable[[Remembered], Awaitable[Any]]


def _asked_at(records: list[dict[str, Any]], step: str) -> float | None:
    """When `step` last began to wait (its last AwaitingInput record)."""
    for record in reversed(records):
        if record.get("type") == "AwaitingInput" and record.get("step") == step:
            return epoch(record.get("at"))
    return None


def run_items(
    run: RunRecord, *, kind: str = "run", where: str = "", ask_ids: dict[str, str] | None = None
) -> list[InboxItem]:
    """The questions a run's steps wait on, one item per step (`where`: how the run is reached)."""
    items = []
    live = kind == "run" and run.status == "running"  # its process holds the journal's lock: it asks there
    for name, step in run.steps.items():
        if step.status != "waiting" or step.question is None:
            continue
        asked = step.question
        note = "live in another process: answer it there" if live else ""
        items.append(
            InboxItem(
                kind,  # type: ignore[arg-type]
                who=f"run {run.workflow} · step {name}",
                question=question_text(asked.question),
                state=asked.state.value,
                since=_asked_at(run.records, name),
                where=where or f"local run {run.run_id}",
                agent=step.agent or "",
                task_id=asked.task_id or "",
                context_id=asked.context_id or "",
                run_id=run.run_id,
                step=name,
                ask_id=(ask_ids or {}).get(name, ""),
                note=note,
                live_elsewhere=live,
                parts=tuple(asked.question),
            )
        )
    return items


def local_run_items(journal_dir: Path | None = None) -> list[InboxItem]:
    """Every step of a local run that waits for input (from the run index, then the run's journal)."""
    directory = journal_dir or default_dir()
    items: list[InboxItem] = []
    for summary in query_runs(directory, waiting=True, limit=LOCAL_PAGE).runs:
        try:
            run = read_run(summary.run_id, directory)
        except (OSError, SwitchboardError):
            continue  # removed since the index was read
        items += run_items(run)
    return items


def run_signature(journal_dir: Path | None = None) -> tuple[Any, ...]:
    """What changes when a run's journal or the run index is written: a watcher stats these, cheaply, and reads
    the index again only when they changed."""
    directory = journal_dir or default_dir()
    marks: list[Any] = []
    for name in ("", "index.sqlite3", "index.sqlite3-wal"):
        try:
            stat = (directory / name).stat() if name else directory.stat()
        except OSError:
            marks.append(None)
            continue
        marks.append((stat.st_ino, stat.st_mtime_ns, stat.st_size))
    return tuple(marks)


class TemporalQuestions:
    """The questions the runs on a Temporal server wait on, kept between polls. Each poll lists the waiting runs
    (visibility) and asks each its `waiting` query (what it asks now, each question with its id); a run's journal,
    its whole history and the costly read, is read once per question that is new (for since when it waits, and
    the run's name): a question seen before is taken as kept, one that left is let go of. `journal_reads` counts
    the journals read."""

    def __init__(self) -> None:
        self._items: dict[tuple[str, str, str], InboxItem] = {}  # (run id, step, question id) -> its item
        self.journal_reads = 0

    async def items(self, client: Any, address: str) -> list[InboxItem]:
        """Every question a run on the server waits on now."""
        from ..workflow.runs import fold
        from ..workflow.temporal import client as temporal

        found: dict[tuple[str, str, str], InboxItem] = {}
        page = await temporal.list_page(client, waiting=True, limit=TEMPORAL_PAGE)
        for summary in page.runs:
            run_id = summary.run_id
            try:
                asked = await temporal.asked(client, run_id)
                keys = {step: (run_id, step, str(question.get("askId", ""))) for step, question in asked.items()}
                if any(key not in self._items for key in keys.values()):
                    self.journal_reads += 1
                    run = fold(await temporal.records(client, run_id), run_id)
                    ask_ids = {step: key[2] for step, key in keys.items()}
                    for item in run_items(run, kind="temporal", where=f"Temporal {address}", ask_ids=ask_ids):
                        if item.step in keys:
                            self._items[keys[item.step]] = item
            except Exception:  # a run that ended or cannot be read now: asked again at the next poll
                continue
            found |= {key: self._items[key] for key in keys.values() if key in self._items}
        self._items = found  # the questions answered (or runs ended) since are let go of
        return list(found.values())


async def temporal_items(client: Any, address: str) -> list[InboxItem]:
    """Every question a run on the Temporal server waits on (visibility's waiting runs, then each one's `waiting`
    query; its records say since when): one look, with nothing kept."""
    return await TemporalQuestions().items(client, address)


def task_item(
    remembered: Remembered, task: Task | None, *, where: str = "remembered", note: str = ""
) -> InboxItem | None:
    """The item of a remembered task as its agent reports it now (`task`), or as remembered (`task` None: the
    agent could not be asked); None when the task no longer waits for the person."""
    if task is not None:
        state = task.status.state
        if state not in (TaskState.INPUT_REQUIRED, TaskState.AUTH_REQUIRED):
            return None
        parts = task_question(task)
        text = question_text(parts) or remembered.question
        state_name = state.value
    else:
        parts, text, state_name = [], remembered.question, remembered.state
    return InboxItem(
        "task",
        who=remembered.agent,
        question=text,
        state=state_name,
        since=remembered.since,
        where=where,
        agent=remembered.agent,
        agent_url=remembered.agent_url,
        task_id=remembered.task_id,
        context_id=remembered.context_id,
        note=note,
        stale=bool(note) and task is None and note.startswith("the agent no longer knows"),
        remembered=True,
        parts=tuple(parts),
    )


UNKNOWN = "the agent no longer knows this task"
NEEDS_SIGN_IN = "not re-read: the agent needs a sign-in; answering it signs in"


async def reread(remembered: Remembered, open_link: OpenLink, *, keep_link: bool = False) -> InboxItem | None:
    """A remembered task read again from its agent, in the background (never a sign-in with the person): its item
    now, a stale one when the agent does not know the task (dismissable), the remembered question with a note when
    the agent cannot be reached or needs a sign-in first, or None when the task no longer waits. The link is
    closed after the read unless `keep_link` (a caller that keeps its links open for the next reads)."""
    try:
        link = await open_link(remembered)
    except SwitchboardError as exc:
        return task_item(remembered, None, note=f"not re-read: {exc.message}")
    try:
        # Nobody asked for this read: it never starts a sign-in (a browser, a device code) for an OAuth agent.
        task = await link.get_task(remembered.task_id, context=BACKGROUND)
    except AuthFailedError:
        return task_item(remembered, None, note=NEEDS_SIGN_IN)
    except SwitchboardError as exc:
        if exc.code == "TaskNotFoundError":
            return task_item(remembered, None, note=UNKNOWN)
        return task_item(remembered, None, note=f"not re-read: {exc.message}")
    finally:
        close = None if keep_link else getattr(link, "aclose", None)
        if close is not None:
            await close()
    return task_item(remembered, task)
