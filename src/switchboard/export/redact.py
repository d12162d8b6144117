"""Secrets out of an export, before any format sees it.

Every string of the transcript's JSON document (keys too) passes through the tap's Redactor; a file sent inline
is decoded and its text redacted as well (a secret inside base64 at any offset does not look like the secret's
own base64); the text of a message that was a credential is replaced whole. Every format renders the result.
"""

from __future__ import annotations

import base64
import binascii
from typing import Any

from ..a2a.redact import REDACTED, Redactor
from . import json_doc
from .transcript import Transcript


def _file_content(raw: str, redactor: Redactor) -> str:
    try:
        content = base64.b64decode(raw, validate=False)
        text = content.decode("utf-8")
    except (binascii.Error, ValueError):
        return redactor.text(raw)
    cleaned = redactor.text(text)
    return raw if cleaned == text else base64.b64encode(cleaned.encode("utf-8")).decode("ascii")


def _walk(value: Any, redactor: Redactor) -> Any:
    if isinstance(value, str):
        return redactor.text(value)
    if isinstance(value, list):
        return [_walk(v, redactor) for v in value]
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == "raw" and isinstance(item, str):
                out[key] = _file_content(item, redactor)
            else:
                out[redactor.text(key) if isinstance(key, str) else key] = _walk(item, redactor)
        return out
    return value


def redacted(transcript: Transcript, redactor: Redactor) -> Transcript:
    """A copy of `transcript` with no secret the redactor knows, and no credential typed as a message."""
    doc = json_doc.document(transcript)
    for exchange in doc["exchanges"]:
        if exchange.get("secret") and exchange.get("message"):
            exchange["message"]["parts"] = [{"text": REDACTED}]
    return json_doc.load(_walk(doc, redactor))
