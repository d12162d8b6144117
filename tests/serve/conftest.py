"""Fixtures: `switchboard serve` processes started per test, over the session's demo fleet (tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from serve_support import ServeProcess, start_serve


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
