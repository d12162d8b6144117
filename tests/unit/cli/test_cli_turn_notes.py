"""The oddities the turn reducer notes reach the person on stderr as warnings, as the events arrive."""

from __future__ import annotations

from types import SimpleNamespace

from switchboard.a2a.model import Artifact, ArtifactUpdate, StatusUpdate, TaskState, TaskStatus, TextPart
from switchboard.a2a.turn import TaskView
from switchboard.cli.following import consume_turn
from switchboard.cli.output import Out


async def events(view: TaskView):
    """What follow_turn does: fold each event into the caller's view, then yield it."""
    stray = Artifact(artifact_id="a9", parts=[TextPart(text="late\x1b[2J")])
    for event in (
        StatusUpdate(task_id="t1", context_id="c1", status=TaskStatus(state=TaskState.COMPLETED)),
        StatusUpdate(task_id="t1", context_id="c1", status=TaskStatus(state=TaskState.WORKING)),  # after the end
        ArtifactUpdate(task_id="t1", context_id="c1", artifact=stray, append=True),  # appends to nothing
    ):
        view.apply(event)
        yield event


async def test_reducer_notes_are_warned_once_each_without_control_sequences(capsys):
    args = SimpleNamespace(output="text")
    view = TaskView()
    await consume_turn(events(view), view, args, Out(), live=False)
    err = capsys.readouterr().err.splitlines()
    assert view.state is TaskState.COMPLETED  # the late working state was ignored
    assert err == [f"warning: {note}" for note in view.notes]
    assert any("after the task ended" in line for line in err)
    assert any("never started" in line for line in err)
    assert not any("\x1b" in line for line in err)
