"""The Workflows tab keeps rows to choose from on every terminal the README promises (130x40, 80x24, 60x15): at
60x15 both tables had room for their headers and a horizontal scrollbar only."""

from __future__ import annotations

import pytest
from test_tui_runs_paging import make_runs
from textual.widgets import DataTable
from tui_support import until

from switchboard.tui.app import SwitchboardApp
from switchboard.tui.widgets.workflows_pane import WorkflowsPane

SIZES = [(130, 40), (80, 24), (60, 15)]


def rows_in_view(table: DataTable) -> int:
    """How many of the table's rows the person sees: its height under the header, less a horizontal scrollbar."""
    room = table.scrollable_content_region.height - table.header_height
    return max(0, min(room, table.row_count))


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
async def test_the_workflows_tab_shows_workflows_and_runs_to_choose_from(size, tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    make_runs(tmp_path, 5)
    app = SwitchboardApp(tmp_path / "agents.yaml", steady=True)
    async with app.run_test(size=size) as pilot:
        await pilot.press("f3")
        pane = app.screen.query_one(WorkflowsPane)
        workflows = pane.query_one("#workflows-table", DataTable)
        runs = pane.query_one("#runs-table", DataTable)
        await until(lambda: workflows.row_count >= 3 and runs.row_count == 5)
        await pilot.pause()
        assert rows_in_view(workflows) >= 3, (workflows.scrollable_content_region, workflows.row_count)
        assert rows_in_view(runs) >= 1, runs.scrollable_content_region
        # And the one under the cursor is among them, drawn where the person looks.
        region = workflows.region
        assert region.height > 0 and app.screen.region.contains_region(region)
        assert app.focused is workflows
