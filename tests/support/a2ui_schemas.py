"""The A2UI specification's JSON Schemas (tests/fixtures/a2ui, copied from google/A2UI's specification/, Apache-2.0)
as validators: every event the client sends and every message the demo agents send is checked against them."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "a2ui"
V09_BASE = "https://a2ui.org/specification/v0_9/"


def _load(version: str, name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / version / name).read_text(encoding="utf-8"))


@cache
def _registry() -> Registry:
    resources = []
    for name in ("common_types.json", "server_to_client.json", "client_to_server.json", "client_capabilities.json"):
        resources.append((V09_BASE + name, Resource.from_contents(_load("v0_9_1", name), DRAFT202012)))
    catalog = Resource.from_contents(_load("v0_9_1", "catalog.json"), DRAFT202012)
    # server_to_client.json names its catalog "catalog.json" (relative): the basic catalog stands in for it.
    resources += [(V09_BASE + "catalog.json", catalog), (V09_BASE + "catalogs/basic/catalog.json", catalog)]
    return Registry().with_resources(resources)


@cache
def validator(version: str, name: str) -> Draft202012Validator:
    """`version` "v0.8" or "v0.9.1"; `name` a schema file of that version."""
    folder = "v0_8" if version == "v0.8" else "v0_9_1"
    return Draft202012Validator(_load(folder, name), registry=_registry())


def errors(version: str, name: str, document: Any) -> list[str]:
    return [
        f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in validator(version, name).iter_errors(document)
    ]


def client_event_errors(part_data: Any, version: str) -> list[str]:
    """The errors of a data part the client sends: v0.8 one event; v0.9.x a list of events (or one event)."""
    if version == "v0.8":
        return errors("v0.8", "client_to_server.json", part_data)
    events = part_data if isinstance(part_data, list) else [part_data]
    return [e for event in events for e in errors(version, "client_to_server.json", event)]


def server_message_errors(part_data: Any, version: str) -> list[str]:
    """The errors of a data part an agent sends, with the basic (v0.9.1) or standard (v0.8) catalog."""
    if version == "v0.8":
        return errors("v0.8", "server_to_client_with_standard_catalog.json", part_data)
    messages = part_data if isinstance(part_data, list) else [part_data]
    return [e for message in messages for e in errors(version, "server_to_client.json", message)]
