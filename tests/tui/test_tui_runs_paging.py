"""The Workflows tab's past runs: read off the event loop from the run index, a page at a time."""

from __future__ import annotations

import json
import threading

from tui_support import until

from switchboard.tui.app import SwitchboardApp
from switchboard.tui.widgets.workflows_pane import RUNS_PAGE, WorkflowsPane
from switchboard.workflow.index import RunIndex

RUNS = 2 * RUNS_PAGE + 17


def make_runs(home, count: int) -> list[str]:
    """`count` completed one-step runs, newest last (written as the journal writer lays them out)."""
    directory = home / "data" / "runs"
    directory.mkdir(parents=True)
    ids = []
    for n in range(count):
        run_id = f"20260101T{n // 3600:02d}{n // 60 % 60:02d}{n % 60:02d}-{n:06x}"
        at = f"2026-01-01T{n // 3600:02d}:{n // 60 % 60:02d}:{n % 60:02d}.000Z"
        records = [
            {
                "type": "RunStarted",
                "at": at,
                "runId": run_id,
                "workflow": "wf",
                "file": "/w.yaml",
                "steps": [{"name": "a"}],
            },
            {"type": "StepRequested", "at": at, "step": "a", "attempt": 1},
            {"type": "StepCompleted", "at": at, "step": "a", "output": "done"},
            {"type": "RunCompleted", "at": at, "status": "completed", "outputs": {}},
        ]
        (directory / f"{run_id}.jsonl").write_text(
            "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
        )
        ids.append(run_id)
    return ids


def row_keys(table) -> list[str]:
    return [row.value for row in table.rows]


async def test_runs_come_a_page_at_a_time_as_the_cursor_nears_the_end(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    ids = make_runs(tmp_path, RUNS)
    app = SwitchboardApp(tmp_path / "agents.yaml", steady=True)
    async with app.run_test(size=(130, 40)) as pilot:
        await pilot.press("f3")
        pane = app.screen.query_one(WorkflowsPane)
        runs = pane.query_one("#runs-table")
        note = pane.query_one("#runs-note")
        await until(lambda: runs.row_count == RUNS_PAGE)
        assert row_keys(runs) == ids[::-1][:RUNS_PAGE]  # newest first
        assert f"{RUNS_PAGE} of {RUNS} runs" in str(note.render())
        runs.focus()
        await until(lambda: app.focused is runs)  # the focus moves on a later callback than focus() returns
        for rows in (2 * RUNS_PAGE, RUNS):
            await pilot.press("end")
            try:
                await until(lambda: runs.row_count == rows)  # noqa: B023
            except TimeoutError:  # seen once on a loaded machine: say where the pane stood
                state = (runs.cursor_row, runs.row_count, pane.runs_next, pane.runs_loading, app.focused)
                raise AssertionError(f"page never came: cursor, rows, next, loading, focused = {state}") from None
        assert row_keys(runs) == ids[::-1]
        assert str(note.render()) == ""
        await pilot.press("end", "end")
        await pilot.pause()
        assert runs.row_count == RUNS  # nothing more to read, nothing read twice


async def test_the_tab_shows_while_the_runs_are_still_being_read(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    make_runs(tmp_path, 3)
    release = threading.Event()
    real_heal = RunIndex.heal

    def slow_heal(index: RunIndex) -> int:
        release.wait(30)  # a directory of many journals, on a slow disk
        return real_heal(index)

    monkeypatch.setattr(RunIndex, "heal", slow_heal)
    app = SwitchboardApp(tmp_path / "agents.yaml", steady=True)
    async with app.run_test(size=(130, 40)) as pilot:
        await pilot.press("f3")
        pane = app.screen.query_one(WorkflowsPane)
        runs = pane.query_one("#runs-table")
        note = pane.query_one("#runs-note")
        assert pane.files and pane.query_one("#workflows-table").row_count == len(pane.files)
        assert "reading the runs" in str(note.render()) and runs.row_count == 0
        await pilot.press("down")  # the app answers keys meanwhile
        release.set()
        await until(lambda: runs.row_count == 3)
        assert str(note.render()) == ""


async def test_runs_keep_being_followed_when_the_palette_read_the_workflows_before_the_tab_was_shown(
    tmp_path, monkeypatch
):
    # The command palette lists workflows (workflow_files() reads them); the tab, shown afterwards, then never
    # started following the journal: a run started in the TUI did not appear in Past runs until `r`.
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    first = make_runs(tmp_path, 1)
    app = SwitchboardApp(tmp_path / "agents.yaml", steady=True)
    async with app.run_test(size=(130, 40)) as pilot:
        pane = app.screen.query_one(WorkflowsPane)
        pane.workflow_files()  # what ctrl+p does, before f3
        await pilot.press("f3")
        runs = pane.query_one("#runs-table")
        await until(lambda: row_keys(runs) == first)
        later = "20260102T000000-000001"
        journal = (tmp_path / "data" / "runs" / f"{first[0]}.jsonl").read_text().replace(first[0], later)
        (tmp_path / "data" / "runs" / f"{later}.jsonl").write_text(journal)
        await until(lambda: row_keys(runs) == [later, *first])
