"""The prompt pane: opens inline when a task stops at input-required or auth-required.

It shows the agent's question and takes the answer. The answer goes out as a Message to whoever hosts
the pane, and, when the pane was given one, resolves a Future that protocol code awaits (the workflow
engine's `ask`). A credential is typed masked and never shown again.
"""

from __future__ import annotations

import asyncio

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Input, Static

from ...a2a.auth.sign_in_offer import SignInOffer
from ...a2a.model import DataPart, FilePart, Part, TaskState, TextPart
from ...safe_text import strip_controls
from .transcript import FileRow, JsonBlock, state_badge
from .visibility import in_shown_tab


class PromptPane(Vertical):
    BINDINGS = [Binding("escape", "dismiss", "Later", id="prompt.dismiss")]

    class Answered(Message):
        def __init__(self, pane: PromptPane, text: str, secret: bool) -> None:
            super().__init__()
            self.pane = pane
            self.text = text
            self.secret = secret

    class SignInAsked(Message):
        """The person pressed "Sign in": run the OAuth flow the question asks for (see a2a.sign_in_offer)."""

        def __init__(self, pane: PromptPane, offer: SignInOffer) -> None:
            super().__init__()
            self.pane = pane
            self.offer = offer

    def __init__(
        self,
        question: list[Part],
        state: TaskState,
        *,
        future: asyncio.Future[str] | None = None,
        title: str = "",
        later: str = "esc answers later from the message box",
        sign_in: SignInOffer | None = None,
    ) -> None:
        """`later` tells how the question can wait: the host says (a conversation has a message box, a run not)."""
        super().__init__(classes="prompt-pane")
        self.question = question
        self.state = state
        self.future = future
        self.title = title
        self.later = later
        self.secret = state is TaskState.AUTH_REQUIRED
        self.sign_in = sign_in  # a sign-in switchboard can run for this question, offered beside typing

    def compose(self) -> ComposeResult:
        asks = "needs a credential" if self.secret else "needs your input"
        yield Static(
            Content.assemble(state_badge(self.state), (f"  {self.title} {asks}".rstrip(), "bold")),
            classes="prompt-title",
        )
        text = strip_controls("".join(p.text for p in self.question if isinstance(p, TextPart)))
        with VerticalScroll(classes="prompt-body", can_focus=False):
            yield Static(Content(text) if text else Content.styled("(no question text)", "italic"), classes="question")
            for part in self.question:
                if isinstance(part, DataPart):
                    yield JsonBlock(part.data)
                elif isinstance(part, FilePart):
                    yield FileRow(part)
        with Horizontal(classes="prompt-row"):
            yield Input(
                placeholder="credential (masked, kept in memory only)" if self.secret else "your answer",
                password=self.secret,
                id="prompt-input",
            )
            yield Button("Send", variant="primary", id="prompt-send")
            if self.sign_in is not None:
                yield Button("Sign in", id="prompt-sign-in")
        hint = f"enter sends · {self.later}"
        if self.sign_in is not None:
            scopes = " ".join(self.sign_in.scopes) or "the card's scopes"
            hint = f"Sign in runs the agent's OAuth flow with {scopes} ({self.sign_in.source}) · " + hint
        yield Static(Content.styled(hint, "$text-muted italic"), classes="prompt-hint")

    def on_mount(self) -> None:
        fields = self.query(Input)
        if not fields:
            return  # taken away (answered, signed in) before it was mounted: nothing to focus
        field = fields.first()
        field.cursor_blink = not getattr(self.app, "steady", False)
        if in_shown_tab(self):
            field.focus(scroll_visible=False)
            # Once laid out: the answer field in view (on a short terminal the pane is taller than the transcript).
            self.call_after_refresh(self._show_field)

    def on_resize(self) -> None:
        if self.query_one(Input).has_focus:  # the terminal changed size: the field it has stays in view
            self.call_after_refresh(self._show_field)

    def _show_field(self) -> None:
        rows = self.query(".prompt-row")
        if not self.is_attached or not rows:
            return  # answered (and taken away) before it was laid out: a replay's answers come at once
        # Immediate, both: a deferred scroll measures from where the view is now, so the second would undo the first
        # or not, depending on how soon the screen refreshes.
        self.scroll_visible(animate=False, immediate=True)
        rows.first().scroll_visible(animate=False, top=False, immediate=True)

    @on(Input.Submitted, "#prompt-input")
    @on(Button.Pressed, "#prompt-send")
    def submit(self) -> None:
        field = self.query_one(Input)
        text = field.value
        if not text.strip():
            field.placeholder = "type an answer first"
            return
        field.value = ""
        if self.future is not None and not self.future.done():
            self.future.set_result(text)
        self.post_message(self.Answered(self, text, self.secret))

    @on(Button.Pressed, "#prompt-sign-in")
    def _sign_in(self) -> None:
        if self.sign_in is not None:
            self.post_message(self.SignInAsked(self, self.sign_in))

    def action_dismiss(self) -> None:
        self.screen.focus_next()
