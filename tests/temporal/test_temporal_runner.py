"""The Temporal runner against a real Temporal dev server, real worker processes and the demo fleet: the same
files give the same steps, codes and outputs as locally; a waiting step is answered from another process,
once; a worker killed mid-step is replaced without the agent seeing a second task; a cancel reaches the
agent's task; the server stores no payload in the clear."""

from __future__ import annotations

import asyncio
import json
import re
import signal
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from workflow_support import REPO, cli_env, count_tasks, run_cli, switchboard_argv, tasks_for

from switchboard.a2a.model import TaskState

EXAMPLES = REPO / "examples" / "workflows"
TASK_ID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def on_temporal(workers, *args: str) -> list[str]:
    return [*args, "--temporal", workers.address, "--task-queue", workers.queue]


def document(done: subprocess.CompletedProcess) -> dict:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["run"]


def shape(run: dict) -> dict:
    """What must match between runners: states, codes and outputs (task ids differ from run to run)."""

    def plain(text: str) -> str:
        return TASK_ID.sub("<task>", text or "")

    steps = {
        s["name"]: (s["status"], s["state"], s.get("errorCode"), plain(s["output"]), s["correlationId"] is not None)
        for s in run["steps"]
    }
    return {"status": run["status"], "steps": steps, "outputs": {k: plain(v) for k, v in run["outputs"].items()}}


@pytest.mark.parametrize(
    ("example", "inputs"),
    [
        ("briefing.yaml", ["-i", "topic=solar sails"]),
        ("relay-convert.yaml", ["-i", "distance=3 km"]),
        ("gated-report.yaml", ["-i", "topic=tides"]),
        ("interview.yaml", []),
    ],
)
def test_the_examples_end_as_they_do_locally(home, agents_file, workers, example, inputs):
    local = document(run_cli(home, agents_file, "run", str(EXAMPLES / example), *inputs, "-o", "json"))
    remote = document(
        run_cli(
            home,
            agents_file,
            *on_temporal(workers, "run", str(EXAMPLES / example), *inputs, "--follow", "-o", "json"),
        )
    )
    assert shape(remote) == shape(local)
    assert remote["runId"] != local["runId"] and re.fullmatch(r"\d{8}T\d{6}-[0-9a-f]{6}", remote["runId"])
    for step in remote["steps"]:
        if step["type"] == "a2a" and step["status"] != "pending":
            assert step["correlationId"] == f"{remote['runId']}:delegate:{step['name']}"
    shown = run_cli(home, agents_file, "runs", "show", remote["runId"], "--temporal", workers.address, "-o", "json")
    assert shape(document(shown)) == shape(local)


FAILURES = """\
version: 1
name: failures
agents: [flaky, interviewer, researcher, echo]
steps:
  - name: fails
    agent: flaky
    task: fail
    onError: continue
  - name: rejected
    agent: flaky
    task: reject
    onError: continue
  - name: not-interactive
    agent: interviewer
    task: interview me
    interactive: false
    onError: continue
  - name: slow
    agent: researcher
    task: tides
    timeout: 1s
    onError: continue
  - name: unexpected
    agent: echo
    task: hello
    retries: {count: 1, backoff: 100ms}
    expect: {output_contains: goodbye}
    onError: continue
  - name: shell
    run: "echo out; exit 3"
    onError: continue
  - name: after
    agent: echo
    dependsOn: [fails, rejected, not-interactive, slow, unexpected, shell]
    task: "still here"
outputs:
  last: "{{steps.after.output}}"
"""


def test_failures_carry_the_same_codes_as_locally(home, agents_file, workers):
    path = home / "failures.yaml"
    path.write_text(FAILURES)
    local = document(run_cli(home, agents_file, "run", str(path), "-o", "json"))
    remote = document(run_cli(home, agents_file, *on_temporal(workers, "run", str(path), "--follow", "-o", "json")))
    codes = {s["name"]: s.get("errorCode") for s in local["steps"]}
    assert codes == {
        "fails": "A2A_TASK_FAILED",
        "rejected": "A2A_TASK_REJECTED",
        "not-interactive": "A2A_INPUT_REQUIRED",
        "slow": "TIMEOUT",
        "unexpected": "EXPECT_FAILED",
        "shell": "SHELL_FAILED",
        "after": None,
    }
    assert {s["name"]: s.get("errorCode") for s in remote["steps"]} == codes
    # Said whole when they differ: pytest's diff of two nested dicts cuts the step that differs.
    assert shape(remote) == shape(local), f"on Temporal {shape(remote)}\nlocally {shape(local)}"
    assert remote["status"] == "completed"
    attempts = {s["name"]: s["attempt"] for s in remote["steps"]}
    assert attempts == {s["name"]: s["attempt"] for s in local["steps"]} and attempts["unexpected"] == 2


