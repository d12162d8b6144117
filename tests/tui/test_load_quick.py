"""A short load run in one TUI session: ten conversations (echo, writer, researcher, interviewer) at once plus
the briefing workflow, on the demo fleet (official a2a-sdk servers, in a child process). The same code as
bench/faults/load.py, one round: every task reaches the state expected of it and key presses are handled."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

LOAD = Path(__file__).resolve().parents[2] / "bench" / "faults" / "load.py"


def load_module():
    spec = importlib.util.spec_from_file_location("switchboard_bench_load", LOAD)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_ten_conversations_and_a_workflow_all_reach_their_final_state():
    load = load_module()
    tally = load.load_session(seconds=0, conversations=10, max_rounds=1)
    assert tally.rounds == 1 and tally.tasks == 10
    assert tally.not_final == [] and tally.wrong_state == []
    assert tally.final_as_expected == 10
    assert tally.canceled >= 1 and tally.answered >= 4  # a researcher canceled, interviewers answered twice
    assert tally.runs_started >= 1 and tally.runs_completed == tally.runs_started, tally.runs_other
    assert tally.keys_pressed > 0 and tally.keys_handled == tally.keys_pressed, tally.keys_missed
    assert len(tally.rss) >= 2 and tally.lags_ms
