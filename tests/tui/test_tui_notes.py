"""The conversation view shows what was noted about the agent as muted warning lines: the turn reducer's
notes (events in an order the protocol does not allow) and the client's (card lint, decoding oddities)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field

from scenes import CONTEXT, TASK, ScriptedLink, build_app, card, settle
from tui_support import open_highlighted

from switchboard.a2a.model import Artifact, ArtifactUpdate, Message, StatusUpdate, TaskState, TaskStatus, TextPart
from switchboard.a2a.wire.common import Notes
from switchboard.tui.widgets.transcript import NoteLine, TurnView

SIZE = (120, 40)


@dataclass
class NotingLink(ScriptedLink):
    """A scripted link with a client's notes: some from the card fetch, one more while the turn streams."""

    notes: Notes = field(default_factory=lambda: Notes(["card: [b]url[/b] lacks a path"]))

    async def follow(self, message: Message, policy=None) -> AsyncIterator:
        noted = False
        async for event in super().follow(message, policy):
            yield event
            if not noted:
                noted = True
                self.notes.add("decoded a status with an unknown state 'TASK_STATE_DREAMING'")


def events() -> list:
    chunk = Artifact(artifact_id="late", name="late", parts=[TextPart(text="tail")])
    return [
        # an append to an artifact never started, then a state after the task ended: both noted by the reducer
        ArtifactUpdate(task_id=TASK, context_id=CONTEXT, artifact=chunk, append=True),
        StatusUpdate(task_id=TASK, context_id=CONTEXT, status=TaskStatus(state=TaskState.COMPLETED)),
        StatusUpdate(task_id=TASK, context_id=CONTEXT, status=TaskStatus(state=TaskState.WORKING)),
    ]


def lines(widgets) -> list[str]:
    return [str(widget.render()) for widget in widgets]


async def test_reducer_and_client_notes_show_as_warning_lines(tmp_path):
    link = NotingLink("writer", card("writer"), [events()])
    app = build_app(tmp_path, links={"writer": link})
    async with app.run_test(size=SIZE) as pilot:
        view = await open_highlighted(pilot)
        await settle(pilot, 0.3)
        # Before any turn: the card fetch's note, in the transcript, its markup shown as text.
        assert lines(view.query(NoteLine)) == ["⚠ card: [b]url[/b] lacks a path"]
        await pilot.press(*"hello", "enter")
        await settle(pilot, 0.5)
        turn_notes = lines(view.query_one(TurnView).query(NoteLine))
        task_notes = view.conversation.last.view.notes
        assert len(task_notes) == 2
        assert turn_notes[:2] == [f"⚠ {note}" for note in task_notes]
        assert "append to artifact late, which never started" in turn_notes[0]
        assert "ignored state working after the task ended completed" in turn_notes[1]
        # The client's notes made during the turn come under it, each once.
        assert turn_notes[2:] == ["⚠ decoded a status with an unknown state 'TASK_STATE_DREAMING'"]
        assert len(view.query(NoteLine)) == 4
