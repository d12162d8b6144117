"""The agents file as text: where each entry is (for the line numbers of errors), and edits made in place, so
adding or removing an agent keeps the person's comments, order and formatting.

An edit touches only the lines of the entry it adds or removes; the result is parsed again and must hold
exactly the entries expected, else the file is written whole from its data (comments lost, entries kept).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

HEADER = "# Agents for a2a-switchboard. Secrets go in environment variables, named here.\n"


@dataclass
class Parsed:
    """One read of the file: its data, and where its parts are (lines count from 1)."""

    data: Any
    root: Node | None = None
    agents: SequenceNode | None = None  # the list of entries: under `agents:`, or the whole file
    agents_key: ScalarNode | None = None
    agents_value: Node | None = None
    top_lines: dict[str, int] = field(default_factory=dict)  # top-level key -> line
    item_lines: list[int] = field(default_factory=list)  # entry -> line
    key_lines: list[dict[str, int]] = field(default_factory=list)  # entry -> its keys -> line


def parse(text: str) -> Parsed:
    """Data and layout in one pass. Raises yaml.YAMLError for text that is not YAML."""
    loader = yaml.SafeLoader(text)
    try:
        root = loader.get_single_node()
        data = loader.construct_document(root) if root is not None else None
    finally:
        loader.dispose()
    parsed = Parsed(data, root)
    if isinstance(root, MappingNode):
        for key, value in root.value:
            if isinstance(key, ScalarNode):
                parsed.top_lines.setdefault(key.value, key.start_mark.line + 1)
                if key.value == "agents" and parsed.agents_key is None:
                    parsed.agents_key, parsed.agents_value = key, value
                    if isinstance(value, SequenceNode):
                        parsed.agents = value
    elif isinstance(root, SequenceNode):
        parsed.agents = root
    for item in parsed.agents.value if parsed.agents else []:
        parsed.item_lines.append(item.start_mark.line + 1)
        keys: dict[str, int] = {}
        if isinstance(item, MappingNode):
            for key, _ in item.value:
                if isinstance(key, ScalarNode):
                    keys.setdefault(key.value, key.start_mark.line + 1)
        parsed.key_lines.append(keys)
    return parsed


def _content_end(node: Node) -> int:
    """The index just past the last character of a node's own content (not the comments or blank lines after it)."""
    if isinstance(node, ScalarNode) or getattr(node, "flow_style", False) or not node.value:
        return node.end_mark.index
    if isinstance(node, MappingNode):
        key, value = node.value[-1]
        return max(_content_end(key), _content_end(value))
    return _content_end(node.value[-1])


def _line_end(text: str, index: int) -> int:
    """The index just past the newline of the line holding text[index - 1] (len(text) on a last line)."""
    newline = text.find("\n", max(0, index - 1))
    return len(text) if newline < 0 else newline + 1


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def _block(raw: dict[str, Any], indent: int) -> str:
    dumped = yaml.safe_dump([raw], sort_keys=False, allow_unicode=True, default_flow_style=False, width=10_000)
    return "".join(" " * indent + line for line in dumped.splitlines(keepends=True))


def _flow(raw: dict[str, Any]) -> str:
    return yaml.safe_dump(raw, sort_keys=False, allow_unicode=True, default_flow_style=True, width=10_000).strip()


def entries(data: Any) -> list[Any]:
    """The list of entries in the file's data (under agents:, or the whole file), else []."""
    value = data.get("agents") if isinstance(data, dict) else data
    return list(value) if isinstance(value, list) else []


def appended(text: str, raw: dict[str, Any]) -> str:
    """The file's text with one entry added at the end of its list."""
    parsed = parse(text)
    expected = [*entries(parsed.data), raw]
    try:
        edited = _append(text, parsed, raw)
    except ValueError:
        edited = None
    return _checked(edited, expected, parsed.data)


def _append(text: str, parsed: Parsed, raw: dict[str, Any]) -> str:
    if not text.endswith("\n") and text:
        text += "\n"
    seq = parsed.agents
    if parsed.root is None:  # empty, or only comments
        return (text if text.strip() else HEADER) + "agents:\n" + _block(raw, 2)
    if seq is not None and seq.flow_style:
        if seq.value:
            at = seq.value[-1].end_mark.index
            return text[:at] + ", " + _flow(raw) + text[at:]
        at = seq.start_mark.index + 1  # just inside the [
        return text[:at] + _flow(raw) + text[at:]
    if seq is not None:
        at = _line_end(text, _content_end(seq.value[-1]))
        if at == len(text) and not text.endswith("\n"):
            text += "\n"
            at += 1
        return text[:at] + _block(raw, seq.start_mark.column) + text[at:]
    key, value = parsed.agents_key, parsed.agents_value
    if key is not None and isinstance(value, ScalarNode) and value.tag.endswith(":null"):
        # `agents:` with nothing (or null / ~) after it: the value goes, the entry comes on the next line.
        at = _line_end(text, max(value.end_mark.index, key.end_mark.index + 1))
        head = text[: value.start_mark.index] + text[value.end_mark.index : at]
        head = head.rstrip(" \t\n") + "\n"
        return head + _block(raw, key.start_mark.column + 2) + text[at:]
    if key is None and isinstance(parsed.root, MappingNode) and not parsed.root.flow_style:
        return text + "agents:\n" + _block(raw, 2)
    raise ValueError("no place for an entry")


def removed(text: str, index: int) -> str:
    """The file's text without its entry number `index` (and the comment lines right above it)."""
    parsed = parse(text)
    before = entries(parsed.data)
    expected = before[:index] + before[index + 1 :]
    try:
        edited = _remove(text, parsed, index)
    except ValueError:
        edited = None
    return _checked(edited, expected, parsed.data)


def _remove(text: str, parsed: Parsed, index: int) -> str:
    seq = parsed.agents
    if seq is None or not 0 <= index < len(seq.value):
        raise ValueError("no such entry")
    items = seq.value
    item = items[index]
    if seq.flow_style:
        start, end = item.start_mark.index, item.end_mark.index
        if index + 1 < len(items):
            end = items[index + 1].start_mark.index  # "item, "
        elif index > 0:
            start = items[index - 1].end_mark.index  # ", item"
        return text[:start] + text[end:]
    dash = text.rfind("-", 0, item.start_mark.index)
    if dash < 0 or text[dash + 1 : item.start_mark.index].strip():
        raise ValueError("the entry's dash is not where it should be")
    start = _line_start(text, dash)
    if text[start:dash].strip():
        raise ValueError("the entry shares its first line")
    floor = _line_end(text, _content_end(items[index - 1])) if index > 0 else 0
    column = dash - start
    while start > floor:  # comment lines right above the entry, at its indentation, are about it
        above = _line_start(text, start - 1)
        line = text[above:start]
        if not line.strip().startswith("#") or len(line) - len(line.lstrip(" ")) != column:
            break
        start = above
    end = _line_end(text, _content_end(item))
    return text[:start] + text[end:]


def _checked(edited: str | None, expected: list[Any], data: Any) -> str:
    """The edited text when it reads back as exactly the expected entries, else the file written whole."""
    if edited is not None:
        try:
            again = parse(edited)
        except yaml.YAMLError:
            again = None
        if again is not None and entries(again.data) == expected and _others(again.data) == _others(data):
            return edited
    whole: Any = {**data, "agents": expected} if isinstance(data, dict) else {"agents": expected}
    return HEADER + yaml.safe_dump(whole, sort_keys=False, allow_unicode=True)


def _others(data: Any) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "agents"} if isinstance(data, dict) else {}
