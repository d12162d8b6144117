"""Textual's private parts that switchboard reaches (switchboard.tui.textual_private) are still there and have the
shape used. A Textual upgrade that moves one fails here, loudly, instead of costing memory or speed unseen."""

from __future__ import annotations

import inspect
import tomllib
from pathlib import Path

import textual
from textual import events
from textual.app import App, ComposeResult
from textual.geometry import Size
from textual.reactive import reactive
from textual.signal import Signal
from textual.widget import Widget
from textual.widgets import Input, Static, TabbedContent, TabPane, TextArea

from switchboard.tui import textual_private as private
from switchboard.tui.screens.main import MainTabPane

ROOT = Path(__file__).resolve().parents[2]


def test_textual_is_pinned_to_the_version_tested():
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert f"textual=={private.TESTED_WITH}" in dependencies
    assert textual.__version__ == private.TESTED_WITH


class Watched(Widget):
    level = reactive(0)


class Holder(App[None]):
    def compose(self) -> ComposeResult:
        yield Watched(id="watched")
        yield Static("a", id="watcher")


async def test_the_removal_flags_read_false_on_a_live_widget_and_true_on_a_closed_one():
    app = Holder()
    async with app.run_test() as pilot:
        watcher = app.query_one("#watcher", Static)
        assert private.closing(watcher) is False
        assert private.pruning(watcher) is False
        await watcher.remove()
        await pilot.pause()
        assert private.closing(watcher) is True


async def test_watchers_caches_and_signal_subscribers_are_where_release_reads_them():
    app = Holder()
    async with app.run_test() as pilot:
        watched = app.query_one(Watched)
        watcher = app.query_one("#watcher", Static)

        watcher.watch(watched, "level", lambda value: None)
        entries = private.watchers(watched)["level"]
        assert [node for node, _callback in entries] == [watcher]
        assert callable(entries[0][1])

        assert app.query_one("#watched") is watched  # cached on the screen, an app's queries' base
        cache = private.query_one_cache(app.screen)
        keys = [key for key in list(cache.keys()) if cache.get(key) is watched]
        assert keys
        cache.discard(keys[0])
        assert cache.get(keys[0]) is None

        signal: Signal[str] = Signal(app, "test")
        signal.subscribe(watcher, lambda value: None)
        assert private.signal_subscribers(signal) == [watcher]
        await pilot.pause()


async def test_size_updated_takes_sizes_and_a_layout_flag_and_sets_the_virtual_size():
    parameters = list(inspect.signature(Widget._size_updated).parameters)
    assert parameters == ["self", "size", "virtual_size", "container_size", "layout"]
    app = Holder()
    async with app.run_test():
        widget = app.query_one(Watched)
        private.set_size(widget, Size(10, 3), Size(10, 50), Size(10, 3), layout=False)
        assert widget.virtual_size == Size(10, 50)


def test_text_areas_key_handler_is_a_coroutine_taking_the_key():
    handler = TextArea._on_key
    assert inspect.iscoroutinefunction(handler)
    assert list(inspect.signature(handler).parameters) == ["self", "event"]
    assert inspect.signature(handler).parameters["event"].annotation in (events.Key, "events.Key")


class Tabs(App[None]):
    def __init__(self, pane: type[TabPane]) -> None:
        super().__init__()
        self.pane = pane

    def compose(self) -> ComposeResult:
        with TabbedContent(id="tabs"):
            with self.pane("one", id="one"):
                yield Input(id="first")
            with self.pane("two", id="two"):
                yield Input(id="second")


async def test_a_focus_landing_in_a_hidden_main_tab_leaves_the_shown_tab_shown():
    """TabPane.Focused (public) is what makes a tab active when a widget in it takes the focus: a plain TabPane
    comes to the front; a main tab does not while hidden (the person chose another tab meanwhile)."""
    for pane, shown in ((TabPane, "two"), (MainTabPane, "one")):
        app = Tabs(pane)
        async with app.run_test() as pilot:
            tabs = app.query_one(TabbedContent)
            await pilot.pause()
            assert tabs.active == "one"
            app.query_one("#second", Input).focus()
            await pilot.pause()
            assert tabs.active == shown, pane
