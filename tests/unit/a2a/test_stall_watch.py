"""The stall watch of follow_turn: a stall after the stream opened ends it; a slow consumer, a request not
yet answered, and a cancellation from outside do not count as one."""

from __future__ import annotations

import asyncio

import pytest

from switchboard.a2a.stall_watch import StallWatch, StreamStalledError, until_stall


async def events(watch: StallWatch, gaps: list[float], *, open_after: float = 0.0):
    """Yields 0, 1, ... after each gap; the response 'opens' `open_after` seconds into the first wait."""
    closed = []
    try:
        await asyncio.sleep(open_after)
        watch.opened()
        for n, gap in enumerate(gaps):
            await asyncio.sleep(gap)
            yield n
    finally:
        closed.append(True)  # the stream's own cleanup runs when the watch cuts it
        watch.closed = closed


async def collect(watch: StallWatch, source, consumer_delay: float = 0.0) -> list[int]:
    got = []
    async for event in until_stall(source, watch):
        got.append(event)
        await asyncio.sleep(consumer_delay)
    return got


async def test_a_stall_after_the_stream_opened_raises_and_closes_the_stream() -> None:
    watch = StallWatch(0.2)
    got: list[int] = []
    with pytest.raises(StreamStalledError):
        async for event in until_stall(events(watch, [0.01, 0.01, 5.0]), watch):
            got.append(event)
    assert got == [0, 1]
    assert watch.closed == [True]
    assert asyncio.current_task().cancelling() == 0  # its own cancellation is taken back


async def test_waiting_before_the_stream_opened_and_a_slow_consumer_are_not_stalls() -> None:
    watch = StallWatch(0.2)
    got = await collect(watch, events(watch, [0.05] * 4, open_after=0.5), consumer_delay=0.4)
    assert got == [0, 1, 2, 3]


async def test_a_cancellation_from_outside_stays_a_cancellation() -> None:
    watch = StallWatch(0.2)
    task = asyncio.create_task(collect(watch, events(watch, [0.01, 5.0])))
    await asyncio.sleep(0.1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert watch.closed == [True]


async def test_no_stall_timeout_never_fires() -> None:
    watch = StallWatch(None)
    assert await collect(watch, events(watch, [0.01, 0.3])) == [0, 1]


async def test_many_short_waits_are_not_one_long_one() -> None:
    watch = StallWatch(0.4)
    # Twice the timeout in all, each wait a quarter of it: only one wait that lasts the timeout is a stall.
    assert await collect(watch, events(watch, [0.1] * 8)) == list(range(8))
    assert not watch.fired
