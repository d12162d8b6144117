"""The inbox tab: one row for everything waiting for the person, oldest first, filtered by typing; enter opens
the question's prompt pane right here (the same pane as everywhere: choices, masked credentials, Sign in).

The pane shows what it is given (`show`) and says what the person did (AnswerGiven, SignInAsked, Dismissed,
GoTo): the screen's inbox watch (tui/inbox_watch.py) finds the items and routes each answer to its task or run.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import DataTable, Input, Static

from ...a2a.auth.sign_in_offer import SignInOffer
from ...a2a.model import Part, TaskState, TextPart
from ...a2ui.messages import is_a2ui_part
from ...a2ui.surfaces import SurfaceSet
from ...a2ui.text import part_summary
from ...inbox.item import InboxItem, waited
from ...safe_text import strip_controls
from ..typed_app import switchboard_app
from .a2ui.surface import A2uiSurface
from .prompt_pane import PromptPane
from .tables import RowTable, cursor_key, fill_table

LATER = "esc goes back to the list; the question waits"
COLUMNS = ("Waited", "Who asks", "Where", "Question")  # the question last: cut at the edge, whole on enter


class InboxPane(Vertical):
    app = switchboard_app  # typed: the app's own attributes (tui/typed_app.py)

    BINDINGS = [
        # Priority: from the filter too (whose own ctrl+d deletes a character); never from an answer being typed.
        Binding("ctrl+d", "dismiss", "Dismiss", id="inbox.dismiss", priority=True),
        Binding("ctrl+t", "go_to", "Go to its tab", id="inbox.go_to", priority=True),
    ]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("dismiss", "go_to"):
            focused = self.screen.focused
            answering = focused is not None and any(isinstance(n, PromptPane) for n in focused.ancestors)
            chosen = self.is_mounted and bool(self.shown) and self.highlighted() is not None
            return not answering and chosen  # an empty list has nothing to dismiss or go to
        return True

    class AnswerGiven(Message):
        """The person answered `item` in the inbox's prompt pane: in words (`text`), or with its form's action
        (`parts`: the action's event, `text` its summary; `secrets`: what was typed in masked fields)."""

        def __init__(
            self,
            item: InboxItem,
            pane: PromptPane,
            text: str,
            secret: bool,
            parts: tuple[Part, ...] = (),
            secrets: tuple[str, ...] = (),
        ) -> None:
            super().__init__()
            self.item, self.pane, self.text, self.secret = item, pane, text, secret
            self.parts, self.secrets = parts, secrets

    class SignInAsked(Message):
        def __init__(self, item: InboxItem, pane: PromptPane, offer: SignInOffer) -> None:
            super().__init__()
            self.item, self.pane, self.offer = item, pane, offer

    class Dismissed(Message):
        """Let go of an item (a remembered task: its agent no longer knows it, cannot be reached, or the person
        does not mean to answer it; the task is left as it is at the agent)."""

        def __init__(self, item: InboxItem) -> None:
            super().__init__()
            self.item = item

    class GoTo(Message):
        """Show the tab the item lives in."""

        def __init__(self, item: InboxItem) -> None:
            super().__init__()
            self.item = item

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.items: list[InboxItem] = []
        self.shown: list[InboxItem] = []
        self.open_item: InboxItem | None = None  # the item whose prompt pane is open
        self._to_top = False
        # How the pane gets a question's own pane (a run's ask future, a tab's sign-in offer): the watch says.
        self.pane_for: Callable[[InboxItem], PromptPane] | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="inbox-title", classes="section-title")
        yield Input(placeholder="type to filter · ↑↓ choose · enter answers", id="inbox-filter")
        yield RowTable(id="inbox-table")
        yield Static(id="inbox-note")
        yield VerticalScroll(id="inbox-answer", can_focus=False)

    def on_mount(self) -> None:
        self.query_one("#inbox-filter", Input).cursor_blink = not getattr(self.app, "steady", False)
        self.show(self.items)

    # --- what is shown -----------------------------------------------------------------------------------

    def show(self, items: list[InboxItem], now: float | None = None) -> None:
        """The items waiting now (oldest first); an open question whose item left is closed (answered elsewhere)."""
        self.items = items
        if not self.is_mounted:
            return
        now = self.app.clock() if now is None else now
        wanted = self.query_one("#inbox-filter", Input).value.strip().lower()
        self.shown = [item for item in items if not wanted or wanted in _haystack(item)]
        rows: dict[str, list[Content | str]] = {}
        for item in self.shown:
            who = Content.styled(strip_controls(item.who), "bold $warning" if not item.stale else "$text-muted")
            where = Content.styled(item.where + (" ⚠" if item.stale else ""), "$text-muted")
            rows[item.id] = [waited(item.since, now) or "—", who, where, item.first_line]
        table = self.query_one("#inbox-table", DataTable)
        fill_table(table, COLUMNS, rows)
        if self._to_top and rows:  # after an answer the cursor is on the oldest item: the list is worked down
            self._to_top = False
            table.move_cursor(row=0, animate=False)
        count = len(items)
        title = "Inbox: nothing waits for you" if not count else f"Inbox: {count} waiting, oldest first"
        if wanted:
            title += f" · {len(self.shown)} match “{strip_controls(wanted)}”"
        self.query_one("#inbox-title", Static).update(Content.styled(title, "bold"))
        self._note()
        self.refresh_bindings()  # ctrl+d and ctrl+t are offered only with an item to act on
        if self.open_item is not None and all(item.id != self.open_item.id for item in items):
            self.run_worker(self.close_question(), group="inbox-close")  # answered elsewhere: it goes

    def _note(self) -> None:
        item = self.highlighted()
        note = ""
        if item is not None and item.stale:
            note = f"{item.note}: ctrl+d dismisses it"
        elif item is not None and item.note and item.remembered:
            note = f"{item.note} · ctrl+d lets go of it"
        elif item is not None and item.note:
            note = item.note
        self.query_one("#inbox-note", Static).update(Content.styled(note, "$text-muted italic"))

    def highlighted(self) -> InboxItem | None:
        key = cursor_key(self.query_one("#inbox-table", DataTable))
        return next((item for item in self.shown if item.id == key), None)

    @on(Input.Changed, "#inbox-filter")
    def _filtered(self) -> None:
        self.show(self.items)

    @on(DataTable.RowHighlighted, "#inbox-table")
    def _highlighted(self) -> None:
        self._note()

    def on_key(self, event) -> None:
        # From the filter, the arrows choose a row (the filter keeps the keyboard, as the command palette does).
        if self.screen.focused is not self.query_one("#inbox-filter") or event.key not in ("up", "down"):
            return
        table = self.query_one("#inbox-table", DataTable)
        if table.row_count:
            table.move_cursor(row=table.cursor_row + (1 if event.key == "down" else -1), animate=False)
        event.stop()
        event.prevent_default()

    def focus_filter(self) -> None:
        self.query_one("#inbox-filter", Input).focus()

    # --- answering -----------------------------------------------------------------------------------------

    @on(Input.Submitted, "#inbox-filter")
    @on(DataTable.RowSelected, "#inbox-table")
    async def _open(self) -> None:
        item = self.highlighted()
        if item is not None:
            await self.open_question(item)

    async def open_question(self, item: InboxItem) -> None:
        """The item's prompt pane, under the list (the one open before goes: one question at a time)."""
        await self.close_question()
        self.open_item = item
        pane = self.pane_for(item) if self.pane_for is not None else question_pane(item)
        pane.back_to = self._back_to
        self.add_class("-answering")
        await self.query_one("#inbox-answer", VerticalScroll).mount(pane)
        if item.stale or item.live_elsewhere:
            pane.make_read_only(item.note)
            return
        pane.take_keyboard()

    def _back_to(self) -> Input:
        return self.query_one("#inbox-filter", Input)

    async def close_question(self) -> None:
        self.open_item = None
        self.remove_class("-answering")
        had_keyboard = False
        for pane in self.query(PromptPane):
            had_keyboard = had_keyboard or pane.has_focus_within
            await pane.remove()
        if had_keyboard:
            self.focus_filter()

    @on(PromptPane.Answered)
    async def _answered(self, event: PromptPane.Answered) -> None:
        event.stop()
        item = self.open_item
        if item is None:
            return
        await self.close_question()
        self.focus_filter()
        self._to_top = True
        self.post_message(self.AnswerGiven(item, event.pane, event.text, event.secret))

    @on(A2uiSurface.ActionTaken)
    async def _form_answered(self, event: A2uiSurface.ActionTaken) -> None:
        """The question's form sent its action: the action's event is the answer."""
        event.stop()
        item = self.open_item
        pane = next((p for p in self.query(PromptPane) if event.surface in p.query(A2uiSurface)), None)
        if item is None or pane is None:
            return
        await self.close_question()
        self.focus_filter()
        self._to_top = True
        summary = part_summary(event.part) or f"form action {event.name}"
        self.post_message(
            self.AnswerGiven(item, pane, summary, bool(event.secrets), (event.part,), tuple(event.secrets))
        )

    @on(PromptPane.SignInAsked)
    def _sign_in(self, event: PromptPane.SignInAsked) -> None:
        event.stop()
        if self.open_item is not None:
            self.post_message(self.SignInAsked(self.open_item, event.pane, event.offer))

    def action_dismiss(self) -> None:
        item = self.highlighted()
        if item is None:
            return
        if not (item.stale or item.remembered):
            said = "its tab" if "tab" in item.where else "its run"
            self.notify(f"this one is answered, not dismissed: {said} asks it", markup=False)
            return
        self.post_message(self.Dismissed(item))

    def action_go_to(self) -> None:
        item = self.highlighted()
        if item is not None:
            self.post_message(self.GoTo(item))


def _haystack(item: InboxItem) -> str:
    return " ".join((item.id, item.who, item.first_line, item.where, item.note)).lower()


def question_pane(item: InboxItem, *, forms: bool = False, **kwargs) -> PromptPane:
    """A prompt pane for `item`'s question (its parts as asked, else its text). With `forms` (the app draws A2UI,
    and what asked takes a form's action) a question carrying an A2UI form is that form; else the form's messages
    are left out (never shown as raw JSON) and the question is answered in words."""
    surfaces = SurfaceSet() if forms and not item.secret else None
    drawn = surfaces is not None and bool(surfaces.take(None, item.parts))
    parts: list[Part] = [p for p in item.parts if drawn or not is_a2ui_part(p)] or [TextPart(text=item.question)]
    state = TaskState.AUTH_REQUIRED if item.secret else TaskState.INPUT_REQUIRED
    pane_surfaces = surfaces if drawn else None
    return PromptPane(parts, state, title=strip_controls(item.who), later=LATER, surfaces=pane_surfaces, **kwargs)
