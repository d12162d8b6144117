"""An agent call's MCP task after the bridge restarted: the ledger says which A2A task it followed, and the agent
says where that task stands now. tasks/get reads it again; tasks/result returns the outcome of a task that ended,
or takes up one still going (its questions put to the person through that tasks/result, as before the restart);
tasks/cancel cancels it at the agent. A task the agent no longer knows (or of an agent gone from the agents file)
is unknown, as the spec has it."""

from __future__ import annotations

import contextlib
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import anyio
import mcp_types as types
from mcp.shared.exceptions import MCPError
from mcp_types.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS

from ..a2a.errors import SwitchboardError, UsageError
from ..a2a.model import Task, TaskState
from ..a2a.redact import Redactor
from ..a2a.turn import TaskView
from ..safe_text import strip_controls
from .agent_calls import AgentCalls
from .arguments import ContinueArguments
from .call_sign_in import CallSignIn
from .host_channel import Host
from .outcome import turn_result
from .sign_in import SignInRelay
from .task_ledger import LedgerEntry, TaskLedger

NOT_FOUND = "Failed to retrieve task: Task not found"
EXPIRED = "Failed to retrieve task: Task has expired"
MCP_STATUS = {
    TaskState.SUBMITTED: "working",
    TaskState.WORKING: "working",
    TaskState.INPUT_REQUIRED: "input_required",
    TaskState.AUTH_REQUIRED: "input_required",
    TaskState.COMPLETED: "completed",
    TaskState.CANCELED: "cancelled",
    TaskState.FAILED: "failed",
    TaskState.REJECTED: "failed",
}


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat()


class Keeper:
    """Keeps one MCP task's entry: once the A2A task it follows is known, and again when it ends (its status, for
    tasks/list after a restart). A full disk loses the entry, never the task."""

    def __init__(self, ledger: TaskLedger, mcp_task_id: str, ttl_ms: int, created: float) -> None:
        self.ledger, self.mcp_task_id, self.ttl_ms, self.created = ledger, mcp_task_id, ttl_ms, created
        self.entry: LedgerEntry | None = None

    def known(self, agent: str, task_id: str, context_id: str | None) -> None:
        self._keep(LedgerEntry(self.mcp_task_id, agent, task_id, context_id, self.created, self.ttl_ms))

    def ended(self, status: str, message: str | None) -> None:
        if self.entry is not None:
            self._keep(replace(self.entry, status=status, message=message, updated_at=time.time()))

    def _keep(self, entry: LedgerEntry) -> None:
        self.entry = entry
        with contextlib.suppress(OSError):
            self.ledger.remember(entry)


