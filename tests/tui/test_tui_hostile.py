"""The TUI (Pilot) on the real hostile agent: its markup shows literally, no escape sequence reaches the screen
or an export, and the app stays usable after the flood of junk."""

from __future__ import annotations

import re

import pytest
from textual.widgets import DataTable
from tui_support import open_highlighted, until

from switchboard.a2a.model import TaskState
from switchboard.demo import hostile
from switchboard.demo.fleet import start_in_background
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.screens.card import CardScreen
from switchboard.tui.screens.main import MainScreen
from switchboard.tui.widgets.agents_pane import AgentsPane

SIZE = (120, 40)
# What the screen's text must not hold: C0 controls but \n, DEL, C1, bidi overrides and isolates.
ACTIVE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture(scope="module")
def agent():
    handle = start_in_background(first_port=0, agents=(hostile.AGENT,), write_file=False)
    yield handle.agents[0]
    handle.stop()


@pytest.fixture
def app(agent, tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    return SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[agent.as_entry()], steady=True)


def screen_text(app) -> str:
    """Every line of the screen as shown (the compositor's output, as a person sees it)."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())


async def open_hostile(pilot) -> DataTable:
    """The agents table with the hostile agent's card fetched, its row selected."""
    table = pilot.app.screen.query_one(DataTable)
    await until(lambda: "hostile" in [row.value for row in table.rows])
    pane = pilot.app.screen.query_one(AgentsPane)
    await until(lambda: pane.statuses["hostile"].card is not None)
    table.move_cursor(row=[row.value for row in table.rows].index("hostile"))
    table.focus()
    await pilot.pause(0.2)
    return table


async def card_screen_round_trip(pilot) -> None:
    """Open the card screen from the agents table, check what it shows, and go back."""
    await pilot.press("c")
    await until(lambda: isinstance(pilot.app.screen, CardScreen))
    await pilot.pause(0.3)
    text = screen_text(pilot.app)
    assert "[bold red]x[/]" in text
    assert not ACTIVE.search(text)
    assert "\x1b" not in pilot.app.export_screenshot()
    await pilot.press("escape")
    await until(lambda: isinstance(pilot.app.screen, MainScreen))


async def test_the_card_screen_shows_markup_literally_and_goes_back(app):
    async with app.run_test(size=SIZE) as pilot:
        await open_hostile(pilot)
        text = screen_text(pilot.app)
        assert not ACTIVE.search(text) and "Hostile [bold red]x[/]" in text
        await card_screen_round_trip(pilot)
        for tab in ("skills", "lint", "raw"):
            await pilot.press("c")
            await until(lambda: isinstance(pilot.app.screen, CardScreen))
            pilot.app.screen.query_one("#card-tabs").active = tab
            await pilot.pause(0.3)
            assert not ACTIVE.search(screen_text(pilot.app))
            await pilot.press("escape")
            await until(lambda: isinstance(pilot.app.screen, MainScreen))


async def test_a_conversation_shows_the_junk_as_text_and_the_app_still_answers_keys(app):
    async with app.run_test(size=SIZE) as pilot:
        await open_hostile(pilot)
        view = await open_highlighted(pilot)
        await until(lambda: view.conversation is not None)
        view.query_one("#message").focus()
        await pilot.press(*"hello", "enter")
        await until(lambda: view.conversation.last is not None)
        await until(lambda: view.conversation.last.view.state is TaskState.COMPLETED and not view.running)
        await pilot.pause(0.5)
        text = screen_text(pilot.app)
        assert "[bold red]x[/]" in text
        assert not ACTIVE.search(text)
        assert "\x1b" not in pilot.app.export_screenshot()
        # Still usable after the flood: back to the agents tab, open the card screen, and return.
        await pilot.press("f1")
        await open_hostile(pilot)
        await card_screen_round_trip(pilot)
