"""Ending a turn early: ctrl+g stops the stream at once and the cancel request goes out without holding up the
keys; a view closed while its turn ends does not crash the app."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from functools import partial

from scenes import CONTEXT, TASK, ScriptedLink, build_app, card, settle
from textual.worker import NoActiveWorker, get_current_worker
from tui_support import open_highlighted
from tui_support import until as wait_until

from switchboard.a2a.cancel import CancelOutcome
from switchboard.a2a.errors import SwitchboardError
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
from switchboard.tui.widgets.conversation_view import ConversationView
from switchboard.tui.widgets.transcript import TurnView
from switchboard.tui.widgets.wire_view import WireView

SIZE = (120, 40)


def update(text: str, i: int, last: bool = False) -> ArtifactUpdate:
    artifact = Artifact(artifact_id="big", name="big", parts=[TextPart(text=text)])
    return ArtifactUpdate(task_id=TASK, context_id=CONTEXT, artifact=artifact, append=i > 0, last_chunk=last)


def completed() -> StatusUpdate:
    message = Message(message_id="m-done", role=Role.AGENT, parts=[TextPart(text="done")])
    return StatusUpdate(task_id=TASK, context_id=CONTEXT, status=TaskStatus(state=TaskState.COMPLETED, message=message))


async def open_and_send(pilot, text: str) -> ConversationView:
    view = await open_highlighted(pilot)  # the first agent of the scene: writer
    await settle(pilot, 0.2)
    await pilot.press(*text, "enter")
    return view


until = partial(wait_until, timeout=60, every=0.02)


@dataclass
class EndlessLink(ScriptedLink):
    """Streams small chunks without end; answers a cancel only when `answer` is set (a busy agent)."""

    answer: asyncio.Event = field(default_factory=asyncio.Event)
    refuse: bool = False  # the cancel fails: the task goes on, and `resume` follows it to its end
    unconfirmed: bool = False  # the agent answers with the task still working, and does not end it in time
    chunks: int = 0
    closed: bool = False
    canceled: list[str] = field(default_factory=list)

    async def follow(self, message: Message, policy=None) -> AsyncIterator:
        self.sent.append(message)
        try:
            while True:
                yield update(f"chunk {self.chunks}\n\n", self.chunks)
                self.chunks += 1
                await asyncio.sleep(0.001)
        finally:
            self.closed = True

    async def resume(self, task_id: str, policy=None) -> AsyncIterator:
        yield update("after the refusal\n", self.chunks, last=True)
        yield completed()

    async def cancel(self, task_id: str) -> CancelOutcome:
        self.canceled.append(task_id)
        await self.answer.wait()
        if self.refuse:
            raise SwitchboardError("the task cannot be canceled now")
        if self.unconfirmed:
            task = Task(id=task_id, context_id=CONTEXT, status=TaskStatus(state=TaskState.WORKING))
            return CancelOutcome(task, confirmed=False)
        task = Task(id=task_id, context_id=CONTEXT, status=TaskStatus(state=TaskState.CANCELED))
        return CancelOutcome(task, confirmed=True)


async def start_endless(pilot, link: EndlessLink) -> ConversationView:
    view = await open_and_send(pilot, "flood")
    await until(lambda: link.chunks > 200 and view.conversation.task_id is not None)
    view.query_one("#message").focus()
    await pilot.press("ctrl+g")
    # The stream is let go at once, though the agent has not answered the cancel yet.
    await until(lambda: not view.running and link.closed)
    assert link.canceled == [TASK]
    assert view.canceling
    return view


async def test_ctrl_g_stops_an_endless_stream_before_the_agent_answers_and_the_keys_still_work(tmp_path):
    link = EndlessLink("writer", card("writer"), [])
    app = build_app(tmp_path, links={"writer": link})
    async with app.run_test(size=SIZE) as pilot:
        view = await start_endless(pilot, link)
        stopped_at = link.chunks
        # While the cancel request waits for its answer, a key is handled.
        await pilot.press("f2")
        await until(
            lambda: bool(app.screen.query(WireView)) and not app.screen.query_one(WireView).has_class("-hidden")
        )
        await pilot.press(*"hello", "enter")  # refused while canceling, not sent
        await settle(pilot, 0.1)
        assert len(link.sent) == 1
        link.answer.set()
        await until(lambda: view.conversation.last.view.state is TaskState.CANCELED and not view.canceling)
        assert link.chunks == stopped_at  # nothing more was read after ctrl+g
        assert link.canceled == [TASK]


async def test_a_refused_cancel_follows_the_task_again_to_its_end(tmp_path):
    link = EndlessLink("writer", card("writer"), [], refuse=True)
    app = build_app(tmp_path, links={"writer": link})
    async with app.run_test(size=SIZE) as pilot:
        view = await start_endless(pilot, link)
        link.answer.set()
        await until(lambda: view.conversation.last.view.state is TaskState.COMPLETED and not view.running)
        assert not view.canceling
        assert view.conversation.last.view.artifacts["big"].text.endswith("after the refusal\n")


async def test_a_cancel_the_agent_has_not_confirmed_is_said_and_the_task_followed_again(tmp_path):
    link = EndlessLink("writer", card("writer"), [], unconfirmed=True)
    app = build_app(tmp_path, links={"writer": link})
    notices: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        app.notify = lambda message, **kw: notices.append(str(message))  # type: ignore[method-assign]
        view = await start_endless(pilot, link)
        timeline = len(view.conversation.last.view.timeline)
        link.answer.set()
        # The agent goes on: the view follows the task again, to the end `resume` plays, and never says canceled.
        await until(lambda: view.conversation.last.view.state is TaskState.COMPLETED and not view.running)
        assert not view.canceling
        assert any("has not confirmed the cancel" in n and "still working" in n for n in notices), notices
        assert "task canceled" not in notices
        states = [s.state for s in view.conversation.last.view.timeline[timeline:]]
        assert TaskState.WORKING not in states  # the pre-cancel answer added no blank working line


@dataclass
class GatedLink(ScriptedLink):
    """A turn that starts, then ends only when `gate` is set."""

    gate: asyncio.Event = field(default_factory=asyncio.Event)

    async def follow(self, message: Message, policy=None) -> AsyncIterator:
        self.sent.append(message)
        yield update("some text\n", 0)
        await self.gate.wait()
        yield update("the end\n", 1, last=True)
        yield completed()


async def test_a_turn_that_ends_while_its_view_is_being_removed_does_not_crash(tmp_path):
    link = GatedLink("writer", card("writer"), [])
    app = build_app(tmp_path, links={"writer": link})
    async with app.run_test(size=SIZE) as pilot:
        view = await open_and_send(pilot, "hi")
        await until(lambda: view._turn_view is not None)
        area = view.query_one("#message")
        removed = view.remove()
        # Textual takes the children away first: the message box is gone while the view is still attached,
        # and the view's workers are stopped only at the end. The turn ends in that window.
        async with asyncio.timeout(10):
            while area.is_attached:
                await asyncio.sleep(0)
        assert view.is_attached
        link.gate.set()
        await removed
        await settle(pilot, 0.2)
        assert not view.is_attached
        assert app.is_running and app.return_code is None


async def test_a_view_removed_during_the_turns_last_render_does_not_crash(tmp_path):
    """The turn's end passed its "still here?" check, then its last render awaited, and the tab began to close in
    that wait (the app quitting did it in CI): what follows the render touched the message box that was gone."""
    link = GatedLink("writer", card("writer"), [])
    app = build_app(tmp_path, links={"writer": link})
    async with app.run_test(size=SIZE) as pilot:
        view = await open_and_send(pilot, "hi")
        await until(lambda: view._turn_view is not None)
        area = view.query_one("#message")
        render = view._sync
        removing: list[object] = []

        async def render_then_close() -> None:
            await render()
            try:
                get_current_worker()
            except NoActiveWorker:
                return  # a frame's render, not the turn's own
            if link.gate.is_set() and not removing:
                removing.append(view.remove())
                async with asyncio.timeout(10):
                    while area.is_attached:  # the children go first; the view and its worker stay a while
                        await asyncio.sleep(0)

        view._sync = render_then_close  # type: ignore[method-assign]
        link.gate.set()
        await until(lambda: bool(removing))
        await removing[0]  # type: ignore[misc]
        await settle(pilot, 0.2)
        assert not view.is_attached
        assert app.is_running and app.return_code is None


async def test_a_frame_drawn_while_a_turns_view_mounts_does_not_crash(tmp_path):
    """A frame's sync (the throttle's timer) can run while a new turn's view is being mounted, before it has composed
    its parts: it must not reach into that view (a loaded full run failed on the missing turn head)."""
    link = GatedLink("writer", card("writer"), [])
    app = build_app(tmp_path, links={"writer": link})
    async with app.run_test(size=SIZE) as pilot:
        view = await open_highlighted(pilot)
        await settle(pilot, 0.2)
        transcript = view.query_one(".transcript")
        mount = transcript.mount
        drawn: list[bool] = []

        def mount_after_a_frame(*widgets, **kwargs):
            async def mounted():
                if any(isinstance(w, TurnView) for w in widgets):
                    await view._sync()  # the frame lands here, before the turn's view has its parts
                    drawn.append(True)
                return await mount(*widgets, **kwargs)

            return mounted()

        transcript.mount = mount_after_a_frame  # type: ignore[method-assign]
        await pilot.press(*"hi", "enter")
        await until(lambda: bool(drawn) and view._turn_view is not None)
        link.gate.set()
        await until(lambda: not view.running)
        assert app.is_running and app.return_code is None
        assert "the end" in view.conversation.last.view.output_text


async def test_a_tab_opened_as_the_app_quits_does_not_crash(tmp_path):
    """An agent's enter pressed as the app quits: the new tab was being added while the app's tabs went, and showing
    it raised Textual's "No Tab with id" (seen in a loaded run, in the quit after a failed test)."""
    from textual.widgets import TabbedContent

    from switchboard.tui.widgets.agents_pane import AgentsPane

    app = build_app(tmp_path)
    async with app.run_test(size=SIZE):
        agents = app.screen.query_one(AgentsPane)
        await until(lambda: "writer" in agents.statuses)
        tabs = app.screen.query_one(TabbedContent)
        add_pane = tabs.add_pane

        def quit_while_adding(pane):
            app.exit()  # the quit lands while the pane is added
            return add_pane(pane)

        tabs.add_pane = quit_while_adding  # type: ignore[method-assign]
        agents.post_message(AgentsPane.OpenConversation(agents.statuses["writer"]))
        await until(lambda: not app.is_running)
    assert app.return_code == 0


async def test_an_inbox_read_or_answer_that_ends_after_the_app_quit_does_not_crash(tmp_path):
    """An answer sent from the inbox ended as the app quit, and its refresh looked for the inbox's list, already gone
    (seen in a loaded run, as a worker's NoMatches at the quit)."""
    from switchboard.tui.widgets.inbox_pane import InboxPane

    app = build_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        inbox = app.screen.inbox
        await pilot.press("f5")  # the inbox shown: its list is redrawn as each second passes
        await app.screen.query_one(InboxPane).remove()  # as the quit does: the screen's widgets go first
        later = app.clock() + 5
        app.clock = lambda: later
        inbox.refresh()  # what the answer's worker does last
        assert inbox.items == [] and app.is_running