class RestoredTasks:
    def __init__(self, ledger: TaskLedger | None, calls: AgentCalls, redactor: Redactor, poll_ms: int) -> None:
        self.ledger = ledger
        self.calls = calls
        self.redactor = redactor
        self.poll_ms = poll_ms

    def keeper(self, mcp_task_id: str, ttl_ms: int, created: float) -> Keeper | None:
        """What keeps the A2A task an MCP task (made at `created`) follows (None: nothing is kept)."""
        return Keeper(self.ledger, mcp_task_id, ttl_ms, created) if self.ledger is not None else None

    def keeper_of(self, entry: LedgerEntry) -> Keeper | None:
        """The keeper of a task taken up after a restart (its A2A task known already)."""
        if self.ledger is None:
            return None
        kept = Keeper(self.ledger, entry.mcp_task_id, entry.ttl_ms, entry.created_at)
        kept.entry = entry
        return kept

    def listed(self, held: set[str]) -> list[dict[str, Any]]:
        """The kept tasks this process does not hold (an earlier server's), for tasks/list: as last seen, without
        asking their agents (tasks/get does)."""
        if self.ledger is None:
            return []
        now = time.time()
        return [self._last_seen(e) for e in self.ledger.entries() if e.mcp_task_id not in held and not e.expired(now)]

    def _last_seen(self, entry: LedgerEntry) -> dict[str, Any]:
        said = entry.message if entry.status else "as last seen by an earlier switchboard: tasks/get asks the agent"
        return {
            "taskId": entry.mcp_task_id,
            "status": entry.status or "working",
            **({"statusMessage": said} if said else {}),
            "createdAt": _iso(entry.created_at),
            "lastUpdatedAt": _iso(entry.updated_at or entry.created_at),
            "ttl": entry.ttl_ms,
            "pollInterval": self.poll_ms,
        }

    def find(self, mcp_task_id: str) -> LedgerEntry | None:
        """The entry of an agent call's task kept here; None for one never kept; the spec's error once its ttl ran
        out."""
        found = self.ledger.find(mcp_task_id) if self.ledger is not None else None
        if found is not None and found.expired(time.time()):
            raise MCPError(INVALID_PARAMS, EXPIRED)
        return found

    async def read(self, entry: LedgerEntry, host: Host | None = None) -> Task:
        """The A2A task as its agent has it now; the spec's error when the agent no longer knows it. A sign-in the
        agent needs first (no token held since the restart) is put to the person through `host` (tasks/result);
        without one (tasks/get, which a host polls) the read stops and says to call tasks/result."""
        sign_in = CallSignIn(host, entry.agent, math.inf) if host is not None else None
        with anyio.CancelScope() as scope:
            if sign_in is not None:
                sign_in.scope = scope  # declined or dismissed: the read stops
                token = SignInRelay.handling(sign_in.handler())
            else:
                token = SignInRelay.handling(lambda step: scope.cancel() if step is not None else None)
            try:
                found = await self._read(entry)
            finally:
                SignInRelay.release(token)
            self._seen_to_end(entry, found)
            return found
        refused = sign_in.refused if sign_in is not None else None
        why = f"the sign-in {entry.agent} asks for first was not done ({refused})" if refused else (
            f"{entry.agent} asks for a sign-in first: tasks/result asks you for it"
        )  # fmt: skip
        raise MCPError(INTERNAL_ERROR, f"Failed to retrieve task: {why}")

    def _seen_to_end(self, entry: LedgerEntry, task: Task) -> None:
        """A task read at its end is kept so (tasks/list after the next restart says so, not "as last seen"); its
        status message the result's last line, as for a call that ended here."""
        if entry.status is not None or not task.status.state.is_terminal:
            return
        result = self.result(entry, task)
        said = next((b.text for b in reversed(result.content) if isinstance(b, types.TextContent)), "")
        kept = self.keeper_of(entry)
        if kept is not None:
            kept.ended(MCP_STATUS.get(task.status.state, "failed"), said[:2000] or None)

    async def _read(self, entry: LedgerEntry) -> Task:
        try:
            return await self.calls.read_task(entry.agent, entry.task_id)
        except UsageError:  # the agent is gone from the agents file
            raise MCPError(INVALID_PARAMS, NOT_FOUND) from None
        except SwitchboardError as exc:
            if exc.code == "TaskNotFoundError":
                raise MCPError(INVALID_PARAMS, NOT_FOUND) from None
            said = self.redactor.text(strip_controls(exc.message))[:500]
            raise MCPError(INTERNAL_ERROR, f"Failed to retrieve task: {entry.agent} did not answer: {said}") from None

    def wire(self, entry: LedgerEntry, task: Task, status: str | None = None) -> dict[str, Any]:
        """The MCP task, from the A2A task's state and latest words."""
        said = strip_controls(TaskView().apply(task).status_text).strip()[:2000]
        updated = task.status.timestamp
        return {
            "taskId": entry.mcp_task_id,
            "status": status or MCP_STATUS.get(task.status.state, "working"),
            **({"statusMessage": said} if said else {}),
            "createdAt": _iso(entry.created_at),
            "lastUpdatedAt": updated if isinstance(updated, str) and updated else _iso(time.time()),
            "ttl": entry.ttl_ms,
            "pollInterval": self.poll_ms,
        }

    def result(self, entry: LedgerEntry, task: Task) -> types.CallToolResult:
        """The outcome of a task that ended, as the call would have returned it."""
        return turn_result(entry.agent, TaskView().apply(task))

    def resume(self, entry: LedgerEntry) -> Callable[[Host], Awaitable[types.CallToolResult]]:
        """The work that takes up a task still going: it is followed again (and its question asked)."""
        arguments = ContinueArguments(agent=entry.agent, task_id=entry.task_id)

        async def work(host: Host) -> types.CallToolResult:
            return await self.calls.go_on(arguments, host)

        return work

    async def cancel(self, entry: LedgerEntry) -> dict[str, Any]:
        task = await self.read(entry)
        if task.status.state.is_terminal:
            raise MCPError(
                INVALID_PARAMS, f"Cannot cancel task: already in terminal status '{MCP_STATUS.get(task.status.state)}'"
            )
        try:
            task = await self.calls.cancel_task(entry.agent, entry.task_id)
        except SwitchboardError as exc:
            said = self.redactor.text(strip_controls(exc.message))[:500]
            raise MCPError(INTERNAL_ERROR, f"Cannot cancel task: {said}") from None
        kept = self.keeper_of(entry)
        if kept is not None:
            kept.ended("cancelled", "canceled by the host")
        return self.wire(entry, task, "cancelled")  # the spec: cancelled once the cancel is taken
