"""The activities of a run on Temporal: one A2A turn of a step, one shell command. They run on a worker.

A turn is the local engine's own delegate code (delegate.py) on a stand-in for the run, so sending,
following, re-attaching, timeouts, non-interactive questions and their error codes are the local ones. As a
local run writes its journal's StepRequested before the message goes, a turn signals it to the run first (the
run's history holds it, whatever then happens to this worker). The activity heartbeats the message id before
the message is sent and the task id as soon as it is known; a retried turn (its worker died) reads them back
and re-attaches to the task by id, or finds it by the message id, instead of sending again. Canceling the
activity (the run was canceled) cancels the task at its agent; a worker shutting down does not.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from temporalio import activity

from ...a2a.errors import SwitchboardError
from ...a2a.follow import FollowPolicy, TurnEvent
from ...a2a.model import StatusUpdate, TaskStatus
from ...a2a.tap import Tap
from ...a2a.wire import v10
from ...agent_http import known_secrets
from ...link import AgentLink, CardCache, entry_credentials
from .. import template
from ..delegate import DelegateSteps, Reattach, StepFailure, Waiting, code_of
from ..journal import now_iso
from ..shell import run_command
from ..spec import Step
from ..state import StepState
from .names import STEP_REQUESTED
from .plan import from_plan

CARD_TTL = 60.0  # seconds a worker reuses an agent's card across turns
HEARTBEAT_EVERY = 1.0  # seconds; the heartbeat timeout is a few of these
# What a turn's records leave out of its result: the A2A stream itself (most of a journal, and history is
# kept by the server), the questions and answers, which the workflow records itself, and the request, signaled
# to the run before the message is sent.
NOT_RETURNED = {"StepEvent", "AwaitingInput", "InputSubmitted", "StepRequested"}


class _CancelRequested:
    """A cancel of a turn is the run's (its task is canceled at the agent too) only when the run asked for it.
    Not when the worker shuts down, nor when the server took the turn away (a worker paused or starved past its
    heartbeat timeout, then back): another worker has re-attached to the task by then, and follows it."""

    def __contains__(self, name: object) -> bool:
        details = activity.cancellation_details()
        return details is not None and details.cancel_requested and not details.worker_shutdown

    def add(self, name: str) -> None:
        pass


@dataclass
class _Values:
    inputs: dict[str, str]
    steps: dict[str, dict[str, Any]]

    def value(self, ref: template.Ref) -> str:
        if ref.root == "inputs":
            return self.inputs.get(ref.name, "")
        key = {"output": "output", "task_id": "taskId", "context_id": "contextId"}.get(ref.field or "", "state")
        return str(self.steps.get(ref.name, {}).get(key) or "")


class TurnOfStep(DelegateSteps):
    """The part of a WorkflowRun that delegate.py uses, for one turn of one step."""

    def __init__(self, request: dict[str, Any], http: httpx.AsyncClient, cards: CardCache | None = None) -> None:
        plan = request["plan"]
        self.run_id = request["runId"]
        # The starter's trace id (a `serve` caller's): runs started on Temporal by `switchboard run` have none.
        self.correlation_id: str | None = request.get("correlationId")
        self.workflow = from_plan(plan, with_agents=True)
        self.step = self.workflow.step(request["step"])
        entry = self.workflow.agents[self.step.agent or ""]
        self.tap = Tap()
        self.tap.redactor.add(*entry_credentials(entry).secrets, *known_secrets(entry))
        self._http = http
        self._policy = FollowPolicy()
        self._cards = cards or CardCache()
        self._connect = self._open_link
        answer = request.get("answer")
        self._answers = {self.step.name: deque([answer])} if answer is not None else {}
        self._ask = None
        self._interaction = None  # a worker has nobody to show a sign-in to
        self._context_ids: dict[str, str] = dict(request.get("contextIds") or {})
        self._cancel_requested = _CancelRequested()
        values = request.get("values") or {}
        self._values = _Values(plan["inputs"], values)
        self.records: list[dict[str, Any]] = []
        self._requested: dict[str, Any] | None = None  # this turn's StepRequested, until the run has it
        self.state = StepState(self.step.name, type="a2a", agent=self.step.agent)
        self.state.attempt = int(request.get("attempt", 0))
        self.state.correlation_id = f"{self.run_id}:delegate:{self.step.name}"

    def _value(self, ref: template.Ref) -> str:
        return self._values.value(ref)

    def _record(self, kind: str, **fields: Any) -> None:
        if kind == "StepRequested":
            self._requested = {"type": kind, "at": now_iso(), **fields}
        elif kind not in NOT_RETURNED:
            self.records.append({"type": kind, "at": now_iso(), **fields})
        self.heartbeat()

    def _send(self, step: Step, state: StepState, link: AgentLink) -> AsyncIterator[TurnEvent]:
        return self._requested_first(super()._send(step, state, link))

    async def _requested_first(self, events: AsyncIterator[TurnEvent]) -> AsyncIterator[TurnEvent]:
        """The turn's events, once the run holds its StepRequested (the message goes with the first of them)."""
        record, self._requested = self._requested, None
        if record is not None:
            info = activity.info()
            run = activity.client().get_workflow_handle(info.workflow_id or self.run_id, run_id=info.workflow_run_id)
            await run.signal(STEP_REQUESTED, self._redacted(record))
        async with contextlib.aclosing(events):  # type: ignore[type-var]
            async for event in events:
                yield event

    def _redacted(self, value: dict[str, Any]) -> dict[str, Any]:
        """As the journal does: nothing secret leaves the worker (history is kept by the server)."""
        redacted: dict[str, Any] = json.loads(self.tap.redactor.text(json.dumps(value, ensure_ascii=False)))
        return redacted

    def _emit(self, event: Any) -> None:
        pass

    def _started(self, step: Any, state: StepState, *, reattached: bool = False) -> None:
        state.status = "running"

    def heartbeat(self) -> None:
        """Tell the server what a retry needs to find this turn's task again. Nothing before there is something:
        heartbeats after the first are throttled, and an empty first one would hold back the message id. The step's
        name is for a watcher (attach.py), which finds the task of a running step here and streams it itself."""
        if self.state.message_id or self.state.task_id:
            activity.heartbeat(
                {"messageId": self.state.message_id, "taskId": self.state.task_id, "step": self.step.name}
            )

    async def run(self, reattach: Reattach | None) -> dict[str, Any]:
        state = self.state
        try:
            await self._delegate(self.step, state, reattach)
            outcome: dict[str, Any] = {"status": "completed", "output": state.output}
        except Waiting:
            view = state.view
            outcome = {
                "status": "waiting",
                "state": view.state.value if view.state else "input-required",
                "question": [v10.encode_part(p) for p in view.question],
            }
        except StepFailure as failure:
            outcome = {"status": "failed", "code": failure.code, "error": failure.message}
            outcome["retryable"] = failure.retryable
            outcome["taskId"] = failure.task_id or state.task_id
        except SwitchboardError as exc:
            text = exc.message + (f" ({exc.hint})" if exc.hint else "")
            known = StepFailure(code_of(exc), text, state.task_id)
            outcome = {"status": "failed", "code": known.code, "error": text, "retryable": known.retryable}
        if state.view.state is not None and state.task_id:
            # The turn's stream stays on the worker; its last state goes with the result, so `runs show` (the
            # journal's fold) tells the task's state as a local run does.
            final = StatusUpdate(
                task_id=state.task_id, context_id=state.context_id or "", status=TaskStatus(state=state.view.state)
            )
            self.records.append(
                {"type": "StepEvent", "at": now_iso(), "step": self.step.name, "event": v10.encode_event(final)}
            )
        outcome.update(
            taskId=outcome.get("taskId") or state.task_id,
            contextId=state.context_id,
            messageId=state.message_id,
            taskState=state.view.state.value if state.view.state else None,
            attempt=state.attempt,
            records=self.records,
        )
        return self._redacted(outcome)


