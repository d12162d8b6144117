"""The wire view: every HTTP request and response and every SSE frame, timed, secrets already redacted.

The app's Tap holds the records; the view draws them in batches, once per frame, and only while it is on
screen: hidden, it draws nothing and holds nothing, and when shown it catches up from the tap. A flood of
frames is drawn as its newest lines, so a batch costs a bounded render whatever the rate. The view keeps the
newest `wire_records` lines (a setting), each body cut to a line.
"""

from __future__ import annotations

from itertools import islice

from rich.text import Text
from textual.widgets import RichLog

from ...a2a.tap import WireRecord
from ...safe_text import strip_controls

BODY_SHOWN = 160  # characters of a body on its line; the tap keeps more
BATCH = 200  # the most records drawn at once; older ones in a batch are counted on a line of their own
ARROWS = {"request": "→", "response": "←", "sse": "⇠", "error": "✕", "note": "·"}
STYLES = {"request": "bold cyan", "response": "bold green", "sse": "magenta", "error": "bold red", "note": "dim"}


def record_text(record: WireRecord) -> Text:
    took = f" {record.elapsed_ms:6.0f}ms" if record.elapsed_ms is not None else " " * 9
    line = Text(no_wrap=False)
    line.append(f"{record.at:8.3f}s #{record.exchange:<3}", style="dim")
    line.append(took, style="dim")
    line.append(f" {ARROWS.get(record.kind, '?')} ", style=STYLES.get(record.kind, ""))
    if record.kind == "request":
        line.append(f"{record.method} {strip_controls(record.url)}", style="bold")
        interesting = {k: v for k, v in record.headers.items() if k.lower() not in ("host", "user-agent")}
        if interesting:
            line.append("  " + "  ".join(f"{k}: {strip_controls(v)}" for k, v in interesting.items()), style="dim")
    elif record.kind == "response":
        line.append(f"HTTP {record.status}", style="bold")
        content_type = next((v for k, v in record.headers.items() if k.lower() == "content-type"), "")
        if content_type:
            line.append(f"  {content_type}", style="dim")
    elif record.kind == "sse" and record.headers.get("event"):
        line.append(f"event: {record.headers['event']}  ", style="bold")
    if record.body:
        # Only the shown part is cleaned (a body can be 64 KB); a little more, for the escapes that go.
        body = strip_controls(record.body[: BODY_SHOWN * 4]).replace("\n", " ")
        cut = len(body) > BODY_SHOWN or len(record.body) > BODY_SHOWN * 4 or record.truncated
        line.append(("  " if record.kind != "sse" else "") + body[:BODY_SHOWN] + (" …" if cut else ""))
    return line


def skipped_text(count: int) -> Text:
    return Text(f"… {count:,} records not drawn (they came faster than a frame)", style="dim italic")


class WireView(RichLog):
    def __init__(self, **kwargs) -> None:
        super().__init__(max_lines=5000, wrap=True, markup=False, highlight=False, auto_scroll=True, **kwargs)
        self.border_title = "wire · f2 hides"
        self._drawn = 0  # the tap's records up to this count are drawn (or were skipped)
        self._scheduled = False

    def on_mount(self) -> None:
        self.max_lines = self.app.settings.wire_records
        tap = self.app.tap
        # What came before the view: the newest records, drawn when it is first shown.
        self._drawn = max(0, tap.emitted - 500)
        tap.listeners.append(self._receive)

    def on_unmount(self) -> None:
        if self._receive in self.app.tap.listeners:
            self.app.tap.listeners.remove(self._receive)

    def on_show(self) -> None:
        self._flush()

    def on_resize(self) -> None:
        # RichLog learns its width on its first resize; the records waiting for that are drawn then.
        self.call_later(self._flush)

    def _receive(self, record: WireRecord) -> None:
        if not self._scheduled:
            self._scheduled = True
            self.set_timer(1 / 20, self._flush)

    @property
    def drawing(self) -> bool:
        """On screen with a known width: records drawn now cost a render each, and are seen."""
        return self.display and self.is_attached and self.size.width > 0

    def _flush(self) -> None:
        self._scheduled = False
        tap = self.app.tap
        new = tap.emitted - self._drawn
        if new <= 0 or not self.drawing:
            return  # hidden: the tap keeps the records (bounded), drawn when the view is shown
        self._drawn = tap.emitted
        records = tap.records
        wanted = min(new, BATCH, len(records))
        if new > wanted:
            self.write(skipped_text(new - wanted))
        for record in _newest(records, wanted):
            self.write(record_text(record))


def _newest(records, count: int) -> list[WireRecord]:
    """The newest `count` records of a deque, oldest first, without copying the rest."""
    newest = list(islice(reversed(records), count))
    newest.reverse()
    return newest
