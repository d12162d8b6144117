"""How much of a surface an agent may send: every limit in one place, and the walk that enforces them on JSON."""

from __future__ import annotations

from typing import Any

MAX_MESSAGES_PER_PART = 64  # A2UI messages in one data part
MAX_SURFACES = 16  # live surfaces in one conversation (or one run step)
MAX_COMPONENTS = 400  # components in one surface
MAX_DEPTH = 24  # nesting of the rendered tree (and of any JSON value, x2)
MAX_TEMPLATE_ITEMS = 100  # children one template makes from a data list
MAX_RENDERED = 600  # components one rendering draws, templates included
MAX_STRING = 4000  # characters of one string (longer ones are cut)
MAX_NODES = 20_000  # JSON values in one message
MAX_DATA_NODES = 5_000  # JSON values in one surface's data model
MAX_PATTERN = 500  # characters of a regex a check may run (no backtracking bombs from long patterns)
MAX_CHECK_INPUT = 2000  # characters a regex check looks at


class TooLarge(ValueError):
    """The value passes a bound; the message says which."""


def bounded_json(value: Any, *, max_nodes: int = MAX_NODES, max_depth: int = 2 * MAX_DEPTH) -> Any:
    """A copy of a JSON value whose strings are cut at MAX_STRING; TooLarge when it nests deeper than `max_depth`
    or holds more than `max_nodes` values. Keys that are not strings (never from JSON) are dropped."""
    count = 0

    def walk(v: Any, depth: int) -> Any:
        nonlocal count
        count += 1
        if count > max_nodes:
            raise TooLarge(f"more than {max_nodes} values")
        if depth > max_depth:
            raise TooLarge(f"nested deeper than {max_depth}")
        if isinstance(v, str):
            return v if len(v) <= MAX_STRING else v[:MAX_STRING] + "…"
        if isinstance(v, dict):
            return {k[:MAX_STRING]: walk(x, depth + 1) for k, x in v.items() if isinstance(k, str)}
        if isinstance(v, list):
            return [walk(x, depth + 1) for x in v]
        if isinstance(v, bool) or v is None or isinstance(v, int | float):
            return v
        return str(v)[:MAX_STRING]

    return walk(value, 0)


def count_nodes(value: Any, limit: int) -> int:
    """The number of JSON values in `value`, counting stops a little past `limit`."""
    stack, count = [value], 0
    while stack and count <= limit:
        v = stack.pop()
        count += 1
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return count
