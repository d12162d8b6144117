"""The probes past the basic scenarios, from the TCK's MUST set that a client can reach without the TCK's own
test agent: push configs (and their refusal, which needs no task), a send naming a task that does not exist, a
subscription to one, an empty A2A-Version, historyLength, the timestamps' form, and a subscription kept open until
the task ends (the probe ends it with a cancel). Each takes the interface's Probe and adds its findings there."""

from __future__ import annotations

import asyncio
import re
import uuid
from contextlib import suppress
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from ..a2a.client import new_message
from ..a2a.errors import ProtocolError, SwitchboardError
from ..a2a.model import StatusUpdate, StreamEvent, Task, TaskState
from . import push_delivery
from .report import Check
from .requirements import requirement
from .streams import summary
from .wire_log import WireLog

if TYPE_CHECKING:
    from .interface_probe import Probe

TASK_NOT_FOUND, NOT_CANCELABLE, UNSUPPORTED = -32001, -32002, -32004
PUSH_NOT_SUPPORTED = -32003
PUSH_URL = "https://push.invalid/switchboard-conformance"  # `.invalid` never resolves (RFC 2606)
WATCH_BOUND = 5.0  # seconds a subscription is given to show the task's end after the cancel answered (a busy host)
_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$")
_TIMESTAMP = re.compile(r'"timestamp"\s*:\s*"([^"\\]{0,64})"')


def bogus_id() -> str:
    return f"switchboard-conformance-{uuid.uuid4()}"


async def unknown_send(p: Probe) -> None:
    """A message naming a task id the agent never gave: TaskNotFoundError (§3.4.2)."""
    try:
        result = await p.t.send(new_message("hello from switchboard conformance", task_id=bogus_id()), blocking=False)
    except ProtocolError as exc:
        answered = f"error {exc.rpc_code} {exc.code}"
        ok = exc.rpc_code == TASK_NOT_FOUND
        said = "TaskNotFoundError" if ok else f"answered {exc.code}, not TaskNotFoundError (-32001)"
        p.judge("unknown task: send", ok, said, op="send", answered=answered)
        return
    said = "a message naming a task id it never gave was taken as a new one, not TaskNotFoundError"
    p.judge("unknown task: send", False, said, op="send", answered=f"a {type(result).__name__}")


async def cancel_again(p: Probe) -> None:
    """A second cancel of the probe's task, which the first one ended: TaskNotCancelableError (§3.1.5)."""
    task = p.task
    if task is None or task.status.state is not TaskState.CANCELED:
        p.add("cancel: again", "skip", "the first cancel did not end the task", op="cancel")
        return
    try:
        again = await p.t.cancel_task(task.id)
    except ProtocolError as exc:
        answered = f"error {exc.rpc_code} {exc.code}"
        ok = exc.rpc_code == NOT_CANCELABLE
        said = "TaskNotCancelableError" if ok else f"answered {exc.code}, not TaskNotCancelableError (-32002)"
        p.judge("cancel: ended task", ok, said, op="cancel", answered=answered, scenario="cancel: again")
        return
    said = f"a canceled task canceled again answered with the task ({again.status.state.value})"
    p.judge("cancel: ended task", False, said + ", not TaskNotCancelableError", op="cancel",
            answered=f"a Task, {again.status.state.value}", scenario="cancel: again")  # fmt: skip


async def send_to_ended_task(p: Probe) -> None:
    """A message to the probe's task once it ended (the cancel ends it): UnsupportedOperationError (§3.1.1)."""
    task = p.task
    if task is None or not task.status.state.is_terminal:
        p.add("ended task: send", "skip", "the probe's task did not end: no ended task to write to", op="send")
        return
    message = new_message("hello again from switchboard conformance", task_id=task.id, context_id=task.context_id)
    try:
        result = await p.t.send(message, blocking=False)
    except ProtocolError as exc:
        answered = f"error {exc.rpc_code} {exc.code}"
        ok = exc.rpc_code == UNSUPPORTED
        said = f"a message to a {task.status.state.value} task: " + (
            "UnsupportedOperationError" if ok else f"answered {exc.code}, not UnsupportedOperationError (-32004)"
        )
        p.judge("ended task: send", ok, said, op="send", answered=answered)
        return
    said = f"a message to a {task.status.state.value} task was taken (UnsupportedOperationError is expected)"
    p.judge("ended task: send", False, said, op="send", answered=f"a {type(result).__name__}")


def card_caching(wire: WireLog, card_url: str) -> list[Check]:
    """The card's answer carries Cache-Control and an ETag (§8.6.1, SHOULD: a warning when either is missing)."""
    answer = next((e for e in wire.since(0) if e.url == card_url and e.status == 200), None)
    if answer is None:
        return []
    missing = [name for name in ("cache-control", "etag") if not answer.headers.get(name)]
    said = f"the card's answer lacks {' and '.join(missing)}" if missing else "Cache-Control and ETag"
    present = ", ".join(f"{k}: {answer.headers[k][:40]}" for k in ("cache-control", "etag") if answer.headers.get(k))
    return [
        Check("card caching", "", "warn" if missing else "pass", said, requirement("card caching", "1.0"),
              "GET agent card", present or "neither header")
    ]  # fmt: skip


