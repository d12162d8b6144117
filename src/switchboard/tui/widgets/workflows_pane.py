"""The workflows tab: the workflow files (examples/ and the person's workflows folder) with their
description and inputs, and the runs from the run index, kept up to date while the tab is shown (runs come
from other processes too: `switchboard run`, callers of `switchboard serve`).

The runs are read on a thread, a page at a time, newest first: the tab shows at once whatever the number of
runs, and the next page is read when the cursor comes near the last row loaded."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import DataTable, Static

from ...agents import AgentsFile
from ...paths import config_dir
from ...safe_text import strip_controls
from ..typed_app import switchboard_app
from .tables import RowTable, fill_table

if TYPE_CHECKING:  # imported when the tab is first shown: not while the app starts
    from ...workflow.index import RunPage
    from ...workflow.spec import Issue, Workflow

RUNS_EVERY = 2.0  # seconds between looks at the journal while the tab is shown


def workflow_dirs() -> list[Path]:
    """examples/workflows of a source checkout, then CONFIG_DIR/workflows."""
    examples = Path(__file__).resolve().parents[4] / "examples" / "workflows"
    return [d for d in (examples, config_dir() / "workflows") if d.is_dir()]


@dataclass
class WorkflowFile:
    path: Path
    workflow: Workflow | None = None  # when it loads
    problem: str | None = None  # the headline: "the workflow cannot run (8 problems)"
    issues: list[Issue] = field(default_factory=list)  # each with its line and fix

    def row_problem(self) -> str:
        """The problems in a few words, for the file's row: how many, and the first line with one."""
        if not self.issues:
            return (self.problem or "").splitlines()[0] if self.problem else "cannot be read"
        count = f"{len(self.issues)} problem{'s' if len(self.issues) != 1 else ''}"
        first = next((issue.line for issue in self.issues if issue.line), None)
        return f"cannot run: {count}" + (f", from line {first}" if first else "")

    def problem_lines(self) -> list[tuple[int | None, str, str]]:
        """Each problem as (line, what, fix); a file that failed some other way gives its whole message."""
        if self.issues:
            return [(issue.line, issue.message, issue.fix) for issue in self.issues]
        return [(None, self.problem or "", "")]


def find_workflows(agents: AgentsFile) -> list[WorkflowFile]:
    from ...workflow.loader import load_workflow

    found: list[WorkflowFile] = []
    for folder in workflow_dirs():
        for path in sorted(folder.glob("*.y*ml")):
            if path.name.startswith("agents"):
                continue  # agents files live beside the examples
            try:
                found.append(WorkflowFile(path, load_workflow(path, agents)))
            except Exception as exc:  # a broken file is listed with its problems, never fatal
                issues = list(getattr(exc, "issues", []))
                message = getattr(exc, "message", str(exc))
                headline = message.splitlines()[0].rstrip(":") if issues else message
                found.append(WorkflowFile(path, problem=headline, issues=issues))
    return found


SUMMARY_PROBLEMS = 4  # problems listed under the table; enter shows them all
RUNS_PAGE = 100  # runs read at a time
RUNS_AHEAD = 20  # the next page is read when the cursor comes this near the last row loaded
RUNS_COLUMNS = ("Run", "Workflow", "Status", "Steps", "Started")


def started_text(epoch: float | None) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(epoch)) if epoch is not None else ""


def problem_text(line: int | None, what: str) -> str:
    return f"line {line}: {what}" if line else what


