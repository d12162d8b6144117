"""The workflow file's one declaration (workflow/file_model.py): every example workflow and every workflow the tests
load as right is valid by its JSON Schema, the mistakes the checks refuse are not, and the type checks it does
say each wrong value once, at its line, in the words the checks always used."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

from switchboard.agents import AgentEntry, AgentsFile
from switchboard.schemas import schema_for
from switchboard.workflow.file_model import StepSpec, WorkflowFileSpec
from switchboard.workflow.loader import load_workflow
from switchboard.workflow.spec import WorkflowInvalid

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = schema_for("workflow")
EXAMPLES = sorted((ROOT / "examples" / "workflows").glob("*.yaml"))


def fixture_workflows() -> list[str]:
    """Every workflow written out in the workflow tests (string constants that are YAML with steps)."""
    found = []
    for source in sorted((ROOT / "tests" / "workflow").glob("*.py")):
        if source.name == Path(__file__).name:
            continue  # this file's own edge cases (description: 0 is let pass, not declared)
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and "steps" in node.value:
                try:
                    data = yaml.safe_load(node.value)
                except yaml.YAMLError:
                    continue
                if isinstance(data, dict) and ("steps" in data or "workflows" in data):
                    found.append(node.value)
    return found


def registry_for(data: dict[str, Any]) -> AgentsFile:
    """An agents file holding every agent the workflow names, so only the workflow itself is judged."""
    names = {s.get("agent") for w in [data, *data.get("workflows", [])] for s in w.get("steps") or []}
    agents = data.get("agents") or []
    names |= {a if isinstance(a, str) else a.get("name") for a in agents} if isinstance(agents, list) else set(agents)
    return AgentsFile(None, [AgentEntry(n, "http://127.0.0.1:9/") for n in names if isinstance(n, str)], [])


def test_the_schema_names_the_keys_people_write():
    top = WorkflowFileSpec.model_json_schema(by_alias=True)
    assert {"maxConcurrency", "onError", "steps", "inputs", "agents"} <= set(top["properties"])
    assert top["required"] == ["steps"] and top["additionalProperties"] is False
    step = StepSpec.model_json_schema(by_alias=True)
    assert {"dependsOn", "onError", "task", "run"} <= set(step["properties"]) and step["required"] == ["name"]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_workflow_is_valid_by_the_schema(path):
    jsonschema.validate(yaml.safe_load(path.read_text()), SCHEMA)


def test_the_workflows_the_tests_load_as_right_are_valid_by_the_schema(tmp_path):
    right = []
    for i, text in enumerate(fixture_workflows()):
        path = tmp_path / f"w{i}.yaml"
        path.write_text(text)
        try:
            load_workflow(path, registry_for(yaml.safe_load(text)), env={})
        except WorkflowInvalid:
            continue  # a mistake a test shows: not a right file
        right.append(text)
    assert len(right) >= 10, "the workflow tests hold right workflows"
    for text in right:
        jsonschema.validate(yaml.safe_load(text), SCHEMA)


@pytest.mark.parametrize(
    "text",
    [
        "name: w\nstpes: []\n",  # a top key misspelt (and no steps)
        "name: w\nsteps:\n  - {name: a, agent: x, task: t, dependson: [b]}\n",
        "name: w\nsteps:\n  - {name: a, run: echo, interactive: sometimes}\n",
        "name: w\nsteps:\n  - {name: a, run: echo, retries: {count: 2, backof: 5s}}\n",
        "name: w\nonError: explode\nsteps:\n  - {name: a, run: echo}\n",
        "name: w\nsteps:\n  - {name: 'a b', run: echo}\n",
    ],
)
def test_the_mistakes_the_checks_refuse_are_invalid_by_the_schema(text):
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(yaml.safe_load(text), SCHEMA)


def test_a_value_of_the_wrong_type_is_one_issue_at_its_own_line(tmp_path):
    """StepSpec does the type checks: each wrong value is said once, at its line (inside retries: and expect:
    too), and leaving it out does not add a second issue (a task that is a list is not also a missing task)."""
    path = tmp_path / "w.yaml"
    path.write_text(
        "name: w\n"
        "steps:\n"
        "  - name: a\n"
        "    agent: echo\n"
        "    task: [not, text]\n"  # 5
        "    interactive: sometimes\n"  # 6
        "    context: 1.5\n"  # 7
        "    retries:\n"
        "      count: -1\n"  # 9
        "      backoff: [1]\n"  # 10
        "  - name: b\n"
        "    run: echo\n"
        "    expect: {exit_code: zero, output_contains: [1]}\n"  # 13
        "    dependsOn: 5\n"  # 14
        "    onError: explode\n"  # 15
    )
    registry = AgentsFile(None, [AgentEntry("echo", "http://127.0.0.1:9/")], [])
    with pytest.raises(WorkflowInvalid) as caught:
        load_workflow(path, registry, env={})
    found = [(i.line, i.message) for i in caught.value.issues]
    assert found == [
        (5, "step a: task must be text"),
        (6, "step a: interactive must be true or false"),
        (7, "step a: context must be a key"),
        (9, "step a: retries count must be a whole number"),
        (10, "step a: retries: backoff [1] is not a duration"),
        (13, "step b: output_contains must be text or a list of texts"),
        (13, "step b: exit_code must be a whole number"),
        (14, "step b: dependsOn must be a list of step names"),
        (15, "step b: onError 'explode' is unknown"),
    ]


@pytest.mark.parametrize(
    ("top", "said"),
    [
        (
            "version: 2\nname: 5\ndescription: [x]\nonError: explode\nmaxConcurrency: 0\n",
            [
                (1, "version 2 is not one this tool reads"),
                (2, "name must be text"),
                (3, "description must be text"),
                (4, "onError 'explode' is unknown"),
                (5, "maxConcurrency must be a whole number from 1"),
            ],
        ),
        ("version: true\nonError: [fail]\n", [(1, "version True is not one this tool reads"), (2, "onError ['fail']")]),
        ("version: '1.0'\nmaxConcurrency: 2.5\n", [(2, "maxConcurrency must be a whole number from 1")]),
    ],
)
def test_a_wrong_top_level_value_is_one_issue_at_its_line(tmp_path, top, said):
    path = tmp_path / "w.yaml"
    path.write_text(top + "steps:\n  - {name: a, run: echo}\n")
    with pytest.raises(WorkflowInvalid) as caught:
        load_workflow(path, AgentsFile(None, [], []), env={})
    found = [(i.line, i.message) for i in caught.value.issues]
    assert len(found) == len(said) and all(
        m.startswith(s) and ln == line for (ln, m), (line, s) in zip(found, said, strict=True)
    )


def test_a_right_top_level_reads_as_before(tmp_path):
    path = tmp_path / "named-by-file.yaml"
    path.write_text("version: 1.0\nname: ''\ndescription: 0\nmaxConcurrency: 3\nsteps:\n  - {name: a, run: echo}\n")
    workflow = load_workflow(path, AgentsFile(None, [], []), env={})
    assert (workflow.name, workflow.description, workflow.max_concurrency) == ("named-by-file", "", 3)


AGENT_MISTAKES = """\
name: w
agents:
  - name: one
    url: http://127.0.0.1:9/
    auth: {scheme: bearer, token: abc}
    headers: [x]
    trustInterfaceOrigin: yes please
    protocol: grpc
    binding: SOAP
    streaming: sometimes
  - name: two
    url: http://127.0.0.1:9/
    auth: just-a-string
    headers: {Authorization: Bearer abc, X-Count: 5}
    binding: REST
    runtime: cli
  - name: three
    streaming: null
  - name: four
    url: http://127.0.0.1:9/
    auth: {scheme: 5, env: TOKEN}
    protocol: tasks
    runtime: cli
