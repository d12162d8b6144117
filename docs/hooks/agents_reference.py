"""The agents file's reference, written at build time from its JSON Schema: the schema comes from
`switchboard.schemas.schema_for("agents")` where that module exists, else from the one declaration it is made of,
`switchboard.agents_model.AgentsFileSpec`. Either way the page lists the keys the reader accepts, no more."""

from __future__ import annotations

import json
from importlib import import_module
from typing import Any


def agents_schema() -> dict[str, Any]:
    """The agents file's JSON Schema."""
    try:
        schemas = import_module("switchboard.schemas")
    except ModuleNotFoundError:
        from switchboard.agents_model import AgentsFileSpec

        return AgentsFileSpec.model_json_schema(by_alias=True)
    schema: dict[str, Any] = schemas.schema_for("agents")
    return schema


def agents_reference_markdown() -> str:
    """A table per object of the file (the file, an agent, then the objects an agent holds), and the schema."""
    schema = agents_schema()
    definitions = _definitions(schema)
    lines = [_object_table("The file", schema, definitions)]
    for name, definition in definitions.items():
        lines.append(_object_table(f"`{name}`", definition, definitions))
    lines += [
        '??? note "The JSON Schema"',
        "",
        "    ```json",
        *("    " + line for line in json.dumps(schema, indent=2).splitlines()),
        "    ```",
        "",
    ]
    return "\n".join(lines)


def keys_documented() -> set[str]:
    """Every key the schema declares at any level (for the tests)."""
    schema = agents_schema()
    keys = set(schema.get("properties", {}))
    for definition in _definitions(schema).values():
        keys |= set(definition.get("properties", {}))
    return keys


def _definitions(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema's named parts: `$defs` (draft 2020-12, pydantic's) or `definitions` (draft-07)."""
    found: dict[str, Any] = schema.get("$defs") or schema.get("definitions") or {}
    return found


def _object_table(title: str, definition: dict[str, Any], definitions: dict[str, Any]) -> str:
    required = set(definition.get("required", ()))
    lines = [f"### {title}", ""]
    if definition.get("description"):
        lines += [definition["description"], ""]
    extra = definition.get("additionalProperties", True)
    lines += [
        "Any other key is an error." if extra is False else "",
        "",
        "| key | type | required | default | meaning |",
        "|---|---|---|---|---|",
    ]
    for key, prop in definition.get("properties", {}).items():
        default = f"`{json.dumps(prop['default'])}`" if "default" in prop else ""
        lines.append(
            f"| `{key}` | {_type(prop, definitions)} | {'yes' if key in required else ''} | {default} "
            f"| {_cell(prop.get('description', ''))} |"
        )
    lines.append("")
    return "\n".join(lines)


def _type(prop: dict[str, Any], definitions: dict[str, Any]) -> str:
    if "$ref" in prop:
        name = prop["$ref"].rsplit("/", 1)[-1]
        return f"[`{name}`](#{name.lower()})" if name in definitions else f"`{name}`"
    if "anyOf" in prop:
        kinds = [_type(option, definitions) for option in prop["anyOf"] if option.get("type") != "null"]
        return " or ".join(kinds) + (" or null" if any(o.get("type") == "null" for o in prop["anyOf"]) else "")
    if "enum" in prop:
        return " \\| ".join(f"`{json.dumps(value)}`" for value in prop["enum"])
    if "const" in prop:
        return f"`{json.dumps(prop['const'])}`"
    kind = prop.get("type", "any")
    if isinstance(kind, list):
        return " or ".join(kind)
    if kind == "array":
        return f"list of {_type(prop.get('items', {}), definitions)}"
    if kind == "object" and isinstance(prop.get("additionalProperties"), dict):
        return f"map of {_type(prop['additionalProperties'], definitions)}"
    return str(kind)


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")
