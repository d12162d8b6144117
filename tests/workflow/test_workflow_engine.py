"""The engine with scripted agents: faults a real server will not produce on demand (a failing first attempt,
a turn that never ends, a crash between records), and what the journal says about each."""

from __future__ import annotations

import asyncio
import hashlib
import json
import textwrap
from pathlib import Path

import httpx
import pytest
from workflow_support import (
    ScriptedAgent,
    artifact,
    kinds,
    records_of,
    scripted,
    snapshot,
    status,
    text_of_message,
)

from switchboard.a2a.errors import CredentialsMissingError
from switchboard.a2a.model import Message, Role, TaskState, TextPart
from switchboard.agents import AgentEntry, AgentsFile
from switchboard.workflow.engine import resume_run, start_run
from switchboard.workflow.loader import load_workflow
from switchboard.workflow.runs import read_run
from switchboard.workflow.spec import WorkflowInvalid
from switchboard.workflow.state import (
    RunFinished,
    StepAwaitingInput,
    StepCompleted,
    StepEvent,
    StepFailed,
    StepOutput,
    StepSkipped,
    StepStarted,
)

C, W, F, R = TaskState.COMPLETED, TaskState.WORKING, TaskState.FAILED, TaskState.REJECTED
ASK, AUTH = TaskState.INPUT_REQUIRED, TaskState.AUTH_REQUIRED


def done(task_id: str, text: str) -> list:
    return [
        snapshot(task_id, TaskState.SUBMITTED),
        status(task_id, W, "working"),
        artifact(task_id, text),
        status(task_id, C),
    ]


def workflow_file(tmp_path: Path, text: str, registry: AgentsFile):
    path = tmp_path / "wf.yaml"
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return load_workflow(path, registry, env={})


async def run_to_end(workflow, inputs=None, *, journal: Path, connect, **kwargs):
    async with httpx.AsyncClient() as http:
        run = start_run(workflow, inputs or {}, http=http, tap=None, journal_dir=journal, connect=connect, **kwargs)
        events = [event async for event in run.events()]
        await run.wait()
    return run, events


@pytest.fixture
def journal(tmp_path: Path) -> Path:
    return tmp_path / "runs"


async def test_fan_out_then_fan_in_with_templates_correlation_ids_and_a_full_journal(tmp_path, journal):
    a = ScriptedAgent("a", [done("ta", "alpha")])
    b = ScriptedAgent("b", [[0.05, *done("tb", "beta")]])
    combiner = ScriptedAgent("combiner", [lambda m, _: done("tc", "combined: " + text_of_message(m))])
    connect, registry = scripted(a, b, combiner)
    workflow = workflow_file(
        tmp_path,
        """
        name: fan
        inputs: {topic: {required: true}}
        steps:
          - {name: left, agent: a, task: "left {{inputs.topic}}"}
          - {name: right, agent: b, task: "right {{inputs.topic}}"}
          - name: join
            agent: combiner
            dependsOn: [left, right]
            task: "{{steps.left.output}}+{{steps.right.output}} ({{steps.right.task_id}} {{steps.right.state}})"
        outputs: {result: "{{steps.join.output}}"}
        """,
        registry,
    )
    run, events = await run_to_end(workflow, {"topic": "tides"}, journal=journal, connect=connect)
    assert run.status == "completed" and run.outputs == {"result": "combined: alpha+beta (tb completed)"}
    assert a.peak == 1 and b.peak == 1
    assert text_of_message(a.sent[0]) == "left tides"
    assert a.correlation_ids == [f"{run.run_id}:delegate:left"]
    assert combiner.correlation_ids == [f"{run.run_id}:delegate:join"]
    started = [e.step for e in events if isinstance(e, StepStarted)]
    assert started[:2] == ["left", "right"] and started[2] == "join"  # both ran before the join
    assert isinstance(events[-1], RunFinished) and events[-1].status == "completed"
    assert sum(isinstance(e, StepEvent) for e in events) == 12
    path = journal / f"{run.run_id}.jsonl"
    recorded = kinds(path)
    assert recorded[0] == "RunStarted" and recorded[-1] == "RunCompleted"
    assert recorded.count("StepRequested") == 3 and recorded.count("StepCompleted") == 3
    assert recorded.count("StepEvent") == 12
    requested = [r for r in records_of(path) if r["type"] == "StepRequested"]
    assert {r["correlationId"] for r in requested} == {f"{run.run_id}:delegate:{s}" for s in ("left", "right", "join")}
    completed = {r["step"]: r for r in records_of(path) if r["type"] == "StepCompleted"}
    assert completed["right"]["taskId"] == "tb" and completed["right"]["output"] == "beta"
    record = read_run(run.run_id, journal)
    assert record.status == "completed" and record.steps["join"].output == "combined: alpha+beta (tb completed)"
    assert record.steps["left"].view.output_text == "alpha"


