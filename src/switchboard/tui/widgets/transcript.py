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
from textual.css.query import NoMatches
from textual.message import Message
from textual.strip import Strip
from textual.widgets import Markdown, Static

from ...a2a.model import DataPart, FilePart, Part, TaskState, TaskStatus, TextPart
from ...a2a.turn import ArtifactView, TaskView
from ...a2ui.surfaces import SurfaceSet, surface_ids
from ...a2ui.text import part_summary
from ...conversation import Turn
from ...safe_text import strip_controls
from ..hints import error_text
from ..themes import state_variable
from .a2ui.surface import A2uiSurface
from .markdown_pages import PAGE, FrozenPages, LivePage, is_markdown, page_cut

TIMELINE_SHOWN = 60  # the newest status lines; older ones fold into a count


def clock(timestamp: str | None) -> str:
    """HH:MM:SS from the agent's ISO timestamp (both sdk styles), or blank."""
    if not timestamp or "T" not in timestamp:
        return "        "
    return timestamp.split("T", 1)[1][:8]


def human_size(size: int | None) -> str:
    if size is None:
        return "size unknown"
    scaled: float = size  # bytes, then kilobytes, ...
    for unit in ("bytes", "KB", "MB", "GB"):
        if scaled < 1024 or unit == "GB":
            return f"{size} {unit}" if unit == "bytes" else f"{scaled:.1f} {unit}"
        scaled /= 1024
    return ""


def state_badge(state) -> Content:
    label = state.value if state else "…"
    return Content.styled(f" {label} ", f"bold {state_variable(state)} reverse")


REPLY_BADGE = Content.styled(" reply ", "bold $primary reverse")


def turn_state(turn: Turn) -> list[Content]:
    """The state of `turn`'s task as a badge; when its agent went away mid-task (Turn.lost), `unknown` and why:
    its last word ("working") is not the task's state any more. A turn answered by a message (no task) says
    `reply`: there is no state to wait for."""
    state = turn.view.state
    if state is None and turn.view.reply is not None:
        return [REPLY_BADGE]
    if not turn.lost or turn.error is None or state is None:
        return [state_badge(state)]
    reason = strip_controls(turn.error.message)
    reason = reason if len(reason) <= 100 else reason[:99] + "…"
    return [state_badge(TaskState.UNKNOWN), Content.styled(f"  lost (last seen {state.value}): {reason}", "$error")]


def parts_content(parts: list[Part]) -> Content:
    """Text parts as plain text, data parts as JSON, files by name: for status messages and questions."""
    pieces: list[str] = []
    text = "".join(p.text for p in parts if isinstance(p, TextPart))
    if text:
        pieces.append(text)
    for part in parts:
        summary = part_summary(part)
        if summary is not None:
            pieces.append(summary)
        elif isinstance(part, DataPart):
            pieces.append(json.dumps(part.data, indent=2, ensure_ascii=False))
        elif isinstance(part, FilePart):
            pieces.append(f"[file] {part.name or '(unnamed)'} · {part.media_type or 'type unknown'}")
    return Content(strip_controls("\n".join(pieces)))


def timeline_text(parts: list[Part]) -> str:
    """One line for the timeline: the text, and a note of what else the message carries."""
    text = strip_controls("".join(p.text for p in parts if isinstance(p, TextPart))).replace("\n", " ")
    forms = [s for s in map(part_summary, parts) if s is not None]
    extras = sum(1 for p in parts if not isinstance(p, TextPart)) - len(forms)
    text += "".join(f"  {form}" for form in forms)
    return text + (f"  (+{extras} data/file part{'s' if extras != 1 else ''})" if extras else "")


class NoteLine(Static):
    """An oddity noted about the agent or its events (the reducer's or the client's notes): a muted warning."""

    DEFAULT_CSS = "NoteLine { height: auto; padding: 0 1; }"

    def __init__(self, text: str) -> None:
        super().__init__(Content.assemble(("⚠ ", "$warning"), (strip_controls(text), "$text-muted italic")))


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

    def show(self, statuses: list[TaskStatus], dropped: int = 0) -> None:
        """`dropped`: statuses the task view no longer keeps (they came before these), counted with the hidden."""
        hidden = max(0, len(statuses) - TIMELINE_SHOWN)
        lines: list[Content] = []
        if hidden + dropped:
            lines.append(Content.styled(f"… {hidden + dropped} earlier updates", "$text-muted italic"))
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


HELD_BACK = 256  # an escape sequence may be cut between chunks: text from a late ESC waits for the next sync


class Column(Vertical):
    """A vertical container that draws no content of its own (its children and its styles' background do).

    A widget renders every line of its height when any line is painted; a container as tall as a long
    transcript would render thousands of blank lines per frame and keep them. Its borders and padding are
    drawn around these lines as for any widget.
    """

    def render_line(self, y: int) -> Strip:
        return Strip.blank(self.size.width, self.visual_style.rich_style)


