"""`switchboard export RUN_ID` (a run from its journal as Markdown, JSON or HTML) and `send --record FILE` (one
exchange as Markdown, JSON, HTML, or its wire as HAR: the file's extension says which)."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..a2a.errors import SwitchboardError, UsageError
from ..a2a.follow import Notice
from ..a2a.model import Message, Task, TaskState
from ..a2a.recording import Recording, now_iso
from ..a2a.redact import Redactor
from ..a2a.tap import Tap
from ..a2a.turn import TaskView
from ..export import FORMATS, Export, attachments_dir_for, export_transcript, export_wire, format_of, write_export
from ..export.transcript import Exchange, Transcript
from .context import registry_of
from .output import warn

if TYPE_CHECKING:
    from .groups.export import ExportOptions


def _run_redactor(options: ExportOptions) -> Redactor:
    """Every secret the agents file and the environment lead to (the journal was redacted as it was written)."""
    from ..agent_http import known_secrets

    redactor = Redactor()
    redactor.add(*known_secrets(None))
    for entry in registry_of(options).agents:
        redactor.add(*known_secrets(entry))
    return redactor


async def export_run(options: ExportOptions) -> int:
    from ..export.transcript import of_run
    from ..workflow.runs import read_run

    record = read_run(options.run_id)
    out = Path(options.out).expanduser() if options.out else None
    fmt = options.format or (format_of(out) if out else "markdown")
    registry = registry_of(options)
    urls = {entry.name: entry.url for entry in registry.agents}
    transcript = of_run(record, urls)
    attachments = attachments_dir_for(out) if out is not None else None
    export = export_transcript(transcript, fmt, _run_redactor(options), attachments_dir=attachments)
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
    """What `send --record FILE` keeps of its one exchange, and writes once it is over (failed or not).

    A record is never replaced: onto a JSON recording of the same agent the exchange is added as its next turn (a
    conversation recorded message by message replays whole); onto anything else `send` refuses before it sends."""

    def __init__(self, path: str, message: Message, agent: str, url: str) -> None:
        self.path = Path(path).expanduser()
        self.format = format_of(self.path)  # a name no format writes is refused before anything is sent
        self.message = message
        self.agent, self.url = agent, url
        self.sent_at = now_iso()
        self.recording = Recording()
        self.notices: list[str] = []
        self.tap: Tap | None = None
        if self.path.exists() or self.path.is_symlink():
            self._check_addable()

    def _check_addable(self) -> None:
        """UsageError, before anything is sent, unless the exchange can be added to the file that is there."""
        fresh = f"{self.path.stem}-2{self.path.suffix}"
        if self.format != "json":
            raise UsageError(
                f"{self.path} exists; --record does not replace a record",
                hint=f"Give a new name (e.g. {fresh}), or record to .json: a JSON recording gathers the turns.",
            )
        from .replay import read_recording

        transcript = read_recording(self.path)  # a UsageError that names the file when it is not a recording
        agents = {e.agent for e in transcript.exchanges}
        if transcript.kind == "run" or not agents <= {self.agent}:
            held = "a run" if transcript.kind == "run" else f"a recording of {', '.join(sorted(agents))}"
            raise UsageError(
                f"{self.path} is {held}; --record adds a turn only to a recording of the same agent ({self.agent})",
                hint=f"Give a new name, e.g. {fresh}.",
            )

    async def events(self, events: AsyncIterator[Any]) -> AsyncIterator[Any]:
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
                if self.path.exists():
                    from .replay import read_recording

                    transcript = self._added_to(read_recording(self.path), transcript.exchanges[0])
                attachments = attachments_dir_for(self.path)
                export = export_transcript(transcript, self.format, redactor, attachments_dir=attachments)
            write_export(export, self.path)
        except (OSError, SwitchboardError) as exc:
            warn(f"could not write the record {self.path}: {exc}")
            return
        print(f"recorded the exchange in {self.path} ({self.format})", file=sys.stderr)

    def _added_to(self, transcript: Transcript, exchange: Exchange) -> Transcript:
        """`transcript` (the file as it is now) with `exchange` as its next turn: in the view of the task it
        continues (answering that task's last status when it waited for this answer), else in a view of its own."""
        from ..export.transcript import replay

        task_id = exchange.message.task_id if exchange.message is not None else None
        views = {e.view for e in transcript.exchanges if task_id and task_id in _tasks_of(e)}
        if views:
            exchange.view = max(views)
            status = replay(transcript)[exchange.view].status
            if status is not None and status.state in (TaskState.INPUT_REQUIRED, TaskState.AUTH_REQUIRED):
                exchange.answers = status
        else:
            exchange.view = max((e.view for e in transcript.exchanges), default=0) + 1
        transcript.exchanges.append(exchange)
        if self.url:
            transcript.agents.setdefault(self.agent, self.url)
        turns = len(transcript.exchanges)
        transcript.title = f"{self.agent}: {turns} message{'s' if turns > 1 else ''}"
        return transcript


def _tasks_of(exchange: Exchange) -> set[str]:
    """The task ids an exchange's message and events name."""
    found = {exchange.message.task_id} if exchange.message is not None and exchange.message.task_id else set()
    for recorded in exchange.events:
        event = recorded.event
        task_id = event.id if isinstance(event, Task) else getattr(event, "task_id", None)
        if task_id:
            found.add(task_id)
    return found


__all__ = ["FORMATS", "SendRecorder", "export_run"]
