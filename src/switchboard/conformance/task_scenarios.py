"""The scenarios on the probe's own task: the message that starts it (send), then reading it (get), finding it in
the list (list) and canceling it, with subscriptions open across the cancel (subscriptions.py). Each takes the
interface's Probe, keeps the task as last seen in `p.task`, and adds its findings there."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..a2a.client import new_message
from ..a2a.errors import ProtocolError
from ..a2a.model import Message, TaskState
from . import subscriptions
from .error_codes import PROBE_TEXT, TASK_NOT_CANCELABLE

if TYPE_CHECKING:
    from .interface_probe import Probe


async def send(p: Probe) -> None:
    # Not blocking (returnImmediately): an agent that works for minutes answers at once with the task, which
    # the scenarios after this one read, re-attach to and cancel while it runs.
    result = await p.t.send(new_message(PROBE_TEXT), blocking=False)
    if isinstance(result, Message):
        p.judge("send", True, "a direct message (no task)", op="send", answered="a Message")
        return
    p.task = result
    answered = f"a Task, {result.status.state.value}"
    if not result.id or not result.context_id:
        p.judge("task fields", False, "the task came back without an id or a contextId", op="send",
                answered=answered, scenario="send")  # fmt: skip
        return
    p.judge("send", True, answered, op="send", answered=answered)


async def get(p: Probe) -> None:
    if p.task is None:
        p.add("get", "skip", "the agent answered with a message: no task to read", op="get")
        return
    got = await p.t.get_task(p.task.id)
    answered = f"a Task, {got.status.state.value}"
    if got.id != p.task.id:
        p.judge("get", False, f"asked for task {p.task.id}, got {got.id}", op="get", answered=answered)
        return
    p.task = got
    p.judge("get", True, f"the task, {got.status.state.value}", op="get", answered=answered)


async def list_tasks(p: Probe) -> None:
    if not getattr(p.t, "lists_tasks", False):
        p.add("list", "skip", "ListTasks is not part of this protocol version")
        return
    # An absent nextPageToken is the empty string in ProtoJSON (defaults are left out): the last page.
    page = await p.t.list_tasks(page_size=50)
    answered = f"{len(page.tasks)} task(s)"
    if p.task is not None and p.task.id not in {t.id for t in page.tasks} and not page.next_page_token:
        p.judge("list", False, f"{answered}, without the one just sent", op="list", answered=answered)
    else:
        p.judge("list", True, answered, op="list", answered=answered)


async def cancel(p: Probe) -> None:
    if p.task is None:
        p.add("cancel", "skip", "the agent answered with a message: no task to cancel", op="cancel")
        return
    terminal = p.task.status.state.is_terminal
    before = p.task.status.state.value
    # A subscription open across the cancel MUST show the task's end and close (§3.1.6).
    watch = await subscriptions.open_watches(p, p.task.id) if p.card.capabilities.streaming and not terminal else None
    try:
        answered_task = await p.t.cancel_task(p.task.id)
    except ProtocolError as exc:
        if watch:
            await subscriptions.judge_watches(p, watch, canceled=False)
        answered = f"error {exc.rpc_code} {exc.code}"
        if exc.rpc_code == TASK_NOT_CANCELABLE:
            said = f"TaskNotCancelableError (the task was {before})"
            # Fine for an ended task; for one still going, the agent may refuse (a cancel is a request).
            p.judge("cancel: ended task" if terminal else "cancel", True, said, op="cancel",
                    answered=answered, scenario="cancel")  # fmt: skip
            return
        raise
    except BaseException:
        if watch:
            await subscriptions.close_watches(watch)
        raise
    state = answered_task.status.state
    if state.is_terminal and answered_task.id == p.task.id:
        p.task = answered_task  # an ended task: what "ended task: send" writes to
    if watch:
        await subscriptions.judge_watches(p, watch, canceled=state is TaskState.CANCELED)
    answered = f"a Task, {state.value}"
    if terminal:  # even "canceled": a task that had ended cannot be canceled (§3.1.5)
        said = f"an ended task ({before}) answered with a task ({state.value}), not TaskNotCancelableError"
        p.judge("cancel: ended task", False, said, op="cancel", answered=answered, scenario="cancel")
    elif state is TaskState.CANCELED:
        p.judge("cancel", True, f"the task, {state.value}", op="cancel", answered=answered)
    else:
        said = f"answered with the task still {state.value}: a cancel returns the task's updated state, canceled"
        p.judge("cancel", False, said, op="cancel", answered=answered)
