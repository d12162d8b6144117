"""read_bounded and read_tapped on answers a real server will not send on demand: a body past the bound made of
short strings only, a body cut off midway; and the cancel's own read timeout. (The interop tests read real answers
to a cancel.)"""

from __future__ import annotations

import json

import httpx
import pytest

from switchboard.a2a.bounded_read import TAP_HEAD, read_bounded, read_tapped
from switchboard.a2a.cards import parse_card
from switchboard.a2a.errors import InvalidResponseError, UnreachableError
from switchboard.a2a.http import DEFAULT_TIMEOUT
from switchboard.a2a.tap import Tap
from switchboard.a2a.transports.http_transport import CANCEL_TIMEOUT
from switchboard.a2a.transports.jsonrpc import JsonRpcTransport

URL = "http://agent.test/"


class Chunks(httpx.AsyncByteStream):
    def __init__(self, chunks: list[bytes], fail_after: int | None = None) -> None:
        self.chunks, self.fail_after = chunks, fail_after

    async def __aiter__(self):
        for i, chunk in enumerate(self.chunks):
            if i == self.fail_after:
                raise httpx.ReadError("connection reset")
            yield chunk


async def answer(chunks: list[bytes], fail_after: int | None = None, tap: Tap | None = None) -> httpx.Response:
    transport = httpx.MockTransport(lambda request: httpx.Response(200, stream=Chunks(chunks, fail_after)))
    http = httpx.AsyncClient(transport=transport)
    request = http.build_request("POST", URL, content=b"{}")
    return await http.send(request, stream=True)


def split(raw: bytes, size: int) -> list[bytes]:
    return [raw[i : i + size] for i in range(0, len(raw), size)]


async def test_under_the_bound_the_body_is_kept_whole():
    raw = json.dumps({"result": {"text": "x" * 10_000}}).encode()
    body = await read_bounded(await answer(split(raw, 1000)), len(raw), url=URL)
    assert body.content == raw and body.head == raw and body.size == len(raw) and not body.skimmed


async def test_past_the_bound_long_strings_are_left_out_and_the_head_kept_for_the_tap():
    raw = json.dumps({"result": {"id": "t1", "parts": [{"text": "y" * 100_000} for _ in range(5)]}}).encode()
    body = await read_bounded(await answer(split(raw, 7000)), 64 * 1024, url=URL, long_string=100)
    assert body.skimmed and body.size == len(raw)
    assert json.loads(body.content) == {"result": {"id": "t1", "parts": [{"text": ""}] * 5}}
    assert body.head == raw[:TAP_HEAD]


async def test_short_strings_past_the_bound_even_when_filtered_are_refused():
    raw = json.dumps({"result": {"parts": [{"text": "z"} for _ in range(20_000)]}}).encode()
    with pytest.raises(InvalidResponseError) as caught:
        await read_bounded(await answer(split(raw, 4096)), 32 * 1024, url=URL)
    assert "even with its long texts left out" in caught.value.message and URL in caught.value.message


async def test_a_body_cut_off_midway_is_a_network_error_on_the_tap_and_the_exchange_closed():
    tap = Tap()
    response = await answer([b'{"result": {"id": "', b"t1"], fail_after=1)
    exchange = tap.request("POST", URL, [], b"{}")
    with pytest.raises(UnreachableError) as caught:
        await read_tapped(response, 1024, url=URL, tap=tap, exchange=exchange)
    assert "connection reset" in caught.value.message
    assert [r.kind for r in tap.records] == ["request", "error"]
    assert response.is_closed and exchange not in tap._started


async def test_the_cancel_waits_longer_than_other_calls_unless_told_otherwise():
    seen: list[tuple[str, dict]] = []
    task = {"id": "t1", "contextId": "c1", "status": {"state": "TASK_STATE_CANCELED"}}

    def agent(request: httpx.Request) -> httpx.Response:
        seen.append((json.loads(request.content)["method"], request.extensions["timeout"]))
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "result": task})

    card = parse_card(
        {"name": "a", "supportedInterfaces": [{"url": URL, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]}
    )
    http = httpx.AsyncClient(timeout=DEFAULT_TIMEOUT, transport=httpx.MockTransport(agent))  # as new_http_client
    async with JsonRpcTransport(card, card_url=URL, http=http) as client:
        await client.get_task("t1")
        await client.cancel_task("t1")
        await client.cancel_task("t1", timeout=7.0)
    await http.aclose()
    assert seen == [
        ("GetTask", DEFAULT_TIMEOUT.as_dict()),
        ("CancelTask", CANCEL_TIMEOUT.as_dict()),
        ("CancelTask", httpx.Timeout(7.0).as_dict()),
    ]
    assert CANCEL_TIMEOUT.read > DEFAULT_TIMEOUT.read