class ArtifactBox(Column):
    """One artifact: its title, then its parts; text grows in place as chunks stream in.

    Only the newest page of text is drawn again as chunks come (its cost grows with its length); earlier
    pages are frozen. Text past the render limit is counted, not drawn; it stays in the task view for saving.
    """

    DEFAULT_CSS = """
    ArtifactBox > .artifact-pages { height: auto; margin: 0; padding: 0; }
    """

    def __init__(self, artifact: ArtifactView, render_limit: int) -> None:
        super().__init__(classes="artifact")
        self.artifact_id = artifact.artifact_id
        self.render_limit = render_limit
        self._view: ArtifactView | None = None
        self._taken = 0  # characters of the artifact's text passed to the screen (or held back)
        self._held = ""  # the raw tail held back from the last sync
        self._live = ""  # the live widget's source
        self._title: Content | None = None
        self._cut: Static | None = None
        self._cut_text = ""
        self._shown_other = 0
        self._plain = False  # the text is drawn as plain text (its media type is not Markdown's)

    def compose(self) -> ComposeResult:
        yield Static(classes="artifact-title")
        yield FrozenPages()
        yield LivePage()

    @property
    def source(self) -> str:
        """The text on screen (Markdown or plain): the frozen pages and the live one, in order. Read at any time:
        between a replaced text's old pages going and new ones coming (or before compose) there are none."""
        pages = self.query(FrozenPages)
        return "".join(pages.first().sources if pages else ()) + self._live

    async def sync(self, artifact: ArtifactView, final: bool = False) -> None:
        """Show what is new in `artifact`; `final`: the turn is over, so nothing held back waits for more."""
        try:
            await self._sync(artifact, final)
        except NoMatches:  # being removed (a tab closed, the app quitting): Textual takes the parts away first
            return

    async def _sync(self, artifact: ArtifactView, final: bool) -> None:
        title = Content.assemble(
            ("◆ ", "$secondary"),
            (strip_controls(artifact.name or artifact.artifact_id), "bold"),
            (f"  {artifact.chunks} chunk{'s' if artifact.chunks != 1 else ''}", "$text-muted"),
            ("  ✓" if artifact.closed else "  …", "$success" if artifact.closed else "$text-muted"),
        )
        if title != self._title:
            self._title = title
            self.query_one(".artifact-title", Static).update(title)
        await self._sync_text(artifact, final or artifact.closed)
        others = [p for p in artifact.parts if not isinstance(p, TextPart)]
        for part in others[self._shown_other :]:
            if isinstance(part, DataPart):
                await self.mount(JsonBlock(part.data))
            elif isinstance(part, FilePart):
                await self.mount(FileRow(part))
        self._shown_other = len(others)

    async def _sync_text(self, artifact: ArtifactView, final: bool) -> None:
        live = self.query_one(LivePage)
        total = artifact.text_length
        if artifact is not self._view or total < self._taken:  # a chunk without `append` replaced the text
            self._view, self._taken, self._held, self._live = artifact, 0, "", ""
            await self.query_one(FrozenPages).remove()
            await self.mount(FrozenPages(), before=live)
            live.show("")
        if not self._taken and total:  # the first text decides how all of it is drawn
            self._plain = not is_markdown(artifact.text_media_type)
            live.plain = self.query_one(FrozenPages).plain = self._plain
        end = min(total, self.render_limit)
        if self._taken < end:
            # Claim the delta before any await: a sync must never add the same text twice.
            raw = self._held + artifact.text_from(self._taken, end)
            self._taken = end
            self._held = ""
            escape = max(raw.rfind("\x1b", len(raw) - HELD_BACK), raw.rfind("\x9b", len(raw) - HELD_BACK))
            if not final and end < self.render_limit and (escape >= 0 or raw.endswith("\r")):
                keep = escape if escape >= 0 else len(raw) - 1
                raw, self._held = raw[:keep], raw[keep:]
            await self._show(live, strip_controls(raw))
        elif self._held and (final or end >= self.render_limit):
            held, self._held = self._held, ""
            await self._show(live, strip_controls(held))
        live.display = bool(self._live)  # no text yet (or all of it in frozen pages): no empty block
        await self._note_cut(total)

    async def _show(self, page: LivePage, text: str) -> None:
        if not text:
            return
        live = self._live + text
        frozen: list[str] = []
        while len(live) > PAGE and (cut := page_cut(live, self._plain)):
            frozen.append(live[:cut])
            live = live[cut:]
        self._live = live
        if frozen:
            self.query_one(FrozenPages).add(frozen)
        page.show(live)

    async def _note_cut(self, total: int) -> None:
        hidden = total - self.render_limit
        if hidden <= 0:
            return
        text = f"… {hidden:,} more characters not shown; ctrl+s saves the whole artifact"
        if self._cut is None:
            self._cut = Static(classes="artifact-cut")
            await self.mount(self._cut, after=self.query_one(LivePage))
        if text != self._cut_text:
            self._cut_text = text
            self._cut.update(Content.styled(text, "$warning italic"))


