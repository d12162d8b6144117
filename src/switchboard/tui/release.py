"""Letting go of closed tabs' widgets that Textual would keep.

Textual drops a watcher of another node's reactive (a text area on the app's theme, each footer key on the
footer's `compact`) only when that reactive next changes, and a signal's subscriber (inputs and text areas on
the screen's text selection) only when the signal is next published. Neither may ever happen: every closed tab
then stays in memory through its message box, and the footer, which is composed again whenever the focus moves,
keeps every footer key it ever had. A query's cache (up to 1,024 entries a node) holds removed tabs too.
`forget_removed` drops what belongs to nodes that are gone. It reads Textual's private state, each piece looked up
with a default, so a Textual that keeps it elsewhere costs only the memory this would have saved.
"""

from __future__ import annotations

from textual.app import App
from textual.dom import DOMNode
from textual.signal import Signal


def _gone(node: DOMNode) -> bool:
    return getattr(node, "_closing", False) or getattr(node, "_closed", False)


def _removed(node: object) -> bool:
    return isinstance(node, DOMNode) and (_gone(node) or not node.is_attached)


def forget_removed(app: App) -> int:
    """Drop watchers and signal subscriptions of removed nodes, on the app and the screens' nodes; how many."""
    dropped = 0
    owners: list[DOMNode] = [app]
    for screen in app.screen_stack:
        owners.extend(screen.walk_children(with_self=True))
    for owner in owners:
        cache = getattr(owner, "_query_one_cache", None)  # keyed by the DOM's version: old entries are only evicted
        stale = [key for key in list(cache.keys()) if _removed(cache.get(key))] if cache is not None else []
        for key in stale:
            cache.discard(key)
        dropped += len(stale)
        watchers = owner.__dict__.get("__watchers")
        if watchers:
            for entries in watchers.values():
                alive = [entry for entry in entries if not _gone(entry[0])]
                if len(alive) != len(entries):
                    dropped += len(entries) - len(alive)
                    entries[:] = alive
    for owner in [app, *app.screen_stack]:
        for signal in vars(owner).values():
            if isinstance(signal, Signal):
                # As Textual itself decides when it publishes.
                gone = [
                    node
                    for node in list(getattr(signal, "_subscriptions", {}).keys())
                    if not (node.is_running and node.is_attached) or getattr(node, "_pruning", False)
                ]
                for node in gone:
                    signal.unsubscribe(node)
                dropped += len(gone)
    return dropped
