"""One served run: the workflow run behind a task, its questions to the caller, and its events on the task.

The run lives here, not in a request: the SDK calls the executor once per message (a turn), and a turn ends
when the task needs the caller (input-required, auth-required) or ends. The run goes on between turns, so its
events are published on the task's event queue from here, whichever turn (if any) is open: artifacts at once,
while a question is shown too; status changes of other steps are held while the question is shown (a working
update would hide it) and follow once it is answered, first in the answer's turn: they are older than anything
that turn says, and a stream's times never go backwards.

Questions: every step that waits is queued, oldest first, and one is shown at a time. An answer goes to the
step its metadata names (`{"step": NAME}`) when that step waits, else to the question shown.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from a2a.server.events import EventQueue
from a2a.types import a2a_pb2 as pb

from ..a2a.model import TaskState
from ..workflow.run import WorkflowRun
from ..workflow.state import (
    AskRequest,
    RunEvent,
    RunFinished,
    RunStarted,
    StepAwaitingInput,
    StepCanceled,
    StepCompleted,
    StepEvent,
    StepFailed,
    StepInputSubmitted,
    StepSkipped,
    StepStarted,
)
from .inputs import message_data, message_text
from .translate import Translator, failure_of

log = logging.getLogger("switchboard.serve")
ANSWER_WAIT = 30.0  # an answer that came before its question was asked again (just after a restart) waits this long
Event = pb.TaskStatusUpdateEvent | pb.TaskArtifactUpdateEvent | pb.Task


@dataclass
class Question:
    request: AskRequest
    answer: asyncio.Future[str | None] = field(default_factory=lambda: asyncio.get_running_loop().create_future())
    # The question the task showed when the server stopped: shown until the resumed run asks it again, but
    # nobody waits for its answer (an answer meanwhile waits for the question asked again).
    placeholder: bool = False


class ServedRun:
    """The host of one run served as the task `task_id`. Create it, then `bind(run)`, then `attach(queue)`."""

    def __init__(self, task_id: str, context_id: str, *, on_end: Callable[[ServedRun], None] | None = None) -> None:
        self.task_id = task_id
        self.context_id = context_id
        self.translator = Translator(task_id, context_id)
        self.run: WorkflowRun | None = None
        self.pending: list[Question] = []  # steps waiting for the caller, oldest first
        self.shown: Question | None = None
        self.state: int = pb.TaskState.TASK_STATE_WORKING
        self._held: list[Event] = []
        self._queue: EventQueue | None = None
        self._backlog: list[Event] = []  # published before a queue was attached
        self._bridge: asyncio.Task[None] | None = None
        self._turn_over = asyncio.Event()
        self._asked = asyncio.Event()
        self.finished = asyncio.Event()
        self._on_end = on_end

    # --- wiring ----------------------------------------------------------------------------------------------

    def bind(self, run: WorkflowRun) -> None:
        self.run = run

    def still_asking(self, request: AskRequest) -> None:
        """The question the task shows, rebuilt from the journal: it stands (no working update hides it) until
        the resumed run asks it again."""
        self.shown = Question(request, placeholder=True)
        self.state = pb.TaskState.TASK_STATE_INPUT_REQUIRED

    async def attach(self, queue: EventQueue) -> None:
        """Publish on `queue` from now on (the task's queue of the turn now open); start following the run."""
        self._queue = queue
        backlog, self._backlog = self._backlog, []
        for event in backlog:
            await self._put(event)
        if self._bridge is None and self.run is not None:
            self._bridge = asyncio.get_running_loop().create_task(self._follow(), name=f"served-run-{self.task_id}")

    async def wait_turn(self) -> None:
        """Until the task waits for the caller or ends (the turn's end)."""
        await self._turn_over.wait()

    @property
    def in_flight(self) -> bool:
        return not self.finished.is_set()

    # --- questions and answers ----------------------------------------------------------------------------

    async def ask(self, request: AskRequest) -> str | None:
        """The engine's `ask`: queue the question, wait for the caller's answer."""
        question = Question(request)
        self.pending.append(question)
        if self.shown is not None and self.shown.placeholder and self.shown.request.step == request.step:
            self.shown = None  # asked again: the real question takes its place when its event comes
        self._asked.set()
        try:
            return await question.answer
        finally:
            if question in self.pending:
                self.pending.remove(question)
            if self.shown is question:
                self.shown = None

    async def answer(self, message: pb.Message) -> None:
        """The caller's message in a task that waits: the answer of the step it names, else of the question shown."""
        self._turn_over.clear()
        named = _named_step(message)
        deadline = asyncio.get_running_loop().time() + ANSWER_WAIT
        while True:
            target = next((q for q in self.pending if q.request.step == named), None) if named else None
            shown = self.shown if self.shown is not None and not self.shown.placeholder else None
            target = target or shown or (self.pending[0] if self.pending else None)
            if target is not None or not self.in_flight:
                break
            # No question yet: a resumed run asks again once it has re-attached to the step's task.
            self._asked.clear()
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._asked.wait(), remaining)
        if target is None:
            await self._publish(self.translator.working("no step is waiting for an answer; the message was ignored"))
            self._end_turn_if_waiting()
            return
        if target.answer.done():
            return
        if named and target.request.step != named:
            note = f"step {named} is not waiting for an answer; this answers {target.request.step}"
            await self._publish(self.translator.question(target.request, note))
            self._turn_over.set()
            return
        text = message_text(message)
        if not text:
            data = message_data(message)
            text = _json(data[0]) if data else ""
        target.answer.set_result(text)

    def _end_turn_if_waiting(self) -> None:
        if self.shown is not None or not self.in_flight:
            self._turn_over.set()

    # --- cancel -------------------------------------------------------------------------------------------

    async def cancel(self) -> None:
        """Cancel the run (every step's task at its agent) and wait until the task says canceled."""
        if self.run is not None and self.in_flight:
            await self.run.cancel()
        await self.finished.wait()

    # --- following the run --------------------------------------------------------------------------------

    async def _follow(self) -> None:
        assert self.run is not None
        try:
            async for event in self.run.events():
                await self._on(event)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a bug here must end the task, not leave it working for ever
            log.error("serving run %s failed: %s: %s", self.task_id, type(exc).__name__, exc)
            await self._end(
                self.translator.failed("A2A_PROVIDER_ERROR", "the server failed while serving the run", None)
            )

    async def _on(self, event: RunEvent) -> None:
        t = self.translator
        if type(event) is RunStarted:
            if event.resumed:  # (a new run says nothing: its first step says it started)
                await self._say(t.working("the run goes on from its journal", event="resumed"))
        elif type(event) is StepStarted:
            if not event.reattached:
                t.reset(event.step)
            verb = "re-attached to its task" if event.reattached else "started"
            agent = f" ({event.agent})" if event.agent else ""
            text = f"step {event.step} {verb}{agent}"
            await self._say(t.working(text, step=event.step, event="started", attempt=event.attempt))
        elif type(event) is StepEvent:
            for served in t.delegate_event(event.step, event.event):
                if isinstance(served, pb.TaskArtifactUpdateEvent):
                    await self._publish(served)
                else:
                    await self._say(served)
        elif type(event) is StepAwaitingInput:
            if self.shown is None:
                await self._show_next()
        elif type(event) is StepInputSubmitted:
            await self._after_answer(event.step)
        elif type(event) is StepCompleted:
            await self._say(t.working(f"step {event.step} completed", step=event.step, event="completed"))
        elif type(event) is StepFailed:
            again = "; retrying" if event.retrying else ""
            text = self._redact(f"step {event.step} failed: {event.code}: {event.error}{again}")
            await self._say(t.working(text, step=event.step, event="failed", code=event.code))
        elif type(event) is StepCanceled:
            await self._say(t.working(f"step {event.step} canceled", step=event.step, event="canceled"))
        elif type(event) is StepSkipped:
            await self._say(t.working(f"step {event.step} skipped: {event.reason}", step=event.step, event="skipped"))
        elif type(event) is RunFinished:
            await self._finish(event)

    async def _show_next(self) -> None:
        waiting = [q for q in self.pending if not q.answer.done()]
        if not waiting:
            return
        self.shown = waiting[0]
        self.state = pb.TaskState.TASK_STATE_INPUT_REQUIRED
        await self._publish(self.translator.question(self.shown.request))
        self._turn_over.set()

    async def _after_answer(self, step: str) -> None:
        if self.shown is not None:  # another step was answered: the question shown stands
            await self._publish(self.translator.question(self.shown.request))
            self._turn_over.set()
            return
        await self._release_held()  # made before this answer came: they open its turn
        if any(not q.answer.done() for q in self.pending):
            await self._show_next()
            return
        self.state = pb.TaskState.TASK_STATE_WORKING
        await self._publish(self.translator.working(f"the answer went to step {step}", step=step, event="answered"))

    async def _finish(self, event: RunFinished) -> None:
        t = self.translator
        run = self.run
        assert run is not None
        for question in self.pending:
            if not question.answer.done():
                question.answer.cancel()
        if event.status == "interrupted":  # the server stops: the task stays as it is, to go on at the next start
            self._close()
            return
        await self._release_held()
        if event.status == "completed":
            await self._publish(t.outputs(event.outputs))
            await self._end(t.completed())
        elif event.status == "canceled":
            await self._end(t.canceled())
        else:
            code, message, step = failure_of(run.steps)
            if event.status == "awaiting_input":
                code, message = "A2A_INPUT_REQUIRED", "a step waits for input that nobody can give"
            await self._end(t.failed(code, self._redact(message), step))

    async def _end(self, event: pb.TaskStatusUpdateEvent) -> None:
        self.state = event.status.state
        await self._publish(event)
        self._close()

    def _close(self) -> None:
        self.finished.set()
        self._turn_over.set()
        if self._on_end is not None:
            self._on_end(self)

    def _redact(self, text: str) -> str:
        return self.run.tap.redactor.text(text) if self.run is not None else text

    # --- publishing -------------------------------------------------------------------------------------

    async def _say(self, event: pb.TaskStatusUpdateEvent) -> None:
        """A working update: now, or once the question shown is answered."""
        if self.shown is not None:
            self._held.append(event)
        else:
            await self._release_held()  # an answer freed the question: what waited for it goes first
            await self._publish(event)

    async def _release_held(self) -> None:
        held, self._held = self._held, []
        for event in held:
            await self._publish(event)

    async def _publish(self, event: Event) -> None:
        if self._queue is None:
            self._backlog.append(event)
            return
        await self._put(event)

    async def _put(self, event: Event) -> None:
        assert self._queue is not None  # _publish holds events back until there is a queue
        try:
            await self._queue.enqueue_event(event)
        except Exception as exc:  # the queue closed (the server stops): the journal holds the run
            log.debug("event for %s not published: %s", self.task_id, exc)


def _named_step(message: pb.Message) -> str | None:
    if "step" in message.metadata:
        value = message.metadata["step"]
        return value if isinstance(value, str) and value else None
    return None


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)


def is_interrupted(state: int) -> bool:
    return state in (pb.TaskState.TASK_STATE_INPUT_REQUIRED, pb.TaskState.TASK_STATE_AUTH_REQUIRED)


__all__ = ["ServedRun", "TaskState", "is_interrupted"]
