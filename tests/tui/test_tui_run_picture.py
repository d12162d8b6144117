"""The run view's picture drawn in text: the graph's boxes in their columns with a line per dependency, fitting the
width it is given, and the timeline's bars."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from switchboard.tui.widgets.run_picture import WIDEST, graph, timeline_picture
from switchboard.workflow.picture import timeline
from switchboard.workflow.state import StepState

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "workflows"


def _steps() -> dict[str, StepState]:
    steps = {
        "research": StepState("research", agent="researcher", status="completed"),
        "convert": StepState("convert", agent="legacy", status="failed"),
        "ask": StepState("ask", agent="interviewer", status="waiting"),
        "combine": StepState("combine", agent="echo", depends_on=["research", "convert", "ask"]),
    }
    steps["research"].started_at, steps["research"].ended_at = 100.0, 104.0
    steps["ask"].started_at = 100.5
    return steps


def test_the_graph_draws_a_box_per_step_in_columns_and_a_line_per_dependency():
    drawn = graph(_steps(), 100, now=110.0).plain
    lines = drawn.splitlines()
    assert len(lines) == 9  # three boxes of three lines in the first column
    assert lines[0].index("research") < lines[0].index("combine")  # the dependent right of what it needs
    # The three lines join into one arrow at combine: across from research, up from convert and ask.
    assert drawn.count("▶") == 1 and "┬" in drawn and "╯" in drawn
    assert "┏" in drawn and "┓" in drawn  # the waiting step is drawn heavy
    assert "completed 4.0s" in drawn and "waiting 9.5s" in drawn and "pending" in drawn
    assert max(len(line) for line in lines) <= 100


def _example_steps() -> dict[str, dict[str, StepState]]:
    """The steps of every workflow in examples/workflows (a relay file's workflows each), all ended a while ago."""
    found: dict[str, dict[str, StepState]] = {}
    for path in sorted(EXAMPLES.glob("*.yaml")):
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
        for workflow in [document] if "steps" in document else document["workflows"]:
            steps = {}
            for step in workflow["steps"]:
                state = StepState(
                    step["name"], type=step.get("type", "a2a"), agent=step.get("agent"), status="completed"
                )
                state.depends_on = list(step.get("dependsOn", []))
                state.started_at, state.ended_at = 100.0, 231.2  # "completed 131.2s": the longest the state says
                steps[step["name"]] = state
            found[f"{path.name}:{workflow['name']}"] = steps
    return found


@pytest.mark.parametrize("width", [126, 80, 60])
def test_every_example_workflows_steps_and_agents_show_whole_in_their_boxes(width):
    examples = _example_steps()
    assert len(examples) >= 4
    for where, steps in examples.items():
        drawn = graph(steps, width, now=300.0).plain
        for state in steps.values():
            who = state.agent or ("shell" if state.type == "shell" else "")
            assert f" {state.name} " in drawn, (where, state.name, drawn)
            assert f"│ {who} " in drawn, (where, who, drawn)  # "researcher" was cut beside its state and time
        assert "…" not in drawn, (where, drawn)


def test_a_long_name_widens_its_box_and_the_picture_scrolls_past_the_width_given():
    name, agent = "a-step-with-a-very-long-name-indeed", "an-agent-with-a-long-name-too"
    drawn = graph({name: StepState(name, agent=agent, status="running")}, 40).plain
    assert f" {name} " in drawn and f"│ {agent} " in drawn and "…" not in drawn
    assert max(len(line) for line in drawn.splitlines()) > 40  # the run view's picture scrolls sideways


def test_a_name_past_the_widest_box_is_cut_and_its_state_stays_in_the_bottom_border():
    name = "s" * 80
    drawn = graph({name: StepState(name, agent="x", status="completed")}, 40).plain
    top, middle, bottom = drawn.splitlines()
    assert "…" in top and len(top) == WIDEST  # the whole name is in the list of steps beside the picture
    assert bottom.rstrip().endswith(" completed ╯") and middle.startswith("│ x ")


def test_the_timeline_draws_attempts_retries_and_waits():
    steps = _steps()
    at = "2026-03-15T10:00:{:06.3f}Z".format
    records = [
        {"type": "StepRequested", "step": "convert", "attempt": 1, "at": at(0)},
        {"type": "StepFailed", "step": "convert", "retrying": True, "at": at(2)},
        {"type": "StepRequested", "step": "convert", "attempt": 2, "at": at(3)},
        {"type": "StepFailed", "step": "convert", "at": at(5)},
        {"type": "StepRequested", "step": "ask", "attempt": 1, "at": at(1)},
        {"type": "AwaitingInput", "step": "ask", "at": at(4)},
    ]
    bars = timeline(records, steps)
    drawn = timeline_picture(steps, bars, 80, now=bars["ask"].spans[0].start + 9).plain
    lines = drawn.splitlines()
    convert = next(line for line in lines if "convert" in line)
    ask = next(line for line in lines if " ask" in line)
    assert "▒" in convert and "█" in convert  # the retried attempt, then the last one
    assert "░" in ask and "█" in ask
    assert lines[-1].strip().startswith("0s") and lines[-1].rstrip().endswith("10.0s")
