"""Follow a task to the end of its turn: stream it, and when the stream ends too early, reconcile.

A stream ends when the agent closes it (or, on v0.3, after a status update marked `final`); the turn's outcome
is the task's state then, never the state of one event on the way. A turn ends at a terminal or interrupted
state, or a direct reply. Stacks differ in what a stream starts with: a follow-up to a task that waits may open
with the task as it stood when the message arrived, still input-required (the JavaScript SDK does). That status
is the question being answered, not a new one: it decides nothing, here or in a later get-task or resubscribe.
An agent that keeps the stream open after the turn ended is given `close_grace` seconds to send more, except at
auth-required, where the spec has it keep the stream open for a credential that may come out of band.

A stream that closes or breaks before the turn ends is not the end: the task is read with get-task, and if it
still runs the stream is re-attached (subscribe), with backoff and a bound. After a re-attachment the final
get-task snapshot settles every artifact's text, so nothing is lost and nothing doubled. Polling takes over
where streaming is not offered.

It works over any Transport (transports/base.py), whatever binding or protocol is behind it: it asks only whether
the agent streams, whether the transport's streams are made by polling (then silence is no stall), and whether
it can list tasks (to find a task whose id a failed send never brought back).

An agent may answer a follow-up under a new task id (the spec lets it start a new task when the old one cannot
go on): the new task is followed, and a Notice of kind "new-task" says so.

A send that failed after it may have reached the agent (the connection dropped before the task id came
back) is never sent again on a guess: the message id tells. An answer is looked for in its task's history, a new
message on a v1.0 agent by its task list; found, the task is followed from there; seen not to be there, the
message goes again, once (a kept-alive connection the agent closed just as the message went out on it).
Retries of single requests (http.py) and every reconciliation step are yielded as Notices.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, AsyncIterator
from dataclasses import dataclass
from typing import Literal

from .call_context import CallContext
from .errors import (
    AuthFailedError,
    CredentialsMissingError,
    InvalidResponseError,
    ProtocolError,
    SwitchboardError,
    TimedOutError,
    UnavailableError,
    UnreachableError,
)
from .model import Message, StatusUpdate, StreamEvent, Task, TaskState, TaskStatus
from .stall_watch import StallWatch, until_stall
from .transports.base import StreamBrokenError, Transport
from .turn import TaskView, same_status


@dataclass(frozen=True)
class Notice:
    """Something the person should know about the connection itself (not from the agent)."""

    text: str
    level: Literal["info", "warning"] = "info"
    kind: str = "notice"  # "new-task": the agent moved the turn to the task `task_id`
    task_id: str | None = None


TurnEvent = StreamEvent | Notice


@dataclass
class FollowPolicy:
    poll_interval: float = 2.0
    max_reattach: int = 5
    backoff: float = 0.25
    max_backoff: float = 5.0
    # No event for this long (keep-alive pings do not count) means the stream is wedged: some servers
    # keep a stream open for ever after their executor died (a2a-sdk 0.3 does). Noticed within a quarter more.
    stall_timeout: float | None = 60.0
    # The agent closes the stream once the turn has ended (every stack in the test matrix does at once). One that
    # keeps it open is given this long to send more (an event then goes on with the turn, judged at the end);
    # then the turn is taken as over. Short, since a person may be waiting to answer its question.
    close_grace: float = 3.0
    # A task that stops moving (an agent whose executor died may leave it `working` for good) is followed this
    # long past its last change, across re-attachments and polling, then given up on (TimedOutError naming it).
    # None: for as long as it takes (a person watching can cancel; a workflow step has its own timeout).
    idle_limit: float | None = None

    def delay(self, attempt: int) -> float:
        return min(self.max_backoff, self.backoff * 2.0 ** max(0, attempt - 1))


async def _get_with_retry(
    client: Transport, task_id: str, policy: FollowPolicy, context: CallContext | None = None
) -> Task:
    """get-task, retried on network failures (a dropped stream often means a flaky link)."""
    for attempt in range(1, policy.max_reattach + 2):
        try:
            return await client.get_task(task_id, context=context)
        except (UnreachableError, InvalidResponseError) as exc:
            if attempt > policy.max_reattach:
                raise
            delay = policy.delay(attempt)
            client.retried(f"reading task {task_id} failed ({exc.message}); trying again in {delay:.2f} s", context)
            await asyncio.sleep(delay)
    raise AssertionError("unreachable")


async def find_task_for_message(
    client: Transport, message_id: str, *, pages: int = 20, context: CallContext | None = None
) -> str | None:
    """The task a v1.0 agent made for `message_id` (by its task list); None when there is none, or the agent
    cannot list tasks. For a send whose answer was lost: the task exists, its id never arrived."""
    if not client.lists_tasks:
        return None
    token = None
    with contextlib.suppress(SwitchboardError):
        for _ in range(pages):
            page = await client.list_tasks(page_size=100, page_token=token, context=context)
            for task in page.tasks:
                if any(m.message_id == message_id for m in task.history or []):
                    return task.id
            token = page.next_page_token
            if not token:
                break
    return None


class NeverArrived:
    """What `_lost_send` yields when the message is not at the agent: it may be sent again (once)."""


NEVER_ARRIVED = NeverArrived()


async def _lost_send(
    client: Transport,
    message: Message,
    problem: SwitchboardError,
    policy: FollowPolicy,
    context: CallContext,
    *,
    resent: bool,
) -> AsyncIterator[TurnEvent | str | NeverArrived]:
    """After a send failed before its task id arrived: Notices, then the task id found (a str), NEVER_ARRIVED when
    the agent shows it never got the message and it was not sent again yet, or raise.

    The message id tells: an answer to a task is in that task's history once the agent took it (the task read
    directly, so on v0.3 agents too); a v1.0 agent lists the task a new message made. A connection the agent closed
    while it sat in the pool (its keep-alive timeout, met just as a person answers) drops such a send unread."""
    if isinstance(problem, ProtocolError | UnavailableError | AuthFailedError | CredentialsMissingError):
        raise problem  # refused by the agent (or its issuer), or never delivered
    if message.task_id:
        yield Notice(
            f"the request failed before the agent's answer arrived ({problem.message}); reading task {message.task_id}"
        )
        task = await _get_with_retry(client, message.task_id, policy, context)
        if any(m.message_id == message.message_id for m in task.history or []):
            yield Notice(f"the answer reached task {task.id}; following it instead of sending it again")
            yield task.id
            return
        # Without the task's history (an agent may keep none) there is no telling: never sent twice on a guess.
        if not task.history or not task.status.state.is_interrupted:
            raise problem
    elif not client.lists_tasks:
        raise problem  # no way to tell whether it got there
    else:
        yield Notice(f"the request failed before the agent's answer arrived ({problem.message}); looking for its task")
    if client.lists_tasks:  # a new task for the message (an answer may start one, see _Turn.moved)
        for attempt in range(1, 4):  # the agent may still be storing the task it made
            task_id = await find_task_for_message(client, message.message_id, context=context)
            if task_id:
                yield Notice(f"found task {task_id} by the message id; following it instead of sending again")
                yield task_id
                return
            await asyncio.sleep(policy.delay(attempt))
    if resent or not isinstance(problem, UnreachableError):
        raise problem  # a timeout may be an agent still at work on it; and a message goes again once at most
    yield Notice(f"the agent never got the message ({problem.message}); sending it again", "warning")
    yield NEVER_ARRIVED


class _Progress:
    """When the task last changed, for FollowPolicy.idle_limit: looked at where the follower checks on it (each
    reconciliation, each poll), never per event."""

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.loop = asyncio.get_running_loop()
        self.mark: tuple[TaskState, str | None, str | None] | None = None
        self.since = self.loop.time()

    def check(self, task: Task) -> None:
        """Note `task` as seen now; TimedOutError when it has not changed for the limit."""
        status = task.status
        mark = (status.state, status.timestamp, status.message.message_id if status.message else None)
        now = self.loop.time()
        if mark != self.mark:
            self.mark, self.since = mark, now
        elif self.limit is not None and now - self.since >= self.limit:
            raise TimedOutError(
                f"task {task.id} has not changed for {self.limit:g} s (still {status.state.value})",
                hint="The agent may have stopped working on it: cancel it, or wait and look again later.",
            )


async def poll_task(
    client: Transport,
    task_id: str,
    policy: FollowPolicy,
    *,
    answered: TaskStatus | None = None,
    progress: _Progress | None = None,
    context: CallContext | None = None,
) -> AsyncIterator[Task]:
    """get-task every poll interval until the turn is over; yields each snapshot whose state changed.

    `answered` is the interrupted status a follow-up answered: seen again, it is the agent not having taken the
    answer yet, and the polling goes on. Past the policy's idle_limit without a change, TimedOutError."""
    last = None
    progress = progress or _Progress(policy.idle_limit)  # a follower going over to polling keeps its own
    while True:
        task = await _get_with_retry(client, task_id, policy, context)
        progress.check(task)
        if last is None or task.status != last:
            yield task
        last = task.status
        if task.status.state.ends_turn and not same_status(task.status, answered):
            return
        await asyncio.sleep(policy.poll_interval)


