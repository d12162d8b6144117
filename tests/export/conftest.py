"""Fixtures of the export tests: the demo fleet, on free ports, for the whole package."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# tests/ is not a package: make the helpers importable under any pytest import mode.
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))

from tui_support import demo_fleet

from switchboard.demo.base import DemoSettings
from switchboard.demo.fleet import BackgroundFleet


@pytest.fixture(scope="package")
def fleet() -> Iterator[BackgroundFleet]:
    with demo_fleet(DemoSettings(writer_pace_ms=1, research_seconds=2, quick_research_seconds=1)) as handle:
        yield handle
