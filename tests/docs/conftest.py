"""The demo fleet the documented examples run against, and the folder they run in, as a person following the pages
has them."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from switchboard.demo.base import DemoSettings
from switchboard.demo.defaults import DEFAULT_API_KEY, DEFAULT_TOKEN
from switchboard.demo.fleet import BackgroundFleet, start_in_background

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackgroundFleet]:
    """The tests' fleet, but a long research takes a minute, as long as the real demo's: the command-line page cancels
    one a second or two after it starts, and it must still be running then, however loaded the machine."""
    agents_file = tmp_path_factory.mktemp("docs-fleet") / "agents.yaml"
    settings = DemoSettings(
        writer_pace_ms=1,
        api_key=DEFAULT_API_KEY,
        token=DEFAULT_TOKEN,
        research_seconds=60.0,
        quick_research_seconds=1.0,
    )
    handle = start_in_background(first_port=0, settings=settings, agents_file=agents_file)
    yield handle
    handle.stop()


@pytest.fixture
def workspace(agents_file: Path, tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A folder as a person following the pages has it: `demo.yaml` is the running demo's agents file, `examples/`
    the repository's; its own SWITCHBOARD_HOME, and no credentials but the demo's (the agents file names them)."""
    folder = tmp_path / "work"
    folder.mkdir()
    (folder / "demo.yaml").symlink_to(agents_file)
    (folder / "examples").symlink_to(REPO / "examples")
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("A2ACLI_", "SWITCHBOARD_")) and key != "COLUMNS"
    }
    env.update(
        SWITCHBOARD_HOME=str(tmp_path / "home"),
        PYTHONPATH=str(REPO / "src"),
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
    )
    return folder, env
