"""Data binding: JSON Pointers into a surface's data model, relative ones resolved in a template's scope.

A value in a component is a literal, `{"path": ...}` (read from the data model), or a function call
(`{"call": ..., "args": ...}`, see functions.py). Input components write back to the path they are bound to.
"""

from __future__ import annotations

import json
from typing import Any

from .bounds import MAX_DATA_NODES, TooLarge, count_nodes

_MISSING = object()


def absolute(path: str, scope: str = "") -> str:
    """`path` as an absolute pointer: relative paths (no leading "/") resolve against a template's `scope`."""
    if path.startswith("/"):
        return path
    base = scope.rstrip("/")
    return f"{base}/{path}" if path else (base or "/")


def _tokens(pointer: str) -> list[str]:
    if pointer in ("", "/"):
        return []
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.lstrip("/").split("/")]


def read(data: Any, pointer: str) -> Any:
    """The value at `pointer`, None when there is none (progressive rendering: not there yet)."""
    node = data
    for token in _tokens(pointer):
        if isinstance(node, dict):
            node = node.get(token, _MISSING)
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
        if node is _MISSING:
            return None
    return node


def write(data: Any, pointer: str, value: Any, *, remove: bool = False) -> Any:
    """The data model with `value` at `pointer` (objects made on the way); the root replaced for "/".
    TooLarge when the model would pass MAX_DATA_NODES."""
    tokens = _tokens(pointer)
    if not tokens:
        result = {} if remove else value
    else:
        result = data if isinstance(data, dict | list) else {}
        node = result
        for token in tokens[:-1]:
            if isinstance(node, list) and token.isdigit() and int(token) < len(node):
                nxt = node[int(token)]
                if not isinstance(nxt, dict | list):
                    nxt = node[int(token)] = {}
            elif isinstance(node, dict):
                nxt = node.get(token)
                if not isinstance(nxt, dict | list):
                    nxt = node[token] = {}
            else:
                return result  # a path through a scalar: nothing to write to
            node = nxt
        last = tokens[-1]
        if isinstance(node, dict):
            if remove:
                node.pop(last, None)
            else:
                node[last] = value
        elif isinstance(node, list) and last.isdigit() and int(last) <= len(node) and int(last) < MAX_DATA_NODES:
            index = int(last)
            if index == len(node):
                node.append(None)
            node[index] = None if remove else value
    if count_nodes(result, MAX_DATA_NODES) > MAX_DATA_NODES:
        raise TooLarge(f"the data model would hold more than {MAX_DATA_NODES} values")
    return result


def merge(data: Any, pointer: str, value: dict[str, Any]) -> Any:
    """v0.8's update at a path: its keys set there, the others kept."""
    for key, item in value.items():
        data = write(data, absolute(key.replace("~", "~0").replace("/", "~1"), pointer if pointer != "/" else ""),
                     item)  # fmt: skip
    return data


def is_path(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("path"), str) and "call" not in value


def is_call(value: Any) -> bool:
    return isinstance(value, dict) and isinstance(value.get("call"), str)


def as_text(value: Any) -> str:
    """A value shown as text, as the spec converts: null is empty, objects and arrays are JSON."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return value
    if isinstance(value, int | float):
        return str(value)
    return json.dumps(value, ensure_ascii=False)
