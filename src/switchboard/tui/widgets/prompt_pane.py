"""The prompt pane: opens inline when a task stops at input-required or auth-required.

It shows the agent's question and takes the answer. The answer goes out as a Message to whoever hosts
the pane, and, when the pane was given one, resolves a Future that protocol code awaits (the workflow
engine's `ask`). A credential is typed masked and never shown again.

Where the keyboard goes is the host's to say (`back_to`: where esc puts it, the message box or the list of
steps); a new question takes the keyboard unless the person is typing the answer to another one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Input, Static

from ...a2a.auth.sign_in_offer import SignInOffer
from ...a2a.model import DataPart, FilePart, Part, TaskState, TextPart
from ...a2ui.messages import is_a2ui_part
from ...a2ui.presented import shown_by_form
from ...a2ui.surfaces import SurfaceSet, surface_ids
from ...safe_text import strip_controls
from .a2ui.surface import A2uiSurface
from .transcript import FileRow, JsonBlock, state_badge
from .visibility import in_shown_tab


class PromptPane(Vertical):
    BINDINGS = [Binding("escape", "dismiss", "Answer later", id="prompt.dismiss")]

    class Answered(Message):
        def __init__(self, pane: PromptPane, text: str, secret: bool) -> None:
            super().__init__()
            self.pane = pane
            self.text = text
            self.secret = secret

    class SignInAsked(Message):
        """The person pressed "Sign in": run the OAuth flow the question asks for (see a2a.auth.sign_in_offer)."""

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
        back_to: Callable[[], Widget | None] | None = None,
        surfaces: SurfaceSet | None = None,
    ) -> None:
        """`later` tells how the question can wait, and `back_to` gives the widget esc puts the keyboard in: the
        host says (a conversation has a message box, a run its list of steps). `surfaces`: where the question's A2UI
        surfaces live (the host's); given, and the question carries one, the pane is that form."""
        super().__init__(classes="prompt-pane")
        # (the form's class is added once the question's surfaces are known, below)
        self.question = question
        self.state = state
        self.future = future
        self.title = title
        self.later = later
        self.secret = state is TaskState.AUTH_REQUIRED
        self.sign_in = sign_in  # a sign-in switchboard can run for this question, offered beside typing
        self.back_to = back_to
        self.surfaces = surfaces
        ids = surface_ids(question) if surfaces is not None and not self.secret else []
        self.form_ids = [i for i in ids if surfaces is not None and surfaces.get(i) is not None]
        self.set_class(bool(self.form_ids), "-form")

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
                if isinstance(part, DataPart) and not self._in_form(part):
                    yield JsonBlock(part.data)
                elif isinstance(part, FilePart):
                    yield FileRow(part)
            if self.surfaces is not None:
                for surface_id in self.form_ids:
                    yield A2uiSurface(self.surfaces, surface_id, classes="prompt-form")
        if self.form_ids:
            picks = "space picks · " if self._has_pickers() else ""
            yield Static(Content.styled(f"tab moves · {picks}enter sends the form · {self.later}",
                                        "$text-muted italic"), classes="prompt-hint")  # fmt: skip
            return
        with Horizontal(classes="prompt-row"):
            # The field says whose question it answers: with several open, the title may be scrolled away.
            to = f" for {self.title}" if self.title else ""
            yield Input(
                placeholder=f"credential{to} (masked, kept in memory only)" if self.secret else f"your answer{to}",
                password=self.secret,
                id="prompt-input",
            )
            # For the mouse: enter in the field sends. Left out of tab's round, which goes from question to question.
            send = Button("Send", variant="primary", id="prompt-send")
            send.can_focus = False
            yield send
            if self.sign_in is not None:
                yield Button("Sign in", id="prompt-sign-in")
        hint = f"enter sends · {self.later}"
        if self.sign_in is not None:
            scopes = " ".join(self.sign_in.scopes) or "the card's scopes"
            hint = f"Sign in runs the agent's OAuth flow with {scopes} ({self.sign_in.source}) · " + hint
        yield Static(Content.styled(hint, "$text-muted italic"), classes="prompt-hint")

    def _in_form(self, part: DataPart) -> bool:
        """Whether the drawn form shows this data part already: its A2UI messages, or a plain data part whose every
        value is one of the form's choices (`{"choices": [...]}` sent beside the form for clients without A2UI; the
        rule is a2ui/presented.py's). Where no form is drawn (A2UI off, an agent without it), every part is shown."""
        if not self.form_ids or self.surfaces is None:
            return False
        forms = [s for s in map(self.surfaces.get, self.form_ids) if s is not None]
        return is_a2ui_part(part) or shown_by_form(part.data, forms)

    def _has_pickers(self) -> bool:
        forms = [s for s in map(self.surfaces.get, self.form_ids) if s is not None] if self.surfaces else []
        return any(c.type in ("ChoicePicker", "CheckBox") for f in forms for c in f.components.values())

    def on_mount(self) -> None:
        fields = self.query(Input)
        if self.form_ids:
            if in_shown_tab(self) and not self._typing_another_answer():
                self.take_keyboard()
            return
        if not fields:
            return  # taken away (answered, signed in) before it was mounted: nothing to focus
        field = fields.first()
        field.cursor_blink = not getattr(self.app, "steady", False)
        # In a background tab the tab is marked instead; and the person typing another answer keeps the keyboard.
        if in_shown_tab(self) and not self._typing_another_answer():
            self.take_keyboard()

    def _typing_another_answer(self) -> bool:
        focused = self.screen.focused
        return isinstance(focused, Input) and any(
            isinstance(node, PromptPane) and node is not self for node in focused.ancestors
        )

    def take_keyboard(self) -> None:
        """The keyboard in the answer field, and the pane in view from its title (who asks) down to the field."""
        if self.form_ids:
            for form in self.query(A2uiSurface):
                if form.focus_first():
                    break
            self.call_after_refresh(self._show_form_field)
            return
        fields = self.query(Input)
        if not fields:
            return
        fields.first().focus(scroll_visible=False)
        # Once laid out: the answer field in view (on a short terminal the pane is taller than the transcript).
        self.call_after_refresh(self._show_field)

    def _show_form_field(self) -> None:
        """The pane from its title when it fits, then the form's field with the keyboard, which wins."""
        if not self.is_attached:
            return
        for node in self.ancestors:  # a transcript following its end would take the form's first field away
            if isinstance(node, Widget) and node.is_anchored:
                node.release_anchor()
        # top: a pane taller than the view covers it whole, and Textual scrolls nothing to show such a widget (the
        # title and the question stayed above the view); at the transcript's end it still shows the end.
        self.scroll_visible(animate=False, immediate=True, top=True)
        focused = self.screen.focused
        if focused is not None and self in focused.ancestors:
            focused.scroll_visible(animate=False, top=False, immediate=True)

    def on_resize(self) -> None:
        if (
            not self.form_ids and self.query_one(Input).has_focus
        ):  # the terminal changed size: the field it has stays in view
            self.call_after_refresh(self._show_field)

    def _show_field(self) -> None:
        rows = self.query(".prompt-row")
        if not self.is_attached or not rows:
            return  # answered (and taken away) before it was laid out: a replay's answers come at once
        # The whole pane when it fits; else its top (the title, which says who asks), then the field, which wins.
        # Both at once: a deferred scroll measures from where the view is now, so the second would undo the first
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

    def make_read_only(self, note: str) -> None:
        """The question is shown and answered for the person (a replay): the field and its hint say so."""
        for field in self.query(Input):
            field.disabled, field.placeholder = True, note
        for button in self.query(Button):
            button.disabled = True
        for hint in self.query(".prompt-hint").results(Static):
            hint.update(Content.styled(note, "$text-muted italic"))

    @on(Button.Pressed, "#prompt-sign-in")
    def _sign_in(self) -> None:
        if self.sign_in is not None:
            self.post_message(self.SignInAsked(self, self.sign_in))

    def action_dismiss(self) -> None:
        """The question waits; the keyboard goes where the host says the person goes on (now: the next keys go
        there, not to the button after the field, where they were lost)."""
        target = self.back_to() if self.back_to is not None else None
        if target is not None and target.is_attached and target.focusable:
            target.focus()
        else:
            self.screen.focus_next()
