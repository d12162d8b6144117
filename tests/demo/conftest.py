"""Fixtures: the demo fleet, started once per session as the real `switchboard demo` process on free ports,
and the headless command line pointed at its agents file.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from cli_runner import run_cli_in_process
from demo_support import DemoProcess, demo_env, start_demo


@pytest.fixture(scope="session")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Iterator[DemoProcess]:
    """The fleet for the whole session (writer pace 1 ms, so documents stream fast)."""
    running = start_demo(tmp_path_factory.mktemp("demo-home"), "--writer-pace", "1")
    yield running
    running.interrupt()


@pytest.fixture
def cli(demo: DemoProcess, tmp_path: Path):
    """`switchboard --agents <the demo's agents file> ARGS`, run in this process."""

    def run(*args: str, env: dict[str, str] | None = None, timeout: float = 90) -> subprocess.CompletedProcess:
        argv = ["--agents", str(demo.agents_file), *args]
        return run_cli_in_process(argv, demo_env(tmp_path, **(env or {})), timeout=timeout)

    return run
