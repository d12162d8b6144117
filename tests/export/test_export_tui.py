"""Exports from the TUI: ctrl+o on a conversation (on the agents tab only the wire is offered), the palette for
the wire."""

from __future__ import annotations

import json

import pytest
from export_support import har_errors
from textual.widgets import DataTable, OptionList
from tui_support import until

from switchboard.a2a.model import TaskState
from switchboard.demo import writer
from switchboard.export.json_doc import load
from switchboard.export.transcript import replay
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.exporting import exports_dir
from switchboard.tui.screens.export import ExportScreen
from switchboard.tui.widgets.conversation_view import ConversationView

SIZE = (120, 40)


@pytest.fixture
def app(fleet, tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    return SwitchboardApp(
        tmp_path / "agents.yaml", extra_agents=[agent.as_entry() for agent in fleet.agents], steady=True
    )


async def choose(pilot, label_start: str) -> None:
    await pilot.press("ctrl+o")
    await until(lambda: isinstance(pilot.app.screen, ExportScreen))
    options = pilot.app.screen.query_one(OptionList)
    labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    options.focus()
    options.highlighted = next(i for i, label in enumerate(labels) if label.startswith(label_start))
    await pilot.press("enter")
    await until(lambda: not isinstance(pilot.app.screen, ExportScreen))


def exported(suffix: str) -> list:
    return sorted(exports_dir().glob(f"*{suffix}")) if exports_dir().is_dir() else []


async def test_ctrl_o_exports_the_shown_conversation_and_the_palette_the_wire(app):
    async with app.run_test(size=SIZE) as pilot:
        table = pilot.app.screen.query_one(DataTable)
        await until(lambda: "writer" in [row.value for row in table.rows])
        await pilot.press("ctrl+o")  # on the agents tab there is only the wire to export
        await until(lambda: isinstance(pilot.app.screen, ExportScreen))
        assert pilot.app.screen.query_one(OptionList).option_count == 1
        await pilot.press("escape")

        table.move_cursor(row=[row.value for row in table.rows].index("writer"))
        await pilot.press("enter")
        await until(lambda: bool(pilot.app.screen.query(ConversationView)))
        view = pilot.app.screen.query_one(ConversationView)
        await until(lambda: view.conversation is not None)
        view.query_one("#message").focus()
        await pilot.press(*"tides", "enter")
        await until(lambda: view.conversation.last is not None)
        await until(lambda: view.conversation.last.view.state is TaskState.COMPLETED)
        await until(lambda: not view.running)

        await choose(pilot, "This conversation as JSON")
        (path,) = exported(".json")
        assert path.name.startswith("conversation-writer-")
        views = replay(load(json.loads(path.read_text())))
        assert views[1].artifacts[writer.ARTIFACT_ID].text == writer.compose("tides")
        await choose(pilot, "This conversation as Markdown")
        assert writer.compose("tides").strip() in exported(".md")[0].read_text()

        await pilot.press("ctrl+p")
        await pilot.press(*"Export the wire as HAR")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await until(lambda: bool(exported(".har")))
        har = json.loads(exported(".har")[0].read_text())
        assert har_errors(har) == [] and any("_sseMessages" in e for e in har["log"]["entries"])