def test_a_followed_run_streams_the_events_a_local_run_streams(home, agents_file, workers):
    """Step by step, the same events in the same order; what streams inside a step (its A2A events, a command's
    lines) stays on the worker."""
    argv = ["run", str(EXAMPLES / "relay-convert.yaml"), "-i", "distance=3 km", "--stream", "-o", "json"]

    def events(done: subprocess.CompletedProcess) -> list[tuple]:
        assert done.returncode == 0, done.stderr
        lines = [json.loads(line) for line in done.stdout.splitlines()]
        assert lines[-1]["event"] == "RunSummary" and lines[-1]["run"]["status"] == "completed"
        kept = [e for e in lines[:-1] if e["event"] not in ("StepEvent", "StepNotice", "StepOutput")]
        return [(e["event"], e.get("step"), e.get("agent"), e.get("output"), e.get("status")) for e in kept]

    local = events(run_cli(home, agents_file, *argv))
    remote = events(run_cli(home, agents_file, *on_temporal(workers, *argv), "--follow"))
    assert remote == local and local[0][0] == "RunStarted" and local[-1][0] == "RunFinished"


def test_a_waiting_step_is_answered_from_another_process_and_the_run_is_listed_as_waiting(home, agents_file, workers):
    started = document(
        run_cli(
            home, agents_file, *on_temporal(workers, "run", str(EXAMPLES / "interview.yaml"), "--follow", "-o", "json")
        )
    )
    run_id = started["runId"]
    assert started["status"] == "awaiting_input"
    [step] = [s for s in started["steps"] if s["status"] == "waiting"]
    assert step["name"] == "interview" and step["question"]["parts"] == [{"text": "What is your name?"}]
    listed = run_cli(home, agents_file, "runs", "list", "--waiting", "--temporal", workers.address, "-o", "json")
    waiting = {r["runId"]: r for r in json.loads(listed.stdout)["runs"]}
    assert waiting[run_id]["status"] == "awaiting_input" and waiting[run_id]["waiting"] == ["interview"]
    # Another process (another person) answers both questions, each to the question asked after the one before.
    answered = run_cli(
        home,
        agents_file,
        *on_temporal(workers, "run", "--resume", run_id, "--answer", "interview=Ada", "--answer", "interview=ship it"),
        "--follow",
        "-o",
        "json",
    )
    run = document(answered)
    assert run["status"] == "completed", answered.stderr
    assert "Ada" in run["outputs"]["summary"] and "ship it" in run["outputs"]["summary"]
    again = run_cli(home, agents_file, *on_temporal(workers, "run", "--resume", run_id, "--answer", "interview=late"))
    assert again.returncode == 1, again.stderr
    assert "already answered" in again.stderr and "ALREADY_ANSWERED" in again.stderr


@pytest.mark.parametrize("which", ["first", "last"])
def test_two_answers_at_once_one_wins_and_the_other_is_told(home, agents_file, workers, which):
    """The last question's winner ends the run: the other answer may then be aborted with the run, which is
    reported as already answered too."""
    started = document(
        run_cli(
            home, agents_file, *on_temporal(workers, "run", str(EXAMPLES / "interview.yaml"), "--follow", "-o", "json")
        )
    )
    run_id = started["runId"]
    if which == "last":
        argv = ["run", "--resume", run_id, "--answer", "interview=Ada", "--follow", "-o", "json"]
        started = document(run_cli(home, agents_file, *on_temporal(workers, *argv)))
    [step] = [s for s in started["steps"] if s["status"] == "waiting"]
    seen = step["question"]["id"]  # both people look at the same question, then answer it

    def answer(name: str) -> subprocess.CompletedProcess:
        argv = ["run", "--resume", run_id, "--answer", f"interview={name}", "--question-id", seen]
        return run_cli(home, agents_file, *on_temporal(workers, *argv))

    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(answer, ["Ada", "Bob"]))
    codes = sorted(r.returncode for r in results)
    assert codes == [0, 1], [r.stderr for r in results]
    loser = next(r for r in results if r.returncode == 1)
    assert "already answered" in loser.stderr
    winner = "Ada" if results[0].returncode == 0 else "Bob"
    shown = document(run_cli(home, agents_file, "runs", "show", run_id, "--temporal", workers.address, "-o", "json"))
    step = next(s for s in shown["steps"] if s["name"] == "interview")
    history = [
        json.loads(line)
        for line in run_cli(
            home, agents_file, "runs", "show", run_id, "--records", "--temporal", workers.address
        ).stdout.splitlines()
    ]
    submitted = [r["answer"] for r in history if r["type"] == "InputSubmitted"]
    if which == "first":
        assert submitted == [winner] and step["status"] in ("waiting", "running")
    else:
        assert submitted == ["Ada", winner]


