"""The turn reducer's history stays bounded when every status carries a new message, and a snapshot after
that adds only what is newer than what the view still holds."""

from __future__ import annotations

from switchboard.a2a.model import Message, Role, StatusUpdate, Task, TaskState, TaskStatus, TextPart
from switchboard.a2a.turn import HISTORY_LIMIT, TaskView


def message(n: int) -> Message:
    return Message(message_id=f"m{n}", role=Role.AGENT, parts=[TextPart(text=f"step {n}")], task_id="t")


def status(n: int, state: TaskState = TaskState.WORKING) -> StatusUpdate:
    return StatusUpdate(task_id="t", context_id="c", status=TaskStatus(state=state, message=message(n)))


def ids(view: TaskView) -> list[str]:
    return [m.message_id for m in view.history]


def test_endless_new_status_messages_keep_the_newest_and_count_the_rest() -> None:
    view = TaskView()
    total = 3 * HISTORY_LIMIT + 7
    for n in range(total):
        view.apply(status(n))
        assert len(view.history) <= HISTORY_LIMIT
    assert ids(view) == [f"m{n}" for n in range(total - HISTORY_LIMIT, total)]
    assert view.history_dropped == total - HISTORY_LIMIT
    assert view.status_text == f"step {total - 1}"


def test_a_repeated_message_is_still_kept_once() -> None:
    view = TaskView()
    for n in (0, 1, 1, 0, 2):
        view.apply(status(n))
    assert ids(view) == ["m0", "m1", "m2"]
    assert view.history_dropped == 0


def test_a_snapshot_after_drops_adds_only_what_is_newer_than_the_view_holds() -> None:
    view = TaskView()
    total = HISTORY_LIMIT + 50
    for n in range(total):
        view.apply(status(n))
    # The agent's task lists every message from the first, and two more.
    snapshot = Task(
        id="t",
        context_id="c",
        status=TaskStatus(state=TaskState.COMPLETED, message=message(total + 1)),
        history=[message(n) for n in range(total + 1)],
    )
    view.apply(snapshot)
    assert ids(view) == [f"m{n}" for n in range(total + 2 - HISTORY_LIMIT, total + 2)]
    assert view.history_dropped == total + 2 - HISTORY_LIMIT
    assert len(set(ids(view))) == len(view.history)


def test_without_drops_a_snapshot_adds_every_message_not_seen() -> None:
    view = TaskView()
    view.apply(status(1))
    snapshot = Task(
        id="t", context_id="c", status=TaskStatus(state=TaskState.COMPLETED), history=[message(0), message(1)]
    )
    view.apply(snapshot)
    assert ids(view) == ["m1", "m0"]  # as before the bound: seen once each, in the order they arrived
    assert view.history_dropped == 0
