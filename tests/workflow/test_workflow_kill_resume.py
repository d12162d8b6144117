"""kill -9 trials: a real `switchboard run` is SIGKILLed at several points, then `--resume`d until the run
completes. The invariant is counted where it matters, on the agents themselves (their task lists, by the
correlation id each delegate carries): no delegate is ever invoked twice, so no completed one is either."""

from __future__ import annotations

import contextlib
import os
import pty
import select
import signal
import subprocess
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

import pytest
from workflow_support import (
    REPO,
    cli_env,
    count_tasks,
    fields,
    journal_files,
    records_of,
    run_cli,
    switchboard_argv,
    wait_for_record,
)

SLOW = "the history of radio"  # ~4 s at this fleet's settings, progress every second
EXAMPLES = REPO / "examples" / "workflows"


@dataclass
class Trial:
    name: str
    workflow: str
    kill_when: list  # one predicate per kill: the record after which the process is killed
    delegates: dict[str, str]  # step -> agent, counted on the agent afterwards
    args: tuple[str, ...] = ()
    answers: tuple[str, ...] = ()
    terminal: bool = False


def step_record(kind: str, step: str, *, with_task: bool = False):
    def match(record: dict) -> bool:
        if record["type"] != kind or record.get("step") != step:
            return False
        return not with_task or bool(record.get("event", {}).get("task") or record.get("event", {}).get("statusUpdate"))

    match.__name__ = f"{kind}({step})"
    return match


CHAIN = f"""
name: chain
agents: [researcher, writer, echo]
steps:
  - {{name: research, agent: researcher, task: "{SLOW}"}}
  - {{name: draft, agent: writer, dependsOn: [research], task: "radio waves pace 20"}}
  - {{name: wrap, agent: echo, dependsOn: [draft], task: "done: {{{{steps.research.output}}}}"}}
"""

FAN = f"""
name: fan
agents: [researcher, writer, interviewer, echo]
steps:
  - {{name: research, agent: researcher, task: "{SLOW}"}}
  - {{name: draft, agent: writer, task: "radio pace 30"}}
  - {{name: combine, agent: echo, dependsOn: [research, draft], task: "{{{{steps.research.output}}}}"}}
"""

TWICE = f"""
name: twice
agents: [researcher]
steps:
  - {{name: first, agent: researcher, task: "{SLOW}"}}
  - {{name: second, agent: researcher, dependsOn: [first], task: "more on {{{{steps.first.task_id}}}}"}}
"""

TRIALS = [
    Trial(
        "a slow task in flight (its id journaled)",
        CHAIN,
        [step_record("StepEvent", "research", with_task=True)],
        {"research": "researcher", "draft": "writer"},
    ),
    Trial(
        "right after StepRequested, before the agent answered",
        CHAIN,
        [step_record("StepRequested", "research")],
        {"research": "researcher", "draft": "writer"},
    ),
    Trial(
        "between steps",
        CHAIN,
        [step_record("StepCompleted", "research")],
        {"research": "researcher", "draft": "writer"},
    ),
    Trial(
        "two delegates in flight at once",
        FAN,
        [step_record("StepEvent", "draft", with_task=True)],
        {"research": "researcher", "draft": "writer"},
    ),
    Trial(
        "killed twice, once in each of two slow steps",
        TWICE,
        [step_record("StepEvent", "first", with_task=True), step_record("StepEvent", "second", with_task=True)],
        {"first": "researcher", "second": "researcher"},
    ),
    Trial(
        "during an input wait at a terminal",
        str(EXAMPLES / "interview.yaml"),
        [step_record("AwaitingInput", "interview")],
        {"interview": "interviewer"},
        answers=("interview=Ada", "interview=2"),
        terminal=True,
    ),
]


def start(home: Path, agents_file: Path, argv: list[str], *, terminal: bool) -> tuple[subprocess.Popen, int | None]:
    if not terminal:
        process = subprocess.Popen(
            switchboard_argv(agents_file, *argv),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=cli_env(home),
            cwd=REPO,
        )
        return process, None
    main, child = pty.openpty()
    process = subprocess.Popen(
        switchboard_argv(agents_file, *argv),
        stdin=child,
        stdout=subprocess.DEVNULL,
        stderr=child,
        env=cli_env(home),
        cwd=REPO,
    )
    os.close(child)
    return process, main


def read_pty_until(fd: int, wanted: bytes, seconds: float = 30) -> bytes:
    seen = b""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and wanted not in seen:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    return seen


def kill(process: subprocess.Popen) -> None:
    process.send_signal(signal.SIGKILL)
    assert process.wait(timeout=10) == -signal.SIGKILL


def source_of(trial: Trial, tmp_path: Path) -> str:
    if trial.workflow.endswith(".yaml"):
        return trial.workflow
    path = tmp_path / "trial.yaml"
    path.write_text(textwrap.dedent(trial.workflow).lstrip("\n"))
    return str(path)


