"""Hypothesis strategies for requests a hostile caller sends to `switchboard serve`, and what an answer may be.

Requests: random bytes, random JSON, JSON-RPC envelopes (v1.0 and v0.3 methods, junk ids and versions) whose
params are valid params with one place mutated, and HTTP+JSON bodies and query strings made the same way.
Answers: a spec code, and none of our interpreter's words.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from hypothesis import strategies as st

RPC_CODES = {-32700, -32600, -32601, -32602} | set(range(-32099, -32000))
# Words of Python's exceptions (and of protobuf's and pydantic's) that must never reach a caller.
LEAKS = (
    "Traceback",
    "Error(",
    "object has no attribute",
    "Expecting value",
    "Expecting property",
    "codec can't",
    "recursion",
    "invalid literal",
    "Failed to parse",
    "validation error for",
    "input_value",
    "errors.pydantic.dev",
    "unknown exception",
    "NoneType",
    'File "',
)

V10_PARTS = [{"text": "hello"}, {"raw": "aGk=", "mediaType": "text/plain"}, {"url": "http://x/f"}, {"data": {"k": 1}}]
V03_PARTS = [
    {"kind": "text", "text": "hello"},
    {"kind": "file", "file": {"bytes": "aGk=", "mimeType": "text/plain"}},
    {"kind": "file", "file": {"uri": "http://x/f"}},
    {"kind": "data", "data": {"k": 1}},
]
# base64 of base64 of "hi": the SDK's v0.3 HTTP+JSON adapter decodes file bytes twice
V03_REST_PARTS = [{"text": "hello"}, {"file": {"fileWithBytes": "YUdrPQ=="}}, {"data": {"data": {"k": 1}}}]
V10_MESSAGE = {"messageId": "m1", "role": "ROLE_USER", "parts": V10_PARTS}
V03_MESSAGE = {"kind": "message", "messageId": "m1", "role": "user", "parts": V03_PARTS}
V03_REST_MESSAGE = {"messageId": "m1", "role": "ROLE_USER", "content": V03_REST_PARTS}
V10_PARAMS = {
    "SendMessage": {"message": V10_MESSAGE, "configuration": {"historyLength": 2, "acceptedOutputModes": ["text"]}},
    "SendStreamingMessage": {"message": V10_MESSAGE, "metadata": {"trace": "t"}},
    "GetTask": {"id": "missing-task", "historyLength": 3},
    "ListTasks": {"pageSize": 5, "status": "TASK_STATE_WORKING"},
    "CancelTask": {"id": "missing-task"},
    "SubscribeToTask": {"id": "missing-task"},
    "CreateTaskPushNotificationConfig": {"taskId": "missing-task", "url": "http://127.0.0.1:9/hook"},
    "GetTaskPushNotificationConfig": {"taskId": "missing-task", "id": "c1"},
    "ListTaskPushNotificationConfigs": {"taskId": "missing-task"},
    "DeleteTaskPushNotificationConfig": {"taskId": "missing-task", "id": "c1"},
    "GetExtendedAgentCard": {},
}
V03_PARAMS = {
    "message/send": {"message": V03_MESSAGE, "configuration": {"blocking": True, "historyLength": 1}},
    "message/stream": {"message": V03_MESSAGE},
    "tasks/get": {"id": "missing-task", "historyLength": 3},
    "tasks/cancel": {"id": "missing-task"},
    "tasks/resubscribe": {"id": "missing-task"},
    "tasks/pushNotificationConfig/set": {"taskId": "missing-task", "pushNotificationConfig": {"url": "http://x/h"}},
    "tasks/pushNotificationConfig/get": {"id": "missing-task"},
    "tasks/pushNotificationConfig/list": {"id": "missing-task"},
    "tasks/pushNotificationConfig/delete": {"id": "missing-task", "pushNotificationConfigId": "c1"},
    "agent/getAuthenticatedExtendedCard": {},
}
REST_BODIES = {
    "/rest/message:send": ("1.0", {"message": V10_MESSAGE}),
    "/rest/message:stream": ("1.0", {"message": V10_MESSAGE}),
    "/rest/tasks/missing-task/pushNotificationConfigs": ("1.0", {"url": "http://127.0.0.1:9/hook"}),
    "/rest/v1/message:send": (None, {"message": V03_REST_MESSAGE}),
    "/rest/v1/message:stream": (None, {"message": V03_REST_MESSAGE}),
    "/rest/v1/tasks/missing-task/pushNotificationConfigs": (None, {"config": {"url": "http://x/h"}}),
}
REST_QUERIES = {
    "/rest/tasks/missing-task": "1.0",
    "/rest/tasks": "1.0",
    "/rest/tasks/missing-task/pushNotificationConfigs": "1.0",
    "/rest/v1/tasks/missing-task": None,
}
QUERY_NAMES = ["historyLength", "pageSize", "pageToken", "status", "contextId", "statusTimestampAfter", "x"]


@dataclass
class Request:
    method: str
    path: str
    body: bytes = b""
    query: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)


scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=20),
    st.sampled_from(["", "text", "TASK_STATE_WORKING", "ROLE_USER", "user", "file", "data", "AAAA", "1", "-1"]),
    st.builds(list),
    st.builds(dict),
)
json_values = st.recursive(
    scalars,
    # min_size=1: empty ones come from `scalars` (Hypothesis takes an extension that can be empty for one that
    # does not recurse)
    lambda inner: st.one_of(
        st.lists(inner, min_size=1, max_size=4), st.dictionaries(st.text(max_size=12), inner, min_size=1, max_size=4)
    ),
    max_leaves=12,
)
versions = st.sampled_from([None, "1.0", "0.3", "1", "2.0", "junk", ""])


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    found = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*prefix, index))
    return found


@st.composite
def mutated(draw: st.DrawFn, template: dict[str, Any]) -> Any:
    """The template with one place replaced by random JSON, removed, or given an unknown key; or as it is."""
    value = json.loads(json.dumps(template))
    paths = _paths(value)
    where = draw(st.sampled_from(paths))
    how = draw(st.sampled_from(["replace", "replace", "delete", "add", "keep", "kinds"]))
    if how == "keep":
        return value
    if not where:
        return draw(json_values) if how == "replace" else value
    parent = value
    for step in where[:-1]:
        parent = parent[step]
    last = where[-1]
    if how == "replace":
        parent[last] = draw(json_values)
    elif how == "delete":
        del parent[last]
    elif how == "kinds" and isinstance(parent, dict):
        kinds = ["text", "file", "data", "video", {"bytes": 5}, {"uri": "u", "bytes": "x"}]
        parent[last] = draw(st.sampled_from(kinds))
    elif isinstance(parent[last], dict):
        parent[last][draw(st.sampled_from(["kind", "text", "raw", "url", "data", "file", "extra"]))] = draw(json_values)
    return value


@st.composite
def jsonrpc_requests(draw: st.DrawFn) -> Request:
    v10 = draw(st.booleans())
    table = V10_PARAMS if v10 else V03_PARAMS
    method = draw(st.sampled_from(sorted(table)) | st.sampled_from(sorted(V10_PARAMS) + sorted(V03_PARAMS)))
    params = draw(mutated(table.get(method, {})))
    envelope: dict[str, Any] = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    if draw(st.integers(0, 4)) == 0:
        envelope = draw(mutated(envelope))
    version = "1.0" if v10 else None
    if draw(st.integers(0, 5)) == 0:
        version = draw(versions)
    headers = {"A2A-Version": version} if version is not None else {}
    return Request("POST", "/", json.dumps(envelope).encode(), headers=headers)


@st.composite
def rest_requests(draw: st.DrawFn) -> Request:
    if draw(st.booleans()):
        path = draw(st.sampled_from(sorted(REST_BODIES)))
        version, template = REST_BODIES[path]
        body = json.dumps(draw(mutated(template))).encode()
        headers = {"A2A-Version": version} if version else {}
        return Request("POST", path, body, headers=headers)
    path = draw(st.sampled_from(sorted(REST_QUERIES)))
    pairs = draw(st.lists(st.tuples(st.sampled_from(QUERY_NAMES), st.text(max_size=12) | st.integers().map(str))))
    version = REST_QUERIES[path]
    return Request("GET", path, query=urlencode(pairs).encode(), headers={"A2A-Version": version} if version else {})


@st.composite
def raw_requests(draw: st.DrawFn) -> Request:
    path = draw(st.sampled_from(["/", "/rest/message:send", "/rest/v1/message:send", "/rest/tasks/x", "/rest/nowhere"]))
    body = draw(st.binary(max_size=200) | json_values.map(lambda v: json.dumps(v).encode()))
    method = draw(st.sampled_from(["POST", "POST", "GET", "PUT", "DELETE"]))
    return Request(method, path, body, headers={"A2A-Version": draw(st.sampled_from(["1.0", "0.3"]))})


any_request = st.one_of(jsonrpc_requests(), rest_requests(), raw_requests())


def leaks(text: str) -> list[str]:
    """The words of an exception found in an answer."""
    return [word for word in LEAKS if word in text]
