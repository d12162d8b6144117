"""Session-wide set-up: Hypothesis runs the same examples every time and keeps no example database (CI stays
stable), and the demo fleet that the serve and workflow tests share, started once per test process."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from switchboard.demo.base import DemoSettings
from switchboard.demo.defaults import DEFAULT_API_KEY, DEFAULT_TOKEN
from switchboard.demo.fleet import BackgroundFleet, start_in_background

settings.register_profile(
    "switchboard",
    database=None,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("switchboard")

# Short research times, so a run takes seconds; the secrets the agents file names (its variables are set by
# whoever runs a client against it).
FLEET_SETTINGS = DemoSettings(
    writer_pace_ms=1, api_key=DEFAULT_API_KEY, token=DEFAULT_TOKEN, research_seconds=4.0, quick_research_seconds=1.0
)


@pytest.fixture(scope="session")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackgroundFleet]:
    """The demo fleet (official a2a-sdk servers on free ports, in a thread of this process), with an agents file.

    A package or module that needs other settings defines its own `fleet`, which wins there.
    """
    agents_file = tmp_path_factory.mktemp("fleet") / "agents.yaml"
    handle = start_in_background(first_port=0, settings=FLEET_SETTINGS, agents_file=agents_file)
    yield handle
    handle.stop()


@pytest.fixture
def agents_file(fleet: BackgroundFleet) -> Path:
    assert fleet.agents_file is not None
    return fleet.agents_file


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """SWITCHBOARD_HOME of this test, for servers and clients alike (journals land in home/data/runs)."""
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    return tmp_path
