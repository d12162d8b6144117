"""A conversation with one agent: turns in one context, and answers to a task that waits for input.

Pure protocol logic with no terminal: the TUI renders a Conversation, tests drive one directly.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import aclosing
from dataclasses import dataclass, field

from .a2a.cancel import CancelOutcome
from .a2a.client import new_message
from .a2a.errors import SwitchboardError
from .a2a.follow import FollowPolicy, Notice, TurnEvent
from .a2a.model import Message, Part, TaskState, TextPart
from .a2a.recording import Recording, now_iso
from .a2a.tap import Tap
from .a2a.turn import TaskView
from .a2a.user_input import check_message_texts
from .a2ui.surfaces import SurfaceSet, take_event
from .link import AgentLink
from .push.receiver import PushReceiver
from .watch import watch_task


@dataclass
class Turn:
    """One message from the person and everything the agent sent back for it."""

    message: Message
    view: TaskView = field(default_factory=TaskView)
    notices: list[Notice] = field(default_factory=list)
    error: SwitchboardError | None = None
    secret: bool = False  # the message is a credential: shown masked, never logged
    running: bool = True
    sent_at: str = field(default_factory=now_iso)
    recording: Recording = field(default_factory=Recording)  # the events as they came, for exports

    @property
    def lost(self) -> bool:
        """The turn broke for good (the stream and every read of the task failed: the agent went away) with its
        task not over: the state the agent last reported is not known to hold any more."""
        return self.error is not None and not self.running and self.view.state is not None and not self.view.turn_over


class Conversation:
    def __init__(self, link: AgentLink, *, tap: Tap | None = None, policy: FollowPolicy | None = None) -> None:
        self.link = link
        self.tap = tap
        self.policy = policy
        self.turns: list[Turn] = []
        self.context_id: str | None = None
        self.surfaces = SurfaceSet()  # the A2UI surfaces the agent's messages made, live across turns

    @property
    def last(self) -> Turn | None:
        return self.turns[-1] if self.turns else None

    @property
    def waiting(self) -> TaskState | None:
        """input-required or auth-required when the last turn stopped to ask the person something."""
        last = self.last
        if last and not last.running and last.view.state and last.view.state.is_interrupted:
            return last.view.state
        return None

    @property
    def running(self) -> bool:
        return bool(self.last and self.last.running)

    @property
    def task_id(self) -> str | None:
        return self.last.view.task_id if self.last else None

    def next_message(self, parts: list[Part]) -> Message:
        """A follow-up to a waiting task goes to that task; anything else starts a task in this context."""
        waiting_task = self.task_id if self.waiting else None
        metadata = self.surfaces.metadata(getattr(self.link, "a2ui", None))
        return new_message(parts, task_id=waiting_task, context_id=self.context_id, metadata=metadata)

    async def send(self, parts: list[Part] | str, *, secret: bool | None = None) -> AsyncIterator[TurnEvent]:
        """Send a message and yield the turn's events; the Turn in `self.turns` follows along.

        `secret`: the message is a credential (masked, redacted everywhere). Unsaid, it is one when it answers a task
        waiting at auth-required, wherever the person typed it: the message box as much as the masked prompt.
        """
        if isinstance(parts, str):
            parts = [TextPart(text=parts)]
        if secret is None:
            secret = self.waiting is TaskState.AUTH_REQUIRED
        check_message_texts([p.text for p in parts if isinstance(p, TextPart)])
        if secret and self.tap:
            # A credential typed into the prompt must not show in the wire view either.
            self.tap.redactor.add(*(p.text for p in parts if isinstance(p, TextPart)))
        turn = Turn(self.next_message(parts), secret=secret)
        if turn.message.task_id and self.last is not None:
            turn.view.answered = self.last.view.status  # a stack may report it again as the answer's turn opens
        self.turns.append(turn)
        try:
            # Closed with this generator (a reader that stops early lets go of the connection at once).
            async with aclosing(self.link.follow(turn.message, self.policy)) as events:
                async for event in events:
                    self._take(turn, event)
                    yield event
        except SwitchboardError as exc:
            turn.error = exc
            raise
        finally:
            turn.running = False

    async def reattach(self) -> AsyncIterator[TurnEvent]:
        """Follow the last turn's task again (after the view was closed or the stream given up on)."""
        turn = self.last
        if turn is None or turn.view.task_id is None:
            return
        turn.running = True
        try:
            async with aclosing(self.link.resume(turn.view.task_id, self.policy)) as events:
                async for event in events:
                    self._take(turn, event)
                    yield event
        finally:
            turn.running = False

    async def watch(self, receiver: PushReceiver | None) -> AsyncIterator[TurnEvent]:
        """Follow the last turn's task with no stream (the stream was let go of, or broke for good): by the agent's
        pushes to `receiver` where it sends them, else by polling get-task (watch.py). Events fold into the turn's
        view as a stream's do; the watch ends with the turn (the task ended, or asks something)."""
        turn = self.last
        if turn is None or turn.view.task_id is None or turn.view.turn_over:
            return
        turn.running, turn.error = True, None
        try:
            async with aclosing(watch_task(self.link, turn.view.task_id, turn.view, receiver)) as events:
                async for event in events:
                    if isinstance(event, Notice):
                        turn.notices.append(event)
                    else:
                        turn.recording.add(event)  # the view has it already: watch_task applies each event
                        take_event(self.surfaces, event)
                    yield event
        except SwitchboardError as exc:
            turn.error = exc
            raise
        finally:
            turn.running = False

    async def cancel(self) -> CancelOutcome | None:
        """Cancel the task of the last turn (None when there is none). The turn's view takes the agent's answer
        once the agent reports the task ended; an answer from before the cancel took effect changes nothing."""
        if not self.task_id:
            return None
        outcome = await self.link.cancel(self.task_id)
        if self.last and outcome.confirmed:
            self.last.view.apply(outcome.task)
            self.last.recording.add(outcome.task)
        return outcome

    def _take(self, turn: Turn, event: TurnEvent) -> None:
        if isinstance(event, Notice):
            turn.notices.append(event)
            return
        turn.view.apply(event)
        turn.recording.add(event)
        take_event(self.surfaces, event)
        if turn.view.context_id and self.context_id is None:
            self.context_id = turn.view.context_id
