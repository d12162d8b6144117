"""The turn reducer's timeline stays bounded under an endless status stream, and keeps every state change."""

from __future__ import annotations

from switchboard.a2a.model import Message, Role, StatusUpdate, TaskState, TaskStatus, TextPart
from switchboard.a2a.turn import TIMELINE_LIMIT, TIMELINE_RECENT, TaskView

W, S, IR = TaskState.WORKING, TaskState.SUBMITTED, TaskState.INPUT_REQUIRED


def status(state: TaskState, n: int) -> StatusUpdate:
    message = Message(message_id=f"m{n}", role=Role.AGENT, parts=[TextPart(text=f"step {n}")])
    return StatusUpdate(
        task_id="t", context_id="c", status=TaskStatus(state=state, message=message, timestamp=f"ts{n}")
    )


def test_endless_same_state_statuses_keep_the_timeline_bounded() -> None:
    view = TaskView()
    view.apply(status(S, 0))
    for n in range(1, 100_001):
        view.apply(status(W, n))
        assert len(view.timeline) <= TIMELINE_RECENT + 2
    view.apply(status(IR, 100_001))

    texts = [s.message.text for s in view.timeline]
    # the two state changes that began the stream, then the newest statuses, the last state change last
    assert texts[:2] == ["step 0", "step 1"]
    assert texts[2:] == [f"step {n}" for n in range(100_001 - TIMELINE_RECENT + 1, 100_002)]
    assert view.timeline_dropped == 100_002 - len(view.timeline)
    assert view.state is IR and view.status is view.timeline[-1]


def test_every_state_change_is_kept_between_runs_of_repeats() -> None:
    view = TaskView()
    states, n = [], 0
    for state in (S, W, S, W):
        for _ in range(3 * TIMELINE_RECENT):
            view.apply(status(state, n))
            states.append(state)
            n += 1
    kept = [int(s.message.text.split()[1]) for s in view.timeline]
    changes = [i for i, state in enumerate(states) if i == 0 or states[i - 1] != state]
    assert kept[:-TIMELINE_RECENT] == changes  # every change, in order, before the newest
    assert kept[-TIMELINE_RECENT:] == list(range(n - TIMELINE_RECENT, n))
    assert view.timeline_dropped == n - len(kept)


def test_a_stream_that_keeps_changing_state_is_bounded_too() -> None:
    view = TaskView()
    for n in range(5 * TIMELINE_LIMIT):
        view.apply(status(S if n % 2 else W, n))
    assert len(view.timeline) == TIMELINE_LIMIT
    assert view.timeline[0].message.text == "step 0"  # how the task began stays
    assert view.timeline[-1].message.text == f"step {5 * TIMELINE_LIMIT - 1}"
    assert view.timeline_dropped == 5 * TIMELINE_LIMIT - TIMELINE_LIMIT
