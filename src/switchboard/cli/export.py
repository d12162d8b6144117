"""`switchboard export RUN_ID` (a run from its journal as Markdown, JSON or HTML) and `send --record FILE` (one
exchange as Markdown, JSON, HTML, or its wire as HAR: the file's extension says which)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from ..a2a.auth import Redactor
from ..a2a.errors import SwitchboardError
from ..a2a.follow import Notice
from ..a2a.model import Message, Task
from ..a2a.recording import Recording, now_iso
from ..a2a.tap import Tap
from ..a2a.turn import TaskView
from ..export import FORMATS, Export, attachments_dir_for, export_transcript, export_wire, format_of, write_export
from .context import registry_of
from .output import warn


def _run_redactor(args: Any) -> Redactor:
    """Every secret the agents file and the environment lead to (the journal was redacted as it was written)."""
    from ..link import known_secrets

    redactor = Redactor()
    redactor.add(*known_secrets(None))
    for entry in registry_of(args).agents:
        redactor.add(*known_secrets(entry))
    return redactor


async def export_run(args: Any) -> int:
    from ..export.transcript import of_run
    from ..workflow.runs import read_run

    record = read_run(args.run_id)
    out = Path(args.out).expanduser() if args.out else None
    fmt = args.format or (format_of(out) if out else "markdown")
    registry = registry_of(args)
    urls = {entry.name: entry.url for entry in registry.agents}
    transcript = of_run(record, urls)
    attachments = attachments_dir_for(out) if out is not None else None
    export = export_transcript(transcript, fmt, _run_redactor(args), attachments_dir=attachments)
    return _deliver(export, out)


def _deliver(export: Export, out: Path | None) -> int:
    if out is None:
        sys.stdout.write(export.text)
        return 0
    written = write_export(export, out)
    print(f"wrote {written[0]}" + (f" and {len(written) - 1} attachment(s)" if len(written) > 1 else ""),
          file=sys.stderr)  # fmt: skip
    return 0


class SendRecorder:
    """What `send --record FILE` keeps of its one exchange, and writes once it is over (failed or not)."""

    def __init__(self, path: str, message: Message, agent: str, url: str) -> None:
        self.path = Path(path).expanduser()
        self.format = format_of(self.path)  # a name no format writes is refused before anything is sent
        self.message = message
        self.agent, self.url = agent, url
        self.sent_at = now_iso()
        self.recording = Recording()
        self.notices: list[str] = []
        self.tap: Tap | None = None

    async def events(self, events: AsyncIterator) -> AsyncIterator:
        """Pass the turn's events on, keeping each."""
        async for event in events:
            if isinstance(event, Notice):
                self.notices.append(event.text)
            else:
                self.recording.add(event)
            yield event

    def result(self, result: Task | Message) -> None:
        self.recording.add(result)

    def save(self, view: TaskView, error: SwitchboardError | None = None) -> None:
        """Write the record; a failure to write it is a warning (the exchange itself is done)."""
        from ..export.transcript import of_send

        redactor = self.tap.redactor if self.tap is not None else Redactor()
        try:
            if self.format == "har":
                tap = self.tap or Tap()
                export = export_wire(list(tap.records), tap.wall_start, redactor)
            else:
                transcript = of_send(
                    self.message, self.sent_at, self.recording, view, self.agent, self.url, self.notices
                )
                if error is not None:
                    transcript.exchanges[0].error = {"code": error.code, "message": error.message}
                attachments = attachments_dir_for(self.path)
                export = export_transcript(transcript, self.format, redactor, attachments_dir=attachments)
            write_export(export, self.path)
        except (OSError, SwitchboardError) as exc:
            warn(f"could not write the record {self.path}: {exc}")
            return
        print(f"recorded the exchange in {self.path} ({self.format})", file=sys.stderr)


__all__ = ["FORMATS", "SendRecorder", "export_run"]
