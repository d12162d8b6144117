"""A name in the person's agents file hides the demo agent of that name, and says so (issue 26, item 6): the
file's entry wins (it is the person's own), a notice names what it hides, at start and when an agent is added under
a demo agent's name. Against the real demo agents."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Input
from tui_support import click, until

from switchboard.demo import echo, writer
from switchboard.demo.fleet import start_in_background
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.screens.add_agent import AddAgentScreen
from switchboard.tui.widgets.agents_pane import AgentsPane

SIZE = (120, 40)


@pytest.fixture(scope="module")
def fleet():
    handle = start_in_background(first_port=0, agents=(echo.AGENT, writer.AGENT), write_file=False)
    yield handle
    handle.stop()


def notices(app) -> list[str]:
    return [notification.message for notification in app._notifications]


async def test_an_agents_file_name_that_hides_a_demo_agent_is_said_at_start(fleet, tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    mine = fleet.agent("echo").url
    (tmp_path / "agents.yaml").write_text(f"agents:\n  - name: writer\n    url: {mine}\n")
    app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[a.as_entry() for a in fleet.agents], steady=True)
    async with app.run_test(size=SIZE) as pilot:
        pane = app.screen.query_one(AgentsPane)
        await until(lambda: len(pane.statuses) == 2)
        await pilot.pause(0.1)
        assert [e.name for e in app.agents()] == ["writer", "echo"]
        assert app.agents()[0].url == mine  # the file's own entry wins
        said = [n for n in notices(app) if "demo" in n]
        assert said == [
            "Your agents file names writer, as the demo fleet does: its entry is listed, the demo's writer is not "
            "(rename one to see both)."
        ]


async def test_adding_an_agent_under_a_demo_agents_name_says_what_it_hides(fleet, tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[a.as_entry() for a in fleet.agents], steady=True)
    async with app.run_test(size=SIZE) as pilot:
        table = app.screen.query_one(DataTable)
        await until(lambda: table.row_count == 2)
        assert not [n for n in notices(app) if "demo" in n]
        await pilot.press("a")
        await until(lambda: isinstance(app.screen, AddAgentScreen))
        app.screen.query_one("#url", Input).value = fleet.agent("writer").url
        app.screen.query_one("#name", Input).value = "echo"
        await click(pilot, "#add")
        await until(lambda: not isinstance(app.screen, AddAgentScreen))
        await until(lambda: any("names echo, as the demo fleet does" in n for n in notices(app)))
        assert [e.name for e in app.agents()] == ["echo", "writer"]
