"""Fixtures of the export tests: the demo fleet, on free ports, for the whole package."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tui_support import demo_fleet

from switchboard.demo.base import DemoSettings
from switchboard.demo.fleet import BackgroundFleet


@pytest.fixture(scope="package")
def fleet() -> Iterator[BackgroundFleet]:
    with demo_fleet(DemoSettings(writer_pace_ms=1, research_seconds=2, quick_research_seconds=1)) as handle:
        yield handle