class JsonBlock(Static):
    """A data part as highlighted JSON."""

    def __init__(self, data) -> None:
        from rich.json import JSON

        # json.dumps escapes C0 controls but leaves C1 controls and bidi overrides raw: those are stripped.
        super().__init__(JSON(strip_controls(json.dumps(data, ensure_ascii=False))), classes="json-block")


class TurnView(Column):
    """The agent's side of one turn, synced from its TaskView; each sync touches only what changed."""

    def __init__(self, turn: Turn, render_limit: int, surfaces: SurfaceSet | None = None) -> None:
        """`surfaces`: the conversation's A2UI surfaces; those this turn's messages made are drawn live under it
        (the one a question asks with is the prompt pane's)."""
        super().__init__(classes="turn")
        self.turn = turn
        self.render_limit = render_limit
        self.surfaces = surfaces
        self._forms: dict[str, A2uiSurface] = {}
        self._notices = 0
        self._noted = 0  # the task view's notes shown
        self._head: Content | None = None
        self._timeline: tuple[int, TaskStatus | None] = (-1, None)
        self._boxes: dict[str, ArtifactBox] = {}
        self._replied = False
        self._errored = False

    def compose(self) -> ComposeResult:
        yield Static(classes="turn-head")
        yield Timeline(classes="timeline")
        yield Column(classes="artifacts")
        yield Column(classes="forms")
        yield Column(classes="notices")

    async def sync(self) -> None:
        view: TaskView = self.turn.view
        head = turn_state(self.turn) if view.reply is None else []
        if view.task_id:
            head.append(Content.styled(f"  task {view.task_id}", "$text-muted"))
        if view.reply is not None:
            head = [REPLY_BADGE]
        content = Content("").join(head)
        if content != self._head:
            self._head = content
            self.query_one(".turn-head", Static).update(content)
        seen = (len(view.timeline) + view.timeline_dropped, view.timeline[-1] if view.timeline else None)
        if seen != self._timeline:
            self._timeline = seen
            timeline = self.query_one(Timeline)
            timeline.display = bool(view.timeline)
            timeline.show(view.timeline, view.timeline_dropped)
        box = self.query_one(".artifacts", Vertical)
        if view.reply is not None and not self._replied:
            self._replied = True
            said = strip_controls(view.reply.text)
            kind = next((p.media_type for p in view.reply.parts if isinstance(p, TextPart)), None)
            await box.mount(
                Markdown(said, classes="reply") if is_markdown(kind) else Static(Content(said), classes="reply")
            )
        final = not self.turn.running
        for artifact_id, artifact in list(view.artifacts.items()):
            widget = self._boxes.get(artifact_id)
            if widget is None:
                widget = self._boxes[artifact_id] = ArtifactBox(artifact, self.render_limit)
                await box.mount(widget)
            await widget.sync(artifact, final)
        if self.surfaces is not None:
            await self._sync_forms(view)
        notices = self.turn.notices
        for notice in notices[self._notices :]:
            style = "$warning" if notice.level == "warning" else "$text-muted"
            await self.query_one(".notices", Vertical).mount(
                Static(Content.styled(f"↻ {strip_controls(notice.text)}", f"{style} italic"), classes="notice")
            )
        self._notices = len(notices)
        if len(view.notes) > self._noted:
            fresh, self._noted = view.notes[self._noted :], len(view.notes)
            await self.add_notes(fresh)
        if self.turn.error is not None and not self._errored:
            self._errored = True
            error = self.turn.error
            text = strip_controls(error_text(error))
            await self.mount(Static(Content(text), classes="turn-error"))

    async def _sync_forms(self, view: TaskView) -> None:
        """The surfaces this turn made, live (redrawn as the agent changes them, gone when it deletes them)."""
        assert self.surfaces is not None
        ids: list[str] = []
        for status in view.timeline:
            ids += surface_ids(status.message.parts) if status.message is not None else []
        for artifact in view.artifacts.values():
            ids += surface_ids(artifact.parts)
        ids += surface_ids(view.reply.parts) if view.reply is not None else []
        asked = surface_ids(view.question) if view.state is not None and view.state.is_interrupted else []
        wanted = [i for i in dict.fromkeys(ids) if i not in asked and self.surfaces.get(i) is not None]
        for surface_id, form in list(self._forms.items()):
            if surface_id in wanted:
                await form.redraw()
            else:
                del self._forms[surface_id]
                await form.remove()
        for surface_id in wanted:
            if surface_id not in self._forms:
                form = self._forms[surface_id] = A2uiSurface(self.surfaces, surface_id, classes="turn-form")
                await self.query_one(".forms", Column).mount(form)

    async def add_notes(self, notes: list[str]) -> None:
        """Show notes (protocol oddities, the client's warnings) under the turn."""
        await self.query_one(".notices", Column).mount_all([NoteLine(text) for text in notes])
