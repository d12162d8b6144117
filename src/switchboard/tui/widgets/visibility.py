"""Whether a widget is there for the person: in the tab they are looking at, or on its way out."""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import TabbedContent, TabPane


def in_shown_tab(widget: Widget) -> bool:
    """False in a background tab: focusing there would switch tabs under the person's fingers (the tab is
    marked instead, and showing it puts the keyboard where it belongs)."""
    pane = next((node for node in widget.ancestors if isinstance(node, TabPane)), None)
    tabs = next((node for node in widget.ancestors if isinstance(node, TabbedContent)), None)
    return pane is None or tabs is None or tabs.active == pane.id


def being_removed(widget: Widget) -> bool:
    """Closed, or on its way out. Textual removes a widget's children before the widget itself and stops its
    workers last, so a worker can go on while the widget is still attached but its parts are gone. (Textual's
    own flags for this are private: each is read with a default.)"""
    return not widget.is_attached or getattr(widget, "_closing", False) or getattr(widget, "_pruning", False)
