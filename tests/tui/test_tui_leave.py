"""Closing a tab (f4) or quitting (ctrl+q) while a task is open at the agent asks first: cancel it, leave it
running, or stay; and says where to find it again. Against the researcher of the demo fleet, whose task works for
half a minute."""

from __future__ import annotations

import httpx
import pytest
from textual.widgets import Button, TabbedContent
from tui_support import app_on_fleet, click, demo_app, demo_fleet, talk, until

from switchboard.a2a.model import TaskState
from switchboard.demo.base import DemoSettings
from switchboard.link import open_link
from switchboard.tui.open_work import OpenWork
from switchboard.tui.screens.leave import LeaveWorkScreen, leave_all
from switchboard.tui.widgets.conversation_view import ConversationView
from switchboard.tui.widgets.run_view import RunView
from switchboard.tui.widgets.workflows_pane import WorkflowsPane

SIZE = (120, 40)


@pytest.fixture(scope="module")
def fleet():
    with demo_fleet(DemoSettings(research_seconds=30)) as handle:
        yield handle


@pytest.fixture
def app(fleet, tmp_path, monkeypatch):
    return app_on_fleet(fleet, tmp_path, monkeypatch)


async def researching(pilot) -> tuple[ConversationView, str]:
    view = await talk(pilot, "researcher", "the history of tides")
    await until(lambda: view.conversation.task_id is not None and view.running)
    return view, view.conversation.task_id


async def asked(pilot) -> LeaveWorkScreen:
    await until(lambda: isinstance(pilot.app.screen, LeaveWorkScreen))
    return pilot.app.screen


def notices(app) -> str:
    return "\n".join(notification.message for notification in app._notifications)


async def test_closing_a_tab_whose_task_runs_asks_and_stay_keeps_it(app, fleet):
    async with app.run_test(size=SIZE) as pilot:
        view, task_id = await researching(pilot)
        await pilot.press("f4")
        dialog = await asked(pilot)
        said = " ".join(str(s.render()) for s in dialog.query(".open-work"))
        assert f"task {task_id} at researcher" in said
        assert f"switchboard task get {fleet.agent('researcher').url} {task_id}" in said
        await pilot.press("escape")  # stay
        await until(lambda: not isinstance(app.screen, LeaveWorkScreen))
        assert view.is_attached and view.running


async def test_leave_running_closes_the_tab_and_the_task_goes_on_at_the_agent(app):
    async with app.run_test(size=SIZE) as pilot:
        view, task_id = await researching(pilot)
        link = view.conversation.link
        await pilot.press("f4")
        await asked(pilot)
        await click(pilot, "#leave")
        await until(lambda: not app.screen.query(ConversationView))
        await until(lambda: "switchboard task get" in notices(app) and task_id in notices(app))
        assert (await link.get_task(task_id)).status.state is TaskState.WORKING
        await link.cancel(task_id)  # tidy up at the agent


async def test_cancel_closes_the_tab_and_cancels_the_task_at_the_agent(app):
    async with app.run_test(size=SIZE) as pilot:
        view, task_id = await researching(pilot)
        link = view.conversation.link
        await pilot.press("f4")
        await asked(pilot)
        await click(pilot, "#cancel")
        await until(lambda: not app.screen.query(ConversationView))
        await until(lambda: f"task {task_id} at researcher: canceled" in notices(app))
        assert (await link.get_task(task_id)).status.state is TaskState.CANCELED


