"""Drawing a view from its model at most once per frame, and only while the person can see it."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from textual.widget import Widget

from .visibility import in_shown_tab


class FrameThrottle:
    """Calls `draw` once, `interval` seconds after the first change since the last draw: a flood of changes costs
    one draw per frame, and none is lost (the model holds them all, and the draw shows the model).

    A view in a background tab is not drawn: a layout change anywhere, even out of sight, has the whole screen
    laid out again, and fifty streaming tabs held the keys up. It is drawn when shown (`shown`).
    """

    def __init__(self, widget: Widget, draw: Callable[[], Awaitable[None]], interval: float) -> None:
        self.widget = widget
        self.draw = draw
        self.interval = interval  # the owner may change it (a slow draw asks for fewer)
        self._due = False  # a draw is on its timer
        self._behind = False  # changes came while the view was out of sight

    def changed(self) -> None:
        """The model changed: draw it within a frame (or when it is shown)."""
        if self._due or self._behind:
            return
        if not in_shown_tab(self.widget):
            self._behind = True
            return
        self._due = True
        self.widget.set_timer(self.interval, self._draw)

    @property
    def drawn(self) -> bool:
        """Every change so far is on screen (none waits for its frame or for the view to be shown)."""
        return not self._due and not self._behind

    def shown(self) -> None:
        """The view came into sight: what changed meanwhile is drawn."""
        if self._behind:
            self._behind = False
            self.changed()

    async def _draw(self) -> None:
        self._due = False
        await self.draw()
