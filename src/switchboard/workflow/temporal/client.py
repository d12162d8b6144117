"""The client side of the Temporal runner: start a run, read it back, answer it, cancel it, list runs.

A run's id is its Temporal workflow id (the local format, 20260315T101500-3f9c2a). `read` folds the run's
records (a query) with the journal's own fold, so `runs show` prints a Temporal run as it prints a local one.
`runs list` reads Temporal's visibility: the search attributes SwitchboardWorkflow, SwitchboardState
(running, awaiting_input, completed, failed, canceled) and SwitchboardWaiting (the steps waiting), which the
server must know (`switchboard temporal dev` registers them; for another server see docs/temporal.md).
"""

from __future__ import annotations

import asyncio
import hashlib
from typing import TYPE_CHECKING, Any, get_args

from temporalio.client import (
    Client,
    WorkflowHandle,
    WorkflowUpdateFailedError,
    WorkflowUpdateRPCTimeoutOrCancelledError,
)
from temporalio.client import WorkflowExecutionStatus as Status
from temporalio.common import SearchAttributePair, TypedSearchAttributes
from temporalio.converter import DataConverter
from temporalio.service import RPCError, RPCStatusCode

from ...a2a.errors import SwitchboardError, UsageError
from ..index import RunPage
from ..summary import RunSummary
from . import shell_queue
from .codec import EncryptionCodec
from .names import ALREADY_ANSWERED, NAME, STATE, WAITING, WORKFLOW_TYPE

if TYPE_CHECKING:
    from ..runs import RunRecord
    from ..spec import Workflow
    from ..state import RunStatus

ANSWER_TRIES = 5
RPC_TRIES = 3


class AlreadyAnswered(SwitchboardError):
    """Someone else answered the question first (or the answer before this one did)."""

    code = "ALREADY_ANSWERED"
    workflow_code = "ALREADY_ANSWERED"
    exit_code = 1


class TemporalUnreachable(SwitchboardError):
    code = "TEMPORAL_UNREACHABLE"
    workflow_code = "A2A_PROVIDER_ERROR"
    exit_code = 3


async def connect(address: str, namespace: str) -> Client:
    """A client whose payloads are encrypted (codec.py)."""
    try:
        return await Client.connect(
            address, namespace=namespace, data_converter=DataConverter(payload_codec=EncryptionCodec())
        )
    except RuntimeError as exc:
        raise TemporalUnreachable(
            f"cannot reach the Temporal server at {address}: {exc}",
            hint="Start one with `switchboard temporal dev`, or pass --temporal HOST:PORT of yours.",
        ) from None


async def start(
    client: Client,
    workflow: Workflow,
    inputs: dict[str, str],
    *,
    task_queue: str,
    max_concurrency: int = 8,
    run_id: str | None = None,
) -> str:
    """Start a run (its inputs checked first, as locally); its id."""
    from ..engine import new_run_id
    from ..loader import resolve_inputs
    from .plan import to_plan

    values = resolve_inputs(workflow, inputs)  # credentials are the workers' to have, not this machine's
    run_id = run_id or new_run_id()
    args = {
        "runId": run_id,
        "plan": to_plan(workflow, values),
        "taskQueue": task_queue,
        "shellQueue": shell_queue(task_queue),
        "maxConcurrency": max_concurrency,
    }
    await client.start_workflow(
        WORKFLOW_TYPE,
        args,
        id=run_id,
        task_queue=task_queue,
        search_attributes=TypedSearchAttributes(
            [SearchAttributePair(NAME, workflow.name), SearchAttributePair(STATE, "running")]
        ),
    )
    return run_id


def _handle(client: Client, run_id: str) -> WorkflowHandle[Any, Any]:
    return client.get_workflow_handle(run_id)


# What a query may meet while its run moves between workers (one paused, starved or gone holds it a while).
PASSING = {RPCStatusCode.DEADLINE_EXCEEDED, RPCStatusCode.UNAVAILABLE, RPCStatusCode.UNKNOWN}


async def _query(client: Client, run_id: str, name: str, *args: Any) -> Any:
    """A query, asked again when the workers were too busy to answer in time, or the connection broke."""
    for attempt in range(RPC_TRIES):
        try:
            return await _handle(client, run_id).query(name, *args)
        except RPCError as exc:
            if exc.status not in PASSING and "Timeout expired" not in str(exc):
                raise
            if attempt == RPC_TRIES - 1:
                raise
    raise AssertionError("unreachable")


async def records(client: Client, run_id: str, since: int = 0) -> list[dict[str, Any]]:
    try:
        found: list[dict[str, Any]] = await _query(client, run_id, "journal", since)
        return found
    except RPCError as exc:
        if "not found" in str(exc).lower():
            raise UsageError(
                f"there is no run {run_id} on the Temporal server",
                hint="`switchboard runs list --temporal ...` shows the runs.",
            ) from None
        raise


