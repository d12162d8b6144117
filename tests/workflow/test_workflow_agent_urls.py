"""A workflow's inline agent: its url is checked like the agents file's, a mistake is a problem on its line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

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


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://127.0.0.1:99999/", 'the port "99999", which is not a number from 1 to 65535'),
        ("http://127.0.0.1:47341x/", 'the port "47341x"'),
        ("http://[::1/", "malformed IPv6 address"),
    ],
)
def test_an_inline_agent_with_a_malformed_url_is_a_problem_on_its_line(tmp_path, url, said):
    found = issues(
        tmp_path, f'name: w\nagents:\n  - name: a\n    url: "{url}"\nsteps:\n  - {{name: s, agent: a, task: hi}}\n'
    )
    assert any(line == 4 and said in message for line, message, _ in found), found
