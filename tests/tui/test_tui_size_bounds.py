"""Huge artifacts and endless streams in the TUI: the screen stays bounded and responsive, saving writes the
whole artifact, and a long markdown artifact is paged without losing or repeating a character."""

from __future__ import annotations

import asyncio
import hashlib
import tracemalloc
from collections.abc import AsyncIterator
from dataclasses import dataclass
from functools import partial

from scenes import CONTEXT, TASK, ScriptedLink, build_app, card, settle
from textual.geometry import Region
from textual.widgets import Footer
from tui_support import open_highlighted
from tui_support import until as wait_until

from switchboard.a2a.model import (
    Artifact,
    ArtifactUpdate,
    Message,
    Role,
    StatusUpdate,
    TaskState,
    TaskStatus,
    TextPart,
)
from switchboard.tui.downloads import downloads_dir
from switchboard.tui.widgets.conversation_view import ConversationView
from switchboard.tui.widgets.markdown_pages import KEPT_DRAWN, PAGE, FrozenPages
from switchboard.tui.widgets.transcript import ArtifactBox
from switchboard.tui.widgets.wire_view import KEPT_LINES, WireView

SIZE = (120, 40)
MB = 2**20


def update(text: str, i: int, last: bool = False) -> ArtifactUpdate:
    artifact = Artifact(artifact_id="big", name="big", parts=[TextPart(text=text)])
    return ArtifactUpdate(task_id=TASK, context_id=CONTEXT, artifact=artifact, append=i > 0, last_chunk=last)


def completed() -> StatusUpdate:
    message = Message(message_id="m-done", role=Role.AGENT, parts=[TextPart(text="done")])
    status = TaskStatus(state=TaskState.COMPLETED, message=message)
    return StatusUpdate(task_id=TASK, context_id=CONTEXT, status=status)


