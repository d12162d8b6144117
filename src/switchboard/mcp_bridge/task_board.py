"""MCP tasks (protocol 2025-11-25): a task-augmented tools/call returns a task at once and the work goes on here;
the host polls tasks/get, reads the outcome with tasks/result, cancels with tasks/cancel. A question the work asks
puts the task at input_required until the host calls tasks/result, through which it is asked (an elicitation
related to that request). A workflow run's task id is its run id, so after a restart its journal still answers."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import mcp_types as types
from mcp.server.context import ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INVALID_PARAMS

from ..a2a.errors import SwitchboardError
from ..workflow.runs import list_runs, read_run
from ..workflow.summary import RunSummary
from .host_channel import RELATED_TASK, Host, HostChannel
from .restored_tasks import NOT_FOUND, Keeper, RestoredTasks

TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
POLL_MS = 1000
KEEP_MS = 60 * 60 * 1000  # a finished task's result is kept this long (the host may ask for less)
MAX_TASKS = 1000
PAGE_SIZE = 10  # tasks in a tasks/list page (the SDK's task store's page)
RUNS_LISTED = 100  # the journal's newest runs tasks/list shows (older ones: list_runs pages through them)
RUN_STATUS: dict[str, TaskStatus] = {
    "running": "working",
    "awaiting_input": "input_required",
    "interrupted": "working",
    "completed": "completed",
    "failed": "failed",
    "canceled": "cancelled",
}


def _now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass
class Question:
    """What the work waits to ask: a form or a URL, answered through the next tasks/result."""

    message: str
    schema: dict[str, Any] | None = None
    url: str | None = None
    elicitation_id: str = ""
    answer: asyncio.Future[types.ElicitResult] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


@dataclass
class BoardTask:
    task_id: str
    ttl: int
    status: TaskStatus = "working"
    message: str | None = None
    created_at: str = field(default_factory=_now)
    updated_at: str = field(default_factory=_now)
    result: types.CallToolResult | None = None
    runner: asyncio.Task[None] | None = None
    host: TaskHost | None = None
    question: Question | None = None
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def set(self, status: TaskStatus, message: str | None = None) -> None:
        self.status, self.updated_at = status, _now()
        if message is not None:
            self.message = message
        self.changed.set()

    def wire(self) -> dict[str, Any]:
        return {
            "taskId": self.task_id,
            "status": self.status,
            **({"statusMessage": self.message} if self.message else {}),
            "createdAt": self.created_at,
            "lastUpdatedAt": self.updated_at,
            "ttl": self.ttl,
            "pollInterval": POLL_MS,
        }

    @property
    def over(self) -> bool:
        return self.status in ("completed", "failed", "cancelled")

    def expired(self, now: datetime) -> bool:
        """Its ttl (from its creation, as the spec counts it) ran out."""
        return (now - datetime.fromisoformat(self.created_at)).total_seconds() * 1000 > self.ttl


class TaskHost:
    """The Host of work running as an MCP task: progress becomes the task's status message; a question waits for
    the host's next tasks/result, if the client can be asked at all (as it declared when it made the task)."""

    holds_call = False
    asks_by_round_trip = False
    cancels_remote = False  # set by tasks/cancel: a process that goes away leaves the agent's task going

    def __init__(
        self, task: BoardTask, *, can_ask: bool, can_open_url: bool, run_id: str | None, keeper: Keeper | None = None
    ) -> None:
        self.task = task
        self.can_ask = can_ask
        self.can_open_url = can_open_url
        self.run_id = run_id
        self._keeper = keeper

    def task_known(self, agent: str, task_id: str, context_id: str | None) -> None:
        if self._keeper is not None:
            self._keeper.known(agent, task_id, context_id)

    def ended(self) -> None:
        """The task ended (not this process going away): its status is kept for tasks/list after a restart."""
        if self._keeper is not None:
            self._keeper.ended(self.task.status, self.task.message)

    async def progress(self, words: str) -> None:
        self.task.set(self.task.status, words[:2000])

    async def ask(self, message: str, schema: dict[str, Any]) -> types.ElicitResult:
        return await self._wait(Question(message, schema=schema))

    async def open_url(self, message: str, url: str, elicitation_id: str) -> types.ElicitResult:
        return await self._wait(Question(message, url=url, elicitation_id=elicitation_id))

    async def url_done(self, elicitation_id: str) -> None:
        pass  # the question went with a tasks/result long answered: nothing to tell

    async def _wait(self, question: Question) -> types.ElicitResult:
        self.task.question = question
        self.task.set("input_required", question.message[:2000])
        try:
            return await question.answer
        finally:
            self.task.question = None
            if not self.task.over:
                self.task.set("working")


Work = Callable[[Host], Awaitable[types.CallToolResult]]