async def test_a_run_started_for_a_caller_keeps_its_id_trace_and_origin_and_gives_delegates_the_parent_id(
    tmp_path, journal
):
    agent = ScriptedAgent("a", [done("t1", "asked"), done("t2", "ok")])
    entries: list[AgentEntry] = []
    connect, registry = scripted(agent)

    async def connect_seeing_entries(entry, correlation_id, streaming):
        entries.append(entry)
        return await connect(entry, correlation_id, streaming)

    workflow = workflow_file(tmp_path, "name: traced\nsteps:\n  - {name: s, agent: a, task: go}\n", registry)
    origin = {"by": "serve", "contextId": "ctx-1"}
    run, _ = await run_to_end(
        workflow,
        journal=journal,
        connect=connect_seeing_entries,
        run_id="20260101T000000-abcdef",
        correlation_id="trace-7",
        origin=origin,
    )
    assert run.run_id == "20260101T000000-abcdef" and run.status == "completed"
    assert entries[0].headers == {"X-Parent-Id": "trace-7"}
    assert agent.sent[0].metadata == {"parentId": "trace-7"}
    record = read_run(run.run_id, journal)
    assert record.correlation_id == "trace-7" and record.origin == origin
    # Without a trace id of its own, a run sends none.
    plain, _ = await run_to_end(workflow, journal=journal, connect=connect_seeing_entries)
    assert entries[1].headers == {} and agent.sent[1].metadata is None
    assert read_run(plain.run_id, journal).correlation_id is None


async def test_max_concurrency_holds_and_steps_start_in_file_order(tmp_path, journal):
    agent = ScriptedAgent("a", [[0.02, *done(f"t{i}", str(i))] for i in range(4)])
    connect, registry = scripted(agent)
    steps = "\n".join(f"  - {{name: s{i}, agent: a, task: 'n{i}'}}" for i in range(4))
    workflow = workflow_file(tmp_path, f"name: limit\nsteps:\n{steps}\n", registry)
    run, _ = await run_to_end(workflow, journal=journal, connect=connect, max_concurrency=1)
    assert run.status == "completed" and agent.peak == 1
    assert [text_of_message(m) for m in agent.sent] == ["n0", "n1", "n2", "n3"]


async def test_a_failed_attempt_is_retried_then_completes(tmp_path, journal):
    failing = [snapshot("t1", TaskState.SUBMITTED), status("t1", F, "the database is down")]
    agent = ScriptedAgent("a", [failing, done("t2", "ok")])
    connect, registry = scripted(agent)
    workflow = workflow_file(
        tmp_path, "name: r\nsteps:\n  - {name: s, agent: a, task: go, retries: {count: 2, backoff: 10ms}}\n", registry
    )
    run, events = await run_to_end(workflow, journal=journal, connect=connect)
    assert run.status == "completed" and run.steps["s"].attempt == 2 and run.steps["s"].task_id == "t2"
    failed = [e for e in events if isinstance(e, StepFailed)]
    assert [(e.code, e.error, e.task_id, e.retrying) for e in failed] == [
        ("A2A_TASK_FAILED", "the database is down", "t1", True)
    ]
    record = read_run(run.run_id, journal)
    assert record.steps["s"].status == "completed" and record.steps["s"].attempt == 2


