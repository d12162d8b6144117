"""The message box: multi-line text, a skill hint selector, enter to send."""

from __future__ import annotations

import time

from rich.cells import cell_len
from rich.segment import Segment
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.strip import Strip
from textual.widgets import Select, Static, TextArea

from ...a2a.errors import UsageError
from ...a2a.model import Skill
from ...a2a.user_input import check_message_text
from ..textual_private import text_area_key
from .visibility import in_shown_tab


def _dots(text: str) -> str:
    """Each character shown as dots of its width; spaces and line ends stay (they pad the line, too)."""
    return "".join(ch if ch.isspace() else "•" * cell_len(ch) for ch in text)


class MessageArea(TextArea):
    """Enter sends; ctrl+j or alt+enter starts a new line."""

    BINDINGS = [
        Binding("enter", "submit", "Send", id="composer.send", show=True),
        # ctrl+j first, the one the footer shows: every terminal sends it (alt+enter arrives as escape then enter
        # under tmux and in terminals without the kitty keyboard protocol; the app reads that as alt+enter too).
        Binding("ctrl+j,alt+enter", "newline", "New line", id="composer.newline", show=True),
    ]

    read_only_note = ""  # why nothing can be typed (a replay): said when the person types anyway
    masked = False  # what is typed answers a task at auth-required, a credential: drawn as dots
    _noted_at = 0.0

    class Submitted(Message):
        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    async def _on_key(self, event: events.Key) -> None:
        if self.read_only and (event.is_printable or event.key == "enter"):
            event.prevent_default()
            event.stop()
            self.say_read_only()  # a read-only box that swallowed keys silently looked broken
            return
        # TextArea inserts a newline for enter before bindings run (in this private handler, textual_private.py);
        # route it to our binding instead.
        if event.key == "enter":
            event.prevent_default()
            event.stop()
            self.action_submit()
            return
        await text_area_key(self, event)

    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        if not self.masked or not self.text:
            return strip  # the placeholder is ours, not a secret
        return Strip([Segment(_dots(seg.text), seg.style, seg.control) for seg in strip], strip.cell_length)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Read-only: the footer does not offer Send and New line (enter and typing still get the notice).
        return not (self.read_only and action in ("submit", "newline"))

    def say_read_only(self) -> None:
        if self.read_only_note and time.monotonic() - self._noted_at > 3:  # once for a burst of keys
            self._noted_at = time.monotonic()
            self.notify(self.read_only_note, severity="warning", timeout=4, markup=False)

    def action_submit(self) -> None:
        if self.read_only:
            self.say_read_only()
            return
        try:
            check_message_text(self.text)  # the rule of the command line and of workflows
        except UsageError as exc:
            self.notify(f"{exc.message}. {exc.hint}", severity="warning", timeout=4)
            return
        self.post_message(self.Submitted(self.text))

    def action_newline(self) -> None:
        if self.read_only:
            self.say_read_only()
            return
        self.insert("\n")


class Composer(Vertical):
    class Submitted(Message):
        """The person pressed enter; the text stays in the box until the host sends it (`clear`)."""

        def __init__(self, composer: Composer, text: str) -> None:
            super().__init__()
            self.composer = composer
            self.text = text

    def __init__(self, skills: list[Skill], prefill: str = "") -> None:
        super().__init__(classes="composer")
        self.skills = skills
        self.prefill = prefill

    def compose(self) -> ComposeResult:
        area = MessageArea(self.prefill, id="message", soft_wrap=True, show_line_numbers=False)
        area.placeholder = "Message the agent…"
        yield area
        with Horizontal(classes="composer-bar"):
            options = [(f"{skill.name}: {example}", example) for skill in self.skills for example in skill.examples[:6]]
            yield Select(options, prompt="skill examples", id="skill-hint", allow_blank=True, compact=True)
            yield Static(_hint(cancel=False), classes="composer-hint")

    def on_mount(self) -> None:
        area = self.query_one(MessageArea)
        area.cursor_blink = not getattr(self.app, "steady", False)
        if in_shown_tab(self):  # a tab being opened is not shown yet: showing it puts the keyboard here
            area.focus()
        area.move_cursor(area.document.end)

    @on(MessageArea.Submitted)
    def _submitted(self, event: MessageArea.Submitted) -> None:
        event.stop()
        self.post_message(self.Submitted(self, event.text))

    def clear(self) -> None:
        self.query_one(MessageArea).clear()

    @on(Select.Changed, "#skill-hint")
    def _hint(self, event: Select.Changed) -> None:
        if isinstance(event.value, str):
            area = self.query_one(MessageArea)
            area.text = event.value
            area.move_cursor(area.document.end)
            area.focus()

    def offer_cancel(self, offered: bool) -> None:
        """Name ctrl+g in the hint only while it cancels something (a task that has ended has nothing to cancel)."""
        if not self.query_one(MessageArea).read_only:  # a replay's box says it is read-only in the hint's place
            self.query_one(".composer-hint", Static).update(_hint(cancel=offered))

    def set_enabled(self, enabled: bool) -> None:
        self.query_one(MessageArea).disabled = not enabled

    def mask(self, masked: bool, agent: str) -> None:
        """Draw what is typed as dots while the task waits at auth-required: the answer is a credential, like the
        prompt pane's (the conversation redacts it everywhere else)."""
        area = self.query_one(MessageArea)
        if area.masked is masked:
            return
        area.masked = masked
        unmasked = area.read_only_note or "Message the agent…"  # a replay's box keeps saying it is read-only
        area.placeholder = f"credential for {agent} (masked, kept in memory only)" if masked else unmasked
        area.refresh()

    def make_read_only(self, note: str) -> None:
        """Nothing typed here goes out (a replay): the box keeps the keyboard and says so, in its place of the
        hint "enter send", and again when typed into."""
        area = self.query_one(MessageArea)
        area.read_only, area.read_only_note, area.placeholder = True, note, note
        area.refresh_bindings()
        self.query_one("#skill-hint", Select).disabled = True
        self.query_one(".composer-hint", Static).update(Content.styled(note, "$text-muted"))


def _hint(*, cancel: bool) -> Content:
    keys = ["enter send", "ctrl+j new line", *(["ctrl+g cancel task"] if cancel else []), "f2 wire"]
    return Content.styled(" · ".join(keys), "$text-muted")
