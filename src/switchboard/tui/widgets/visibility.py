"""Whether a widget sits in the tab the person is looking at."""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import TabbedContent, TabPane


def in_shown_tab(widget: Widget) -> bool:
    """False in a background tab: focusing there would switch tabs under the person's fingers (the tab is
    marked instead, and showing it puts the keyboard where it belongs)."""
    pane = next((node for node in widget.ancestors if isinstance(node, TabPane)), None)
    tabs = next((node for node in widget.ancestors if isinstance(node, TabbedContent)), None)
    return pane is None or tabs is None or tabs.active == pane.id