async def test_rejections_are_not_retried_and_stop_the_run(tmp_path, journal):
    agent = ScriptedAgent("a", [[snapshot("t1", R)]])
    later = ScriptedAgent("b", [])
    connect, registry = scripted(agent, later)
    workflow = workflow_file(
        tmp_path,
        """
        name: stop
        steps:
          - {name: first, agent: a, task: go, retries: 3}
          - {name: second, agent: b, task: next, dependsOn: [first]}
        """,
        registry,
    )
    run, events = await run_to_end(workflow, journal=journal, connect=connect)
    assert run.status == "failed" and len(agent.sent) == 1 and later.sent == []
    assert run.steps["first"].error_code == "A2A_TASK_REJECTED" and run.steps["first"].task_id == "t1"
    assert run.steps["second"].status == "skipped" and "first failed" in run.steps["second"].skipped_reason
    assert [e.step for e in events if isinstance(e, StepSkipped)] == ["second"]
    assert kinds(journal / f"{run.run_id}.jsonl")[-1] == "RunFailed"


async def test_on_error_continue_lets_later_steps_see_the_failure(tmp_path, journal):
    agent = ScriptedAgent("a", [[snapshot("t1", F)], lambda m, _: done("t2", "saw " + text_of_message(m))])
    connect, registry = scripted(agent)
    workflow = workflow_file(
        tmp_path,
        """
        name: tolerant
        steps:
          - {name: risky, agent: a, task: go, onError: continue}
          - {name: after, agent: a, task: "risky was {{steps.risky.state}}", dependsOn: [risky]}
        """,
        registry,
    )
    run, _ = await run_to_end(workflow, journal=journal, connect=connect)
    assert run.status == "completed" and run.steps["risky"].status == "failed"
    assert run.steps["after"].output == "saw risky was failed"


async def test_a_turn_that_runs_past_its_timeout_is_canceled_at_the_agent(tmp_path, journal):
    agent = ScriptedAgent("a", [[snapshot("slow", W), 30.0, status("slow", C)]])
    connect, registry = scripted(agent)
    workflow = workflow_file(tmp_path, "name: t\nsteps:\n  - {name: s, agent: a, task: go, timeout: 100ms}\n", registry)
    run, _ = await run_to_end(workflow, journal=journal, connect=connect)
    assert run.status == "failed" and run.steps["s"].error_code == "TIMEOUT"
    assert agent.canceled == ["slow"]


async def test_a_question_fails_a_non_interactive_step_with_a_clear_code(tmp_path, journal):
    agent = ScriptedAgent("a", [[snapshot("q", W), status("q", ASK, "Which city?")]])
    connect, registry = scripted(agent)
    workflow = workflow_file(
        tmp_path, "name: t\nsteps:\n  - {name: s, agent: a, task: go, interactive: false}\n", registry
    )
    run, _ = await run_to_end(workflow, journal=journal, connect=connect)
    assert run.steps["s"].error_code == "A2A_INPUT_REQUIRED" and "Which city?" in run.steps["s"].error
    assert agent.canceled == ["q"]


def asking(task_id: str, *questions: str, final: str = "done"):
    """An agent turn list: asks each question in turn (input-required), then completes with `final` and the
    answers it got."""
    answers: list[str] = []
    turns = [[snapshot(task_id, W), status(task_id, ASK, questions[0])]]
    for question in questions[1:]:
        turns.append(lambda m, _, q=question: answers.append(text_of_message(m)) or [status(task_id, ASK, q)])
    turns.append(lambda m, _: answers.append(text_of_message(m)) or done(task_id, f"{final}: {answers}")[1:])
    return turns


