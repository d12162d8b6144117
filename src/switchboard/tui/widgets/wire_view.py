"""The wire view: every HTTP request and response and every SSE frame, and every gRPC call (its metadata, messages
as JSON and status), timed, secrets already redacted.

A list and a detail. The list: the app's Tap holds the records (the newest `wire_records`, a setting, within a
memory bound); the view is a window over them, a line each, cut to its width. It lays nothing out per record: its
height is the tap's count, and a line is drawn only when it comes into view. Hidden, it does nothing; shown, it
follows the tap, at most once per frame whatever the rate. A cursor picks a record (↑↓, a click); enter (or a
double click) opens its whole exchange: the view says so (RecordOpened), the screen shows it (screens/wire_detail.py).
"""

from __future__ import annotations

from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from ...a2a.tap import GRPC, WireRecord
from ...safe_text import strip_controls
from ..typed_app import switchboard_app
from ..wire_text import frame_summary

BODY_SHOWN = 160  # characters of a body on its line
BODY_READ = BODY_SHOWN * 4  # the most of a body a line reads (some are escapes, which go)
BODY_KEPT = 16384  # characters of each body the app's tap keeps, for the detail
TAP_BYTES = 6 * 2**20  # the memory the app's tap holds in bodies at most (a flood keeps fewer records)
KEPT_LINES = 64  # lines kept drawn at least; more when the view is taller
ARROWS = {"request": "→", "response": "←", "sse": "⇠", "trailers": "⇐", "error": "✕", "note": "·"}
STYLES = {
    "request": "bold cyan",
    "response": "bold green",
    "sse": "magenta",
    "trailers": "bold green",
    "error": "bold red",
    "note": "dim",
}
GRPC_OK = 0


def record_text(record: WireRecord) -> Text:
    """A record's line; cut to the view's width when drawn."""
    took = f" {record.elapsed_ms:6.0f}ms" if record.elapsed_ms is not None else " " * 9
    line = Text(no_wrap=True)
    line.append(f"{record.at:8.3f}s #{record.exchange:<3}", style="dim")
    line.append(took, style="dim")
    style = STYLES.get(record.kind, "")
    if record.kind == "trailers" and record.status != GRPC_OK:
        style = "bold red"  # a gRPC call that ended with an error status
    line.append(f" {ARROWS.get(record.kind, '?')} ", style=style)
    if record.kind == "request":
        line.append(f"{record.method} {strip_controls(record.url)}", style="bold")
        # The headers are in the detail; the line keeps the one that says which wire this is.
        version = next((v for k, v in record.headers.items() if k.lower() == "a2a-version"), "")
        if version:
            line.append(f"  A2A-Version: {strip_controls(version)}", style="dim")
    elif record.kind == "response" and record.method == GRPC:
        line.append("gRPC headers", style="bold")  # the status comes at the end, in the trailers
    elif record.kind == "trailers":
        line.append(f"gRPC status {record.status}", style="bold")
        if record.headers:
            line.append("  " + "  ".join(f"{k}: {strip_controls(v)}" for k, v in record.headers.items()), style="dim")
    elif record.kind == "response":
        line.append(f"HTTP {record.status}", style="bold")
        content_type = next((v for k, v in record.headers.items() if k.lower() == "content-type"), "")
        if content_type:
            line.append(f"  {content_type}", style="dim")
    elif record.kind == "sse" and record.headers.get("event"):
        line.append(f"event: {record.headers['event']}  ", style="bold")
    summary = frame_summary(record.body) if record.kind == "sse" and len(record.body) < BODY_KEPT else None
    if summary:
        line.append(summary[:BODY_SHOWN], style="bold")
        line.append("  " + strip_controls(record.body[:BODY_READ]).replace("\n", " ")[:BODY_SHOWN], style="dim")
    elif record.body:
        # Only the shown part is cleaned (a body can be 64 KB); a little more, for the escapes that go.
        body = strip_controls(record.body[:BODY_READ]).replace("\n", " ")
        cut = len(body) > BODY_SHOWN or len(record.body) > BODY_READ or record.truncated
        line.append(("  " if record.kind != "sse" else "") + body[:BODY_SHOWN] + (" …" if cut else ""))
    return line