class TaskBoard:
    """The MCP tasks of this process; an agent call's is also kept in the ledger (restored: after a restart, it is
    read again from its agent), a workflow run's is its journal."""

    def __init__(self, journal_dir: Path | None = None, restored: RestoredTasks | None = None) -> None:
        self.tasks: dict[str, BoardTask] = {}
        self.journal_dir = journal_dir
        self.restored = restored

    def start(self, work: Work, ctx: ServerRequestContext[Any, Any], ttl: int | None, task_id: str | None) -> BoardTask:
        """Run `work` as a task the host polls; the task as created (working). `task_id` given: a workflow run's
        (its journal answers for it); else an agent call's, whose A2A task is kept once known."""
        task = BoardTask(task_id or str(uuid.uuid4()), min(ttl or KEEP_MS, KEEP_MS))
        made = datetime.fromisoformat(task.created_at).timestamp()
        keeper = self.restored.keeper(task.task_id, task.ttl, made) if self.restored and task_id is None else None
        return self._start(task, work, ctx, run_id=task_id, keeper=keeper)

    def _start(
        self,
        task: BoardTask,
        work: Work,
        ctx: ServerRequestContext[Any, Any],
        *,
        run_id: str | None,
        keeper: Keeper | None,
    ) -> BoardTask:
        self._forget_old()
        channel = HostChannel(ctx)
        host = TaskHost(task, can_ask=channel.can_ask, can_open_url=channel.can_open_url, run_id=run_id, keeper=keeper)
        self.tasks[task.task_id] = task
        task.host = host
        task.runner = asyncio.get_running_loop().create_task(self._run(task, work, host))
        return task

    async def _run(self, task: BoardTask, work: Work, host: TaskHost) -> None:
        try:
            task.result = await work(host)
        except asyncio.CancelledError:
            task.set("cancelled", "canceled by the host")
            if host.cancels_remote:  # tasks/cancel (not this process going away)
                host.ended()
            raise
        except SwitchboardError as exc:  # the work's own errors come as tool errors already; this is a fallback
            task.result = types.CallToolResult(content=[types.TextContent(text=exc.message)], is_error=True)
            task.set("failed", exc.message)
            host.ended()
            return
        except Exception:
            task.set("failed", "switchboard failed unexpectedly on this task; its log (stderr) says more.")
            host.ended()
            return
        # A tool result with isError is a failed task (the spec's word); the status message is the result's last line
        said = next((b.text for b in reversed(task.result.content) if isinstance(b, types.TextContent)), "")
        task.set("failed" if task.result.is_error else "completed", said[:2000] or None)
        host.ended()

    def _forget_old(self) -> None:
        """Finished tasks past their ttl go, and beyond the cap the oldest finished ones (a host that never reads its
        results cannot fill memory)."""
        now = datetime.now(UTC)
        for task in [t for t in self.tasks.values() if t.over and t.expired(now)]:
            self.tasks.pop(task.task_id, None)
        finished = [t for t in self.tasks.values() if t.over]
        for task in finished[: max(0, len(self.tasks) - MAX_TASKS + 1)]:
            self.tasks.pop(task.task_id, None)

    def _held(self, task_id: str) -> BoardTask | None:
        """The task of this process, unless it ended and its ttl ran out."""
        task = self.tasks.get(task_id)
        if task is not None and task.over and task.expired(datetime.now(UTC)):
            self.tasks.pop(task_id, None)
            return None
        return task

    def _task(self, task_id: str) -> BoardTask:
        task = self._held(task_id)
        if task is None:
            raise MCPError(INVALID_PARAMS, NOT_FOUND)
        return task

    # --- the tasks/* requests --------------------------------------------------------------------------------

    async def get(self, ctx: ServerRequestContext[Any, Any], params: types.GetTaskRequestParams) -> dict[str, Any]:
        task = self._held(params.task_id)
        if task is not None:
            return task.wire()
        entry = self.restored.find(params.task_id) if self.restored is not None else None
        if self.restored is not None and entry is not None:  # an agent call of an earlier server
            return self.restored.wire(entry, await self.restored.read(entry))
        return self._journaled(params.task_id)

    def _journaled(self, task_id: str) -> dict[str, Any]:
        """A task this process did not make: a workflow run of an earlier server (its journal is the truth)."""
        try:
            record = read_run(task_id, self.journal_dir)
        except (SwitchboardError, OSError, ValueError):
            raise MCPError(INVALID_PARAMS, NOT_FOUND) from None
        return _run_wire(record)

    async def result(
        self, ctx: ServerRequestContext[Any, Any], params: types.GetTaskPayloadRequestParams
    ) -> dict[str, Any]:
        """The outcome once the task is over; meanwhile a question it waits on is asked through this request."""
        task = self._held(params.task_id) or await self._taken_up(ctx, params.task_id)
        if isinstance(task, dict):
            return task
        channel = HostChannel(ctx, related_task=task.task_id)
        while not task.over:
            task.changed.clear()
            question = task.question
            if question is not None and not question.answer.done():
                if question.url is not None:
                    said = await channel.open_url(question.message, question.url, question.elicitation_id)
                else:
                    said = await channel.ask(question.message, question.schema or {})
                if not question.answer.done():
                    question.answer.set_result(said)
                continue
            await task.changed.wait()
        if task.result is None:
            raise MCPError(INVALID_PARAMS, f"Task {task.task_id} ended without a result: {task.status}")
        return _related(task.result, task.task_id)

    async def _taken_up(self, ctx: ServerRequestContext[Any, Any], task_id: str) -> BoardTask | dict[str, Any]:
        """An agent call's task of an earlier server: the outcome of one that ended, else the task taken up here
        (followed again, its question asked through this request)."""
        entry = self.restored.find(task_id) if self.restored is not None else None
        if self.restored is None or entry is None:
            raise MCPError(INVALID_PARAMS, NOT_FOUND)
        found = await self.restored.read(entry, HostChannel(ctx, related_task=task_id))
        if found.status.state.is_terminal:
            return _related(self.restored.result(entry, found), task_id)
        task = BoardTask(task_id, entry.ttl_ms, created_at=datetime.fromtimestamp(entry.created_at, UTC).isoformat())
        return self._start(task, self.restored.resume(entry), ctx, run_id=None, keeper=self.restored.keeper_of(entry))

    async def cancel(
        self, ctx: ServerRequestContext[Any, Any], params: types.CancelTaskRequestParams
    ) -> dict[str, Any]:
        held = self._held(params.task_id)
        entry = self.restored.find(params.task_id) if self.restored is not None and held is None else None
        if self.restored is not None and entry is not None:  # an agent call of an earlier server
            return await self.restored.cancel(entry)
        task = self._task(params.task_id)
        if task.over:
            raise MCPError(INVALID_PARAMS, f"Cannot cancel task: already in terminal status '{task.status}'")
        if task.host is not None:
            task.host.cancels_remote = True
        if task.runner is not None:
            task.runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task.runner
        task.set("cancelled", "canceled by the host")
        return task.wire()

    async def list(self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams) -> dict[str, Any]:
        """This process's tasks, then an earlier server's agent calls as last seen, then the journal's workflow runs
        (newest first, at most RUNS_LISTED): each one tasks/get answers for. A page of PAGE_SIZE, its cursor the
        last task id of the page before, as the SDK's own task store pages (an unknown cursor is invalid params)."""
        self._forget_old()
        held = set(self.tasks)
        earlier = self.restored.listed(held) if self.restored is not None else []
        listed = [task.wire() for task in self.tasks.values()] + earlier
        held |= {task["taskId"] for task in earlier}
        try:
            runs = await asyncio.to_thread(list_runs, self.journal_dir, limit=RUNS_LISTED)
        except (SwitchboardError, OSError, ValueError):  # an unreadable run index hides the runs, not the tasks
            runs = []
        listed += [_run_wire(run) for run in runs if run.run_id not in held]
        start = 0
        if params is not None and params.cursor is not None:
            ids = [task["taskId"] for task in listed]
            if params.cursor not in ids:
                raise MCPError(INVALID_PARAMS, "Invalid cursor: it names no task listed here")
            start = ids.index(params.cursor) + 1
        page = listed[start : start + PAGE_SIZE]
        more = start + PAGE_SIZE < len(listed) and page
        return {"tasks": page, **({"nextCursor": page[-1]["taskId"]} if more else {})}


