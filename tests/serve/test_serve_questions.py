"""Human in the loop through a served workflow: a step's question makes the task input-required (a line saying
which step and agent ask, then the parts as the delegate sent them; metadata naming the step, its agent and its
correlation id), the caller's next message answers it;
several questions go one at a time, oldest first, and an answer picks its step by metadata; auth-required
passes through the same way and its answer is never journaled."""

from __future__ import annotations

import json
import shlex

from serve_support import EXAMPLES, WORKFLOWS, cli, fields, records, wait_for

from switchboard.a2a.client import connect, new_message
from switchboard.a2a.follow import FollowPolicy, Notice, follow_turn
from switchboard.a2a.model import DataPart, StatusUpdate, TaskState
from switchboard.a2a.transports.base import Transport
from switchboard.a2a.turn import TaskView
from switchboard.a2ui.messages import is_a2ui_part

FAST = FollowPolicy(poll_interval=0.1, backoff=0.05, max_backoff=0.2)


async def turn(client: Transport, message, view: TaskView | None = None) -> tuple[TaskView, list]:
    view, events = view or TaskView(), []
    async for event in follow_turn(client, message, policy=FAST):
        events.append(event)
        if not isinstance(event, Notice):
            view.apply(event)
    return view, events


def reply(view: TaskView, text: str, **metadata: str):
    return new_message(text, task_id=view.task_id, context_id=view.context_id, metadata=metadata or None)


async def test_an_interactive_step_is_answered_through_the_served_task(serve):
    served = serve(str(EXAMPLES / "interview.yaml"))
    async with await connect(served.url("interview")) as client:
        view, _ = await turn(client, new_message("hello"))
        assert view.state is TaskState.INPUT_REQUIRED
        asked = view.status.message
        assert asked.text == "step interview (interviewer) asks:\nWhat is your name?"
        assert asked.parts[1].text == "What is your name?"  # the delegate's part, as sent
        assert asked.metadata["step"] == "interview" and asked.metadata["agent"] == "interviewer"
        assert view.status.message.metadata == asked.metadata
        assert asked.metadata["correlationId"] == f"{view.task_id}:delegate:interview"
        view, _ = await turn(client, reply(view, "Ada"), view)
        assert view.state is TaskState.INPUT_REQUIRED
        # The second question as the interviewer sent it: its text and its data part of choices. No A2UI form: the
        # interviewer's card declares A2UI, but a served run does not announce it (its caller never said it draws).
        second = view.status.message
        assert not any(is_a2ui_part(p) for p in second.parts)
        assert second.text.startswith("step interview (interviewer) asks:\nNice to meet you, Ada.")
        [choices] = [p for p in second.parts if isinstance(p, DataPart)]
        assert choices.data == {"choices": ["learn how A2A works", "test my own agent", "just looking around"]}
        view, events = await turn(client, reply(view, "1"), view)
    assert view.state is TaskState.COMPLETED
    outputs = view.artifacts["outputs"].parts[1].data
    assert outputs == {"summary": "Interview summary: Ada came by to learn how A2A works."}
    # The answer's turn opens working again and says where the answer went.
    said = [e.status.message.metadata for e in events if isinstance(e, StatusUpdate) and e.status.message]
    assert {"step": "interview", "event": "answered"} in said
    kinds = [r["type"] for r in records(served.journal_dir, view.task_id)]
    assert kinds.count("AwaitingInput") == 2 and kinds.count("InputSubmitted") == 2


async def test_the_command_line_answers_a_served_question_with_the_resume_line(serve, home):
    served = serve(str(EXAMPLES / "interview.yaml"))
    url = served.url("interview")
    first = cli(home, "send", url, "hello")
    assert first.returncode == 0, first.stderr
    task = fields(first.stdout)
    assert task["State"] == "input-required"
    assert "Status Message:\nstep interview (interviewer) asks:\nWhat is your name?\n" in first.stdout
    ids = ["--task-id", task["Task ID"], "--context-id", task["Context ID"]]
    second = cli(home, "send", url, *ids, "Grace")
    assert fields(second.stdout)["State"] == "input-required", second.stdout
    last = cli(home, "send", url, *ids, "2")
    assert fields(last.stdout)["State"] == "completed", last.stdout
    assert "Grace came by to test my own agent" in last.stdout


