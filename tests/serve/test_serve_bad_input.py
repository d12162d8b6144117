"""A served workflow answers a caller's bad request by the spec, before the SDK's handler sees it.

Against one real `switchboard serve`: each class of malformed request gets its code (JSON-RPC -32700 with id
null, -32600, -32602, -32601; HTTP+JSON 400 with a google.rpc.Status), never -32603 or 500, never an
exception's text, and the server answers a valid call right after. The bounds of serve/bounds.py are proved
one by one, just over (refused) and at the bound (served).
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from serve_support import WORKFLOWS, ServeProcess, start_serve

from switchboard.serve.bounds import MAX_DEPTH, MAX_METADATA, MAX_PARTS, MAX_TEXT

V1 = {"A2A-Version": "1.0", "Content-Type": "application/json"}
V03 = {"Content-Type": "application/json"}
MESSAGE = {"messageId": "m1", "role": "ROLE_USER", "parts": [{"text": "hi"}]}
MESSAGE03 = {"kind": "message", "messageId": "m1", "role": "user", "parts": [{"kind": "text", "text": "hi"}]}
MESSAGE03REST = {"messageId": "m1", "role": "ROLE_USER", "content": [{"text": "hi"}]}
LEAKS = ("Traceback", "Error(", "object has no attribute", "Expecting", "codec", "recursion", "invalid literal")


def envelope(method: str, params: Any, request_id: Any = 1) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}).encode()


def nested_text(depth: int) -> str:
    return '{"a":' * depth + "1" + "}" * depth


def nested(depth: int) -> Any:
    return json.loads(nested_text(depth))


@pytest.fixture(scope="module")
def served(fleet, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    home = tmp_path_factory.mktemp("bad-input")
    process = start_serve(home, fleet.agents_file, "--port", "0", str(WORKFLOWS / "one-echo.yaml"))
    yield process
    if process.process.poll() is None:
        process.interrupt()


@pytest.fixture(scope="module")
def url(served: ServeProcess) -> str:
    return served.url("one-echo")


@pytest.fixture(scope="module")
def known_task(url: str) -> str:
    """A task the server holds: after each refusal, GetTask on it is the valid call that must still work."""
    answer = httpx.post(url, content=envelope("SendMessage", {"message": MESSAGE}), headers=V1, timeout=60)
    return answer.json()["result"]["task"]["id"]


def assert_still_serving(url: str, task_id: str) -> None:
    answer = httpx.post(url, content=envelope("GetTask", {"id": task_id}), headers=V1, timeout=30)
    assert answer.json()["result"]["id"] == task_id


def assert_no_leak(text: str) -> None:
    assert not [word for word in LEAKS if word in text], text


JSONRPC_CASES = [
    # name, headers, body, code, the id answered
    ("invalid JSON", V1, b"{not json", -32700, None),
    ("non-UTF-8 bytes", V1, b'{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"\xff\xfe"}}', -32700, None),
    ("nesting past the bound", V1, envelope("GetTask", {"id": nested(MAX_DEPTH)}), -32700, None),
    ("nesting 100000 deep", V1, b"[" * 100000 + b"]" * 100000, -32700, None),
    ("an empty body", V1, b"", -32700, None),
    ("a repeated key", V1, b'{"jsonrpc":"2.0","id":1,"id":2,"method":"GetTask","params":{"id":"x"}}', -32700, None),
    ("a 5000-digit number", V1, envelope("GetTask", {"historyLength": 7}).replace(b"7", b"1" * 5000), -32700, None),
    ("NaN", V1, b'{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x","historyLength":NaN}}', -32700, None),
    (
        "an unpaired surrogate",
        V1,
        b'{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"\\ud800"}}',
        -32700,
        None,
    ),
    ("a batch", V1, b'[{"jsonrpc":"2.0","id":1,"method":"GetTask","params":{"id":"x"}}]', -32600, None),
    ("a string", V1, b'"GetTask"', -32600, None),
    ("no jsonrpc", V1, b'{"id":1,"method":"GetTask","params":{"id":"x"}}', -32600, 1),
    ("no method", V1, b'{"jsonrpc":"2.0","id":1,"params":{"id":"x"}}', -32600, 1),
    ("an id that is an object", V1, envelope("GetTask", {"id": "x"}, {"a": 1}), -32600, None),
    ("an id that is a float", V1, envelope("GetTask", {"id": "x"}, 1.5), -32600, None),
    ("params a string", V1, envelope("GetTask", "x"), -32600, 1),
    ("params an array", V1, envelope("GetTask", ["x"]), -32602, 1),
    ("configuration not an object", V1, envelope("SendMessage", {"message": MESSAGE, "configuration": "x"}), -32602, 1),
    ("parts not an array", V1, envelope("SendMessage", {"message": {**MESSAGE, "parts": "x"}}), -32602, 1),
    (
        "a part of unknown kind",
        V1,
        envelope("SendMessage", {"message": {**MESSAGE, "parts": [{"video": "x"}]}}),
        -32602,
        1,
    ),
    ("a message with no parts", V1, envelope("SendMessage", {"message": {**MESSAGE, "parts": []}}), -32602, 1),
    ("historyLength not an integer", V1, envelope("GetTask", {"id": "x", "historyLength": "ten"}), -32602, 1),
    ("historyLength out of int32", V1, envelope("GetTask", {"id": "x", "historyLength": 2**40}), -32602, 1),
    ("an unknown role", V1, envelope("SendMessage", {"message": {**MESSAGE, "role": "ROLE_KING"}}), -32602, 1),
    ("a v0.3 method at 1.0", V1, envelope("tasks/get", {"id": "x"}), -32601, 1),
    ("v0.3: invalid JSON", V03, b"{not json", -32700, None),
    (
        "v0.3: non-UTF-8 bytes",
        V03,
        b'{"jsonrpc":"2.0","id":1,"method":"tasks/get","params":{"id":"\xff"}}',
        -32700,
        None,
    ),
    (
        "v0.3: configuration not an object",
        V03,
        envelope("message/send", {"message": MESSAGE03, "configuration": "x"}),
        -32602,
        1,
    ),
    ("v0.3: parts not an array", V03, envelope("message/send", {"message": {**MESSAGE03, "parts": "x"}}), -32602, 1),
    (
        "v0.3: a part of unknown kind",
        V03,
        envelope("message/send", {"message": {**MESSAGE03, "parts": [{"kind": "video"}]}}),
        -32602,
        1,
    ),
    (
        "v0.3: file bytes not base64",
        V03,
        envelope(
            "message/send", {"message": {**MESSAGE03, "parts": [{"kind": "file", "file": {"bytes": "not base64!"}}]}}
        ),
        -32602,
        1,
    ),
    ("v0.3: historyLength not an integer", V03, envelope("tasks/get", {"id": "x", "historyLength": "ten"}), -32602, 1),
    ("v0.3: no task id", V03, envelope("tasks/get", {}), -32602, 1),
    ("v0.3: a method at version 2", {"A2A-Version": "2.0"}, envelope("tasks/get", {"id": "x"}), -32009, 1),
]


@pytest.mark.parametrize(
    ("headers", "body", "code", "request_id"), [c[1:] for c in JSONRPC_CASES], ids=[c[0] for c in JSONRPC_CASES]
)
def test_a_malformed_json_rpc_request_gets_its_spec_code_and_the_server_serves_after(
    url, known_task, headers, body, code, request_id
):
    answer = httpx.post(url, content=body, headers=headers, timeout=30)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("application/json")
    error = answer.json()["error"]
    assert (error["code"], answer.json()["id"]) == (code, request_id), answer.text
    assert answer.json()["jsonrpc"] == "2.0"
    assert_no_leak(answer.text)
    assert_still_serving(url, known_task)


REST_CASES = [
    # name, method, path, headers, body, HTTP status, ErrorInfo reason
    ("invalid JSON", "POST", "rest/message:send", V1, b"{not json", 400, "PARSE_ERROR"),
    ("non-UTF-8 bytes", "POST", "rest/message:send", V1, b'{"message":{"messageId":"\xff"}}', 400, "PARSE_ERROR"),
    (
        "streaming, non-UTF-8",
        "POST",
        "rest/message:stream",
        V1,
        b'{"message":{"messageId":"\xff"}}',
        400,
        "PARSE_ERROR",
    ),
    (
        "nesting past the bound",
        "POST",
        "rest/message:send",
        V1,
        nested_text(MAX_DEPTH + 1).encode(),
        400,
        "PARSE_ERROR",
    ),
    ("an array", "POST", "rest/message:send", V1, b"[1]", 400, "INVALID_PARAMS"),
    (
        "configuration not an object",
        "POST",
        "rest/message:send",
        V1,
        json.dumps({"message": MESSAGE, "configuration": "x"}).encode(),
        400,
        "INVALID_PARAMS",
    ),
    ("historyLength not an integer", "GET", "rest/tasks/x?historyLength=abc", V1, b"", 400, "INVALID_PARAMS"),
    ("pageSize not an integer", "GET", "rest/tasks?pageSize=abc", V1, b"", 400, "INVALID_PARAMS"),
    ("an unknown status", "GET", "rest/tasks?status=TASK_STATE_NAPPING", V1, b"", 400, "INVALID_PARAMS"),
    (
        "v0.3: non-UTF-8 bytes",
        "POST",
        "rest/v1/message:send",
        V03,
        b'{"message":{"messageId":"\xff"}}',
        400,
        "PARSE_ERROR",
    ),
    (
        "v0.3: configuration not an object",
        "POST",
        "rest/v1/message:send",
        V03,
        json.dumps({"message": MESSAGE, "configuration": "x"}).encode(),
        400,
        "INVALID_PARAMS",
    ),
    ("v0.3: historyLength not an integer", "GET", "rest/v1/tasks/x?historyLength=abc", V03, b"", 400, "INVALID_PARAMS"),
    (
        "v0.3: file bytes the SDK cannot decode",
        "POST",
        "rest/v1/message:send",
        V03,
        json.dumps({"message": {**MESSAGE03REST, "content": [{"file": {"fileWithBytes": "aGk="}}]}}).encode(),
        400,
        "INVALID_PARAMS",
    ),
]


@pytest.mark.parametrize(
    ("method", "path", "headers", "body", "status", "reason"),
    [c[1:] for c in REST_CASES],
    ids=[c[0] for c in REST_CASES],
)
def test_a_malformed_http_json_request_gets_400_with_a_google_rpc_status(
    url, known_task, method, path, headers, body, status, reason
):
    answer = httpx.request(method, url + path, content=body, headers=headers, timeout=30)
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    assert (error["code"], error["status"]) == (400, "INVALID_ARGUMENT")
    [info, *_] = error["details"]
    assert info == {
        "@type": "type.googleapis.com/google.rpc.ErrorInfo",
        "reason": reason,
        "domain": "a2a-protocol.org",
        "metadata": {},
    }
    assert_no_leak(answer.text)
    assert_still_serving(url, known_task)


def test_a_field_at_fault_is_named_in_a_bad_request_detail(url):
    body = envelope("SendMessage", {"message": {**MESSAGE, "parts": [{"text": "ok"}, {"text": 5}]}})
    error = httpx.post(url, content=body, headers=V1, timeout=30).json()["error"]
    assert error["message"] == "Invalid parameters: params.message.parts[1].text: expected a string"
    violation = {"field": "params.message.parts[1].text", "description": "expected a string"}
    assert error["data"][1] == {"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": [violation]}


def test_a_path_or_method_no_route_serves_gets_a_google_rpc_status(url):
    wrong_method = httpx.delete(url + "rest/message:send", headers=V1)
    nowhere = httpx.get(url + "rest/no/such/route", headers=V1)
    for answer in (wrong_method, nowhere):
        assert answer.status_code in (404, 405)
        assert answer.json()["error"]["code"] == answer.status_code


@pytest.mark.parametrize(
    ("over", "params", "field"),
    [
        ("parts", {"message": {**MESSAGE, "parts": [{"text": "a"}] * (MAX_PARTS + 1)}}, "params.message.parts"),
        ("text", {"message": {**MESSAGE, "parts": [{"text": "a" * (MAX_TEXT + 1)}]}}, "params.message.parts[0].text"),
        ("metadata", {"message": {**MESSAGE, "metadata": {"k": "v" * MAX_METADATA}}}, "params.message.metadata"),
        ("a string", {"message": {**MESSAGE, "messageId": "m" * 9000}}, "params.message.messageId"),
        ("a list", {"message": {**MESSAGE, "extensions": ["e"] * 65}}, "params.message.extensions"),
    ],
    ids=["parts", "text", "metadata", "string", "list"],
)
def test_a_request_over_a_bound_gets_invalid_params_naming_it(url, known_task, over, params, field):
    answer = httpx.post(url, content=envelope("SendMessage", params), headers=V1, timeout=30)
    error = answer.json()["error"]
    assert error["code"] == -32602 and error["data"][1]["fieldViolations"][0]["field"] == field, answer.text
    assert_still_serving(url, known_task)


def test_a_request_at_every_bound_is_served(url):
    parts = [{"text": "a" * (MAX_TEXT // MAX_PARTS)}] * (MAX_PARTS - 1) + [{"text": "end"}]
    metadata = {"k": "v" * (MAX_METADATA - 10)}
    params = {"message": {**MESSAGE, "parts": parts, "metadata": metadata}}
    params["message"]["parts"][0] = {"text": "deep", "metadata": nested(MAX_DEPTH - 6)}
    answer = httpx.post(url, content=envelope("SendMessage", params), headers=V1, timeout=60)
    assert answer.json()["result"]["task"]["status"]["state"] == "TASK_STATE_COMPLETED", answer.text[:500]


def test_headers_over_the_bound_get_431_and_the_server_serves_after(url, known_task, served):
    with socket.create_connection(("127.0.0.1", served.port), timeout=30) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 100_000 + b"\r\n\r\n")
        assert sock.recv(100).startswith(b"HTTP/1.1 431 ")
    assert_still_serving(url, known_task)