async def test_answers_are_used_in_order_then_ask_then_the_run_waits(tmp_path, journal):
    agent = ScriptedAgent("a", asking("q", "Name?", "Goal?", "Colour?"))
    connect, registry = scripted(agent)
    workflow = workflow_file(tmp_path, "name: t\nsteps:\n  - {name: s, agent: a, task: go}\n", registry)
    asked = []

    async def ask(request):
        asked.append((request.step, request.text, request.task_id, request.correlation_id))
        return None  # nobody can answer now

    run, events = await run_to_end(workflow, journal=journal, connect=connect, ask=ask, answers={"s": ["Ada", "A2A"]})
    assert run.status == "awaiting_input" and run.steps["s"].status == "waiting"
    assert asked == [("s", "Colour?", "q", f"{run.run_id}:delegate:s")]
    waits = [e.request.text for e in events if isinstance(e, StepAwaitingInput)]
    assert waits == ["Name?", "Goal?", "Colour?"]
    path = journal / f"{run.run_id}.jsonl"
    submitted = [r for r in records_of(path) if r["type"] == "InputSubmitted"]
    assert [r["answer"] for r in submitted] == ["Ada", "A2A"]
    assert kinds(path)[-1] == "RunAwaitingInput"
    record = read_run(run.run_id, journal)
    assert record.status == "awaiting_input" and record.waiting == ["s"]
    assert record.steps["s"].question.text == "Colour?" and record.steps["s"].question.task_id == "q"

    # Later, with an answer: the waiting task is re-read and asked again; nothing is sent anew.
    agent.tasks["q"] = snapshot("q", ASK)
    agent.tasks["q"].status.message = status("q", ASK, "Colour?").status.message
    async with httpx.AsyncClient() as http:
        resumed = resume_run(
            run.run_id, ask=None, http=http, tap=None, journal_dir=journal, answers={"s": ["blue"]},
            workflow=workflow, connect=connect,
        )  # fmt: skip
        assert await resumed.wait() == "completed"
    assert resumed.steps["s"].output == "done: ['Ada', 'A2A', 'blue']"
    assert [text_of_message(m) for m in agent.sent] == ["go", "Ada", "A2A", "blue"]


async def test_an_auth_required_answer_is_a_secret_nowhere_in_the_journal(tmp_path, journal):
    secret = "open-sesame-4711"
    gate = ScriptedAgent(
        "gate",
        [
            [snapshot("g", W), status("g", AUTH, "passcode please")],
            lambda m, _: [
                status("g", W, f"checking {text_of_message(m)}"),
                artifact("g", "vault open"),
                status("g", C),
            ],
        ],
    )
    connect, registry = scripted(gate)
    workflow = workflow_file(tmp_path, "name: t\nsteps:\n  - {name: vault, agent: gate, task: open}\n", registry)

    async def ask(request):
        assert request.secret
        return secret

    run, _ = await run_to_end(workflow, journal=journal, connect=connect, ask=ask)
    assert run.status == "completed" and text_of_message(gate.sent[1]) == secret
    text = (journal / f"{run.run_id}.jsonl").read_text()
    assert secret not in text and "[redacted]" in text  # the agent echoed it: redacted
    submitted = [r for r in records_of(journal / f"{run.run_id}.jsonl") if r["type"] == "InputSubmitted"]
    assert submitted == [
        {"type": "InputSubmitted", "at": submitted[0]["at"], "step": "vault", "taskId": "g", "secret": True}
    ]


