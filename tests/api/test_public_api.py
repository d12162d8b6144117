"""The public Python API: its names are the stable surface, importing it stays light, and it works against the
demo fleet (real a2a-sdk servers): an agent handle answers a question inline, a built workflow runs journaled."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from importlib.metadata import version
from pathlib import Path

import pytest
import yaml

import switchboard
from switchboard import Agent, TaskState, UsageError, Workflow, WorkflowInvalid

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "python" / "talk_and_run.py"

STABLE = {
    "Agent", "AgentCard", "ArtifactUpdate", "AskRequest", "DataPart", "FilePart", "Message", "Notice", "Part",
    "Reply", "RunResult", "StatusUpdate", "SwitchboardError", "Task", "TaskState", "TextPart", "TurnEvent",
    "UsageError", "Workflow", "WorkflowInvalid", "__version__",
}  # fmt: skip


def test_the_public_names_are_exactly_the_stable_surface_and_each_resolves():
    assert set(switchboard.__all__) == STABLE
    for name in switchboard.__all__:
        assert getattr(switchboard, name) is not None
    with pytest.raises(AttributeError):
        _ = switchboard.NotAName


def test_the_version_is_the_installed_package_version():
    assert switchboard.__version__ == version("a2a-switchboard")
    done = subprocess.run([sys.executable, "-m", "switchboard", "--version"], capture_output=True, text=True)
    assert done.stdout.strip() == f"switchboard {version('a2a-switchboard')}"


def test_importing_the_api_loads_no_tui_no_server_and_no_network_stack():
    probe = (
        "import json, sys, switchboard; from switchboard import Agent, Workflow; print(json.dumps(sorted(sys.modules)))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    modules = set(json.loads(done.stdout))
    assert not modules & {"textual", "rich", "uvicorn", "starlette", "a2a", "temporalio", "grpc", "httpx", "yaml"}


def test_a_name_missing_from_the_agents_file_and_a_bad_url_are_usage_errors_before_any_request(tmp_path):
    agents = tmp_path / "agents.yaml"
    agents.write_text("agents:\n  - name: echo\n    url: http://127.0.0.1:9/\n")
    with pytest.raises(UsageError, match="no agent named 'ecko'") as caught:
        Agent("ecko", agents_file=agents)
    assert "echo" in (caught.value.hint or "")
    with pytest.raises(UsageError):
        Agent("http://exa mple.com/", agents_file=agents)
    with pytest.raises(UsageError, match="does not exist"):
        Agent("echo", agents_file=tmp_path / "missing.yaml")
    with pytest.raises(UsageError, match="binding"):
        Agent("echo", agents_file=agents, binding="soap")


async def test_an_agent_not_yet_connected_says_how_to_connect(tmp_path):
    agents = tmp_path / "agents.yaml"
    agents.write_text("agents:\n  - name: echo\n    url: http://127.0.0.1:9/\n")
    with pytest.raises(UsageError, match="not connected") as caught:
        await Agent("echo", agents_file=agents).send("hi")
    assert "async with" in (caught.value.hint or "")


def test_a_built_workflow_is_checked_like_a_file_and_its_yaml_round_trips(home, tmp_path):
    flow = (
        Workflow("brief", max_concurrency=2)
        .input("topic", required=True, description="what about")
        .agent("writer", url="http://127.0.0.1:9/", binding="jsonrpc")
        .step("draft", agent="writer", task="{{inputs.topic}}", timeout="2m", retries={"count": 1})
        .shell("count", run="wc -c", depends_on=["draft"], on_error="continue")
        .output("text", "{{steps.draft.output}}")
    )
    spec = flow.build(agents_file=tmp_path / "none.yaml")
    assert [s.name for s in spec.steps] == ["draft", "count"]
    assert spec.steps[0].timeout == 120 and spec.steps[0].retries.count == 1
    assert spec.steps[1].depends_on == ["draft"] and spec.steps[1].on_error == "continue"
    assert spec.inputs["topic"].required and spec.max_concurrency == 2
    assert spec.agents["writer"].url == "http://127.0.0.1:9/"
    written = yaml.safe_load(flow.to_yaml())
    assert written["steps"][1] == {
        "name": "count", "type": "shell", "run": "wc -c", "dependsOn": ["draft"], "onError": "continue"
    }  # fmt: skip

    broken = Workflow("broken").step("draft", agent="nobody", task="x")
    with pytest.raises(WorkflowInvalid) as caught:
        broken.build(agents_file=tmp_path / "none.yaml")
    assert any("nobody" in issue.message for issue in caught.value.issues)


async def test_an_agent_answers_inline_and_streams_against_the_demo_fleet(agents_file, home):
    async with Agent("interviewer", agents_file=agents_file) as interviewer:
        assert interviewer.card is not None and interviewer.card.name == "Interviewer"
        reply = await interviewer.send("hello")
        assert reply.waiting and reply.state is TaskState.INPUT_REQUIRED
        assert reply.question == "What is your name?"
        reply = await interviewer.send("Ada")
        assert reply.waiting and "Ada" in reply.question
        done = await interviewer.send("1")
        assert done.state is TaskState.COMPLETED and done.task_id == reply.task_id
        assert "Ada came by to learn how A2A works" in done.text
        assert (await interviewer.get_task(done.task_id)).status.state is TaskState.COMPLETED
    async with Agent("echo", agents_file=agents_file) as echo:
        kinds = [type(event).__name__ async for event in echo.stream("ping")]
    assert kinds and set(kinds) <= {"Task", "Message", "StatusUpdate", "ArtifactUpdate", "Notice"}


async def test_a_built_workflow_runs_on_the_engine_journaled_and_asks_through_the_callback(agents_file, home):
    asked = []

    async def ask(request):
        asked.append((request.step, request.question[0].text))
        return "Ada" if len(asked) == 1 else "2"

    flow = (
        Workflow("meet")
        .agent("interviewer")
        .agent("echo")
        .step("talk", agent="interviewer", task="hello")
        .step("repeat", agent="echo", task="{{steps.talk.output}}", depends_on=["talk"])
        .output("summary", "{{steps.repeat.output}}")
    )
    result = await flow.run(ask=ask, agents_file=agents_file)
    assert result.ok and result.status == "completed"
    assert asked[0] == ("talk", "What is your name?")
    assert "Ada came by to test my own agent" in result.outputs["summary"]
    assert result.journal.exists() and result.run_id in result.journal.name
    from switchboard.workflow.runs import read_run

    assert read_run(result.run_id).status == "completed"


async def test_answers_given_up_front_are_used_and_bad_inputs_are_refused(agents_file, home):
    flow = Workflow("meet").agent("interviewer").step("talk", agent="interviewer", task="hi")
    result = await flow.run(answers={"talk": ["Grace", "3"]}, agents_file=agents_file)
    assert result.status == "completed"
    with pytest.raises(UsageError, match="answers name no step"):
        await flow.run(answers={"tlak": ["x"]}, agents_file=agents_file)
    with pytest.raises(UsageError, match="not text"):
        await flow.run({"n": 3}, agents_file=agents_file)  # type: ignore[dict-item]


def test_the_api_page_example_is_the_example_file_and_it_runs_against_the_demo_fleet(agents_file, home):
    page = (ROOT / "docs" / "python-api.md").read_text()
    assert '--8<-- "examples/python/talk_and_run.py"' in page, "the Python API page must show the example file"
    env = {**os.environ, "SWITCHBOARD_HOME": str(home)}
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), str(agents_file)], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert "asked: What is your name?" in done.stdout
    assert re.search(r"completed echo: .*hello Ada again \d{8}T", done.stdout)
