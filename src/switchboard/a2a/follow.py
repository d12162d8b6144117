"""Follow a task to the end of its turn: stream it, and when the stream ends too early, reconcile.

A turn ends at a terminal or interrupted state. A stream that closes or breaks before that is not the end:
the task is read with get-task, and if it still runs the stream is re-attached (subscribe), with backoff
and a bound. After a re-attachment the final get-task snapshot settles every artifact's text, so nothing is
lost and nothing doubled. Polling takes over where streaming is not offered.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Literal

from .client import A2AClient, StreamBrokenError
from .errors import InvalidResponseError, ProtocolError, SwitchboardError, UnreachableError
from .model import Message, StreamEvent, Task
from .turn import TaskView


@dataclass(frozen=True)
class Notice:
    """Something the person should know about the connection itself (not from the agent)."""

    text: str
    level: Literal["info", "warning"] = "info"
    kind: str = "notice"


TurnEvent = StreamEvent | Notice


@dataclass
class FollowPolicy:
    poll_interval: float = 2.0
    max_reattach: int = 5
    backoff: float = 0.25
    max_backoff: float = 5.0
    # No event for this long (keep-alive pings do not count) means the stream is wedged: some servers
    # keep a stream open for ever after their executor died (a2a-sdk 0.3 does).
    stall_timeout: float | None = 60.0

    def delay(self, attempt: int) -> float:
        return min(self.max_backoff, self.backoff * 2 ** max(0, attempt - 1))


class StreamStalledError(StreamBrokenError):
    """No event arrived within the stall timeout."""


async def _until_stall(source: AsyncIterator[StreamEvent], seconds: float | None) -> AsyncIterator[StreamEvent]:
    iterator = aiter(source)
    while True:
        try:
            event = await asyncio.wait_for(anext(iterator), seconds)
        except StopAsyncIteration:
            return
        except TimeoutError:
            raise StreamStalledError(f"no event for {seconds:g} s") from None
        yield event


async def _get_with_retry(client: A2AClient, task_id: str, policy: FollowPolicy) -> Task:
    """get-task, retried on network failures (a dropped stream often means a flaky link)."""
    for attempt in range(1, policy.max_reattach + 2):
        try:
            return await client.get_task(task_id)
        except (UnreachableError, InvalidResponseError):
            if attempt > policy.max_reattach:
                raise
            await asyncio.sleep(policy.delay(attempt))
    raise AssertionError("unreachable")


async def poll_task(client: A2AClient, task_id: str, policy: FollowPolicy) -> AsyncIterator[Task]:
    """get-task every poll interval until the turn is over; yields each snapshot whose state changed."""
    last = None
    while True:
        task = await _get_with_retry(client, task_id, policy)
        if last is None or task.status != last:
            yield task
        last = task.status
        if task.status.state.ends_turn:
            return
        await asyncio.sleep(policy.poll_interval)


async def follow_turn(
    client: A2AClient,
    message: Message | None = None,
    *,
    task_id: str | None = None,
    streaming: bool | None = None,
    policy: FollowPolicy | None = None,
) -> AsyncIterator[TurnEvent]:
    """Send `message` (or re-attach to `task_id`) and yield every event until the turn ends.

    A refused request raises. Once a task exists, its turn always ends with the task's real state: a
    stream error is reported as a Notice and the task is read.
    """
    if message is None and task_id is None:
        raise ValueError("follow_turn needs a message or a task id")
    policy = policy or FollowPolicy()
    view = TaskView()
    use_stream = bool(client.card.capabilities.streaming) if streaming is None else streaming

    if not use_stream:
        if message is not None:
            result = await client.send(message)
            view.apply(result)
            yield result
            if view.turn_over or view.task_id is None:
                return
        async for task in poll_task(client, view.task_id or task_id, policy):
            yield task
        return

    source = client.stream(message) if message is not None else client.subscribe(task_id)
    if task_id:
        view.task_id = task_id
    attempts = 0
    reattached = False
    while True:
        problem: SwitchboardError | None = None
        try:
            async for event in _until_stall(source, policy.stall_timeout):
                view.apply(event)
                yield event
                if view.turn_over:
                    break
        except StreamBrokenError as exc:
            problem = exc
        except ProtocolError as exc:
            if view.task_id is None:
                raise  # nothing to reconcile: the request itself was refused
            # An error frame mid-stream (an executor crash), or subscribing to a task that has finished:
            # the task itself says how it ended.
            problem = exc
            yield Notice(f"the agent reported {exc.code}: {exc.message}", "warning")
        if view.turn_over and not reattached:
            return
        if view.task_id is None:
            if problem:
                raise problem
            raise InvalidResponseError(
                f"the stream from {client.endpoint.url} closed before the agent said anything",
                hint="Run with --verbose to see the exchange.",
                url=client.endpoint.url,
            )
        if not view.turn_over:
            why = f"broke ({problem.message})" if problem else "closed"
            yield Notice(f"the stream {why} before the turn ended; reading the task", "warning")
        task = await _get_with_retry(client, view.task_id, policy)
        view.apply(task)
        yield task
        if view.turn_over:
            yield Notice(f"reconciled with get-task: {task.status.state.value}")
            return
        attempts += 1
        if attempts > policy.max_reattach:
            yield Notice("the stream keeps dropping; polling instead", "warning")
            async for polled in poll_task(client, view.task_id, policy):
                yield polled
            return
        await asyncio.sleep(policy.delay(attempts))
        yield Notice(f"task is still {task.status.state.value}; re-subscribing (attempt {attempts})")
        source = client.subscribe(view.task_id)
        reattached = True
