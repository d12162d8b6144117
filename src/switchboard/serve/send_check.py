"""What a message that is sent must have, beyond its types: the SDK checks these late, or not at all.

A message, with a messageId, a role (user or agent) and at least one part. The SDK's v1.0 handler answers a
missing one with -32602, but its v0.3 HTTP+JSON adapter converts first and fails inside the stream it has
already opened (the caller sees a broken connection), and it reads a file's bytes as UTF-8 text (its own
double-encoding): bytes that are not UTF-8 raised an internal error.
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
            if isinstance(data, str) and not _utf8_once_decoded(data):
                where = f"{prefix}message.content[{index}].file.fileWithBytes"
                raise Refusal(INVALID_PARAMS, "this agent takes file bytes as base64 of UTF-8 text", where)


def _utf8_once_decoded(text: str) -> bool:
    padded = text.replace("+", "-").replace("/", "_").rstrip("=")
    try:
        base64.urlsafe_b64decode(padded + "=" * (-len(padded) % 4)).decode("utf-8")
    except (binascii.Error, ValueError):
        return False
    return True
