"""Adding and removing agents from the TUI: the agents file keeps what the person wrote in it (comments, order,
formatting; against the real demo fleet, whose agents the add dialog checks), and a failed write loses nothing."""

from __future__ import annotations

import os

import pytest
from scenes import build_app, settle
from textual.widgets import DataTable, Input
from tui_support import click, demo_fleet, until

from switchboard.demo.base import DemoSettings
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.screens.add_agent import AddAgentScreen

SIZE = (120, 40)
MINE = """\
# My agents. The legacy converter is on loan from the other team.
agents:
  # the unit converter (v0.3)
  - name: converter
    url: {legacy}   # theirs
    headers: {{X-Team: "${{TEAM}}"}}

# kept for later: - name: old-one
"""


@pytest.fixture(scope="module")
def fleet():
    with demo_fleet(DemoSettings(writer_pace_ms=1)) as handle:
        yield handle


async def test_adding_and_removing_in_the_tui_keeps_the_files_comments(fleet, tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    urls = {agent.name: agent.url for agent in fleet.agents}
    path = tmp_path / "agents.yaml"
    original = MINE.format(legacy=urls["legacy"])
    path.write_text(original)
    echo = urls["echo"].removeprefix("http://").rstrip("/")  # typed as host:port, as the dialog allows
    app = SwitchboardApp(path, steady=True)
    async with app.run_test(size=SIZE) as pilot:
        table = app.screen.query_one(DataTable)
        await until(lambda: [row.value for row in table.rows] == ["converter"])
        await pilot.press("a")
        await until(lambda: isinstance(app.screen, AddAgentScreen))
        app.screen.query_one("#url", Input).value = echo
        app.screen.query_one("#name", Input).value = "echo"
        await click(pilot, "#add")
        await until(lambda: not isinstance(app.screen, AddAgentScreen), timeout=30)
        await until(lambda: "echo" in [row.value for row in table.rows])
        added = path.read_text()
        assert added == original.replace(
            "\n# kept for later", f"  - name: echo\n    url: {echo}\n\n# kept for later"
        ), added
        table.move_cursor(row=[row.value for row in table.rows].index("echo"))
        await pilot.press("x")
        await until(lambda: bool(app.screen.query("#yes")))
        await click(pilot, "#yes")
        await until(lambda: "echo" not in [row.value for row in table.rows])
    assert path.read_text() == original


async def test_a_failed_write_when_removing_keeps_the_file_and_the_app(tmp_path, monkeypatch):
    app = build_app(tmp_path)
    before = (tmp_path / "agents.yaml").read_text()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)

        def crash(*args, **kwargs):
            raise OSError("No space left on device")

        monkeypatch.setattr(os, "replace", crash)
        table = app.screen.query_one(DataTable)
        table.move_cursor(row=0)
        await pilot.press("x")
        await settle(pilot)
        await click(pilot, "#yes")
        await settle(pilot)
        assert app.is_running
        assert any("No space left" in n.message for n in app._notifications)
        assert next(row.value for row in table.rows) == "writer"  # still listed
    assert (tmp_path / "agents.yaml").read_text() == before
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []
