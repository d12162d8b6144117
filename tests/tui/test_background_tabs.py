"""A tab in the background draws nothing while its stream goes on (a layout change anywhere lays the whole screen
out again) and catches up as soon as it is shown; the turn's end is drawn in the background too."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from functools import partial

from scenes import CONTEXT, TASK, ScriptedLink, build_app, card, settle
from textual.widgets import TabbedContent
from tui_support import open_highlighted
from tui_support import until as wait_until

from switchboard.a2a.model import (
    Artifact,
    ArtifactUpdate,
    Message,
    Role,
    StatusUpdate,
    TaskState,
    TaskStatus,
    TextPart,
)
from switchboard.tui.widgets.conversation_view import ConversationView
from switchboard.tui.widgets.transcript import ArtifactBox

SIZE = (120, 40)


def chunk(text: str, append: bool) -> ArtifactUpdate:
    artifact = Artifact(artifact_id="doc", name="doc", parts=[TextPart(text=text)])
    return ArtifactUpdate(task_id=TASK, context_id=CONTEXT, artifact=artifact, append=append)


@dataclass
class SteppedLink(ScriptedLink):
    """Streams a first chunk, more when `more` is set, and completes when `end` is set."""

    more: asyncio.Event = field(default_factory=asyncio.Event)
    end: asyncio.Event = field(default_factory=asyncio.Event)

    async def follow(self, message: Message, policy=None) -> AsyncIterator:
        self.sent.append(message)
        yield chunk("first part\n\n", append=False)
        await self.more.wait()
        for i in range(20):
            yield chunk(f"while hidden {i}\n\n", append=True)
        await self.end.wait()
        yield chunk("the end\n", append=True)
        done = Message(message_id="m-done", role=Role.AGENT, parts=[TextPart(text="done")])
        yield StatusUpdate(task_id=TASK, context_id=CONTEXT, status=TaskStatus(state=TaskState.COMPLETED, message=done))


until = partial(wait_until, timeout=30, every=0.02)


def drawn(view: ConversationView) -> str:
    boxes = view.query(ArtifactBox)
    return boxes.first().source if boxes else ""


async def test_a_background_tab_draws_its_stream_when_shown_and_its_end_at_once(tmp_path):
    link = SteppedLink("writer", card("writer"), [])
    app = build_app(tmp_path, links={"writer": link})
    async with app.run_test(size=SIZE) as pilot:
        view = await open_highlighted(pilot)  # the first agent of the scene: writer
        await settle(pilot, 0.2)
        await pilot.press(*"hi", "enter")
        pane_id = view.parent.id
        await until(lambda: "first part" in drawn(view))

        await pilot.press("f1")  # the conversation goes to the background
        tabs = app.screen.query_one(TabbedContent)
        await until(lambda: tabs.active == "agents-tab")
        link.more.set()
        await until(lambda: "while hidden 19" in view.conversation.last.view.artifacts["doc"].text)
        await settle(pilot, 0.3)
        assert "while hidden" not in drawn(view)

        tabs.active = pane_id  # shown again: it catches up
        await until(lambda: "while hidden 19" in drawn(view))

        await pilot.press("f1")
        await until(lambda: tabs.active == "agents-tab")
        link.end.set()  # the turn ends in the background: its end is drawn all the same
        await until(lambda: not view.running)
        await until(lambda: drawn(view).endswith("the end\n"))
        assert drawn(view) == view.conversation.last.view.artifacts["doc"].text
