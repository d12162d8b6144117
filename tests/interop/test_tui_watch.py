"""The TUI, driven by Pilot against real agents: a conversation whose stream is closed (ctrl+b) keeps following its
task, by the agent's pushes to a receiver in the app (the a2a-sdk 1.x server and its push sender) or by polling
(the 0.3.26 server, which declares no push); a tab in the background gets a notice when its task ends."""

from __future__ import annotations

import asyncio

import pytest
from textual.widgets import DataTable, TabbedContent
from tui_support import open_highlighted

from switchboard.a2a.client import connect
from switchboard.a2a.model import TaskState
from switchboard.agents import AgentEntry
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.widgets.conversation_view import ConversationView

SIZE = (120, 40)
WAIT = 30  # seconds: a bound on a wait, never a measure


async def until(predicate, timeout: float = WAIT) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.05)


def app_with(tmp_path, monkeypatch, url: str) -> SwitchboardApp:
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    return SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[AgentEntry(name="slow", url=url)], steady=True)


async def start_slow_job(pilot) -> ConversationView:
    table = pilot.app.screen.query_one(DataTable)
    await until(lambda: "slow" in [row.value for row in table.rows])
    table.move_cursor(row=[row.value for row in table.rows].index("slow"))
    view = await open_highlighted(pilot)
    await until(lambda: view.conversation is not None)
    view.query_one("#message").focus()
    await pilot.press(*"slow job", "enter")
    await until(lambda: view.conversation.last is not None and view.conversation.last.view.status_text)
    return view


def notices(app: SwitchboardApp) -> list[str]:
    return [f"{n.title}: {n.message}" for n in app._notifications]


@pytest.mark.parametrize(("kind", "pushes"), [("sdk13-v10", True), ("sdk03-native", False)])
async def test_a_closed_stream_goes_on_by_push_or_polling_and_a_background_tab_is_told_its_end(
    server_pool, tmp_path, monkeypatch, kind, pushes
):
    server = server_pool.get(kind)
    app = app_with(tmp_path, monkeypatch, server.url)
    async with app.run_test(size=SIZE) as pilot, await connect(server.url) as agent:
        view = await start_slow_job(pilot)
        turn = view.conversation.last
        await pilot.press("ctrl+b")  # close the stream
        await until(lambda: any("stream closed" in n for n in notices(app)))
        if pushes:
            await until(lambda: app._push_receiver is not None and app._push_receiver._tokens)
            [config] = await agent.list_push_configs(turn.view.task_id)
            assert config["url"] == app._push_receiver.url
        else:
            await until(lambda: any("polling the task instead" in n.text for n in turn.notices))
        seen = turn.view.status_text
        await until(lambda: turn.view.status_text != seen)  # still moving, with no stream open
        assert turn.running

        await pilot.press("f1")  # the conversation goes to the background
        await until(lambda: app.screen.query_one(TabbedContent).active == "agents-tab")
        await agent.cancel_task(turn.view.task_id)
        await until(lambda: turn.view.state is TaskState.CANCELED, timeout=WAIT * 2)
        await until(lambda: not turn.running)
        await until(lambda: "slow: task canceled" in notices(app))
        if pushes:
            assert await agent.list_push_configs(turn.view.task_id) == []  # deleted once the task ended
            assert app._push_receiver.refused == []


async def test_a_shown_tab_gets_no_notice_of_its_own_end(server_pool, tmp_path, monkeypatch):
    server = server_pool.get("sdk13-v10")
    app = app_with(tmp_path, monkeypatch, server.url)
    async with app.run_test(size=SIZE) as pilot, await connect(server.url) as agent:
        view = await start_slow_job(pilot)
        turn = view.conversation.last
        await agent.cancel_task(turn.view.task_id)
        await until(lambda: not turn.running and turn.view.state is TaskState.CANCELED)
        await pilot.pause(0.2)
        assert "slow: task canceled" not in notices(app)
