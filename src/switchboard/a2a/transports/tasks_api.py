"""The REST task API of the workflow-engine world (a2a/tasks_api.py) as one more Transport.

Its client polls a task and turns each change into the events of the one model, so a turn over this API is
followed like any agent's: `stream` and `subscribe` yield those events (`polled`: a silence is a task that did not
change, not a wedged stream, so the follower watches for no stall), and a blocking `send` reads the turn to its end.
It has no card, no cancel and no task list, takes text only, and is never given a deadline of its own: the callers'
(--timeout, a step's timeout, the person) govern, as for any agent.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx

from ..auth.credentials import Credentials
from ..call_context import CallContext
from ..errors import InvalidResponseError, UsageError
from ..model import AgentCard, Message, StreamEvent, Task, TaskPage, TaskState, TextPart
from ..tap import Tap
from ..tasks_api import TasksApiClient
from .base import Transport


class TasksApiTransport(Transport):
    """One agent of the REST task API, `base_url` its base."""

    card: AgentCard | None = None
    card_url: str | None = None
    streams = True  # a turn is followed through the events the polling makes
    polled = True
    takes_files = False

    def __init__(
        self,
        base_url: str,
        *,
        agent_id: str,
        http: httpx.AsyncClient | None = None,
        credentials: Credentials | None = None,
        tap: Tap | None = None,
        correlation_id: str | None = None,
        poll_interval: float = 1.0,
        on_note: Callable[[str], None] | None = None,
    ) -> None:
        super().__init__(on_note=on_note)
        self.agent_id = agent_id
        self.correlation_id = correlation_id
        self.client = TasksApiClient(
            base_url,
            agent_id=agent_id,
            http=http,
            credentials=credentials,
            tap=tap,
            correlation_id=correlation_id,
            poll_interval=poll_interval,
            poll_timeout=math.inf,
            on_note=self.note,
        )
        self.url = self.client.base_url

    @property
    def label(self) -> str:
        return "tasks API"

    def _text(self, message: Message) -> str:
        if any(not isinstance(p, TextPart) for p in message.parts):
            raise UsageError(
                f"{self.agent_id} speaks the REST task API, which takes text only",
                hint="Drop --file/--data, or send the content as text.",
            )
        return "".join(p.text for p in message.parts if isinstance(p, TextPart))

    async def send(
        self,
        message: Message,
        *,
        blocking: bool = True,
        history_length: int | None = None,
        metadata: dict[str, Any] | None = None,
        context: CallContext | None = None,
    ) -> Task | Message:
        """POST the text (an answer when the message names its task); blocking, poll to the end of the turn."""
        text = self._text(message)
        if not blocking:
            if message.task_id is None:
                return await self.client.submit(text)
            return await self.client.answer(message.task_id, text)
        started: Task | None = None
        async for event in self.client.run_turn(text, task_id=message.task_id, context_id=message.context_id):
            if started is None and isinstance(event, Task):
                started = event  # a turn's first event: the task as the POST answered it
        if started is None:
            raise InvalidResponseError(f"{self.url} ended the turn without naming its task", url=self.url)
        return await self.client.get_task(started.id)

    def stream(
        self,
        message: Message,
        *,
        history_length: int | None = None,
        metadata: dict[str, Any] | None = None,
        on_open: Callable[[], None] | None = None,
        context: CallContext | None = None,
    ) -> AsyncIterator[StreamEvent]:
        text = self._text(message)
        if on_open:
            on_open()
        return self.client.run_turn(text, task_id=message.task_id, context_id=message.context_id)

    def subscribe(
        self, task_id: str, *, on_open: Callable[[], None] | None = None, context: CallContext | None = None
    ) -> AsyncIterator[StreamEvent]:
        if on_open:
            on_open()
        return self.client.follow(task_id)

    async def get_task(
        self, task_id: str, *, history_length: int | None = None, context: CallContext | None = None
    ) -> Task:
        return await self.client.get_task(task_id)

    async def cancel_task(self, task_id: str, *, timeout: float | None = None) -> Task:
        raise UsageError("the REST task API has no cancel", hint="Let the task finish or leave it.")

    async def list_tasks(
        self,
        *,
        context_id: str | None = None,
        state: TaskState | None = None,
        page_size: int | None = None,
        page_token: str | None = None,
        history_length: int | None = None,
        context: CallContext | None = None,
    ) -> TaskPage:
        raise UsageError("the REST task API has no task list", hint="Read one task with `switchboard task get`.")

    async def extended_card(self) -> AgentCard:
        raise UsageError("the REST task API has no agent card", hint="Talk to the agent with `switchboard send`.")

    async def aclose(self) -> None:
        await self.client.aclose()