async def test_credentials_are_checked_before_anything_runs_and_never_journaled(tmp_path, journal, monkeypatch):
    echoing = ScriptedAgent("a", [])
    connect, _ = scripted(echoing)
    registry = AgentsFile(None, [AgentEntry("a", "http://a.test/", api_key_env="WF_TEST_KEY")], [])
    workflow = workflow_file(tmp_path, "name: t\nsteps:\n  - {name: s, agent: a, task: go}\n", registry)
    monkeypatch.delenv("WF_TEST_KEY", raising=False)
    with pytest.raises(CredentialsMissingError, match="WF_TEST_KEY"):
        await run_to_end(workflow, journal=journal, connect=connect)
    assert not journal.exists() or not list(journal.iterdir())
    monkeypatch.setenv("WF_TEST_KEY", "key-value-9876")
    echoing.turns = [done("t", "the agent repeats key-value-9876")]
    run, _ = await run_to_end(workflow, journal=journal, connect=connect)
    assert run.status == "completed"
    assert "key-value-9876" not in (journal / f"{run.run_id}.jsonl").read_text()


async def test_missing_inputs_are_refused_before_anything_runs(tmp_path, journal):
    connect, registry = scripted(ScriptedAgent("a", []))
    workflow = workflow_file(
        tmp_path,
        "name: t\ninputs: {topic: {required: true}}\nsteps:\n  - {name: s, agent: a, task: '{{inputs.topic}}'}\n",
        registry,
    )
    with pytest.raises(WorkflowInvalid, match="the input 'topic' is required"):
        await run_to_end(workflow, journal=journal, connect=connect)


async def test_expect_gates_an_agents_output(tmp_path, journal):
    agent = ScriptedAgent("a", [done("t", "no luck today")])
    connect, registry = scripted(agent)
    workflow = workflow_file(
        tmp_path, "name: t\nsteps:\n  - {name: s, agent: a, task: go, expect: {output_contains: sources}}\n", registry
    )
    run, _ = await run_to_end(workflow, journal=journal, connect=connect)
    assert run.steps["s"].error_code == "EXPECT_FAILED" and "sources" in run.steps["s"].error


async def test_steps_sharing_a_context_continue_it_one_at_a_time(tmp_path, journal):
    agent = ScriptedAgent(
        "a", [[0.03, *done("t1", "one")], lambda m, _: [snapshot("t2", C, context_id=m.context_id or "new")]]
    )
    connect, registry = scripted(agent)
    workflow = workflow_file(
        tmp_path,
        "name: t\nsteps:\n  - {name: a1, agent: a, task: x, context: chat}\n"
        "  - {name: a2, agent: a, task: y, context: chat}\n",
        registry,
    )
    run, _ = await run_to_end(workflow, journal=journal, connect=connect)
    assert run.status == "completed" and agent.peak == 1
    assert agent.sent[0].context_id is None and agent.sent[1].context_id == "ctx-1"


async def test_canceling_a_step_cancels_its_task_and_skips_what_depends_on_it(tmp_path, journal):
    agent = ScriptedAgent("a", [[snapshot("long", W), 30.0]])
    connect, registry = scripted(agent, ScriptedAgent("b", []))
    workflow = workflow_file(
        tmp_path,
        "name: t\nsteps:\n  - {name: long, agent: a, task: x}\n"
        "  - {name: next, agent: b, task: y, dependsOn: [long]}\n",
        registry,
    )
    async with httpx.AsyncClient() as http:
        run = start_run(workflow, {}, ask=None, http=http, tap=None, journal_dir=journal, connect=connect)
        async for event in run.events():
            if isinstance(event, StepEvent) and event.step == "long":
                await run.cancel_step("long")
        await run.wait()
    assert agent.canceled == ["long"] and run.steps["long"].status == "canceled"
    assert run.steps["next"].status == "skipped" and run.status == "canceled"
    assert "StepCanceled" in kinds(journal / f"{run.run_id}.jsonl")