@dataclass
class FloodLink(ScriptedLink):
    """Streams 256 KB chunks (made as they go, never all held) until told to stop, then the last chunk."""

    chunk_size: int = 256 * 1024
    stop: asyncio.Event | None = None
    digest: object = None
    length: int = 0  # characters sent
    size: int = 0  # their UTF-8 bytes
    chunks: int = 0

    async def follow(self, message: Message, policy=None) -> AsyncIterator:
        self.sent.append(message)
        self.digest = hashlib.sha256()
        line = "0123456789 abcdefghijklmnopqrstuvwxyz ✓ ünïcode\n"
        while not self.stop.is_set():
            text = f"## chunk {self.chunks}\n\n" + line * (self.chunk_size // len(line))
            self.digest.update(text.encode())
            self.length += len(text)
            self.size += len(text.encode())
            yield update(text, self.chunks)
            self.chunks += 1
            await asyncio.sleep(0)
        yield update("the end\n", self.chunks, last=True)
        self.digest.update(b"the end\n")
        self.length += len("the end\n")
        self.size += len("the end\n")
        self.chunks += 1
        yield completed()


async def open_and_send(pilot, text: str) -> ConversationView:
    view = await open_highlighted(pilot)  # the first agent of the scene: writer
    await settle(pilot, 0.2)
    await pilot.press(*text, "enter")
    return view


until = partial(wait_until, timeout=120, every=0.05)


async def test_an_endless_stream_stays_bounded_and_responsive_and_saves_whole(tmp_path):
    stop = asyncio.Event()
    link = FloodLink("writer", card("writer"), [], stop=stop)
    app = build_app(tmp_path, links={"writer": link})
    async with app.run_test(size=SIZE) as pilot:
        view = await open_and_send(pilot, "flood")
        await until(lambda: link.length > 8 * MB)
        tracemalloc.start()
        try:
            await until(lambda: link.length > 56 * MB)
            # The UI answers a key while the stream floods in.
            wire = app.screen.query_one(WireView)
            await pilot.press("f2")
            await until(lambda: wire.drawing)
            stop.set()
            await until(lambda: not view.running)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        await settle(pilot, 0.3)
        # 48 MB and more streamed while traced: what was held at once stays far below that.
        assert peak < 24 * MB, f"peak {peak / MB:.1f} MB"
        artifact = view.conversation.last.view.artifacts["big"]
        assert artifact.spill is not None and artifact.text_length == link.length
        box = view.query_one(ArtifactBox)
        limit = app.settings.artifact_render_limit
        assert len(box.source) <= limit
        cut = str(box.query_one(".artifact-cut").render())
        assert f"{link.length - limit:,} more characters not shown" in cut
        view.query_one("#message").focus()
        await pilot.press("ctrl+s")
        await settle(pilot, 0.5)
        saved = downloads_dir() / "big.md"
        assert saved.stat().st_size == link.size
        digest = hashlib.sha256()
        with saved.open("rb") as f:
            while block := f.read(MB):
                digest.update(block)
        assert digest.hexdigest() == link.digest.hexdigest()


def markdown_document() -> str:
    parts = []
    for i in range(200):
        parts.append(
            f"## Section {i}\n\n" + f"Some *text* for section {i}, long enough to wrap a little. " * 3 + "\n\n"
        )
        if i % 7 == 0:
            parts.append("```python\n" + "".join(f"x = {j}\n\n" for j in range(30)) + "```\n\n")
        if i % 5 == 0:
            parts.append("".join(f"- item {j}\n" for j in range(6)) + "\n")
    return "".join(parts)


async def test_a_long_markdown_artifact_is_paged_exactly_and_escapes_cut_between_chunks_never_show(tmp_path):
    document = markdown_document()
    assert len(document) > 8 * PAGE
    pieces = [document[i : i + 97] for i in range(0, len(document), 97)]
    # An escape sequence cut in two by the chunking: neither half may reach the screen.
    pieces[10] += "\x1b"
    pieces[11] = "[31m" + pieces[11]
    events = [update(text, i, last=i == len(pieces) - 1) for i, text in enumerate(pieces)] + [completed()]
    link = ScriptedLink("writer", card("writer"), [events])
    app = build_app(tmp_path, links={"writer": link})
    async with app.run_test(size=SIZE) as pilot:
        view = await open_and_send(pilot, "a long one")
        await until(lambda: not view.running)
        await settle(pilot, 0.3)
        box = view.query_one(ArtifactBox)
        assert box.source == document
        pages = box.query_one(FrozenPages)
        assert len(pages.sources) >= 4
        # Pages are cut at blank lines outside code fences, so each one is whole markdown on its own.
        assert all(page.endswith("\n\n") and page.count("```") % 2 == 0 for page in pages.sources)
        # Only the last few pages drawn keep their lines: at the end, the newest ones.
        assert 0 < len(pages.drawn) <= KEPT_DRAWN
        assert 0 not in pages.drawn
        # Scrolled back into view, the first page is drawn again from its source, and shown.
        view.query_one(".transcript").scroll_home(animate=False)
        await settle(pilot, 0.3)
        assert 0 in pages.drawn and len(pages.drawn) <= KEPT_DRAWN
        top = Region(0, 0, pages.size.width, 3)
        assert "Section 0" in "".join(strip.text for strip in pages.render_lines(top))


async def test_the_wire_view_draws_only_the_lines_in_view_and_follows_the_tap(tmp_path):
    app = build_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, 0.2)
        wire = app.screen.query_one(WireView)
        for i in range(3000):
            app.tap.frame(1, "message", f"frame {i}")
        await settle(pilot, 0.3)
        assert not wire.drawing and wire.drawn == 0  # hidden: nothing laid out, nothing drawn

        def shown() -> list[str]:
            return [wire.render_line(y).text.rstrip() for y in range(wire.scrollable_content_region.height)]

        await pilot.press("f2")
        await settle(pilot, 0.3)
        # Every record the tap holds is a line; the view is at the newest, and only its lines are drawn.
        assert wire.virtual_size.height == len(app.tap.records) == 3000
        assert shown()[-1].endswith("frame 2999") and shown()[-2].endswith("frame 2998")
        assert wire.drawn <= max(KEPT_LINES, 2 * wire.size.height)
        assert wire.vertical_scrollbar.position == wire.scroll_y == wire.max_scroll_y  # its scrollbar says so
        assert wire.region.bottom <= app.screen.query_one(Footer).region.y  # its last line is not under the footer
        app.tap.frame(1, "message", "one more")
        await settle(pilot, 0.3)
        assert shown()[-1].endswith("one more")
        # A view at its end stays there when it gets shorter or taller.
        for size in ((SIZE[0], SIZE[1] - 12), SIZE):
            await pilot.resize_terminal(*size)
            await settle(pilot, 0.3)
            assert shown()[-1].endswith("one more"), size

        # Scrolled back, the lines in view stay put while the oldest records leave the tap.
        wire.scroll_to(y=10, animate=False, immediate=True)
        await settle(pilot, 0.1)
        top = shown()[0]
        assert top.endswith("frame 10")
        for i in range(app.tap.records.maxlen):
            app.tap.frame(1, "message", f"later {i}")
        await settle(pilot, 0.3)
        assert wire.scroll_y == 0  # the records it showed have left the tap: it shows the oldest it has
        assert shown()[0].endswith("later 0")
        wire.scroll_to(y=wire.max_scroll_y - 5, animate=False, immediate=True)
        await settle(pilot, 0.1)
        held = shown()[0]
        for i in range(20):
            app.tap.frame(1, "message", f"last {i}")
        await settle(pilot, 0.3)
        assert shown()[0] == held
        assert wire.drawn <= max(KEPT_LINES, 2 * wire.size.height)
