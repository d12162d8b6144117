"""The stall watch: a stream of events that goes silent for too long is cut, as StreamStalledError.

Some servers keep a stream open for ever after their executor died (a2a-sdk 0.3 does); the follower (follow.py)
takes a cut stream as a broken one and reconciles. Keep-alive pings are not events, so they do not count.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncGenerator, AsyncIterator
from typing import Any

from .model import StreamEvent
from .transports.base import StreamBrokenError


class StreamStalledError(StreamBrokenError):
    """No event arrived within the stall timeout."""


class StallWatch:
    """Cancels the following task once it has waited `seconds` for the next event of an opened stream.

    An event costs three attribute writes, no clock read and no timer (a stream may carry 100,000 events a
    second): the stream counts its waits and flags the one going on. One timer, due every `seconds / TICKS`,
    counts the ticks that found the same wait still going on, and cuts the stream at TICKS of them: a stall is
    noticed between `seconds` and `seconds * (1 + 1 / TICKS)` after it began. The clock runs only while an
    event is awaited, never while the consumer handles one, and not before the stream's response has begun (a
    request being retried is not a stall). Its cancellation surfaces as StreamStalledError; any other stays one.
    """

    TICKS = 4

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.loop = asyncio.get_running_loop()
        self.is_open = False
        self.fired = False
        self.waits = 0  # waits for an event begun so far
        self.waiting = False  # one of them is going on
        self._seen = -1  # the wait the last tick found going on (-1: none)
        self._ticks = 0  # ticks that have found it since
        self._task: asyncio.Task[Any] | None = None
        self._timer: asyncio.TimerHandle | None = None

    def opened(self) -> None:
        """The `on_open` callback of the stream: from now on a wait counts."""
        self.is_open = True

    def start(self) -> None:
        """Watch the current task's waits."""
        if self.seconds is not None and self._timer is None:
            self._task = asyncio.current_task()
            self._schedule()

    def _schedule(self) -> None:
        assert self.seconds is not None  # start() watches only with a limit
        # An empty context: a canceled timer stays in the loop until it is due, and the caller's context (a UI's
        # active widget, say) would stay alive with it.
        self._timer = self.loop.call_later(self.seconds / self.TICKS, self._tick, context=contextvars.Context())

    def stop(self) -> None:
        self.waiting = False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _tick(self) -> None:
        if self.waiting and self.is_open and self.waits == self._seen:
            self._ticks += 1
            if self._ticks >= self.TICKS and self._task is not None:
                self._timer = None
                self.fired = True
                self._task.cancel()
                return
        else:
            self._seen = self.waits if self.waiting and self.is_open else -1
            self._ticks = 0
        self._schedule()

    def stalled(self) -> bool:
        """After the wait ended (by an event or a cancellation): whether the watch cut it, its own
        cancellation taken back. False when someone else cancelled the task too."""
        if not self.fired:
            return False
        self.fired = False
        return self._task is not None and self._task.uncancel() == 0  # fired: _tick had a task to cancel


async def until_stall(source: AsyncIterator[StreamEvent], watch: StallWatch) -> AsyncGenerator[StreamEvent, None]:
    """The events of `source`, until it ends or `watch` finds it stalled (then StreamStalledError); it is closed
    when left early."""
    iterator = aiter(source)
    watch.start()
    try:
        while True:
            watch.waits += 1
            watch.waiting = True
            try:
                event = await anext(iterator)
            except StopAsyncIteration:
                watch.stalled()  # takes back a cancellation the stream swallowed on its way to the end
                return
            except BaseException:
                # The watch's cancellation ran through the stream, which closed its response on the way out
                # (and may have turned it into an error of its own).
                if watch.stalled():
                    raise StreamStalledError(f"no event for {watch.seconds:g} s") from None
                raise
            finally:
                watch.waiting = False
            if watch.fired and watch.stalled():  # the source swallowed the watch's cancellation (closed below)
                raise StreamStalledError(f"no event for {watch.seconds:g} s")
            yield event
    finally:
        watch.stop()
        close = getattr(iterator, "aclose", None)
        if close is not None:
            await close()  # left before its end: the stream lets go of its connection now, not when collected
