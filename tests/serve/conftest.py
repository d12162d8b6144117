"""Fixtures: one demo fleet for the session (official a2a-sdk servers on free ports, in a thread), short
research times so a run takes seconds, and `switchboard serve` processes started per test."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# tests/ is not a package: make `serve_support` importable under any pytest import mode.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from serve_support import API_KEY, TOKEN, ServeProcess, start_serve

from switchboard.demo.base import DemoSettings
from switchboard.demo.fleet import BackgroundFleet, start_in_background

SETTINGS = DemoSettings(
    writer_pace_ms=1, api_key=API_KEY, token=TOKEN, research_seconds=4.0, quick_research_seconds=1.0
)


@pytest.fixture(scope="session")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackgroundFleet]:
    agents_file = tmp_path_factory.mktemp("fleet") / "agents.yaml"
    handle = start_in_background(first_port=0, settings=SETTINGS, agents_file=agents_file)
    yield handle
    handle.stop()


@pytest.fixture
def agents_file(fleet: BackgroundFleet) -> Path:
    assert fleet.agents_file is not None
    return fleet.agents_file


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """SWITCHBOARD_HOME of this test, for the server and the test's own clients (journals in home/data/runs)."""
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    return tmp_path


@pytest.fixture
def serve(home: Path, agents_file: Path):
    """Start `switchboard serve` (on a free port) with these arguments; stopped after the test."""
    started: list[ServeProcess] = []

    def start(*args: str, **kwargs) -> ServeProcess:
        served = start_serve(home, agents_file, "--port", "0", *args, **kwargs)
        started.append(served)
        return served

    yield start
    for served in started:
        if served.process.poll() is None:
            served.interrupt()
