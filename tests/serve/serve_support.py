"""`switchboard serve` as a real process over the demo fleet, and what the tests read back: journals, tasks."""

from __future__ import annotations

import atexit
import json
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import pytest
from cli_runner import run_cli_in_process

REPO = Path(__file__).resolve().parents[2]
WORKFLOWS = Path(__file__).resolve().parent / "workflows"
EXAMPLES = REPO / "examples" / "workflows"
READY_LINE = "Serving until Ctrl+C."
START_TIMEOUT = 60.0
STOP_TIMEOUT = 20.0
API_KEY = "demo-key"
TOKEN = "demo-token"

_started: list[subprocess.Popen[str]] = []


def serve_env(home: Path, **extra: str) -> dict[str, str]:
    """Own SWITCHBOARD_HOME; the demo's credentials (gatekeeper's key) as the agents file names them."""
    env = {**os.environ, "SWITCHBOARD_HOME": str(home), "PYTHONPATH": str(REPO / "src")}
    env["SWITCHBOARD_DEMO_KEY"] = API_KEY
    env["SWITCHBOARD_DEMO_TOKEN"] = TOKEN
    for name in ("A2ACLI_API_KEY", "A2ACLI_BEARER", "A2ACLI_AGENT_CARD"):
        env.pop(name, None)
    env.update(extra)
    return env


@dataclass
class ServeProcess:
    process: subprocess.Popen[str]
    home: Path
    argv: list[str]
    env: dict[str, str]
    stdout: list[str] = field(default_factory=list)
    stderr: list[str] = field(default_factory=list)
    _lines: queue.Queue[str | None] = field(default_factory=queue.Queue, repr=False)

    @property
    def text(self) -> str:
        return "".join(self.stdout)

    @property
    def urls(self) -> dict[str, str]:
        """Each served workflow's name and base URL, as the start-up text says."""
        return dict(re.findall(r"^  (\S+)\s+(http://\S+/)$", self.text, re.MULTILINE))

    def url(self, name: str) -> str:
        return self.urls[name]

    @property
    def port(self) -> int:
        return int(re.search(r"http://127\.0\.0\.1:(\d+)/", self.text).group(1))

    @property
    def journal_dir(self) -> Path:
        return self.home / "data" / "runs"

    def interrupt(self) -> int:
        self.process.send_signal(signal.SIGINT)
        try:
            return self.process.wait(STOP_TIMEOUT)
        finally:
            _end(self.process)

    def kill(self) -> None:
        """kill -9: no clean-up of any kind."""
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(STOP_TIMEOUT)


def start_serve(home: Path, agents_file: Path | None, *args: str, env: dict[str, str] | None = None) -> ServeProcess:
    """`python -m switchboard serve --agents AGENTS ARGS` (add --port 0 for a free port), once it serves."""
    agents = ["--agents", str(agents_file)] if agents_file else []
    argv = [sys.executable, "-m", "switchboard", "serve", *agents, *args]
    env = env or serve_env(home)
    process = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO
    )
    _started.append(process)
    served = ServeProcess(process, home, argv, env)
    threading.Thread(target=_pump, args=(process.stdout, served.stdout, served._lines), daemon=True).start()
    threading.Thread(target=_pump, args=(process.stderr, served.stderr, None), daemon=True).start()
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            line = served._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            _end(process)
            pytest.fail(f"serve printed no {READY_LINE!r} within {START_TIMEOUT:.0f} s", pytrace=False)
        if line is None:
            process.wait(5)
            pytest.fail(f"serve exited while starting:\n{served.text}\n{''.join(served.stderr)}", pytrace=False)
        if line.strip() == READY_LINE:
            return served


def restart(served: ServeProcess) -> ServeProcess:
    """The same command again, on the same port (the URLs callers hold stay right)."""
    argv = list(served.argv)
    at = argv.index("--port") if "--port" in argv else None
    if at is not None:
        argv[at + 1] = str(served.port)
    else:
        argv += ["--port", str(served.port)]
    if "--agents" in argv:
        agents: Path | None = Path(argv[argv.index("--agents") + 1])
        rest = argv[argv.index("--agents") + 2 :]
    else:
        agents, rest = None, argv[argv.index("serve") + 1 :]
    return start_serve(served.home, agents, *rest, env=served.env)


def _pump(stream: IO[str], sink: list[str], lines: queue.Queue[str | None] | None) -> None:
    for line in stream:
        sink.append(line)
        if lines is not None:
            lines.put(line)
    if lines is not None:
        lines.put(None)


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


# --- what the tests read back --------------------------------------------------------------------------------


def records(journal_dir: Path, run_id: str) -> list[dict[str, Any]]:
    path = journal_dir / f"{run_id}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def wait_for(predicate, timeout: float = 60.0, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"not true within {timeout} s: {predicate}")


def cli(home: Path, *args: str, timeout: float = 120, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`switchboard ARGS`, run in this process (the caller's side: no demo credentials)."""
    environment = {**os.environ, "SWITCHBOARD_HOME": str(home), "PYTHONPATH": str(REPO / "src"), **(env or {})}
    for name in ("A2ACLI_API_KEY", "A2ACLI_BEARER", "A2ACLI_AGENT_CARD", "SWITCHBOARD_DEMO_KEY"):
        if name not in (env or {}):
            environment.pop(name, None)
    return run_cli_in_process(list(args), environment, cwd=REPO, timeout=timeout)


def fields(stdout: str) -> dict[str, str]:
    out = {}
    for line in stdout.splitlines():
        label, sep, value = line.partition(": ")
        if sep and label and not label.startswith(" "):
            out[label] = value
    return out
