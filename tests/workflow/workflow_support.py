"""Helpers for workflow tests: scripted agents for faults, the CLI as a subprocess, journals, server-side counts."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cli_runner import run_cli_in_process

from switchboard.a2a.cancel import CancelOutcome
from switchboard.a2a.client import connect
from switchboard.a2a.model import (
    Artifact,
    ArtifactUpdate,
    Message,
    Role,
    StatusUpdate,
    Task,
    TaskState,
    TaskStatus,
    TextPart,
)
from switchboard.agents import AgentEntry, AgentsFile
from switchboard.workflow.runs import read_records

REPO = Path(__file__).resolve().parents[2]
API_KEY = "demo-key"
TOKEN = "demo-token"


# --- scripted agents (faults a real server will not produce on demand) ---------------------------------


def status(task_id: str, state: TaskState, text: str | None = None, context_id: str = "ctx-1") -> StatusUpdate:
    message = None
    if text is not None:
        message = Message(
            message_id=f"{task_id}-{state.value}-{abs(hash(text))}", role=Role.AGENT, parts=[TextPart(text=text)]
        )
    return StatusUpdate(task_id=task_id, context_id=context_id, status=TaskStatus(state=state, message=message))


def artifact(task_id: str, text: str, context_id: str = "ctx-1") -> ArtifactUpdate:
    return ArtifactUpdate(
        task_id=task_id,
        context_id=context_id,
        artifact=Artifact(artifact_id="out", parts=[TextPart(text=text)]),
        last_chunk=True,
    )


def snapshot(task_id: str, state: TaskState, context_id: str = "ctx-1") -> Task:
    return Task(id=task_id, context_id=context_id, status=TaskStatus(state=state))


Turn = Callable[[Message, "ScriptedAgent"], list[Any]]


@dataclass
class ScriptedAgent:
    """An agent whose turns are scripted: each follow() plays the next turn (a list of events, or a callable
    returning one). An item may be a float (sleep that long), an Exception (raise it) or an event."""

    name: str
    turns: list[Any] = field(default_factory=list)
    sent: list[Message] = field(default_factory=list)
    correlation_ids: list[str] = field(default_factory=list)
    canceled: list[str] = field(default_factory=list)
    resumed: list[str] = field(default_factory=list)
    running: int = 0
    peak: int = 0
    tasks: dict[str, Task] = field(default_factory=dict)

    def next_turn(self, message: Message) -> list[Any]:
        self.sent.append(message)
        turn = self.turns.pop(0) if self.turns else [snapshot("t-extra", TaskState.COMPLETED)]
        return turn(message, self) if callable(turn) else list(turn)


class ScriptedLink:
    def __init__(self, agent: ScriptedAgent, correlation_id: str) -> None:
        self.agent = agent
        self.name = agent.name
        self.notes: list[str] = []
        agent.correlation_ids.append(correlation_id)

    async def _play(self, items: list[Any]):
        self.agent.running += 1
        self.agent.peak = max(self.agent.peak, self.agent.running)
        try:
            for item in items:
                if isinstance(item, int | float):
                    await asyncio.sleep(item)
                elif isinstance(item, BaseException):
                    raise item
                else:
                    if isinstance(item, Task):
                        self.agent.tasks[item.id] = item
                    yield item
        finally:
            self.agent.running -= 1

    def follow(self, message: Message, policy=None):
        return self._play(self.agent.next_turn(message))

    def resume(self, task_id: str, policy=None):
        self.agent.resumed.append(task_id)
        return self._play(self.agent.next_turn(Message(message_id="resume", role=Role.USER, parts=[])))

    async def get_task(self, task_id: str) -> Task:
        return self.agent.tasks.get(task_id) or snapshot(task_id, TaskState.WORKING)

    async def find_task(self, message_id: str) -> str | None:
        return None

    async def cancel(self, task_id: str, *, confirm_within: float = 0.0) -> CancelOutcome:
        self.agent.canceled.append(task_id)
        return CancelOutcome(snapshot(task_id, TaskState.CANCELED), confirmed=True)

    async def aclose(self) -> None:
        pass


def scripted(*agents: ScriptedAgent):
    """A `connect` for the engine, and an agents file naming the scripted agents."""
    by_name = {a.name: a for a in agents}

    async def connect(entry: AgentEntry, correlation_id: str, streaming: bool | None) -> ScriptedLink:
        return ScriptedLink(by_name[entry.name], correlation_id)

    registry = AgentsFile(None, [AgentEntry(a.name, f"http://{a.name}.test/") for a in agents], [])
    return connect, registry


def text_of_message(message: Message) -> str:
    return "".join(p.text for p in message.parts if isinstance(p, TextPart))


# --- journals -------------------------------------------------------------------------------------------


def journal_files(home: Path) -> list[Path]:
    directory = home / "data" / "runs"
    return sorted(directory.glob("*.jsonl")) if directory.is_dir() else []


def records_of(path: Path) -> list[dict[str, Any]]:
    return read_records(path)[0]


def kinds(path: Path) -> list[str]:
    return [r["type"] for r in records_of(path)]


def wait_for_record(home: Path, predicate: Callable[[dict[str, Any]], bool], timeout: float = 60) -> Path:
    """Poll the (single) journal under `home` until a record satisfies `predicate`; the journal's path."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for path in journal_files(home):
            if any(predicate(r) for r in records_of(path)):
                return path
        time.sleep(0.02)
    raise AssertionError(f"no journal record matched within {timeout} s: {[kinds(p) for p in journal_files(home)]}")