steps:
  - {name: a, agent: one, task: t}
"""


def test_an_agents_wrong_values_are_each_one_issue_at_its_line(tmp_path):
    """AgentDecl does the type checks of `agents:`; what the reader always let pass (binding: REST, a header's
    number, a scheme it reads as bearer, runtime beside protocol) still passes."""
    path = tmp_path / "w.yaml"
    path.write_text(AGENT_MISTAKES)
    registry = AgentsFile(None, [AgentEntry("three", "http://127.0.0.1:9/")], [])
    with pytest.raises(WorkflowInvalid) as caught:
        load_workflow(path, registry, env={})
    assert [(i.line, i.message) for i in caught.value.issues] == [
        (5, "agent one: auth takes scheme and env, not token"),
        (5, "agent one: auth needs {scheme, env}"),
        (6, "agent one: headers must be a mapping"),
        (7, "agent one: trustInterfaceOrigin must be true or false"),
        (8, "agent one: protocol must be a2a or tasks"),
        (9, "agent one: binding must be jsonrpc, rest or grpc"),
        (10, "agent one: streaming must be auto, true or false"),
        (11, "agent two: protocol must be a2a or tasks"),
        (13, "agent two: auth needs {scheme, env}"),
        (14, "agent two: the Authorization header holds a literal credential"),
        (18, "agent three: streaming must be auto, true or false"),
    ]


def test_an_inputs_wrong_values_are_each_one_issue_at_its_line_and_right_ones_read_as_before(tmp_path):
    path = tmp_path / "w.yaml"
    body = "steps:\n  - {name: s, run: 'echo {{inputs.c}}{{inputs.d}}{{inputs.f}}{{inputs.g}}'}\n"
    path.write_text(
        "inputs:\n"
        "  a: {required: maybe, default: [1, 2], description: 5}\n"  # 2
        "  b: {required: null}\n"  # 3
        "  e: [x]\n"  # 4
        "  bad name: x\n" + body  # 5
    )
    with pytest.raises(WorkflowInvalid) as caught:
        load_workflow(path, AgentsFile(None, [], []), env={})
    assert [(i.line, i.message) for i in caught.value.issues if i.line and i.line <= 5] == [
        (2, "input a: required must be true or false"),
        (2, "input a: the default must be one value"),
        (3, "input b: required must be true or false"),
        (4, "input e: a list is not an input"),
        (5, "the input name 'bad name' is not usable in templates"),
    ]
    path.write_text(
        "inputs:\n  a: {description: 5}\n  c: {default: 3}\n  d:\n  f: plain\n"
        "  g: {description: What, required: false}\n" + body
    )
    inputs = load_workflow(path, AgentsFile(None, [], []), env={}).inputs
    assert [(n, i.required, i.default, i.description) for n, i in inputs.items()] == [
        ("a", True, None, "5"),
        ("c", False, "3", ""),
        ("d", True, None, ""),
        ("f", False, "plain", ""),
        ("g", False, None, "What"),
    ]