async def follow_turn(
    client: Transport,
    message: Message | None = None,
    *,
    task_id: str | None = None,
    streaming: bool | None = None,
    blocking: bool = True,
    policy: FollowPolicy | None = None,
    view: TaskView | None = None,
) -> AsyncGenerator[TurnEvent, None]:
    """Send `message` (or re-attach to `task_id`) and yield every event until the turn ends.

    Without streaming, the send blocks until the turn ends, then polls only if it has not; `blocking` False
    has the agent answer at once with the task as it stands (so its id is known early), then polls.

    A refused request raises. Once a task exists, its turn always ends with the task's real state: a
    stream error is reported as a Notice and the task is read. Every event is folded into `view` (pass
    your own to read the task as it goes; it is applied once, before the event is yielded).
    """
    if message is None and task_id is None:
        raise ValueError("follow_turn needs a message or a task id")
    policy = policy or FollowPolicy()
    view = view if view is not None else TaskView()
    retries: list[str] = []  # this turn's own: the transport may carry other turns at the same time
    context = CallContext(on_retry=retries.append)
    async for event in _follow(client, message, task_id, streaming, blocking, policy, view, context):
        while retries:
            yield Notice(retries.pop(0), "warning")
        yield event
    while retries:
        yield Notice(retries.pop(0), "warning")


