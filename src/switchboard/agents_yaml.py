"""The agents file as text: its data, and where each entry and key is (for the line numbers of errors)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode


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


def entries(data: Any) -> list[Any]:
    """The list of entries in the file's data (under agents:, or the whole file), else []."""
    value = data.get("agents") if isinstance(data, dict) else data
    return list(value) if isinstance(value, list) else []
