"""`switchboard run` and `switchboard runs` headless, against the demo fleet: every example, each output form,
answers, failures, and the journal they leave."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from cli_runner import run_cli_in_process
from workflow_support import (
    API_KEY,
    REPO,
    cli_env,
    count_tasks,
    fields,
    journal_files,
    records_of,
    run_cli,
    run_document,
)

EXAMPLES = REPO / "examples" / "workflows"


def workflow(tmp_path: Path, text: str, name: str = "wf.yaml") -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return str(path)


def steps_of(doc: dict) -> dict[str, dict]:
    return {s["name"]: s for s in doc["steps"]}


# --- the examples -----------------------------------------------------------------------------------------


def test_briefing_fans_out_to_three_agents_and_combines_them(home, agents_file, fleet):
    run = run_cli(home, agents_file, "run", str(EXAMPLES / "briefing.yaml"), "-i", "topic=solar sails", "-o", "json")
    assert run.returncode == 0, run.stderr
    doc = run_document(run.stdout)
    steps = steps_of(doc)
    assert doc["status"] == "completed" and all(s["status"] == "completed" for s in steps.values())
    assert steps["research"]["output"] == "Research on solar sails: 4 sources found, report attached."
    assert steps["convert"]["output"] == "10 km = 6.21371 mi"  # the v0.3-only agent
    assert steps["draft"]["output"].startswith("# Solar sails\n") and len(steps["draft"]["output"]) > 3000
    brief = doc["outputs"]["brief"]
    assert brief.startswith("echo: Briefing on solar sails.\nResearch: Research on solar sails: 4 sources found")
    assert f"Draft: task {steps['draft']['taskId']} is completed." in brief
    for name in ("research", "draft"):
        assert steps[name]["correlationId"] == f"{doc['runId']}:delegate:{name}"
        url = fleet.agent("researcher" if name == "research" else "writer").url
        assert count_tasks(url, steps[name]["correlationId"]) == 1  # the id reached the agent, once


def test_interview_pauses_twice_and_takes_the_answers_in_order(home, agents_file):
    run = run_cli(
        home,
        agents_file,
        "run",
        str(EXAMPLES / "interview.yaml"),
        "--answer",
        "interview=Ada",
        "--answer",
        "interview=1",
    )
    assert run.returncode == 0, run.stderr
    assert fields(run.stdout)["State"] == "completed"
    assert "Output summary:\nInterview summary: Ada came by to learn how A2A works.\n" in run.stdout
    assert "echo: Welcome aboard! Interview summary: Ada came by to learn how A2A works." in run.stdout
    assert run.stderr.count("interview: the agent asks (input-required)") == 2
    journal = journal_files(home)[0]
    answers = [r["answer"] for r in records_of(journal) if r["type"] == "InputSubmitted"]
    assert answers == ["Ada", "1"]


def test_gated_report_runs_the_writer_only_after_the_shell_check_passes(home, agents_file):
    run = run_cli(
        home, agents_file, "run", str(EXAMPLES / "gated-report.yaml"), "-i", "topic=tide tables", "-o", "json"
    )
    assert run.returncode == 0, run.stderr
    doc = run_document(run.stdout)
    steps = steps_of(doc)
    assert doc["status"] == "completed" and steps["check"]["output"] == "4 sources"
    assert steps["check"]["exitCode"] == 0 and steps["check"]["type"] == "shell"
    assert (
        doc["outputs"]["checked"] == "4 sources"
        and "a report on tide tables from 4 sources" in steps["write"]["output"]
    )


def test_a_failing_gate_stops_the_run_before_the_writer_is_invoked(home, agents_file, fleet, tmp_path):
    path = workflow(
        tmp_path,
        """
        name: gate-closed
        agents: [researcher, writer]
        steps:
          - {name: research, agent: researcher, task: "quick: gates"}
          - name: check
            dependsOn: [research]
            run: printf '%s' {{steps.research.output}} | grep -Eo '[0-9]+ reviewers'
          - {name: write, agent: writer, dependsOn: [check], task: "never {{steps.check.output}}"}
        """,
    )
    run = run_cli(home, agents_file, "run", path)
    assert run.returncode == 0, run.stderr  # the tool did its job; the run's outcome is in the output
    assert fields(run.stdout)["State"] == "failed"
    assert "Error Code: SHELL_FAILED\nError: the command exited with 1, expected 0" in run.stdout
    assert "Skipped: check failed" in run.stdout
    run_id = fields(run.stdout)["Run ID"]
    assert count_tasks(fleet.agent("writer").url, f"{run_id}:delegate:write") == 0
    assert f"Resume: {run.stdout.split('Resume: ')[1].split(' run ')[0]} run --resume {run_id}" in run.stdout


def test_the_relay_layout_example_runs_as_it_is(home, agents_file):
    run = run_cli(home, agents_file, "run", str(EXAMPLES / "relay-convert.yaml"), "-i", "distance=42 km")
    assert run.returncode == 0, run.stderr
    assert fields(run.stdout)["State"] == "completed"
    assert "Step Output:\necho: 42 km = 26.0976 mi (5 words)\n" in run.stdout


@pytest.mark.parametrize("name", ["briefing", "interview", "gated-report", "relay-convert"])
def test_every_example_validates_against_the_demo_agents(home, agents_file, name):
    run = run_cli(home, agents_file, "run", str(EXAMPLES / f"{name}.yaml"), "--validate")
    assert run.returncode == 0, run.stderr
    assert run.stdout.rstrip().endswith("Valid: yes") and not journal_files(home)


# --- waiting, answering, resuming -------------------------------------------------------------------------


def test_without_answers_the_run_waits_and_says_how_to_go_on(home, agents_file, fleet):
    run = run_cli(home, agents_file, "run", str(EXAMPLES / "interview.yaml"), "-o", "json")
    assert run.returncode == 0, run.stderr
    doc = run_document(run.stdout)
    step = steps_of(doc)["interview"]
    assert doc["status"] == "awaiting_input" and step["status"] == "waiting"
    assert step["question"]["state"] == "input-required"
    assert step["question"]["parts"][0]["text"] == "What is your name?"
    assert step["question"]["taskId"] == step["taskId"] and step["question"]["correlationId"].endswith(":interview")
    assert doc["resume"].endswith(f'run --resume {doc["runId"]} --answer interview="<your answer>"')
    again = run_cli(home, agents_file, "run", "--resume", doc["runId"], "--answer", "interview=Grace")
    assert fields(again.stdout)["State"] == "awaiting-input" and "Nice to meet you, Grace." in again.stdout
    assert '"choices"' in again.stdout  # the question's data part
    last = run_cli(home, agents_file, "run", "--resume", doc["runId"][:12], "--answer", "interview=2")
    assert fields(last.stdout)["State"] == "completed", last.stderr
    assert "Grace came by to test my own agent." in last.stdout
    assert count_tasks(fleet.agent("interviewer").url, step["correlationId"]) == 1
    done = run_cli(home, agents_file, "run", "--resume", doc["runId"])
    assert done.returncode == 0 and "completed already; nothing to do" in done.stderr


def test_auth_required_answers_and_api_keys_never_reach_the_journal(home, agents_file, tmp_path):
    path = workflow(
        tmp_path,
        "name: vault\nagents: [gatekeeper]\nsteps:\n  - {name: vault, agent: gatekeeper, task: open the vault}\n",
    )
    run = run_cli(home, agents_file, "run", path, "--answer", "vault=sesame")
    assert run.returncode == 0, run.stderr
    assert fields(run.stdout)["State"] == "completed" and "The vault is open." in run.stdout
    text = journal_files(home)[0].read_text()
    submitted = [r for r in records_of(journal_files(home)[0]) if r["type"] == "InputSubmitted"]
    assert submitted[0]["secret"] is True and "answer" not in submitted[0]
    assert API_KEY not in text and '"sesame"' not in text
    assert text.count("sesame") == text.count("in this demo it is 'sesame'")  # only inside the agent's own question


def test_a_missing_credential_is_refused_before_anything_runs(home, agents_file, tmp_path):
    path = workflow(tmp_path, "name: v\nagents: [gatekeeper]\nsteps:\n  - {name: v, agent: gatekeeper, task: hi}\n")
    run = run_cli(home, agents_file, "run", path, SWITCHBOARD_DEMO_KEY="")
    assert run.returncode == 4 and "SWITCHBOARD_DEMO_KEY" in run.stderr and not journal_files(home)


def test_with_the_demos_key_not_exported_a_run_reaches_the_gatekeeper_with_its_default(home, agents_file, tmp_path):
    path = workflow(tmp_path, "name: v\nagents: [gatekeeper]\nsteps:\n  - {name: v, agent: gatekeeper, task: hi}\n")
    env = {k: v for k, v in cli_env(home).items() if k != "SWITCHBOARD_DEMO_KEY"}  # as a new shell has it
    run = run_cli_in_process(["--agents", str(agents_file), "run", path, "--answer", "v=sesame"], env, "", cwd=REPO)
    assert run.returncode == 0, run.stderr
    assert fields(run.stdout)["State"] == "completed" and "The vault is open." in run.stdout
    assert API_KEY not in journal_files(home)[0].read_text()  # the default is a credential like any other


def test_a_failed_delegate_is_reported_with_its_code_and_task_id(home, agents_file, tmp_path):
    path = workflow(tmp_path, "name: f\nagents: [flaky]\nsteps:\n  - {name: f, agent: flaky, task: fail}\n")
    run = run_cli(home, agents_file, "run", path, "-o", "json")
    assert run.returncode == 0
    step = steps_of(run_document(run.stdout))["f"]
    assert step["errorCode"] == "A2A_TASK_FAILED" and step["taskId"] and "failed on purpose" in step["error"]


def test_exit_status_makes_a_run_that_did_not_complete_exit_1_and_one_that_did_exit_0(home, agents_file, tmp_path):
    flaky = "name: f\nagents: [flaky]\nsteps:\n  - {name: f, agent: flaky, task: fail}\n"
    failing = workflow(tmp_path, flaky, "f.yaml")
    default = run_cli(home, agents_file, "run", failing)
    assert default.returncode == 0 and fields(default.stdout)["State"] == "failed"  # the spec's default stands
    failed = run_cli(home, agents_file, "run", failing, "--exit-status", "-o", "json")
    assert failed.returncode == 1, failed.stderr
    run = run_document(failed.stdout)  # the result is printed all the same: the outcome, and why the 1
    assert run["status"] == "failed"
    assert f"the run {run['runId']} ended failed, not completed: exit 1 (--exit-status)" in failed.stderr
    asking = workflow(tmp_path, "name: q\nagents: [interviewer]\nsteps:\n  - {name: q, agent: interviewer, task: hi}\n")
    waiting = run_cli(home, agents_file, "run", asking, "--exit-status")
    assert waiting.returncode == 1 and fields(waiting.stdout)["State"] == "awaiting-input"
    assert "ended awaiting-input" in waiting.stderr
    passing = workflow(tmp_path, "name: e\nagents: [echo]\nsteps:\n  - {name: e, agent: echo, task: hi}\n", "e.yaml")
    done = run_cli(home, agents_file, "run", passing, "--exit-status")
    assert done.returncode == 0 and fields(done.stdout)["State"] == "completed", done.stderr
    assert "exit 1" not in done.stderr


def test_exit_status_on_temporal_needs_follow_since_the_command_ends_as_the_run_starts(home, agents_file):
    run = run_cli_in_process(
        ["run", str(EXAMPLES / "interview.yaml"), "--temporal", "127.0.0.1:9", "--exit-status"], cli_env(home), ""
    )
    assert run.returncode == 2 and "--exit-status on Temporal goes with --follow" in run.stderr


# --- output forms -----------------------------------------------------------------------------------------


def test_stream_json_is_one_event_per_line_ending_with_the_run(home, agents_file):
    run = run_cli(
        home, agents_file, "run", str(EXAMPLES / "relay-convert.yaml"), "-i", "distance=3 km", "--stream", "-o", "json"
    )
    assert run.returncode == 0, run.stderr
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    names = [line["event"] for line in lines]
    assert names[0] == "RunStarted" and names[-2:] == ["RunFinished", "RunSummary"]
    assert {"StepStarted", "StepEvent", "StepOutput", "StepCompleted"} <= set(names)
    a2a = [line for line in lines if line["event"] == "StepEvent"]
    assert all(set(line["data"]) <= {"task", "message", "statusUpdate", "artifactUpdate"} for line in a2a)
    assert lines[-1]["run"]["status"] == "completed"


def test_stream_text_shows_each_event_then_the_run(home, agents_file):
    run = run_cli(home, agents_file, "run", str(EXAMPLES / "relay-convert.yaml"), "-i", "distance=3 km", "--stream")
    assert run.returncode == 0, run.stderr
    assert "Event: run-started\n" in run.stdout and "Event: step-started\nStep: convert\n" in run.stdout
    assert "Step: convert\nEvent: status-update\nState: completed\n" in run.stdout
    assert "Event: run-finished\nState: completed\n" in run.stdout
    assert "\x1b" not in run.stdout


def test_runs_list_and_show_read_the_journal(home, agents_file):
    first = run_cli(home, agents_file, "run", str(EXAMPLES / "interview.yaml"))
    second = run_cli(home, agents_file, "run", str(EXAMPLES / "relay-convert.yaml"), "-i", "distance=1 km")
    waiting_id, done_id = fields(first.stdout)["Run ID"], fields(second.stdout)["Run ID"]
    listed = run_cli(home, agents_file, "runs", "list", "-o", "json")
    runs = json.loads(listed.stdout)["runs"]
    assert [r["runId"] for r in runs] == [done_id, waiting_id]
    assert runs[1]["status"] == "awaiting_input" and runs[1]["waiting"] == ["interview"]
    assert runs[0]["stepsCompleted"] == runs[0]["stepsTotal"] == 3
    text = run_cli(home, agents_file, "runs", "list").stdout
    assert f"Run ID: {done_id}\nWorkflow: convert-and-count\nState: completed\n" in text and "Runs: 2" in text
    shown = run_cli(home, agents_file, "runs", "show", waiting_id)
    assert "State: awaiting-input" in shown.stdout and "Question:\nWhat is your name?\n" in shown.stdout
    assert "Resume: " in shown.stdout and f"--resume {waiting_id} --answer interview=" in shown.stdout
    records = run_cli(home, agents_file, "runs", "show", done_id, "--records").stdout.splitlines()
    assert json.loads(records[0])["type"] == "RunStarted" and json.loads(records[-1])["type"] == "RunCompleted"
    missing = run_cli(home, agents_file, "runs", "show", "nope", "-o", "json")
    assert missing.returncode == 2 and json.loads(missing.stdout)["error"]["code"] == "A2ACLI_ERR_USAGE"


# --- usage errors -----------------------------------------------------------------------------------------


def test_an_invalid_workflow_lists_every_problem_and_exits_2(home, agents_file, tmp_path):
    path = workflow(
        tmp_path,
        """
        name: broken
        steps:
          - {name: a, agent: nobody, task: hi}
          - {name: b, run: "echo {{steps.a.output}}", timeout: soon}
        """,
    )
    run = run_cli(home, agents_file, "run", path)
    assert run.returncode == 2 and not journal_files(home)
    assert f"{path}:3: step a: the agent nobody is unknown" in run.stderr
    assert f"{path}:4: step b: timeout 'soon' is not a duration" in run.stderr
    assert "Code: A2A_CONFIG_INVALID" in run.stderr
    as_json = json.loads(run_cli(home, agents_file, "run", path, "-o", "json").stdout)["error"]
    assert as_json["code"] == "A2A_CONFIG_INVALID" and [i["line"] for i in as_json["issues"]] == [3, 4, 4]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["run"], "no workflow file given"),
        (["run", "examples/workflows/interview.yaml", "--answer", "nobody=hi"], "names no step"),
        (["run", "examples/workflows/interview.yaml", "--answer", "oops"], "is not STEP=VALUE"),
        (["run", "examples/workflows/briefing.yaml"], "the input 'topic' is required"),
        (["run", "examples/workflows/briefing.yaml", "-i", "topic=x", "-i", "colour=red"], "no input 'colour'"),
        (["run", "--resume", "nope"], "there is no run nope"),
    ],
)
def test_usage_errors(home, agents_file, args, message):
    run = run_cli(home, agents_file, *args)
    assert run.returncode == 2 and message in run.stderr, run.stderr


def test_a_rest_task_api_agent_is_a_delegate_like_any_other(home, agents_file, tmp_path):
    path = workflow(
        tmp_path, "name: book\nagents: [tasks]\nsteps:\n  - {name: book, agent: tasks, task: book a table}\n"
    )
    run = run_cli(home, agents_file, "run", path, "--answer", "book=8pm", "-o", "json")
    assert run.returncode == 0, run.stderr
    step = steps_of(run_document(run.stdout))["book"]
    assert step["status"] == "completed" and step["output"].startswith("Table for two booked at 8pm.")
    requested = [r for r in records_of(journal_files(home)[0]) if r["type"] == "StepRequested"]
    assert requested[0]["correlationId"] == step["correlationId"]


def test_resuming_after_the_file_moved_says_how_to_point_at_it(home, agents_file, tmp_path):
    moved = tmp_path / "moved.yaml"
    original = tmp_path / "interview.yaml"
    original.write_text((EXAMPLES / "interview.yaml").read_text())
    run_id = fields(run_cli(home, agents_file, "run", str(original)).stdout)["Run ID"]
    original.rename(moved)
    lost = run_cli(home, agents_file, "run", "--resume", run_id)
    assert lost.returncode == 2 and "which is gone" in lost.stderr and f"run FILE --resume {run_id}" in lost.stderr
    found = run_cli(home, agents_file, "run", str(moved), "--resume", run_id, "--answer", "interview=Ada")
    assert found.returncode == 0 and "Nice to meet you, Ada." in found.stdout
    assert f"the run started from {original}; continuing it with {moved}" in found.stderr