async def test_canceling_the_run_stops_every_step(tmp_path, journal):
    agents = [ScriptedAgent(n, [[snapshot(f"t-{n}", W), 30.0]]) for n in ("a", "b")]
    connect, registry = scripted(*agents)
    workflow = workflow_file(
        tmp_path,
        "name: t\nsteps:\n  - {name: one, agent: a, task: x}\n  - {name: two, agent: b, task: y}\n"
        "  - {name: three, run: echo, dependsOn: [one]}\n",
        registry,
    )
    async with httpx.AsyncClient() as http:
        run = start_run(workflow, {}, ask=None, http=http, tap=None, journal_dir=journal, connect=connect)
        seen = set()
        async for event in run.events():
            if isinstance(event, StepEvent):
                seen.add(event.step)
                if seen == {"one", "two"}:
                    await run.cancel()
    assert run.status == "canceled" and [a.canceled for a in agents] == [["t-a"], ["t-b"]]
    assert run.steps["three"].status == "skipped"
    assert kinds(journal / f"{run.run_id}.jsonl")[-1] == "RunCanceled"


async def test_a_crash_mid_task_resumes_by_reattaching_never_by_sending_again(tmp_path, journal):
    agent = ScriptedAgent("a", [[snapshot("t1", W), status("t1", W, "halfway"), 30.0]])
    after = ScriptedAgent("b", [lambda m, _: done("t2", "after: " + text_of_message(m))])
    connect, registry = scripted(agent, after)
    workflow = workflow_file(
        tmp_path,
        "name: t\nsteps:\n  - {name: long, agent: a, task: x}\n"
        "  - {name: next, agent: b, task: '{{steps.long.output}}', dependsOn: [long]}\n",
        registry,
    )
    async with httpx.AsyncClient() as http:
        run = start_run(workflow, {}, ask=None, http=http, tap=None, journal_dir=journal, connect=connect)
        async for event in run.events():
            if isinstance(event, StepEvent) and getattr(event.event, "status", None) and event.event.status.message:
                break
        await run.interrupt()  # as if the process died: no cancel at the agent
    assert run.status == "interrupted" and agent.canceled == []
    assert read_run(run.run_id, journal).steps["long"].status == "running"
    agent.turns = [[artifact("t1", "the result"), status("t1", C)]]
    async with httpx.AsyncClient() as http:
        resumed = resume_run(
            run.run_id, ask=None, http=http, tap=None, journal_dir=journal, workflow=workflow, connect=connect
        )
        events = [e async for e in resumed.events()]
    assert resumed.status == "completed" and resumed.steps["next"].output == "after: the result"
    assert len(agent.sent) == 2 and agent.sent[1].message_id == "resume"  # the second "turn" was the re-attach
    assert agent.resumed == ["t1"]
    assert [e.reattached for e in events if isinstance(e, StepStarted) and e.step == "long"] == [True]
    recorded = kinds(journal / f"{resumed.run_id}.jsonl")
    assert recorded.count("StepRequested") == 2 and "RunInterrupted" in recorded and "RunResumed" in recorded


async def test_resume_never_invokes_a_completed_step_again(tmp_path, journal):
    first = ScriptedAgent("a", [done("t1", "kept")])
    second = ScriptedAgent("b", [[snapshot("t2", F)], lambda m, _: done("t3", text_of_message(m))])
    connect, registry = scripted(first, second)
    workflow = workflow_file(
        tmp_path,
        "name: t\nsteps:\n  - {name: one, agent: a, task: x}\n"
        "  - {name: two, agent: b, task: 'got {{steps.one.output}}', dependsOn: [one]}\n",
        registry,
    )
    run, _ = await run_to_end(workflow, journal=journal, connect=connect)
    assert run.status == "failed"
    async with httpx.AsyncClient() as http:
        resumed = resume_run(
            run.run_id, ask=None, http=http, tap=None, journal_dir=journal, workflow=workflow, connect=connect
        )
        assert await resumed.wait() == "completed"
    assert len(first.sent) == 1 and len(second.sent) == 2
    assert resumed.steps["two"].output == "got kept" and resumed.steps["two"].attempt == 2


