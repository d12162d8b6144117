"""What a message that is sent must have, beyond its types: the SDK checks these late, or not at all.

A message, with a messageId, a role (user or agent) and at least one part. The SDK's v1.0 handler answers a
missing one with -32602, but its v0.3 HTTP+JSON adapter converts first and fails inside the stream it has
already opened (the caller sees a broken connection), and it decodes a file's bytes twice (base64, then the
result as base64 text again): bytes it cannot decode so were an HTTP 500.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from .refusal import INVALID_PARAMS, Refusal

ROLES = ("ROLE_USER", "ROLE_AGENT", 1, 2)


def check_send(request: dict[str, Any], prefix: str, parts_key: str) -> None:
    """Raise Refusal(-32602) for a SendMessageRequest (its types already checked) missing what a message needs."""
    message = request.get("message")
    if not isinstance(message, dict):
        raise Refusal(INVALID_PARAMS, "is required", f"{prefix}message")
    if not message.get("messageId") and not message.get("message_id"):
        raise Refusal(INVALID_PARAMS, "is required", f"{prefix}message.messageId")
    if message.get("role") not in ROLES:
        raise Refusal(INVALID_PARAMS, "is required: ROLE_USER or ROLE_AGENT", f"{prefix}message.role")
    parts = message.get(parts_key)
    if not isinstance(parts, list) or not parts:
        raise Refusal(INVALID_PARAMS, "a message needs at least one part", f"{prefix}message.{parts_key}")
    if parts_key == "content":  # v0.3 HTTP+JSON
        for index, part in enumerate(parts):
            file = part.get("file") if isinstance(part, dict) else None
            data = file.get("fileWithBytes", file.get("file_with_bytes")) if isinstance(file, dict) else None
            if isinstance(data, str) and not _decodes_twice(data):
                where = f"{prefix}message.content[{index}].file.fileWithBytes"
                raise Refusal(INVALID_PARAMS, TWICE, where)


TWICE = (
    "the SDK's v0.3 HTTP+JSON adapter decodes file bytes twice, so they must be base64 of base64 here; "
    "or send the file over JSON-RPC, or by URI"
)


def _decodes_twice(text: str) -> bool:
    """Whether the SDK's v0.3 HTTP+JSON path can take these bytes: protobuf decodes the base64, the adapter reads
    the result as UTF-8 text and decodes that as base64 again (its fault: rest-v03-02 in the wire notes)."""
    padded = text.replace("+", "-").replace("/", "_").rstrip("=")
    try:
        once = base64.urlsafe_b64decode(padded + "=" * (-len(padded) % 4)).decode("utf-8")
        base64.b64decode(once)
    except (binascii.Error, ValueError):
        return False
    return True
