"""The inbox's core with no terminal: ids the same in every process, how long an item waited, oldest first; the
remembered-questions file written atomically and read back bounded; the nudge's text and the notify command,
which gets the item in its environment and never in a shell."""

from __future__ import annotations

import json
import os
import stat
import sys

import pytest

from switchboard.inbox.item import InboxItem, first_line, item_id, sort_oldest_first, waited
from switchboard.inbox.nudge import command_argv, notify_environment, run_notify_command, terminal_escapes
from switchboard.inbox.store import MAX_BYTES, Remembered, forget, load_remembered, parse_remembered, remember


def task(question: str = "What is your name?", since: float | None = 10.0, **kw) -> InboxItem:
    fields = dict(
        who="interviewer", agent="interviewer", agent_url="http://127.0.0.1:9/", task_id="t-1", context_id="c-1"
    )
    fields.update(kw)
    return InboxItem("task", question=question, state="input-required", since=since, where="conversation tab", **fields)


def test_an_items_id_says_its_kind_and_where_it_lives_the_same_everywhere():
    assert task().id == task(question="Something else?", since=99.0).id  # where it lives, not what it asks
    assert task().id == task(agent_url="http://127.0.0.1:9").id  # a trailing slash is the same agent
    assert task().id != task(task_id="t-2").id
    run = InboxItem("run", "run x · step a", "?", "input-required", None, "local run r", run_id="r", step="a")
    on_temporal = InboxItem("temporal", "run x · step a", "?", "input-required", None, "T", run_id="r", step="a")
    assert (task().id[0], run.id[0], on_temporal.id[0]) == ("t", "r", "w") and run.id != on_temporal.id
    assert run.id == item_id("run", "r", "a") and len(run.id) == 8


def test_first_line_waited_and_oldest_first():
    assert first_line("\n  \x1b[31mWhat   is\tit?\nmore") == "What is it?"
    assert first_line("x" * 300, limit=10) == "x" * 9 + "…"
    assert [waited(None, 5), waited(0, 59), waited(0, 61), waited(0, 7200), waited(0, 200_000)] == [
        "",
        "59s",
        "1m",
        "2h",
        "2d",
    ]
    items = [task(since=None, task_id="a"), task(since=30.0, task_id="b"), task(since=10.0, task_id="c")]
    assert [i.task_id for i in sort_oldest_first(items)] == ["c", "b", "a"]


def test_remembered_questions_are_written_atomically_private_and_read_back(tmp_path):
    path = tmp_path / "inbox.json"
    entry = Remembered("interviewer", "http://a/", "t-1", "c-1", "input-required", "Your name?", 12.5)
    assert remember(entry, path) and not remember(entry, path)  # the same again changes nothing
    assert load_remembered(path) == [entry]
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert not list(tmp_path.glob(".inbox.json.*"))  # no temporary file left behind
    doc = json.loads(path.read_text())
    assert set(doc["questions"][0]) == {"agent", "agentUrl", "taskId", "contextId", "state", "question", "since"}
    newer = Remembered("interviewer", "http://a", "t-1", "c-1", "auth-required", "Passcode?", 13.0)
    remember(newer, path)
    assert load_remembered(path) == [newer]  # one per task (its agent's address with or without the slash)
    assert forget("http://a/", "t-1", path) and load_remembered(path) == []
    assert not forget("http://a/", "t-1", path)


def test_a_remembered_file_that_is_not_ours_reads_as_nothing_or_its_good_entries(tmp_path):
    good = {"agent": "a", "agentUrl": "http://a", "taskId": "t", "contextId": "", "state": "input-required",
            "question": "q?", "since": 5}  # fmt: skip
    bad = [
        {**good, "state": "working"},
        {**good, "taskId": ""},
        {**good, "agent": 3},
        "x",
        None,
        {**good, "question": []},
    ]
    doc = {"version": 1, "questions": [*bad, {**good, "since": "yesterday"}]}
    [entry] = parse_remembered(json.dumps(doc).encode())
    assert entry.since is None and entry.task_id == "t"
    assert parse_remembered(b"\x00\xff not json") == []
    assert parse_remembered(b"[1, 2]") == []
    too_big = json.dumps({"questions": [good], "pad": "x" * MAX_BYTES}).encode()
    assert parse_remembered(too_big) == []
    assert load_remembered(tmp_path / "missing.json") == []


def test_the_escapes_carry_the_item_sanitized_and_each_kind_can_be_off():
    item = task(question="Pay \x1b]52;c;ZXZpbA==\x07 now;\nor\x9c later", who="ev\x07il")
    written = terminal_escapes(item, bell=True, desktop=True, tmux=False)
    assert written.startswith("\a\x1b]9;switchboard: ")
    assert written.count("\x1b") == 2 and "\x9c" not in written and "52;" not in written.replace("]52", "")
    quiet = terminal_escapes(item, bell=False, desktop=True, tmux=False)
    assert quiet.count("\a") == 2 and quiet.startswith("\x1b]9;")  # BEL only as each OSC's end: no bell
    assert "switchboard: ev il asks: Pay now," in quiet
    assert terminal_escapes(item, bell=True, desktop=False, tmux=False) == "\a"
    assert terminal_escapes(item, bell=False, desktop=False, tmux=False) == ""
    wrapped = terminal_escapes(item, bell=False, desktop=True, tmux=True)
    assert wrapped.startswith("\x1bPtmux;\x1b\x1b]9;") and wrapped.endswith("\x1b\\")


def test_the_notify_command_is_an_argv_with_the_item_in_its_environment(tmp_path):
    assert command_argv(None) == [] and command_argv("notify-send 'a b'") == ["notify-send", "a b"]
    assert command_argv(["ntfy", "publish"]) == ["ntfy", "publish"]
    env = notify_environment(task(question="$(rm -rf ~)\x00; `id`"))
    assert env["SWITCHBOARD_ITEM_QUESTION"] == "$(rm -rf ~); `id`"  # data: it reaches no shell
    assert env["SWITCHBOARD_ITEM_KIND"] == "task" and env["SWITCHBOARD_ITEM_ID"] == task().id


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["/no/such/notifier"], "notify command /no/such/notifier: "),
        ([sys.executable, "-c", "raise SystemExit(3)"], "exited 3"),
    ],
)
async def test_a_notify_command_that_fails_is_said(argv, said):
    problem = await run_notify_command(argv, task())
    assert problem is not None and said in problem


async def test_a_notify_command_that_hangs_is_stopped(tmp_path):
    problem = await run_notify_command([sys.executable, "-c", "import time; time.sleep(60)"], task(), timeout=0.5)
    assert problem is not None and "was stopped" in problem


async def test_a_notify_command_gets_the_item(tmp_path):
    out = tmp_path / "env.json"
    code = "import json, os, sys; json.dump(dict(os.environ), open(sys.argv[1], 'w'))"
    assert await run_notify_command([sys.executable, "-c", code, str(out)], task()) is None
    assert json.loads(out.read_text())["SWITCHBOARD_ITEM_WHO"] == "interviewer"
