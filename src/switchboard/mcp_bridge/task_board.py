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
from ..workflow.runs import read_run
from .host_channel import Host, HostChannel

TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
RELATED_TASK = "io.modelcontextprotocol/related-task"
POLL_MS = 1000
KEEP_MS = 60 * 60 * 1000  # a finished task's result is kept this long (the host may ask for less)
MAX_TASKS = 1000
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


class TaskHost:
    """The Host of work running as an MCP task: progress becomes the task's status message; a question waits for
    the host's next tasks/result, if the client can be asked at all (as it declared when it made the task)."""

    holds_call = False
    asks_by_round_trip = False

    def __init__(self, task: BoardTask, *, can_ask: bool, can_open_url: bool, run_id: str | None) -> None:
        self.task = task
        self.can_ask = can_ask
        self.can_open_url = can_open_url
        self.run_id = run_id

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
    def __init__(self, journal_dir: Path | None = None) -> None:
        self.tasks: dict[str, BoardTask] = {}
        self.journal_dir = journal_dir

    def start(self, work: Work, ctx: ServerRequestContext[Any, Any], ttl: int | None, task_id: str | None) -> BoardTask:
        """Run `work` as a task the host polls; the task as created (working)."""
        self._forget_old()
        task = BoardTask(task_id or str(uuid.uuid4()), min(ttl or KEEP_MS, KEEP_MS))
        channel = HostChannel(ctx)
        host = TaskHost(task, can_ask=channel.can_ask, can_open_url=channel.can_open_url, run_id=task_id)
        self.tasks[task.task_id] = task
        task.runner = asyncio.get_running_loop().create_task(self._run(task, work, host))
        return task

    async def _run(self, task: BoardTask, work: Work, host: TaskHost) -> None:
        try:
            task.result = await work(host)
        except asyncio.CancelledError:
            task.set("cancelled", "canceled by the host")
            raise
        except SwitchboardError as exc:  # the work's own errors come as tool errors already; this is a fallback
            task.result = types.CallToolResult(content=[types.TextContent(text=exc.message)], is_error=True)
            task.set("failed", exc.message)
            return
        except Exception:
            task.set("failed", "switchboard failed unexpectedly on this task; its log (stderr) says more.")
            return
        task.set("completed")

    def _forget_old(self) -> None:
        """Finished tasks beyond the cap go, oldest first (a host that never reads its results cannot fill memory)."""
        finished = [t for t in self.tasks.values() if t.over]
        for task in finished[: max(0, len(self.tasks) - MAX_TASKS + 1)]:
            self.tasks.pop(task.task_id, None)

    def _task(self, task_id: str) -> BoardTask:
        task = self.tasks.get(task_id)
        if task is None:
            raise MCPError(INVALID_PARAMS, "Failed to retrieve task: Task not found")
        return task

    # --- the tasks/* requests --------------------------------------------------------------------------------

    async def get(self, ctx: ServerRequestContext[Any, Any], params: types.GetTaskRequestParams) -> dict[str, Any]:
        task = self.tasks.get(params.task_id)
        if task is None:
            return self._journaled(params.task_id)
        return task.wire()

    def _journaled(self, task_id: str) -> dict[str, Any]:
        """A task this process did not make: a workflow run of an earlier server (its journal is the truth)."""
        try:
            record = read_run(task_id, self.journal_dir)
        except (SwitchboardError, OSError, ValueError):
            raise MCPError(INVALID_PARAMS, "Failed to retrieve task: Task not found") from None
        started = datetime.fromtimestamp(record.started_at or 0, UTC).isoformat()
        ended = datetime.fromtimestamp(record.ended_at or record.started_at or 0, UTC).isoformat()
        return {
            "taskId": task_id,
            "status": RUN_STATUS.get(record.status, "failed"),
            "statusMessage": f"run {task_id} of {record.workflow}: {record.status} (from its journal)",
            "createdAt": started,
            "lastUpdatedAt": ended,
            "ttl": None,
            "pollInterval": POLL_MS,
        }

    async def result(
        self, ctx: ServerRequestContext[Any, Any], params: types.GetTaskPayloadRequestParams
    ) -> dict[str, Any]:
        """The outcome once the task is over; meanwhile a question it waits on is asked through this request."""
        task = self._task(params.task_id)
        channel = HostChannel(ctx)
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
        dumped = task.result.model_dump(by_alias=True, mode="json", exclude_none=True)
        dumped.pop("resultType", None)
        dumped["_meta"] = {**dumped.get("_meta", {}), RELATED_TASK: {"taskId": task.task_id}}
        return dumped

    async def cancel(
        self, ctx: ServerRequestContext[Any, Any], params: types.CancelTaskRequestParams
    ) -> dict[str, Any]:
        task = self._task(params.task_id)
        if task.over:
            raise MCPError(INVALID_PARAMS, f"Cannot cancel task: already in terminal status '{task.status}'")
        if task.runner is not None:
            task.runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task.runner
        task.set("cancelled", "canceled by the host")
        return task.wire()

    async def list(self, ctx: ServerRequestContext[Any, Any], params: types.PaginatedRequestParams) -> dict[str, Any]:
        return {"tasks": [task.wire() for task in self.tasks.values()]}


def tasks_capability() -> types.ServerTasksCapability:
    return types.ServerTasksCapability(
        list=types.TasksListCapability(),
        cancel=types.TasksCancelCapability(),
        requests=types.ServerTasksRequestsCapability(
            tools=types.TasksToolsCapability(call=types.TasksCallCapability())
        ),
    )
