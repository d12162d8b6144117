"""A2A steps: send the task, follow it to the end of each turn, answer its questions, cancel it.

Every event goes to the journal before anyone sees it. A task that was in flight when a run stopped is
re-attached by its id (get, then subscribe or poll), never sent again; when the crash came before its id
was journaled, a v1.0 agent's task list finds it by the message id that was.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Container
from dataclasses import dataclass
from typing import Any

import httpx

from ..a2a.auth.oauth.types import Interaction
from ..a2a.auth.sign_in_offer import oauth_source, sign_in_offer
from ..a2a.client import new_message
from ..a2a.errors import ProtocolError, SwitchboardError
from ..a2a.follow import FollowPolicy, Notice, TurnEvent
from ..a2a.model import Part, TaskState, text_of
from ..a2a.tap import Tap
from ..a2a.turn import TaskView
from ..a2a.user_input import check_message_text
from ..a2a.wire import v10
from ..agents import AgentEntry
from ..link import AgentLink, CardCache, entry_credentials, open_link
from . import template
from .spec import Step, Workflow
from .state import AskRequest, RunEvent, SignIn, StepAwaitingInput, StepEvent, StepInputSubmitted, StepState

_END_CODES = {
    TaskState.FAILED: "A2A_TASK_FAILED",
    TaskState.REJECTED: "A2A_TASK_REJECTED",
    TaskState.CANCELED: "A2A_TASK_CANCELED",
}
# Failures another attempt would only repeat: configuration, credentials, a decision of the agent or a person.
_NOT_RETRIED = {
    "A2A_CONFIG_INVALID",
    "A2A_CREDENTIALS_MISSING",
    "A2A_INPUT_REQUIRED",
    "A2A_AUTH_REQUIRED",
    "A2A_TASK_REJECTED",
    "A2A_TASK_CANCELED",
    "DELEGATE_PROTOCOL_UNSUPPORTED",
}
Ask = Callable[[AskRequest], Awaitable[str | None]]  # who answers a step's question (None: nobody, now)
Connect = Callable[
    [AgentEntry, str, bool | None], Awaitable[AgentLink]
]  # a link for (agent, correlation id, streaming)
PARENT_HEADER = "X-Parent-Id"
CANCEL_TIMEOUT = 15.0  # the cancel request and its confirmation together
CONFIRM_WITHIN = 5.0


class StepFailure(Exception):
    def __init__(self, code: str, message: str, task_id: str | None = None, *, retryable: bool = True) -> None:
        super().__init__(message)
        self.code, self.message, self.task_id = code, message, task_id
        self.retryable = retryable and code not in _NOT_RETRIED


class Waiting(Exception):
    """Nobody can answer the step's question now."""


@dataclass
class Reattach:
    """How a resumed run picks up a step that was in flight."""

    task_id: str | None = None
    message_id: str | None = None  # a task may exist for this message, its id not yet journaled


def code_of(error: SwitchboardError) -> str:
    """Protocol errors keep their A2A names; everything else maps to the workflow codes."""
    return error.code if isinstance(error, ProtocolError) else error.workflow_code


