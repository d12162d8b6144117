"""What the TUI exports, and where: the conversation or run of the shown tab (Markdown, JSON, HTML) and the
wire (HAR), written under DATA_DIR/exports, secrets redacted by the app's tap redactor. ctrl+o and the palette
lead here."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from ..export import FORMATS, attachments_dir_for, export_transcript, export_wire, write_export
from ..paths import data_dir

if TYPE_CHECKING:
    from textual.app import App

    from .app import SwitchboardApp
    from .widgets.conversation_view import ConversationView
    from .widgets.run_view import RunView

TRANSCRIPT_FORMATS = ("markdown", "json", "html")
LABELS = {"markdown": "Markdown", "json": "JSON (replayable)", "html": "HTML page", "har": "HAR"}


def exports_dir() -> Path:
    return data_dir() / "exports"


def _target(stem: str, fmt: str) -> Path:
    cleaned = "".join(c if c.isalnum() or c in "-_." else "-" for c in stem).strip("-.")[:60] or "export"
    stamp = datetime.now().strftime("%Y%m%dT%H%M%S")
    path = exports_dir() / f"{cleaned}-{stamp}{FORMATS[fmt]}"
    n = 2
    while path.exists():
        path = exports_dir() / f"{cleaned}-{stamp}-{n}{FORMATS[fmt]}"
        n += 1
    return path


def export_conversation(app: SwitchboardApp, view: ConversationView, fmt: str) -> Path:
    from ..export.transcript import of_conversation

    if view.conversation is None or not view.conversation.turns:
        raise LookupError("nothing to export yet: the conversation has no turn")
    transcript = of_conversation(view.conversation, view.agent_name, view.status.entry.url)
    path = _target(f"conversation-{view.agent_name}", fmt)
    export = export_transcript(transcript, fmt, app.tap.redactor, attachments_dir=attachments_dir_for(path))
    write_export(export, path)
    return path


def export_run(app: SwitchboardApp, view: RunView, fmt: str) -> Path:
    from ..export.transcript import of_run
    from ..workflow.runs import read_run

    run_id = view.run.run_id if view.run is not None else view.record.run_id if view.record else None
    if run_id is None:
        raise LookupError("nothing to export yet: the run has not started")
    urls = {entry.name: entry.url for entry in app.agents()}
    path = _target(f"run-{run_id}", fmt)
    export = export_transcript(
        of_run(read_run(run_id), urls), fmt, app.tap.redactor, attachments_dir=attachments_dir_for(path)
    )
    write_export(export, path)
    return path


def export_the_wire(app: SwitchboardApp) -> Path:
    tap = app.tap
    if not tap.records:
        raise LookupError("nothing to export yet: no request went out")
    path = _target("wire", "har")
    write_export(export_wire(list(tap.records), tap.wall_start, tap.redactor), path)
    return path


def choices(
    app: SwitchboardApp, shown: tuple[str, ConversationView | RunView] | None = None
) -> list[tuple[str, Callable[[], Path]]]:
    """What can be exported as it is: the `shown` tab's conversation or run (its kind and view, from the main
    screen's shown_view), then the wire."""
    from .widgets.conversation_view import ConversationView

    found: list[tuple[str, Callable[[], Path]]] = []
    if shown is not None:
        kind, view = shown
        for fmt in TRANSCRIPT_FORMATS:
            if isinstance(view, ConversationView):
                export = partial(export_conversation, app, view, fmt)
            else:
                export = partial(export_run, app, view, fmt)
            found.append((f"This {kind} as {LABELS[fmt]}", export))
    found.append(("The wire as HAR (every request, response and SSE frame)", lambda: export_the_wire(app)))
    return found


def run_export(app: App, export: Callable[[], Path]) -> None:
    """Write one export and say where it went (or why it could not be written)."""
    try:
        path = export()
    except LookupError as exc:
        app.notify(str(exc), severity="warning")
        return
    except Exception as exc:  # a file that cannot be written, a journal that cannot be read
        app.notify(f"could not export: {exc}", severity="error", markup=False)
        return
    app.notify(f"exported to {path}", markup=False, timeout=8)
