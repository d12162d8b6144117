"""Keys that work wherever the keyboard is: the tab keys from a table, a list or the message box, and a new line in
the message box by the keys a terminal actually sends (tmux sends alt+enter as escape then enter)."""

from __future__ import annotations

import pytest
from scenes import build_app, run_record, scene_links, settle
from textual.widgets import TabbedContent
from tui_support import until

from switchboard.tui.widgets.composer import MessageArea
from switchboard.tui.widgets.run_view import RunView

SIZES = [(130, 40), (80, 24), (60, 15)]


@pytest.fixture
def app(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    return build_app(tmp_path, links=scene_links())


def shown_tab(app) -> str | None:
    return app.screen.query_one(TabbedContent).active


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_ctrl_page_keys_switch_tabs_from_a_table_a_list_and_the_message_box(app, size):
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        agents = app.screen.query_one("#agents-table")
        assert app.focused is agents
        await pilot.press("ctrl+pagedown")  # a DataTable binds it to scroll a page sideways
        await until(lambda: shown_tab(app) == "workflows-tab")
        await until(lambda: app.focused is app.screen.query_one("#workflows-table"))
        await pilot.press("ctrl+pageup")
        await until(lambda: shown_tab(app) == "agents-tab")

        await app.screen._add_run(RunView("briefing", record=run_record()))
        steps = app.screen.query_one(RunView).query_one("#steps")
        await until(lambda: app.focused is steps)  # an OptionList: it binds the ctrl+page keys too
        run_tab = shown_tab(app)
        await pilot.press("ctrl+pagedown")  # from the last tab, round to the first
        await until(lambda: shown_tab(app) == "agents-tab")
        await pilot.press("ctrl+pageup")
        await until(lambda: shown_tab(app) == run_tab)

        await pilot.press("f1", "enter")  # a conversation with the first agent: the keyboard in its message box
        await until(lambda: isinstance(app.focused, MessageArea))
        talk_tab = shown_tab(app)
        await pilot.press("ctrl+pageup")
        await until(lambda: shown_tab(app) == run_tab)
        await pilot.press("ctrl+pagedown")
        await until(lambda: shown_tab(app) == talk_tab)


def parsed_keys(data: str) -> list[str]:
    """The keys Textual's terminal parser reads from `data` (the bytes a terminal sends), as the app would."""
    from textual._xterm_parser import XTermParser

    parser = XTermParser()
    return [event.key for event in [*parser.feed(data), *parser.feed("")] if hasattr(event, "key")]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_alt_enter_sent_as_escape_then_enter_starts_a_new_line_and_does_not_send(app, size):
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        await pilot.press("down", "enter")  # the interviewer
        await until(lambda: isinstance(app.focused, MessageArea))
        view = app.focused
        link = app.screen.query_one("ConversationView").link
        # What tmux sends for alt+enter, and for ctrl+j; read by the parser the app's terminal driver uses.
        assert parsed_keys("\x1b\r") == ["alt+enter"]
        assert parsed_keys("\n") == ["ctrl+j"]
        await pilot.press(*"first", *parsed_keys("\x1b\r"), *"second", *parsed_keys("\n"), *"third")
        assert view.text == "first\nsecond\nthird"
        assert link is None or not link.sent  # nothing went out
        footer = " ".join(str(widget.render()) for widget in app.screen.query_one("Footer").query("*"))
        assert "^j" in footer and "New line" in footer  # the footer says how
