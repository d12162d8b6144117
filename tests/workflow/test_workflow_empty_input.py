"""Workflows and what a person types: an empty task or answer is refused, the rule of `send` and the TUI."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
from workflow_support import journal_files, kinds, run_cli, run_document

from switchboard.agents import AgentsFile
from switchboard.workflow.loader import load_workflow
from switchboard.workflow.spec import WorkflowInvalid


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "wf.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


def issues(tmp_path: Path, text: str) -> list[tuple[int | None, str, str]]:
    with pytest.raises(WorkflowInvalid) as caught:
        load_workflow(write(tmp_path, text), AgentsFile(None, [], []), env={})
    return [(i.line, i.message, i.fix) for i in caught.value.issues]


def test_a_blank_task_is_a_problem_of_the_file(tmp_path):
    found = issues(
        tmp_path,
        'name: w\nagents: [{name: a, url: "http://127.0.0.1:9/"}]\nsteps:\n  - {name: s, agent: a, task: "  "}\n',
    )
    assert (4, "step s: task is empty", "Write what the agent should do.") in found


def test_an_empty_answer_on_the_command_line_is_a_usage_error(home, agents_file):
    run = run_cli(home, agents_file, "run", "examples/workflows/interview.yaml", "--answer", "interview=  ")
    assert run.returncode == 2, run.stderr
    assert "--answer interview= is only whitespace" in run.stderr and not journal_files(home)


def test_a_task_that_renders_empty_fails_its_step_before_anything_is_sent(home, agents_file, tmp_path):
    path = write(
        tmp_path,
        """
        name: blank
        inputs: {topic: {required: true}}
        agents: [echo]
        steps:
          - {name: say, agent: echo, task: "{{inputs.topic}}"}
        """,
    )
    run = run_cli(home, agents_file, "run", str(path), "-i", "topic=   ", "-o", "json")
    assert run.returncode == 0, run.stderr
    step = run_document(run.stdout)["steps"][0]
    assert step["errorCode"] == "A2A_CONFIG_INVALID"
    assert "the task of step say, with the run's inputs filled in, is only whitespace" in step["error"]
    assert "StepRequested" not in kinds(journal_files(home)[0])  # no message went to the agent
