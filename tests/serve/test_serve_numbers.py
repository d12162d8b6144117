"""A served workflow's whole numbers reach the caller as integers: `{"n": 5}` comes back `"n":5`, not `5.0`.

The SDK holds data and metadata as a protobuf Struct (doubles), and protobuf writes a whole double as 5.0; serve
rewrites each answer on its way out (serve/whole_numbers.py). Checked on the raw bytes a caller reads, for each
binding and protocol version serve offers: a send, a get, and every frame of a stream. A non-whole number
(2.5) stays as it is.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator

import httpx
import pytest
from serve_support import WORKFLOWS, ServeProcess, cli, start_serve

V1 = {"A2A-Version": "1.0", "Content-Type": "application/json"}
V03 = {"Content-Type": "application/json"}
VALUE = {"n": 5, "x": 2.5}
WHOLE_N = re.compile(rb'"n":5[,}]')
WHOLE_ATTEMPT = re.compile(rb'"attempt":1[,}]')
AS_DOUBLE = re.compile(rb'"(n|attempt)":\s*\d+\.0\b')


def envelope(method: str, params: dict) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).encode()


def message_v1() -> dict:
    return {"messageId": uuid.uuid4().hex, "role": "ROLE_USER", "parts": [{"data": {"inputs": {"text": VALUE}}}]}


def message_v03() -> dict:
    data = {"kind": "data", "data": {"inputs": {"text": VALUE}}}
    return {"kind": "message", "messageId": uuid.uuid4().hex, "role": "user", "parts": [data]}


@pytest.fixture(scope="module")
def url(fleet, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    home = tmp_path_factory.mktemp("numbers")
    process: ServeProcess = start_serve(home, fleet.agents_file, "--port", "0", str(WORKFLOWS / "one-echo.yaml"))
    yield process.url("one-echo")
    if process.process.poll() is None:
        process.interrupt()


def post(url: str, body: bytes, headers: dict) -> bytes:
    answer = httpx.post(url, content=body, headers=headers, timeout=60)
    assert answer.status_code == 200, answer.text
    assert int(answer.headers["content-length"]) == len(answer.content)
    return answer.content


def stream(url: str, body: bytes, headers: dict) -> list[bytes]:
    """Each SSE `data:` payload of a stream, as the bytes that arrived."""
    with httpx.stream("POST", url, content=body, headers=headers, timeout=60) as answer:
        assert answer.status_code == 200
        raw = answer.read()
    frames = [line[5:].strip() for line in raw.splitlines() if line.startswith(b"data:")]
    assert frames, raw
    for frame in frames:
        json.loads(frame)  # each frame still one JSON text
    return frames


def task_id_of(frames: list[bytes]) -> str:
    for frame in frames:
        doc = json.loads(frame)
        result = doc.get("result", doc)
        for found in (result.get("task", {}).get("id"), result.get("taskId"), result.get("id")):
            if isinstance(found, str) and result.get("kind", "task") in ("task", "status-update"):
                return found
    raise AssertionError(frames)


def assert_whole(raw: bytes, *, attempt: bool = False) -> None:
    assert not AS_DOUBLE.search(raw), raw
    assert WHOLE_N.search(raw), raw
    assert b'"x":2.5' in raw, raw
    if attempt:
        assert WHOLE_ATTEMPT.search(raw), raw


def test_jsonrpc_v1_send_get_and_stream_carry_whole_numbers_as_integers(url: str):
    frames = stream(url, envelope("SendStreamingMessage", {"message": message_v1()}), V1)
    assert_whole(b"\n".join(frames), attempt=True)
    got = post(url, envelope("GetTask", {"id": task_id_of(frames), "historyLength": 50}), V1)
    assert_whole(got, attempt=True)
    assert_whole(post(url, envelope("SendMessage", {"message": message_v1()}), V1))


def test_jsonrpc_v03_send_get_and_stream_carry_whole_numbers_as_integers(url: str):
    frames = stream(url, envelope("message/stream", {"message": message_v03()}), V03)
    assert_whole(b"\n".join(frames), attempt=True)
    got = post(url, envelope("tasks/get", {"id": task_id_of(frames), "historyLength": 50}), V03)
    assert_whole(got, attempt=True)
    assert_whole(post(url, envelope("message/send", {"message": message_v03()}), V03))


def test_http_json_send_get_and_stream_carry_whole_numbers_as_integers(url: str):
    body = json.dumps({"message": message_v1()}).encode()
    frames = stream(url + "rest/message:stream", body, V1)
    assert_whole(b"\n".join(frames), attempt=True)
    answer = httpx.get(f"{url}rest/tasks/{task_id_of(frames)}?historyLength=50", headers=V1, timeout=60)
    assert answer.status_code == 200, answer.text
    assert_whole(answer.content, attempt=True)
    assert_whole(post(url + "rest/message:send", json.dumps({"message": message_v1()}).encode(), V1))


def test_the_command_line_shows_a_served_tasks_whole_numbers_as_integers(url: str, tmp_path):
    """The issue as a user met it: `send` with {"n": 5}, then `task get -o json` printed "n": 5.0."""
    sent = cli(tmp_path, "send", url, "--data", json.dumps({"inputs": {"text": VALUE}}), "-o", "json")
    assert sent.returncode == 0, sent.stderr
    task_id = json.loads(sent.stdout)["task"]["id"]
    got = cli(tmp_path, "task", "get", url, task_id, "--history", "50", "-o", "json")
    assert got.returncode == 0, got.stderr
    assert not re.search(r'"(n|attempt)": \d+\.0\b', got.stdout), got.stdout
    assert re.search(r'"n": 5[,}\n]', got.stdout), got.stdout
    assert re.search(r'"attempt": 1[,}\n]', got.stdout), got.stdout
    assert '"x": 2.5' in got.stdout, got.stdout
