"""A run kept by a Temporal server, watched and answered from here: what the TUI's run view drives.

It has the face of a local run as the view uses it (`run_id`, `steps`, `status`, `outputs`, `events()`,
`cancel()`), but nothing runs here: the steps' state comes from the run's records (the `journal` query, read
every `every` seconds), and a question a step waits on (the `waiting` query) goes to `ask`, whose answer is
sent as the run's answer update. Another terminal may answer first: the question then goes away here too (the
ask is canceled), and an answer that lost the race is said as a notice, never sent twice.

What streams inside a step stays on the worker; given `open_link` (agent name -> a link, with the watcher's
own credentials), a running step's task (its id from the turn's heartbeat) is followed here too, so its
status updates and artifact chunks show as they come.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from contextlib import aclosing
from typing import Any

from temporalio.exceptions import TemporalError
from temporalio.service import RPCError

from ...a2a.errors import SwitchboardError, UsageError
from ...a2a.follow import Notice
from ...a2a.model import TaskState
from ...a2a.turn import TaskView
from ...a2a.wire import v10
from ...a2a.wire.common import Notes
from ...link import AgentLink
from ..runs import fold
from ..state import AskRequest, RunFinished, StepEvent, StepState
from . import client as runs

EVERY = 0.5  # seconds between looks at the run
UNREACHABLE_EVERY = 2.0  # seconds between tries while the server cannot be reached

WATCH_GRACE = 5.0  # seconds the streams of the last steps get to deliver their last events once the run ended

Ask = Callable[[AskRequest], Awaitable[str | None]]
OpenLink = Callable[[str], Awaitable[AgentLink]]


def ask_request(run_id: str, step: str, asked: dict[str, Any]) -> AskRequest:
    """The question of the `waiting` query, as a local run's engine asks it."""
    notes = Notes()
    parts = [p for p in (v10.decode_part(raw, notes) for raw in asked.get("question") or []) if p is not None]
    state = TaskState.AUTH_REQUIRED if asked.get("state") == "auth-required" else TaskState.INPUT_REQUIRED
    return AskRequest(
        step,
        state,
        parts,
        asked.get("taskId"),
        asked.get("contextId"),
        asked.get("correlationId") or "",
        asked.get("agent") or "",
        run_id,
    )


