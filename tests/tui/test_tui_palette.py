"""The command palette, against the real demo fleet: every main action (talk to an agent, open its card, run a
workflow) is there wherever the palette is opened from, and what it opens is what the person then sees."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette
from textual.widgets import OptionList, TabbedContent
from tui_support import app_on_fleet, demo_fleet, until

from switchboard.demo.base import DemoSettings
from switchboard.tui.screens.card import CardScreen
from switchboard.tui.screens.main import MainScreen
from switchboard.tui.widgets.agents_pane import AgentsPane
from switchboard.tui.widgets.conversation_view import ConversationView
from switchboard.tui.widgets.run_view import RunView

SIZE = (120, 40)


@pytest.fixture(scope="module")
def fleet():
    with demo_fleet(DemoSettings(writer_pace_ms=1)) as handle:
        yield handle


@pytest.fixture
def app(fleet, tmp_path, monkeypatch):
    return app_on_fleet(fleet, tmp_path, monkeypatch)


async def palette(pilot, query: str) -> None:
    """Open the palette, type `query`, and run the command it offers first."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await until(lambda: isinstance(app.screen, CommandPalette))
    await pilot.press(*query)
    options = app.screen.query_one(OptionList)
    await until(
        lambda: options.option_count > 0 and query.lower() in str(options.get_option_at_index(0).prompt).lower()
    )
    await pilot.press("down", "enter")  # the highlight on the first hit, then run it
    await until(lambda: not isinstance(app.screen, CommandPalette))


async def agents_known(app) -> None:
    pane = app.screen.query_one(AgentsPane)
    await until(lambda: {"echo", "writer"} <= set(pane.statuses))


async def test_the_palette_starts_a_conversation_from_the_agents_tab(app):
    async with app.run_test(size=SIZE) as pilot:
        await agents_known(app)
        await palette(pilot, "new conversation with echo")
        await until(lambda: bool(app.screen.query(ConversationView)))
        view = app.screen.query_one(ConversationView)
        assert view.agent_name == "echo"
        assert app.screen.query_one(TabbedContent).active == view.parent.id  # the new tab is the one shown


async def test_the_palette_runs_a_workflow_from_an_agents_card(app):
    async with app.run_test(size=SIZE) as pilot:
        await agents_known(app)
        await pilot.press("c")
        await until(lambda: isinstance(app.screen, CardScreen))
        await palette(pilot, "run workflow interview")
        await until(lambda: bool(app.screen.query(RunView)) if isinstance(app.screen, MainScreen) else False)
        assert app.screen.query_one(RunView).title == "interview"


async def test_the_palette_opens_an_agents_card_from_a_conversation(app):
    async with app.run_test(size=SIZE) as pilot:
        await agents_known(app)
        await palette(pilot, "new conversation with echo")
        await until(lambda: bool(app.screen.query(ConversationView)))
        await palette(pilot, "open agent writer")
        await until(lambda: isinstance(app.screen, CardScreen))
        assert app.screen.status.entry.name == "writer"
