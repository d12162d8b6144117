"""A tab just shown puts the keyboard on its main widget after its first refresh, unless the keyboard was put
in the tab before that refresh came (on a loaded machine it comes late): a click on the Workflows tab's runs
table then stayed on the workflows table, and the next enter launched a workflow instead of opening the run."""

from __future__ import annotations

from textual.widgets import TabbedContent
from tui_support import until

from switchboard.tui.app import SwitchboardApp
from switchboard.tui.widgets.workflows_pane import WorkflowsPane


async def test_the_keyboard_put_in_a_tab_before_its_first_refresh_stays_there(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    app = SwitchboardApp(tmp_path / "agents.yaml", steady=True)
    async with app.run_test(size=(140, 44)) as pilot:
        main = app.screen
        pane = main.query_one(WorkflowsPane)
        # The tab shown, and its runs table given the keyboard, with no refresh between (the race, made sure).
        main.query_one(TabbedContent).active = "workflows-tab"
        runs = pane.query_one("#runs-table")
        runs.focus()
        await pilot.pause()
        await pilot.pause()  # the tab's own focus, after its refresh, has had its turn
        assert app.focused is runs
        await pilot.press("enter")  # on the (empty) runs table: nothing opens, and no workflow is launched
        await pilot.pause()
        assert app.screen is main and not main.query("RunView")
        # Shown again with the keyboard elsewhere, the tab puts it on its main widget as before.
        main.query_one(TabbedContent).active = "agents-tab"
        await until(lambda: app.focused is main.query_one("#agents-table"))
        main.query_one(TabbedContent).active = "workflows-tab"
        await until(lambda: app.focused is pane.query_one("#workflows-table"))
