"""Malformed requests against `switchboard serve`: every answer is a spec code, none carries an exception's words.

The bulk runs in-process against the guard (serve's ASGI middleware) over a stand-in for the SDK's routes:
a request it refuses gets a spec code, and a request it lets through parses with the SDK's own parsers (what
would otherwise be the SDK's -32603 or HTTP 500). A smaller run goes against one real `switchboard serve`,
then a valid call must still succeed and the server's log must show no exception escaping a request.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import Any

import httpx
import pytest
from a2a.compat.v0_3 import a2a_v0_3_pb2 as pb03
from a2a.compat.v0_3 import conversions
from a2a.compat.v0_3 import proto_utils as utils03
from a2a.types import a2a_pb2 as pb
from a2a.utils import proto_utils
from fuzz_support import fuzz
from google.protobuf.json_format import Parse, ParseDict
from hypothesis import given
from serve_support import WORKFLOWS, ServeProcess, start_serve
from served_requests import RPC_CODES, Request, any_request, leaks
from starlette.datastructures import QueryParams

from switchboard.serve.guard import Guard
from switchboard.serve.request_check import V03_METHODS, V10_METHODS, major_version

LOOP = asyncio.new_event_loop()


async def _stand_in(scope: MutableMapping[str, Any], receive: Any, send: Any) -> None:
    """Where the SDK's routes would be: records what passed the guard and answers 200."""
    message = await receive()
    scope["passed"].append(message.get("body", b""))
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": b"{}"})


GUARD = Guard(_stand_in, api_key=None, endpoints=("",))


class _Gaps(logging.Handler):
    """The guard's log of a check that raised (it lets the request by to the SDK): a gap the fuzz looks for."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


GAPS = _Gaps()
logging.getLogger("switchboard.serve").addHandler(GAPS)


def _through_guard(request: Request) -> tuple[int, bytes, list[bytes]]:
    passed: list[bytes] = []
    answer: dict[str, Any] = {"body": b""}
    headers = [(k.lower().encode(), v.encode()) for k, v in request.headers.items()]
    scope = {"type": "http", "method": request.method, "path": request.path, "query_string": request.query}
    scope |= {"headers": headers, "passed": passed}
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if sent:
            return {"type": "http.disconnect"}
        sent = True
        return {"type": "http.request", "body": request.body, "more_body": False}

    async def send(message: MutableMapping[str, Any]) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        else:
            answer["body"] += message.get("body", b"")

    LOOP.run_until_complete(GUARD(scope, receive, send))
    return answer["status"], answer["body"], passed


def _the_sdk_parses(request: Request) -> None:
    """What the SDK does with a request before its handler: it must not raise on anything the guard let by."""
    version = major_version(request.headers.get("A2A-Version"))
    if request.path == "/" and request.method == "POST":
        body = json.loads(request.body)
        method = body.get("method") if isinstance(body, dict) else None
        if method in V10_METHODS:
            ParseDict(body.get("params") or {}, V10_METHODS[method](), ignore_unknown_fields=True)
        elif version == 0 and method in V03_METHODS:
            parsed = V03_METHODS[method].model_validate(body)
            if method in ("message/send", "message/stream"):
                conversions.to_core_message(parsed.params.message)
    elif request.method == "POST" and request.path.startswith("/rest/v1/message:") and version == 0:
        parsed = Parse(request.body, pb03.SendMessageRequest(), ignore_unknown_fields=True)
        conversions.to_core_message(utils03.FromProto.message_send_params(parsed).message)
    elif request.method == "POST" and request.path.startswith("/rest/message:") and version == 1:
        Parse(request.body, pb.SendMessageRequest(), ignore_unknown_fields=True)
    elif request.method == "GET" and request.path.startswith("/rest/tasks") and version == 1:
        target = pb.ListTasksRequest() if request.path == "/rest/tasks" else pb.GetTaskRequest()
        if request.path.endswith("pushNotificationConfigs"):
            target = pb.ListTaskPushNotificationConfigsRequest()
        proto_utils.parse_params(QueryParams(request.query.decode()), target)
    elif request.method == "GET" and request.path.startswith("/rest/v1/tasks/") and version == 0:
        history = QueryParams(request.query.decode()).get("historyLength")  # as Starlette gives it to the SDK
        if history:
            int(history)


def _assert_spec_answer(status: int, body: bytes, request: Request) -> None:
    text = body.decode("utf-8", "replace")
    assert not leaks(text), (request, text)
    assert status < 500, (request, status, text)
    if request.path == "/" and status == 200:
        answer = json.loads(body)
        if "error" in answer:
            assert answer["error"]["code"] in RPC_CODES, (request, text)
    elif request.path.startswith("/rest") and status >= 400:
        error = json.loads(body)["error"]
        assert error["code"] == status and isinstance(error["status"], str) and error["message"], (request, text)


@fuzz(examples=400)
@given(any_request)
def test_the_guard_answers_bad_requests_by_the_spec_and_lets_by_only_what_the_sdk_parses(request: Request):
    GAPS.records.clear()
    status, body, passed = _through_guard(request)
    assert not GAPS.records, [(r.getMessage(), r.exc_info) for r in GAPS.records]
    if passed:
        assert status == 200 and passed == [request.body]
        _the_sdk_parses(request)
    else:
        _assert_spec_answer(status, body, request)


@pytest.fixture(scope="module")
def served(fleet, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    home: Path = tmp_path_factory.mktemp("served-fuzz")
    process = start_serve(home, fleet.agents_file, "--port", "0", str(WORKFLOWS / "one-echo.yaml"))
    yield process
    if process.process.poll() is None:
        process.interrupt()


def test_a_real_server_answers_every_malformed_request_by_the_spec_and_serves_after(served: ServeProcess):
    url = served.url("one-echo")[:-1]  # requests' paths start with "/"
    seen: list[int] = []
    with httpx.Client(timeout=30) as http:

        @fuzz(examples=60)
        @given(any_request)
        def attack(request: Request) -> None:
            target = url + request.path + ("?" + request.query.decode() if request.query else "")
            headers = {"Content-Type": "application/json", **request.headers}
            answer = http.request(request.method, target, content=request.body, headers=headers)
            seen.append(answer.status_code)
            if answer.headers.get("content-type", "").startswith("text/event-stream"):
                assert not leaks(answer.text) and "-32603" not in answer.text, (request, answer.text)
                return
            _assert_spec_answer(answer.status_code, answer.content, request)
            if request.path == "/" and answer.status_code == 200:
                assert answer.json().get("error", {}).get("code") != -32603, (request, answer.text)

        attack()
        message = {"messageId": "after", "role": "ROLE_USER", "parts": [{"text": "still here"}]}
        valid = {"jsonrpc": "2.0", "id": 7, "method": "SendMessage", "params": {"message": message}}
        after = http.post(url + "/", json=valid, headers={"A2A-Version": "1.0"})
    assert seen and after.status_code == 200
    assert after.json()["result"]["task"]["status"]["state"] == "TASK_STATE_COMPLETED", after.text
    log = "".join(served.stderr) + served.text
    assert "Exception in ASGI application" not in log and "Unhandled exception" not in log, log[-2000:]