async def unknown_subscribe(p: Probe) -> None:
    """A subscription to a task id the agent never gave: TaskNotFoundError (§3.1.6)."""
    if not p.card.capabilities.streaming:
        p.add("unknown task: subscribe", "skip", "the card declares no streaming", op="subscribe")
        return
    try:
        async for event in p.t.subscribe(bogus_id()):
            said = f"a subscription to a task id it never gave opened with a {type(event).__name__}"
            p.judge("unknown task: subscribe", False, said, op="subscribe", answered=type(event).__name__)
            return
    except ProtocolError as exc:
        answered = f"error {exc.rpc_code} {exc.code}"
        ok = exc.rpc_code == TASK_NOT_FOUND
        said = "TaskNotFoundError" if ok else f"answered {exc.code}, not TaskNotFoundError (-32001)"
        p.judge("unknown task: subscribe", ok, said, op="subscribe", answered=answered)
        return
    p.judge("unknown task: subscribe", False, "the stream closed without an event or an error", op="subscribe",
            answered="no event")  # fmt: skip


async def empty_version(p: Probe) -> None:
    """A v1.0 call (ListTasks, which v0.3 has not) with an empty A2A-Version: the agent MUST take it as 0.3, so an
    answer with tasks means it served v1.0 to a 0.3 caller (§3.6.2). Any error is right."""
    headers = getattr(p.t, "_headers", None)
    if p.version != "1.0" or headers is None or not getattr(p.t, "lists_tasks", False):
        p.add("version: empty", "skip", "only a v1.0 interface over HTTP carries the A2A-Version header")
        return
    headers["A2A-Version"] = ""
    mark = p.wire.mark()
    try:
        await p.t.list_tasks(page_size=1)
    except ProtocolError as exc:
        answered = f"error {exc.rpc_code} {exc.code}"
        p.judge("version: empty", True, f"an empty A2A-Version (0.3): {exc.code}", op="list", answered=answered)
        return
    except SwitchboardError as exc:
        p.judge("version: empty", True, f"an empty A2A-Version (0.3): {exc.code}", op="list", answered=exc.code)
        return
    finally:
        headers["A2A-Version"] = "1.0"
        p.asked_as_03.update(e.number for e in p.wire.since(mark))  # its answer is a 0.3 one (error_bodies.py)
    said = "ListTasks with an empty A2A-Version (which means 0.3, where there is no ListTasks) was served as 1.0"
    p.judge("version: empty", False, said, op="list", answered="a task list")


async def history_length(p: Probe) -> None:
    """GetTask with historyLength 1: no more than one message of history (§3.2.4)."""
    if p.task is None:
        p.add("history length", "skip", "the agent answered with a message: no task to read", op="get")
        return
    got = await p.t.get_task(p.task.id, history_length=1)
    count = len(got.history or [])
    answered = f"a Task with {count} history message(s)"
    ok = count <= 1
    said = "historyLength 1: " + (f"{count} message(s)" if ok else f"{count} messages, more than asked for")
    p.judge("history length", ok, said, op="get", answered=answered)


def timestamps(p: Probe) -> None:
    """Every status timestamp this interface's answers carried: ISO 8601 in UTC, `Z` (§5.6.1); at v0.3, ISO
    8601 with a zone."""
    seen: list[str] = []
    for exchange in p.wire.since(p.start):
        for text in [exchange.body, *(data for data, _ in exchange.frames)]:
            seen += _TIMESTAMP.findall(text)
    if not seen:
        p.add("timestamps", "skip", "no answer carried a status timestamp")
        return
    bad = [stamp for stamp in seen if not _well_formed(stamp, p.version)]
    said = f"{len(seen)} timestamp(s), " + (f"{len(bad)} not ISO 8601 in UTC: {bad[0]!r}" if bad else "each in UTC")
    p.judge("timestamps", not bad, said, op="*", answered=f"{len(seen)} status timestamp(s)")


def _well_formed(stamp: str, version: str) -> bool:
    if version == "1.0":
        return bool(_UTC.match(stamp))
    try:
        return datetime.fromisoformat(stamp).tzinfo is not None
    except ValueError:
        return False