def wait_for_task(url: str, correlation_id: str, timeout: float = 60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = asyncio.run(tasks_for(url, correlation_id))
        if found and found[0].status.state == TaskState.WORKING:
            return found[0]
        time.sleep(0.1)
    raise AssertionError(f"no working task for {correlation_id} within {timeout} s")


SLOW = """\
version: 1
name: slow-research
inputs:
  topic: {required: true}
agents: [researcher, echo]
steps:
  - name: research
    agent: researcher
    task: "{{inputs.topic}}"
  - name: tell
    agent: echo
    dependsOn: [research]
    task: "done: {{steps.research.output}}"
outputs:
  told: "{{steps.tell.output}}"
"""


def start_slow(home, agents_file, workers) -> str:
    path = home / "slow.yaml"
    path.write_text(SLOW)
    started = run_cli(home, agents_file, *on_temporal(workers, "run", str(path), "-i", "topic=tides", "-o", "json"))
    return document(started)["runId"]


def records_of(home, agents_file, workers, run_id: str) -> list[dict]:
    shown = run_cli(home, agents_file, "runs", "show", run_id, "--records", "--temporal", workers.address)
    assert shown.returncode == 0, shown.stderr
    return [json.loads(line) for line in shown.stdout.splitlines()]


@pytest.mark.parametrize("fate", ["killed", "paused"])
def test_a_worker_lost_mid_step_is_replaced_and_the_agent_sees_one_task(home, agents_file, fleet, own_workers, fate):
    """The step's start is in the run's history before its message goes, as a local journal's is: the records
    keep it (and its attempt, start time and correlation id) whatever happens to the worker that sent it:
    killed (kill -9), or paused past its heartbeat timeout (as a starved machine does), its turn is taken over
    by another worker, which re-attaches to the task."""
    first = own_workers.start()
    run_id = start_slow(home, agents_file, own_workers)
    researcher = fleet.agent("researcher").url
    wait_for_task(researcher, f"{run_id}:delegate:research")
    before = [r for r in records_of(home, agents_file, own_workers, run_id) if r["type"] == "StepRequested"]
    if fate == "killed":
        own_workers.kill(first)  # mid-turn: the task goes on at the agent
    else:
        first.send_signal(signal.SIGSTOP)
    own_workers.start()
    followed = run_cli(
        home, agents_file, *on_temporal(own_workers, "run", "--resume", run_id), "--follow", "-o", "json", timeout=180
    )
    if fate == "paused":
        first.send_signal(signal.SIGCONT)  # its turn's late result is refused by the server
    run = document(followed)
    assert run["status"] == "completed", followed.stderr
    assert run["outputs"]["told"].startswith("echo: done: Research on tides")
    assert count_tasks(researcher, f"{run_id}:delegate:research") == 1
    requested = [r for r in records_of(home, agents_file, own_workers, run_id) if r["type"] == "StepRequested"]
    assert [r["step"] for r in before] == ["research"] and requested[0] == before[0]
    assert [(r["step"], r["attempt"]) for r in requested] == [("research", 1), ("tell", 1)]
    assert requested[0]["correlationId"] == f"{run_id}:delegate:research" and requested[0]["input"] == "tides"
    shown = document(
        run_cli(home, agents_file, "runs", "show", run_id, "--temporal", own_workers.address, "-o", "json")
    )
    research = next(s for s in shown["steps"] if s["name"] == "research")
    assert research["attempt"] == 1 and research["startedAt"] and research["endedAt"]
    assert research["correlationId"] == f"{run_id}:delegate:research" and research["status"] == "completed"


def test_cancel_reaches_the_agents_task(home, patient_fleet, workers):
    """The researcher here works until canceled: the step is running when the cancel comes, however late."""
    agents_file = patient_fleet.agents_file
    run_id = start_slow(home, agents_file, workers)
    researcher = patient_fleet.agent("researcher").url
    task = wait_for_task(researcher, f"{run_id}:delegate:research")
    canceled = run_cli(home, agents_file, "runs", "cancel", run_id, "--temporal", workers.address, "-o", "json")
    run = document(canceled)
    assert run["status"] == "canceled"
    assert {s["name"]: s["status"] for s in run["steps"]} == {"research": "canceled", "tell": "skipped"}
    [after] = asyncio.run(tasks_for(researcher, f"{run_id}:delegate:research"))
    assert after.id == task.id and after.status.state == TaskState.CANCELED
    listed = run_cli(
        home, agents_file, "runs", "list", "--status", "canceled", "--temporal", workers.address, "-o", "json"
    )
    assert run_id in [r["runId"] for r in json.loads(listed.stdout)["runs"]]


def test_cancel_while_a_step_waits_cancels_its_task_too(home, agents_file, fleet, workers):
    started = document(
        run_cli(
            home, agents_file, *on_temporal(workers, "run", str(EXAMPLES / "interview.yaml"), "--follow", "-o", "json")
        )
    )
    run_id = started["runId"]
    [waiting] = asyncio.run(tasks_for(fleet.agent("interviewer").url, f"{run_id}:delegate:interview"))
    assert waiting.status.state == TaskState.INPUT_REQUIRED
    run = document(run_cli(home, agents_file, "runs", "cancel", run_id, "--temporal", workers.address, "-o", "json"))
    assert run["status"] == "canceled"
    assert {s["name"]: s["status"] for s in run["steps"]} == {"interview": "canceled", "welcome": "skipped"}
    [after] = asyncio.run(tasks_for(fleet.agent("interviewer").url, f"{run_id}:delegate:interview"))
    assert after.id == waiting.id and after.status.state == TaskState.CANCELED


def test_the_server_keeps_no_payload_in_the_clear(home, agents_file, workers, temporal):
    from temporalio.client import Client

    marker = "tides-of-a-private-topic"
    run = document(
        run_cli(
            home,
            agents_file,
            *on_temporal(
                workers, "run", str(EXAMPLES / "briefing.yaml"), "-i", f"topic={marker}", "--follow", "-o", "json"
            ),
        )
    )
    assert marker in run["outputs"]["brief"]

    async def raw_history() -> bytes:
        client = await Client.connect(temporal.address)  # no codec: what the server stores
        history = await client.get_workflow_handle(run["runId"]).fetch_history()
        return history.to_json().encode()

    stored = asyncio.run(raw_history())
    assert marker.encode() not in stored and b"solar" not in stored
    assert b"SwitchboardState" in stored  # search attributes stay readable, for `runs list`


def test_the_cli_without_a_server_says_so(home, agents_file):
    done = subprocess.run(
        switchboard_argv(agents_file, "runs", "list", "--temporal", "127.0.0.1:9"),
        capture_output=True,
        text=True,
        env=cli_env(home),
        timeout=120,
    )
    assert done.returncode == 3 and "cannot reach the Temporal server" in done.stderr


HOSTILE_SHELL = """
version: 1
name: hostile
inputs: {text: {required: true}}
steps:
  - name: echo-it
    agent: echo
    task: "{{inputs.text}}"
  - name: word
    dependsOn: [echo-it]
    run: |
      # it's the summary
      printf '%s' {{steps.echo-it.output}}
  - name: nested
    dependsOn: [echo-it]
    run: echo "$(printf %s {{inputs.text}})" '{{inputs.text}}'
  - name: arithmetic
    run: echo $(( {{inputs.text}} + 1 ))
    onError: continue
outputs:
  word: "{{steps.word.output}}"
"""


def test_on_temporal_no_value_runs_either(home, agents_file, workers):
    """The workflow renders the script (references only) and the shell activity gets the values beside it."""
    path = home / "hostile.yaml"
    path.write_text(HOSTILE_SHELL)
    marker = home / "PWNED"
    text = f"x; touch {marker} $(touch {marker}) `touch {marker}` x[$(touch {marker})] '\""
    argv = ["run", str(path), "-i", f"text={text}", "--follow", "-o", "json"]
    local = document(run_cli(home, agents_file, *argv[:-3], "-o", "json"))
    remote = document(run_cli(home, agents_file, *on_temporal(workers, *argv)))
    assert not marker.exists()
    steps = {s["name"]: s for s in remote["steps"]}
    assert steps["nested"]["output"] == f"{text} {text}"
    assert (
        steps["arithmetic"]["errorCode"] == "SHELL_FAILED" and "is used in arithmetic" in steps["arithmetic"]["error"]
    )
    assert shape(remote) == shape(local)
