"""`switchboard temporal dev` as a person runs it: what it prints to start next runs as printed, and whatever
signal stops it (Ctrl+C, `kill`, a closed terminal, even SIGKILL) stops the Temporal server it started: the
port closes and the server's process is gone."""

from __future__ import annotations

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from workflow_support import REPO, cli_env

from switchboard.workflow.temporal.dev import free_port

SHELL_ONLY = """\
version: 1
name: shell-only
steps:
  - name: hello
    run: echo hello from a worker
outputs:
  said: "{{steps.hello.output}}"
"""


@dataclass
class Dev:
    process: subprocess.Popen
    port: int
    printed: list[str]  # the commands it says to run next
    server: int  # the pid of the Temporal server it started


def alive(pid: int) -> bool:
    """Running (a zombie waiting to be reaped is not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def until(predicate, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, what
        time.sleep(0.05)


@pytest.fixture
def dev(tmp_path: Path, temporal_key: str) -> Iterator[Dev]:
    port = free_port()
    log = tmp_path / "dev.log"
    with log.open("w") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "switchboard", "temporal", "dev", "--port", str(port)],
            env=cli_env(tmp_path),
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=REPO,
        )
    server = None
    try:
        until(lambda: "Temporal dev server on" in log.read_text() or process.poll() is not None, "no start")
        assert process.poll() is None, log.read_text()[-2000:]
        lines = log.read_text().splitlines()
        head = next(i for i, line in enumerate(lines) if line.startswith("Temporal dev server on"))
        printed = [line.strip() for line in lines[head + 1 : head + 3]]
        [child] = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
        server = int(child)
        yield Dev(process, port, printed, server)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if server is not None and alive(server):  # what a failed test left behind is stopped all the same
            os.kill(server, signal.SIGKILL)


@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT, signal.SIGKILL], ids=lambda n: n.name)
def test_any_signal_that_stops_it_stops_the_server_it_started(dev, number):
    assert listening(dev.port) and alive(dev.server)
    dev.process.send_signal(number)
    code = dev.process.wait(60)
    until(lambda: not listening(dev.port), f"the server still listens on {dev.port} after {number.name}")
    until(lambda: not alive(dev.server), f"the server's process {dev.server} outlived {number.name}")
    assert code == (-signal.SIGKILL if number == signal.SIGKILL else 0)  # stopped as asked, not failed


def test_what_it_says_to_run_next_runs_as_printed(dev, tmp_path: Path):
    address = f"127.0.0.1:{dev.port}"
    worker_line, run_line = dev.printed
    assert worker_line.split(" worker ")[1] == f"--temporal {address} --allow-shell", dev.printed
    log = (tmp_path / "worker.log").open("w")
    worker = subprocess.Popen(shlex.split(worker_line), env=cli_env(tmp_path), stdout=log, stderr=log, cwd=REPO)
    try:
        until(lambda: "worker serving" in (tmp_path / "worker.log").read_text(), "the worker did not start")
        workflow = tmp_path / "shell-only.yaml"
        workflow.write_text(SHELL_ONLY)
        argv = [str(workflow) if word == "FILE" else word for word in shlex.split(run_line)]
        assert str(workflow) in argv, run_line
        done = subprocess.run(
            [*argv, "-o", "json"], capture_output=True, text=True, env=cli_env(tmp_path), timeout=120, cwd=REPO
        )
        assert done.returncode == 0, done.stderr
        run = json.loads(done.stdout)["run"]
        assert run["status"] == "completed" and run["outputs"] == {"said": "hello from a worker"}
    finally:
        worker.terminate()
        worker.wait(30)
        log.close()
    # Started again on the same port, it says so (rather than passing the first server off as its own).
    again = subprocess.run(
        [sys.executable, "-m", "switchboard", "temporal", "dev", "--port", str(dev.port)],
        capture_output=True,
        text=True,
        env=cli_env(tmp_path),
        timeout=60,
    )
    assert again.returncode == 2 and f"something already listens on {address}" in again.stderr
    os.kill(dev.process.pid, signal.SIGTERM)
    assert dev.process.wait(60) == 0


def test_a_port_taken_between_its_pick_and_the_servers_bind_is_picked_again(monkeypatch):
    """Another process may listen on a port picked free before the server binds it: the server exits, and it was
    taken as started because the port answered (a session's server was seen gone a second after it "listened")."""
    from switchboard.workflow.temporal import dev as dev_module

    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        picks = iter([taken])  # the first pick, the server's own port, is the one taken meanwhile
        real = dev_module.free_port
        monkeypatch.setattr(dev_module, "free_port", lambda host="127.0.0.1": next(picks, None) or real(host))
        server = dev_module.start_dev_server()
        try:
            assert server.address != f"127.0.0.1:{taken}" and server.process.poll() is None
            assert listening(int(server.address.rsplit(":", 1)[1]))
        finally:
            server.stop()
