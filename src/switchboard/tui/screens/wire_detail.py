"""One exchange of the wire view, whole: the request, the response and every SSE frame, with headers, pretty JSON
and each frame's state and text. Read-only text to select and copy (ctrl+c the selection, y all of it), and a
find box. The records were redacted by the tap; nothing here reads more than they hold."""

from __future__ import annotations

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static, TextArea
from textual.widgets.text_area import Selection

from ...a2a.tap import WireRecord
from ...safe_text import strip_controls
from ..wire_text import exchange_detail


class WireDetailScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "close", "Close", id="wire.close"),
        Binding("slash,ctrl+f", "find", "Find", id="wire.find"),
        Binding("y", "copy_all", "Copy all", id="wire.copy"),
    ]

    def __init__(self, records: list[WireRecord], chosen: WireRecord) -> None:
        super().__init__()
        self.chosen = chosen
        self.text, starts = exchange_detail(records, chosen.exchange)
        mine = [record for record in records if record.exchange == chosen.exchange]
        self.start = starts[mine.index(chosen)] if chosen in mine else 0
        request = next((record for record in mine if record.kind == "request"), None)
        where = f" · {request.method} {request.url}" if request else ""
        self.title_text = strip_controls(f"Exchange #{chosen.exchange}{where}")

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wire-detail"):
            yield Static(Content.styled(self.title_text, "bold"), id="wire-detail-title")
            yield Static(
                Content.styled("esc closes · / finds (enter: next) · ctrl+c copies the selection · y copies all",
                               "$text-muted"),
            )  # fmt: skip
            yield Input(placeholder="find in this exchange", id="wire-find")
            yield TextArea(self.text, read_only=True, soft_wrap=True, id="wire-text")

    def on_mount(self) -> None:
        steady = getattr(self.app, "steady", False)  # no blinking cursor (the snapshots)
        self.query_one(Input).cursor_blink = not steady
        area = self.query_one(TextArea)
        area.cursor_blink = not steady
        area.focus()
        area.move_cursor((self.start, 0))
        area.scroll_to(y=self.start, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_find(self) -> None:
        self.query_one("#wire-find", Input).focus()

    def action_copy_all(self) -> None:
        self.app.copy_to_clipboard(self.text)
        self.notify("The exchange is copied.", timeout=2)

    @on(Input.Submitted, "#wire-find")
    def find_next(self, event: Input.Submitted) -> None:
        """Select the next match after the cursor (from the top again past the last), case ignored."""
        needle = event.value.lower()
        if not needle:
            return
        area = self.query_one(TextArea)
        lines = self.text.lower().split("\n")
        row, column = area.selection.end
        order = [(row, column)] + [(r, 0) for r in range(row + 1, len(lines))] + [(r, 0) for r in range(0, row + 1)]
        for r, start in order:
            found = lines[r].find(needle, start)
            if found >= 0:
                area.selection = Selection((r, found), (r, found + len(needle)))
                area.scroll_cursor_visible(center=True)
                self.query_one("#wire-find", Input).border_subtitle = ""
                return
        self.query_one("#wire-find", Input).border_subtitle = "not found"