async def test_a_tab_with_no_open_task_closes_at_once(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await talk(pilot, "echo", "hello")
        await until(lambda: view.conversation.last is not None and not view.running)
        await pilot.press("f4")
        await until(lambda: not app.screen.query(ConversationView))
        assert app.screen.query_one(TabbedContent).active in ("agents-tab", "workflows-tab", "inbox-tab")


async def test_quitting_with_a_task_running_asks_and_says_where_to_find_it(app, fleet):
    async with app.run_test(size=SIZE) as pilot:
        _, task_id = await researching(pilot)
        await pilot.press("ctrl+q")
        dialog = await asked(pilot)
        assert dialog.quitting
        await click(pilot, "#leave")
        await until(lambda: not app.is_running)
        said = "\n".join(map(str, app._exit_renderables))
        assert "switchboard task get" in said and task_id in said
    async with httpx.AsyncClient() as http:  # the app's own client closed with it
        link = await open_link(fleet.agent("researcher").as_entry(), http=http)
        assert (await link.get_task(task_id)).status.state is TaskState.WORKING
        await link.cancel(task_id)


async def test_closing_a_live_run_asks_and_cancel_cancels_the_run(app):
    async with app.run_test(size=(130, 40)) as pilot:
        await pilot.press("f3")
        pane = app.screen.query_one(WorkflowsPane)
        await until(lambda: any(f.path.name == "interview.yaml" for f in getattr(pane, "files", [])))
        pane.query_one("#workflows-table").move_cursor(row=[f.path.name for f in pane.files].index("interview.yaml"))
        await pilot.press("enter")
        await until(lambda: bool(app.screen.query("PromptPane Input")))  # the run waits for the person
        view = app.screen.query_one(RunView)
        run = view.run
        await pilot.press("f4")
        dialog = await asked(pilot)
        said = " ".join(str(s.render()) for s in dialog.query(".open-work"))
        assert f"workflow run {run.run_id} (interview)" in said
        assert f"switchboard run --resume {run.run_id}" in said
        await click(pilot, "#cancel")
        await until(lambda: not app.screen.query(RunView))
        await until(lambda: run.status == "canceled")


async def test_a_question_that_comes_while_the_runs_tab_closes_waits_for_later(app):
    """A step's question reaching a run view whose parts Textual already took away (the tab closing, the app
    quitting) is put off, as "answer later" is: the step waits, resumable, and nothing fails on the missing pane."""
    async with app.run_test(size=(130, 40)) as pilot:
        await pilot.press("f3")
        pane = app.screen.query_one(WorkflowsPane)
        await until(lambda: any(f.path.name == "interview.yaml" for f in getattr(pane, "files", [])))
        pane.query_one("#workflows-table").move_cursor(row=[f.path.name for f in pane.files].index("interview.yaml"))
        await pilot.press("enter")
        await until(lambda: bool(app.screen.query("PromptPane Input")))
        view = app.screen.query_one(RunView)
        (request, _), *_ = view._questions.values()
        prompts = view.query_one(".run-prompts")
        removed = view.remove()
        while prompts.is_attached:  # the children go first
            await pilot.pause(0)
        assert await view.ask(request) is None
        await removed
        assert app.is_running and app.return_code is None


async def test_quitting_the_demo_says_its_agents_task_ends_with_the_app(fleet, tmp_path, monkeypatch):
    app = demo_app(fleet, tmp_path, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        view, task_id = await researching(pilot)
        link = view.conversation.link
        await pilot.press("ctrl+q")
        dialog = await asked(pilot)
        said = " ".join(str(s.render()) for s in dialog.query("Static"))
        assert "demo agents stop with the app" in said and f"task {task_id} at researcher" in said
        assert "goes on" not in said and "Inbox" not in said and "find it again" not in said
        assert str(dialog.query_one("#leave", Button).label) == "Quit"
        await click(pilot, "#leave")
        await until(lambda: not app.is_running)
        told = "\n".join(map(str, app._exit_renderables))
        assert f"task {task_id} at researcher ended" in told and "goes on" not in told
        await link.cancel(task_id)  # tidy up at the agent: this test's fleet outlives the app


async def test_closing_a_demo_agents_tab_says_the_task_goes_on_only_while_the_app_runs(fleet, tmp_path, monkeypatch):
    app = demo_app(fleet, tmp_path, monkeypatch)
    async with app.run_test(size=SIZE) as pilot:
        view, task_id = await researching(pilot)
        link = view.conversation.link
        await pilot.press("f4")
        dialog = await asked(pilot)
        said = " ".join(str(s.render()) for s in dialog.query(".open-work"))
        assert "goes on while the app runs (the demo agents stop when it quits)" in said
        assert str(dialog.query_one("#leave", Button).label) == "Leave running"
        await pilot.press("escape")
        await link.cancel(task_id)


async def test_a_demo_agents_question_left_at_quitting_is_not_promised_to_the_inbox():
    async def nothing() -> None:
        return None

    waiting = OpenWork("task t1 at interviewer", "input-required", "switchboard task get URL t1", nothing)
    own = OpenWork("task t2 at mine", "input-required", "switchboard task get mine t2", nothing)
    waiting.ends_with_app = True
    said = await leave_all([waiting, own], quitting=True)
    assert said[0] == "task t1 at interviewer ended: the demo agents stopped with the app"
    assert "Inbox" in said[1] and "find it again with switchboard task get mine t2" in said[1]
