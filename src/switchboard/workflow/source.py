"""YAML that remembers lines: every mapping and list knows where each of its entries was written.

Validation reports each problem at its line, so the loader keeps the positions that PyYAML's composer
already has. Scalars are built by PyYAML's safe constructor, so types are what `yaml.safe_load` gives.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml


class LineDict(dict[Any, Any]):
    """A mapping with the line of itself, of each key, and of each value (1-based)."""

    line: int = 0

    def __init__(self) -> None:
        super().__init__()
        self.key_lines: dict[Any, int] = {}
        self.value_lines: dict[Any, int] = {}
        self.duplicates: list[tuple[Any, int]] = []

    def line_of(self, key: Any, *, value: bool = False) -> int:
        """The line of `key` (or of its value), else of the mapping itself."""
        lines = self.value_lines if value else self.key_lines
        return lines.get(key, self.line)


class LineList(list[Any]):
    """A list with the line of itself and of each item (1-based)."""

    line: int = 0

    def __init__(self) -> None:
        super().__init__()
        self.item_lines: list[int] = []

    def line_of(self, index: int) -> int:
        return self.item_lines[index] if 0 <= index < len(self.item_lines) else self.line


@dataclass
class YamlProblem(Exception):
    """The text is not YAML: where and why."""

    line: int | None
    problem: str


_MAX_DEPTH = 64  # a recursive anchor must not recurse for ever
# Values one file may hold once its aliases are expanded: a workflow is hundreds. Nine anchors of nine aliases each
# ("billion laughs") expand to 387 million from a few lines, and would be built (and checked) one by one.
_MAX_VALUES = 100_000


def load_yaml(text: str) -> Any:
    """Parse one YAML document into LineDict / LineList / scalars. An empty document is None."""
    try:
        loader = yaml.SafeLoader(text)  # reads the text at once: a NUL or another control character is refused here
    except yaml.YAMLError as exc:
        raise YamlProblem(None, str(exc)) from None
    try:
        node = loader.get_single_node()
        return None if node is None else _build(loader, node, 0, [_MAX_VALUES])
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise YamlProblem(mark.line + 1 if mark else None, _problem_text(exc)) from None
    except yaml.YAMLError as exc:
        raise YamlProblem(None, str(exc)) from None
    except RecursionError:  # PyYAML composes nested collections recursively: a thousand `[` reach the limit
        raise YamlProblem(None, "nesting is too deep") from None
    except (ValueError, AttributeError):  # PyYAML's constructors: an integer past 4300 digits, a date they cannot match
        raise YamlProblem(None, "a value cannot be read (a number too long?)") from None
    finally:
        loader.dispose()


def _problem_text(exc: yaml.MarkedYAMLError) -> str:
    bits = [b for b in (exc.context, exc.problem) if b]
    return "; ".join(bits) or "not valid YAML"


def _build(loader: yaml.SafeLoader, node: yaml.Node, depth: int, budget: list[int]) -> Any:
    """The value of `node`; `budget` holds how many more values may be built (one list, shared by every call)."""
    if depth > _MAX_DEPTH:
        raise YamlProblem(node.start_mark.line + 1, "nesting is too deep (a recursive anchor?)")
    budget[0] -= 1
    if budget[0] < 0:
        raise YamlProblem(
            node.start_mark.line + 1, f"the file holds more than {_MAX_VALUES} values once its aliases are expanded"
        )
    if isinstance(node, yaml.MappingNode):
        loader.flatten_mapping(node)  # merge keys (<<: *anchor)
        out = LineDict()
        out.line = node.start_mark.line + 1
        for key_node, value_node in node.value:
            key = _build(loader, key_node, depth + 1, budget)
            if isinstance(key, LineDict | LineList):
                key = str(key)
            line = key_node.start_mark.line + 1
            if key in out:
                out.duplicates.append((key, line))
            out[key] = _build(loader, value_node, depth + 1, budget)
            out.key_lines[key] = line
            out.value_lines[key] = value_node.start_mark.line + 1
        return out
    if isinstance(node, yaml.SequenceNode):
        items = LineList()
        items.line = node.start_mark.line + 1
        for item in node.value:
            items.append(_build(loader, item, depth + 1, budget))
            items.item_lines.append(item.start_mark.line + 1)
        return items
    return loader.construct_object(node, deep=True)
