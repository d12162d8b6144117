"""A run kept by a Temporal server, watched and answered from here: what the TUI's run view drives.

It has the face of a local run as the view uses it (`run_id`, `steps`, `status`, `outputs`, `events()`,
`cancel()`), but nothing runs here: the steps' state comes from the run's records (the `journal` query, read
every `every` seconds), and a question a step waits on (the `waiting` query) goes to `ask`, whose answer is
sent as the run's answer update. Another terminal may answer first: the question then goes away here too (the
ask is canceled), and an answer that lost the race is said as a notice, never sent twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from temporalio.service import RPCError

from ...a2a.errors import SwitchboardError, UsageError
from ...a2a.follow import Notice
from ...a2a.model import TaskState
from ...a2a.wire import v10
from ...a2a.wire.common import Notes
from ..journal import fold
from ..state import AskRequest, RunFinished, StepEvent, StepState
from . import client as runs

EVERY = 0.5  # seconds between looks at the run
UNREACHABLE_EVERY = 2.0  # seconds between tries while the server cannot be reached

Ask = Callable[[AskRequest], Awaitable[str | None]]


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
    def __init__(self, client: Any, run_id: str, ask: Ask, *, where: str = "", every: float = EVERY) -> None:
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

    async def events(self) -> AsyncIterator[Any]:
        """The run as it moves: a StepEvent for each notice, and None at each look (the view redraws); a
        RunFinished at the end."""
        where = self.where
        try:
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
                    yield RunFinished(self.status, dict(self.outputs))  # type: ignore[arg-type]
                    return
                self._follow_questions(asked)
                yield None
                await asyncio.sleep(self._every)
        finally:
            for _, task in self._asking.values():
                task.cancel()

    def _fold(self) -> None:
        record = fold(self._records, self.run_id)
        for name, state in record.steps.items():
            shown = self.steps.get(name)
            if shown is None:
                self.steps[name] = state
            else:  # the view holds these objects: update them in place
                shown.__dict__.update(state.__dict__)
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
