"""The TUI attached to a real Temporal dev server: the Workflows tab lists the server's runs (t), a run opened
from there is watched live, its question is answered in the prompt pane (the run's answer update), and an
answer given meanwhile from another terminal takes the question away here."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Callable

from workflow_support import REPO, run_cli

from switchboard.a2a.model import TaskState
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.widgets.prompt_pane import PromptPane
from switchboard.tui.widgets.run_view import RunView
from switchboard.tui.widgets.workflows_pane import WorkflowsPane

INTERVIEW = REPO / "examples" / "workflows" / "interview.yaml"


async def until(predicate: Callable[[], object], app=None, timeout: float = 60.0) -> None:
    """Wait until `predicate()` is true; given the app, a wait that times out says what the app saw."""
    try:
        async with asyncio.timeout(timeout):
            while not predicate():
                await asyncio.sleep(0.05)
    except TimeoutError:
        if app is None:
            raise
        raise AssertionError(f"timed out; the app saw: {seen(app)}") from None


def seen(app) -> str:
    """What the app shows and holds of runs: the runs list, each run view and its attached run, the app's
    workers and notifications (a failure here said only that a wait timed out)."""
    lines = [f"screen {type(app.screen).__name__}, keyboard at {app.focused!r}"]
    lines.append(f"workers: {[(w.name, w.state.name, repr(w.error)) for w in app.workers]}")
    lines.append(f"notifications: {[n.message for n in app._notifications]}")
    for pane in app.screen.query(WorkflowsPane):
        table = pane.query_one("#runs-table")
        rows = [row.value for row in table.rows]
        lines.append(f"runs ({pane.runs_source}): cursor {table.cursor_row} of {rows}")
        lines.append(f"runs note: {pane.query_one('#runs-note').render()}")
    for view in app.screen.query(RunView):
        run = view.run
        steps = {n: (s.status, s.view.state, s.error_code, s.error) for n, s in view.steps.items()}
        notices = {n: [x.text for x in t.notices] for n, t in view._turns.items()}
        lines.append(f"run view {view.title!r}: {view.status}, waiting {view.waiting}, steps {steps}, {notices}")
        if run is not None:
            attached = {
                "run": run.run_id,
                "where": getattr(run, "where", None),
                "records": len(getattr(run, "timed", [])),
                "asking": list(getattr(run, "_asking", {})),
                "live": {n: (t, task.done()) for n, (t, _, task) in getattr(run, "_live", {}).items()},
            }
            lines.append(f"  its run: {attached}")
    return "\n".join(lines)


def start_interview(home, agents_file, workers) -> str:
    done = run_cli(
        home,
        agents_file,
        *["run", str(INTERVIEW), "--follow", "-o", "json", "--temporal", workers.address],
        *["--task-queue", workers.queue],
    )
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)["run"]
    assert run["status"] == "awaiting_input"
    return run["runId"]


def question_text(app) -> str:
    panes = app.screen.query(PromptPane)
    return "".join(getattr(part, "text", "") for part in panes.first().question) if panes else ""


def unused_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def test_a_run_on_temporal_is_watched_and_answered_from_the_workflows_tab(home, agents_file, workers):
    run_id = start_interview(home, agents_file, workers)
    app = SwitchboardApp(agents_file, steady=True, temporal=workers.address)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.press("f3")
        pane = app.screen.query_one(WorkflowsPane)
        runs = pane.query_one("#runs-table")
        runs.focus()
        await pilot.press("t")
        await until(lambda: run_id in [row.value for row in runs.rows], app)
        assert "on Temporal" in str(pane.query_one("#runs-title").render())
        runs.move_cursor(row=[row.value for row in runs.rows].index(run_id))
        await pilot.press("enter")
        await until(lambda: bool(app.screen.query(PromptPane)), app)
        view = app.screen.query_one(RunView)
        assert view.title == "interview" and view.run.run_id == run_id
        assert "What is your name?" in question_text(app)
        # Typed once the keyboard is in the question, as a person does (typed before, the A went elsewhere).
        await until(lambda: app.focused in app.screen.query("PromptPane Input"), app)
        await pilot.press(*"Ada", "enter")
        # The interviewer's second question comes through the server into a new pane.
        await until(lambda: question_text(app) not in ("", "What is your name?"), app)
        # Someone else answers it, from another terminal: the pane here goes away, the run goes on to its end.
        other = run_cli(
            home,
            agents_file,
            *["run", "--resume", run_id, "--answer", "interview=ship it", "--temporal", workers.address],
        )
        assert other.returncode == 0, other.stderr
        await until(lambda: view.status == "completed", app)
        await until(lambda: not app.screen.query(PromptPane), app)
        assert "Ada" in view.outputs["summary"] and "ship it" in view.outputs["summary"]
        # Streamed here, and read once more after the answer given elsewhere: the task as it ended.
        await until(lambda: view.steps["interview"].view.state is TaskState.COMPLETED, app)
        assert {name: step.status for name, step in view.steps.items()} == {
            "interview": "completed",
            "welcome": "completed",
        }


async def test_without_a_server_the_tab_lists_local_runs_and_a_bad_address_is_said(home, agents_file):
    app = SwitchboardApp(agents_file, steady=True, temporal="not an address")
    async with app.run_test(size=(140, 44)) as pilot:
        assert app.temporal_address is None
        assert any("is not HOST:PORT" in warning for warning in app.startup_warnings)
        await pilot.press("f3")
        pane = app.screen.query_one(WorkflowsPane)
        pane.query_one("#runs-table").focus()
        await pilot.press("t")  # no server: the key does nothing
        assert pane.runs_source == "local"
        assert "Temporal" not in str(pane.query_one("#runs-title").render())


async def test_an_unreachable_server_is_said_in_the_tab(home, agents_file):
    app = SwitchboardApp(agents_file, steady=True, temporal=f"127.0.0.1:{unused_port()}")
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.press("f3")
        pane = app.screen.query_one(WorkflowsPane)
        pane.query_one("#runs-table").focus()
        await pilot.press("t")
        note = pane.query_one("#runs-note")
        await until(lambda: "cannot reach the Temporal server" in str(note.render()))


async def test_a_run_that_cannot_be_watched_says_why_in_its_view(home, agents_file, workers):
    """A run gone from the server between the list and the enter (deleted, or past its retention): its view says
    so, and the app goes on (the watch died on the query's UsageError and took the app with it)."""
    app = SwitchboardApp(agents_file, steady=True, temporal=workers.address)
    async with app.run_test(size=(140, 44)) as pilot:
        await pilot.press("f3")
        pane = app.screen.query_one(WorkflowsPane)
        pane.post_message(WorkflowsPane.OpenRun("gone-run", "temporal", "gone"))  # what enter on its row sends
        await until(lambda: bool(app.screen.query(RunView)), app)
        view = app.screen.query_one(RunView)
        await until(lambda: view.status == "interrupted", app)
        head = app.screen.query_one(RunView).query_one(".run-head")
        await until(lambda: "there is no run gone-run on the Temporal server" in str(head.render()), app)
        assert "not watched here" in str(head.render()) and not view.busy
        await pilot.press("f3")  # the app still answers keys
        assert app.return_code is None and app.screen.query_one(WorkflowsPane).display


RESEARCH = """\
version: 1
name: slow-research
agents: [researcher]
steps:
  - name: research
    agent: researcher
    task: solar sails
"""


async def test_a_running_steps_task_is_streamed_into_the_run_view(home, agents_file, workers, tmp_path):
    """The run's records carry no A2A events (they stay on the worker): what the view shows of the task while
    the step runs comes from following the task here, found by the id in the turn's heartbeat."""
    flow = tmp_path / "slow-research.yaml"
    flow.write_text(RESEARCH)
    app = SwitchboardApp(agents_file, steady=True, temporal=workers.address)
    async with app.run_test(size=(140, 44)) as pilot:
        # The TUI is up before the run starts: the step lasts seconds, and a loaded machine may take as long to
        # start an app.
        await pilot.press("f3")
        pane = app.screen.query_one(WorkflowsPane)
        runs = pane.query_one("#runs-table")
        runs.focus()
        started = await asyncio.to_thread(
            run_cli,
            home,
            agents_file,
            *["run", str(flow), "-o", "json", "--temporal", workers.address, "--task-queue", workers.queue],
        )
        assert started.returncode == 0, started.stderr
        run_id = json.loads(started.stdout)["run"]["runId"]
        await pilot.press("t")
        await until(lambda: run_id in [row.value for row in runs.rows], app)
        runs.move_cursor(row=[row.value for row in runs.rows].index(run_id))
        await pilot.press("enter")
        await until(lambda: bool(app.screen.query(RunView)) and app.screen.query_one(RunView).run is not None, app)
        view = app.screen.query_one(RunView)
        await until(lambda: "research" in view.steps and view.steps["research"].view.state is not None, app)
        assert view.steps["research"].status == "running"  # seen while the step runs, not from its end
        await until(lambda: view.status == "completed", app)
        assert view.steps["research"].view.artifacts  # the task's artifact, as streamed here
