"""Property tests of the turn reducer: any events, in any order, never raise; impossible orders become notes."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from properties_support import events

from switchboard.a2a.model import (
    Artifact,
    ArtifactUpdate,
    Message,
    Role,
    StatusUpdate,
    Task,
    TaskState,
    TaskStatus,
    TextPart,
)
from switchboard.a2a.turn import TaskView
from switchboard.a2a.wire import v03, v10
from switchboard.a2a.wire.common import MAX_NOTES, Notes


def task_of(event) -> str | None:
    return event.id if isinstance(event, Task) else event.task_id


@settings(max_examples=120)
@given(st.lists(events, max_size=12))
def test_any_event_sequence_is_folded_without_raising(sequence):
    view = TaskView()
    first_terminal = None
    for event in sequence:
        view.apply(event)
        if first_terminal is None and view.state is not None and view.state.is_terminal:
            first_terminal = view.state
        if first_terminal is not None:
            assert view.state is first_terminal, "a terminal state is final"
    assert view.events == len(sequence)
    assert len(view.notes) <= MAX_NOTES
    mine = {task_of(e) for e in sequence if task_of(e)}
    assert view.task_id is None or view.task_id in mine
    task = view.to_task()
    if task is not None:
        for codec in (v10, v03):  # whatever the view holds can be written out and read back
            assert codec.decode_task(codec.encode_task(task), Notes()).id == task.id


@settings(max_examples=120)
@given(st.lists(events, max_size=12))
def test_artifact_text_is_the_chunks_of_this_task_joined_as_sent(sequence):
    view, expected, current = TaskView(), {}, None
    for event in sequence:
        view.apply(event)
        owner = task_of(event)
        if owner and current and owner != current:
            continue
        current = current or owner
        if isinstance(event, ArtifactUpdate):
            known = event.artifact.artifact_id in expected
            before = expected.get(event.artifact.artifact_id, "") if event.append and known else ""
            expected[event.artifact.artifact_id] = before + event.artifact.text
        elif isinstance(event, Task):
            for artifact in event.artifacts or []:
                expected[artifact.artifact_id] = artifact.text
    assert {k: a.text for k, a in view.artifacts.items()} == expected


def chunk(text: str, *, task: str = "t1", append: bool = False, last: bool = False) -> ArtifactUpdate:
    artifact = Artifact(artifact_id="a1", parts=[TextPart(text=text)])
    return ArtifactUpdate(
        task_id=task, context_id="c1", artifact=artifact, append=append or None, last_chunk=last or None
    )


def update(state: TaskState, task: str = "t1") -> StatusUpdate:
    return StatusUpdate(task_id=task, context_id="c1", status=TaskStatus(state=state))


def test_an_artifact_update_before_any_task_starts_the_view():
    view = TaskView().apply(chunk("hello"))
    assert view.task_id == "t1" and view.artifacts["a1"].text == "hello"


def test_a_status_after_a_terminal_state_is_a_note_and_the_state_stays():
    view = TaskView().apply(update(TaskState.COMPLETED)).apply(update(TaskState.WORKING))
    assert view.state is TaskState.COMPLETED
    assert view.notes == ["ignored state working after the task ended completed"]
    view.apply(update(TaskState.COMPLETED))  # the same state again (a snapshot after the stream) is no oddity
    assert len(view.notes) == 1


def test_a_snapshot_after_a_terminal_state_still_settles_the_artifacts():
    artifact = Artifact(artifact_id="a1", parts=[TextPart(text="whole")])
    snapshot = Task(id="t1", context_id="c1", status=TaskStatus(state=TaskState.WORKING), artifacts=[artifact])
    view = TaskView().apply(update(TaskState.FAILED)).apply(snapshot)
    assert view.state is TaskState.FAILED and view.artifacts["a1"].text == "whole" and view.notes


def test_chunks_after_the_last_chunk_are_kept_with_a_note():
    view = TaskView().apply(chunk("one ", last=True)).apply(chunk("two", append=True))
    assert view.artifacts["a1"].text == "one two"
    assert view.notes == ["artifact a1 got another chunk after its last chunk"]


def test_append_to_an_unknown_artifact_starts_it_with_a_note():
    view = TaskView().apply(chunk("middle", append=True))
    assert view.artifacts["a1"].text == "middle"
    assert view.notes == ["append to artifact a1, which never started; taken as its start"]


def test_events_of_another_task_are_ignored_with_a_note():
    view = TaskView().apply(chunk("mine")).apply(chunk("theirs", task="t2")).apply(update(TaskState.FAILED, task="t2"))
    assert view.artifacts["a1"].text == "mine" and view.state is None
    assert len(view.notes) == 2 and "task t2" in view.notes[0]
    reply = Message(message_id="m", role=Role.AGENT, parts=[TextPart(text="hi")], task_id="t2")
    view.apply(reply)
    assert view.history == [] and len(view.notes) == 3


def test_notes_are_bounded_under_a_flood_of_oddities():
    view = TaskView().apply(update(TaskState.CANCELED))
    for _ in range(MAX_NOTES + 50):
        view.apply(update(TaskState.WORKING))
    assert len(view.notes) == MAX_NOTES and view.state is TaskState.CANCELED
