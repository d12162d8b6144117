"""The add-agent dialog as a fast typist meets it (issue 14, item 14): keys typed right after a Tab land in the
next field, the URL is checked as it is typed, and no label is cut."""

from __future__ import annotations

from scenes import build_app, settle
from textual import events
from textual.widgets import Input, Label, Static
from tui_support import until

from switchboard.tui.screens.add_agent import AddAgentScreen


def typed_at_once(app, text: str) -> None:
    """Keys as a terminal delivers them when typed back to back: all queued before the first is handled."""
    for char in text:
        key = {"\t": "tab"}.get(char, char)
        app.post_message(events.Key(key, None if key == "tab" else char))


async def open_dialog(pilot) -> AddAgentScreen:
    await settle(pilot, 0.2)
    await pilot.press("a")
    await until(lambda: isinstance(pilot.app.screen, AddAgentScreen))
    await settle(pilot, 0.1)
    return pilot.app.screen


async def test_keys_typed_right_after_tab_go_to_the_next_field(tmp_path):
    app = build_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await open_dialog(pilot)
        typed_at_once(app, "127.0.0.1:47341\twriter2")
        await settle(pilot, 0.3)
        assert dialog.query_one("#url", Input).value == "127.0.0.1:47341"
        assert dialog.query_one("#name", Input).value == "writer2"


async def test_the_url_is_checked_as_it_is_typed(tmp_path):
    app = build_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await open_dialog(pilot)
        status = dialog.query_one("#add-status", Static)
        await pilot.press(*"http://[::1/")
        await settle(pilot, 0.1)
        assert "malformed IPv6" in str(status.render())
        dialog.query_one("#url", Input).value = "http://127.0.0.1:47341/"
        await settle(pilot, 0.1)
        assert str(status.render()).strip() == ""


async def test_no_label_of_the_dialog_is_cut(tmp_path):
    for size in ((120, 40), (80, 24), (60, 15)):
        app = build_app(tmp_path)
        async with app.run_test(size=size) as pilot:
            dialog = await open_dialog(pilot)
            box = dialog.query_one(".dialog").scrollable_content_region
            for label in dialog.query(Label):
                text = str(label.render())
                assert label.region.right <= box.right, (size, text)  # inside the dialog: nothing clipped
                drawn = label.render_lines(label.size.region)
                shown = " ".join(strip.text.strip() for strip in drawn).split()
                assert shown == text.split(), (size, text, shown)  # and wrapped whole
            buttons = dialog.query_one("#add")
            dialog.query_one(".dialog").scroll_to_widget(buttons, animate=False)
            await settle(pilot, 0.1)
            assert buttons.region.bottom <= size[1], size  # reachable by scrolling, on any size


async def test_a_hint_with_a_url_is_shown_whole(tmp_path):
    """Issue 26, item 4: the hint's example URL came out as `http://127. 0. 0. 1:9101/`."""
    app = build_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await open_dialog(pilot)
        status = dialog.query_one("#add-status", Static)
        await pilot.press(*"127.0.0.1:99999", "enter")
        await until(lambda: "as in" in str(status.render()))
        shown = " ".join(str(status.render()).split())
        assert "as in http://127.0.0.1:9101/." in shown, shown
        assert "127. 0" not in shown
