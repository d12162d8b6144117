"""A turn as it happened: each event with the time it arrived, kept so that an export can replay it.

Replayed in order into a fresh TaskView, the kept events build the view the turn built; the first `chunks`
artifact updates are kept one by one, so a replay serves a stream chunk for chunk as it came. Two things keep
the recording small under a flood: past those, consecutive text chunks of one artifact are kept as one update
(replayed, they add up to the same artifact), and past `limit` characters of artifact text no further chunk
is kept. A
recording that stopped keeping chunks says so (`complete` is False); whoever exports it ends it with the
view's own snapshot, which brings the artifacts to where the turn left them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime

from .model import ArtifactUpdate, StreamEvent, TextPart

RECORD_LIMIT = 4_000_000  # characters of artifact text a recording keeps
CHUNK_LIMIT = 5_000  # artifact updates a recording keeps one by one before it joins consecutive chunks


def now_iso() -> str:
    """The current time as ISO 8601 UTC with milliseconds (`2026-03-15T10:15:00.123Z`)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass(slots=True)
class Recorded:
    at: str  # ISO 8601 UTC, when the event arrived (the first chunk of a merged update)
    event: StreamEvent


def _plain_text(update: ArtifactUpdate) -> TextPart | None:
    """The one text part of an update that carries nothing else (no metadata, no other part), else None."""
    parts = update.artifact.parts
    if update.metadata or update.artifact.metadata or len(parts) != 1 or type(parts[0]) is not TextPart:
        return None
    return parts[0] if parts[0].metadata is None else None


@dataclass
class Recording:
    limit: int = -1  # characters of artifact text kept; -1: RECORD_LIMIT
    chunks: int = CHUNK_LIMIT  # artifact updates kept one by one
    complete: bool = True  # False once a chunk was left out (past the limit)
    _kept: list[Recorded] = field(default_factory=list)
    _run: list[str] = field(default_factory=list)  # text that extends the last kept update
    _run_last: bool | None = None  # lastChunk of the newest chunk in the run
    _chars: int = 0

    def __post_init__(self) -> None:
        if self.limit < 0:
            self.limit = RECORD_LIMIT

    def add(self, event: StreamEvent, at: str | None = None) -> None:
        if type(event) is ArtifactUpdate:
            text = _plain_text(event)
            parts = event.artifact.parts
            size = len(text.text) if text is not None else sum(len(getattr(p, "text", "")) for p in parts)
            if self._chars + size > self.limit:
                self.complete = False
                return
            self._chars += size
            if self.chunks > 0:
                self.chunks -= 1
            elif text is not None and event.append and self._extends(event, text):
                self._run.append(text.text)
                self._run_last = event.last_chunk
                return
        self._close_run()
        self._kept.append(Recorded(at or now_iso(), event))

    def _extends(self, update: ArtifactUpdate, text: TextPart) -> bool:
        """`update` continues the newest kept update: same task and artifact, which is open and plain text."""
        if not self._kept:
            return False
        last = self._kept[-1].event
        if type(last) is not ArtifactUpdate or (self._run_last if self._run else last.last_chunk):
            return False
        head = _plain_text(last)
        artifact, previous = update.artifact, last.artifact
        return (
            head is not None
            and head.media_type == text.media_type
            and last.task_id == update.task_id
            and previous.artifact_id == artifact.artifact_id
            and artifact.name in (None, previous.name)
            and artifact.description in (None, previous.description)
        )

    def _close_run(self) -> None:
        if not self._run:
            return
        entry = self._kept[-1]
        last = entry.event
        assert type(last) is ArtifactUpdate
        head = last.artifact.parts[0]
        assert type(head) is TextPart  # a run is text read on from a text part
        joined = head.model_copy(update={"text": head.text + "".join(self._run)})
        artifact = last.artifact.model_copy(update={"parts": [joined]})
        entry.event = last.model_copy(update={"artifact": artifact, "last_chunk": self._run_last})
        self._run, self._run_last = [], None

    @property
    def events(self) -> list[Recorded]:
        self._close_run()
        return list(self._kept)