class WireView(ScrollView, can_focus=True):
    """A window over the tap's records, a line each, newest at the bottom. Only the lines in view are drawn, and
    only theirs are kept: a view of 5,000 drawn lines held about 17 MB of strips. It follows the newest record
    while scrolled to the end; scrolled back, the lines in view stay put as the oldest records leave the tap."""

    BINDINGS = [
        Binding("up", "cursor(-1)", "Up", show=False),
        Binding("down", "cursor(1)", "Down", show=False),
        Binding("pageup", "cursor(-20)", "Page up", show=False),
        Binding("pagedown", "cursor(20)", "Page down", show=False),
        Binding("home", "cursor_to(0)", "First", show=False),
        Binding("end", "cursor_to(-1)", "Last", show=False),
        Binding("enter", "open_record", "Open record", id="wire.open"),
    ]
    COMPONENT_CLASSES = {"wire-view--cursor"}
    DEFAULT_CSS = """
    WireView > .wire-view--cursor { background: $accent 35%; }
    """
    app = switchboard_app

    class RecordOpened(Message):
        """The person opened a record (enter, a double click): the screen shows its whole exchange."""

        def __init__(self, record: WireRecord) -> None:
            super().__init__()
            self.record = record

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.border_title = "wire · ↑↓ choose · enter opens · f2 hides"
        self._first = 0  # the number (counted from the tap's first record) of the view's first line
        self._count = 0  # the view's lines: the tap's records at the last sync
        self._drawn: dict[int, Strip] = {}  # record number -> its line, at `_drawn_width`; the latest drawn last
        self._drawn_width = 0
        self._scheduled = False
        self._following = True  # at the end: new records scroll into view
        self._cursor: int | None = None  # the chosen record's number; None: the newest, following the tap

    def on_mount(self) -> None:
        self.app.tap.listeners.append(self._receive)

    def on_unmount(self) -> None:
        if self._receive in self.app.tap.listeners:
            self.app.tap.listeners.remove(self._receive)

    def on_show(self) -> None:
        self._sync()

    def on_resize(self) -> None:
        # The width is known from the first resize on; a view at its end stays there whatever its new height.
        self.call_later(self._sync, True)

    def _receive(self, record: WireRecord) -> None:
        if not self._scheduled:
            self._scheduled = True
            self.set_timer(1 / 20, self._sync)

    @property
    def drawing(self) -> bool:
        """On screen with a known width: its lines follow the tap, and are seen."""
        return self.display and self.is_attached and self.size.width > 0

    @property
    def drawn(self) -> int:
        """How many lines are kept drawn: about a screenful, however many records there are."""
        return len(self._drawn)

    def _sync(self, resized: bool = False) -> None:
        self._scheduled = False
        tap = self.app.tap
        first = tap.emitted - len(tap.records)
        changed = (first, len(tap.records)) != (self._first, self._count)
        if not self.drawing or not (changed or resized):
            return  # hidden: nothing to lay out; the tap keeps the records (bounded) until the view is shown
        following = self._following
        gone = first - self._first  # records that left the tap since: the lines above the view move up
        self._first, self._count = first, len(tap.records)
        self.virtual_size = Size(0, self._count)  # lines are cut to the width: no scrolling sideways
        if following:
            self.scroll_end(animate=False, immediate=True, x_axis=False, force=True)
        elif gone:
            self.scroll_to(y=max(0, self.scroll_offset.y - gone), animate=False, immediate=True, force=True)
        # A scrollbar only follows the scroll while it is shown, and the first lines make it show after this.
        self.vertical_scrollbar.position = self.scroll_y
        self.refresh()

    def watch_scroll_y(self, old: float, new: float) -> None:
        super().watch_scroll_y(old, new)
        # At the end, by the user's scrolling or the view's own: it follows the newest records, through a resize too.
        self._following = new >= self.max_scroll_y

    # --- the cursor -------------------------------------------------------------------------------------

    @property
    def cursor(self) -> int | None:
        """The line (from the view's first) of the chosen record, None when there are no records."""
        if not self._count:
            return None
        if self._cursor is None:
            return self._count - 1
        return min(max(self._cursor - self._first, 0), self._count - 1)

    @property
    def chosen(self) -> WireRecord | None:
        line = self.cursor
        tap = self.app.tap
        index = None if line is None else self._first + line - (tap.emitted - len(tap.records))
        return tap.records[index] if index is not None and 0 <= index < len(tap.records) else None

    def _choose(self, line: int) -> None:
        line = min(max(line, 0), self._count - 1)
        self._cursor = None if line == self._count - 1 else self._first + line
        self.scroll_to_region(Region(0, line, 1, 1), animate=False, immediate=True)
        self.refresh()

    def action_cursor(self, step: int) -> None:
        line = self.cursor
        if line is not None:
            self._choose(line + step)

    def action_cursor_to(self, line: int) -> None:
        if self._count:
            self._choose(line if line >= 0 else self._count - 1)

    def action_open_record(self) -> None:
        record = self.chosen
        if record is not None:
            self.post_message(self.RecordOpened(record))

    def on_click(self, event: events.Click) -> None:
        line = int(self.scroll_offset.y) + event.y
        if 0 <= line < self._count:
            self._choose(line)
            if event.chain >= 2:
                self.action_open_record()

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        line = self.scroll_offset.y + y
        tap = self.app.tap
        index = self._first + line - (tap.emitted - len(tap.records))  # where the line's record is in the tap now
        if line >= self._count or not 0 <= index < len(tap.records):
            return Strip.blank(width, self.rich_style)
        if width != self._drawn_width:
            self._drawn.clear()
            self._drawn_width = width
        number = self._first + line
        strip = self._drawn.pop(number, None)
        if strip is None:
            strip = self._draw(tap.records[index], width)
            while len(self._drawn) >= max(KEPT_LINES, 2 * self.size.height):
                del self._drawn[next(iter(self._drawn))]
        self._drawn[number] = strip
        if line == self.cursor:
            strip = strip.apply_style(self.get_component_rich_style("wire-view--cursor"))
        return strip.apply_offsets(0, line)

    def _draw(self, record: WireRecord, width: int) -> Strip:
        text = record_text(record)
        text.truncate(width, overflow="ellipsis")
        segments = Segment.apply_style(text.render(self.app.console), self.rich_style)
        return Strip(segments).crop_extend(0, width, self.rich_style)

    def notify_style_update(self) -> None:
        self._drawn.clear()  # drawn in the old theme's colours
        super().notify_style_update()
