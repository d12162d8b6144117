"""Watch a task with no stream open: by the agent's push notifications where it sends them, else by polling.

`watch_task` registers a push config for the task with a receiver (push/receiver.py; a fresh random token per config),
reads the task once for what happened before the config existed, then applies each pushed event. An agent that
cannot push (its card does not declare it, or it refuses the config) is polled with get-task instead, with backoff:
WatchPolicy.first seconds, doubling up to WatchPolicy.cap, back to the first when the task changed. Either way every
event goes through the same reducer as a stream's (turn.TaskView: the same event twice changes nothing), and the
watch ends when the turn does (the task ended, or waits for input or auth). The config is deleted when the watch
ends, however it ends (Ctrl+C, a timeout, a canceled worker).

The command line (`task watch`, `send --push`) and the TUI (a tab whose stream was closed) both watch this way.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass
from ipaddress import ip_address
from typing import Any
from urllib.parse import urlsplit

from .a2a.errors import SwitchboardError
from .a2a.follow import Notice, TurnEvent
from .a2a.model import Task
from .a2a.turn import TaskView
from .push.receiver import PushReceiver


@dataclass(frozen=True)
class WatchPolicy:
    first: float = 0.5  # seconds before the first poll after a change
    cap: float = 15.0  # the longest wait between polls of a task that does not change
    # Pushes that stop coming (a sender that gave up, a tunnel that closed) must not leave the watch waiting for
    # ever: after this long without one the task is read once, and again each time it stays this quiet.
    quiet: float = 30.0
    delete_within: float = 5.0  # a config left behind costs the agent useless POSTs: bounded, but tried


def _mark(task: Task) -> tuple[Any, ...]:
    """What a poll compares to see whether the task moved: its status, and how far each artifact has got."""
    status = task.status
    artifacts = tuple((a.artifact_id, len(a.parts), str(a.parts[-1:])) for a in task.artifacts or [])
    message = status.message.message_id if status.message else None
    return status.state, status.timestamp, message, artifacts, len(task.history or [])


async def poll_with_backoff(link: Any, task_id: str, view: TaskView, policy: WatchPolicy) -> AsyncIterator[Task]:
    """get-task until the turn is over: each snapshot applied to `view` and yielded when it changed something."""
    delay = policy.first
    last = None
    while True:
        task = await link.get_task(task_id)
        mark = _mark(task)
        if mark != last:
            view.apply(task)
            yield task
            delay, last = policy.first, mark
        if view.turn_over:
            return
        await asyncio.sleep(delay)
        delay = min(policy.cap, delay * 2)


def on_this_machine(link: Any) -> bool:
    """The agent's card came from a loopback address: a receiver on 127.0.0.1 is one it can reach. An agent
    elsewhere would POST to its own machine's loopback instead (never to us), so it is given no such URL."""
    host = urlsplit(getattr(link, "card_url", None) or "").hostname or ""
    if host == "localhost":
        return True
    try:
        return ip_address(host).is_loopback
    except ValueError:
        return False


def can_push(link: Any) -> bool:
    """The card declares push notifications (absent or false: the agent will refuse a config)."""
    card = getattr(link, "card", None)
    return bool(card is not None and card.capabilities.push_notifications)


async def watch_task(
    link: Any,
    task_id: str,
    view: TaskView,
    receiver: PushReceiver | None,
    *,
    push_url: str | None = None,
    policy: WatchPolicy | None = None,
) -> AsyncGenerator[TurnEvent, None]:
    """Follow `task_id` to the end of its turn with no stream: pushes to `receiver` (registered at `push_url`
    when given, the receiver's own URL otherwise), or polling when the agent cannot push or `receiver` is None.
    Each event is folded into `view` before it is yielded; a Notice says once which way it went."""
    policy = policy or WatchPolicy()
    view.task_id = view.task_id or task_id
    why = None
    if receiver is None:
        why = "the agent cannot push (no local receiver)"
    elif not can_push(link):
        why = "the agent cannot push (its card does not declare push notifications)"
    elif push_url is None and not on_this_machine(link):
        why = "the agent is not on this machine, and cannot reach a receiver on 127.0.0.1 (--push-url gives it one)"
    if why is not None or receiver is None:
        yield Notice(f"{why}; polling the task instead", "warning")
        async for task in poll_with_backoff(link, task_id, view, policy):
            yield task
        return
    token = receiver.register(task_id)
    try:
        config = await link.create_push_config(task_id, push_url or receiver.url, token=token)
    except SwitchboardError as exc:
        receiver.unregister(token)
        yield Notice(f"no push config ({exc.code}: {exc.message}); polling the task instead", "warning")
        async for task in poll_with_backoff(link, task_id, view, policy):
            yield task
        return
    config_id = config.get("id") if isinstance(config, dict) else None
    try:
        task = await link.get_task(task_id)  # what happened before the config existed
        view.apply(task)
        yield task
        events = aiter(receiver.events(task_id))
        while not view.turn_over:
            try:
                async with asyncio.timeout(policy.quiet):
                    event: Task | Any = await anext(events)
            except TimeoutError:
                event = await link.get_task(task_id)
            view.apply(event)
            yield event
    finally:
        receiver.unregister(token)
        if config_id:
            with contextlib.suppress(SwitchboardError, TimeoutError):
                async with asyncio.timeout(policy.delete_within):
                    await link.delete_push_config(task_id, config_id)
