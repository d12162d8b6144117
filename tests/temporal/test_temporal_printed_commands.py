"""Every command the Temporal side of the CLI prints for a person to run next runs as printed (shlex.split, in
the directory it was printed in): the Resume line of `run --temporal` and `runs show --temporal` (text and the
JSON `resume`), the hint of an answer that came too late, and what `temporal dev` says to start. A
placeholder (`<your answer>`, FILE) is the only thing filled in."""

from __future__ import annotations

import json
import shlex
import subprocess
import time

from workflow_support import REPO, cli_env, fields, run_cli

INTERVIEW = REPO / "examples" / "workflows" / "interview.yaml"


def as_printed(home, command: str, answer: str | None = None) -> subprocess.CompletedProcess:
    """Run a printed command word for word, its `<your answer>` placeholder (if any) replaced by `answer`."""
    argv = shlex.split(command)
    if answer is not None:
        assert sum("<your answer>" in word for word in argv) == 1, command
        argv = [word.replace("<your answer>", answer) for word in argv]
    return subprocess.run(
        argv, capture_output=True, text=True, env=cli_env(home), stdin=subprocess.DEVNULL, timeout=120, cwd=REPO
    )


def show(home, agents_file, workers, run_id: str) -> dict:
    done = run_cli(home, agents_file, "runs", "show", run_id, "--temporal", workers.address, "-o", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["run"]


def start_interview(home, agents_file, workers, *more: str) -> subprocess.CompletedProcess:
    """`run` of the interview on the Temporal workers, followed until its first question."""
    return run_cli(
        home,
        agents_file,
        "run",
        str(INTERVIEW),
        "--temporal",
        workers.address,
        "--task-queue",
        workers.queue,
        "--follow",
        *more,
    )


def hint_of(stderr: str) -> str:
    [hint] = [line.removeprefix("Hint: ") for line in stderr.splitlines() if line.startswith("Hint: ")]
    return hint


def test_every_resume_line_a_run_on_temporal_prints_runs_as_printed(home, agents_file, workers):
    started = start_interview(home, agents_file, workers)
    assert started.returncode == 0, started.stderr
    printed = fields(started.stdout)
    run_id = printed["Run ID"]
    assert printed["State"] == "awaiting-input" and printed["Resume"].split(" run ")[1].startswith("--resume")
    # The text Resume line answers the first question.
    first = as_printed(home, printed["Resume"], "Ada")
    assert first.returncode == 0, first.stderr
    assert fields(first.stdout)["Run ID"] == run_id and "interview: answered" in first.stderr
    # `runs show` (JSON, then text) prints it again once the second question is asked.
    first_question = printed["Question ID"].removeprefix("interview: ")
    deadline = time.monotonic() + 60
    while True:
        run = show(home, agents_file, workers, run_id)
        step = next(s for s in run["steps"] if s["name"] == "interview")
        if step["status"] == "waiting" and step["question"]["id"] != first_question:
            break
        assert time.monotonic() < deadline, f"the second question was not asked: {run}"
    text = run_cli(home, agents_file, "runs", "show", run_id, "--temporal", workers.address)
    assert fields(text.stdout)["Resume"] == run["resume"]
    second = as_printed(home, run["resume"], "ship it")
    assert second.returncode == 0, second.stderr
    done = run_cli(home, agents_file, "run", "--resume", run_id, "--temporal", workers.address, "--follow")
    assert fields(done.stdout)["State"] == "completed", done.stderr
    assert "Resume" not in fields(done.stdout)
    # Too late: the hint is a command that shows the run.
    late = run_cli(
        home, agents_file, "run", "--resume", run_id, "--answer", "interview=late", "--temporal", workers.address
    )
    assert late.returncode == 1 and "already answered" in late.stderr
    shown = as_printed(home, hint_of(late.stderr))
    assert shown.returncode == 0, shown.stderr
    assert fields(shown.stdout)["Run ID"] == run_id and fields(shown.stdout)["State"] == "completed"


def test_a_late_answer_to_a_named_question_hints_a_command_that_runs(home, agents_file, workers):
    started = start_interview(home, agents_file, workers, "-o", "json")
    run = json.loads(started.stdout)["run"]
    [step] = [s for s in run["steps"] if s["status"] == "waiting"]
    answer = ["run", "--resume", run["runId"], "--temporal", workers.address, "--question-id", step["question"]["id"]]
    assert run_cli(home, agents_file, *answer, "--answer", "interview=Ada").returncode == 0
    again = run_cli(home, agents_file, *answer, "--answer", "interview=Bob")
    assert again.returncode == 1 and "already answered" in again.stderr
    shown = as_printed(home, hint_of(again.stderr))
    assert shown.returncode == 0, shown.stderr
    assert fields(shown.stdout)["Run ID"] == run["runId"]
    canceled = run_cli(home, agents_file, "runs", "cancel", run["runId"], "--temporal", workers.address)
    assert canceled.returncode == 0, canceled.stderr


def test_temporal_before_the_subcommand_is_handed_on_or_refused(home, agents_file, workers):
    """`--temporal` before the subcommand is the TUI's option; with a command that takes it, it is that
    command's (as `--agents` is), and with one that does not, it is an error, never silently dropped."""
    started = start_interview(home, agents_file, workers, "-o", "json")
    run_id = json.loads(started.stdout)["run"]["runId"]
    before = run_cli(home, agents_file, "--temporal", workers.address, "runs", "show", run_id, "-o", "json")
    assert before.returncode == 0, before.stderr
    assert json.loads(before.stdout)["run"]["runId"] == run_id
    elsewhere = run_cli(home, agents_file, "--temporal", workers.address, "card", "get", "echo")
    assert elsewhere.returncode == 2 and "--temporal does not go with `card`" in elsewhere.stderr
    assert run_cli(home, agents_file, "runs", "cancel", run_id, "--temporal", workers.address).returncode == 0
