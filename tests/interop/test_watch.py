"""`task watch` against real servers: by push where the agent sends them (the a2a-sdk 1.x server and its push
sender, and a2a-sdk 0.3.26's at v0.3), by polling where it cannot (the 0.3.26 server's card says no push; push
configs over HTTP+JSON at 0.3, which switchboard does not speak), the
config deleted at the end and on Ctrl+C, and --push-url checked where it is typed and given to the agent."""

from __future__ import annotations

import asyncio
import json
import signal
import socket
import sys

import pytest

WAIT = 30  # seconds: a bound on a wait for output, never a measure


class Watch:
    """`switchboard task watch ...` running, its output read line by line as it comes (a pipe left unread would
    fill, block the watch's printing and with it its receiver, and then the agent's push sender)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []
        self._new = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        while raw := await self.process.stdout.readline():
            self.lines.append(raw.decode())
            self._new.set()
        self._new.set()

    async def line_with(self, text: str, after: int = 0) -> int:
        """The index of the first line from `after` on that holds `text`."""
        async with asyncio.timeout(WAIT):
            while True:
                found = next((i for i in range(after, len(self.lines)) if text in self.lines[i]), None)
                if found is not None:
                    return found
                if self._reader.done():
                    error = (await self.process.stderr.read()).decode()
                    raise AssertionError(f"the watch ended before printing {text!r}: {self.lines} {error}")
                self._new.clear()
                await self._new.wait()

    async def end(self) -> tuple[int, str, str]:
        async with asyncio.timeout(WAIT):
            await self._reader
            err = (await self.process.stderr.read()).decode()
            await self.process.wait()
        return self.process.returncode, "".join(self.lines), err


async def watch(env, *args: str) -> Watch:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "switchboard", "task", "watch", *args,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, env=env,
        preexec_fn=_as_at_a_shell,
    )  # fmt: skip
    return Watch(process)


def _as_at_a_shell() -> None:
    """Ctrl+C as a person's shell delivers it: a test runner's worker may ignore SIGINT, and a child inherits that
    (Python then raises no KeyboardInterrupt at all)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def slow_task(cli, url: str) -> str:
    started = cli("send", url, "slow job", "--async", "-o", "json")
    assert started.returncode == 0, started.stderr
    return json.loads(started.stdout)["task"]["id"]


def configs(cli, url: str, task_id: str) -> list[dict]:
    listed = cli("task", "push", "list", url, task_id, "-o", "json")
    assert listed.returncode == 0, listed.stderr
    return json.loads(listed.stdout)["configs"]


@pytest.mark.parametrize("kind", ["sdk13-v10", "sdk13-grpc", "sdk13-v03compat"])
async def test_watch_follows_a_task_by_push_to_its_end_and_deletes_its_config(server_pool, cli, env, kind):
    url = server_pool.get(kind).url
    task_id = slow_task(cli, url)
    watching = await watch(env, url, task_id, "--stream", "-o", "json")
    await watching.line_with("tick")  # pushed: the config exists by now
    [config] = configs(cli, url, task_id)
    assert config["url"].startswith("http://127.0.0.1:") and config["url"].endswith("/a2a/push")
    assert cli("task", "cancel", url, task_id).returncode == 0
    code, out, err = await watching.end()
    assert code == 0, err
    events = [json.loads(line) for line in out.splitlines()]
    assert events[-1]["statusUpdate"]["status"]["state"] == "TASK_STATE_CANCELED" or (
        events[-1]["task"]["status"]["state"] == "TASK_STATE_CANCELED"
    )
    assert "polling" not in err
    assert configs(cli, url, task_id) == []


@pytest.mark.parametrize(
    ("kind", "why"),
    [("sdk03-native", "does not declare push"), ("sdk13-v03rest", "at 0.3 over JSON-RPC only")],
)
async def test_watch_polls_an_agent_that_cannot_push_and_says_so_once(server_pool, cli, env, kind, why):
    url = server_pool.get(kind).url
    task_id = slow_task(cli, url)
    watching = await watch(env, url, task_id, "--stream")
    await watching.line_with("tick")
    assert cli("task", "cancel", url, task_id).returncode == 0
    code, out, err = await watching.end()
    assert code == 0, err
    assert err.count("polling the task instead") == 1 and why in err
    assert "State: canceled" in out


async def test_watch_without_stream_prints_the_task_as_subscribe_does(server_pool, cli, env):
    url = server_pool.get("sdk13-v10").url
    asked = json.loads(cli("send", url, "hi", "--async", "-o", "json").stdout)["task"]["id"]
    code, out, err = await (await watch(env, url, asked, "-o", "json")).end()
    assert code == 0, err
    assert json.loads(out)["status"]["state"] == "TASK_STATE_INPUT_REQUIRED"  # it stops where the task asks
    assert "waiting: input-required" in err


@pytest.mark.parametrize("kind", ["sdk13-v10", "sdk03-push"])
async def test_ctrl_c_deletes_the_config(server_pool, cli, env, kind):
    """On a2a-sdk 0.3.26 too, whose sender POSTs whole v0.3 Tasks (and nothing for a cancel, so the watch is ended
    by Ctrl+C here: it would read the task once pushes had been quiet for 30 s)."""
    url = server_pool.get(kind).url
    task_id = slow_task(cli, url)
    watching = await watch(env, url, task_id, "--stream")
    first = await watching.line_with("tick")
    after = first + 1
    while watching.lines[(after := await watching.line_with("tick", after))] == watching.lines[first]:
        after += 1  # pushed, the next one: the task was read once, before the config existed
    assert len(configs(cli, url, task_id)) == 1
    watching.process.send_signal(signal.SIGINT)
    code, _, err = await watching.end()
    assert code == 130, err
    assert configs(cli, url, task_id) == []
    assert "task get" in err  # how to pick it up again
    assert "Exception" not in err and "Traceback" not in err
    cli("task", "cancel", url, task_id)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def test_push_url_is_what_the_agent_is_given_while_the_receiver_listens_on_loopback(server_pool, cli, env):
    url = server_pool.get("sdk13-v10").url
    task_id = slow_task(cli, url)
    port = free_port()
    public = f"http://localhost:{port}/hooks/mine"  # as a tunnel would forward it: same path, another name
    watching = await watch(env, url, task_id, "--stream", "--push-url", public, "--push-port", str(port))
    await watching.line_with("tick")
    assert [c["url"] for c in configs(cli, url, task_id)] == [public]
    assert cli("task", "cancel", url, task_id).returncode == 0
    code, out, err = await watching.end()
    assert code == 0, err
    assert f"receiving pushes on http://127.0.0.1:{port}/hooks/mine; the agent is given {public}" in err
    assert "State: canceled" in out


@pytest.mark.parametrize(
    ("value", "said"),
    [
        ("ftp://example.com/hook", "must start with http:// or https://"),
        ("https:///hook", "names no host"),
        ("https://example.com:port/x", "is not a URL"),
        ("example.com/hook", "must start with http:// or https://"),
    ],
)
def test_a_bad_push_url_is_a_usage_error_before_any_request(cli, value, said):
    for command in (["task", "watch", "http://127.0.0.1:9", "T"], ["send", "http://127.0.0.1:9", "hi", "--push"]):
        done = cli(*command, "--push-url", value)
        assert done.returncode == 2, done.stderr
        assert said in done.stderr and "tunnel" in done.stderr


def test_push_url_without_push_is_a_usage_error(cli):
    done = cli("send", "http://127.0.0.1:9", "hi", "--push-url", "https://example.com/hook")
    assert done.returncode == 2 and "Add --push" in done.stderr
