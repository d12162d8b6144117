"""The spec-breaking agent's answers to the official TCK's scripted tasks, so the TCK can judge its one-breach modes
where it needs a task that waits for input (get, cancel, subscribe, history). The TCK drives its own test agent by
the message id (a2a-tck tests/compatibility/_task_helpers.py): `tck-input-required-...` leaves the new task waiting
for input, a follow-up `tck-complete-task-...` completes it; `tck-artifact-text-...` completes a task at once with
a text artifact (as the mode makes its artifacts). Those tasks are answered right, but for the mode's
one breach (the cancel that leaves the task input-required, the subscription that closes before the end, the
history that ignores historyLength, the timestamps not in UTC). switchboard's probe never sends such ids."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import suppress
from dataclasses import dataclass, field

import broken_push
from starlette.responses import Response, StreamingResponse

INPUT, COMPLETED, CANCELED = "TASK_STATE_INPUT_REQUIRED", "TASK_STATE_COMPLETED", "TASK_STATE_CANCELED"
INPUT_SCRIPT, COMPLETE_SCRIPT, ARTIFACT_SCRIPT = "tck-input-required", "tck-complete-task", "tck-artifact-text"
HOLD = 10.0  # seconds a subscription stays open for the task's end (a cancel that does not end it): no test waits on it


@dataclass
class Scripted:
    state: str = INPUT
    said: int = 2  # messages in its history: the user's and the agent's, per turn
    watching: int = 0  # subscriptions open on it now
    ended: asyncio.Event = field(default_factory=asyncio.Event)


_tasks: dict[str, Scripted] = {}


@dataclass
class Replies:
    """How the agent answers one JSON-RPC call (broken_agent's, for this mode)."""

    rid: object
    result: Callable[[object], Response]
    error: Callable[[int, str], Response]
    task: Callable[..., dict]  # broken_agent.task(state, task_id, history=n), with the mode's timestamps
    artifact: dict  # the artifact a task of this mode holds (broken_agent.artifact)


def scripted(task_id: object) -> bool:
    """Whether `task_id` names a task the scripts started."""
    return isinstance(task_id, str) and task_id in _tasks


def answer(mode: str, method: str, params: dict, reply: Replies) -> Response | None:
    """The answer to a call about a scripted task (or one that starts one); None for any other call."""
    message = params.get("message") if isinstance(params.get("message"), dict) else {}
    message_id = str(message.get("messageId", ""))
    named = message.get("taskId") if method == "SendMessage" else params.get("id")
    if method == "SendMessage" and named is None and message_id.startswith(ARTIFACT_SCRIPT):
        done = reply.task(COMPLETED, f"scripted-{uuid.uuid4().hex[:12]}", history=1)
        return reply.result({"task": done | {"artifacts": [reply.artifact]}})
    if method == "SendMessage" and named is None and message_id.startswith(INPUT_SCRIPT):
        task_id = f"scripted-{uuid.uuid4().hex[:12]}"
        _tasks[task_id] = Scripted()
        inline = (params.get("configuration") or {}).get("taskPushNotificationConfig")
        if mode in broken_push.MODES and isinstance(inline, dict):  # a push config sent with the message
            broken_push.keep(mode, task_id, inline)
        return reply.result({"task": reply.task(INPUT, task_id, history=2)})
    scripted = _tasks.get(named) if isinstance(named, str) else None
    if scripted is None:
        return None
    ended = scripted.state != INPUT
    if method == "SendMessage":
        if ended:
            return reply.error(-32004, "the task has ended")
        scripted.said += 2
        if message_id.startswith(COMPLETE_SCRIPT):
            scripted.state = COMPLETED
            scripted.ended.set()
            if mode in broken_push.MODES:
                broken_push.push(mode, named, COMPLETED)
        return reply.result({"task": reply.task(scripted.state, named, history=scripted.said)})
    if method == "GetTask":
        asked = params.get("historyLength", params.get("history_length"))  # the TCK sends the proto name
        kept = min(scripted.said, asked) if isinstance(asked, int) and mode != "history-ignored" else scripted.said
        return reply.result(reply.task(scripted.state, named, history=kept))
    if method == "CancelTask":
        if ended:
            return reply.error(-32002, "the task has ended")
        if mode != "cancel-input-required":  # that mode's breach: the task is answered as it was
            scripted.state = CANCELED
            scripted.ended.set()
        return reply.result(reply.task(scripted.state, named))
    if method == "SubscribeToTask":
        if ended:
            return reply.error(-32004, "the task has ended")
        return StreamingResponse(_follow(mode, named, scripted, reply), media_type="text/event-stream")
    return None


async def _follow(mode: str, task_id: str, scripted: Scripted, reply: Replies) -> AsyncIterator[str]:
    """The Task first, then (the mode `subscription-closes` aside) its end once a cancel or a message ends it."""

    def frame(result: dict) -> str:
        return f"data: {json.dumps({'jsonrpc': '2.0', 'id': reply.rid, 'result': result})}\n\n"

    yield frame({"task": reply.task(scripted.state, task_id)})
    if mode == "subscription-closes":
        return
    scripted.watching += 1
    try:
        if scripted.watching > 1 and scripted.state == INPUT:
            # Watched from two streams (the TCK's multi-stream test): the task completes, so neither stream waits
            # HOLD seconds for an end; the mode first-stream-only sends it to the first stream only (its breach).
            scripted.state = COMPLETED
            scripted.ended.set()
            if mode == "first-stream-only":
                return
        with suppress(TimeoutError):
            await asyncio.wait_for(scripted.ended.wait(), HOLD)
    finally:
        scripted.watching -= 1
    if scripted.state != INPUT:
        update = {"taskId": task_id, "contextId": "ctx-1", "status": {"state": scripted.state}}
        yield frame({"statusUpdate": update})