class WorkflowsPane(Vertical):
    BINDINGS = [
        Binding("enter", "launch", "Launch / problems", id="workflows.launch"),
        Binding("r", "reload", "Reload", id="workflows.reload"),
        Binding("t", "toggle_source", "Local / Temporal runs", id="workflows.source"),
        Binding("w", "toggle_waiting", "Waiting only", id="workflows.waiting"),
    ]
    app = switchboard_app
    runs_source = "local"  # or "temporal": the runs of the Temporal server the app is given
    runs_waiting = False  # only runs with a step waiting for input
    _first_page: dict[str, list[str]] | None = None  # the runs' first page as shown: unchanged, not redrawn

    class Launch(Message):
        def __init__(self, file: WorkflowFile) -> None:
            super().__init__()
            self.file = file

    class ShowProblems(Message):
        """The person chose a workflow file that cannot run: the screen shows its problems."""

        def __init__(self, file: WorkflowFile) -> None:
            super().__init__()
            self.file = file

    class OpenRun(Message):
        def __init__(self, run_id: str, source: str = "local", workflow: str = "") -> None:
            super().__init__()
            self.run_id = run_id
            self.source = source  # "local": from the journal, read-only; "temporal": watched and answered
            self.workflow = workflow

    def compose(self) -> ComposeResult:
        yield Static(Content.styled("Workflows", "bold"), id="workflows-title", classes="section-title")
        yield RowTable(id="workflows-table", enter="Launch")
        yield Static(id="workflow-summary")
        yield Static(id="runs-title", classes="section-title")
        yield RowTable(id="runs-table", enter="Open run")
        yield Static(id="runs-note")

    def on_show(self) -> None:
        """Read the files and the journal when the tab is first shown: not while the app starts. (The palette may
        have read the files already: the journal is followed from the first show all the same.)"""
        if not hasattr(self, "files"):
            self.action_reload()
        if not hasattr(self, "_following"):
            self._following = self.set_interval(RUNS_EVERY, self._follow_runs)

    def workflow_files(self) -> list[WorkflowFile]:
        """The workflow files, read now if the tab has not been shown yet (the command palette lists them)."""
        if not hasattr(self, "files"):
            self.action_reload()
        return self.files

    def action_reload(self) -> None:
        agents = AgentsFile(None, self.app.agents(), [])
        self.files = find_workflows(agents)
        rows: dict[str, list[Content | str]] = {}
        for index, item in enumerate(self.files):
            flow = item.workflow
            if flow is None:
                rows[str(index)] = [
                    Content.styled(item.path.stem, "$error"),
                    "—",
                    "—",
                    Content.styled(strip_controls(f"{item.path.name} — {item.row_problem()}"), "$error"),
                ]
            else:
                rows[str(index)] = [
                    Content.styled(strip_controls(flow.name), "bold"),
                    str(len(flow.steps)),
                    ", ".join(flow.inputs) or "—",
                    Content.styled(item.path.name, "$text-muted"),
                ]
        fill_table(self.query_one("#workflows-table", DataTable), ("Workflow", "Steps", "Inputs", "File"), rows)
        self._runs()
        self._summary()

    def _runs(self) -> None:
        self.runs_next: int | None = None  # where the next page of runs starts (None: no more)
        self.runs_loading = True
        self.query_one("#runs-title", Static).update(self._runs_title())
        if not self.query_one("#runs-table", DataTable).row_count:
            self.query_one("#runs-note", Static).update(Content.styled("reading the runs…", "$text-muted italic"))
        self._read_runs(0, heal=True)

    def _runs_title(self) -> Content:
        only = " waiting for input" if self.runs_waiting else ""
        if self.runs_source == "temporal":
            where = strip_controls(self.app.temporal_address or "")
            title = f"Runs{only} on Temporal {where} (enter watches one and answers its questions; t: local runs)"
        else:
            title = f"Past runs{only} (enter opens one, read-only)"
            if self.app.temporal_address:
                title = title[:-1] + "; t: runs on Temporal)"
        return Content.styled(title, "bold")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "toggle_source":
            return bool(self.app.temporal_address)  # shown only when there is a Temporal server to list
        return True

    def action_toggle_source(self) -> None:
        if not self.app.temporal_address:
            return
        self.runs_source = "temporal" if self.runs_source == "local" else "local"
        self._first_page = None
        self.query_one("#runs-table", DataTable).clear()
        self._runs()

    def action_toggle_waiting(self) -> None:
        self.runs_waiting = not self.runs_waiting
        self._first_page = None
        self.query_one("#runs-table", DataTable).clear()
        self._runs()

    def _read_runs(self, offset: int, *, heal: bool) -> None:
        if self.runs_source == "temporal":
            self._read_temporal_runs(offset)
        else:
            self._read_local_runs(offset, heal=heal)

    @work(exclusive=True, group="workflow-runs")
    async def _read_temporal_runs(self, offset: int) -> None:
        """A page of the Temporal server's runs (its visibility), newest first."""
        from ...a2a.errors import SwitchboardError
        from ...workflow.temporal.client import list_page

        try:
            client = await self.app.temporal_client()
            page = await list_page(client, waiting=self.runs_waiting, limit=RUNS_PAGE, offset=offset)
        except SwitchboardError as exc:
            self._runs_failed(f"{exc}" + (f" ({exc.hint})" if exc.hint else ""))
            return
        except Exception as exc:  # the server's own errors (RPCError): said, never fatal
            self._runs_failed(f"cannot list the runs on Temporal {self.app.temporal_address}: {exc}")
            return
        self._show_runs(page)

    def _runs_failed(self, text: str) -> None:
        self.runs_loading = False
        self.query_one("#runs-note", Static).update(Content.styled(strip_controls(text), "$error"))

    def _follow_runs(self) -> None:
        """While the tab is shown, the first page again (only while no later page is loaded: rows read further
        down stay as they were until `r`)."""
        if self.is_on_screen and not self.runs_loading and self.runs_next in (None, RUNS_PAGE):
            self.runs_loading = True
            self._read_runs(0, heal=True)

    @work(thread=True, exclusive=True, group="workflow-runs")
    def _read_local_runs(self, offset: int, *, heal: bool) -> None:
        """A page of runs from the index (mended from the journals first on a reload), off the event loop."""
        from ...workflow.index import RunIndex, RunPage, default_dir

        directory = default_dir()
        if directory.is_dir():
            with RunIndex.open(directory) as index:
                if heal:
                    index.heal()
                page = index.page(waiting=self.runs_waiting, limit=RUNS_PAGE, offset=offset)
        else:
            page = RunPage([], 0, offset)
        self.app.call_from_thread(self._show_runs, page)

    def _show_runs(self, page: RunPage) -> None:
        table = self.query_one("#runs-table", DataTable)
        rows = {
            run.run_id: [
                run.run_id,
                strip_controls(run.workflow),
                run.status,
                f"{run.steps_completed}/{run.steps_total}",
                started_text(run.started_at),
            ]
            for run in page.runs
        }
        if page.offset == 0:
            if rows != self._first_page:  # unchanged: no redraw, the cursor stays put
                self._first_page = rows
                fill_table(table, RUNS_COLUMNS, rows)
        else:
            for key, cells in rows.items():
                if key not in table.rows:
                    table.add_row(*cells, key=key)
        self.runs_next, self.runs_loading = page.next_offset, False
        note = self.query_one("#runs-note", Static)
        if page.total > table.row_count:
            note.update(Content.styled(f"{table.row_count} of {page.total} runs; more as you scroll", "$text-muted"))
        else:
            note.update("" if page.total else Content.styled("no runs yet", "$text-muted"))
        self._more_runs()

    @on(DataTable.RowHighlighted, "#runs-table")
    def _more_runs(self) -> None:
        """The next page, when the cursor comes near the last row loaded (also once a read in flight is done: the
        cursor may have moved meanwhile)."""
        table = self.query_one("#runs-table", DataTable)
        if self.runs_next is not None and not self.runs_loading and table.cursor_row >= table.row_count - RUNS_AHEAD:
            self.runs_loading = True
            self._read_runs(self.runs_next, heal=False)

    @on(DataTable.RowHighlighted, "#workflows-table")
    def _summary(self) -> None:
        table = self.query_one("#workflows-table", DataTable)
        summary = self.query_one("#workflow-summary", Static)
        if not self.files or table.cursor_row is None or table.cursor_row >= len(self.files):
            folders = " or ".join(str(d) for d in [*workflow_dirs(), config_dir() / "workflows"][:2])
            summary.update(f"No workflow files yet: put YAML workflows in {folders}.")
            return
        item = self.files[table.cursor_row]
        if item.workflow is None:
            problems = item.problem_lines()
            lines = [Content.styled(strip_controls(f"{item.path}: {item.problem}"), "bold $error")]
            lines += [
                Content(strip_controls(f"  {problem_text(line, what)}"))
                for line, what, _ in problems[:SUMMARY_PROBLEMS]
            ]
            more = len(problems) - SUMMARY_PROBLEMS
            ask = (
                f"  … and {more} more: enter shows them all, with the fixes" if more > 0 else "  enter shows the fixes"
            )
            lines.append(Content.styled(ask, "$text-muted italic"))
            summary.update(Content("\n").join(lines))
            return
        flow = item.workflow
        about = [strip_controls(flow.description or "(no description)")]
        for name, spec in flow.inputs.items():
            need = "required" if spec.required and spec.default is None else f"default {spec.default!r}"
            about.append(f"  input {name} ({need}) {strip_controls(spec.description)}")
        summary.update(Content("\n".join(about)))

    @on(DataTable.RowSelected, "#workflows-table")
    def action_launch(self) -> None:
        """Launch the highlighted workflow; one that cannot run shows its problems instead."""
        table = self.query_one("#workflows-table", DataTable)
        if not self.files or table.cursor_row is None or table.cursor_row >= len(self.files):
            return
        item = self.files[table.cursor_row]
        if item.workflow is not None:
            self.post_message(self.Launch(item))
            return
        self.post_message(self.ShowProblems(item))

    @on(DataTable.RowSelected, "#runs-table")
    def _open_run(self, event: DataTable.RowSelected) -> None:
        run_id = str(event.row_key.value)
        workflow = str(event.data_table.get_row(event.row_key)[1])
        self.post_message(self.OpenRun(run_id, self.runs_source, workflow))
