"""The turn reducer: folds stream events into a TaskView.

Pure and synchronous: `TaskView.apply(event)` is all there is, so the CLI, the TUI and the workflow engine
see the same task the same way. Artifact chunks are joined exactly as sent; snapshots reconcile.

Events in an order the protocol does not allow (another task's events, a state change after a terminal
state, chunks after the last chunk, `append` to an artifact never seen) never raise: each becomes a note.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from .model import (
    INTERRUPTED_STATES,
    TERMINAL_STATES,
    Artifact,
    ArtifactUpdate,
    Message,
    Part,
    Role,
    StatusUpdate,
    StreamEvent,
    Task,
    TaskState,
    TaskStatus,
    TextPart,
    text_of,
)
from .spill import TextSpill
from .wire.common import Notes

SPILL_AFTER = 1_000_000  # characters of one artifact's text kept in memory; the rest waits on disk
# The timeline keeps every state change and the newest TIMELINE_RECENT statuses; the statuses between
# that repeat their predecessor's state are dropped (and counted), so an endless stream of "working"
# statuses holds it at a bound. TIMELINE_LIMIT bounds even a stream that keeps changing state.
TIMELINE_RECENT = 64
TIMELINE_LIMIT = 1_024
# The history keeps the newest HISTORY_LIMIT messages: a stream whose every status carries a new message
# would otherwise grow it for ever.
HISTORY_LIMIT = 1_024
_ENDS_TURN = TERMINAL_STATES | INTERRUPTED_STATES


def same_status(a: TaskStatus | None, b: TaskStatus | None) -> bool:
    """`a` and `b` are one status reported twice: same state, time and message."""
    return (
        a is not None
        and b is not None
        and a.state == b.state
        and a.timestamp == b.timestamp
        and (a.message.message_id if a.message else None) == (b.message.message_id if b.message else None)
    )


def question_of(status: TaskStatus | None, history: list[Message], last_artifact: list[Part] | None) -> list[Part]:
    """What a task asks while it waits: its status message; else the newest agent message since the caller's last
    message (some stacks put the question only in the history); else its last artifact."""
    if status is not None and status.message is not None and status.message.parts:
        return list(status.message.parts)
    for message in reversed(history):
        if message.role is not Role.AGENT:
            break
        if message.parts:
            return list(message.parts)
    return list(last_artifact or [])


def task_question(task: Task) -> list[Part]:
    """question_of for a whole Task."""
    return question_of(task.status, task.history or [], task.artifacts[-1].parts if task.artifacts else None)


def _reads_on(last: Part, part: Part) -> bool:
    """`part` continues the text of `last`: both text parts without metadata, of one media type."""
    return (
        type(part) is TextPart
        and type(last) is TextPart
        and part.metadata is None
        and last.metadata is None
        and part.media_type == last.media_type
    )


class ArtifactView:
    """One artifact as its chunks built it.

    Text that follows text of the same media type (text parts without metadata) is held as a run of
    strings, and shows as one text part once `parts` is read: an object per chunk would make every garbage
    collection walk all of them, and the run is joined once per read, not once per chunk.
    """

    def __init__(
        self, artifact_id: str, name: str | None = None, description: str | None = None, parts: list[Part] | None = None
    ) -> None:
        self.artifact_id = artifact_id
        self.name = name
        self.description = description
        self._parts: list[Part] = list(parts or [])
        self._run: list[str] = []  # text that reads on from _parts[-1], itself a text part
        self.closed = False  # lastChunk seen
        self.chunks = 0
        # Text beyond the memory bound, moved out of `parts` in order: it comes before the text still in `parts`.
        self.spill: TextSpill | None = None
        self.held = 0  # characters of text added to `parts` since the last spill
        self._spilled_type: str | None = None  # the text's media type, once its first part is on disk

    def __repr__(self) -> str:
        return f"ArtifactView({self.artifact_id!r}, name={self.name!r}, chunks={self.chunks}, closed={self.closed})"

    @property
    def parts(self) -> list[Part]:
        if self._run:
            head = self._parts[-1]
            assert type(head) is TextPart  # _run holds text that reads on from a text part (see extend)
            self._parts[-1] = head.model_copy(update={"text": head.text + "".join(self._run)})
            self._run = []
        return self._parts

    @parts.setter
    def parts(self, parts: list[Part]) -> None:
        self._parts, self._run = parts, []

    def extend(self, parts: list[Part]) -> None:
        """Append a chunk's parts."""
        for part in parts:
            if type(part) is TextPart and self._parts and _reads_on(self._parts[-1], part):
                self._run.append(part.text)
            else:
                self.parts.append(part)

    @property
    def text(self) -> str:
        return self.text_from(0)

    @property
    def text_media_type(self) -> str | None:
        """The media type the artifact's text says it is (its first text part's), or None when it says none."""
        if self.spill is not None:
            return self._spilled_type
        return next((p.media_type for p in self.parts if type(p) is TextPart), None)

    @property
    def text_length(self) -> int:
        return (self.spill.length if self.spill else 0) + sum(
            len(p.text) for p in self.parts if isinstance(p, TextPart)
        )

    def text_from(self, offset: int, end: int | None = None) -> str:
        """The text from character `offset` to `end`, reading the spilled part from disk only when asked for
        and joining only the parts in range (a renderer asks for the newest few characters many times)."""
        spill = self.spill
        spilled = spill.length if spill else 0
        head = spill.read(offset, end) if spill and offset < spilled else ""
        if end is not None and end <= spilled:
            return head
        pieces, at = [], spilled
        for part in self.parts:
            if not isinstance(part, TextPart):
                continue
            start, at = at, at + len(part.text)
            if at <= offset:
                continue
            if end is not None and start >= end:
                break
            pieces.append(part.text[max(0, offset - start) : None if end is None else end - start])
        return head + "".join(pieces)

    def text_blocks(self) -> Iterator[str]:
        """The whole text in blocks, for writing it out without holding it all at once."""
        if self.spill:
            yield from self.spill.blocks()
        yield text_of(self.parts)

    def spill_text(self) -> None:
        """Move the text held in `parts` to disk (non-text parts stay)."""
        if self.spill is None:
            self._spilled_type = self.text_media_type
            self.spill = TextSpill()
        self.spill.append(text_of(self.parts))
        self.parts = [p for p in self.parts if not isinstance(p, TextPart)]
        self.held = 0

    def to_artifact(self) -> Artifact:
        parts = self.parts if self.spill is None else [TextPart(text=self.spill.read()), *self.parts]
        return Artifact(artifact_id=self.artifact_id, name=self.name, description=self.description, parts=parts)


