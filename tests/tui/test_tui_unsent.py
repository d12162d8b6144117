"""A message that cannot go out stays in the message box, and a notice says why: the agent cannot be reached, the
address is not an A2A agent, the link is still being made, or the agent is still answering. Against the demo
fleet and real addresses that fail each way."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest
from textual.widgets import DataTable
from tui_support import demo_fleet, open_highlighted, until

from switchboard.agents import AgentEntry
from switchboard.demo.base import DemoSettings
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.widgets.conversation_view import ConversationView

SIZE = (120, 40)


@pytest.fixture(scope="module")
def fleet():
    with demo_fleet(DemoSettings(research_seconds=30)) as handle:
        yield handle


@pytest.fixture(scope="module")
def silent() -> Iterator[str]:
    """An address that takes connections and never answers: the card is still on its way."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/"


def closed_port() -> str:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/"


@pytest.fixture
def app(fleet, silent, tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    researcher = fleet.agent("researcher").url
    odd = [
        AgentEntry(name="down", url=closed_port()),
        AgentEntry(name="webpage", url=researcher + "files/nothing/"),  # a plain-text 404, not a card
        AgentEntry(name="silent", url=silent),
    ]
    agents = [agent.as_entry() for agent in fleet.agents] + odd
    return SwitchboardApp(tmp_path / "agents.yaml", extra_agents=agents, steady=True)


async def open_tab(pilot, name: str) -> ConversationView:
    table = pilot.app.screen.query_one(DataTable)
    await until(lambda: name in [row.value for row in table.rows])
    table.move_cursor(row=[row.value for row in table.rows].index(name))
    return await open_highlighted(pilot)


def notices(app) -> list[str]:
    return [notification.message for notification in app._notifications]


async def type_and_enter(pilot, view: ConversationView, text: str) -> None:
    view.query_one("#message").focus()
    await pilot.press(*text, "enter")
    await pilot.pause(0.1)


@pytest.mark.parametrize(
    ("agent", "reason"),
    [("down", "cannot be reached"), ("webpage", "does not answer as an A2A agent")],
)
async def test_text_for_an_agent_that_could_not_be_connected_stays_and_the_notice_says_why(app, agent, reason):
    async with app.run_test(size=SIZE) as pilot:
        view = await open_tab(pilot, agent)
        await until(lambda: bool(view.query(".turn-error")), timeout=60)  # what went wrong, in the transcript
        await type_and_enter(pilot, view, "hello there")
        await until(lambda: any(reason in text for text in notices(app)))
        assert view.query_one("#message").text == "hello there"
        assert view.conversation is None


async def test_text_sent_while_still_connecting_stays(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await open_tab(pilot, "silent")
        await type_and_enter(pilot, view, "hello")
        await until(lambda: any("still connecting" in text for text in notices(app)))
        assert view.query_one("#message").text == "hello"


async def test_text_sent_while_the_agent_answers_stays_and_goes_out_once_it_is_done(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await open_tab(pilot, "researcher")
        await until(lambda: view.conversation is not None)
        await type_and_enter(pilot, view, "quick: tides")
        assert view.query_one("#message").text == ""  # sent: the box is empty again
        await until(lambda: view.running)
        await type_and_enter(pilot, view, "and the moon")
        await until(lambda: any("still answering" in text for text in notices(app)))
        assert view.query_one("#message").text == "and the moon"
        assert len(view.conversation.turns) == 1
        await until(lambda: not view.running)
        view.query_one("#message").focus()
        await pilot.press("enter")  # the same text, now that the agent is done
        await until(lambda: len(view.conversation.turns) == 2)
        assert view.conversation.last.message.parts[0].text == "and the moon"
        assert view.query_one("#message").text == ""
