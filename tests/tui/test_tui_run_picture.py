"""The run view's picture drawn in text: the graph's boxes in their columns with a line per dependency, fitting the
width it is given, and the timeline's bars."""

from __future__ import annotations

from switchboard.tui.widgets.run_picture import graph, timeline_picture
from switchboard.workflow.picture import timeline
from switchboard.workflow.state import StepState


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


def test_a_narrow_terminal_gets_narrow_boxes_and_long_names_are_cut():
    steps = {"a-step-with-a-very-long-name-indeed": StepState("a-step-with-a-very-long-name-indeed", agent="x")}
    drawn = graph(steps, 40).plain
    assert "…" in drawn and max(len(line) for line in drawn.splitlines()) <= 40


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