async def read(client: Client, run_id: str) -> RunRecord:
    """The run as its records tell it (a running run whose step waits is awaiting input, as locally)."""
    from ..runs import fold

    found = await records(client, run_id)
    record = fold(found, run_id)
    description = await _handle(client, run_id).describe()
    if description.status == Status.RUNNING:
        record.status = "awaiting_input" if record.waiting else "running"
    return record


async def question(
    client: Client, run_id: str, step: str, *, after: str | None = None, wait: float = 0
) -> dict[str, Any] | None:
    """The question `step` waits on now (one other than `after`), waiting up to `wait` seconds for one."""
    handle = _handle(client, run_id)
    deadline = asyncio.get_running_loop().time() + wait
    while True:
        waiting: dict[str, dict[str, Any]] = await _query(client, run_id, "waiting")
        asked = waiting.get(step)
        if asked is not None and asked["askId"] != after:
            return asked
        if asyncio.get_running_loop().time() >= deadline:
            return None
        description = await handle.describe()
        if description.status != Status.RUNNING:
            return None
        await asyncio.sleep(0.1)


def _run_status(text: str | None) -> RunStatus:
    """The run's state as the workflow last set its search attribute (running until it set one)."""
    from ..state import RunStatus  # the run model: loaded once runs are listed, not for every command

    for status in get_args(RunStatus):
        if text == status:
            return status  # type: ignore[no-any-return]  # one of the Literal's own values
    return "running"


async def _update(client: Client, run_id: str, request: dict[str, Any], update_id: str) -> str:
    """The answer update, sent again (same id) when the server was too busy to say how it went in time."""
    for attempt in range(RPC_TRIES):
        try:
            said: str = await _handle(client, run_id).execute_update("answer", request, id=update_id)
            return said
        except WorkflowUpdateRPCTimeoutOrCancelledError:
            if attempt == RPC_TRIES - 1:
                raise
    raise AssertionError("unreachable")


async def asked(client: Client, run_id: str) -> dict[str, dict[str, Any]]:
    """The questions the run's steps wait on now, by step (each with its id, `askId`)."""
    waiting: dict[str, dict[str, Any]] = await _query(client, run_id, "waiting")
    return waiting


async def answer(client: Client, run_id: str, step: str, text: str, ask_id: str | None = None) -> str:
    """Answer the question step `step` waits on (`ask_id`: that question and no other; by default the one asked
    now). AlreadyAnswered when it was, by someone else or by an earlier answer (also when that answer ended
    the run meanwhile); UsageError for an answer the run cannot take (an empty one, a step it does not have)."""
    if ask_id is None:
        current = await question(client, run_id, step)
        if current is None:
            raise AlreadyAnswered(
                f"step {step} is not waiting for input: {ALREADY_ANSWERED}, or not asked yet",
                hint="`switchboard runs show RUN_ID --temporal ...` shows what the run waits on.",
            )
        ask_id = current["askId"]
    request = {"step": step, "text": text, "askId": ask_id}
    # One update id per question and answer: sent again after a timeout, the server gives the first outcome.
    update_id = f"{ask_id}:{hashlib.sha256(text.encode()).hexdigest()[:16]}"
    try:
        for _ in range(ANSWER_TRIES - 1):
            try:
                return await _update(client, run_id, request, update_id)
            except WorkflowUpdateFailedError:
                # Judged against a state behind the latest (a run that just moved between workers)? The question
                # is still open by the run's own account: ask again. Answered or gone: say so, below.
                open_now = (await asked(client, run_id)).get(step)
                if open_now is None or open_now["askId"] != ask_id:
                    break
                await asyncio.sleep(0.2)
        return await _update(client, run_id, request, update_id)
    except WorkflowUpdateFailedError as exc:
        cause = exc.cause
        message = getattr(cause, "message", None) or str(cause or exc)
        # "update was aborted by closing workflow": the winning answer finished the run meanwhile.
        taken = getattr(cause, "type", None) == "ALREADY_ANSWERED" or ALREADY_ANSWERED in message
        if "closing workflow" in message or "closing workflow" in str(exc):
            taken, message = True, f"step {step} is not waiting for input: {ALREADY_ANSWERED} (the run ended)"
        error = AlreadyAnswered if taken else UsageError
        raise error(
            message, hint="`switchboard runs show RUN_ID --temporal ...` shows what the run waits on."
        ) from None
    except RPCError as exc:
        said = str(exc)
        if "closing workflow" in said or "already completed" in said.lower():
            # The winning answer finished the run while this one was on its way (on any of the tries).
            raise AlreadyAnswered(f"step {step} is not waiting for input: {ALREADY_ANSWERED} ({said})") from None
        raise


async def running_tasks(client: Client, run_id: str) -> dict[str, str]:
    """The A2A task of each step whose turn is going now (step -> task id), from the turns' last heartbeats."""
    description = await _handle(client, run_id).describe()
    found: dict[str, str] = {}
    for pending in description.raw_description.pending_activities:
        if not pending.heartbeat_details.payloads:
            continue
        [told] = await client.data_converter.decode(pending.heartbeat_details.payloads)
        if isinstance(told, dict) and told.get("step") and told.get("taskId"):
            found[str(told["step"])] = str(told["taskId"])
    return found


