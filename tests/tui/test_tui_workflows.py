"""The workflows tab and the run view, driven by Pilot against the real demo fleet."""

from __future__ import annotations

import pytest
from textual.widgets import Input
from tui_support import demo_fleet, until

from switchboard.demo.base import DemoSettings
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.widgets.prompt_pane import PromptPane
from switchboard.tui.widgets.run_view import RunView
from switchboard.tui.widgets.workflows_pane import WorkflowsPane

WORKFLOW = """\
version: 1
name: scratch
description: Two agents in parallel, a question for you, then one that combines.
inputs:
  topic: {required: true, description: what to write about}
steps:
  - name: draft
    agent: writer
    task: "{{inputs.topic}} pace 1"
  - name: survey
    agent: echo
    task: "survey {{inputs.topic}}"
  - name: ask
    agent: interviewer
    task: interview me
    dependsOn: [survey]
  - name: combine
    agent: echo
    task: "combine {{steps.ask.output}}"
    dependsOn: [draft, ask]
outputs:
  combined: "{{steps.combine.output}}"
"""


@pytest.fixture(scope="module")
def fleet():
    with demo_fleet(DemoSettings(writer_pace_ms=1)) as handle:
        yield handle


def run_state(view: RunView) -> str:
    """A run view's state and each step's, with its task's state and turns: what a failure needs to say."""
    steps = []
    for name, step in view.steps.items():
        task = step.view
        state = task.state.value if task is not None and task.state is not None else None
        turns = len(task.history) if task is not None else 0
        why = f", {step.error_code}: {step.error}" if step.error_code or step.error else ""
        steps.append(f"{name}: {step.status} (task {state}, {turns} turns{why})")
    return f"{view.status}, waiting={view.waiting}; " + "; ".join(steps)


async def test_a_workflow_launched_from_the_tui_pauses_for_input_then_completes(fleet, tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    (tmp_path / "config" / "workflows").mkdir(parents=True)
    (tmp_path / "config" / "workflows" / "scratch.yaml").write_text(WORKFLOW)
    app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[a.as_entry() for a in fleet.agents], steady=True)
    async with app.run_test(size=(130, 40)) as pilot:
        await pilot.press("f3")
        pane = app.screen.query_one(WorkflowsPane)
        await until(lambda: any(f.path.name == "scratch.yaml" for f in getattr(pane, "files", [])))
        table = pane.query_one("#workflows-table")
        table.move_cursor(row=[f.path.name for f in pane.files].index("scratch.yaml"))
        await pilot.press("enter")
        await until(lambda: bool(app.screen.query(Input)))
        await pilot.press(*"tides", "enter")
        await until(lambda: bool(app.screen.query(RunView)))
        view = app.screen.query(RunView).last()
        # The interviewer's first question (a name) is a text field; its second, its A2UI form (the choices).
        for turns, field_of in enumerate(("PromptPane #prompt-input", "PromptPane A2uiSurface RadioSet"), start=1):
            try:
                await until(lambda: bool(app.screen.query(field_of)))  # noqa: B023
            except TimeoutError:
                raise AssertionError(f"question {turns} never shown; the run: {run_state(view)}") from None
            field = app.screen.query_one(field_of)
            await until(lambda: app.focused is field)  # noqa: B023
            assert view.waiting and view.steps["ask"].status == "waiting"
            picture = view.query_one(".run-picture-content")
            await until(lambda: "┏" in str(picture.render()))  # noqa: B023 - the waiting step's box is drawn heavy
            hint = str(app.screen.query_one(PromptPane).query(".prompt-hint").last().render())
            assert "message box" not in hint and "the step waits" in hint  # a run view has no message box
            # the name; then down: the second choice, space: pick it, tab: the own-words field, enter: send the form
            await pilot.press(*(("A", "d", "a") if turns == 1 else ("down", "space", "tab")), "enter")
            await until(lambda: not app.screen.query(PromptPane) or len(view.steps["ask"].view.history) > turns)  # noqa: B023
        await until(lambda: view.status == "completed", timeout=60)
        assert {name: s.status for name, s in view.steps.items()} == dict.fromkeys(view.steps, "completed")
        # The picture: the graph with every step and an arrow into each step that depends on others, then (ctrl+t)
        # the timeline with the two waits for the person, then (ctrl+t) nothing.
        picture = view.query_one(".run-picture-content")
        await until(lambda: str(picture.render()).count("completed") == 4)
        drawn = str(picture.render())
        assert all(name in drawn for name in view.steps) and drawn.count("▶") == 2 and "┏" not in drawn
        view.query_one("#steps").focus()
        await pilot.press("ctrl+t")
        await until(lambda: "░" in str(picture.render()))
        assert "█" in str(picture.render())
        await pilot.press("ctrl+t")
        await until(lambda: not view.query_one(".run-picture").display)
        assert "test my own agent" in view.steps["combine"].output
        assert view.steps["draft"].correlation_id.endswith(":delegate:draft")
        # The run's outputs, under its head.
        outputs = view.query_one(".run-outputs")
        await until(lambda: outputs.display and "combined" in str(outputs.render()))
        assert "test my own agent" in str(outputs.render())

        # The run is in the journal: it opens again, read-only, from the workflows tab.
        await pilot.press("f3")
        await pilot.press("r")
        runs = pane.query_one("#runs-table")
        await until(lambda: view.run.run_id in [row.value for row in runs.rows])
        runs.focus()
        runs.move_cursor(row=[row.value for row in runs.rows].index(view.run.run_id))
        await pilot.press("enter")
        await until(lambda: len(app.screen.query(RunView)) == 2)
        past = app.screen.query(RunView).last()
        assert past.run is None and past.record.run_id == view.run.run_id
        assert {s.status for s in past.steps.values()} == {"completed"}
        assert "test my own agent" in past.steps["combine"].output
        await until(lambda: "test my own agent" in str(past.query_one(".run-outputs").render()))


