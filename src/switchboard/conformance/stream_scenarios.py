"""The scenarios that open a stream: a streaming message (judged from the frames as sent: streams.py, and its
artifacts: artifacts.py) and a re-subscription to the probe's task. Each takes the interface's Probe and adds its
findings there."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from ..a2a.client import new_message
from ..a2a.errors import ProtocolError, SwitchboardError
from ..a2a.model import StreamEvent, Task
from . import artifacts
from .error_codes import PROBE_TEXT, TASK_NOT_FOUND, UNSUPPORTED
from .streams import judge_stream, summary

if TYPE_CHECKING:
    from .interface_probe import Probe

STREAM_EVENT_LIMIT = 10_000  # events read from one probe stream before it is let go
# A stream is judged three ways, each its own scenario (--against compares scenario by scenario).
_STREAM_SCENARIOS = {
    "stream: jsonrpc sse": "stream: wire",
    "stream: rest sse": "stream: wire",
    "state values": "stream: states",
}


async def stream(p: Probe) -> None:
    declared = bool(p.card.capabilities.streaming)
    events: list[StreamEvent] = []
    going = False  # the stream was still open when the probe let go of it
    mark = p.wire.mark()
    try:
        async with asyncio.timeout(p.timeout / 2):
            async for event in _bounded(p.t.stream(new_message(PROBE_TEXT))):
                events.append(event)
    except TimeoutError:
        if not events:
            raise
        going = True
    except ProtocolError as exc:
        if not declared:
            ok = exc.rpc_code == UNSUPPORTED
            said = "UnsupportedOperationError, as the card declares no streaming" if ok else (
                f"the card declares no streaming; answered {exc.code}, not UnsupportedOperationError"
            )  # fmt: skip
            answered = f"error {exc.rpc_code} {exc.code}"
            p.judge("stream: undeclared", ok, said, op="stream", answered=answered, scenario="stream")
            return
        raise
    if not declared:
        said = "streams although the card does not declare capabilities.streaming (UnsupportedOperationError)"
        p.judge("stream: undeclared", False, said, op="stream", answered=summary(events), scenario="stream")
        return
    exchange = next(iter(p.wire.since(mark)), None)
    findings = judge_stream(exchange, events, p.version, p.binding, going=going)
    seen = summary(events)
    for f in findings:
        scenario = _STREAM_SCENARIOS.get(f.key, "stream")
        p.judge(f.key, f.ok, f.detail, op="stream", answered=f.answered or seen, scenario=scenario)
    await artifacts.judge_stream_artifacts(p, exchange, events)
    first = events[0] if events else None
    if going and isinstance(first, Task):
        await _let_go(p, first.id)


async def _let_go(p: Probe, task_id: str) -> None:
    """Cancel a probe's task that still runs: the probe is done with it."""
    try:
        await p.t.cancel_task(task_id)
    except SwitchboardError:
        pass


async def _bounded(events: AsyncIterator[StreamEvent]) -> AsyncIterator[StreamEvent]:
    count = 0
    async for event in events:
        yield event
        count += 1
        if count >= STREAM_EVENT_LIMIT:
            break


async def subscribe(p: Probe) -> None:
    if p.task is None:
        p.add("subscribe", "skip", "the agent answered with a message: no task to subscribe to", op="subscribe")
        return
    terminal = p.task.status.state.is_terminal
    # v1.0 says what re-attaching answers (§3.1.6); v0.3's tasks/resubscribe left the first event and the
    # error for a task with nothing running open, and its servers differ there (SHOULD-level in the table).
    legacy = p.version == "0.3"
    state = p.task.status.state.value
    try:
        first = None
        async for event in p.t.subscribe(p.task.id):
            first = event
            break
    except ProtocolError as exc:
        answered = f"error {exc.rpc_code} {exc.code}"
        if exc.rpc_code == UNSUPPORTED and (terminal or not p.card.capabilities.streaming):
            why = "the task has ended" if terminal else "the card declares no streaming"
            p.judge("subscribe: ended task", True, f"UnsupportedOperationError: {why}", op="subscribe",
                    answered=answered, scenario="subscribe")  # fmt: skip
        elif legacy and terminal:
            said = f"{exc.code} for an ended task (v0.3 names no error for it)"
            p.judge("subscribe", True, said, op="subscribe", answered=answered)
        elif legacy and exc.rpc_code == TASK_NOT_FOUND:
            said = f"TaskNotFoundError for a task that is {state}: nothing runs to re-attach to"
            p.judge("subscribe", False, said, op="subscribe", answered=answered)
        else:
            raise
        return
    except SwitchboardError as exc:
        if not legacy:
            raise
        said = f"for a task that is {state}, the stream broke before an event: {exc.message}"
        p.judge("subscribe", False, said, op="subscribe", answered=exc.code)
        return
    answered = f"a {type(first).__name__} first" if first is not None else "no event"
    if terminal:
        said = f"re-attached to an ended task ({state}); UnsupportedOperationError is expected"
        p.judge("subscribe: ended task", False, said, op="subscribe", answered=answered, scenario="subscribe")
    elif isinstance(first, Task):
        p.judge("subscribe", True, f"the Task first, {first.status.state.value}", op="subscribe",
                answered=answered)  # fmt: skip
    elif legacy and first is not None:
        said = f"a {type(first).__name__} first (v0.3 does not ask for the Task first)"
        p.judge("subscribe", True, said, op="subscribe", answered=answered)
    else:
        what = type(first).__name__ if first is not None else "nothing"
        said = f"the stream began with {what}; it MUST begin with the Task"
        p.judge("subscribe", False, said, op="subscribe", answered=answered)
