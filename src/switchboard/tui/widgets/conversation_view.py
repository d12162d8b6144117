"""One conversation: the transcript, the prompt pane when the agent asks, and the message box.

A worker per turn consumes the Conversation's events; the transcript is synced from the task view at most
once per frame, so a flood of chunks costs one render per frame, and no chunk is dropped (they are all in
the view, which is what gets rendered).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from typing import TYPE_CHECKING, cast

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.css.query import NoMatches
from textual.reactive import var
from textual.widget import Widget
from textual.widgets import Static

from ...a2a.auth.sign_in_offer import SignInOffer, oauth_source, sign_in_offer
from ...a2a.errors import SwitchboardError
from ...a2a.follow import TurnEvent
from ...a2a.model import Part, TaskState, TextPart
from ...agent_status import AgentStatus
from ...conversation import Conversation, Turn
from ...link import AgentLink
from ...safe_text import strip_controls
from ..hints import error_text
from ..typed_app import switchboard_app
from .a2ui.actions_host import FormActions
from .composer import Composer
from .conversation_saving import SavingActions
from .markdown_pages import TranscriptScroll
from .prompt_pane import PromptPane
from .send_refusal import send_refusal
from .throttle import FrameThrottle
from .transcript import NoteLine, TurnView, UserMessage, turn_state
from .visibility import being_removed, in_shown_tab

if TYPE_CHECKING:
    from ..open_work import OpenWork

FRAME = 1 / 30  # the transcript is re-rendered at most this often while a stream floods in
SLOWEST = 0.25  # and at least this often, however long a render takes


class ConversationView(FormActions, SavingActions, Vertical):
    app = switchboard_app  # typed: the app's own attributes (tui/typed_app.py)

    BINDINGS = [
        Binding("ctrl+g", "cancel_task", "Cancel task", id="conversation.cancel"),
        Binding("ctrl+s", "save_artifacts", "Save artifacts", id="conversation.save"),
        # The footer is full: the README lists it, and so does the keys panel (ctrl+p, "keys").
        Binding("ctrl+b", "let_stream_go", "Stop streaming", id="conversation.let_go", show=False),
    ]

    # What the tab shows of the turn, set as it starts, ends or asks (the main screen watches them; the replay
    # too). `running` and `waiting` read the conversation itself, at once.
    busy: var[bool] = var(False, toggle_class="-running")
    asking: var[bool] = var(False, toggle_class="-waiting")
    # ctrl+g is offered (the footer, the message box's hint) only while the last turn's task can be canceled.
    cancelable: var[bool] = var(False)

    def __init__(self, status: AgentStatus, prefill: str = "", *, link: AgentLink | None = None, **kwargs):
        super().__init__(classes="conversation", **kwargs)
        self.status = status
        self.prefill = prefill
        self.link = link
        self.conversation: Conversation | None = None
        self._turn_view: TurnView | None = None
        self._throttle = FrameThrottle(self, self._sync, FRAME)
        self._sync_lock = asyncio.Lock()
        self._followed_to = 0
        self._head_shown: Content | None = None
        self._canceling = False
        self._link_noted = 0  # the client's notes shown
        self._link_error: SwitchboardError | None = None  # why there is no link: said when the person sends

    @property
    def agent_name(self) -> str:
        return self.status.entry.name

    @property
    def waiting(self) -> TaskState | None:
        return self.conversation.waiting if self.conversation else None

    @property
    def running(self) -> bool:
        return bool(self.conversation and self.conversation.running)

    @property
    def canceling(self) -> bool:
        """A CancelTask request is on its way; the stream was already let go."""
        return self._canceling

    @property
    def _connected(self) -> Conversation:
        """The conversation, in what runs only once connected (a turn, a cancel)."""
        assert self.conversation is not None, "no conversation before connecting"
        return self.conversation

    def _state_changed(self) -> None:
        """The turn started, ended, or began or stopped waiting for the person."""
        self.busy = self.running
        self.asking = self.waiting is not None
        self.cancelable = self._can_cancel()
        if self._gone():
            return  # called after an await (a render, a mount): the tab may have begun to close in it
        for composer in self.query(Composer):
            composer.mask(self.waiting is TaskState.AUTH_REQUIRED, strip_controls(self.agent_name))

    def _can_cancel(self) -> bool:
        """The last turn has a task that has not ended, and no cancel of it is on its way."""
        last = self.conversation.last if self.conversation else None
        if last is None or not last.view.task_id or self._canceling:
            return False
        return not (last.view.state is not None and last.view.state.is_terminal)

    def watch_cancelable(self, cancelable: bool) -> None:
        self.refresh_bindings()
        if not self._gone():
            for composer in self.query(Composer):
                composer.offer_cancel(cancelable)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # A key that would do nothing is not offered: the task ended (completed, failed, canceled, rejected).
        return self.cancelable if action == "cancel_task" else True

    def _gone(self) -> bool:
        """Closed, or being removed: a turn's worker can go on while its transcript or message box is gone."""
        return being_removed(self)

    def open_work(self) -> OpenWork | None:
        """The task of the last turn while it has not ended at the agent (running, or waiting for an answer):
        closing the tab stops only the watching."""
        from ..open_work import OpenWork

        conversation = self.conversation
        last = conversation.last if conversation else None
        task_id = last.view.task_id if last else None
        state = last.view.state if last else None
        if conversation is None or last is None or not task_id or (state is not None and state.is_terminal):
            return None
        # An agent of the agents file goes by its name on the command line; a demo agent by its address.
        agent = self.status.entry.url if self.app.is_extra(self.agent_name) else self.agent_name
        said = state.value if state else "starting"
        return OpenWork(
            label=f"task {task_id} at {self.agent_name}",
            state="canceling" if self._canceling else f"unknown: lost, last seen {said}" if last.lost else said,
            find=f"switchboard task get {agent} {task_id}",
            cancel=conversation.cancel,
            ends_with_app=self.app.ends_with_app(self.agent_name),
        )

    def compose(self) -> ComposeResult:
        yield Static(classes="conversation-head")
        yield TranscriptScroll(classes="transcript")
        yield Composer(self.status.skills, self.prefill)

    def on_mount(self) -> None:
        self._head()
        self.watch(self.query_one(".transcript"), "scroll_y", self._scrolled, init=False)
        self.connect()

    def _scrolled(self, old: float, new: float) -> None:
        """At the end, however it got there, the transcript follows the stream again. When the transcript gets
        shorter (a prompt pane closes: answered, or its task canceled), its end moves up and takes the view
        with it; the position last followed to was below that, and the next turn was not followed."""
        transcript = self.query_one(".transcript", VerticalScroll)
        if new >= transcript.max_scroll_y - 1:
            self._followed_to = transcript.max_scroll_y

    # --- connecting ----------------------------------------------------------------------------------

    @work(exclusive=True, group="connect")
    async def connect(self) -> None:
        if self.link is None:
            try:
                self.link = await self.app.open_link(self.status.entry)
            except SwitchboardError as exc:
                self._link_error = exc
                await self._say(error_text(exc), "turn-error")
                return
        self.conversation = Conversation(self.link, tap=self.app.tap)
        self._head()
        await self._show_link_notes()

    def _head(self) -> None:
        heads = None if self._gone() else self.query_children(".conversation-head")
        if not heads:
            return  # a worker finishing after the view closed (or before it composed)
        card = self.link.card if self.link else self.status.card
        bits = [Content.styled(strip_controls(card.name if card else self.agent_name), "bold")]
        if self.link is not None:
            bits.append(Content.styled(f"  ·  {self.link.protocol_label}", "$text-muted"))
        if self.conversation and self.conversation.context_id:
            bits.append(Content.styled(f"  ·  context {self.conversation.context_id}", "$text-muted"))
        last = self.conversation.last if self.conversation else None
        if last is not None:
            bits += [Content("  "), *turn_state(last)]
        if card and card.description:
            bits.append(Content.styled("\n" + strip_controls(card.description), "$text-muted"))
        head = Content("").join(bits)
        if head != self._head_shown:  # called every frame while a stream floods in
            self._head_shown = head
            heads.first(Static).update(head)

    async def _say(self, text: str, classes: str) -> None:
        for transcript in [] if self._gone() else self.query_children(".transcript"):
            await transcript.mount(Static(Content(text), classes=classes))

    # --- sending -------------------------------------------------------------------------------------

    @on(Composer.Submitted)
    def _composed(self, event: Composer.Submitted) -> None:
        event.stop()
        if self.send([TextPart(text=event.text)]):
            event.composer.clear()  # only once it is on its way: refused, the text stays to send again

    @on(PromptPane.Answered)
    async def _answered(self, event: PromptPane.Answered) -> None:
        event.stop()
        await event.pane.remove()
        self.send([TextPart(text=event.text)], secret=event.secret)

    @on(PromptPane.SignInAsked)
    def _sign_in_asked(self, event: PromptPane.SignInAsked) -> None:
        event.stop()
        self._sign_in(event.pane, event.offer)

    @work(group="sign-in", exclusive=True)
    async def _sign_in(self, pane: PromptPane, offer: SignInOffer) -> None:
        """The flow with the scopes asked for besides those held (the sign-in pane shows the code or address),
        then the task is told, with the new token, and goes on."""
        source = oauth_source(self.link)
        if source is None:
            return
        try:
            await offer.sign_in(source)
        except SwitchboardError as exc:
            self.notify(f"Sign-in failed: {exc.message}", title=self.agent_name, severity="error", markup=False)
            return
        if pane.is_attached:
            await pane.remove()
        self.send([TextPart(text=offer.answer)], secret=False)  # our own sentence, not a credential

    def send(self, parts: list[Part], *, secret: bool | None = None) -> bool:
        """Start a turn with `parts`; when it cannot start, say why and return False. `secret` unsaid: the
        conversation decides (an answer to a task at auth-required is a credential, from any box)."""
        refused = send_refusal(self.conversation, self._link_error, canceling=self._canceling)
        if refused is not None:
            self.notify(f"Not sent: {refused}", title=self.agent_name, severity="warning", markup=False)
            return False
        self.run_turn(parts, secret)
        return True

    @work(exclusive=True, group="turn")
    async def run_turn(self, parts: list[Part], secret: bool | None) -> None:
        for pane in self.query(PromptPane):
            await pane.remove()
        await self._follow(self._connected.send(parts, secret=secret), begun=False, then_watch=True)

    @work(exclusive=True, group="turn")
    async def follow_again(self) -> None:
        """Listen again to the last turn's task (a cancel the agent refused left it running)."""
        await self._follow(self._connected.reattach(), begun=True, then_watch=True)

    async def answered_elsewhere(self) -> None:
        """The task's question was answered outside this tab (the inbox's command line, another terminal): its
        prompt pane goes, and the tab follows the task again to show what the agent does with that answer."""
        if self.conversation is None or self.running or self._gone():
            return
        for pane in self.query(PromptPane):
            await pane.remove()
        for transcript in self.query_children(".transcript"):
            await transcript.mount(NoteLine("answered elsewhere (another terminal, or the inbox); following the task"))
        self.follow_again()

    @work(exclusive=True, group="turn")
    async def watch_quietly(self) -> None:
        """Follow the last turn's task with no stream: by pushes to the app's receiver, else by polling."""
        conversation = self.conversation
        if conversation is None:
            return
        try:
            receiver = await self.app.push_receiver()
        except OSError:
            receiver = None  # no port to listen on: the watch polls, and says so
        await self._follow(conversation.watch(receiver), begun=True, then_watch=False)

    async def _follow(self, stream: AsyncIterator[TurnEvent], *, begun: bool, then_watch: bool = False) -> None:
        conversation = self._connected
        transcript = self.query_one(".transcript", VerticalScroll)
        try:
            # Closed at once when the worker is canceled, wherever it waits: the turn stops running then. (An
            # async generator, though typed as the iterator it is used as.)
            async with aclosing(cast(AsyncGenerator[TurnEvent, None], stream)):
                async for _ in stream:
                    if not begun and conversation.last is not None:
                        begun = True
                        await self._begin(transcript, conversation.last)
                    self._throttle.changed()
        except SwitchboardError:
            pass  # the Turn holds the error; the sync shows it
        except asyncio.CancelledError:
            # Canceled by ctrl+g (which renders the result itself) or because the view is going away.
            if not self._gone():
                self._state_changed()
            raise
        if self._gone():
            return  # the stream ended while the view was being closed
        if not begun and conversation.last is not None:
            await self._begin(transcript, conversation.last)
        await self._sync()
        if self._gone():
            return  # the tab began to close during the last render
        self._state_changed()
        self._tell_if_behind()
        await self._after_turn(transcript)
        if then_watch and self._broke_with_task_going_on():
            self.watch_quietly()  # the stream failed for good, the task goes on: keep the tab up to date

    def _broke_with_task_going_on(self) -> bool:
        last = self.conversation.last if self.conversation is not None else None
        if last is None or last.error is None or self._canceling:
            return False
        return bool(last.view.task_id) and not last.view.turn_over

    def _tell_if_behind(self) -> None:
        """A notice when the task of a tab the person is not looking at ended or began to wait for them."""
        last = self.conversation.last if self.conversation else None
        state = last.view.state if last is not None else None
        if state is None or in_shown_tab(self) or not (state.is_terminal or state.is_interrupted):
            return
        said = f"waiting for your answer ({state.value})" if state.is_interrupted else f"task {state.value}"
        self.app.notify(said, title=strip_controls(self.agent_name), markup=False)

    async def _begin(self, transcript: VerticalScroll, turn: Turn) -> Turn:
        await transcript.mount(UserMessage(turn))
        view = TurnView(turn, self.app.settings.artifact_render_limit, self._forms())
        await transcript.mount(view)
        # Only once composed: a frame's sync can run while the mount awaits, and would find none of its parts.
        self._turn_view = view
        self._state_changed()
        return turn

    async def _after_turn(self, transcript: VerticalScroll) -> None:
        conversation = self._connected
        state = conversation.waiting
        if self._gone() or conversation.last is None:
            return
        if state is None:
            # A turn ending in a background tab, or while the person is elsewhere (the wire view), leaves them there.
            focused = self.screen.focused
            if in_shown_tab(self) and (focused is None or self in focused.ancestors_with_self):
                for area in self.query("Composer #message"):
                    area.focus()
            return
        question = conversation.last.view.question
        offer = None
        if state is TaskState.AUTH_REQUIRED and oauth_source(self.link) is not None:
            offer = sign_in_offer(self.link.card if self.link else None, question)
        pane = PromptPane(
            question, state, title=self.agent_name, sign_in=offer, back_to=self._box, surfaces=self._forms()
        )
        await transcript.mount(pane)
        if not pane.form_ids:  # a form shows from its top: the pane scrolls its first field into view itself
            transcript.scroll_end(animate=False)

    def _box(self) -> Widget | None:
        """Where esc in a question puts the keyboard (the pane says "esc answers later from the message box")."""
        return next(iter(self.query("Composer #message")), None)

    # --- rendering -----------------------------------------------------------------------------------

    def on_show(self) -> None:
        self._throttle.shown()  # the turn's end is drawn anyway, shown or not

    async def _sync(self) -> None:
        if self._turn_view is None or self._gone():
            return
        started = time.perf_counter()
        async with self._sync_lock:  # one render at a time: a frame's sync and the turn's last one can meet
            transcript = self.query_one(".transcript", VerticalScroll)
            # Follow the stream unless the person scrolled up since we last scrolled (a resize, such as the
            # wire view opening, moves the end without them doing anything).
            following = transcript.scroll_y >= min(self._followed_to, transcript.max_scroll_y) - 1
            try:
                await self._turn_view.sync()
            except NoMatches:
                if self._gone():
                    return  # the view began to close during the sync
                raise
            self._head()
            self.cancelable = self._can_cancel()  # the task's state came with the stream
            await self._show_link_notes()
            # after the new content is laid out, or the end is not the end any more
            self.call_after_refresh(self._synced, transcript, transcript.scroll_y if following else None, started)

    async def _show_link_notes(self) -> None:
        """What the client noted about the agent (card lint, decoding oddities, retries outside a turn): under
        the turn they came in, or in the transcript before the first turn."""
        notes = getattr(self.link, "notes", None)  # a scripted link (scenes, tests) may have none
        if notes is None or len(notes) <= self._link_noted or self._gone():
            return
        fresh, self._link_noted = notes[self._link_noted :], len(notes)
        if self._turn_view is not None:
            await self._turn_view.add_notes(fresh)
        else:
            for transcript in self.query_children(".transcript"):
                await transcript.mount_all([NoteLine(text) for text in fresh])

    def _synced(self, transcript: VerticalScroll, followed_from: float | None, started: float) -> None:
        """`followed_from`: where the transcript stood, at its end, when the render began (None: the person had
        scrolled up). One who scrolls up before the render is laid out is left there too."""
        following = followed_from is not None and transcript.scroll_y >= followed_from - 1
        if following and not any(p.form_ids for p in transcript.query_children(PromptPane)):  # a form shows its top
            transcript.scroll_end(animate=False, immediate=True)
            # Markdown lays its blocks out after this refresh: anchored, the transcript stays at the end as they
            # grow (Textual lets go of the anchor when the person scrolls).
            transcript.anchor()
            self._followed_to = transcript.max_scroll_y
        # A sync and the repaint it causes hold up everything else, the stream included: under a flood (or on a
        # busy machine) render less often, so that rendering takes about a third of the time at most.
        self._throttle.interval = min(SLOWEST, max(FRAME, 2 * (time.perf_counter() - started)))

    # --- actions -------------------------------------------------------------------------------------

    async def action_cancel_task(self) -> None:
        if not self._can_cancel():
            return  # not offered (check_action): the key came in a frame before the footer knew
        # Stop listening first, then ask. An agent can have a long queue of updates for this stream, which it
        # goes on sending (some servers never end a stream that another request canceled), and reading them
        # competes with the cancel request: under a flood of 64 KB chunks the stream went on for over a minute.
        # The request runs in its own worker, so the keys work while the agent takes its time to answer.
        self._canceling = True
        self.workers.cancel_group(self, "turn")
        had_question = bool(self.query(PromptPane))
        for pane in self.query(PromptPane):
            await pane.remove()
        if had_question and in_shown_tab(self):
            # The pane had the keyboard: without this, what the person typed next went nowhere.
            self.query_one("Composer #message").focus()
        self._state_changed()
        self.request_cancel()

    @work(exclusive=True, group="cancel")
    async def request_cancel(self) -> None:
        # The agent answers with the whole task, which it may take a while to put together.
        self.notify("canceling the task… (the agent's answer may take a while)")
        try:
            outcome = await self._connected.cancel()
        except SwitchboardError as exc:
            self._canceling = False
            self._state_changed()  # ctrl+g is offered again while the task goes on
            # The agent wrote the message: shown as text, never read as markup ("[/]" alone would raise).
            self.notify(strip_controls(f"{exc.code}: {exc.message}"), severity="error", markup=False)
            last = self._connected.last
            if not self._gone() and last is not None and not (last.view.state and last.view.state.is_terminal):
                self.follow_again()  # the task goes on: show what it does
            return
        except BaseException:
            self._canceling = False
            self.cancelable = self._can_cancel()
            raise
        self._canceling = False
        if self._gone():
            return
        await self._sync()
        self._state_changed()
        if outcome is not None and not outcome.confirmed:
            # The agent took the request but still reports the task running: show what it goes on to do.
            self.notify(strip_controls(f"{outcome.pending}; following it"), severity="warning", markup=False)
            self.follow_again()
            return
        self.notify("task canceled")

    async def action_let_stream_go(self) -> None:
        """Close the stream of a running task; the tab goes on following it by pushes, or by polling."""
        last = self.conversation.last if self.conversation else None
        if last is None or not last.running or not last.view.task_id or self._canceling:
            self.notify("no task is streaming here")
            return
        for worker in [w for w in self.workers if w.node is self and w.group == "turn"]:
            worker.cancel()
            with contextlib.suppress(Exception):
                await worker.wait()  # the stream let go before the watch begins (both mark the turn running)
        self.notify("stream closed; following the task by its pushes or by polling")
        self.watch_quietly()
