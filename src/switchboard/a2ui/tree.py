"""The tree a renderer walks: a surface's flat list of components from its root, templates expanded.

Bounded and safe: a reference to a missing component is a placeholder, a cycle is cut, the depth and the number
of components drawn are capped (bounds.py), so any surface an agent sends can be drawn.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from . import binding
from .bounds import MAX_DEPTH, MAX_RENDERED, MAX_TEMPLATE_ITEMS
from .model import Component, Surface


@dataclass(frozen=True)
class Node:
    """One component where it is drawn: its data scope (a template item's path) and a unique key."""

    component: Component
    scope: str = ""
    key: str = ""


@dataclass
class Walk:
    surface: Surface
    drawn: int = 0
    notes: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    def root(self) -> Node | None:
        component = self.surface.components.get(self.surface.root)
        return Node(component, "", component.id) if component is not None else None

    def node(self, cid: Any, scope: str, key: str, path: tuple[str, ...]) -> Node | None:
        """The component `cid` refers to, or a placeholder saying what is wrong; None past the bounds."""
        if len(path) >= MAX_DEPTH:
            self.note(f"the surface nests deeper than {MAX_DEPTH}; the rest is not drawn")
            return None
        if self.drawn >= MAX_RENDERED:
            self.note(f"more than {MAX_RENDERED} components; the rest are not drawn")
            return None
        self.drawn += 1
        if not isinstance(cid, str):
            return Node(Component("?", "#missing", {"ref": cid}), scope, key)
        if cid in path:
            return Node(Component(cid, "#cycle", {}), scope, key)
        component = self.surface.components.get(cid)
        if component is None:
            return Node(Component(cid, "#missing", {"ref": cid}), scope, key)
        return Node(component, scope, key)

    def children(self, node: Node, path: tuple[str, ...]) -> Iterator[Node]:
        """The children of a Row, Column or List: a list of ids, or a template over a data list."""
        spec = node.component.props.get("children")
        if isinstance(spec, list):
            for i, cid in enumerate(spec):
                child = self.node(cid, node.scope, f"{node.key}/{i}", path)
                if child is not None:
                    yield child
        elif isinstance(spec, dict) and isinstance(spec.get("path"), str):
            items_at = binding.absolute(spec["path"], node.scope)
            items = binding.read(self.surface.data, items_at)
            keys = (
                list(range(len(items))) if isinstance(items, list) else list(items) if isinstance(items, dict) else []
            )
            if len(keys) > MAX_TEMPLATE_ITEMS:
                self.note(f"a list of {len(keys)} items; the first {MAX_TEMPLATE_ITEMS} are drawn")
            for k in keys[:MAX_TEMPLATE_ITEMS]:
                scope = f"{items_at.rstrip('/')}/{k}"
                child = self.node(spec.get("componentId"), scope, f"{node.key}/{k}", path)
                if child is not None:
                    yield child

    def child(self, node: Node, prop: str, path: tuple[str, ...], suffix: str = "") -> Node | None:
        """The one child a Card, Button, Modal or tab names in `prop`."""
        return self.node(node.component.props.get(prop), node.scope, f"{node.key}/{prop}{suffix}", path)