async def test_two_questions_at_once_go_one_at_a_time_oldest_first_and_an_answer_picks_its_step(serve):
    served = serve(str(WORKFLOWS / "two-questions.yaml"))
    async with await connect(served.url("two-questions")) as client:
        view, _ = await turn(client, new_message("go"))
        assert view.state is TaskState.INPUT_REQUIRED
        shown = view.status.message.metadata["step"]
        other = {"first": "second", "second": "first"}[shown]
        # Both ask before the caller answers: the journal holds both questions, in the order asked.
        wait_for(lambda: [r["type"] for r in records(served.journal_dir, view.task_id)].count("AwaitingInput") == 2)
        asked = [r["step"] for r in records(served.journal_dir, view.task_id) if r["type"] == "AwaitingInput"]
        assert asked[0] == shown  # the oldest is the one shown
        # An answer naming the other step goes to it; the question shown stands.
        view, _ = await turn(client, reply(view, "Bea", step=other), view)
        assert view.state is TaskState.INPUT_REQUIRED
        assert view.status.message.metadata["step"] == shown
        assert view.status.message.text == f"step {shown} (interviewer) asks:\nWhat is your name?"
        # An answer naming no step goes to the question shown; then the next question, one at a time.
        view, _ = await turn(client, reply(view, "Ann"), view)
        names = {shown: "Ann", other: "Bea"}
        goals = {shown: "1", other: "2"}
        seen = []
        while view.state is TaskState.INPUT_REQUIRED:
            step = view.status.message.metadata["step"]
            seen.append(step)
            assert view.status.message.text.startswith(
                f"step {step} (interviewer) asks:\nNice to meet you, {names[step]}."
            )
            view, _ = await turn(client, reply(view, goals[step]), view)
    assert sorted(seen) == ["first", "second"]
    assert view.state is TaskState.COMPLETED
    outputs = view.artifacts["outputs"].parts[1].data
    assert outputs[shown] == "Interview summary: Ann came by to learn how A2A works."
    assert outputs[other] == "Interview summary: Bea came by to test my own agent."


async def test_an_answer_naming_a_step_that_does_not_wait_shows_the_question_again_and_says_why(serve):
    served = serve(str(EXAMPLES / "interview.yaml"))
    async with await connect(served.url("interview")) as client:
        view, _ = await turn(client, new_message("hello"))
        view, _ = await turn(client, reply(view, "Ada", step="welcome"), view)
        assert view.state is TaskState.INPUT_REQUIRED
        message = view.status.message
        assert message.parts[0].text == "step welcome is not waiting for an answer; this answers interview\n"
        assert message.text.endswith("answers interview\nstep interview (interviewer) asks:\nWhat is your name?")
        view, _ = await turn(client, reply(view, "Ada"), view)
        assert view.status.message.text.startswith("step interview (interviewer) asks:\nNice to meet you, Ada.")


async def test_auth_required_passes_through_and_its_answer_is_never_journaled(serve):
    served = serve(str(WORKFLOWS / "vault.yaml"))
    async with await connect(served.url("vault")) as client:
        view, _ = await turn(client, new_message("open"))
        assert view.state is TaskState.AUTH_REQUIRED
        assert view.status.message.metadata["step"] == "open"
        assert view.status.message.text.startswith("step open (gatekeeper) asks:\n")
        assert "passcode" in view.status.message.text
        view, _ = await turn(client, reply(view, "sesame"), view)
    assert view.state is TaskState.COMPLETED, view.status
    journal = records(served.journal_dir, view.task_id)
    [submitted] = [r for r in journal if r["type"] == "InputSubmitted"]
    assert submitted.get("secret") is True and "answer" not in submitted
    # The question quotes the passcode (a demo), so look for the answer as the caller sent it: nowhere.
    assert not [r for r in journal if r["type"] in ("StepRequested", "InputSubmitted") and "sesame" in str(r)]
    assert "sesame" not in "".join(served.stderr)


def _try_send(served) -> list[str]:
    """The `send` line the start-up prints under "Try", as the arguments after the command's own name."""
    [line] = [line for line in served.text.splitlines() if " send " in line]
    words = shlex.split(line)
    return words[words.index("send") :]


async def test_the_try_line_of_a_workflow_without_inputs_sends_no_data_and_its_question_says_who_asks(serve, home):
    served = serve(str(EXAMPLES / "interview.yaml"))
    argv = _try_send(served)
    assert "--data" not in argv and "inputs" not in " ".join(argv)
    asked = cli(home, *argv)  # as printed: it starts a run, whose question says which step and agent ask
    assert asked.returncode == 0, asked.stderr
    assert "step interview (interviewer) asks:\nWhat is your name?" in asked.stdout
    assert "State: input-required" in asked.stdout


async def test_the_try_line_of_a_workflow_with_inputs_names_them_and_runs_as_printed(serve, home):
    served = serve(str(WORKFLOWS / "two-inputs.yaml"))
    argv = _try_send(served)
    data = json.loads(argv[argv.index("--data") + 1])
    assert data == {"inputs": {"greeting": "<greeting>", "name": "<name>"}}
    done = cli(home, *argv)
    assert done.returncode == 0, done.stderr
    assert "State: completed" in done.stdout and "<greeting>, <name>" in done.stdout


async def test_the_try_line_of_a_workflow_whose_inputs_all_have_defaults_runs_with_them_as_printed(serve, home):
    served = serve(str(WORKFLOWS / "optional-input.yaml"))
    argv = _try_send(served)
    assert "--data" not in argv, argv  # nothing is required: no placeholder to fill in
    done = cli(home, *argv)
    assert done.returncode == 0, done.stderr
    assert "State: completed" in done.stdout and "hello, world" in done.stdout
