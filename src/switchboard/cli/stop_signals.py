"""The signals that end a foreground command, caught so that it stops what it started before it goes: SIGINT
(Ctrl+C), SIGTERM (`kill`, `timeout`, process managers) and SIGHUP (its terminal closed). Uncaught, SIGTERM and
SIGHUP end the process at once, leaving its children running."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterator

STOP_SIGNALS = ("SIGINT", "SIGTERM", "SIGHUP")


@contextlib.contextmanager
def stop_on_signals(stop: asyncio.Event) -> Iterator[None]:
    """While inside, each stop signal sets `stop` (on the running loop) instead of ending the process."""
    loop = asyncio.get_running_loop()
    installed = []
    for name in STOP_SIGNALS:
        number = getattr(signal, name, None)
        if number is None:
            continue
        try:
            loop.add_signal_handler(number, stop.set)
            installed.append(number)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or not POSIX
            pass
    try:
        yield
    finally:
        for number in installed:
            loop.remove_signal_handler(number)
