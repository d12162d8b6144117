"""A request to a served workflow, checked before the SDK's handler reads it: the spec's refusal, or None.

JSON-RPC (either version, by the A2A-Version header as the SDK reads it): the body is I-JSON within bounds
(-32700), one request object with `jsonrpc` "2.0", an id that is a string, an integer or null, a method name
and object params (-32600), params of the method's types (v1.0: its protobuf message; v0.3: the SDK's pydantic
model) and within bounds (-32602). HTTP+JSON: the same for the bodies and query strings of the routes that
read them, answered as a google.rpc.Status. Everything else (unknown methods, unknown tasks, versions) is the
SDK's to answer: those answers carry the spec's codes already.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl

from a2a.server.routes.jsonrpc_dispatcher import JsonRpcDispatcher  # first: the adapter's module needs it loaded

# isort: split
from a2a.compat.v0_3 import a2a_v0_3_pb2 as pb03
from a2a.compat.v0_3.jsonrpc_adapter import JSONRPC03Adapter
from a2a.types import a2a_pb2 as pb
from packaging.version import InvalidVersion, Version

from .bounds import MAX_QUERY, MAX_STRING
from .content_bounds import check_bounds
from .json_body import parse_json
from .proto_check import check_message
from .refusal import INVALID_PARAMS, INVALID_REQUEST, METHOD_NOT_FOUND, VERSION_NOT_SUPPORTED, Refusal
from .send_check import check_send
from .v03_check import check_v03

V10_METHODS: dict[str, Any] = dict(JsonRpcDispatcher.METHOD_TO_MODEL)
V03_METHODS: dict[str, Any] = dict(JSONRPC03Adapter.METHOD_TO_MODEL)

RequestId = str | int | None


@dataclass(frozen=True)
class RpcRefusal:
    """A JSON-RPC request refused: why, and the id to answer with (null when the id itself was unusable)."""

    refusal: Refusal
    request_id: RequestId


def major_version(header: str | None) -> int | None:
    """The A2A-Version header's major version as the SDK reads it: absent or empty is 0.3; unparsable is None."""
    if not header:
        return 0
    try:
        return Version(header).major
    except InvalidVersion:
        return None


def check_jsonrpc(body: bytes, version_header: str | None) -> RpcRefusal | None:
    """Why a JSON-RPC request is refused before the SDK reads it, or None when the SDK should answer it."""
    try:
        request = parse_json(body)
    except Refusal as refusal:
        return RpcRefusal(refusal, None)
    if not isinstance(request, dict):
        if isinstance(request, list):
            return RpcRefusal(Refusal(INVALID_REQUEST, "batch requests are not supported; send one object"), None)
        return RpcRefusal(Refusal(INVALID_REQUEST, "a request is a JSON object"), None)
    request_id = request.get("id")
    if isinstance(request_id, bool) or not isinstance(request_id, str | int | None):
        return RpcRefusal(Refusal(INVALID_REQUEST, "expected a string, an integer or null", "id"), None)
    if isinstance(request_id, str) and len(request_id) > MAX_STRING:
        return RpcRefusal(Refusal(INVALID_REQUEST, f"longer than {MAX_STRING} characters", "id"), None)
    try:
        _check_request(request, version_header)
    except Refusal as refusal:
        return RpcRefusal(refusal, request_id)
    return None


def _check_request(request: dict[str, Any], version_header: str | None) -> None:
    if request.get("jsonrpc") != "2.0":
        raise Refusal(INVALID_REQUEST, 'expected "2.0"', "jsonrpc")
    method = request.get("method")
    if not isinstance(method, str) or not method:
        raise Refusal(INVALID_REQUEST, "expected the method's name", "method")
    params = request.get("params", {})
    if isinstance(params, list):
        raise Refusal(INVALID_PARAMS, "expected an object (A2A methods take named parameters)", "params")
    if not isinstance(params, dict):
        raise Refusal(INVALID_REQUEST, "expected an object, or no params at all", "params")
    major = major_version(version_header)
    if method in V10_METHODS:  # whatever the version: the SDK parses the params before it checks the version
        check_message(params, V10_METHODS[method].DESCRIPTOR, "params")
        if method in ("SendMessage", "SendStreamingMessage"):
            check_send(params, "params.", "parts")
        check_bounds(params, "params")
    elif method in V03_METHODS and major == 0:
        check_v03(request, V03_METHODS[method])
        check_bounds(params, "params")
    elif method in V03_METHODS and major == 1:
        methods = ", ".join(V10_METHODS)
        raise Refusal(METHOD_NOT_FOUND, f"{method} is a v0.3 method; with A2A-Version 1.0 the methods are {methods}")
    elif method in V03_METHODS:  # the SDK's v0.3 adapter would call this an internal error
        raise Refusal(VERSION_NOT_SUPPORTED, "this agent speaks A2A 1.0 and 0.3 (A2A-Version: 1.0, or none for 0.3)")
    # Anything else is the SDK's: an unknown method (-32601), a v1.0 method without A2A-Version 1.0 (-32009).


