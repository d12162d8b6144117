"""What a new user meets first on the demo fleet, said as a polished tool says it: the footer names what enter does
in the agents and workflows tables, a direct reply is not left looking pending, the launch form sits in the middle,
an empty inbox offers nothing to dismiss, and a sign-in pane hidden by mistake can be shown again."""

from __future__ import annotations

import webbrowser

import pytest
from textual.command import CommandPalette
from textual.containers import VerticalScroll
from textual.widgets import DataTable, OptionList, Static
from tui_support import app_on_fleet, demo_fleet, talk, until

from switchboard.a2a.model import TaskState
from switchboard.demo import researcher
from switchboard.demo.base import DemoSettings
from switchboard.tui.downloads import downloads_dir
from switchboard.tui.screens.launch import LaunchScreen
from switchboard.tui.screens.sign_in import SignInScreen
from switchboard.tui.widgets.inbox_pane import InboxPane
from switchboard.tui.widgets.transcript import FileRow

SIZE = (120, 40)


@pytest.fixture(scope="module")
def fleet():
    with demo_fleet(DemoSettings()) as handle:
        yield handle


@pytest.fixture
def app(fleet, tmp_path, monkeypatch):
    return app_on_fleet(fleet, tmp_path, monkeypatch)


def footer_says(app) -> dict[str, str]:
    return {key: active.binding.description for key, active in app.screen.active_bindings.items() if active.enabled}


async def test_the_footer_says_what_enter_does_in_the_agents_and_workflows_tables(app):
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: app.screen.query_one("#agents-table", DataTable).has_focus)
        assert footer_says(app)["enter"] == "Talk"
        await pilot.press("f3")
        await until(lambda: app.screen.query_one("#workflows-table", DataTable).has_focus)
        assert footer_says(app)["enter"] == "Launch"


async def test_a_direct_reply_says_reply_in_the_head_not_a_pending_mark(app):
    async with app.run_test(size=SIZE) as pilot:
        view = await talk(pilot, "echo", "hello there")
        await until(lambda: view.conversation.last is not None and view.conversation.last.view.reply is not None)
        await until(lambda: not view.running)
        head = str(view.query_one(".conversation-head", Static).render())
        assert " reply " in head and "…" not in head


async def test_the_launch_form_sits_in_the_middle_of_the_screen(app):
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f3")
        await until(lambda: app.screen.query_one("#workflows-table", DataTable).row_count > 0)
        app.screen.query_one("#workflows-table", DataTable).focus()
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, LaunchScreen))
        await pilot.pause()
        dialog = app.screen.query_one(".launch", VerticalScroll).region
        left, right = dialog.x, SIZE[0] - dialog.right
        assert left > 0 and abs(left - right) <= 1, dialog


async def test_an_empty_inbox_offers_nothing_to_dismiss_or_go_to(app):
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("f5")
        pane = app.screen.query_one(InboxPane)
        await until(lambda: pane.query_one("#inbox-filter").has_focus)
        await pilot.pause()
        said = set(footer_says(app).values())
        assert "Dismiss" not in said and "Go to its tab" not in said and "Inbox" in said


async def test_a_hidden_sign_in_can_be_shown_again_from_the_palette(app, monkeypatch):
    monkeypatch.setattr(webbrowser, "open", lambda *a, **k: True)  # no browser from a test
    async with app.run_test(size=SIZE) as pilot:
        await talk(pilot, "sso", "hello")  # the first message signs in: the pane shows the code
        await until(lambda: isinstance(app.screen, SignInScreen), timeout=30)
        code = app.screen.code
        await pilot.press("escape")  # hidden: the flow still waits, and the person is told how to get it back
        await until(lambda: not isinstance(app.screen, SignInScreen))
        await until(lambda: any("Show the sign-in" in str(n.message) for n in app._notifications))
        await pilot.press("ctrl+p")
        await until(lambda: isinstance(app.screen, CommandPalette))
        await pilot.press(*"show the sign-in")
        options = app.screen.query_one(OptionList)
        await until(lambda: options.option_count > 0 and "sign-in" in str(options.get_option_at_index(0).prompt))
        await pilot.press("down", "enter")
        await until(lambda: isinstance(app.screen, SignInScreen))
        assert app.screen.code == code  # the same flow's code, not a new sign-in


async def test_s_on_a_file_saves_it_from_its_bytes_and_from_its_address(app):
    """The researcher's two files: `sources.csv` inline, `report.md` at an address the agent serves."""
    async with app.run_test(size=SIZE) as pilot:
        view = await talk(pilot, "researcher", "quick: tides")
        await until(
            lambda: view.conversation.last is not None and view.conversation.last.view.state is TaskState.COMPLETED
        )
        await until(lambda: not view.running)
        await until(lambda: len(view.query(FileRow)) == 2)
        for row in view.query(FileRow):
            row.focus()
            await pilot.press("s")
        await until(lambda: (downloads_dir() / "sources.csv").exists() and (downloads_dir() / "report.md").exists())
        assert (downloads_dir() / "sources.csv").read_bytes() == researcher.sources_csv("tides")