BROKEN = """\
version: 1
name: broken
steps:
""" + "".join(f"  - name: s{n}\n    agent: nobody{n}\n    task: hi\n" for n in range(6))


async def test_a_workflow_that_cannot_run_shows_its_problems_with_their_lines(fleet, tmp_path, monkeypatch):
    from switchboard.tui.screens.problems import ProblemsScreen

    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    (tmp_path / "config" / "workflows").mkdir(parents=True)
    (tmp_path / "config" / "workflows" / "broken.yaml").write_text(BROKEN)
    app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[a.as_entry() for a in fleet.agents], steady=True)
    async with app.run_test(size=(130, 40)) as pilot:
        await pilot.press("f3")
        pane = app.screen.query_one(WorkflowsPane)
        await until(lambda: any(f.path.name == "broken.yaml" for f in getattr(pane, "files", [])))
        table = pane.query_one("#workflows-table")
        table.move_cursor(row=[f.path.name for f in pane.files].index("broken.yaml"))
        await pilot.pause(0.1)
        # The row counts the problems, the pane under the table shows the first few, each with its line.
        row = " ".join(str(cell) for cell in table.get_row_at(table.cursor_row))
        assert "broken.yaml — cannot run: 6 problems, from line 5" in row
        summary = str(pane.query_one("#workflow-summary").render())
        for n in range(4):
            assert f"line {5 + 3 * n}: step s{n}: the agent nobody{n} is unknown" in summary
        assert "and 2 more" in summary
        # Enter shows them all, with the fixes.
        await pilot.press("enter")
        await until(lambda: isinstance(app.screen, ProblemsScreen))
        shown = [str(problem.render()) for problem in app.screen.query(".problem")]
        assert len(shown) == 6
        assert all("Fix:" in text for text in shown)
        assert shown[5].startswith("line 20") and "nobody5" in shown[5]
        await pilot.press("escape")
        await until(lambda: not isinstance(app.screen, ProblemsScreen))
