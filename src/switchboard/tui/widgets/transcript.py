"""The pieces of a conversation's transcript: the person's message, and the agent's turn (status timeline,
artifacts growing as chunks arrive, notices about the connection, errors).

Everything the agent sent is shown as data: control sequences stripped, markup never interpreted.
"""

from __future__ import annotations

import json

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import Markdown, Static

from ...a2a.model import DataPart, FilePart, Part, TaskStatus, TextPart
from ...a2a.turn import ArtifactView, TaskView
from ...conversation import Turn
from ...safe_text import strip_controls
from ..themes import state_variable

TIMELINE_SHOWN = 60  # the newest status lines; older ones fold into a count


def clock(timestamp: str | None) -> str:
    """HH:MM:SS from the agent's ISO timestamp (both sdk styles), or blank."""
    if not timestamp or "T" not in timestamp:
        return "        "
    return timestamp.split("T", 1)[1][:8]


def human_size(size: int | None) -> str:
    if size is None:
        return "size unknown"
    for unit in ("bytes", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size} {unit}" if unit == "bytes" else f"{size:.1f} {unit}"
        size /= 1024
    return ""


def state_badge(state) -> Content:
    label = state.value if state else "…"
    return Content.styled(f" {label} ", f"bold {state_variable(state)} reverse")


def parts_content(parts: list[Part]) -> Content:
    """Text parts as plain text, data parts as JSON, files by name: for status messages and questions."""
    pieces: list[str] = []
    text = "".join(p.text for p in parts if isinstance(p, TextPart))
    if text:
        pieces.append(text)
    for part in parts:
        if isinstance(part, DataPart):
            pieces.append(json.dumps(part.data, indent=2, ensure_ascii=False))
        elif isinstance(part, FilePart):
            pieces.append(f"[file] {part.name or '(unnamed)'} · {part.media_type or 'type unknown'}")
    return Content(strip_controls("\n".join(pieces)))


def timeline_text(parts: list[Part]) -> str:
    """One line for the timeline: the text, and a note of what else the message carries."""
    text = strip_controls("".join(p.text for p in parts if isinstance(p, TextPart))).replace("\n", " ")
    extras = sum(1 for p in parts if not isinstance(p, TextPart))
    return text + (f"  (+{extras} data/file part{'s' if extras != 1 else ''})" if extras else "")


class UserMessage(Static):
    """What the person sent (a credential shows masked)."""

    def __init__(self, turn: Turn) -> None:
        if turn.secret:
            body = "•••••••• (credential, kept in memory only)"
        else:
            body = strip_controls(parts_content(turn.message.parts).plain)
        super().__init__(Content.assemble(("you  ", "bold $primary"), body), classes="user-message")


class Timeline(Static):
    """Each state with its time and the status message text."""

    def show(self, statuses: list[TaskStatus]) -> None:
        hidden = max(0, len(statuses) - TIMELINE_SHOWN)
        lines: list[Content] = []
        if hidden:
            lines.append(Content.styled(f"… {hidden} earlier updates", "$text-muted italic"))
        for status in statuses[hidden:]:
            message = timeline_text(status.message.parts) if status.message else ""
            lines.append(
                Content.assemble(
                    (clock(status.timestamp), "$text-muted"),
                    "  ",
                    (f"{status.state.value:<15}", f"bold {state_variable(status.state)}"),
                    message,
                )
            )
        self.update(Content("\n").join(lines))


class FileRow(Static, can_focus=True):
    """A file part: name, type and size; enter or s saves it."""

    BINDINGS = [Binding("enter,s", "save", "Save file", id="file.save")]

    class SaveRequested(Message):
        def __init__(self, part: FilePart) -> None:
            super().__init__()
            self.part = part

    def __init__(self, part: FilePart) -> None:
        where = "inline" if part.raw is not None else (part.url or "")
        label = Content.assemble(
            ("▤ ", "$accent"),
            (strip_controls(part.name or "(unnamed file)"), "bold"),
            f"  {strip_controls(part.media_type or 'type unknown')} · {human_size(part.size)} · ",
            (strip_controls(where), "$text-muted"),
            ("   s save", "$text-muted italic"),
        )
        super().__init__(label, classes="file-row")
        self.part = part

    def action_save(self) -> None:
        self.post_message(self.SaveRequested(self.part))