class DelegateSteps:
    """The A2A side of a run, a mixin of its two hosts: WorkflowRun (a local run) and TurnOfStep (one turn on a
    Temporal worker). What it needs of its host is declared here, so the type checker holds both to it."""

    run_id: str
    correlation_id: str | None  # the starter's trace id: every delegate's parent id
    workflow: Workflow
    tap: Tap
    _http: httpx.AsyncClient
    _cards: CardCache
    _policy: FollowPolicy
    _connect: Connect
    _context_ids: dict[str, str]  # by the steps' `context:` key
    # Announce A2UI to the steps' agents where their cards declare it: a run someone watches (the TUI, the command
    # line) draws or prints their forms; a served run does not, its caller never said it renders them.
    announces_a2ui: bool = True
    _answers: dict[str, deque[str]]  # given up front (--answer), by step
    _ask: Ask | None
    _interaction: (
        Interaction | None
    )  # shows an OAuth sign-in to the person (a device code, a browser URL); None: nobody can
    _cancel_requested: Container[str]  # steps whose cancel is the run's (then the agent's task is canceled too)

    def _record(self, kind: str, **fields: Any) -> None:
        """Write one journal record (or keep it, on a worker)."""
        raise NotImplementedError

    def _emit(self, event: RunEvent) -> None:
        """Tell whoever watches the run."""
        raise NotImplementedError

    def _value(self, ref: template.Ref) -> str:
        """A `{{...}}` reference's value, for the step's task."""
        raise NotImplementedError

    def _started(self, step: Step, state: StepState, *, reattached: bool = False) -> None:
        raise NotImplementedError

    async def _open_link(self, entry: AgentEntry, correlation_id: str, streaming: bool | None) -> AgentLink:
        """A link for one step; the run's card cache reads each agent's card once, however many steps it has."""
        return await open_link(
            entry,
            http=self._http,
            tap=self.tap,
            credentials=entry_credentials(entry, interaction=self._interaction),
            correlation_id=correlation_id,
            streaming=streaming,
            cards=self._cards,
            a2ui=self.announces_a2ui,
        )

    async def _delegate(self, step: Step, state: StepState, reattach: Reattach | None) -> None:
        assert step.agent is not None
        correlation_id = f"{self.run_id}:delegate:{step.name}"
        state.correlation_id = correlation_id
        link = await self._connect(self._entry(step.agent), correlation_id, self.workflow.streaming.get(step.agent))
        try:
            for text in link.notes:  # what reading the card met: retries, lint
                self._take(step.name, state, Notice(text, "warning"))
            task_id = reattach.task_id if reattach else None
            if reattach and task_id is None and reattach.message_id:
                task_id = await self._find_task(link, reattach.message_id)
            if task_id is not None:
                self._started(step, state, reattached=True)
                events = self._reattach_events(link, task_id)
            else:
                events = self._send(step, state, link)
            while True:
                await self._consume(step, state, link, events)
                view = state.view
                if step.context and view.context_id:
                    self._context_ids.setdefault(step.context, view.context_id)
                if view.reply is not None or view.state == TaskState.COMPLETED:
                    state.output = view.output_text
                    return
                if view.state in _END_CODES:
                    text = view.status_text or f"the task ended {view.state.value}"
                    raise StepFailure(_END_CODES[view.state], text, state.task_id)
                if view.state is None or not view.state.is_interrupted:
                    shown = view.state.value if view.state else "no state"
                    raise StepFailure(
                        "A2A_PROVIDER_ERROR", f"the turn ended without a final state ({shown})", state.task_id
                    )
                if not step.interactive:
                    code = "A2A_AUTH_REQUIRED" if view.state == TaskState.AUTH_REQUIRED else "A2A_INPUT_REQUIRED"
                    asked = text_of(view.question) or view.state.value
                    await self._cancel_remote(step, state, link)  # nobody will answer: free the agent
                    raise StepFailure(
                        code,
                        f"the agent asked for input ({asked}) but the step is not interactive; the task was canceled",
                        state.task_id,
                    )
                answer = await self._answer(step, state, link)
                message = new_message(
                    answer, task_id=state.task_id, context_id=state.context_id, metadata=self._metadata(link)
                )
                events = link.follow(message, self._policy)
        except asyncio.CancelledError:
            if step.name in self._cancel_requested:
                await self._cancel_remote(step, state, link)
            raise
        finally:
            await link.aclose()

    def _entry(self, agent: str) -> AgentEntry:
        """The step's agent; with the run's correlation id as the parent id of every request (X-Parent-Id)."""
        entry = self.workflow.agents[agent]
        if not self.correlation_id:
            return entry
        return dataclasses.replace(entry, headers={**entry.headers, PARENT_HEADER: self.correlation_id})

    def _parent_metadata(self) -> dict[str, str] | None:
        return {"parentId": self.correlation_id} if self.correlation_id else None

    def _metadata(self, link: AgentLink) -> dict[str, Any] | None:
        """A message's metadata: the parent id, and what switchboard renders (A2UI) where the agent's card asks."""
        announced = getattr(link, "a2ui", None)  # a stand-in link (a test's, a scripted one) may have none
        merged = {**(announced or {}), **(self._parent_metadata() or {})}
        return merged or None

    def _send(self, step: Step, state: StepState, link: AgentLink) -> AsyncIterator[TurnEvent]:
        text = template.render(step.task or "", self._value, bare_inputs=self.workflow.bare_inputs)
        # An agent answers an empty message with an error of its own; say which step and why instead.
        check_message_text(text, f"the task of step {step.name}, with the run's inputs filled in,")
        state.view, state.task_id, state.context_id, state.output = TaskView(), None, None, ""
        context_id = self._context_ids.get(step.context) if step.context else None
        message = new_message(text, context_id=context_id, metadata=self._metadata(link))
        state.message_id = message.message_id
        state.attempt += 1  # a re-attached task is the same attempt; only a message sent is a new one
        self._record(
            "StepRequested",
            step=step.name,
            attempt=state.attempt,
            agent=step.agent,
            correlationId=state.correlation_id,
            messageId=message.message_id,
            input=text,
            **({"contextId": context_id} if context_id else {}),
        )
        self._started(step, state)
        return link.follow(message, self._policy)

    async def _reattach_events(self, link: AgentLink, task_id: str) -> AsyncIterator[TurnEvent]:
        task = await link.get_task(task_id)
        yield task
        if not task.status.state.ends_turn:
            async for event in link.resume(task_id, self._policy):
                yield event

    async def _find_task(self, link: AgentLink, message_id: str) -> str | None:
        """A task the agent made for `message_id` before the journal learned its id (v1.0 agents list tasks)."""
        return await link.find_task(message_id)

    async def _consume(self, step: Step, state: StepState, link: AgentLink, events: AsyncIterator[TurnEvent]) -> None:
        try:
            async with contextlib.aclosing(events), asyncio.timeout(step.timeout):  # type: ignore[type-var]
                async for event in events:
                    self._take(step.name, state, event)
        except TimeoutError:
            await self._cancel_remote(step, state, link)
            raise StepFailure(
                "TIMEOUT",
                f"the agent did not end its turn within {step.timeout:g} s; the task was canceled",
                state.task_id,
            ) from None

    def _take(self, name: str, state: StepState, event: TurnEvent) -> None:
        if isinstance(event, Notice):
            if event.kind == "new-task" and event.task_id:
                # The agent took the answer to a new task: the step follows that one, and a resumed run re-attaches
                # to it. Recorded before its first event.
                self._record("StepTaskMoved", step=name, taskId=event.task_id, previousTaskId=state.task_id)
                state.view, state.task_id = TaskView(), event.task_id
            self._record("StepNotice", step=name, text=event.text, level=event.level)
        else:
            state.view.apply(event)
            state.task_id = state.view.task_id or state.task_id
            state.context_id = state.view.context_id or state.context_id
            self._record("StepEvent", step=name, event=v10.encode_event(event))
        self._emit(StepEvent(name, event))

    async def _answer(self, step: Step, state: StepState, link: AgentLink) -> str | list[Part]:
        view = state.view
        assert view.state is not None
        request = AskRequest(
            step.name,
            view.state,
            view.question,
            state.task_id,
            state.context_id,
            state.correlation_id or "",
            step.agent or "",
            self.run_id,
            sign_in=self._sign_in(link, view) if self._interaction is not None else None,
        )
        state.status, state.question = "waiting", request
        self._record(
            "AwaitingInput",
            step=step.name,
            state=view.state.value,
            question=[v10.encode_part(p) for p in request.question],
            taskId=state.task_id,
            contextId=state.context_id,
            correlationId=state.correlation_id,
        )
        self._emit(StepAwaitingInput(request))
        queued = self._answers.get(step.name)
        if queued:
            answer: str | None = queued.popleft()
        elif self._ask is not None:
            answer = await self._ask(request)
        else:
            answer = None
        if answer is None:
            raise Waiting
        check_message_text(answer, f"the answer to step {step.name}")
        if request.secret:
            self.tap.redactor.add(answer)
        self._record(
            "InputSubmitted",
            step=step.name,
            taskId=state.task_id,
            **({"secret": True} if request.secret else {"answer": answer}),
        )
        state.status, state.question = "running", None
        self._emit(StepInputSubmitted(step.name, request.secret))
        return request.answer_parts or answer

    @staticmethod
    def _sign_in(link: AgentLink, view: TaskView) -> SignIn | None:
        """The OAuth sign-in an auth-required question asks for, when the step's link can run it."""
        source = oauth_source(link)
        offer = sign_in_offer(link.card, view.question) if view.state is TaskState.AUTH_REQUIRED else None
        return SignIn(offer, source) if source is not None and offer is not None else None

    async def _cancel_remote(self, step: Step, state: StepState, link: AgentLink) -> None:
        """Cancel the step's task at its agent; a failure to do so is noted, never raised."""
        if state.task_id is None or (state.view.state is not None and state.view.state.is_terminal):
            return
        try:
            async with asyncio.timeout(CANCEL_TIMEOUT):
                outcome = await link.cancel(state.task_id, confirm_within=CONFIRM_WITHIN)
            if outcome.confirmed:
                self._take(step.name, state, outcome.task)
            else:
                self._take(step.name, state, Notice(outcome.pending, "warning"))
        except (SwitchboardError, TimeoutError) as exc:
            text = getattr(exc, "message", None) or "no answer in time"
            self._take(
                step.name, state, Notice(f"could not cancel task {state.task_id} at the agent: {text}", "warning")
            )
