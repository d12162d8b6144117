"""The run's picture as data: the dependency graph's columns and the timeline's spans from journal records."""

from __future__ import annotations

from switchboard.workflow.picture import columns, extent, layers, timeline


def test_a_fan_out_fan_in_lays_out_in_columns_in_the_workflow_order():
    fan_in = ["research", "convert", "draft"]
    deps = {"research": [], "convert": [], "draft": [], "combine": fan_in, "send": ["combine"]}
    assert layers(deps) == {"research": 0, "convert": 0, "draft": 0, "combine": 1, "send": 2}
    assert columns(deps) == [["research", "convert", "draft"], ["combine"], ["send"]]


def test_a_step_sits_one_column_past_its_furthest_dependency_and_odd_edges_do_not_loop():
    assert layers({"a": [], "b": ["a"], "c": ["a", "b"]}) == {"a": 0, "b": 1, "c": 2}
    assert layers({"a": ["ghost"], "b": ["b"]}) == {"a": 0, "b": 0}
    placed = layers({"x": ["y"], "y": ["x"]})  # a cycle (the checks refuse it) still ends
    assert set(placed) == {"x", "y"}


def _at(second: float) -> str:
    return f"2026-03-15T10:00:{second:06.3f}Z"


def test_attempts_retries_and_waits_become_spans():
    records = [
        {"type": "RunStarted", "at": _at(0)},
        {"type": "StepRequested", "step": "ask", "attempt": 1, "at": _at(1)},
        {"type": "StepFailed", "step": "ask", "retrying": True, "at": _at(2)},
        {"type": "StepRequested", "step": "ask", "attempt": 2, "at": _at(4)},
        {"type": "AwaitingInput", "step": "ask", "at": _at(5)},
        {"type": "InputSubmitted", "step": "ask", "at": _at(9)},
        {"type": "StepCompleted", "step": "ask", "at": _at(10)},
        {"type": "StepRequested", "step": "after", "attempt": 1, "at": _at(10.5)},
    ]
    bars = timeline(records, ["ask", "after", "never"])
    assert list(bars) == ["ask", "after", "never"]
    spans = [(s.kind, s.attempt, s.end - s.start if s.end else None) for s in bars["ask"].spans]
    assert spans == [("attempt", 1, 1.0), ("attempt", 2, 6.0), ("waiting", 2, 4.0)]
    assert bars["ask"].attempts == 2 and bars["ask"].end == bars["ask"].spans[1].end
    assert bars["after"].spans[0].end is None and bars["after"].end is None  # still running
    assert bars["never"].spans == []
    first, last = extent(bars.values(), now=bars["after"].spans[0].start + 2)
    assert last - first == 11.5
