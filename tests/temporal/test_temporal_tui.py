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


async def until(predicate: Callable[[], object], timeout: float = 60.0) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.05)


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
        await until(lambda: run_id in [row.value for row in runs.rows])
        assert "on Temporal" in str(pane.query_one("#runs-title").render())
        runs.move_cursor(row=[row.value for row in runs.rows].index(run_id))
        await pilot.press("enter")
        await until(lambda: bool(app.screen.query(PromptPane)))
        view = app.screen.query_one(RunView)
        assert view.title == "interview" and view.run.run_id == run_id
        assert "What is your name?" in question_text(app)
        await pilot.press(*"Ada", "enter")
        # The interviewer's second question comes through the server into a new pane.
        await until(lambda: question_text(app) not in ("", "What is your name?"))
        # Someone else answers it, from another terminal: the pane here goes away, the run goes on to its end.
        other = run_cli(
            home,
            agents_file,
            *["run", "--resume", run_id, "--answer", "interview=ship it", "--temporal", workers.address],
        )
        assert other.returncode == 0, other.stderr
        await until(lambda: view.status == "completed")
        await until(lambda: not app.screen.query(PromptPane))
        assert "Ada" in view.outputs["summary"] and "ship it" in view.outputs["summary"]
        # Streamed here, and read once more after the answer given elsewhere: the task as it ended.
        await until(lambda: view.steps["interview"].view.state is TaskState.COMPLETED)
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
        await until(lambda: run_id in [row.value for row in runs.rows])
        runs.move_cursor(row=[row.value for row in runs.rows].index(run_id))
        await pilot.press("enter")
        await until(lambda: bool(app.screen.query(RunView)) and app.screen.query_one(RunView).run is not None)
        view = app.screen.query_one(RunView)
        await until(lambda: "research" in view.steps and view.steps["research"].view.state is not None)
        assert view.steps["research"].status == "running"  # seen while the step runs, not from its end
        await until(lambda: view.status == "completed")
        assert view.steps["research"].view.artifacts  # the task's artifact, as streamed here