def _run_wire(run: RunSummary) -> dict[str, Any]:
    """A workflow run from the journal's index, as tasks/list shows it (tasks/get reads its journal)."""
    started = datetime.fromtimestamp(run.started_at or 0, UTC).isoformat()
    ended = datetime.fromtimestamp(run.ended_at or run.started_at or 0, UTC).isoformat()
    return {
        "taskId": run.run_id,
        "status": RUN_STATUS.get(run.status, "failed"),
        "statusMessage": f"run {run.run_id} of {run.workflow}: {run.status} (from its journal)",
        "createdAt": started,
        "lastUpdatedAt": ended,
        "ttl": None,
        "pollInterval": POLL_MS,
    }


def _related(result: types.CallToolResult, task_id: str) -> dict[str, Any]:
    """A tools/call result as tasks/result returns it: with the related task in its _meta."""
    dumped = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    dumped.pop("resultType", None)
    dumped["_meta"] = {**dumped.get("_meta", {}), RELATED_TASK: {"taskId": task_id}}
    return dumped


def tasks_capability() -> types.ServerTasksCapability:
    return types.ServerTasksCapability(
        list=types.TasksListCapability(),
        cancel=types.TasksCancelCapability(),
        requests=types.ServerTasksRequestsCapability(
            tools=types.TasksToolsCapability(call=types.TasksCallCapability())
        ),
    )
