"""Every private part of Textual that switchboard touches, and only here.

Textual is pinned to the exact version these were read from (pyproject.toml). Each is reached directly, without
a default: tests/tui/test_textual_private.py checks that each is still there and has the shape used, so an
upgrade that moves one fails that test instead of quietly costing memory or speed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Any, cast

from textual import events
from textual._ansi_sequences import ANSI_SEQUENCES_KEYS
from textual.dom import DOMNode
from textual.geometry import Size
from textual.signal import Signal
from textual.widget import Widget
from textual.widgets import TextArea

TESTED_WITH = "8.2.8"  # the version pinned in pyproject.toml

# --- a node on its way out (Widget._closing, _closed, _pruning) --------------------------------------------
# Textual removes a widget's children before the widget and stops its workers last: a worker can run on while
# its widget is still attached but its parts are gone. There is no public flag for "being removed".


def closing(node: DOMNode) -> bool:
    """Being closed or closed: its message queue is shutting down."""
    return bool(node._closing or node._closed)  # type: ignore[attr-defined]


def pruning(node: DOMNode) -> bool:
    """Its children are being removed, before it is."""
    return bool(node._pruning)  # type: ignore[attr-defined]


# --- what keeps removed widgets alive (see release.py) -------------------------------------------------------
# Watchers of another node's reactive, and signal subscribers, are dropped only when the reactive next changes or
# the signal is next published: https://github.com/Textualize/textual/issues/6666


def query_one_cache(node: DOMNode) -> Any:
    """The node's query_one cache (an LRUCache keyed by DOM version: old entries are only evicted, never
    dropped), with keys(), get() and discard()."""
    return node._query_one_cache


def watchers(node: DOMNode) -> dict[str, list[tuple[DOMNode, Callable[..., Any]]]]:
    """Reactive name -> (watching node, callback) for the watchers set on `node`'s reactives by other nodes."""
    found: dict[str, list[tuple[DOMNode, Callable[..., Any]]]] = node.__dict__.get("__watchers", {})
    return found


def signal_subscribers(signal: Signal[Any]) -> list[DOMNode]:
    """The nodes subscribed to `signal`."""
    return list(signal._subscriptions.keys())


# --- overridden private methods ----------------------------------------------------------------------------


def set_size(widget: Widget, size: Size, virtual_size: Size, container_size: Size, *, layout: bool) -> bool:
    """Widget._size_updated, which the compositor calls with each new size; layout=False sets the virtual size
    without requesting another layout (markdown_pages.py). True when a Resize event should be sent."""
    return Widget._size_updated(widget, size, virtual_size, container_size, layout=layout)


def text_area_key(area: TextArea, event: events.Key) -> Awaitable[None]:
    """TextArea's own key handler, which inserts text (and a newline for enter) before bindings run."""
    return TextArea._on_key(area, event)


# --- alt+enter sent as escape then enter (Textual's parser maps terminal bytes to keys there) ----------------
# tmux, and terminals without the kitty keyboard protocol, send alt+enter as ESC CR. Textual reads that as the
# escape key's "alt" flag on a key it then names "enter" without the flag, so alt+enter sent the message.


class _ExtraKey(StrEnum):
    """A key name the parser yields for a byte sequence (it reads `.value` of what the table gives)."""

    ALT_ENTER = "alt+enter"


ESCAPE_ENTER = "\x1b\r"


def read_escape_enter_as_alt_enter() -> None:
    """Teach Textual's key parser that ESC CR is alt+enter (once per process; the table is shared)."""
    table = cast(dict[str, Any], ANSI_SEQUENCES_KEYS)
    table.setdefault(ESCAPE_ENTER, (_ExtraKey.ALT_ENTER,))
