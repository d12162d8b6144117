"""Markdown pages drawn by rich as single widgets: an artifact's live page, which grows with the stream, and
its frozen pages, one widget however many there are. A Textual Markdown widget makes a widget per block, and
under a flood laying those out took most of the event loop.

Text that is not Markdown (text/plain, any other media type) is drawn the same way as plain text: each line
break kept, nothing in it read as markup.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from typing import ClassVar

from rich.markdown import Heading as RichHeading
from rich.markdown import Markdown as RichMarkdown
from rich.text import Text
from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget

from ..textual_private import set_size

KEPT_DRAWN = 4  # frozen pages whose drawn lines are kept: those in view (a screen spans two or three)
PAGE = 1_500  # characters of markdown in the live page; whole pages before it are frozen
_FENCE = re.compile(r"^ {0,3}(?:```|~~~)", re.MULTILINE)


def is_markdown(media_type: str | None) -> bool:
    """Text of `media_type` is drawn as Markdown: text/markdown, and text that says no type (as most agents
    send it); any other type (text/plain, text/csv, ...) is drawn as plain text."""
    return not media_type or media_type.split(";", 1)[0].strip().lower() == "text/markdown"


def page_cut(text: str, plain: bool = False) -> int:
    """Where `text` can be split into a frozen page and the rest: for Markdown after the first blank line past a
    page's length that is outside a code fence, for plain text after the first line break past it; 0 when
    there is no such place yet."""
    if plain:
        return text.find("\n", PAGE) + 1
    cut = text.find("\n\n", PAGE)
    while cut > 0:
        if len(_FENCE.findall(text, 0, cut)) % 2 == 0:
            return cut + 2
        cut = text.find("\n\n", cut + 2)
    return 0


class _Heading(RichHeading):
    LEVEL_ALIGN: ClassVar = {**RichHeading.LEVEL_ALIGN, "h1": "left"}


class _PageMarkdown(RichMarkdown):
    elements: ClassVar = {**RichMarkdown.elements, "heading_open": _Heading}


class SizedByLayout(Widget):
    """A widget whose virtual size asks for no second layout. Textual makes a widget's virtual size a
    reactive that requests a layout when it changes; the layout that set it has already placed everything, so
    a growing transcript was laid out twice per frame."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        return set_size(self, size, virtual_size, container_size, layout=False)


class TranscriptScroll(VerticalScroll):
    """The scrolling transcript of a conversation: laid out again when its virtual size shows or hides a
    scrollbar (which changes the width of everything in it), not each time it grows."""

    def _size_updated(self, size: Size, virtual_size: Size, container_size: Size, layout: bool = True) -> bool:
        bars = (self.show_vertical_scrollbar, self.show_horizontal_scrollbar)
        updated = set_size(self, size, virtual_size, container_size, layout=False)
        if (self.show_vertical_scrollbar, self.show_horizontal_scrollbar) != bars:
            self.refresh(layout=True)
        return updated


def draw_page(widget: Widget, source: str, width: int, plain: bool = False) -> list[Strip]:
    """`source` drawn at `width` in `widget`'s style, by rich's Markdown or as plain text: one page's lines.
    A plain page ends at a line break (page_cut), which is the end of its last line, not a blank line more."""
    if plain:
        drawn = Text(source.removesuffix("\n"), no_wrap=False, end="")  # Text(): no markup read in agent text
        return Visual.to_strips(widget, visualize(widget, drawn), width, None, widget.visual_style)
    return Visual.to_strips(widget, visualize(widget, _PageMarkdown(source)), width, None, widget.visual_style)


class LivePage(SizedByLayout):
    """The newest page of an artifact's text, drawn again when it grows, once per change: its lines serve for
    its height and for painting. A Textual Markdown widget here made a widget per block (a list, a container
    of items): under a flood, laying those out took most of the loop. Drawn as the frozen pages are, a page
    looks the same before and after it freezes."""

    def __init__(self) -> None:
        super().__init__(classes="artifact-text")
        self.plain = False  # drawn as plain text, not Markdown
        self.source = ""
        self._lines: tuple[int, list[Strip]] = (0, [])  # (width, lines), width 0: not drawn

    def show(self, source: str) -> None:
        if source != self.source:
            self.source = source
            self._lines = (0, [])
            self.refresh(layout=True)

    def _draw(self, width: int) -> list[Strip]:
        if self._lines[0] != width:
            self._lines = (width, draw_page(self, self.source, width, self.plain) if width else [])
        return self._lines[1]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return len(self._draw(width))

    def render_line(self, y: int) -> Strip:
        lines = self._draw(self.size.width)
        return lines[y] if y < len(lines) else Strip.blank(self.size.width, self.visual_style.rich_style)

    def notify_style_update(self) -> None:
        self._lines = (0, [])  # drawn in the old theme's colours
        super().notify_style_update()


class FrozenPages(SizedByLayout):
    """An artifact's pages that will not change any more, as one widget however many there are: a layout
    costs one height, not one per page (a flood of 160,000 characters made a hundred page widgets, all
    arranged again on every frame).

    Each page is measured once per width (its line count kept); only the pages in view are drawn, and the
    lines of the last few drawn are kept: a page's lines are thousands of objects that every full garbage
    collection would walk.
    """

    def __init__(self, plain: bool = False) -> None:
        super().__init__(classes="artifact-pages")
        self.plain = plain  # drawn as plain text, not Markdown
        self.sources: list[str] = []
        self._width = 0
        self._tops = [0]  # the first line of each measured page, and the line after the last
        self._drawn: dict[int, list[Strip]] = {}  # page index -> its lines, the most recently drawn last

    def add(self, sources: list[str]) -> None:
        self.sources += sources
        self.refresh(layout=True)

    @property
    def drawn(self) -> list[int]:
        """The pages whose lines are kept, the most recently drawn last."""
        return list(self._drawn)

    def _draw(self, index: int, width: int) -> list[Strip]:
        lines = self._drawn.pop(index, None)
        if lines is None:
            lines = draw_page(self, self.sources[index], width, self.plain)
            while len(self._drawn) >= KEPT_DRAWN:
                del self._drawn[next(iter(self._drawn))]
        self._drawn[index] = lines
        return lines

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if width != self._width:
            self._width, self._tops = width, [0]
            self._drawn.clear()
        if width:
            for index in range(len(self._tops) - 1, len(self.sources)):
                self._tops.append(self._tops[-1] + len(self._draw(index, width)))  # measuring is drawing
        return self._tops[-1]

    def render_line(self, y: int) -> Strip:
        index = bisect_right(self._tops, y) - 1
        if self._width and 0 <= index < len(self._tops) - 1:
            lines = self._draw(index, self._width)
            if y - self._tops[index] < len(lines):
                return lines[y - self._tops[index]]
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    def notify_style_update(self) -> None:
        self._drawn.clear()  # drawn in the old theme's colours
        super().notify_style_update()