class _Turn:
    """A follow's view of its turn: the task a follow-up answers, and its question once the agent shows it."""

    def __init__(self, view: TaskView, message: Message | None) -> None:
        self.view = view
        self.asked_task = message.task_id if message is not None else None  # the task a follow-up answers

    @property
    def over(self) -> bool:
        return self.view.turn_over

    def opening(self, event: StreamEvent) -> None:
        """The first event of a follow-up's stream may be the task as it stood, still asking: from then on the
        view takes that status for the question being answered (see TaskView.answered)."""
        if (
            self.asked_task is not None
            and type(event) is Task
            and event.status.state.is_interrupted
            and self.view.answered is None
        ):
            self.view.answered = event.status

    def moved(self, event: StreamEvent | Message) -> Notice | None:
        """Before the view knows its task: a Notice when `event` takes the follow-up to another task."""
        task_id = event.id if type(event) is Task else event.task_id
        if self.asked_task is None or not task_id or task_id == self.asked_task:
            return None
        return Notice(
            f"the agent answered under a new task, {task_id} (task {self.asked_task} did not go on); "
            "following the new task",
            "warning",
            kind="new-task",
            task_id=task_id,
        )


def _known(*ids: str | None) -> str:
    """The first of `ids` there is, where the follower knows it has one: follow_turn takes a message or a task
    id, a send that names no task ends the follow before any read, and a lost send raises unless it finds one."""
    known = next((i for i in ids if i), None)
    assert known is not None, "the follower reads a task only once it knows its id"
    return known