# HTTP+JSON routes that read a body or a query string, relative to the REST prefix. v0.3 first: its `/v1/...`
# would otherwise read as a v1.0 route under the tenant "v1".
_TENANT = r"(?:/[^/]+)?"
_V03_BODIES: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(r"/v1/message:(send|stream)"), pb03.SendMessageRequest.DESCRIPTOR),
    (re.compile(r"/v1/tasks/[^/]+/pushNotificationConfigs"), pb03.CreateTaskPushNotificationConfigRequest.DESCRIPTOR),
]
_V03_QUERIES = [re.compile(r"/v1/tasks/[^/]+")]
_V10_BODIES: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(_TENANT + r"/message:(send|stream)"), pb.SendMessageRequest.DESCRIPTOR),
    (re.compile(_TENANT + r"/tasks/[^/]+/pushNotificationConfigs"), pb.TaskPushNotificationConfig.DESCRIPTOR),
]
_V10_QUERIES: list[tuple[re.Pattern[str], Any]] = [
    (re.compile(_TENANT + r"/tasks"), pb.ListTasksRequest.DESCRIPTOR),
    (
        re.compile(_TENANT + r"/tasks/[^/]+/pushNotificationConfigs"),
        pb.ListTaskPushNotificationConfigsRequest.DESCRIPTOR,
    ),
    (re.compile(_TENANT + r"/tasks/[^/]+"), pb.GetTaskRequest.DESCRIPTOR),
]
_V03_HISTORY = re.compile(r"\d{1,9}")


def check_rest(method: str, path: str, body: bytes, query: bytes, version_header: str | None) -> Refusal | None:
    """Why an HTTP+JSON request (path under the REST prefix) is refused before the SDK reads it, or None."""
    if len(query) > MAX_QUERY:
        return Refusal(INVALID_REQUEST, f"the query string is over {MAX_QUERY} bytes")
    try:
        if method == "POST":
            _check_rest_body(path, body, major_version(version_header))
        elif method == "GET":
            _check_rest_query(path, query, major_version(version_header))
    except Refusal as refusal:
        return refusal
    return None


def _check_rest_body(path: str, body: bytes, major: int | None) -> None:
    routes = _V03_BODIES if any(p.fullmatch(path) for p, _ in _V03_BODIES) else _V10_BODIES
    if (routes is _V03_BODIES and major != 0) or (routes is _V10_BODIES and major != 1):
        return  # the SDK answers a version it does not serve there before it reads the body
    for pattern, descriptor in routes:
        if pattern.fullmatch(path):
            value = parse_json(body)
            check_message(value, descriptor, "")
            if "/message:" in path:
                check_send(value, "", "content" if routes is _V03_BODIES else "parts")
            check_bounds(value, "")
            return


def _check_rest_query(path: str, query: bytes, major: int | None) -> None:
    try:
        pairs = parse_qsl(query.decode("ascii"), keep_blank_values=True, errors="strict")
    except (UnicodeDecodeError, ValueError):
        raise Refusal(INVALID_REQUEST, "the query string is not percent-encoded UTF-8") from None
    if any(p.fullmatch(path) for p in _V03_QUERIES):
        if major == 0:
            for name, value in pairs:  # every one, whichever the SDK takes
                if name == "historyLength" and value and not _V03_HISTORY.fullmatch(value):
                    raise Refusal(INVALID_PARAMS, "expected an integer from 0 to 999999999", "historyLength")
        return
    if major != 1:
        return
    for pattern, descriptor in _V10_QUERIES:
        if pattern.fullmatch(path):
            check_message(_query_fields(pairs, descriptor), descriptor, "")
            return


def _query_fields(pairs: list[tuple[str, str]], descriptor: Any) -> dict[str, Any]:
    """The query as the SDK's parse_params reads it: camelCase names, the last value wins, lists split at commas."""
    fields = {f.camelcase_name: f for f in descriptor.fields}
    found: dict[str, Any] = {}
    for name, value in pairs:
        field = fields.get(name)
        if field is None or field.type == field.TYPE_BOOL:  # the SDK reads any text as a bool
            continue
        if field.is_repeated:
            found.setdefault(name, []).extend(v for v in value.split(",") if v)
        else:
            found[name] = value  # even empty: the SDK parses "" as the field's value
    return found
