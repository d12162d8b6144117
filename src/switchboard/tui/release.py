"""Letting go of closed tabs' widgets that Textual would keep.

Textual drops a watcher of another node's reactive (a text area on the app's theme, each footer key on the
footer's `compact`) only when that reactive next changes, and a signal's subscriber (inputs and text areas on
the screen's text selection) only when the signal is next published. Neither may ever happen: every closed tab
then stays in memory through its message box, and the footer, which is composed again whenever the focus moves,
keeps every footer key it ever had. A query's cache (up to 1,024 entries a node) holds removed tabs too.
`forget_removed` drops what belongs to nodes that are gone (upstream: https://github.com/Textualize/textual/issues/6666).
It reads Textual's private state, through textual_private.py, whose test fails if a Textual upgrade moves it.
"""

from __future__ import annotations

from textual.app import App
from textual.dom import DOMNode
from textual.signal import Signal

from .textual_private import closing, pruning, query_one_cache, signal_subscribers, watchers


def _removed(node: object) -> bool:
    return isinstance(node, DOMNode) and (closing(node) or not node.is_attached)


def forget_removed(app: App) -> int:
    """Drop watchers and signal subscriptions of removed nodes, on the app and the screens' nodes; how many."""
    dropped = 0
    owners: list[DOMNode] = [app]
    for screen in app.screen_stack:
        owners.extend(screen.walk_children(with_self=True))
    for owner in owners:
        cache = query_one_cache(owner)  # keyed by the DOM's version: old entries are only evicted
        stale = [key for key in list(cache.keys()) if _removed(cache.get(key))]
        for key in stale:
            cache.discard(key)
        dropped += len(stale)
        for entries in watchers(owner).values():
            alive = [entry for entry in entries if not closing(entry[0])]
            if len(alive) != len(entries):
                dropped += len(entries) - len(alive)
                entries[:] = alive
    for owner in [app, *app.screen_stack]:
        for signal in vars(owner).values():
            if isinstance(signal, Signal):
                # As Textual itself decides when it publishes.
                gone = [
                    node
                    for node in signal_subscribers(signal)
                    if not (node.is_running and node.is_attached) or pruning(node)
                ]
                for node in gone:
                    signal.unsubscribe(node)
                dropped += len(gone)
    return dropped
