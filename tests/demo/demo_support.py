"""Running `switchboard demo` as a real process, and talking to its agents through our own client."""

from __future__ import annotations

import atexit
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

import pytest

from switchboard.a2a.auth.credentials import Credentials
from switchboard.a2a.client import connect as connect_to
from switchboard.a2a.client import new_message
from switchboard.a2a.follow import FollowPolicy, Notice, follow_turn
from switchboard.a2a.transports.base import Transport
from switchboard.a2a.turn import TaskView
from switchboard.agents import AgentEntry, load_agents

REPO = Path(__file__).resolve().parents[2]
READY_LINE = "Serving until Ctrl+C."
START_TIMEOUT = 60.0
STOP_TIMEOUT = 15.0
API_KEY = "demo-key"
TOKEN = "demo-token"
BOTH_VERSIONS = pytest.mark.parametrize("version", ["1.0", "0.3"])
FAST = FollowPolicy(poll_interval=0.1, backoff=0.05, max_backoff=0.2)

_started: list[subprocess.Popen[str]] = []


def demo_env(home: Path, **extra: str) -> dict[str, str]:
    """The environment of a demo or CLI subprocess: own SWITCHBOARD_HOME, no credentials from the caller."""
    env = {**os.environ, "SWITCHBOARD_HOME": str(home), "PYTHONPATH": str(REPO / "src"), **extra}
    for name in (
        "A2ACLI_API_KEY",
        "A2ACLI_BEARER",
        "A2ACLI_AGENT_CARD",
        "SWITCHBOARD_DEMO_KEY",
        "SWITCHBOARD_DEMO_TOKEN",
    ):
        if name not in extra:
            env.pop(name, None)
    return env


@dataclass
class DemoProcess:
    process: subprocess.Popen[str]
    agents_file: Path
    home: Path
    stdout: list[str] = field(default_factory=list)  # every line printed so far
    _lines: queue.Queue[str | None] = field(default_factory=queue.Queue, repr=False)

    @property
    def startup_text(self) -> str:
        return "".join(self.stdout)

    def agent(self, name: str) -> AgentEntry:
        entry = load_agents(self.agents_file, env={}).find(name)
        assert entry is not None, f"{name} is not in {self.agents_file}"
        return entry

    def url(self, name: str) -> str:
        return self.agent(name).url

    def interrupt(self) -> tuple[int, str]:
        """SIGINT (Ctrl+C), then the exit code and everything on stderr."""
        self.process.send_signal(signal.SIGINT)
        try:
            code = self.process.wait(STOP_TIMEOUT)
        finally:
            _end(self.process)
        return code, self.process.stderr.read() if self.process.stderr else ""


def start_demo(home: Path, *extra_args: str, env: dict[str, str] | None = None) -> DemoProcess:
    """Run `python -m switchboard demo --port 0` and wait for its start-up text."""
    agents_file = home / "demo-agents.yaml"
    process = subprocess.Popen(
        [sys.executable, "-m", "switchboard", "demo", "--port", "0", "--agents-out", str(agents_file), *extra_args],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env or demo_env(home),
        cwd=home,
    )
    _started.append(process)
    demo = DemoProcess(process, agents_file, home)
    threading.Thread(target=_pump, args=(process.stdout, demo), daemon=True).start()
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            line = demo._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            _end(process)
            pytest.fail(f"the demo printed no {READY_LINE!r} within {START_TIMEOUT:.0f} s", pytrace=False)
        if line is None:
            stderr = process.stderr.read() if process.stderr else ""
            pytest.fail(f"the demo exited while starting:\n{demo.startup_text}\n{stderr}", pytrace=False)
        if line.strip() == READY_LINE:
            return demo


def _pump(stream: IO[str], demo: DemoProcess) -> None:
    for line in stream:
        demo.stdout.append(line)
        demo._lines.put(line)
    demo._lines.put(None)


def _end(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@atexit.register
def _stop_leftovers() -> None:
    for process in _started:
        _end(process)


# --- our client -------------------------------------------------------------------------------------------


async def connect(demo: DemoProcess, name: str, version: str | None = None, **kwargs) -> Transport:
    return await connect_to(demo.url(name), prefer_version=version, **kwargs)


async def connect_gatekeeper(demo: DemoProcess, version: str | None = None) -> Transport:
    return await connect(demo, "gatekeeper", version, credentials=Credentials(api_key=API_KEY))


async def turn(
    client: Transport, text: str | None = None, *, task_id: str | None = None, context_id: str | None = None, **kw
) -> tuple[TaskView, list]:
    """Send `text` (continuing `task_id` when given) and follow the turn to its end; no text: re-attach."""
    if text is None:
        source = follow_turn(client, task_id=task_id, policy=FAST, **kw)
    else:
        message = new_message(text, task_id=task_id, context_id=context_id)
        source = follow_turn(client, message, policy=FAST, **kw)
    view, events = TaskView(), []
    async for event in source:
        events.append(event)
        if not isinstance(event, Notice):
            view.apply(event)
    return view, events


def fields(stdout: str) -> dict[str, str]:
    """`Label: value` lines (the last one wins)."""
    out = {}
    for line in stdout.splitlines():
        label, sep, value = line.partition(": ")
        if sep and label and not label.startswith(" "):
            out[label] = value
    return out
