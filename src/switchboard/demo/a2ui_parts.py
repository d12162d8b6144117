"""What the demo agents share to speak A2UI on the official SDK: a data part of A2UI messages, which version the
client announced it renders, and the action event it sent back."""

from __future__ import annotations

from typing import Any

from a2a.helpers.proto_helpers import new_data_part
from google.protobuf.json_format import MessageToDict
from google.protobuf.struct_pb2 import Struct

from .sdk import Turn, pb

EXTENSION_V08 = "https://a2ui.org/a2a-extension/a2ui/v0.8"
EXTENSION_V091 = "https://a2ui.org/a2a-extension/a2ui/v0.9.1"
MIME_V091, MIME_V08 = "application/a2ui+json", "application/json+a2ui"


def a2ui_part(messages: Any, mime: str) -> pb.Part:
    part = new_data_part(messages, media_type=mime)
    meta = Struct()
    meta.update({"mimeType": mime})
    part.metadata.CopyFrom(meta)
    return part


def a2ui_version(turn: Turn) -> str | None:
    """ "v0.9.1", "v0.8", or None when the client did not say it renders A2UI."""
    message = turn.context.message
    metadata = MessageToDict(message.metadata) if message is not None and message.HasField("metadata") else {}
    caps = metadata.get("a2uiClientCapabilities")
    requested = turn.context.requested_extensions
    if "v0.8" in turn.text:
        return "v0.8"
    if (isinstance(caps, dict) and "v0.9" in caps) or EXTENSION_V091 in requested:
        return "v0.9.1"
    if (isinstance(caps, dict) and "supportedCatalogIds" in caps) or EXTENSION_V08 in requested:
        return "v0.8"
    return None


def incoming_action(turn: Turn) -> tuple[str, dict[str, Any], str] | None:
    """The A2UI action the message carries (either version's shape, one message or a list): its name, context and
    version."""
    for data in turn.data:
        if isinstance(data, dict) and isinstance(data.get("value"), list):
            data = data["value"]  # a list as v0.3's data part wraps it
        for message in data if isinstance(data, list) else [data]:
            if not isinstance(message, dict):
                continue
            event = message.get("action") or message.get("userAction")
            if isinstance(event, dict) and isinstance(event.get("name"), str):
                context = event.get("context")
                version = "v0.8" if "userAction" in message else "v0.9.1"
                return event["name"], context if isinstance(context, dict) else {}, version
    return None