async def test_shell_steps_quote_values_check_exit_codes_and_stream_lines(tmp_path, journal):
    hostile = "x'; touch pwned; echo 'y $(touch pwned2)"
    agent = ScriptedAgent("a", [done("t", hostile)])
    connect, registry = scripted(agent)
    workflow = workflow_file(
        tmp_path,
        """
        name: shell
        steps:
          - {name: fetch, agent: a, task: go}
          - name: show
            dependsOn: [fetch]
            run: printf '%s\\n' {{steps.fetch.output}} "quoted {{steps.fetch.output}}"; echo "$SWITCHBOARD_STEP" >&2
          - name: fails
            dependsOn: [show]
            run: echo partial; echo broken >&2; exit 3
            onError: continue
          - {name: allowed, run: exit 3, expect: {exit_code: 3}}
        """,
        registry,
    )
    run, events = await run_to_end(workflow, journal=journal, connect=connect)
    assert run.steps["show"].output == f"{hostile}\nquoted {hostile}"
    assert not (tmp_path / "pwned").exists() and not (tmp_path / "pwned2").exists()
    assert any(isinstance(e, StepOutput) and e.stream == "stderr" and e.text == "show" for e in events)
    fails = run.steps["fails"]
    assert fails.status == "failed" and fails.error_code == "SHELL_FAILED" and fails.exit_code == 3
    assert "exited with 3, expected 0" in fails.error and "broken" in fails.error
    assert run.steps["allowed"].status == "completed" and run.status == "completed"


async def test_a_shell_step_past_its_timeout_is_terminated_with_its_children(tmp_path, journal):
    connect, registry = scripted()
    pid_file = tmp_path / "child.pid"
    workflow = workflow_file(
        tmp_path,
        f"name: t\nsteps:\n  - {{name: s, run: 'sleep 60 & echo $! > {pid_file}; wait', timeout: 300ms}}\n",
        registry,
    )
    run, _ = await run_to_end(workflow, journal=journal, connect=connect)
    assert run.steps["s"].error_code == "TIMEOUT"
    child = int(pid_file.read_text())
    for _ in range(100):  # the child was in the command's process group: it is gone too
        if not Path(f"/proc/{child}").exists() or "Z" in Path(f"/proc/{child}/stat").read_text().split()[2]:
            break
        await asyncio.sleep(0.02)
    else:
        raise AssertionError("the command's child survived the timeout")


async def test_completed_steps_emit_their_output(tmp_path, journal):
    connect, registry = scripted(
        ScriptedAgent("a", [[Message(message_id="m", role=Role.AGENT, parts=[TextPart(text="hi")])]])
    )
    workflow = workflow_file(tmp_path, "name: t\nsteps:\n  - {name: direct, agent: a, task: hello}\n", registry)
    run, events = await run_to_end(workflow, journal=journal, connect=connect)
    assert [e.output for e in events if isinstance(e, StepCompleted)] == ["hi"]
    assert run.steps["direct"].task_id is None and run.steps["direct"].state == "completed"


async def test_canceling_a_shell_step_terminates_its_command(tmp_path, journal):
    connect, registry = scripted()
    pid_file = tmp_path / "shell.pid"
    workflow = workflow_file(
        tmp_path, f"name: t\nsteps:\n  - {{name: s, run: 'echo $$ > {pid_file}; echo go; sleep 60'}}\n", registry
    )
    async with httpx.AsyncClient() as http:
        run = start_run(workflow, {}, http=http, journal_dir=journal, connect=connect)
        async for event in run.events():
            if isinstance(event, StepOutput) and event.text == "go":
                await run.cancel_step("s")
    assert run.steps["s"].status == "canceled" and run.status == "canceled"
    shell = int(pid_file.read_text())
    assert not Path(f"/proc/{shell}").exists() or "Z" in Path(f"/proc/{shell}/stat").read_text().split()[2]


