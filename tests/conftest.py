"""Hypothesis runs the same examples every time and keeps no example database: CI stays stable."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

settings.register_profile(
    "switchboard",
    database=None,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile("switchboard")
