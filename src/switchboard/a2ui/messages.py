"""Reading A2UI messages out of A2A parts: which data parts carry A2UI, and what each message in them says.

Untrusted: each message is read alone (a bad one is noted and skipped, the next one still counts, as the
extension says), every value is bounded first (bounds.py), and nothing here raises on any JSON.
"""

from __future__ import annotations

from typing import Any

from ..a2a.model import DataPart, Part
from . import v08
from .bounds import MAX_COMPONENTS, MAX_MESSAGES_PER_PART, TooLarge, bounded_json
from .model import (
    MIME_TYPES,
    Component,
    CreateSurface,
    DeleteSurface,
    Operation,
    UpdateComponents,
    UpdateData,
)

_V08_KEYS = ("beginRendering", "surfaceUpdate", "dataModelUpdate", "deleteSurface")
_V09_KEYS = ("createSurface", "updateComponents", "updateDataModel", "deleteSurface")


def a2ui_mime_type(part: Part) -> str | None:
    """The A2UI media type a data part declares (metadata.mimeType, or the part's own media type), else None."""
    if not isinstance(part, DataPart):
        return None
    meta = part.metadata if isinstance(part.metadata, dict) else {}
    for candidate in (meta.get("mimeType"), meta.get("mediaType"), part.media_type):
        if isinstance(candidate, str) and candidate.strip().lower() in MIME_TYPES:
            return candidate.strip().lower()
    return None


def is_a2ui_part(part: Part) -> bool:
    return a2ui_mime_type(part) is not None


def unwrapped(data: Any) -> Any:
    """A list as a v0.3 data part carries it: `{"value": [...]}` (its data must be an object; the official SDK's
    v0.3 compatibility wraps a list so), else the data as it is."""
    if isinstance(data, dict) and len(data) == 1 and isinstance(data.get("value"), list):
        return data["value"]
    return data


def read_part(part: Part) -> tuple[list[Operation], list[str]]:
    """The operations a part carries, in order, and notes about what could not be read."""
    if not isinstance(part, DataPart) or not is_a2ui_part(part):
        return [], []
    data = unwrapped(part.data)
    messages = data if isinstance(data, list) else [data]
    notes: list[str] = []
    if len(messages) > MAX_MESSAGES_PER_PART:
        notes.append(f"{len(messages)} A2UI messages in one part; the first {MAX_MESSAGES_PER_PART} were read")
        messages = messages[:MAX_MESSAGES_PER_PART]
    ops: list[Operation] = []
    for n, message in enumerate(messages, 1):
        try:
            op = read_message(bounded_json(message))
        except TooLarge as exc:
            notes.append(f"A2UI message {n} is too large ({exc}); left out")
            continue
        if op is None:
            notes.append(f"A2UI message {n} is not one this client reads; left out")
        else:
            ops.append(op)
    return ops, notes


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def read_message(message: Any) -> Operation | None:
    """One server-to-client message of v0.8 or v0.9.x, or None when it is neither."""
    if not isinstance(message, dict):
        return None
    version = message.get("version")
    if isinstance(version, str) and version.startswith("v0.9"):
        return _v09(message, version)
    if version is None and any(k in message for k in _V08_KEYS):
        return _v08(message)
    return None


def _v09(message: dict[str, Any], version: str) -> Operation | None:
    key = next((k for k in _V09_KEYS if isinstance(message.get(k), dict)), None)
    if key is None:
        return None
    body = message[key]
    surface_id = _text(body.get("surfaceId"))
    if surface_id is None:
        return None
    if key == "createSurface":
        theme = body.get("theme") if isinstance(body.get("theme"), dict) else {}
        return CreateSurface(
            surface_id,
            version,
            catalog_id=_text(body.get("catalogId")),
            send_data_model=body.get("sendDataModel") is True,
            agent_name=_text(theme.get("agentDisplayName")),
        )
    if key == "updateComponents":
        return UpdateComponents(surface_id, version, _v09_components(body.get("components")))
    if key == "updateDataModel":
        path = body.get("path") if isinstance(body.get("path"), str) else "/"
        return UpdateData(surface_id, version, path, body.get("value"), remove="value" not in body)
    return DeleteSurface(surface_id, version)


def _v09_components(items: Any) -> tuple[Component, ...]:
    out: list[Component] = []
    for item in (items if isinstance(items, list) else [])[:MAX_COMPONENTS]:
        if not isinstance(item, dict):
            continue
        cid, kind = _text(item.get("id")), item.get("component")
        if cid is None:
            continue
        if isinstance(kind, str):
            props = {k: v for k, v in item.items() if k not in ("id", "component")}
            out.append(Component(cid, kind, props, item))
        elif isinstance(kind, dict) and len(kind) == 1:  # the extension's example nests {"Text": {...}}
            ((name, body),) = kind.items()
            out.append(Component(cid, name, body if isinstance(body, dict) else {}, item))
        else:
            out.append(Component(cid, "?", {}, item))
    return tuple(out)


def _v08(message: dict[str, Any]) -> Operation | None:
    key = next((k for k in _V08_KEYS if isinstance(message.get(k), dict)), None)
    if key is None:
        return None
    body = message[key]
    surface_id = _text(body.get("surfaceId"))
    if surface_id is None:
        return None
    if key == "beginRendering":
        return CreateSurface(surface_id, "v0.8", catalog_id=_text(body.get("catalogId")),
                             root=_text(body.get("root")) or "root")  # fmt: skip
    if key == "surfaceUpdate":
        inits: list[tuple[str, Any]] = []
        comps: list[Component] = []
        for entry in (body.get("components") if isinstance(body.get("components"), list) else [])[:MAX_COMPONENTS]:
            cid = _text(entry.get("id")) if isinstance(entry, dict) else None
            if cid is None:
                continue
            read = v08.component(entry, inits)
            comps.append(Component(cid, read[0], read[1], entry) if read else Component(cid, "?", {}, entry))
        # The literals that initialise bound paths ride along as a pseudo component the surface applies first.
        if inits:
            comps.insert(0, Component("", "#init", {"inits": inits}))
        return UpdateComponents(surface_id, "v0.8", tuple(comps))
    if key == "dataModelUpdate":
        path = body.get("path") if isinstance(body.get("path"), str) else "/"
        return UpdateData(surface_id, "v0.8", path, v08.data_contents(body.get("contents")))
    return DeleteSurface(surface_id, "v0.8")
