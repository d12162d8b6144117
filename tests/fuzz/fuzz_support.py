"""What every fuzz test shares: its budget. `make test` runs a short, repeatable one; `make fuzz` a long, random one.

SWITCHBOARD_FUZZ=long (what `make fuzz` sets) turns every fuzz test into a long random search; otherwise each runs
the same few hundred examples every time, so a CI failure is one a person can reproduce.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, TypeVar

from hypothesis import HealthCheck, settings

LONG = os.environ.get("SWITCHBOARD_FUZZ") == "long"
LONG_FACTOR = 100  # how many times the short budget a long run tries

F = TypeVar("F", bound=Callable[..., Any])


def fuzz(examples: int = 200) -> Callable[[F], F]:
    """Hypothesis settings for a fuzz test: `examples` in `make test`, LONG_FACTOR times as many in `make fuzz`."""
    return settings(
        max_examples=examples * LONG_FACTOR if LONG else examples,
        derandomize=not LONG,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )
