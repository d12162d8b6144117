"""Transport: the one interface every way of talking to an agent implements.

An implementation speaks one binding of A2A (JSON-RPC, HTTP+JSON, gRPC) at one wire version (1.0 or 0.3),
or a protocol that is not A2A at all (the REST task API of the workflow-engine world), and maps it onto the one
model (`switchboard.a2a.model`): Tasks, Messages and stream events. The follower (follow.py), the cancel
(cancel.py) and the link (switchboard.link) take a Transport and never ask which one it is; what differs between
them is said by the few facts below (`streams`, `polled`, `lists_tasks`, `takes_files`), not by a type.

Failures are SwitchboardErrors: protocol errors under their A2A names (TaskNotFoundError, ...) whichever way the
binding writes them, a broken stream as StreamBrokenError (the follower reconciles), anything else with the
codes of errors.py. Push-notification configs are spoken by the A2A bindings at protocol 1.0 (a config is the
ProtoJSON TaskPushNotificationConfig: id, taskId, url, token); the others refuse them with a usage error.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable
from typing import Any

from ..call_context import CallContext
from ..errors import SwitchboardError, UsageError
from ..model import AgentCard, Message, StreamEvent, Task, TaskPage, TaskState
from ..wire.common import Notes


class StreamBrokenError(SwitchboardError):
    """The stream failed mid-way; the follower reconciles with get-task."""

    code = "A2ACLI_ERR_UNREACHABLE"
    exit_code = 3


class Transport(ABC):
    """One agent, reached one way: send, stream, get, list, cancel, subscribe, the extended card.

    Notes (what was odd on the wire) go to `notes` and to `on_note`. The operations a turn is made of take the
    call's own `context` (call_context.py): its retries go to that call's listener, else they are notes.
    """

    card: AgentCard | None  # None: the protocol has no card (the REST task API)
    card_url: str | None
    url: str  # where the requests go
    correlation_id: str | None = None
    # The card offers streaming: following a turn streams unless the caller says otherwise.
    streams: bool = False
    # stream() and subscribe() are made by polling: a silence is a task that did not change, not a wedged stream.
    polled: bool = False
    # list_tasks works (a v1.0 binding): a send whose answer was lost can be found by its message id.
    lists_tasks: bool = False
    takes_files: bool = True  # parts other than text can be sent

    def __init__(self, *, on_note: Callable[[str], None] | None = None) -> None:
        self.notes = Notes()
        self._on_note = on_note

    @property
    @abstractmethod
    def label(self) -> str:
        """What is spoken, for people: `JSON-RPC 1.0`, `HTTP+JSON 0.3`, `tasks API`."""

    def note(self, text: str) -> None:
        self.notes.add(text)
        if self._on_note:
            self._on_note(text)

    def retried(self, text: str, context: CallContext | None = None) -> None:
        """A request of the call `context` failed and is tried again: tell that call, else note it."""
        if context is not None and context.on_retry is not None:
            context.on_retry(text)
        else:
            self.note(text)

    # --- operations ------------------------------------------------------------------------------------

    @abstractmethod
    async def send(
        self,
        message: Message,
        *,
        blocking: bool = True,
        history_length: int | None = None,
        metadata: dict[str, Any] | None = None,
        context: CallContext | None = None,
    ) -> Task | Message:
        """Send a message. Blocking returns at a terminal or interrupted state; else at once, the task as it
        starts (or the agent's direct reply)."""

    @abstractmethod
    def stream(
        self,
        message: Message,
        *,
        history_length: int | None = None,
        metadata: dict[str, Any] | None = None,
        on_open: Callable[[], None] | None = None,
        context: CallContext | None = None,
    ) -> AsyncIterator[StreamEvent]:
        """Send a message and yield the events as they arrive, until the agent ends the stream.

        `on_open` is called once the agent's answer starts (after any retries of the request)."""

    @abstractmethod
    def subscribe(
        self, task_id: str, *, on_open: Callable[[], None] | None = None, context: CallContext | None = None
    ) -> AsyncIterator[StreamEvent]:
        """Re-attach to a running task's events."""

    @abstractmethod
    async def get_task(
        self, task_id: str, *, history_length: int | None = None, context: CallContext | None = None
    ) -> Task:
        """The task as the agent has it now."""

    async def task_status(self, task_id: str) -> Task:
        """get-task for where a task stands, when it may hold far more than anyone wants to read: a binding may
        leave its artifacts and history out."""
        return await self.get_task(task_id)

    @abstractmethod
    async def cancel_task(self, task_id: str, *, timeout: float | None = None) -> Task:
        """Ask the agent to cancel; the task as it answers (see cancel.py for confirming it). `timeout` (seconds)
        replaces the binding's own wait for the answer."""

    @abstractmethod
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
        """One page of the tasks the agent knows (a usage error where the binding has no list)."""

    @abstractmethod
    async def extended_card(self) -> AgentCard:
        """The authenticated extended card."""

    # --- push-notification configs: the A2A bindings at 1.0 speak them; here, the refusal of the others ---

    async def create_push_config(
        self,
        task_id: str,
        url: str,
        *,
        token: str | None = None,
        config_id: str | None = None,
        authentication: tuple[str, str] | None = None,
    ) -> dict[str, Any]:
        """CreateTaskPushNotificationConfig: have the agent POST the task's updates to `url`, echoing `token` in
        X-A2A-Notification-Token and sending `authentication` (scheme, credentials) as its Authorization."""
        raise _no_push()

    async def get_push_config(self, task_id: str, config_id: str) -> dict[str, Any]:
        """GetTaskPushNotificationConfig."""
        raise _no_push()

    async def list_push_configs(self, task_id: str) -> list[dict[str, Any]]:
        """ListTaskPushNotificationConfigs."""
        raise _no_push()

    async def delete_push_config(self, task_id: str, config_id: str) -> None:
        """DeleteTaskPushNotificationConfig."""
        raise _no_push()

    @abstractmethod
    async def aclose(self) -> None:
        """Let go of the connections this transport owns."""

    async def __aenter__(self) -> Transport:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _no_push(why: str = "this agent's protocol has none") -> UsageError:
    return UsageError(
        f"push notification configs cannot be used here: {why}",
        hint="Follow the task with `switchboard task subscribe` or `task get --wait` instead.",
    )


def no_push_at(version: str) -> UsageError:
    """Push configs over a binding at a version switchboard does not speak them at (0.3 other than JSON-RPC)."""
    return _no_push(
        f"switchboard speaks them at A2A protocol 1.0, and at {version} over JSON-RPC only; this agent's interface is "
        "another binding (--binding jsonrpc, where its card lists one, reaches them)"
    )
