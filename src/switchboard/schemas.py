"""The JSON Schemas of the files a person writes: the agents file, a workflow file (either layout) and
settings.yaml, made from the pydantic models that read them, so a schema cannot say what the reader does not.

    schema_for("agents")     agents_model.AgentsFileSpec
    schema_for("workflow")   workflow.file_model.WorkflowFileSpec, or relay_model.RelayFileSpec when the file
                             has `workflows:` (the reader's own rule, as the schema's if/then/else)
    schema_for("settings")   config.Settings

The schemas are JSON Schema draft-07, the newest draft the YAML language server (VS Code's YAML extension, and the
editors that run yaml-language-server) validates with: definitions under `definitions`, and a `$ref` never
beside other keywords (draft-07 ignores those). `switchboard schema NAME` prints one; the repository keeps the
same text in schemas/NAME.schema.json (a test checks they are equal), which is what its example files name in
their `# yaml-language-server: $schema=...` line, and the wheel ships them in switchboard/schema_files/.

Editor setup, for a file of one's own (any of):
    # yaml-language-server: $schema=https://...   a line at the top of the file (a URL, an absolute path, or a path
                                                    relative to the file), e.g. after
    switchboard schema agents > ~/.config/a2a-switchboard/agents.schema.json
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal, get_args

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

from .agents_model import AgentsFileSpec
from .config import Settings
from .workflow.file_model import WorkflowFileSpec
from .workflow.relay_model import RelayFileSpec

SchemaName = Literal["agents", "workflow", "settings"]
SCHEMA_NAMES: tuple[SchemaName, ...] = get_args(SchemaName)
DRAFT_07 = "http://json-schema.org/draft-07/schema#"
# Where the schemas are published (the docs site serves schemas/); `$id` names a schema, no tool fetches it.
SCHEMA_BASE_URL = "https://a2a-switchboard.dev/schemas/"
_DEFINITIONS = "#/definitions/{model}"

_ABOUT: dict[str, tuple[str, str]] = {
    "agents": (
        "a2a-switchboard agents file",
        "The agents a person works with (agents.yaml in the config dir, or --agents FILE): a name and a url "
        "each, and how to reach them. Secrets never go here, only the names of the environment variables "
        "that hold them. A file that is only the list of agents is read too.",
    ),
    "workflow": (
        "a2a-switchboard workflow file",
        "A workflow that `switchboard run FILE` runs: steps that delegate to agents (a2a) or run a command "
        "(shell), in this tool's layout (steps: at the top), or the relay layout (workflows: a list, one run).",
    ),
    "settings": (
        "a2a-switchboard settings",
        "settings.yaml in the config dir: the TUI's theme, key bindings, refresh and size limits, and a "
        "Temporal server. Every key may be left out.",
    ),
}


def schema_for(name: str) -> dict[str, Any]:
    """The JSON Schema (draft-07) of the file `name` names: "agents", "workflow" or "settings".

    Made afresh from the models each call (a new dict the caller may change). Raises ValueError for
    another name."""
    if name == "agents":
        body = _agents()
    elif name == "workflow":
        body = _workflow()
    elif name == "settings":
        body = _single(Settings)
    else:
        raise ValueError(f"no schema named {name!r}: one of {', '.join(SCHEMA_NAMES)}")
    title, description = _ABOUT[name]
    head = {"$schema": DRAFT_07, "$id": schema_id(name), "title": title, "description": description}
    body.pop("title", None)
    body.pop("description", None)
    return {**head, **_draft_07(body)}


def schema_text(name: str) -> str:
    """The schema as the file schemas/NAME.schema.json holds it, and as `switchboard schema NAME` prints it."""
    return json.dumps(schema_for(name), indent=2, ensure_ascii=False) + "\n"


def schema_id(name: str) -> str:
    return f"{SCHEMA_BASE_URL}{name}.schema.json"


def shipped_schema_file(name: str) -> Path | None:
    """schemas/NAME.schema.json as installed (the wheel's switchboard/schema_files/, or a checkout's schemas/);
    None where neither is (an install made some other way)."""
    here = Path(__file__).resolve()
    for folder in (here.parent / "schema_files", here.parents[2] / "schemas"):
        path = folder / f"{name}.schema.json"
        if path.is_file():
            return path
    return None


def _single(model: type[BaseModel]) -> dict[str, Any]:
    schema = model.model_json_schema(by_alias=True, ref_template=_DEFINITIONS)
    if "$defs" in schema:
        schema["definitions"] = schema.pop("$defs")
    return schema


def _agents() -> dict[str, Any]:
    schema = _single(AgentsFileSpec)
    # The reader also takes a file that is only the list: `items` applies to arrays alone, and `properties` to
    # objects alone, so one schema says both and an editor still completes the mapping's keys.
    schema["type"] = ["object", "array"]
    schema["items"] = {"$ref": _DEFINITIONS.format(model="AgentSpec")}
    return schema


def _workflow() -> dict[str, Any]:
    _, defs = models_json_schema(
        [(WorkflowFileSpec, "validation"), (RelayFileSpec, "validation")], by_alias=True, ref_template=_DEFINITIONS
    )
    return {
        "type": "object",
        # The loader's own rule: a file with `workflows:` is in the relay layout.
        "if": {"required": ["workflows"]},
        "then": {"$ref": _DEFINITIONS.format(model="RelayFileSpec")},
        "else": {"$ref": _DEFINITIONS.format(model="WorkflowFileSpec")},
        "definitions": defs["$defs"],
    }


def _draft_07(node: Any) -> Any:
    """`node` with each `$ref` that has sibling keywords moved into an allOf (draft-07 ignores a $ref's siblings,
    so a description or default beside it would be lost to an editor), without the titles pydantic makes of a
    key's own name ("Apikeyenv" for apiKeyEnv: an editor shows the key, its description says the rest), and with
    the keys of a mapping whose keys have a pattern held to it, as the model holds them."""
    if isinstance(node, list):
        return [_draft_07(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _draft_07(value) for key, value in node.items()}
    if isinstance(out.get("properties"), dict):
        for value in out["properties"].values():
            if isinstance(value, dict):
                value.pop("title", None)
    if "patternProperties" in out and "additionalProperties" not in out:
        out["additionalProperties"] = False  # pydantic's dict[Name, ...]: a key not of the pattern is refused
    if "$ref" in out and len(out) > 1:
        ref = out.pop("$ref")
        out["allOf"] = [{"$ref": ref}, *out.get("allOf", [])]
    return out
