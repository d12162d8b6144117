"""Keys a new user looks for: the tab keys are in the footer and on the TUI page, and home and end move the agents
table's cursor to the first and last agent. Against the demo fleet."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable, Footer
from tui_support import app_on_fleet, demo_fleet, until

from switchboard.demo.base import DemoSettings
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.screens.main import MainScreen

SIZE = (130, 40)
TUI_PAGE = Path(__file__).resolve().parents[2] / "docs" / "tui.md"  # the keys moved there from the README


@pytest.fixture(scope="module")
def fleet():
    with demo_fleet(DemoSettings()) as handle:
        yield handle


@pytest.fixture
def app(fleet, tmp_path, monkeypatch):
    return app_on_fleet(fleet, tmp_path, monkeypatch)


def footer_text(app) -> str:
    footer = app.screen.query_one(Footer)
    return " ".join(str(widget.render()) for widget in footer.query("*"))


async def test_the_footer_shows_the_keys_that_switch_tabs(app):
    async with app.run_test(size=SIZE):
        # The footer is composed after the first refresh: a loaded machine may take a while to get there.
        await until(lambda: "alt+←→" in footer_text(app) and "Tabs" in footer_text(app))


def test_the_tui_page_names_every_key_of_the_main_screen():
    text = TUI_PAGE.read_text(encoding="utf-8")
    app = SwitchboardApp(Path("unused.yaml"))
    for binding in MainScreen.BINDINGS:
        for key in binding.key.split(","):
            display = app.get_key_display(binding.__class__(key, binding.action))
            assert f"`{display}`" in text or f"`{key}`" in text, f"{binding.description} ({key}) is not in docs/tui.md"


async def test_home_and_end_move_the_agents_cursor_to_the_first_and_the_last_agent(app, fleet):
    async with app.run_test(size=SIZE) as pilot:
        table = app.screen.query_one("#agents-table", DataTable)
        await until(lambda: table.row_count == len(fleet.agents))
        assert app.focused is table
        await pilot.press("end")
        assert table.cursor_row == table.row_count - 1
        await pilot.press("home")
        assert table.cursor_row == 0
