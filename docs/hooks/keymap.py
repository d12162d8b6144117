"""The TUI's keys, written at build time from the Textual bindings themselves: every binding with an id (the ids
`keymap:` in settings.yaml remaps), its default keys, what it does and where it works."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

from textual.binding import Binding

import switchboard.tui as tui


def bindings() -> dict[str, tuple[str, str, str]]:
    """id -> (default keys, what it does, the class whose bindings hold it), over every module of the TUI."""
    found: dict[str, tuple[str, str, str]] = {}
    for module_info in pkgutil.walk_packages(tui.__path__, f"{tui.__name__}."):
        module = importlib.import_module(module_info.name)
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            for binding in cls.__dict__.get("BINDINGS", []):
                if isinstance(binding, Binding) and binding.id:
                    found.setdefault(binding.id, (binding.key, binding.description, cls.__name__))
    return dict(sorted(found.items()))


def keymap_markdown() -> str:
    lines = ["| id | default keys | what it does | where |", "|---|---|---|---|"]
    for binding_id, (keys, description, owner) in bindings().items():
        shown = ", ".join(f"`{key.strip().replace('slash', '/')}`" for key in keys.split(","))
        lines.append(f"| `{binding_id}` | {shown} | {description} | `{owner}` |")
    return "\n".join(lines) + "\n"