async def _follow(
    client: Transport,
    message: Message | None,
    task_id: str | None,
    streaming: bool | None,
    blocking: bool,
    policy: FollowPolicy,
    view: TaskView,
    context: CallContext,
) -> AsyncIterator[TurnEvent]:
    use_stream = client.streams if streaming is None else streaming
    turn = _Turn(view, message)

    if not use_stream:
        resent = False
        while message is not None:
            try:
                result = await client.send(message, blocking=blocking, context=context)
            except SwitchboardError as exc:
                async for found in _lost_send(client, message, exc, policy, context, resent=resent):
                    if isinstance(found, NeverArrived):
                        resent = True
                    elif isinstance(found, str):
                        task_id = found
                    else:
                        yield found
                if resent and task_id is None:
                    continue  # the agent never got it: sent again, once
                break
            if moved := turn.moved(result):
                yield moved
            if not blocking:
                turn.opening(result)  # the task as it stood when the message arrived
            view.apply(result)
            yield result
            if turn.over or view.task_id is None:
                return
            break
        known = _known(view.task_id, task_id)
        async for task in poll_task(client, known, policy, answered=view.answered, context=context):
            view.apply(task)
            yield task
        return

    # A stream made by polling is silent while nothing changes: no stall to watch for.
    stall_timeout = None if client.polled else policy.stall_timeout
    watch = StallWatch(stall_timeout)
    source = (
        client.stream(message, on_open=watch.opened, context=context)
        if message is not None
        else client.subscribe(_known(task_id), on_open=watch.opened, context=context)
    )
    if task_id:
        view.task_id = task_id
    attempts = 0
    reattached = False
    resent = False  # the message went a second time, after the agent was seen not to have it
    progress = _Progress(policy.idle_limit)
    while True:
        problem: SwitchboardError | None = None
        events = until_stall(source, watch)
        first = True
        ending = False  # the turn is over, and the stream still open: the agent has close_grace to go on
        try:
            while True:
                try:
                    if ending:
                        async with asyncio.timeout(policy.close_grace):
                            event = await anext(events)
                    else:
                        event = await anext(events)
                except StopAsyncIteration:
                    break
                except TimeoutError:
                    if not ending:
                        raise
                    state = view.state.value if view.state else "replied"
                    yield Notice(
                        f"the agent kept the stream open {policy.close_grace:g} s after the task became {state}; "
                        "taking that as the end of the turn"
                    )
                    break
                if first and not reattached:
                    turn.opening(event)
                first = False
                if view.task_id is None and (moved := turn.moved(event)):
                    yield moved
                view.apply(event)
                yield event
                if type(event) is StatusUpdate and event.final:
                    break  # v0.3: the agent sends nothing after this
                ending = turn.over
                if ending and view.state is TaskState.AUTH_REQUIRED:
                    # The spec has the agent keep this stream open for a credential that may come out of band:
                    # its close is not to be waited for. The person answers the question now.
                    break
        except StreamBrokenError as exc:
            problem = exc
        except ProtocolError as exc:
            if view.task_id is None:
                raise  # nothing to reconcile: the request itself was refused
            if message is None and first and not reattached and exc.code == "TaskNotFoundError":
                raise  # no such task: nothing to read either
            # An error frame mid-stream (an executor crash), or subscribing to a task that has finished:
            # the task itself says how it ended.
            problem = exc
            if not (message is None and first and not reattached):  # that case is read below, quietly if it ended
                yield Notice(f"the agent reported {exc.code}: {exc.message}", "warning")
        except SwitchboardError as exc:
            # The request failed before any event: unreachable, a gateway error, an answer that is not A2A.
            if view.task_id is None and (message is None or reattached):
                raise
            problem = exc
        finally:
            watch.stop()  # no timer outlives the stream
            await events.aclose()  # a stream left before its end (v0.3 final, the grace) lets go of its connection
        if turn.over and not reattached:
            return
        if message is None and first and not reattached:
            # A subscribe that gave nothing: stacks refuse one to a task that has ended (each with its own error,
            # or by closing the stream). A normal case, not a fault: the task is the answer if it did end.
            task = await _get_with_retry(client, _known(view.task_id), policy, context)
            view.apply(task)
            yield task
            if turn.over:
                return
            if isinstance(problem, ProtocolError):
                yield Notice(f"the agent reported {problem.code}: {problem.message}", "warning")
        if view.task_id is None:
            problem = problem or InvalidResponseError(
                f"the stream from {client.url} closed before the agent said anything",
                hint="Run with --verbose to see the exchange.",
                url=client.url,
            )
            if message is None or reattached:
                raise problem
            again = False
            async for found in _lost_send(client, message, problem, policy, context, resent=resent):
                if isinstance(found, NeverArrived):
                    again = resent = True
                elif isinstance(found, str):
                    view.task_id = found
                else:
                    yield found
            if again:  # the agent never got it: sent again, once, as a new stream
                watch = StallWatch(stall_timeout)
                source = client.stream(message, on_open=watch.opened, context=context)
                continue
        known = _known(view.task_id)  # from the caller, an event, or the lost send (which raises if it finds none)
        if not turn.over:
            why = f"broke ({problem.message})" if problem else "closed"
            yield Notice(f"the stream {why} before the turn ended; reading the task", "warning")
        task = await _get_with_retry(client, known, policy, context)
        view.apply(task)
        yield task
        if turn.over:
            yield Notice(f"reconciled with get-task: {task.status.state.value}")
            return
        progress.check(task)
        attempts += 1
        if attempts > policy.max_reattach:
            yield Notice("the stream keeps dropping; polling instead", "warning")
            polling = poll_task(client, known, policy, answered=view.answered, progress=progress, context=context)
            async for polled in polling:
                view.apply(polled)
                yield polled
            return
        await asyncio.sleep(policy.delay(attempts))
        yield Notice(f"task is still {task.status.state.value}; re-subscribing (attempt {attempts})")
        watch = StallWatch(stall_timeout)
        source = client.subscribe(known, on_open=watch.opened, context=context)
        reattached = True