@pytest.mark.parametrize("trial", TRIALS, ids=[t.name for t in TRIALS])
def test_kill_9_then_resume_completes_without_invoking_a_delegate_twice(trial, home, agents_file, fleet, tmp_path):
    file = source_of(trial, tmp_path)
    process, terminal = start(home, agents_file, ["run", file], terminal=trial.terminal)
    run_id = None
    try:
        for number, predicate in enumerate(trial.kill_when):
            journal = wait_for_record(home, predicate)
            if terminal is not None:
                assert b"answer> " in read_pty_until(terminal, b"answer> ")  # really waiting on the terminal
            kill(process)
            run_id = journal.stem
            assert records_of(journal)[-1]["type"] not in ("RunCompleted", "RunFailed", "RunAwaitingInput")
            if number + 1 < len(trial.kill_when):  # resume, and kill that process too at the next point
                process, terminal = start(home, agents_file, ["run", "--resume", run_id], terminal=False)
    finally:
        if process.poll() is None:
            process.kill()
        if terminal is not None:
            os.close(terminal)
    assert run_id is not None
    shown = run_cli(home, agents_file, "runs", "show", run_id)
    assert fields(shown.stdout)["State"] == "interrupted"  # no process holds the journal any more

    answers = [arg for answer in trial.answers for arg in ("--answer", answer)]
    resumed = run_cli(home, agents_file, "run", "--resume", run_id, *answers)
    assert resumed.returncode == 0, resumed.stderr
    assert fields(resumed.stdout)["State"] == "completed", resumed.stdout + resumed.stderr

    records = records_of(journal_files(home)[0])
    assert [r["type"] for r in records].count("RunResumed") == len(trial.kill_when)
    tally = {}
    for step, agent in trial.delegates.items():
        correlation_id = f"{run_id}:delegate:{step}"
        tally[step] = count_tasks(fleet.agent(agent).url, correlation_id)
        completed = [r for r in records if r["type"] == "StepCompleted" and r["step"] == step]
        assert len(completed) == 1, f"{step} completed {len(completed)} times in the journal"
    print(f"\n[kill -9 trial] {trial.name}: invocations per delegate {tally}")
    assert tally == dict.fromkeys(trial.delegates, 1), f"a delegate was invoked more (or less) than once: {tally}"
    for step in trial.delegates:  # the task that completed is the one the agent ran
        task_ids = {r.get("taskId") for r in records if r.get("step") == step and r.get("taskId")}
        assert len(task_ids) == 1, (step, task_ids)


def test_resuming_a_run_that_another_process_still_runs_is_refused(home, agents_file, tmp_path):
    # One step that lasts till the test ends it: the refusal is seen however slow the machine is.
    file = tmp_path / "held.yaml"
    file.write_text("name: held\nsteps:\n  - {name: hold, run: sleep 600, timeout: 15m}\n")
    process, _ = start(home, agents_file, ["run", str(file)], terminal=False)
    try:
        journal = wait_for_record(home, step_record("StepRequested", "hold"))
        second = run_cli(home, agents_file, "run", "--resume", journal.stem)
        assert second.returncode == 2 and "is running in another process" in second.stderr
        assert fields(run_cli(home, agents_file, "runs", "show", journal.stem).stdout)["State"] == "running"
    finally:
        holding = children_of(process.pid)  # the shell step's session, which outlives a killed run
        process.kill()
        process.wait(timeout=10)
        for pid in holding:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        with contextlib.suppress(OSError, ValueError, IndexError):
            if entry.name.isdigit() and int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def as_in_a_terminal() -> None:
    """Ctrl+C as a foreground process in a terminal gets it: whatever the test process inherited or set up
    (an ignored or blocked SIGINT is passed on to children), the run starts with SIGINT's default."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def test_ctrl_c_stops_watching_and_says_how_to_resume(home, agents_file, fleet, tmp_path):
    file = source_of(TRIALS[0], tmp_path)
    process = subprocess.Popen(
        switchboard_argv(agents_file, "run", file),
        preexec_fn=as_in_a_terminal,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=cli_env(home),
        cwd=REPO,
    )
    journal = wait_for_record(home, step_record("StepEvent", "research", with_task=True))
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    parent = (signal.getsignal(signal.SIGINT), signal.pthread_sigmask(signal.SIG_BLOCK, []))
    assert process.returncode == 130, (parent, stderr[-2000:])
    assert f"run --resume {journal.stem}" in stderr and "the tasks go on at their agents" in stderr
    assert records_of(journal)[-1]["type"] == "RunInterrupted"
    resumed = run_cli(home, agents_file, "run", "--resume", journal.stem)
    assert fields(resumed.stdout)["State"] == "completed"
    assert count_tasks(fleet.agent("researcher").url, f"{journal.stem}:delegate:research") == 1