class AttachedRun:
    def __init__(
        self,
        client: Any,
        run_id: str,
        ask: Ask,
        *,
        where: str = "",
        every: float = EVERY,
        open_link: OpenLink | None = None,
    ) -> None:
        self.client = client
        self.run_id = run_id
        self.where = where  # "on Temporal HOST:PORT", for the view's head
        self.steps: dict[str, StepState] = {}
        self.status = "running"
        self.outputs: dict[str, str] = {}
        self._ask = ask
        self._every = every
        self._records: list[dict[str, Any]] = []
        self._asking: dict[str, tuple[str, asyncio.Task[None]]] = {}  # step -> (question id, the ask)
        self._notices: asyncio.Queue[StepEvent] = asyncio.Queue()
        self._open_link = open_link
        self._live: dict[str, tuple[str, TaskView, asyncio.Task[None]]] = {}  # step -> (task id, view, stream)
        self._settled: set[str] = set()  # steps whose view was brought to their task's end

    @property
    def timed(self) -> list[dict[str, Any]]:
        """The run's records so far: what the run view's timeline is drawn from."""
        return self._records

    async def events(self) -> AsyncIterator[Any]:
        """The run as it moves: a StepEvent for each notice, and None at each look (the view redraws); a
        RunFinished at the end. A run that cannot be watched from here (gone from the server, its payloads
        sealed with another key) ends the watch as "interrupted", with the reason in `where`."""
        where = self.where
        try:
            async with aclosing(self._watch(where)) as watch:
                async for event in watch:
                    yield event
        except (SwitchboardError, TemporalError) as exc:  # RPCError, the passing kind, is looked at again inside
            reason = exc.message if isinstance(exc, SwitchboardError) else str(exc)
            self.status = "interrupted"  # not watched here any more; at the server the run goes on, if it is there
            self.where = f"{where}: not watched here: {reason}"
            yield RunFinished("interrupted", dict(self.outputs))
        finally:
            for _, task in self._asking.values():
                task.cancel()
            for *_, task in self._live.values():
                task.cancel()

    async def _watch(self, where: str) -> AsyncGenerator[Any, None]:
        while True:
            try:
                found = await runs.records(self.client, self.run_id, len(self._records))
                asked = await runs.asked(self.client, self.run_id)
            except RPCError as exc:  # the server went away (or restarts): the run is still there; look again
                self.where = f"{where}: unreachable ({exc.message or exc.status}), trying again"
                yield None
                await asyncio.sleep(UNREACHABLE_EVERY)
                continue
            self.where = where
            self._records += found
            self._fold()
            while not self._notices.empty():
                yield self._notices.get_nowait()
            if self.status not in ("running", "awaiting_input"):
                self._follow_questions({})  # before the end is told: a reader may stop reading at it
                self._settle_finished()  # the last steps may have ended between two looks, unseen here
                streams = [task for *_, task in self._live.values() if not task.done()]
                if streams:
                    await asyncio.wait(streams, timeout=WATCH_GRACE)
                while not self._notices.empty():
                    yield self._notices.get_nowait()
                yield RunFinished(self.status, dict(self.outputs))  # type: ignore[arg-type]
                return
            self._follow_questions(asked)
            await self._follow_streams()
            yield None
            await asyncio.sleep(self._every)

    def _fold(self) -> None:
        record = fold(self._records, self.run_id)
        for name, state in record.steps.items():
            shown = self.steps.get(name)
            if shown is None:
                self.steps[name] = state
            else:  # the view holds these objects: update them in place
                shown.__dict__.update(state.__dict__)
            if name in self._live:  # the stream followed here knows more than the records
                self.steps[name].view = self._live[name][1]
                if self.steps[name].status == "pending":  # its task is known before its StepRequested arrives
                    self.steps[name].status = "running"
        ended = record.status not in ("running", "awaiting_input", "interrupted")
        self.status = record.status if ended else "running"
        self.outputs = dict(record.outputs)

    def _follow_questions(self, asked: dict[str, dict[str, Any]]) -> None:
        for step, (ask_id, task) in list(self._asking.items()):
            if asked.get(step, {}).get("askId") != ask_id:
                task.cancel()  # answered meanwhile (here or from another terminal), or the step moved on
                del self._asking[step]
        for step, question in asked.items():
            if step not in self._asking and step in self.steps:
                task = asyncio.create_task(self._answer(step, question))
                self._asking[step] = (question["askId"], task)

    async def _answer(self, step: str, question: dict[str, Any]) -> None:
        text = await self._ask(ask_request(self.run_id, step, question))
        if text is None:
            return  # left for later: the question stays asked at the server
        try:
            await runs.answer(self.client, self.run_id, step, text, question["askId"])
        except runs.AlreadyAnswered:
            self._notice(step, "answered from elsewhere first: this answer was not sent")
        except (SwitchboardError, RPCError) as exc:
            self._notice(step, f"the answer was not taken: {exc}")

    async def _follow_streams(self) -> None:
        """Follow the task of each running step here, once its id is known (a retry's new task too)."""
        if self._open_link is None:
            return
        self._settle_finished()
        # A step reads as running from its StepRequested on, and its task's events come when its turn ends.
        wanted = [
            name for name, step in self.steps.items() if step.status in ("pending", "running") and step.type == "a2a"
        ]
        if not any(name not in self._live or self._live[name][2].done() for name in wanted):
            return
        try:
            tasks = await runs.running_tasks(self.client, self.run_id)
        except RPCError:
            return  # looked at again at the next poll
        for name, task_id in tasks.items():
            if name not in self.steps:
                continue
            view = TaskView()
            if name in self._live:
                known, seen, stream = self._live[name]
                if known == task_id and not stream.done():
                    continue  # followed already
                stream.cancel()
                if known == task_id:
                    view = seen  # the same task's next turn (after an answer): its artifacts stay
            stream = asyncio.create_task(self._stream(name, task_id, view))
            self._live[name] = (task_id, view, stream)
            self.steps[name].view = view
            if self.steps[name].status == "pending":
                self.steps[name].status = "running"

    def _settle_finished(self) -> None:
        """A step that finished after its stream here ended (its last turn too short to be seen: an answer given
        elsewhere, say) has its task read once more, so its view ends as the task did."""
        for name, (task_id, view, stream) in list(self._live.items()):
            step = self.steps.get(name)
            if step is None or not step.finished or not stream.done() or name in self._settled:
                continue
            self._settled.add(name)
            if view.state is None or not view.state.is_terminal:
                self._live[name] = (task_id, view, asyncio.create_task(self._stream(name, task_id, view)))

    async def _stream(self, step: str, task_id: str, view: TaskView) -> None:
        assert self._open_link is not None
        agent = self.steps[step].agent or ""
        try:
            link = await self._open_link(agent)
            try:
                async for event in link.resume(task_id, view=view):
                    if isinstance(event, Notice):
                        self._notices.put_nowait(StepEvent(step, event))
            finally:
                await link.aclose()
        except SwitchboardError as exc:
            self._notice(step, f"the step's task is not streamed here ({exc}); its state still shows")

    def _notice(self, step: str, text: str) -> None:
        self._notices.put_nowait(StepEvent(step, Notice(text, "warning")))

    async def cancel(self) -> None:
        """Cancel the run at the server (its steps' tasks are canceled at their agents)."""
        try:
            await runs.cancel(self.client, self.run_id)
        except RPCError as exc:
            raise SwitchboardError(
                f"the run could not be canceled: {exc.message or exc.status}",
                hint=f"Try again, or: switchboard runs cancel {self.run_id} --temporal ...",
            ) from None

    async def cancel_step(self, step: str) -> None:
        raise UsageError(
            "a step of a run on Temporal is not canceled alone",
            hint="Cancel the whole run (F8); its steps' tasks are canceled at their agents.",
        )
