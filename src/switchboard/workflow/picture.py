"""A picture of a run, whatever draws it (the TUI's run view, the HTML export's SVG): the steps as a dependency
graph laid out in layers, and a timeline with one bar per step made of its spans (each attempt, each wait for a
person). Pure data from the steps and the journal's records; no terminal, no markup.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from .summary import epoch

SpanKind = Literal["attempt", "waiting"]


@dataclass
class Span:
    kind: SpanKind
    start: float  # epoch seconds
    end: float | None  # None: still going when the records end
    attempt: int = 1


@dataclass
class StepBar:
    name: str
    spans: list[Span] = field(default_factory=list)

    @property
    def start(self) -> float | None:
        return self.spans[0].start if self.spans else None

    @property
    def end(self) -> float | None:
        ends = [s.end for s in self.spans]
        return None if not ends or None in ends else max(e for e in ends if e is not None)

    @property
    def attempts(self) -> int:
        return max((s.attempt for s in self.spans), default=0)


def layers(depends_on: Mapping[str, Iterable[str]]) -> dict[str, int]:
    """Each step's column: 0 for a step that depends on nothing, else one past its furthest dependency. Unknown
    dependencies are ignored; a cycle (refused by the workflow checks) cannot loop: a step on it gets column 0."""
    deps = {name: [d for d in needs if d in depends_on and d != name] for name, needs in depends_on.items()}
    column: dict[str, int] = {}

    def place(name: str, seen: frozenset[str]) -> int:
        if name in column:
            return column[name]
        if name in seen:
            return 0
        found = max((place(d, seen | {name}) + 1 for d in deps[name]), default=0)
        column[name] = found
        return found

    for name in deps:
        place(name, frozenset())
    return column


def columns(depends_on: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The steps by column, each column in the workflow's order."""
    placed = layers(depends_on)
    out: list[list[str]] = [[] for _ in range(max(placed.values(), default=-1) + 1)]
    for name in depends_on:
        out[placed[name]].append(name)
    return out


def timeline(records: Iterable[Mapping[str, Any]], names: Iterable[str] = ()) -> dict[str, StepBar]:
    """Per step, its spans as the journal tells them: an attempt from StepRequested to the attempt's end (the step
    ended, or failed and is retried), a wait from AwaitingInput to InputSubmitted. `names` orders the result and
    includes steps that never started (no spans)."""
    bars = {name: StepBar(name) for name in names}
    open_attempt: dict[str, Span] = {}
    open_wait: dict[str, Span] = {}
    for record in records:
        step, kind, at = record.get("step"), record.get("type"), epoch(record.get("at"))
        if not isinstance(step, str) or at is None:
            continue
        bar = bars.setdefault(step, StepBar(step))
        if kind == "StepRequested":
            _close(open_attempt.pop(step, None), at)
            span = Span("attempt", at, None, int(record.get("attempt") or 1))
            bar.spans.append(span)
            open_attempt[step] = span
        elif kind == "AwaitingInput":
            attempt = open_attempt[step].attempt if step in open_attempt else 1
            span = Span("waiting", at, None, attempt)
            bar.spans.append(span)
            open_wait[step] = span
        elif kind == "InputSubmitted":
            _close(open_wait.pop(step, None), at)
        elif kind in ("StepCompleted", "StepFailed", "StepCanceled", "StepSkipped"):  # ended, or retried
            _close(open_attempt.pop(step, None), at)
            _close(open_wait.pop(step, None), at)
    return bars


def _close(span: Span | None, at: float) -> None:
    if span is not None and span.end is None:
        span.end = at


def extent(bars: Iterable[StepBar], now: float | None = None) -> tuple[float, float] | None:
    """The first start and the last end (or `now` for what is still going) over all bars; None without spans."""
    bars = list(bars)
    starts = [s.start for b in bars for s in b.spans]
    if not starts:
        return None
    ends = [s.end if s.end is not None else (now if now is not None else s.start) for b in bars for s in b.spans]
    return min(starts), max(max(ends), min(starts))