async def test_a_step_canceled_while_it_waits_for_a_slot_is_canceled_not_run(tmp_path, journal):
    agent = ScriptedAgent("a", [[snapshot("t1", W), 30.0]])
    connect, registry = scripted(agent)
    workflow = workflow_file(
        tmp_path, "name: t\nsteps:\n  - {name: one, agent: a, task: x}\n  - {name: two, agent: a, task: y}\n", registry
    )
    async with httpx.AsyncClient() as http:
        run = start_run(workflow, {}, http=http, journal_dir=journal, connect=connect, max_concurrency=1)
        async for event in run.events():
            if isinstance(event, StepEvent):
                await run.cancel_step("two")  # queued behind one
                await run.cancel_step("one")
    assert run.steps["two"].status == "canceled" and run.steps["one"].status == "canceled"
    assert [text_of_message(m) for m in agent.sent] == ["x"]  # two never went out


async def test_an_answer_taken_to_a_new_task_is_followed_and_journaled_for_resume(tmp_path, journal):
    from switchboard.a2a.follow import Notice

    moved = Notice("the agent answered under a new task", "warning", kind="new-task", task_id="t2")
    agent = ScriptedAgent(
        "a",
        [
            [snapshot("t1", W), status("t1", ASK, "Name?")],
            [moved, snapshot("t2", W), artifact("t2", "Hello, Ada"), status("t2", C)],
        ],
    )
    connect, registry = scripted(agent)
    workflow = workflow_file(tmp_path, "name: t\nsteps:\n  - {name: s, agent: a, task: go}\n", registry)
    run, _ = await run_to_end(workflow, journal=journal, connect=connect, answers={"s": ["Ada"]})
    assert run.status == "completed" and run.steps["s"].output == "Hello, Ada"
    assert run.steps["s"].task_id == "t2"
    path = journal / f"{run.run_id}.jsonl"
    moves = [r for r in records_of(path) if r["type"] == "StepTaskMoved"]
    assert [(r["taskId"], r["previousTaskId"]) for r in moves] == [("t2", "t1")]
    record = read_run(run.run_id, journal)
    assert record.steps["s"].task_id == "t2" and record.steps["s"].view.state is C


async def test_an_agents_megabyte_reaches_a_shell_step_byte_for_byte_and_never_its_script(tmp_path, journal):
    big = ("it's $(touch pwned) `touch pwned` x[$(touch pwned)] é\n" * 20000)[: 1024 * 1024]
    agent = ScriptedAgent("a", [done("t", big), done("t2", "x[$(touch pwned)]")])
    connect, registry = scripted(agent)
    workflow = workflow_file(
        tmp_path,
        """
        name: big
        steps:
          - {name: fetch, agent: a, task: go}
          - name: count
            dependsOn: [fetch]
            run: printf '%s' {{steps.fetch.output}} | sha256sum | cut -c1-64
          - {name: other, agent: a, task: again, dependsOn: [count]}
          - name: sum
            dependsOn: [other]
            run: echo $(( {{steps.other.output}} + 1 ))
            retries: {count: 2, backoff: 1ms}
        """,
        registry,
    )
    run, _ = await run_to_end(workflow, journal=journal, connect=connect)
    assert run.steps["count"].output == hashlib.sha256(big.rstrip("\n").encode()).hexdigest()
    assert not (tmp_path / "pwned").exists()
    failed = run.steps["sum"]
    assert failed.status == "failed" and failed.error_code == "SHELL_FAILED" and failed.attempt == 1
    assert "{{steps.other.output}} is used in arithmetic" in failed.error
    records = [json.loads(line) for line in next(journal.glob("*.jsonl")).read_text().splitlines()]
    requested = {r["step"]: r for r in records if r["type"] == "StepRequested" and "command" in r}
    assert requested["count"]["command"] == "printf '%s' \"$SWITCHBOARD_STEPS_FETCH_OUTPUT\" | sha256sum | cut -c1-64"
    assert requested["count"]["values"] == {"SWITCHBOARD_STEPS_FETCH_OUTPUT": "steps.fetch.output"}
    assert requested["sum"]["command"] == "echo $(( ${SWITCHBOARD_STEPS_OTHER_OUTPUT_NUMBER} + 1 ))"
