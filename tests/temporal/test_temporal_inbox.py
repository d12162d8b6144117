"""The inbox with every kind waiting at once: a conversation with the demo interviewer (an open tab), a task
followed in the background (its stream let go of, the tab polling it), a local run stopped at its question (from
the run index), a run on the Temporal dev server; each answered from the inbox, and from another process
(`switchboard answer` in a terminal of its own), the inbox following within its polls."""

from __future__ import annotations

import asyncio
import json
import subprocess

from tui_support import open_agent, talk, until
from workflow_support import REPO, TOKEN, cli_env, run_cli, switchboard_argv

from switchboard.a2a.model import TextPart
from switchboard.agents import load_agents
from switchboard.inbox.sources import TemporalQuestions, temporal_items
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.widgets.conversation_view import ConversationView
from switchboard.tui.widgets.inbox_pane import InboxPane
from switchboard.tui.widgets.prompt_pane import PromptPane
from switchboard.tui.widgets.run_view import RunView
from switchboard.workflow.loader import load_workflow
from switchboard.workflow.temporal import client as runs

INTERVIEW = REPO / "examples" / "workflows" / "interview.yaml"


def run_on_temporal(home, agents_file, workers) -> str:
    done = run_cli(
        home,
        agents_file,
        *["run", str(INTERVIEW), "--follow", "-o", "json", "--temporal", workers.address],
        *["--task-queue", workers.queue],
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["run"]["runId"]


def answer_elsewhere(home, agents_file, *args: str) -> subprocess.CompletedProcess:
    """`switchboard answer ...` in a process of its own, as another terminal would run it."""
    return subprocess.run(
        switchboard_argv(agents_file, "answer", *args),
        capture_output=True,
        text=True,
        env=cli_env(home),
        stdin=subprocess.DEVNULL,
        timeout=120,
        cwd=REPO,
    )


async def open_tab(pilot, name: str) -> ConversationView:
    """A conversation with `name` opened from the agents table: its own new tab (not the last one open before)."""
    before = list(pilot.app.screen.query(ConversationView))
    await pilot.press("f1")
    await open_agent(pilot, name)
    await until(lambda: len(pilot.app.screen.query(ConversationView)) == len(before) + 1)
    view = next(v for v in pilot.app.screen.query(ConversationView) if v not in before)
    await until(lambda: view.conversation is not None)
    return view


def by_kind(app, kind: str):
    return next((item for item in app.screen.inbox.items if item.kind == kind), None)


async def answer_in_inbox(pilot, item, text: str) -> None:
    """Enter on the item's row (chosen by typing its id into the filter), then the answer in its prompt pane."""
    pane = pilot.app.screen.query_one(InboxPane)
    await pilot.press("f5")
    filter_box = pane.query_one("#inbox-filter")
    filter_box.value = item.id
    await until(lambda: [i.id for i in pane.shown] == [item.id])
    filter_box.focus()
    await pilot.press("enter")
    await until(lambda: bool(pane.query(PromptPane)) and pane.query_one("PromptPane Input").has_focus)
    await pilot.press(*text, "enter")
    filter_box.value = ""


async def test_every_kind_waits_in_the_inbox_and_is_answered_there_or_elsewhere(
    home, agents_file, workers, monkeypatch
):
    monkeypatch.setenv("SWITCHBOARD_DEMO_TOKEN", TOKEN)  # the tasks agent's bearer token, as the demo is told
    temporal_run = run_on_temporal(home, agents_file, workers)
    local = run_cli(home, agents_file, "run", str(INTERVIEW), "-o", "json")
    assert json.loads(local.stdout)["run"]["status"] == "awaiting_input"
    app = SwitchboardApp(agents_file, steady=True, temporal=workers.address)
    async with app.run_test(size=(140, 44)) as pilot:
        conversation = await talk(pilot, "interviewer", "interview me")
        # A task followed in the background: its stream let go of (ctrl+b) while it runs, the tab polls it (the
        # tasks agent cannot push) until it asks for the booking's time.
        watched = await open_tab(pilot, "tasks")
        watched.send([TextPart(text="book a table")])
        await until(lambda: watched.conversation.last is not None and watched.conversation.last.view.task_id)
        await watched.action_let_stream_go()
        await pilot.press("f5")
        await until(lambda: len(app.screen.inbox.items) == 4, timeout=60)
        assert any("polling the task" in n.text for n in watched.conversation.last.notices)
        assert {i.kind for i in app.screen.inbox.items} == {"task", "run", "temporal"}
        booking = next(i for i in app.screen.inbox.items if i.who == "tasks")
        await answer_in_inbox(pilot, booking, "8pm")
        await until(lambda: completed(watched))
        await until(lambda: len(app.screen.inbox.items) == 3)
        assert by_kind(app, "temporal").run_id == temporal_run
        items = app.screen.inbox.items
        assert [i.since for i in items] == sorted(i.since for i in items)  # oldest first
        assert all(i.first_line == "What is your name?" for i in items)
        assert {i.where.split()[0] for i in items} == {"conversation", "local", "Temporal"}

        # The conversation's task, answered in the inbox: the tab's task goes on, and asks its next question.
        await answer_in_inbox(pilot, by_kind(app, "task"), "Ada")
        await until(lambda: "Nice to meet you, Ada" in (getattr(by_kind(app, "task"), "question", "")))
        await until(lambda: conversation.waiting is not None)

        # The local run, answered in the inbox: continued in a tab of its own (not shown), whose next question
        # comes back to the inbox.
        await answer_in_inbox(pilot, by_kind(app, "run"), "Bo")
        await until(lambda: "Nice to meet you, Bo" in (getattr(by_kind(app, "run"), "question", "")), timeout=60)
        assert app.screen.query_one("TabbedContent").active == "inbox-tab"
        assert len(app.screen.query(RunView)) == 1

        # The Temporal run, answered from another terminal: its question leaves here as the run moves on.
        first = by_kind(app, "temporal")
        done = await asyncio.to_thread(
            answer_elsewhere, home, agents_file, first.id, "Cy", "--temporal", workers.address
        )
        assert done.returncode == 0, done.stderr
        await until(lambda: "Nice to meet you, Cy" in (getattr(by_kind(app, "temporal"), "question", "")), timeout=60)

        # The conversation's second question, answered from another terminal: the item leaves, the tab follows.
        task = by_kind(app, "task")
        done = await asyncio.to_thread(answer_elsewhere, home, agents_file, task.id, "1", "-o", "json")
        assert done.returncode == 0, done.stderr
        assert "completed" in done.stdout.lower()
        await until(lambda: by_kind(app, "task") is None)
        await until(lambda: completed(conversation))
        assert not conversation.query(PromptPane)


def completed(view) -> bool:
    """The view's last turn has completed (an answer's turn has no state until its first event comes)."""
    state = view.conversation.last.view.state
    return state is not None and state.value == "completed"


async def test_a_waiting_runs_journal_is_read_once_per_question_not_at_every_poll(
    home, agents_file, workers, monkeypatch
):
    """Five runs waiting: ten polls of the inbox's Temporal source read each run's journal once (a look with nothing
    kept, as each poll did before, reads all five each time: in a minute of the TUI's polls, 300 reads); a run
    asked its next question is read once more, and its answered question is let go of."""
    client = await runs.connect(workers.address, "default")
    workflow = load_workflow(INTERVIEW, load_agents(agents_file))
    ours = [await runs.start(client, workflow, {}, task_queue=workers.queue) for _ in range(5)]
    read: list[str] = []
    records = runs.records

    async def counted(client, run_id: str, since: int = 0):
        if run_id in ours:
            read.append(run_id)
        return await records(client, run_id, since)

    monkeypatch.setattr(runs, "records", counted)
    questions = TemporalQuestions()

    async def poll() -> dict[str, str]:
        return {i.run_id: i.question for i in await questions.items(client, workers.address) if i.run_id in ours}

    asked: dict[str, str] = {}
    async with asyncio.timeout(60):
        while len(asked) < 5:
            asked = await poll()
    for _ in range(10):
        assert await poll() == asked
    assert sorted(read) == sorted(ours)  # once each
    read.clear()
    for _ in range(2):  # a look with nothing kept (`switchboard inbox`) reads them all, each time
        await temporal_items(client, workers.address)
    assert sorted(read) == sorted(ours * 2)
    read.clear()

    await runs.answer(client, ours[0], "interview", "Ada")
    async with asyncio.timeout(60):
        while not (await poll()).get(ours[0], "").startswith("Nice to meet you, Ada"):
            pass
    for _ in range(3):
        await poll()
    assert read == [ours[0]]  # its new question, once
    [(_, step, question_id)] = [key for key in questions._items if key[0] == ours[0]]  # the first one let go of
    assert step == "interview" and question_id.endswith(":2")  # the step's second question
    for run_id in ours:
        await runs.cancel(client, run_id)
