"""The workflow file: what validation accepts, and every problem reported at once with its line and a fix."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from switchboard.agents import AgentEntry, AgentsFile
from switchboard.workflow.checker import parse_duration
from switchboard.workflow.loader import load_workflow, resolve_inputs
from switchboard.workflow.spec import Workflow, WorkflowInvalid

REGISTRY = AgentsFile(
    Path("agents.yaml"),
    [AgentEntry(n, f"http://127.0.0.1:{9100 + i}/") for i, n in enumerate(["researcher", "writer", "echo", "legacy"])],
    [],
)


def write(tmp_path: Path, text: str, name: str = "wf.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


def load(tmp_path: Path, text: str, **kwargs) -> Workflow:
    return load_workflow(write(tmp_path, text), REGISTRY, env={}, **kwargs)


def problems(tmp_path: Path, text: str, **kwargs) -> list[tuple[int | None, str, str]]:
    with pytest.raises(WorkflowInvalid) as caught:
        load(tmp_path, text, **kwargs)
    assert caught.value.code == "A2A_CONFIG_INVALID" and caught.value.exit_code == 2
    return [(i.line, i.message, i.fix) for i in caught.value.issues]


def has(found: list[tuple[int | None, str, str]], line: int | None, message: str, fix: str = "") -> bool:
    return any(ln == line and message in m and fix in f for ln, m, f in found)


def test_a_complete_file_loads_with_everything_resolved(tmp_path):
    workflow = load(
        tmp_path,
        """
        version: 1
        name: briefing
        description: Research and combine.
        inputs:
          topic: {required: true, description: What to research}
          distance: {default: 10 km}
          note: plain default
        agents:
          - researcher
          - name: conv
            url: http://127.0.0.1:9200/
            apiKeyEnv: CONV_KEY
            headers: {Authorization: "Bearer ${CONV_TOKEN}", X-Team: blue}
            streaming: false
            timeout: 2m
        steps:
          - name: research
            agent: researcher
            task: "quick: {{inputs.topic}}"
            timeout: 1m30s
            retries: {count: 2, backoff: 500ms}
            expect: {output_contains: [sources, report], regex: "\\\\d+ sources"}
          - name: convert
            agent: conv
            task: "{{inputs.distance}} to mi"
            context: units
            interactive: false
          - name: count
            run: echo {{steps.research.output}} | wc -w
            dependsOn: research
            expect: {exit_code: 0}
            onError: continue
          - name: combine
            agent: echo
            dependsOn: [count, convert]
            task: "{{steps.research.output}} {{steps.convert.task_id}} {{steps.count.state}}"
        outputs:
          brief: "{{steps.combine.output}}"
        """,
    )
    assert workflow.name == "briefing" and workflow.description == "Research and combine."
    assert workflow.inputs["topic"].required and workflow.inputs["distance"].default == "10 km"
    assert workflow.inputs["note"].default == "plain default" and not workflow.inputs["note"].required
    assert set(workflow.agents) == {"researcher", "conv", "echo"}  # echo: found in the agents file by use
    assert workflow.agents["conv"].api_key_env == "CONV_KEY" and workflow.streaming["conv"] is False
    assert [s.name for s in workflow.steps] == ["research", "convert", "count", "combine"]
    research, convert, count, combine = workflow.steps
    assert research.timeout == 90 and research.retries.count == 2 and research.retries.backoff == 0.5
    assert research.expect.output_contains == ["sources", "report"] and research.expect.regex == r"\d+ sources"
    assert convert.timeout == 120 and convert.context == "units" and convert.interactive is False
    assert count.type == "shell" and count.depends_on == ["research"] and count.on_error == "continue"
    assert combine.depends_on == ["count", "convert"]
    assert workflow.upstream("combine") == {"count", "convert", "research"}
    assert workflow.outputs == {"brief": "{{steps.combine.output}}"}
    assert len(workflow.digest) == 64


def test_every_problem_at_once_each_with_its_line_and_a_fix(tmp_path):
    found = problems(
        tmp_path,
        """
        version: 1
        name: broken
        inputs:
          topic: {required: true}
        agents:
          - researcher
          - name: conv
            url: http://127.0.0.1:9200/
            token: abc123
        steps:
          - name: research
            agent: researcher
            task: "quick: {{inputs.topic}} {{inputs.nope}}"
            timeout: 5x
          - name: combine
            agent: echo
            task: "{{steps.research.output}} {{steps.ghost.output}} {{steps.research.colour}}"
            dependson: [research]
          - name: write
            agent: writter
            task: hello
            retries: many
            expect: {exit_code: 0, regex: "("}
        """,
    )
    assert has(found, 9, "secret value (token)", "apiKeyEnv")
    assert has(found, 14, "timeout '5x' is not a duration", "1m30s")
    assert has(found, 13, "{{inputs.nope}} names an input that is not declared", "inputs: {nope: {required: true}}")
    assert has(found, 17, "{{steps.research.output}} uses step research, which it does not depend on", "dependsOn")
    assert has(found, 17, "{{steps.ghost.output}} names no step")
    assert has(found, 17, "a step has no colour", "output, task_id, context_id, state")
    assert has(found, 18, "unknown key 'dependson'", "Did you mean dependsOn?")
    assert has(found, 20, "the agent writter is unknown", "Did you mean writer?")
    assert has(found, 22, "retries must be a count")
    assert has(found, 23, "exit_code applies to shell steps only")
    assert has(found, 23, "the regex does not compile")
    lines = [line for line, _, _ in found]
    assert lines == sorted(lines)  # in file order


def test_the_message_lists_every_issue_as_file_line_message_and_fix(tmp_path):
    path = write(tmp_path, "name: x\nsteps:\n  - name: a\n    agent: nobody\n    task: hi\n")
    with pytest.raises(WorkflowInvalid) as caught:
        load_workflow(path, REGISTRY, env={})
    error = caught.value
    assert f"{path}:4: step a: the agent nobody is unknown\n    Fix: " in error.message
    envelope = error.envelope()["error"]
    assert envelope["code"] == "A2A_CONFIG_INVALID"
    assert envelope["issues"] == [
        {"file": str(path), "line": 4, "message": "step a: the agent nobody is unknown", "fix": error.issues[0].fix}
    ]


def test_cycles_are_named_step_by_step(tmp_path):
    found = problems(
        tmp_path,
        """
        name: loop
        steps:
          - {name: a, run: echo a, dependsOn: [c]}
          - {name: b, run: echo b, dependsOn: [a]}
          - {name: c, run: echo c, dependsOn: [b]}
          - {name: d, run: echo d, dependsOn: [d]}
        """,
    )
    cycles = [(line, message) for line, message, fix in found if "cycle" in message]
    assert len(cycles) == 1 and cycles[0][0] == 3
    assert all(name in cycles[0][1] for name in ("a", "b", "c"))
    assert has(found, 6, "step d depends on itself", "Remove d")


def test_unknown_dependencies_and_duplicate_names(tmp_path):
    found = problems(
        tmp_path,
        """
        name: deps
        steps:
          - {name: fetch, run: echo a}
          - {name: use, run: echo b, dependsOn: [fetc]}
          - {name: fetch, run: echo c}
        """,
    )
    assert has(found, 4, "depends on fetc, which is not a step", "Did you mean fetch?")
    assert has(found, 5, "two steps are named fetch", "unique")


@pytest.mark.parametrize(
    ("value", "seconds"),
    [(30, 30.0), (2.5, 2.5), ("30", 30.0), ("500ms", 0.5), ("30s", 30.0), ("5m", 300.0), ("1h", 3600.0),
     ("1m30s", 90.0), ("1.5s", 1.5)],
)  # fmt: skip
def test_durations(value, seconds):
    assert parse_duration(value) == seconds


@pytest.mark.parametrize("value", ["5x", "", "fast", "-1", -1, True, [1], "1m 30", "m5"])
def test_bad_durations(value):
    assert parse_duration(value) is None


@pytest.mark.parametrize("value", ["0", "-5s", "soon", "[1, 2]"])
def test_a_bad_duration_is_an_issue_at_its_line(tmp_path, value):
    found = problems(tmp_path, f"name: t\nsteps:\n  - name: a\n    run: echo\n    timeout: {value}\n")
    assert has(found, 5, "is not a duration", "500ms, 30s, 5m")


def test_secrets_never_in_the_file_only_variable_names(tmp_path):
    found = problems(
        tmp_path,
        """
        name: secrets
        agents:
          - name: a
            url: http://127.0.0.1:9300/
            headers: {Authorization: "Bearer s3cr3t", X-Team: blue}
          - name: b
            url: http://127.0.0.1:9301/
            auth: {scheme: bearer, token: abc}
          - name: c
            url: http://127.0.0.1:9302/
            password: hunter2
        steps:
          - {name: one, agent: a, task: hi}
          - {name: two, agent: b, task: hi}
          - {name: three, agent: c, task: hi}
        """,
    )
    assert has(found, 5, "the Authorization header holds a literal credential", "${MY_SECRET}")
    assert has(found, 8, "auth takes scheme and env, not token", "environment variable")
    assert has(found, 11, "secret value (password)", "apiKeyEnv")
    workflow = load(
        tmp_path,
        """
        name: fine
        agents:
          - {name: a, url: "http://127.0.0.1:9300/", headers: {Authorization: "Bearer ${A_TOKEN}"}}
        steps:
          - {name: one, agent: a, task: hi}
        """,
    )
    assert workflow.agents["a"].headers == {"Authorization": "Bearer "}  # unset: empty, with a warning
    assert any("A_TOKEN" in w for w in workflow.warnings)


def test_an_agent_in_neither_the_file_nor_the_agents_file(tmp_path):
    found = problems(
        tmp_path, "name: t\nagents: [researcher, reseacher]\nsteps:\n  - {name: a, agent: researcher, task: x}\n"
    )
    assert has(found, 2, "the agent reseacher is not in the agents file", "Did you mean researcher?")


def test_yaml_syntax_errors_have_their_line(tmp_path):
    found = problems(tmp_path, "name: t\nsteps:\n  - name: a\n    task: [unclosed\n")
    assert len(found) == 1 and found[0][0] is not None and "not valid YAML" in found[0][1]


def test_a_file_that_is_not_a_workflow(tmp_path):
    assert has(problems(tmp_path, "- just\n- a list\n"), 1, "a workflow file is a mapping")
    found = problems(tmp_path, "name: nothing\n")
    assert any("no steps" in message for _, message, _ in found)
    with pytest.raises(WorkflowInvalid) as caught:
        load_workflow(tmp_path / "missing.yaml", REGISTRY)
    assert "cannot read the workflow file" in caught.value.message


def test_a_step_dropped_for_its_own_problem_is_not_also_no_steps(tmp_path):
    # The only step has an unknown key (and so no name): that is the problem, not an empty workflow.
    found = problems(tmp_path, "name: t\nsteps:\n  - nme: a\n    agent: researcher\n    task: x\n")
    assert has(found, 3, "a step has an unknown key 'nme'", "Did you mean name?")
    assert not any("no steps" in message for _, message, _ in found)
    assert has(problems(tmp_path, "name: t\nsteps: []\n"), 2, "the workflow has no steps")


def test_contexts_belong_to_one_agent_and_expectations_to_their_step_type(tmp_path):
    found = problems(
        tmp_path,
        """
        name: t
        steps:
          - {name: a, agent: writer, task: x, context: chat}
          - {name: b, agent: echo, task: y, context: chat}
          - {name: c, run: echo, context: chat}
          - {name: d, agent: echo, task: z, onError: shrug, interactive: maybe}
        """,
    )
    assert has(found, 4, "shares context 'chat' with a step on another agent (writer)")
    assert has(found, 5, "a shell step has no A2A context")
    assert has(found, 6, "onError 'shrug' is unknown", "continue")
    assert has(found, 6, "interactive must be true or false")


def test_inputs_given_resolved_and_checked():
    workflow = Workflow(
        "w",
        "",
        {},
        {},
        [],
        {},
        Path("w.yaml"),
    )
    from switchboard.workflow.spec import InputSpec

    workflow.inputs = {
        "topic": InputSpec(required=True, description="What to research", line=3),
        "distance": InputSpec(default="10 km"),
        "note": InputSpec(),
    }
    assert resolve_inputs(workflow, {"topic": "tides"}) == {"topic": "tides", "distance": "10 km", "note": ""}
    with pytest.raises(WorkflowInvalid) as caught:
        resolve_inputs(workflow, {"topc": "x"})
    issues = [(i.line, i.message, i.fix) for i in caught.value.issues]
    assert (3, "the input 'topic' is required (What to research)", "Pass -i topic=VALUE.") in issues
    assert any("no input 'topc'" in m and "Did you mean topic?" in f for _, m, f in issues)


# --- the relay layout ---------------------------------------------------------------------------------


RELAY = """
version: "1.0"
name: relay-file
description: from a relay tool
swarm: {pattern: dag, maxConcurrency: 2, channel: general}
agents:
  - {name: researcher, runtime: a2a}
  - {name: conv, runtime: a2a, url: "http://127.0.0.1:9400/", constraints: {timeoutMs: 60000}}
