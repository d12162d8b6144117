"""Push notifications against the a2a-sdk 1.x server's own push sender, on each binding at v1.0, and over JSON-RPC
at v0.3 (a2a-sdk 0.3.26's sender too): push configs
created, read, listed and deleted; a slow task's updates arrive at switchboard's receiver with no stream open,
its cancel too; a forged push (wrong token, another task) is refused and changes nothing."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
from pathlib import Path

import httpx
import pytest
from cli_runner import run_cli_in_process

from switchboard.a2a.client import connect, new_message
from switchboard.a2a.model import Task, TaskState
from switchboard.a2a.tap import Tap
from switchboard.a2a.turn import TaskView
from switchboard.push.receiver import PushReceiver

KINDS = ["sdk13-v10", "sdk13-rest", "sdk13-grpc"]
V03 = ["sdk03-push", "sdk13-v03compat"]  # JSON-RPC at 0.3: a2a-sdk 0.3.26 (its sender POSTs Tasks), 1.x's compat
REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def cli(tmp_path):
    def run(*args: str) -> subprocess.CompletedProcess:
        env = {**os.environ, "SWITCHBOARD_HOME": str(tmp_path), "PYTHONPATH": str(REPO / "src")}
        return run_cli_in_process(list(args), env, timeout=60)

    return run


WAIT = 20  # seconds: a bound on a wait for an event, never a measure


async def next_pushed(events, view: TaskView, until) -> None:
    """Apply pushed events to `view` until `until(view)` holds."""
    while not until(view):
        view.apply(await asyncio.wait_for(anext(events), WAIT))


@pytest.mark.parametrize("kind", KINDS + V03)
async def test_a_slow_tasks_updates_arrive_by_push_with_no_stream_open(server_pool, kind):
    server = server_pool.get(kind)
    tap = Tap()
    async with await connect(server.url, tap=tap) as client, PushReceiver(redactor=tap.redactor) as receiver:
        task = await client.send(new_message("slow job"), blocking=False)
        assert isinstance(task, Task)
        token = receiver.register(task.id)
        created = await client.create_push_config(task.id, receiver.url, token=token, config_id="cfg-1")
        assert (created["taskId"], created["id"], created["url"]) == (task.id, "cfg-1", receiver.url)
        assert (await client.get_push_config(task.id, "cfg-1"))["url"] == receiver.url
        assert [c["id"] for c in await client.list_push_configs(task.id)] == ["cfg-1"]

        view = TaskView()
        view.apply(task)
        events = aiter(receiver.events(task.id))
        await next_pushed(events, view, lambda v: v.status_text.startswith("tick"))
        assert view.state is TaskState.WORKING
        await client.cancel_task(task.id)
        if kind == "sdk03-push":
            view.apply(await client.get_task(task.id))  # a2a-sdk 0.3.26 pushes nothing for a cancel
        await next_pushed(events, view, lambda v: v.state is TaskState.CANCELED)

        await client.delete_push_config(task.id, "cfg-1")
        assert await client.list_push_configs(task.id) == []
        assert receiver.refused == []
    assert all(token not in r.body + str(r.headers) for r in tap.records)  # the token is a secret


@pytest.mark.parametrize("kind", KINDS[:1])
async def test_a_forged_push_is_refused_and_changes_nothing(server_pool, kind):
    server = server_pool.get(kind)
    async with await connect(server.url) as client, PushReceiver() as receiver:
        task = await client.send(new_message("fail please"))
        token = receiver.register(task.id)
        update = {
            "statusUpdate": {
                "taskId": task.id,
                "contextId": task.context_id,
                "status": {"state": "TASK_STATE_COMPLETED"},
            }
        }
        other = {
            "statusUpdate": {"taskId": "another-task", "contextId": "c", "status": {"state": "TASK_STATE_COMPLETED"}}
        }
        async with httpx.AsyncClient() as http:
            wrong = await http.post(receiver.url, json=update, headers={"X-A2A-Notification-Token": "guessed"})
            missing = await http.post(receiver.url, json=update)
            elsewhere = await http.post(receiver.url, json=other, headers={"X-A2A-Notification-Token": token})
            garbage = await http.post(receiver.url, content=b"{not json", headers={"X-A2A-Notification-Token": token})
        assert [wrong.status_code, missing.status_code, elsewhere.status_code, garbage.status_code] == [
            401,
            401,
            404,
            400,
        ]
        assert [r.status for r in receiver.refused] == [401, 401, 404, 400]
        assert receiver._queues[task.id].empty()  # nothing reached the task's events
        assert isinstance(task, Task) and task.status.state is TaskState.FAILED


def test_the_command_line_sets_lists_gets_and_deletes_push_configs_and_follows_a_turn_by_push(cli, server_pool):
    server = server_pool.get("sdk13-grpc")
    asked = cli("send", server.url, "hi", "--push", "-o", "json")
    assert asked.returncode == 0, asked.stderr
    task = json.loads(asked.stdout)["task"]
    assert task["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"  # the question, delivered by push
    done = cli("send", server.url, "Ada", "--task-id", task["id"], "--push")
    assert done.returncode == 0, done.stderr
    assert "State: completed" in done.stdout

    slow = json.loads(cli("send", server.url, "slow job", "--async", "-o", "json").stdout)["task"]["id"]
    hook = "http://127.0.0.1:9/hook"
    made = cli(
        "task", "push", "set", server.url, slow, hook, "--token", "tok-secret-1", "--config-id", "c1", "--verbose"
    )
    assert made.returncode == 0, made.stderr
    assert "Config: c1" in made.stdout and f"URL: {hook}" in made.stdout and "Token: [set]" in made.stdout
    assert "tok-secret-1" not in made.stdout + made.stderr
    listed = json.loads(cli("task", "push", "list", server.url, slow, "-o", "json").stdout)
    assert [c["id"] for c in listed["configs"]] == ["c1"]
    assert "URL: " + hook in cli("task", "push", "get", server.url, slow, "c1").stdout
    assert cli("task", "push", "delete", server.url, slow, "c1").returncode == 0
    assert json.loads(cli("task", "push", "list", server.url, slow, "-o", "json").stdout) == {"configs": []}
    cli("task", "cancel", server.url, slow)
    wrong = cli("task", "push", "frobnicate", server.url, slow)
    assert wrong.returncode == 2 and "set, get, list or delete" in wrong.stderr
