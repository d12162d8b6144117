"""`task get`, `task subscribe`, `task watch` and `task cancel` keep the inbox as `send` does: a task they find
waiting for the person is remembered (ids, agent, question; never a credential) with the same stderr note, one they
find no longer waiting is let go of, `--no-inbox` leaves the inbox alone, and stdout is what it was (-o json: one
pure JSON document)."""

from __future__ import annotations

import json

from workflow_support import run_cli

from switchboard.inbox.store import forget, load_remembered


def ok(home, agents_file, *args: str):
    done = run_cli(home, agents_file, *args)
    assert done.returncode == 0, done.stderr
    return done


def inbox(home, agents_file) -> list[dict]:
    return json.loads(ok(home, agents_file, "inbox", "-o", "json").stdout)["items"]


def kept() -> list[tuple[str, str, str]]:
    return [(e.task_id, e.state, e.question) for e in load_remembered()]


async def test_task_get_and_subscribe_keep_a_task_found_waiting_and_let_go_of_it_once_it_ends(home, agents_file):
    sent = json.loads(ok(home, agents_file, "send", "interviewer", "interview me", "--no-inbox", "-o", "json").stdout)
    task_id, context_id = sent["task"]["id"], sent["task"]["contextId"]
    assert load_remembered() == []

    quiet = ok(home, agents_file, "task", "get", "interviewer", task_id, "-o", "json", "--no-inbox")
    assert load_remembered() == []
    found = ok(home, agents_file, "task", "get", "interviewer", task_id, "-o", "json")
    assert found.stdout == quiet.stdout and json.loads(found.stdout)["id"] == task_id  # one document, as before
    assert "inbox" not in found.stderr  # -o json: the note is text output's
    assert kept() == [(task_id, "input-required", "What is your name?")]
    since = load_remembered()[0].since
    ok(home, agents_file, "task", "get", "interviewer", task_id)  # seen again at the same question
    assert load_remembered()[0].since == since  # it has waited since it was first seen, not since now

    # `task subscribe` (text): kept, and said on stderr as `send` says it.
    forget(load_remembered()[0].agent_url, task_id)
    followed = ok(home, agents_file, "task", "subscribe", "interviewer", task_id)
    [item] = inbox(home, agents_file)
    assert item["taskId"] == task_id and item["question"] == "What is your name?"
    assert f"note: kept in the inbox as {item['id']}: `switchboard answer {item['id']} TEXT`" in followed.stderr
    assert "inbox" not in followed.stdout and followed.stdout.startswith(f"Task ID: {task_id}\n")

    # Answered elsewhere (a script with --no-inbox): the next look keeps the new question, the one after it
    # finds the task completed and lets go of it.
    answer = ["send", "interviewer", "--task-id", task_id, "--context-id", context_id, "--no-inbox", "-o", "json"]
    ok(home, agents_file, *answer, "Ada")
    ok(home, agents_file, "task", "get", "interviewer", task_id, "-o", "json")
    [(_, _, question)] = kept()
    assert question.startswith("Nice to meet you, Ada") and load_remembered()[0].since != since
    ok(home, agents_file, *answer, "1")
    done = ok(home, agents_file, "task", "get", "interviewer", task_id)
    assert "State: completed" in done.stdout and "inbox" not in done.stderr
    assert load_remembered() == [] and inbox(home, agents_file) == []


async def test_task_watch_keeps_an_auth_required_task_and_task_cancel_lets_go_of_it(home, agents_file):
    sent = ok(home, agents_file, "send", "gatekeeper", "open the vault", "--no-inbox", "-o", "json")
    task_id = json.loads(sent.stdout)["task"]["id"]
    quiet = ok(home, agents_file, "task", "watch", "gatekeeper", task_id, "-o", "json", "--no-inbox")
    assert load_remembered() == [] and json.loads(quiet.stdout)["id"] == task_id

    watched = ok(home, agents_file, "task", "watch", "gatekeeper", task_id)
    [item] = inbox(home, agents_file)
    assert (item["taskId"], item["state"], item["who"]) == (task_id, "auth-required", "gatekeeper")
    assert f"note: kept in the inbox as {item['id']}" in watched.stderr and "inbox" not in watched.stdout
    stored = (home / "data" / "inbox.json").read_text()
    assert "sesame" in stored and "demo-key" not in stored  # the agent's question; never the API key sent

    canceled = ok(home, agents_file, "task", "cancel", "gatekeeper", task_id, "-o", "json")
    assert json.loads(canceled.stdout)["status"]["state"] == "TASK_STATE_CANCELED"
    assert load_remembered() == [] and "inbox" not in canceled.stderr
