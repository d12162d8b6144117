"""Fixtures: one demo fleet for the workflow tests (official a2a-sdk servers on free ports, in a thread of
this process), with short research times so a run takes seconds, and a home directory per test."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# tests/ is not a package: make `workflow_support` importable under any pytest import mode.
sys.path.insert(0, str(Path(__file__).resolve().parent))

from workflow_support import API_KEY, TOKEN

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
    """SWITCHBOARD_HOME for this test (journals land in home/data/runs)."""
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    return tmp_path
