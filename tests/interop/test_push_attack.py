"""The issue's done-when for the push receiver: `task watch` and `send --push` run as a person runs them (a
subprocess, against a real a2a-sdk agent and its push sender) while their receiver is attacked. Forged pushes
(a guessed token claiming the task completed), oversized ones, garbage and broken HTTP get their statuses; the
command's stderr holds only what it prints anyway; the state it prints is the real task's."""

from __future__ import annotations

import asyncio
import json
import sys

import httpx
from raw_http import WAIT, exchange, post, status_update, statuses
from test_watch import configs, free_port, slow_task, watch

HUGE = 20 * 2**20


async def attack(port: int, task_id: str) -> dict[str, list[int]]:
    """Everything a client without the token can throw at the receiver on `port`: what each got back."""
    forged = status_update(task_id, "TASK_STATE_COMPLETED")  # the task's id is no secret; its token is
    head = f"POST /a2a/push HTTP/1.1\r\nHost: x\r\nX-A2A-Notification-Token: guessed\r\nContent-Length: {HUGE}\r\n\r\n"
    raw = {
        "forged token": post("/a2a/push", forged, "guessed"),
        "no token": post("/a2a/push", forged),
        "20 MB announced, none sent": head.encode(),
        "another path": post("/elsewhere", forged, "guessed"),
        "garbage": b"\x00\xff\x1b[2J garbage\r\n\r\n",
        "half a request line": b"POST /a2a/pu",
        "a huge header": b"POST /a2a/push HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40000 + b"\r\n\r\n",
        "an invalid Content-Length": b"POST /a2a/push HTTP/1.1\r\nHost: x\r\nContent-Length: nope\r\n\r\n",
        "Content-Length and chunked": (
            b"POST /a2a/push HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        ),
        "HTTP/1.0, forged": post("/a2a/push", forged, "guessed", version="1.0"),
        "pipelined, forged": post("/a2a/push", forged, "guessed") * 3,
    }
    got = {name: statuses(await exchange(port, data, end=True)) for name, data in raw.items()}
    await exchange(port, post("/a2a/push", forged, "guessed")[:-7], abort=True)  # an abrupt close mid-body
    async with httpx.AsyncClient(timeout=WAIT) as http:  # a client that sends all 20 MB before it reads
        target = f"http://127.0.0.1:{port}/a2a/push"
        sent = await http.post(target, content=b"x" * HUGE, headers={"X-A2A-Notification-Token": "guessed"})
        got["20 MB sent by httpx"] = [sent.status_code]
    return got


EXPECTED = {
    "forged token": [401],
    "no token": [401],
    "20 MB announced, none sent": [401],
    "another path": [404],
    "garbage": [400],
    "half a request line": [400],
    "a huge header": [431],
    "an invalid Content-Length": [400],
    "Content-Length and chunked": [400],
    "HTTP/1.0, forged": [401],
    "pipelined, forged": [401],  # refused at the first, and closed: the others are never read
    "20 MB sent by httpx": [401],
}


def quiet(err: str) -> None:
    """stderr holds what the command prints for a canceled task, and nothing of the attack (no traceback, no
    exception, no log line of the loop's)."""
    assert err.splitlines() == ["warning: the task ended canceled"], err


async def test_task_watch_under_attack_prints_the_real_outcome_and_nothing_else(server_pool, cli, env):
    url = server_pool.get("sdk13-v10").url
    task_id = slow_task(cli, url)
    port = free_port()
    watching = await watch(env, url, task_id, "--push-port", str(port))
    async with asyncio.timeout(WAIT):  # the receiver is up once the push config is there
        while not await asyncio.to_thread(configs, cli, url, task_id):
            await asyncio.sleep(0.1)
    assert await attack(port, task_id) == EXPECTED
    assert cli("task", "cancel", url, task_id).returncode == 0
    code, out, err = await watching.end()
    assert code == 0, err
    assert "State: canceled" in out and "completed" not in out  # the forged completion changed nothing
    quiet(err)
    assert configs(cli, url, task_id) == []


def listed(cli, url: str) -> list[dict]:
    done = cli("task", "list", url, "-o", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["tasks"]


async def test_send_push_under_attack_prints_the_real_outcome_and_nothing_else(server_pool, cli, env):
    url = server_pool.get("sdk13-v10").url
    port = free_port()
    before = {t["id"] for t in listed(cli, url)}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "switchboard", "send", url, "slow job", "--push", "--push-port", str(port), "-o", "json",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env,
    )  # fmt: skip
    async with asyncio.timeout(WAIT):  # its task, once the agent has it (this process's server is ours alone)
        while not (mine := [t for t in listed(cli, url) if t["id"] not in before]):
            await asyncio.sleep(0.1)
        while not await asyncio.to_thread(configs, cli, url, mine[0]["id"]):
            await asyncio.sleep(0.1)
    task_id = mine[0]["id"]
    assert await attack(port, task_id) == EXPECTED
    assert cli("task", "cancel", url, task_id).returncode == 0
    async with asyncio.timeout(WAIT):
        out, err = await process.communicate()
    assert process.returncode == 0, err
    assert json.loads(out)["task"]["status"]["state"] == "TASK_STATE_CANCELED"
    quiet(err.decode())
