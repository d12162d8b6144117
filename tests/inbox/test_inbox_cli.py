"""`switchboard inbox` and `switchboard answer` on the demo fleet: one list of a stopped local run and a remembered
conversation task (re-read from its agent), each answered by its id; the errors a person can make get a usage
error that says what to do."""

from __future__ import annotations

import json

from workflow_support import REPO, run_cli

from switchboard.inbox.store import Remembered, load_remembered, remember

INTERVIEW = REPO / "examples" / "workflows" / "interview.yaml"


def inbox(home, agents_file) -> list[dict]:
    done = run_cli(home, agents_file, "inbox", "-o", "json")
    assert done.returncode == 0, done.stderr
    doc = json.loads(done.stdout)
    assert doc["count"] == len(doc["items"])
    return doc["items"]


def interviewer_url(agents_file) -> str:
    lines = agents_file.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip() == "- name: interviewer")
    return lines[at + 1].split("url:")[1].strip()


async def test_one_list_of_runs_and_tasks_answered_by_id(home, agents_file):
    run = json.loads(run_cli(home, agents_file, "run", str(INTERVIEW), "-o", "json").stdout)["run"]
    assert run["status"] == "awaiting_input"
    sent = json.loads(run_cli(home, agents_file, "send", "interviewer", "interview me", "-o", "json").stdout)["task"]
    remember(Remembered("interviewer", interviewer_url(agents_file), sent["id"], sent["contextId"], "input-required",
                        "What is your name?", 1.0))  # fmt: skip

    items = inbox(home, agents_file)
    assert [(i["kind"], i["question"]) for i in items] == [
        ("task", "What is your name?"),
        ("run", "What is your name?"),
    ]
    task, step = items
    assert task["taskId"] == sent["id"] and task["answerable"] and task["waitedSeconds"] > 0
    assert step["runId"] == run["runId"] and step["step"] == "interview" and step["where"].startswith("local run")

    table = run_cli(home, agents_file, "inbox").stdout
    assert table.splitlines()[0].split() == ["ID", "WAITED", "WHO", "QUESTION", "WHERE"]
    assert task["id"] in table and step["id"] in table and "\x1b" not in table

    # A run step: the run goes on here with the answer, to its next question.
    done = run_cli(home, agents_file, "answer", step["id"][:4], "Ada", "-o", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["run"]["status"] == "awaiting_input"
    # A task, with a data part: sent as `send --task-id` sends it; the agent asks again, and the inbox keeps that.
    done = run_cli(home, agents_file, "answer", task["id"], "--data", '{"name": "Bo"}', "-o", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["task"]["id"] == sent["id"]
    after = {i["kind"]: i for i in inbox(home, agents_file)}
    assert after["run"]["question"].startswith("Nice to meet you, Ada")
    assert after["task"]["id"] == task["id"] and after["task"]["question"] != ""
    assert [e.task_id for e in load_remembered()] == [sent["id"]]


async def test_what_cannot_be_answered_says_what_to_do(home, agents_file):
    remember(Remembered("interviewer", interviewer_url(agents_file), "no-such-task", "", "input-required", "?", 1.0))
    [gone] = inbox(home, agents_file)
    assert gone["note"] == "the agent no longer knows this task" and not gone["answerable"]
    refused = run_cli(home, agents_file, "answer", gone["id"], "hello")
    assert refused.returncode == 2 and f"switchboard inbox --dismiss {gone['id']}" in refused.stderr
    assert run_cli(home, agents_file, "answer", "zzz", "hello").returncode == 2
    both = run_cli(home, agents_file, "answer", gone["id"], "hi", "--data", "{}")
    assert both.returncode == 2 and "one of them" in both.stderr
    dismissed = run_cli(home, agents_file, "inbox", "--dismiss", gone["id"])
    assert dismissed.returncode == 0 and inbox(home, agents_file) == [] and load_remembered() == []
    empty = run_cli(home, agents_file, "inbox")
    assert empty.stdout == "" and "Nothing waits for you." in empty.stderr


async def test_a_task_send_leaves_waiting_is_kept_in_the_inbox_until_it_is_answered(home, agents_file):
    """The headless `send` keeps the task it leaves at a question as the TUI keeps a tab's (ids, agent, question;
    never an answer), so `switchboard inbox` lists it; answered by `send --task-id` or `switchboard answer`, it
    asks again (kept, its new question) or leaves. `--no-inbox` keeps nothing; -o json's document is as before."""
    quiet = run_cli(home, agents_file, "send", "interviewer", "interview me", "-o", "json", "--no-inbox")
    assert quiet.returncode == 0 and load_remembered() == []
    done = run_cli(home, agents_file, "send", "interviewer", "interview me", "-o", "json")
    assert done.returncode == 0, done.stderr
    doc, before = json.loads(done.stdout), json.loads(quiet.stdout)
    assert list(doc) == list(before) == ["task"] and list(doc["task"]) == list(before["task"])
    assert "inbox" not in done.stdout + done.stderr
    sent = doc["task"]
    [asked] = inbox(home, agents_file)
    assert (asked["taskId"], asked["who"], asked["question"]) == (sent["id"], "interviewer", "What is your name?")

    # Text output says where it went; the gatekeeper's auth-required is kept, and a wrong passcode is not.
    locked = run_cli(home, agents_file, "send", "gatekeeper", "open the vault")
    assert locked.returncode == 0, locked.stderr
    vault = next(i for i in inbox(home, agents_file) if i["who"] == "gatekeeper")
    assert vault["state"] == "auth-required" and f"switchboard answer {vault['id']} TEXT" in locked.stderr
    wrong = run_cli(home, agents_file, "send", "gatekeeper", "--task-id", vault["taskId"], "--context-id",
                    vault["contextId"], "wrong-passcode-4711")  # fmt: skip
    assert wrong.returncode == 0, wrong.stderr
    kept = (home / "data" / "inbox.json").read_text()
    assert "That passcode is wrong" in kept and "wrong-passcode-4711" not in kept and "demo-key" not in kept
    opened = run_cli(home, agents_file, "answer", vault["id"], "sesame", "-o", "json")
    assert opened.returncode == 0 and json.loads(opened.stdout)["task"]["status"]["state"] == "TASK_STATE_COMPLETED"

    # The interviewer answered with send --task-id: it asks again (kept), then is done (let go of).
    follow_up = ["send", "interviewer", "--task-id", sent["id"], "--context-id", sent["contextId"], "-o", "json"]
    again = run_cli(home, agents_file, *follow_up, "Ada")
    assert again.returncode == 0, again.stderr
    [next_question] = inbox(home, agents_file)
    assert next_question["question"].startswith("Nice to meet you, Ada") and next_question["id"] == asked["id"]
    table = run_cli(home, agents_file, "inbox").stdout  # a long question cut says so
    assert "Nice to meet you, Ada. What is your goal today? Pick one be…  remembered" in table
    last = run_cli(home, agents_file, *follow_up, "1")
    assert last.returncode == 0, last.stderr
    assert inbox(home, agents_file) == [] and load_remembered() == []

    # An agent named by its address goes by its card's name (the agent's own text, one line), and is read again
    # as the agents file's entry of that address (its credentials, if it had any).
    url = interviewer_url(agents_file)
    assert run_cli(home, agents_file, "send", url, "interview me").returncode == 0
    [by_address] = inbox(home, agents_file)
    assert (by_address["who"], by_address["agentUrl"], by_address["where"]) == ("Interviewer", url, "remembered")
