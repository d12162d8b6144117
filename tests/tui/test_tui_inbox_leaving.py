"""What the inbox keeps and lets go of: a task whose tab is closed at its question stays in the inbox (the leave
dialog says so), one of the demo fleet that `switchboard --demo` runs stays only while the app runs, and a
remembered task whose agent cannot be reached is read again seldom, not at every poll, and can be let go of with
ctrl+d."""

from __future__ import annotations

import socket

from tui_support import app_on_fleet, click, demo_app, talk, until

from switchboard.inbox import sources
from switchboard.inbox.store import Remembered, load_remembered, remember
from switchboard.tui.inbox_watch import InboxWatch
from switchboard.tui.screens.leave import LeaveWorkScreen
from switchboard.tui.widgets.conversation_view import ConversationView
from switchboard.tui.widgets.inbox_pane import InboxPane


def items(app):
    return app.screen.inbox.items


async def test_a_task_whose_tab_is_closed_at_its_question_stays_in_the_inbox(fleet, tmp_path, monkeypatch):
    app = app_on_fleet(fleet, tmp_path, monkeypatch)
    async with app.run_test(size=(120, 36)) as pilot:
        view = await talk(pilot, "interviewer", "interview me")
        await until(lambda: [i.where for i in items(app)] == ["conversation tab"])
        task_id = view.conversation.last.view.task_id
        await pilot.press("f4")
        await until(lambda: isinstance(app.screen, LeaveWorkScreen))
        assert "the Inbox (f5, `switchboard inbox`) keeps it" in str(app.screen.query_one(".open-work").render())
        await click(pilot, "#leave")
        await until(lambda: not app.screen.query(ConversationView))
        # Its question left open at the agent: an item of the inbox, as after a restart, read again from the agent.
        await until(lambda: [(i.where, i.note) for i in items(app)] == [("remembered", "")])
        assert items(app)[0].task_id == task_id and [e.task_id for e in load_remembered()] == [task_id]


async def test_a_demo_agents_question_is_in_the_inbox_while_the_app_runs_and_never_kept_past_it(
    fleet, tmp_path, monkeypatch
):
    """Under `switchboard --demo` the fleet runs in the app's process, on new ports at each start, and its tasks end
    when the app quits (the leave dialog says so): its questions are in the inbox while the app runs, a closed tab's
    too, and never written down, so the next start has no task its agent cannot know."""
    app = demo_app(fleet, tmp_path, monkeypatch)
    async with app.run_test(size=(120, 36)) as pilot:
        view = await talk(pilot, "interviewer", "interview me")
        await until(lambda: [i.where for i in items(app)] == ["conversation tab"])
        task_id = view.conversation.last.view.task_id
        await pilot.press("f4")
        await until(lambda: isinstance(app.screen, LeaveWorkScreen))
        said = str(app.screen.query_one(".open-work").render())
        assert "the Inbox (f5) keeps it" in said and "switchboard inbox" not in said
        await click(pilot, "#leave")
        await until(lambda: not app.screen.query(ConversationView))
        await until(lambda: [(i.where, i.note, i.task_id) for i in items(app)] == [("remembered", "", task_id)])
        # Another process writes the file meanwhile: read again, it holds the app's own question still.
        url = items(app)[0].agent_url
        remember(Remembered("interviewer", url, "no-such-task", "", "input-required", "Old question?", 1.0))
        await until(lambda: [i.task_id for i in items(app)] == ["no-such-task", task_id])
        # Answered in the inbox: the agent's next question is the item's, kept as the first was.
        await pilot.press("f5")
        pane = app.screen.query_one(InboxPane)
        await until(lambda: pane.highlighted() is not None and pane.query_one("#inbox-filter").has_focus)
        await pilot.press("down")  # the made-up one is from 1970: oldest, first
        await until(lambda: pane.highlighted() is not None and pane.highlighted().task_id == task_id)
        await pilot.press("enter")
        await until(lambda: pane.query("PromptPane Input") and pane.query_one("PromptPane Input").has_focus)
        await pilot.press(*"Ada", "enter")
        await until(lambda: "Nice to meet you, Ada" in "".join(i.question for i in items(app)))
        assert [e.task_id for e in load_remembered()] == ["no-such-task"]  # never the demo task
    assert [e.task_id for e in load_remembered()] == ["no-such-task"]


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def test_a_remembered_task_whose_agent_is_gone_is_read_seldom_and_let_go_of(fleet, tmp_path, monkeypatch):
    app = app_on_fleet(fleet, tmp_path, monkeypatch)
    remember(Remembered("ghost", f"http://127.0.0.1:{closed_port()}/", "t-1", "", "input-required", "Still?", 1.0))
    reads: list[str] = []
    reread = sources.reread

    async def counted(entry, open_link, **options):
        reads.append(entry.task_id)
        return await reread(entry, open_link, **options)

    polls: list[int] = []
    poll_each = InboxWatch._poll_each

    async def counted_poll(self) -> None:
        polls.append(len(reads))
        await poll_each(self)

    monkeypatch.setattr(sources, "reread", counted)
    monkeypatch.setattr(InboxWatch, "_poll_each", counted_poll)
    async with app.run_test(size=(120, 36)) as pilot:
        await until(lambda: [i.note[:27] for i in items(app)] == ["not re-read: cannot connect"], timeout=60)
        first = len(polls)
        await until(lambda: len(polls) >= first + 4)  # four polls more: the agent is not tried again yet
        assert reads == ["t-1"]
        await pilot.press("f5")
        await until(lambda: "ctrl+d lets go of it" in str(app.screen.query_one("#inbox-note").render()))
        await pilot.press("ctrl+d")
        await until(lambda: items(app) == [])
        assert load_remembered() == []
