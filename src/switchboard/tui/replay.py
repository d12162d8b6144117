"""`switchboard replay FILE`: a recorded conversation or run, played again in the TUI as it happened, read-only.

The recording is served by replay agents (demo.replay, on a background fleet), and this app sends the recorded
messages to them through the ordinary conversation tabs, one after the other: every turn is drawn by the same
widgets, from the same events, as the first time. The composer and the prompt panes take no typing; at the original
pace the person's own pauses between messages are kept too.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from textual import work
from textual.widgets import TextArea

from ..a2a.model import Part, TextPart
from ..agents import AgentEntry
from ..demo.replay import MAX_PAUSE, served_name
from ..export.transcript import Transcript
from .app import SwitchboardApp
from .widgets.composer import Composer
from .widgets.conversation_view import ConversationView
from .widgets.prompt_pane import PromptPane

SECRET_STAND_IN = "(a secret: not in the recording)"
READ_ONLY = "a replay is read-only: the recorded messages are sent for you"
ANSWERED_FOR_YOU = "a replay is read-only: the recorded answer, if there is one, is sent for you"


@dataclass(frozen=True)
class Step:
    """One recorded message: to whom, what, and how long after the previous exchange ended it was sent."""

    agent: str
    parts: list[Part]
    secret: bool
    wait: float


def steps_of(transcript: Transcript) -> list[Step]:
    """The recording's messages in the order they were sent (re-attaches, which sent nothing, left out)."""
    from ..demo.replay import _instant

    steps: list[Step] = []
    ended: float | None = None
    for exchange in transcript.exchanges:
        if exchange.message is None:
            continue
        sent = _instant(exchange.sent_at)
        wait = min(max(sent - ended, 0.0), MAX_PAUSE) if sent is not None and ended is not None else 0.0
        parts = list(exchange.message.parts)
        if exchange.secret or not parts:
            parts = [TextPart(text=SECRET_STAND_IN)]
        steps.append(Step(served_name(exchange.agent), parts, exchange.secret, wait))
        last = exchange.events[-1].at if exchange.events else exchange.sent_at
        ended = _instant(last) or sent
    return steps


def _ready(view: ConversationView) -> bool:
    """Connected, with no turn going or being canceled: the next message can be sent."""
    return view.conversation is not None and not view.running and not view.canceling


def _turn_ended(view: ConversationView, before: int) -> bool:
    """The turn sent after `before` turns has begun and ended."""
    return view.conversation is not None and len(view.conversation.turns) > before and not view.running


class ReplayApp(SwitchboardApp):
    """The TUI on the replay agents only, playing `steps` through conversation tabs; `done` is set at the end."""

    def __init__(self, steps: list[Step], agents: list[AgentEntry], source: Path, *, paced: bool, **kwargs) -> None:
        kwargs.setdefault("subtitle", f"replay of {source.name} (read-only)")
        super().__init__(source.parent / ".switchboard-replay-no-agents.yaml", extra_agents=agents, **kwargs)
        self.steps = steps
        self.paced = paced
        self.source = source
        self.done = asyncio.Event()
        self.views: dict[str, ConversationView] = {}
        self._changed = asyncio.Event()

    def on_mount(self) -> None:
        super().on_mount()
        # A prompt pane is mounted after its turn ends: every frame, whatever appeared is made read-only.
        self.set_interval(1 / 30, self._all_read_only)
        self.call_after_refresh(self.play)

    def _all_read_only(self) -> None:
        for view in self.views.values():
            self._read_only(view)

    async def _until(self, ready: Callable[[], bool]) -> None:
        """Wait until `ready()`: woken by each change a conversation reports, and looking again every frame."""
        while not ready():
            self._changed.clear()
            try:
                await asyncio.wait_for(self._changed.wait(), 1 / 30)
            except TimeoutError:
                pass

    @work(exclusive=True, group="replay")
    async def play(self) -> None:
        entries = {e.name: e for e in self.extra_agents}
        for number, step in enumerate(self.steps, start=1):
            view = await self._view(step.agent, entries[step.agent])
            await self._until(partial(_ready, view))
            if self.paced and step.wait:
                await asyncio.sleep(step.wait)
            self.sub_title = f"replay of {self.source.name}: message {number} of {len(self.steps)} (read-only)"
            assert view.conversation is not None  # waited for above
            before = len(view.conversation.turns)
            if not view.send(step.parts, secret=step.secret):
                break
            # The turn starts on the view's worker: wait for it to begin, then to end.
            await self._until(partial(_turn_ended, view, before))
        self.sub_title = f"replay of {self.source.name}: all {len(self.steps)} message(s) played (read-only)"
        self.notify(f"Replay finished: {len(self.steps)} message(s) from {self.source.name}.", title="replay")
        self.done.set()

    async def _view(self, agent: str, entry: AgentEntry) -> ConversationView:
        view = self.views.get(agent)
        if view is None:
            from .screens.main import MainScreen

            await self._until(lambda: isinstance(self.screen, MainScreen))
            main = self.screen
            assert isinstance(main, MainScreen)  # waited for just above
            view = await main.open_conversation(await self.check(entry))
            self.views[agent] = view
            self.watch(view, "busy", self._changed.set, init=False)  # a turn's end wakes the replay at once
            await self._until(lambda: bool(view.query(Composer)))
            self._read_only(view)
        return view

    def _read_only(self, view: ConversationView) -> None:
        """Every box says it takes no typing (disabled, it looked editable, "enter sends", and dropped the keys)."""
        for composer in view.query(Composer):
            areas = composer.query("#message").results(TextArea)  # none yet while the composer is being composed
            if any(not area.read_only for area in areas):
                composer.make_read_only(READ_ONLY)
        for pane in view.query(PromptPane):
            if not pane.has_class("-replayed"):
                pane.add_class("-replayed")
                pane.make_read_only(ANSWERED_FOR_YOU)