errorHandling: {strategy: retry, maxRetries: 2, retryDelayMs: 1500}
workflows:
  - name: first
    onError: skip
    steps:
      - {name: research, type: a2a, agent: researcher, task: "quick: {{topic}}", timeoutMs: 30000}
      - name: count
        type: deterministic
        command: echo {{steps.research.output}} | wc -w
        dependsOn: [research]
        verification: {type: exit_code, value: "0"}
      - {name: convert, agent: conv, task: "{{distance}} to mi", verification: {type: output_contains, value: mi}}
  - name: second
    steps:
      - {name: only, type: deterministic, command: "echo {{steps.nothing.output}}"}
"""


def test_the_relay_layout_is_read_as_it_is(tmp_path):
    workflow = load(tmp_path, RELAY)
    assert workflow.layout == "relay" and workflow.name == "first" and workflow.max_concurrency == 2
    research, count, convert = workflow.steps
    assert research.type == "a2a" and research.timeout == 30 and research.agent == "researcher"
    assert count.type == "shell" and count.run == "echo {{steps.research.output}} | wc -w"
    assert count.expect.exit_code == 0 and convert.expect.output_contains == ["mi"]
    assert convert.timeout == 60  # the agent's constraints.timeoutMs
    assert all(s.on_error == "continue" for s in workflow.steps)  # onError: skip
    assert research.retries.count == 2 and research.retries.backoff == 1.5
    assert set(workflow.inputs) == {"topic", "distance"} and workflow.inputs["topic"].required
    assert workflow.agents["researcher"].url == "http://127.0.0.1:9100/"  # no url: the agents file's
    assert any("holds 2 workflows; running the first" in w for w in workflow.warnings)
    assert any("swarm.channel is not used" in w for w in workflow.warnings)


def test_relay_workflows_are_picked_by_name_and_checked_the_same_way(tmp_path):
    found = problems(tmp_path, RELAY, workflow="second")
    assert has(found, 22, "{{steps.nothing.output}} names no step")
    assert has(problems(tmp_path, RELAY, workflow="third"), 10, "no workflow named 'third'", "first, second")


def test_relay_agents_that_are_local_processes_are_refused(tmp_path):
    found = problems(
        tmp_path,
        """
        agents:
          - {name: coder, cli: claude, role: writes code}
        workflows:
          - name: w
            steps:
              - {name: a, agent: coder, task: x, timeoutMs: soon}
        """,
    )
    assert has(found, 2, "coder is a local process (cli: claude)", "runtime: a2a")
    assert has(found, 6, "timeoutMs 'soon' is not a number of milliseconds")


def test_an_inline_agent_may_trust_its_cards_interface_origin(tmp_path):
    flow = load(
        tmp_path,
        """
        version: 1
        name: trusted
        agents:
          - name: mirror
            url: http://127.0.0.1:9200/
            trustInterfaceOrigin: true
          - name: plain
            url: http://127.0.0.1:9201/
        steps:
          - {name: a, agent: mirror, task: hi}
          - {name: b, agent: plain, task: hi}
        """,
    )
    assert flow.agents["mirror"].trust_interface_origin is True
    assert flow.agents["plain"].trust_interface_origin is False


def test_trust_interface_origin_must_be_a_boolean(tmp_path):
    found = problems(
        tmp_path,
        """
        version: 1
        name: trusted
        agents:
          - name: mirror
            url: http://127.0.0.1:9200/
            trustInterfaceOrigin: "yes please"
        steps:
          - {name: a, agent: mirror, task: hi}
        """,
    )
    assert has(found, 6, "trustInterfaceOrigin must be true or false", "trustInterfaceOrigin: true")


def test_an_inline_agent_may_force_a_binding_and_only_jsonrpc_or_rest(tmp_path):
    flow = load(
        tmp_path,
        """
        version: 1
        name: bound
        agents:
          - name: rested
            url: http://127.0.0.1:9200/
            binding: rest
          - name: chosen
            url: http://127.0.0.1:9201/
        steps:
          - {name: a, agent: rested, task: hi}
          - {name: b, agent: chosen, task: hi}
        """,
    )
    assert (flow.agents["rested"].binding, flow.agents["chosen"].binding) == ("rest", None)
    found = problems(
        tmp_path,
        """
        version: 1
        name: bound
        agents:
          - name: rested
            url: http://127.0.0.1:9200/
            binding: soap
        steps:
          - {name: a, agent: rested, task: hi}
        """,
    )
    assert has(found, 6, "agent rested: binding must be jsonrpc, rest or grpc", "binding: rest")


def test_a_reference_the_shell_cannot_be_given_is_a_problem_with_its_fix(tmp_path):
    found = problems(
        tmp_path,
        """
        version: 1
        name: quoted
        inputs: {text: {required: true}}
        steps:
          - name: note
            run: |
              cat <<'EOF'
              {{inputs.text}}
              EOF
          - name: escaped
            run: echo \\{{inputs.text}}
        """,
    )
    assert has(found, 6, "{{inputs.text}} sits in a quoted here-document", "Write the delimiter unquoted")
    assert has(found, 11, "{{inputs.text}} has a backslash right before it", "Drop the backslash")


def test_the_relay_layout_s_bare_variables_get_the_same_check(tmp_path):
    text = RELAY.replace("command: echo {{steps.research.output}} | wc -w", "command: \"cat <<'X'\\n{{topic}}\\nX\"")
    found = problems(tmp_path, text)
    assert any("{{topic}} sits in a quoted here-document" in message for _, message, _ in found), found
