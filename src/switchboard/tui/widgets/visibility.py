"""Whether a widget is there for the person: in the tab they are looking at, or on its way out."""

from __future__ import annotations

from textual.widget import Widget
from textual.widgets import TabbedContent, TabPane

from ..textual_private import closing, pruning


def in_shown_tab(widget: Widget) -> bool:
    """False in a background tab: focusing there would switch tabs under the person's fingers (the tab is
    marked instead, and showing it puts the keyboard where it belongs)."""
    pane = next((node for node in widget.ancestors if isinstance(node, TabPane)), None)
    tabs = next((node for node in widget.ancestors if isinstance(node, TabbedContent)), None)
    return pane is None or tabs is None or tabs.active == pane.id


def being_removed(widget: Widget) -> bool:
    """Closed, or on its way out. Textual removes a widget's children before the widget itself and stops its
    workers last, so a worker can go on while the widget is still attached but its parts are gone. (Textual's
    own flags for this are private: see textual_private.py.)"""
    return not widget.is_attached or closing(widget) or pruning(widget)
