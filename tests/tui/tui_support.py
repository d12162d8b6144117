"""Helpers shared by the TUI tests: waiting for the app to get somewhere, opening a conversation or a run as the
person would, and a demo fleet for a module."""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from textual.widgets import DataTable

from switchboard.demo.base import DemoSettings
from switchboard.demo.fleet import BackgroundFleet, start_in_background
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.widgets.conversation_view import ConversationView
from switchboard.tui.widgets.run_view import RunView
from switchboard.tui.widgets.workflows_pane import WorkflowsPane


async def until(predicate: Callable[[], object], timeout: float = 30.0, every: float = 0.05) -> None:
    """Wait until `predicate()` is true, looking every `every` seconds; TimeoutError after `timeout`."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(every)


async def click(pilot, selector: str) -> None:
    """Click the widget `selector` names as a person would, once it is laid out on screen.

    Textual's pilot aims at the widget's region as it is when called: a widget just shown or mounted has no region
    until the next layout, and the click would land on whatever is there instead.
    """

    def laid_out() -> bool:
        screen = pilot.app.screen  # a dialog may be on its way
        return any(w.region.area and w.region in screen.region for w in screen.query(selector))

    await until(laid_out)
    landed = await pilot.click(selector)
    assert landed, f"the click on {selector} landed on another widget"


async def open_agent(pilot, name: str) -> ConversationView:
    """Open a conversation with `name` from the agents table (enter on its row), once it is connected."""
    table = pilot.app.screen.query_one(DataTable)
    await until(lambda: name in [row.value for row in table.rows])
    table.move_cursor(row=[row.value for row in table.rows].index(name))
    view = await open_highlighted(pilot)
    await until(lambda: view.conversation is not None)
    return view


async def open_highlighted(pilot) -> ConversationView:
    """Enter on the agents table's highlighted row: its new conversation tab (opened as the app reads the key, which
    may be after `press` returns)."""
    before = len(pilot.app.screen.query(ConversationView))
    await pilot.press("enter")
    await until(lambda: len(pilot.app.screen.query(ConversationView)) > before)
    return pilot.app.screen.query(ConversationView).last()


async def talk(pilot, name: str, text: str) -> ConversationView:
    """Open a conversation with `name` and send `text` from its message box."""
    view = await open_agent(pilot, name)
    view.query_one("#message").focus()
    await pilot.press(*text, "enter")
    return view


async def launch_workflow(pilot, file_name: str) -> RunView:
    """Start the workflow listed as `file_name` in the Workflows tab (one without inputs); its run view, looked up
    on the main screen (a sign-in pane may cover it)."""
    await pilot.press("f3")
    main = pilot.app.screen
    pane = main.query_one(WorkflowsPane)
    await until(lambda: any(f.path.name == file_name for f in getattr(pane, "files", [])))
    table = pane.query_one("#workflows-table")
    table.move_cursor(row=[f.path.name for f in pane.files].index(file_name))
    table.focus()
    await pilot.press("enter")
    await until(lambda: bool(main.query(RunView)))
    return main.query(RunView).last()


def app_on_fleet(fleet: BackgroundFleet, home: Path, monkeypatch: pytest.MonkeyPatch) -> SwitchboardApp:
    """The app with every agent of `fleet`, its files under `home`."""
    monkeypatch.setenv("SWITCHBOARD_HOME", str(home))
    return SwitchboardApp(home / "agents.yaml", extra_agents=[agent.as_entry() for agent in fleet.agents], steady=True)


def demo_app(fleet: BackgroundFleet, home: Path, monkeypatch: pytest.MonkeyPatch) -> SwitchboardApp:
    """As `switchboard --demo` makes it: the app runs the fleet, which stops when the app quits."""
    monkeypatch.setenv("SWITCHBOARD_HOME", str(home))
    agents = [agent.as_entry() for agent in fleet.agents]
    return SwitchboardApp(home / "agents.yaml", extra_agents=agents, steady=True, runs_extra_agents=True)


@contextmanager
def demo_fleet(settings: DemoSettings) -> Iterator[BackgroundFleet]:
    """The demo fleet on free ports, its agents' credentials in the environment until it stops.

    Its agents file goes to a directory of its own: the default one, in the user's data directory, would be
    shared by every test process running at once (and rewritten by each fleet with its own ports).
    """
    scratch = tempfile.TemporaryDirectory(prefix="demo-fleet-")
    handle = start_in_background(first_port=0, settings=settings, agents_file=Path(scratch.name) / "agents.yaml")
    saved = {name: os.environ.get(name) for name in handle.credential_env}
    os.environ.update(handle.credential_env)
    try:
        yield handle
    finally:
        handle.stop()
        scratch.cleanup()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
