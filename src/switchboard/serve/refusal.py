"""A caller's bad request, refused the spec's way: a JSON-RPC error object, or an HTTP+JSON google.rpc.Status.

A Refusal holds the JSON-RPC code, our own sentence (never an exception's text) and, when one field is at
fault, its path; it renders as `{"jsonrpc": "2.0", "id": ..., "error": {...}}` (v1.0 `data` is a list of
ProtoJSON Any objects: an ErrorInfo with the A2A reason, a BadRequest naming the field) or as the HTTP+JSON
binding's `{"error": {"code": 400, "status": "INVALID_ARGUMENT", "message": ..., "details": [...]}}`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
VERSION_NOT_SUPPORTED = -32009

ERROR_INFO = "type.googleapis.com/google.rpc.ErrorInfo"
BAD_REQUEST = "type.googleapis.com/google.rpc.BadRequest"
DOMAIN = "a2a-protocol.org"
MAX_FIELD = 200

# JSON-RPC code -> (ErrorInfo reason, HTTP status, google.rpc.Code name), as the spec's tables map them.
_MAPPING: dict[int, tuple[str, int, str]] = {
    PARSE_ERROR: ("PARSE_ERROR", 400, "INVALID_ARGUMENT"),
    INVALID_REQUEST: ("INVALID_REQUEST", 400, "INVALID_ARGUMENT"),
    METHOD_NOT_FOUND: ("METHOD_NOT_FOUND", 404, "NOT_FOUND"),
    INVALID_PARAMS: ("INVALID_PARAMS", 400, "INVALID_ARGUMENT"),
    VERSION_NOT_SUPPORTED: ("VERSION_NOT_SUPPORTED", 400, "FAILED_PRECONDITION"),
}
_TITLES = {
    PARSE_ERROR: "Invalid JSON payload",
    INVALID_REQUEST: "Request payload validation error",
    METHOD_NOT_FOUND: "Method not found",
    INVALID_PARAMS: "Invalid parameters",
    VERSION_NOT_SUPPORTED: "Version not supported",
}


class Refusal(Exception):
    """Why a request is refused before the SDK sees it: a JSON-RPC code, a sentence, maybe the field at fault."""

    def __init__(self, code: int, sentence: str, field: str | None = None) -> None:
        super().__init__(sentence)
        self.code = code
        self.sentence = sentence
        # A path may hold a caller's key (an unknown field is walked for bounds): echoed back, but not at length.
        self.field = field if field is None or len(field) <= MAX_FIELD else field[: MAX_FIELD - 3] + "..."

    @property
    def message(self) -> str:
        title = _TITLES.get(self.code, "Bad request")
        where = f"{self.field}: " if self.field else ""
        return f"{title}: {where}{self.sentence}"

    def details(self) -> list[dict[str, Any]]:
        reason = _MAPPING.get(self.code, ("INVALID_REQUEST", 400, "INVALID_ARGUMENT"))[0]
        found: list[dict[str, Any]] = [{"@type": ERROR_INFO, "reason": reason, "domain": DOMAIN, "metadata": {}}]
        if self.field:
            violation = {"field": self.field, "description": self.sentence}
            found.append({"@type": BAD_REQUEST, "fieldViolations": [violation]})
        return found

    def jsonrpc_body(self, request_id: str | int | None) -> bytes:
        error = {"code": self.code, "message": self.message, "data": self.details()}
        return _dump({"jsonrpc": "2.0", "id": request_id, "error": error})

    @property
    def http_status(self) -> int:
        return _MAPPING.get(self.code, ("", 400, ""))[1]

    def status_body(self) -> bytes:
        _, http, status = _MAPPING.get(self.code, ("", 400, "INVALID_ARGUMENT"))
        return _dump({"error": {"code": http, "status": status, "message": self.message, "details": self.details()}})


@dataclass(frozen=True)
class HttpStatus:
    """An HTTP-level refusal over HTTP+JSON (wrong path or method, too large, too slow): a google.rpc.Status."""

    http: int
    status: str
    sentence: str

    def body(self) -> bytes:
        return _dump({"error": {"code": self.http, "status": self.status, "message": self.sentence}})


def _dump(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