@dataclass
class TaskView:
    """Everything known about one task (or a direct message reply) after the events seen so far."""

    task_id: str | None = None
    context_id: str | None = None
    status: TaskStatus | None = None
    artifacts: dict[str, ArtifactView] = field(default_factory=dict)
    history: list[Message] = field(default_factory=list)  # bounded: the newest HISTORY_LIMIT
    history_dropped: int = 0  # messages seen but no longer in the history
    timeline: list[TaskStatus] = field(default_factory=list)  # bounded: see TIMELINE_RECENT
    timeline_dropped: int = 0  # statuses seen but no longer in the timeline
    reply: Message | None = None  # the agent answered with a Message, no task
    events: int = 0
    # An artifact holding more text than this in memory moves it to a temporary file (None: never).
    spill_after: int | None = SPILL_AFTER
    notes: Notes = field(default_factory=Notes)  # protocol oddities seen, as lint warnings
    # The interrupted status a follow-up answers. A stack may report it again as the turn opens (the task as it
    # stood when the answer arrived): that is not news, and changes neither the status nor the timeline.
    answered: TaskStatus | None = None
    _seen_messages: set[str] = field(default_factory=set, repr=False)

    @property
    def state(self) -> TaskState | None:
        return self.status.state if self.status else None

    @property
    def turn_over(self) -> bool:
        """True once the task is terminal or waits for the caller, or the agent replied directly."""
        # Read after every event of a stream, so without the properties on the way.
        return self.reply is not None or (self.status is not None and self.status.state in _ENDS_TURN)

    @property
    def status_text(self) -> str:
        return self.status.message.text if self.status and self.status.message else ""

    @property
    def question(self) -> list[Part]:
        """What the task asks, wherever the agent put it (see question_of)."""
        last = next(reversed(self.artifacts.values()), None)
        return question_of(self.status, self.history, last.parts if last is not None else None)

    @property
    def output_text(self) -> str:
        """The task's text output: its artifacts' text, else the status message, else the direct reply."""
        text = "".join(a.text for a in self.artifacts.values())
        if text:
            return text
        if self.reply is not None:
            return self.reply.text
        return self.status_text

    def apply(self, event: StreamEvent) -> TaskView:
        self.events += 1
        # type(), not isinstance(): the models' metaclass (an ABCMeta) makes an isinstance() that fails slow, and
        # this runs for every event of a stream. The event classes are final (model.py), so type() tells them apart.
        task_id = event.id if type(event) is Task else event.task_id
        if task_id and self.task_id and task_id != self.task_id:
            self.notes.add(f"ignored a {event.kind} for task {task_id:.60}, not this task ({self.task_id:.60})")
            return self
        if type(event) is ArtifactUpdate:
            if self.context_id is None or self.task_id is None:
                self._ids(event.task_id, event.context_id)
            self._artifact(event)
        elif type(event) is StatusUpdate:
            if self.context_id is None or self.task_id is None:
                self._ids(event.task_id, event.context_id)
            self._status(event.status)
        elif type(event) is Task:
            self._snapshot(event)
        elif type(event) is Message:
            self._ids(event.task_id, event.context_id)
            if event.task_id is None:  # a direct reply: the agent made no task
                self.reply = event
            self._remember(event)
        return self

    def to_task(self) -> Task | None:
        """The view as a Task (for output), or None when no task exists."""
        if self.task_id is None or self.context_id is None or self.status is None:
            return None
        return Task(
            id=self.task_id,
            context_id=self.context_id,
            status=self.status,
            artifacts=[a.to_artifact() for a in self.artifacts.values()] or None,
            history=self.history or None,
        )

    # --- internals -------------------------------------------------------------------------------------

    def _ids(self, task_id: str | None, context_id: str | None) -> None:
        if task_id and self.task_id is None:
            self.task_id = task_id
        if context_id and self.context_id is None:
            self.context_id = context_id

    def _remember(self, message: Message) -> None:
        if message.message_id not in self._seen_messages:
            self._seen_messages.add(message.message_id)
            self.history.append(message)
            if len(self.history) > HISTORY_LIMIT:
                self._seen_messages.discard(self.history.pop(0).message_id)
                self.history_dropped += 1

    def _status(self, status: TaskStatus) -> None:
        if self.answered is not None and same_status(status, self.answered):
            return
        if self.state is not None and self.state.is_terminal and status.state != self.state:
            # A terminal state is final: a later change is the agent's mistake, not news.
            self.notes.add(f"ignored state {status.state.value} after the task ended {self.state.value}")
            return
        previous = self.timeline[-1] if self.timeline else None
        same = (
            previous is not None
            and previous.state == status.state
            and previous.timestamp == status.timestamp
            and (previous.message.message_id if previous.message else None)
            == (status.message.message_id if status.message else None)
        )
        if not same:
            self._add_to_timeline(status)
        self.status = status
        if status.message is not None:
            self._remember(status.message)

    def _add_to_timeline(self, status: TaskStatus) -> None:
        """Every entry older than the newest TIMELINE_RECENT is a state change: the one that just left the
        recent window goes unless its state differs from the entry before it (which, kept, has the state
        of everything dropped after it)."""
        timeline = self.timeline
        timeline.append(status)
        leaving = len(timeline) - TIMELINE_RECENT - 1
        if leaving > 0 and timeline[leaving].state == timeline[leaving - 1].state:
            del timeline[leaving]
            self.timeline_dropped += 1
        if len(timeline) > TIMELINE_LIMIT:  # a stream that keeps changing state: the first entry stays
            del timeline[1]
            self.timeline_dropped += 1

    def _artifact(self, update: ArtifactUpdate) -> None:
        incoming = update.artifact
        view = self.artifacts.get(incoming.artifact_id)
        if view is None and update.append:
            self.notes.add(f"append to artifact {incoming.artifact_id:.60}, which never started; taken as its start")
        elif view is not None and view.closed:
            self.notes.add(f"artifact {incoming.artifact_id:.60} got another chunk after its last chunk")
        if view is None or not update.append:
            # A new artifact, or `append` absent/false on a known id: the chunk replaces what was there.
            view = ArtifactView(incoming.artifact_id)
            self.artifacts[incoming.artifact_id] = view
            view.parts = list(incoming.parts)
        else:
            view.extend(incoming.parts)
        view.name = incoming.name or view.name
        view.description = incoming.description or view.description
        view.chunks += 1
        view.closed = bool(update.last_chunk)
        self._bound(view, incoming.parts)

    def _snapshot(self, task: Task) -> None:
        """A full Task: authoritative for status, and for every artifact it lists."""
        self._ids(task.id, task.context_id)
        history = task.history or []
        if self.history_dropped:
            # A snapshot lists the whole history, oldest first: what comes before the newest message this view
            # still holds is older, and may be what it dropped. Only what follows is news.
            known = [i for i, m in enumerate(history) if m.message_id in self._seen_messages]
            history = history[known[-1] + 1 :] if known else history
        for message in history:
            self._remember(message)
        for artifact in task.artifacts or []:
            existing = self.artifacts.get(artifact.artifact_id)
            view = ArtifactView(artifact.artifact_id, artifact.name, artifact.description, list(artifact.parts))
            view.chunks = existing.chunks if existing else 1
            view.closed = task.status.state.is_terminal or (existing.closed if existing else False)
            self.artifacts[artifact.artifact_id] = view
            self._bound(view, view.parts)
        self._status(task.status)

    def _bound(self, view: ArtifactView, added: list[Part]) -> None:
        if self.spill_after is None:
            return
        for part in added:  # a loop, not sum() over a generator: this runs once per chunk
            if isinstance(part, TextPart):
                view.held += len(part.text)
        if view.held > self.spill_after:
            view.spill_text()