class Activities:
    """The activities, sharing one HTTP client per worker."""

    def __init__(self, http: httpx.AsyncClient) -> None:
        self.http = http
        self._cards = CardCache()
        self._cards_since = time.monotonic()

    def cards(self) -> CardCache:
        """Cards shared by every turn on this worker for CARD_TTL seconds (locally: one fetch per run)."""
        if time.monotonic() - self._cards_since > CARD_TTL:
            self._cards, self._cards_since = CardCache(), time.monotonic()
        return self._cards

    @activity.defn(name="switchboard.delegate_turn")
    async def delegate_turn(self, request: dict[str, Any]) -> dict[str, Any]:
        """One turn of an A2A step: send (or re-attach), follow to the end of the turn, say how it ended."""
        turn = TurnOfStep(request, self.http, self.cards())
        reattach = None
        details = activity.info().heartbeat_details
        if details:  # a retry: the turn before sent its message, maybe its task exists
            told = details[0] or {}
            reattach = Reattach(task_id=told.get("taskId"), message_id=told.get("messageId"))
            turn.state.message_id = told.get("messageId")
        elif request.get("taskId"):  # an answer to the task's question
            reattach = Reattach(task_id=request["taskId"])
        if reattach is not None:
            turn.state.task_id = reattach.task_id
            turn.state.context_id = request.get("contextId")
        beating = asyncio.get_running_loop().create_task(_beat(turn))
        try:
            return await turn.run(reattach)
        finally:
            beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beating

    @activity.defn(name="switchboard.cancel_task")
    async def cancel_task(self, request: dict[str, Any]) -> dict[str, Any]:
        """Cancel a step's task at its agent (the run was canceled while the step waited for an answer)."""
        turn = TurnOfStep(request, self.http, self.cards())
        turn.state.task_id = request["taskId"]
        step = turn.step
        link = await turn._connect(turn.workflow.agents[step.agent or ""], turn.state.correlation_id or "", None)
        try:
            await turn._cancel_remote(step, turn.state, link)
        finally:
            await link.aclose()
        return {"records": turn.records}

    @activity.defn(name="switchboard.run_shell")
    async def run_shell(self, request: dict[str, Any]) -> dict[str, Any]:
        """A shell step's command, on a worker started with --allow-shell, in the workflow file's folder."""
        env = {**os.environ, "SWITCHBOARD_RUN_ID": request["runId"], "SWITCHBOARD_STEP": request["step"]}
        timeout = request.get("timeout")
        beating = asyncio.get_running_loop().create_task(_beat(None))
        try:
            result = await run_command(
                request["command"],
                values=request.get("values") or {},
                cwd=Path(request["cwd"]),
                env=env,
                timeout=timeout,
                on_line=lambda stream, text: None,
            )
        except TimeoutError:
            error = f"the command ran longer than {timeout:g} s and was stopped"
            return {"status": "failed", "code": "TIMEOUT", "error": error}
        except OSError as exc:
            return {"status": "failed", "code": "SHELL_FAILED", "error": f"the command could not start: {exc}"}
        finally:
            beating.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await beating
        output = result.stdout.rstrip("\n")
        return {"status": "completed", "exitCode": result.exit_code, "output": output, "stderr": result.stderr.strip()}


async def _beat(turn: TurnOfStep | None) -> None:
    """Heartbeats while the activity works: how the server sees a dead worker, and how a cancel arrives."""
    while True:
        if turn is not None:
            turn.heartbeat()
        else:
            activity.heartbeat()
        await asyncio.sleep(HEARTBEAT_EVERY)
