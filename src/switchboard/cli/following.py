"""Following a task on the command line, shared by the commands that start one (send, task get|subscribe) and the
ones that follow it by push (task watch, send --push): the deadline of --timeout, naming the task when a wait
ends early, reading a turn (printing it live under --stream), and printing what it ended with."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import TYPE_CHECKING, Any

from ..a2a.errors import SwitchboardError, TimedOutError
from ..a2a.follow import FollowPolicy, Notice
from ..a2a.model import Message, StatusUpdate, Task, TaskState, TaskStatus
from ..a2a.turn import TaskView, same_status
from ..a2a.wire import v10
from .context import Target, reply_command, task_command
from .output import Out, warn
from .render import render_event, render_message, render_task, resume_hint, stream_response

if TYPE_CHECKING:
    from ..link import AgentLink
    from .arguments import Connection
    from .groups.task import TaskSubscribeOptions, TaskWatchOptions


@asynccontextmanager
async def deadline(seconds: float | None, what: str) -> AsyncIterator[None]:
    """Turn an expired --timeout into TimedOutError (exit 5), naming what was being waited for."""
    try:
        async with asyncio.timeout(seconds):
            yield
    except TimeoutError:
        raise TimedOutError(
            f"gave up after {seconds:g} s waiting for {what}",
            hint="The task goes on at the agent: `switchboard task get AGENT TASK_ID --wait` picks it up.",
        ) from None


@contextmanager
def naming_the_task(
    args: Connection, target: Target, view: TaskView | None = None, task_id: str | None = None
) -> Iterator[None]:
    """Whatever ends a wait early (--timeout, a broken stream, Ctrl+C), the task is named with the command that
    picks it up: it goes on at the agent, and its id is the way back to it. `view` follows a task this command
    started; `task_id` names one the person gave (then only a timeout needs saying how to pick it up)."""
    view = view or TaskView()

    def pick_up(task_id: str) -> str:
        if target.entry and target.entry.protocol == "tasks":  # `task get` speaks A2A only
            return f"GET {target.ref.rstrip('/')}/tasks/{task_id}"
        return f"{task_command(args, target, 'get', task_id)} --wait"

    try:
        yield
    except SwitchboardError as exc:
        known = view.task_id or (task_id if isinstance(exc, TimedOutError) else None)
        if known and not exc.task_id:
            exc.task_id, exc.context_id = known, view.context_id
            command = f"`{pick_up(known)}`"
            if isinstance(exc, TimedOutError):
                verb = "shows it" if command.startswith("`GET ") else "picks it up"
                exc.hint = f"The task goes on at the agent: {command} {verb}"
                if not command.startswith("`GET "):  # the REST task API has no cancel
                    exc.hint += f", `{task_command(args, target, 'cancel', known)}` stops it"
                exc.hint += "."
            else:
                exc.hint = (exc.hint + " " if exc.hint else "") + f"{command} shows where the task is."
        raise
    except (asyncio.CancelledError, KeyboardInterrupt):
        if view.task_id:
            print(f"Task ID: {view.task_id}", file=sys.stderr)
            if view.context_id:
                print(f"Context ID: {view.context_id}", file=sys.stderr)
            print(f"The task goes on at the agent: {pick_up(view.task_id)}", file=sys.stderr)
        raise


# Without --timeout, a task that stops changing is followed this long past its last change, then given up on with
# its id and how to pick it up or cancel it (an agent whose executor died can leave a task working for good).
IDLE_LIMIT = 600.0


def follow_policy(args: Connection) -> FollowPolicy:
    """How the command line follows a task: --poll-interval, and the idle bound unless --timeout bounds it all."""
    return FollowPolicy(
        poll_interval=getattr(args, "poll_interval", None) or FollowPolicy.poll_interval,
        idle_limit=None if args.timeout is not None else IDLE_LIMIT,
    )


def warn_outcome(state: TaskState | None) -> None:
    if state in (TaskState.FAILED, TaskState.REJECTED, TaskState.CANCELED):
        warn(f"the task ended {state.value}")
    elif state in (TaskState.INPUT_REQUIRED, TaskState.AUTH_REQUIRED):
        warn(f"the task is waiting: {state.value}")


async def consume_turn(
    events: AsyncIterator[Any], view: TaskView, args: Connection, out: Out, *, live: bool
) -> TaskView:
    """Read a turn whose events follow_turn folds into `view`; under --stream print each one as it arrives.

    In text, a task read again that reports the status already printed (a re-attachment's get-task, a poll) is
    not printed again: each state once. JSON lines keep every event, as received."""
    noted = 0
    printed: TaskStatus | None = None
    async for event in events:
        if isinstance(event, Notice):
            warn(event.text)
            continue
        for note in view.notes[noted:]:  # an oddity in the agent's events, said as it happens
            warn(note)
        noted = len(view.notes)
        if live:
            if args.output == "json":
                out.json_line(stream_response(event))
            elif not (isinstance(event, Task) and same_status(event.status, printed)):
                render_event(out, event)
            if isinstance(event, Task | StatusUpdate):
                printed = event.status
    return view


def print_summary(out: Out, args: Connection, agent: str, view: TaskView) -> None:
    """The closing lines of a text stream: ids and state again, and how to answer an interrupted task."""
    out.field("Task ID", view.task_id)
    out.field("Context ID", view.context_id)
    out.field("State", view.state.value if view.state else ("replied" if view.reply else None))
    task = view.to_task()
    if task and view.state and view.state.is_interrupted:
        out.field("Resume", resume_hint(agent, task))


def print_result(out: Out, args: Connection, agent: str, result: Task | Message) -> None:
    if args.output == "json":
        out.json_doc(v10.encode_send_result(result))
        return
    if isinstance(result, Message):
        render_message(out, result)
        return
    render_task(out, result)
    if result.status.state.is_interrupted:
        out.field("Resume", resume_hint(agent, result))
        form_hint(out, agent, result)


def form_hint(out: Out, agent: str, task: Task) -> None:
    """The command that answers the task's A2UI form, when it shows one with an action."""
    from ..a2ui.answer import action_names
    from .a2ui_action import task_surfaces

    names = [n for s in task_surfaces(task).surfaces.values() for n in action_names(s)]
    if names:
        said = "|".join(dict.fromkeys(names))
        command = f'{agent} --task-id {task.id} --a2ui-action {said} --data \'{{"/path": "value"}}\''
        out.field("Answer the form", command)


def print_task(out: Out, args: Connection, agent: str, task: Task) -> None:
    if args.output == "json":
        out.json_doc(v10.encode_task(task))
    else:
        render_task(out, task, history=bool(getattr(args, "history", None)))
        if task.status.state.is_interrupted:
            out.field("Resume", resume_hint(agent, task))


async def print_followed(
    out: Out,
    args: TaskSubscribeOptions | TaskWatchOptions,
    target: Target,
    link: AgentLink,
    view: TaskView,
    task_id: str,
) -> Task | None:
    """The end of a task followed (`task subscribe`, `task watch`): with --stream its summary, else the task as the
    agent has it now; then a warning when it did not complete. The task as it was last seen."""
    if args.stream:
        seen = view.to_task()
        if args.output == "text":
            print_summary(out, args, reply_command(args, target), view)
    else:
        seen = await link.get_task(task_id)
        print_task(out, args, reply_command(args, target), seen)
    warn_outcome(view.state)
    return seen
