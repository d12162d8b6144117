"""Several subscriptions to one task while the probe cancels it (§3.5.2 Streaming Event Delivery): events go to
every open stream, each stream gets the same events in the same order, and closing one does not affect the others.
The probe opens one subscription (the one deeper.judge_watch judges: it MUST show the task's end), then a second,
then a third that it closes after its first event; after the cancel, the second MUST have shown the same events as
the first, to the end. Each is opened once the one before it gave its first event, so the first is the oldest."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..a2a.model import ArtifactUpdate, StatusUpdate, StreamEvent, Task
from . import deeper
from .deeper import WATCH_BOUND, Watch
from .streams import summary

if TYPE_CHECKING:
    from .interface_probe import Probe

SCENARIO, KEY, OP = "subscribe: two streams", "subscribe: every stream", "subscribe"


@dataclass
class Watches:
    first: Watch
    second: Watch | None  # None: it did not open (an error, or no first event within WATCH_BOUND)
    second_error: str = ""
    third_opened: bool = False


async def open_watches(p: Probe, task_id: str) -> Watches | None:
    """Three subscriptions to the task, one after the other (the third closed at once); None when the first does
    not open (deeper.open_watch)."""
    first = await deeper.open_watch(p, task_id)
    if first is None:
        return None
    watches = Watches(first, await deeper.open_watch(p, task_id))
    if watches.second is None:
        watches.second_error = f"no event within {WATCH_BOUND:g} s"
    third = await deeper.open_watch(p, task_id)
    if third is not None:
        watches.third_opened = True
        await deeper.close_watch(third)  # closing one stream MUST NOT affect the others
    return watches


async def close_watches(watches: Watches) -> None:
    for watch in (watches.first, watches.second):
        if watch is not None:
            await deeper.close_watch(watch)


async def judge_watches(p: Probe, watches: Watches, canceled: bool) -> None:
    """The first subscription (deeper.judge_watch), then the second beside it."""
    await deeper.judge_watch(p, watches.first, canceled)
    second = watches.second
    if second is None:
        if canceled:
            said = f"a second subscription to the task did not open ({watches.second_error})"
            p.judge(KEY, False, said, op=OP, answered="no event", scenario=SCENARIO)
        else:
            p.add(SCENARIO, "skip", "the cancel did not end the task: nothing to compare", op=OP)
        return
    still_open = await deeper.still_open_after_bound(second)
    await close_watches(watches)
    first_end = _ended(watches.first.events)
    if not canceled or not first_end:
        p.add(SCENARIO, "skip", "the first subscription did not show the task's end: nothing to compare", op=OP)
        return
    answered = f"first: {summary(watches.first.events)}; second: {summary(second.events)}"
    third = " (and a third closed after its first event)" if watches.third_opened else ""
    if still_open:
        said = f"the task ended, and the second subscription{third} was still open {WATCH_BOUND:g} s later"
        p.judge(KEY, False, said, op=OP, answered=answered, scenario=SCENARIO)
    elif not _ended(second.events):
        said = f"the first subscription showed the task's end; the second{third} closed without it"
        p.judge(KEY, False, said, op=OP, answered=answered, scenario=SCENARIO)
    elif _after_first(watches.first.events) != _after_first(second.events):
        said = f"the two subscriptions{third} were sent different events after their Task"
        p.judge(KEY, False, said, op=OP, answered=answered, scenario=SCENARIO)
    else:
        said = f"two subscriptions{third} were sent the same events, to the task's end"
        p.judge(KEY, True, said, op=OP, answered=answered, scenario=SCENARIO)


def _ended(events: list[StreamEvent]) -> bool:
    states = [e.status.state for e in events if isinstance(e, Task | StatusUpdate)]
    return bool(states) and states[-1].is_terminal


def _after_first(events: list[StreamEvent]) -> list[tuple[str, str]]:
    """Each event after the opening one, as its kind and what it says (a state, an artifact's id)."""
    out = []
    for event in events[1:]:
        if isinstance(event, Task | StatusUpdate):
            out.append((type(event).__name__, event.status.state.value))
        elif isinstance(event, ArtifactUpdate):
            out.append(("ArtifactUpdate", event.artifact.artifact_id))
        else:
            out.append((type(event).__name__, ""))
    return out
