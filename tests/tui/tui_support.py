"""Helpers shared by the TUI tests: waiting for the app to get somewhere, and a demo fleet for a module."""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from switchboard.demo.base import DemoSettings
from switchboard.demo.fleet import BackgroundFleet, start_in_background
from switchboard.tui.app import SwitchboardApp


async def until(predicate: Callable[[], object], timeout: float = 30.0, every: float = 0.05) -> None:
    """Wait until `predicate()` is true, looking every `every` seconds; TimeoutError after `timeout`."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(every)


def app_on_fleet(fleet: BackgroundFleet, home: Path, monkeypatch: pytest.MonkeyPatch) -> SwitchboardApp:
    """The app with every agent of `fleet`, its files under `home`."""
    monkeypatch.setenv("SWITCHBOARD_HOME", str(home))
    return SwitchboardApp(home / "agents.yaml", extra_agents=[agent.as_entry() for agent in fleet.agents], steady=True)


@contextmanager
def demo_fleet(settings: DemoSettings) -> Iterator[BackgroundFleet]:
    """The demo fleet on free ports, its agents' credentials in the environment until it stops.

    Its agents file goes to a directory of its own: the default one, in the user's data directory, would be
    shared by every test process running at once (and rewritten by each fleet with its own ports).
    """
    scratch = tempfile.TemporaryDirectory(prefix="demo-fleet-")
    handle = start_in_background(first_port=0, settings=settings, agents_file=Path(scratch.name) / "agents.yaml")
    saved = {name: os.environ.get(name) for name in handle.credential_env}
    os.environ.update(handle.credential_env)
    try:
        yield handle
    finally:
        handle.stop()
        scratch.cleanup()
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