# --- the command line -----------------------------------------------------------------------------------


def cli_env(home: Path, **extra: str) -> dict[str, str]:
    env = {**os.environ, "SWITCHBOARD_HOME": str(home), "PYTHONPATH": str(REPO / "src"), **extra}
    for name in ("A2ACLI_API_KEY", "A2ACLI_BEARER", "A2ACLI_AGENT_CARD"):
        env.pop(name, None)
    env.setdefault("SWITCHBOARD_DEMO_KEY", API_KEY)
    env.setdefault("SWITCHBOARD_DEMO_TOKEN", TOKEN)
    return env


def switchboard_argv(agents_file: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "switchboard", "--agents", str(agents_file), *args]


def run_cli(home: Path, agents_file: Path, *args: str, timeout: float = 120, **env: str) -> subprocess.CompletedProcess:
    """`switchboard --agents AGENTS ARGS`, in this process; on Temporal, a process of its own (temporalio's
    runtime keeps threads for the life of its process)."""
    if "--temporal" not in args:
        argv = ["--agents", str(agents_file), *args]
        return run_cli_in_process(argv, cli_env(home, **env), "", cwd=REPO, timeout=timeout)
    return subprocess.run(
        switchboard_argv(agents_file, *args),
        capture_output=True,
        text=True,
        env=cli_env(home, **env),
        stdin=subprocess.DEVNULL,
        timeout=timeout,
        cwd=REPO,
    )


def fields(stdout: str) -> dict[str, str]:
    """`Label: value` lines (the first one wins: the run's own fields come before the steps')."""
    out: dict[str, str] = {}
    for line in stdout.splitlines():
        label, sep, value = line.partition(": ")
        if sep and label and not label.startswith(" ") and label not in out:
            out[label] = value
    return out


def run_document(stdout: str) -> dict[str, Any]:
    return json.loads(stdout)["run"]


# --- server-side counts ---------------------------------------------------------------------------------


async def tasks_for(url: str, correlation_id: str) -> list[Task]:
    """The tasks an agent (v1.0, ListTasks) holds whose first message carries `correlation_id`: how many
    times a delegate was really invoked, counted where it runs."""
    async with await connect(url) as client:
        found: list[Task] = []
        token = None
        while True:
            page = await client.list_tasks(page_size=100, page_token=token, history_length=100)
            for task in page.tasks:
                ids = {(m.metadata or {}).get("correlationId") for m in task.history or []}
                if correlation_id in ids:
                    found.append(task)
            token = page.next_page_token
            if not token:
                return found


def count_tasks(url: str, correlation_id: str) -> int:
    return len(asyncio.run(tasks_for(url, correlation_id)))
