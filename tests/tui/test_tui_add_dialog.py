"""The add-agent dialog as a fast typist meets it (issue 14, item 14): keys typed right after a Tab land in the
next field, the URL is checked as it is typed, and no label is cut."""

from __future__ import annotations

from scenes import build_app, settle
from textual import events
from textual.widgets import Input, Label, Static
from tui_support import click, until

from switchboard.tui.screens.add_agent import AddAgentScreen
from switchboard.tui.widgets.agents_pane import AgentsPane


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
            await until(lambda: buttons.region.bottom <= size[1])  # noqa: B023  reachable by scrolling, on any size


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


async def test_an_agent_that_cannot_be_reached_now_can_be_added_anyway(tmp_path):
    """Issue 26, item 6: a stopped agent could not be added at all. The dialog keeps its URL and offers to save it
    unreached; its row then says it is unreachable."""
    import socket

    with socket.socket() as probe:  # a port nothing listens on: the connection is refused
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/"
    app = build_app(tmp_path)
    app._checker = None  # the real check, over the network, for the new agent's row
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await open_dialog(pilot)
        anyway = dialog.query_one("#add-anyway")
        assert not anyway.display  # offered only once the card could not be read
        dialog.query_one("#url", Input).value = url
        await click(pilot, "#add")
        status = dialog.query_one("#add-status", Static)
        await until(lambda: anyway.display)
        assert "Add anyway" in str(status.render())
        assert dialog.query_one("#url", Input).value == url  # kept, nothing to type again
        await click(pilot, "#add-anyway")
        await until(lambda: not isinstance(app.screen, AddAgentScreen))
        name = f"127-0-0-1-{port}"
        assert app.registry.find(name) is not None and app.registry.find(name).url == url
        assert name in (tmp_path / "agents.yaml").read_text()
        pane = app.screen.query_one(AgentsPane)
        await until(lambda: name in pane.statuses and pane.statuses[name].reachable is False)


async def test_add_anyway_is_offered_for_the_url_that_was_tried_only(tmp_path):
    app = build_app(tmp_path)
    app._checker = None
    async with app.run_test(size=(120, 40)) as pilot:
        dialog = await open_dialog(pilot)
        dialog.query_one("#url", Input).value = "http://127.0.0.1:9/"
        await click(pilot, "#add")
        anyway = dialog.query_one("#add-anyway")
        await until(lambda: anyway.display)
        dialog.query_one("#url", Input).value = "http://127.0.0.1:99/"  # another URL: it has not been tried
        await settle(pilot, 0.1)
        assert not anyway.display


async def test_add_anyway_fits_beside_add_and_cancel_on_any_size(tmp_path):
    for size in ((130, 40), (80, 24), (60, 15)):
        app = build_app(tmp_path)
        app._checker = None
        async with app.run_test(size=size) as pilot:
            dialog = await open_dialog(pilot)
            dialog.query_one("#url", Input).value = "http://127.0.0.1:9/"
            dialog.add()
            anyway = dialog.query_one("#add-anyway")
            await until(lambda: anyway.display and anyway.region.area)  # noqa: B023  (shown, and laid out)
            dialog.query_one(".dialog").scroll_to_widget(anyway, animate=False)
            buttons = [dialog.query_one(b) for b in ("#add", "#add-anyway", "#cancel")]
            await until(lambda: all(b.region.bottom <= size[1] for b in buttons))  # noqa: B023  (scrolled to)
            box = dialog.query_one(".dialog").scrollable_content_region
            for button in ("#add", "#add-anyway", "#cancel"):
                region = dialog.query_one(button).region
                assert box.x <= region.x and region.right <= box.right and region.bottom <= size[1], (size, button)