class ArtifactBox(Vertical):
    """One artifact: its title, then its parts; text grows in place as chunks stream in."""

    def __init__(self, artifact: ArtifactView, render_limit: int) -> None:
        super().__init__(classes="artifact")
        self.artifact_id = artifact.artifact_id
        self.render_limit = render_limit
        self._shown_text = ""
        self._shown_other = 0

    def compose(self) -> ComposeResult:
        yield Static(classes="artifact-title")
        yield Markdown(classes="artifact-text")

    async def sync(self, artifact: ArtifactView) -> None:
        title = Content.assemble(
            ("◆ ", "$secondary"),
            (strip_controls(artifact.name or artifact.artifact_id), "bold"),
            (f"  {artifact.chunks} chunk{'s' if artifact.chunks != 1 else ''}", "$text-muted"),
            ("  ✓" if artifact.closed else "  …", "$success" if artifact.closed else "$text-muted"),
        )
        self.query_one(".artifact-title", Static).update(title)
        await self._sync_text(artifact.text)
        others = [p for p in artifact.parts if not isinstance(p, TextPart)]
        for part in others[self._shown_other :]:
            if isinstance(part, DataPart):
                await self.mount(JsonBlock(part.data))
            elif isinstance(part, FilePart):
                await self.mount(FileRow(part))
        self._shown_other = len(others)

    async def _sync_text(self, text: str) -> None:
        markdown = self.query_one(".artifact-text", Markdown)
        markdown.display = bool(text)
        cut = len(text) > self.render_limit
        visible = strip_controls(text[: self.render_limit])
        shown, self._shown_text = self._shown_text, visible  # before any await: a sync must not repeat a delta
        if shown and visible.startswith(shown):
            if len(visible) > len(shown):
                await markdown.append(visible[len(shown) :])
        elif visible != shown:
            await markdown.update(visible)
        if cut and not self.query(".artifact-cut"):
            await self.mount(
                Static(
                    Content.styled(
                        f"… {len(text) - self.render_limit:,} more characters not shown; s on a file or "
                        "ctrl+s saves the whole artifact",
                        "$warning italic",
                    ),
                    classes="artifact-cut",
                )
            )


class JsonBlock(Static):
    """A data part as highlighted JSON."""

    def __init__(self, data) -> None:
        from rich.json import JSON

        # json.dumps escapes C0 controls but leaves C1 controls and bidi overrides raw: those are stripped.
        super().__init__(JSON(strip_controls(json.dumps(data, ensure_ascii=False))), classes="json-block")


class TurnView(Vertical):
    """The agent's side of one turn, synced from its TaskView."""

    def __init__(self, turn: Turn, render_limit: int) -> None:
        super().__init__(classes="turn")
        self.turn = turn
        self.render_limit = render_limit
        self._notices = 0

    def compose(self) -> ComposeResult:
        yield Static(classes="turn-head")
        yield Timeline(classes="timeline")
        yield Vertical(classes="artifacts")
        yield Vertical(classes="notices")

    async def sync(self) -> None:
        view: TaskView = self.turn.view
        head = [state_badge(view.state if view.reply is None else None)] if view.reply is None else []
        if view.task_id:
            head.append(Content.styled(f"  task {view.task_id}", "$text-muted"))
        if view.reply is not None:
            head = [Content.styled(" reply ", "bold $primary reverse")]
        self.query_one(".turn-head", Static).update(Content("").join(head))
        timeline = self.query_one(Timeline)
        timeline.display = bool(view.timeline)
        timeline.show(view.timeline)
        box = self.query_one(".artifacts", Vertical)
        if view.reply is not None and not box.query(".reply"):
            await box.mount(Markdown(strip_controls(view.reply.text), classes="reply"))
        existing = {child.artifact_id: child for child in box.query(ArtifactBox)}
        for artifact_id, artifact in view.artifacts.items():
            widget = existing.get(artifact_id)
            if widget is None:
                widget = ArtifactBox(artifact, self.render_limit)
                await box.mount(widget)
            await widget.sync(artifact)
        notices = self.turn.notices
        for notice in notices[self._notices :]:
            style = "$warning" if notice.level == "warning" else "$text-muted"
            await self.query_one(".notices", Vertical).mount(
                Static(Content.styled(f"↻ {strip_controls(notice.text)}", f"{style} italic"), classes="notice")
            )
        self._notices = len(notices)
        if self.turn.error is not None and not self.query(".turn-error"):
            error = self.turn.error
            text = f"{error.code}: {strip_controls(error.message)}" + (f"\n{error.hint}" if error.hint else "")
            await self.mount(Static(Content(text), classes="turn-error"))
