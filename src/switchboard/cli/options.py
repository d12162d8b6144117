"""The one place a command's typed options are built from what argparse parsed."""

from __future__ import annotations

import argparse
import dataclasses
from typing import Any, TypeVar, get_type_hints

Options = TypeVar("Options")


def options_from(kind: type[Options], namespace: argparse.Namespace) -> Options:
    """`kind` (a dataclass) with each field read from the namespace attribute of its name. A field whose type is a
    dataclass itself (the connection flags several commands share) is built the same way from the same namespace;
    a field the namespace lacks keeps its default (a flag of another command, or `main()` called without one)."""
    if not dataclasses.is_dataclass(kind):
        raise TypeError(f"{kind.__name__} is not a dataclass")
    hints = get_type_hints(kind)
    values: dict[str, Any] = {}
    for field in dataclasses.fields(kind):
        hint = hints[field.name]
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            values[field.name] = options_from(hint, namespace)
        elif hasattr(namespace, field.name):
            values[field.name] = getattr(namespace, field.name)
    return kind(**values)