async def cancel(client: Client, run_id: str) -> dict[str, Any]:
    """Cancel the run (its steps' tasks are canceled at their agents); the run's result once it has ended."""
    handle = _handle(client, run_id)
    await handle.cancel()
    result: dict[str, Any] = await handle.result()
    return result


_STATUS = {"awaiting-input": "awaiting_input"}


def visibility_query(status: str | None = None, workflow: str | None = None, waiting: bool = False) -> str:
    clauses = [f"WorkflowType = '{WORKFLOW_TYPE}'"]
    if status:
        clauses.append(f"SwitchboardState = '{_quote(_STATUS.get(status, status))}'")
    if workflow:
        clauses.append(f"SwitchboardWorkflow = '{_quote(workflow)}'")
    if waiting:
        clauses.append("SwitchboardState = 'awaiting_input'")
    return " AND ".join(clauses)


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace("'", "\\'")


async def list_page(
    client: Client,
    *,
    status: str | None = None,
    workflow: str | None = None,
    waiting: bool = False,
    limit: int | None = None,
    offset: int = 0,
) -> RunPage:
    """A page of runs from Temporal's visibility, newest first, as `runs list` shows local ones."""
    query = visibility_query(status, workflow, waiting)
    total = (await client.count_workflows(query)).count
    runs: list[RunSummary] = []
    seen = 0
    async for execution in client.list_workflows(query, page_size=min(1000, (limit or 1000) + offset)):
        seen += 1
        if seen <= offset:
            continue
        attributes = execution.typed_search_attributes
        state = _run_status(attributes.get(STATE))
        if execution.status not in (Status.RUNNING, Status.COMPLETED) and state in ("running", "awaiting_input"):
            state = "canceled" if execution.status == Status.CANCELED else "failed"
        memo = await execution.memo()
        runs.append(
            RunSummary(
                execution.id,
                attributes.get(NAME) or "",
                memo.get("file", ""),
                state,
                execution.start_time.timestamp() if execution.start_time else None,
                execution.close_time.timestamp() if execution.close_time else None,
                int(memo.get("steps", 0)),
                int(memo.get("completed", 0)),
                list(attributes.get(WAITING) or []),
                list(memo.get("failed") or []),
                None,
            )
        )
        if limit is not None and len(runs) >= limit:
            break
    return RunPage(runs, total, offset)


__all__ = ["answer", "cancel", "connect", "list_page", "read", "records", "start", "visibility_query"]


def events_of(found: list[dict[str, Any]], run_id: str, agents: dict[str, str | None] | None = None) -> list[Any]:
    """The run events that records stand for (what a local run's `events()` yields, but the A2A stream).
    `agents` (step -> agent, from RunStarted) carries over between calls on successive records."""
    from ...a2a.model import TaskState
    from ...a2a.wire import v10
    from ...a2a.wire.common import Notes
    from ..state import (
        AskRequest,
        RunFinished,
        RunStarted,
        StepAwaitingInput,
        StepCanceled,
        StepCompleted,
        StepFailed,
        StepInputSubmitted,
        StepSkipped,
        StepStarted,
    )
    from ..summary import RUN_ENDS

    agents = {} if agents is None else agents
    out: list[Any] = []
    for record in found:
        kind, step = record.get("type"), record.get("step", "")
        if kind == "RunStarted":
            agents.update({s.get("name"): s.get("agent") for s in record.get("steps") or []})
            out.append(RunStarted(run_id, str(record.get("workflow", ""))))
        elif kind == "StepRequested":
            out.append(StepStarted(step, agents.get(step), int(record.get("attempt", 1))))
        elif kind == "AwaitingInput":
            notes = Notes()
            parts = [p for p in (v10.decode_part(raw, notes) for raw in record.get("question") or []) if p is not None]
            state = TaskState.AUTH_REQUIRED if record.get("state") == "auth-required" else TaskState.INPUT_REQUIRED
            request = AskRequest(
                step,
                state,
                parts,
                record.get("taskId"),
                record.get("contextId"),
                record.get("correlationId") or "",
                agents.get(step) or "",
                run_id,
            )
            out.append(StepAwaitingInput(request))
        elif kind == "InputSubmitted":
            out.append(StepInputSubmitted(step, bool(record.get("secret"))))
        elif kind == "StepCompleted":
            out.append(StepCompleted(step, str(record.get("output", ""))))
        elif kind == "StepFailed":
            failed = StepFailed(step, str(record.get("code")), str(record.get("error")), record.get("taskId"))
            out.append(replace_retrying(failed, bool(record.get("retrying"))))
        elif kind == "StepCanceled":
            out.append(StepCanceled(step))
        elif kind == "StepSkipped":
            out.append(StepSkipped(step, str(record.get("reason", ""))))
        elif kind in RUN_ENDS:
            out.append(RunFinished(RUN_ENDS[kind], dict(record.get("outputs") or {})))
    return out


def replace_retrying(event: Any, retrying: bool) -> Any:
    from dataclasses import replace

    return replace(event, retrying=retrying)