async def push_config(p: Probe) -> None:
    """Create, read, list and delete a push config on the probe's task (while it is still going): an agent
    that declares push notifications does all four; one that does not refuses (PushNotificationNotSupported),
    which needs no task: an id it never gave will do. The config points at an address no agent can reach
    (`.invalid`): nothing is ever delivered."""
    declared = bool(p.card.capabilities.push_notifications)
    if p.version != "1.0" and not p.t.PUSH_AT_03:
        p.add("push config", "skip", "switchboard speaks push configs at 0.3 over JSON-RPC only")
        return
    going = p.task is not None and not p.task.status.state.is_terminal
    if declared and not going:
        p.add("push config", "skip", "the probe's task ended before a push config could be set on it")
        return
    task_id = p.task.id if going and p.task else f"switchboard-conformance-{uuid.uuid4()}"
    config_id = f"switchboard-conformance-{uuid.uuid4().hex[:8]}"
    try:
        await p.t.create_push_config(task_id, PUSH_URL, token=uuid.uuid4().hex, config_id=config_id)
    except ProtocolError as exc:
        answered = f"error {exc.rpc_code} {exc.code}"
        if declared:
            said = f"declared, yet create answered {exc.code} ({exc.rpc_code}): {exc.message}"
            p.judge("push config", False, said, op="push_set", answered=answered)
            return
        ok = exc.rpc_code == PUSH_NOT_SUPPORTED
        said = "not declared, and refused: PushNotificationNotSupportedError" if ok else (
            f"not declared, and refused, but as {exc.code} ({exc.rpc_code}), not PushNotificationNotSupported"
        )  # fmt: skip
        p.judge("push config: refused", ok, said, op="push_set", answered=answered, scenario="push config")
        return
    if not declared:
        said = "push configs work, but the card does not declare push notifications"
        p.judge("push config: refused", False, said, op="push_set", answered="a config",
                   scenario="push config")  # fmt: skip
        await p.t.delete_push_config(task_id, config_id)
        return
    got = await p.t.get_push_config(task_id, config_id)
    listed = {c.get("id") for c in await p.t.list_push_configs(task_id)}
    await p.t.delete_push_config(task_id, config_id)
    after = {c.get("id") for c in await p.t.list_push_configs(task_id)}
    problems = []
    if got.get("url") != PUSH_URL:
        problems.append(f"get gave the url {got.get('url')!r}")
    if config_id not in listed:
        problems.append("list left the config out")
    if config_id in after:
        problems.append("the config was still listed after delete")
    said = "; ".join(problems) or "create, get, list, delete"
    p.judge("push config", not problems, said, op="push_set", answered="create, get, list, delete answered")
    await push_delivery.register(p, task_id)  # a webhook of the probe's own, for the cancel's push


def _brief(value: Any) -> str:
    """A value an agent sent, shown short: a string quoted and cut, anything else by its type."""
    return repr(value[:60]) if isinstance(value, str) else f"(a {type(value).__name__})"


@dataclass
class Watch:
    """A subscription read in the background while the probe cancels the task."""

    events: list[StreamEvent] = field(default_factory=list)
    first: asyncio.Event = field(default_factory=asyncio.Event)
    error: str = ""
    reader: asyncio.Task[None] | None = None


async def open_watch(p: Probe, task_id: str) -> Watch | None:
    """Subscribe to the task and wait for its first event; None when the subscription does not open."""
    watch = Watch()

    async def read() -> None:
        try:
            async for event in p.t.subscribe(task_id):
                watch.events.append(event)
                watch.first.set()
        except SwitchboardError as exc:
            watch.error = exc.code
        finally:
            watch.first.set()

    watch.reader = asyncio.create_task(read())
    with suppress(TimeoutError):
        async with asyncio.timeout(WATCH_BOUND):
            await watch.first.wait()
    if not watch.events:
        await close_watch(watch)
        return None
    return watch


async def close_watch(watch: Watch) -> None:
    if watch.reader is not None and not watch.reader.done():
        watch.reader.cancel()
        with suppress(asyncio.CancelledError):
            await watch.reader


async def still_open_after_bound(watch: Watch) -> bool:
    """Waits up to WATCH_BOUND for the subscription to end by itself; True when it is still open then."""
    with suppress(TimeoutError):
        async with asyncio.timeout(WATCH_BOUND):
            if watch.reader is not None:
                await asyncio.shield(watch.reader)
    return watch.reader is not None and not watch.reader.done()


async def judge_watch(p: Probe, watch: Watch, canceled: bool) -> None:
    """After a cancel that answered the task canceled: the subscription MUST show the end and close (§3.1.6)."""
    scenario, key, op = "subscribe: until the end", "subscribe: kept open", "subscribe"
    if not canceled:
        await close_watch(watch)
        p.add(scenario, "skip", "the cancel did not end the task: nothing to wait for", op=op)
        return
    still_open = await still_open_after_bound(watch)
    await close_watch(watch)
    states = [e.status.state for e in watch.events if isinstance(e, Task | StatusUpdate)]
    last = states[-1] if states else None
    answered = summary(watch.events) + (f", then {watch.error}" if watch.error else "")
    if still_open:
        said = f"the task was canceled, and the subscription was still open {WATCH_BOUND:g} s later"
        p.judge(key, False, said, op=op, answered=answered, scenario=scenario)
    elif last is None or not last.is_terminal:
        said = f"the subscription closed without showing the task's end (last: {last.value if last else 'none'})"
        p.judge(key, False, said, op=op, answered=answered, scenario=scenario)
    else:
        said = f"kept open until the task ended, then closed ({last.value})"
        p.judge(key, True, said, op=op, answered=answered, scenario=scenario)
