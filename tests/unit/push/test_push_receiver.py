"""The push receiver under attack, over real sockets: it decides on the headers (401/404 with the body never read,
413 from Content-Length), cuts a chunked body at the limit (413), drops a client that trickles its head or body
(408), keeps no more than its cap of connections, closes an idle kept-alive connection, and answers whatever a
client sends with a status or a close, never an exception; a valid push is accepted after each attack."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import httpx
import pytest
from raw_http import WAIT, exchange, post, status_update, statuses

from switchboard.push.receiver import PATH, PushReceiver
from switchboard.push.server import Limits

TASK = "task-1"
HUGE = 20 * 2**20  # the 20 MB body


@pytest.fixture
async def quiet(capfd, caplog):
    """Nothing printed and nothing logged while the test runs (the loop's exception handler included)."""
    caplog.set_level(logging.DEBUG, logger="asyncio")
    loop = asyncio.get_running_loop()
    faults: list[dict] = []
    loop.set_exception_handler(lambda _loop, context: faults.append(context))
    yield
    loop.set_exception_handler(None)
    assert faults == []
    assert [r for r in caplog.records if r.name.startswith("asyncio")] == []
    assert capfd.readouterr().err == ""


async def accepted_after(receiver: PushReceiver, token: str) -> None:
    """A valid push still goes through, and its event reaches the task's queue."""
    got = await exchange(receiver.port, post(PATH, status_update(TASK), token, extra="Connection: close\r\n"))
    assert statuses(got) == [200]
    event = await asyncio.wait_for(anext(aiter(receiver.events(TASK))), WAIT)
    assert event.task_id == TASK
    assert all(r.status != 500 for r in receiver.refused)  # no fault of ours on the way


def head(token: str | None, length: int, path: str = PATH, method: str = "POST") -> bytes:
    """A request's head announcing `length` body bytes, none of which are ever sent."""
    lines = [f"{method} {path} HTTP/1.1", "Host: 127.0.0.1", f"Content-Length: {length}"]
    if token is not None:
        lines.append(f"X-A2A-Notification-Token: {token}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def test_a_forged_or_missing_token_is_401_on_the_headers_with_the_body_never_read(quiet):
    async with PushReceiver() as receiver:
        token = receiver.register(TASK)
        # 20 MB announced and not one byte sent: an answer can only come from the headers, and the close with it
        for forged in ("guessed", None, token[:-1]):
            assert statuses(await exchange(receiver.port, head(forged, HUGE))) == [401]
        assert [r.status for r in receiver.refused] == [401, 401, 401]
        await accepted_after(receiver, token)


async def test_another_path_or_method_is_404_on_the_headers(quiet):
    async with PushReceiver() as receiver:
        token = receiver.register(TASK)
        assert statuses(await exchange(receiver.port, head(token, HUGE, path="/elsewhere"))) == [404]
        assert statuses(await exchange(receiver.port, head(token, HUGE, method="PUT"))) == [404]
        assert statuses(await exchange(receiver.port, b"GET /a2a/push HTTP/1.1\r\nHost: x\r\n\r\n")) == [404]
        assert [r.status for r in receiver.refused] == [404, 404, 404]
        await accepted_after(receiver, token)


async def test_a_content_length_over_the_limit_is_413_at_once(quiet):
    async with PushReceiver() as receiver:
        token = receiver.register(TASK)
        assert statuses(await exchange(receiver.port, head(token, HUGE))) == [413]
        assert statuses(await exchange(receiver.port, head(token, receiver.limits.max_body + 1))) == [413]
        assert [r.status for r in receiver.refused] == [413, 413]
        await accepted_after(receiver, token)


async def test_a_chunked_body_is_cut_at_the_limit_with_413(quiet):
    async with PushReceiver(limits=Limits(max_body=4096)) as receiver:
        token = receiver.register(TASK)
        chunked = (
            f"POST {PATH} HTTP/1.1\r\nHost: x\r\nX-A2A-Notification-Token: {token}\r\n"
            "Transfer-Encoding: chunked\r\n\r\n"
        ).encode()
        chunk = b"400\r\n" + b"x" * 0x400 + b"\r\n"
        # past the limit, and never ended: only the cut can answer
        assert statuses(await exchange(receiver.port, chunked + chunk * 5)) == [413]
        assert [r.status for r in receiver.refused] == [413]
        await accepted_after(receiver, token)


async def test_httpx_sending_a_whole_20_mb_body_reads_our_answer_not_a_reset(quiet):
    """httpx writes the whole body before it reads: the refused body is dropped (never kept) while it comes."""
    async with PushReceiver() as receiver, httpx.AsyncClient(timeout=WAIT) as http:
        token = receiver.register(TASK)
        forged = await http.post(receiver.url, content=b"x" * HUGE, headers={"X-A2A-Notification-Token": "guessed"})
        oversized = await http.post(receiver.url, content=b"x" * HUGE, headers={"X-A2A-Notification-Token": token})
        assert (forged.status_code, oversized.status_code) == (401, 413)
        assert forged.json() == {"error": 401} and forged.headers["connection"] == "close"
        valid = await http.post(receiver.url, content=status_update(TASK), headers={"X-A2A-Notification-Token": token})
        assert valid.status_code == 200
        assert [r.status for r in receiver.refused] == [401, 413]


async def test_a_client_trickling_its_head_or_its_body_is_dropped_with_408(quiet):
    limits = Limits(head_timeout=0.3, body_timeout=0.3)
    async with PushReceiver(limits=limits) as receiver:
        token = receiver.register(TASK)

        async def trickle(first: bytes, then: bytes) -> bytes:
            reader, writer = await asyncio.open_connection("127.0.0.1", receiver.port)
            writer.write(first)

            async def drip() -> None:  # one byte every 50 ms, for ever: the attack, not a wait
                for byte in then * 1000:
                    writer.write(bytes([byte]))
                    await asyncio.sleep(0.05)

            dripping = asyncio.create_task(drip())
            try:
                async with asyncio.timeout(WAIT):
                    return await reader.read()  # to the receiver's close
            finally:
                dripping.cancel()
                writer.close()

        assert statuses(await trickle(b"POST /a2a/push HTTP/1.1\r\n", b"X-Slow: header\r\n")) == [408]
        assert statuses(await trickle(head(token, 10**6), b"{}")) == [408]
        assert [r.status for r in receiver.refused] == [408, 408]
        assert [r.reason for r in receiver.refused] == [
            "request head not received in time",
            "request body not received in time",
        ]
        await accepted_after(receiver, token)


async def test_connections_past_the_cap_are_closed_unread_and_a_slot_freed_serves_again(quiet):
    async with PushReceiver(limits=Limits(max_connections=2)) as receiver:
        token = receiver.register(TASK)
        held = [await asyncio.open_connection("127.0.0.1", receiver.port) for _ in range(2)]
        for _, writer in held:
            writer.write(b"POST /a2a/push HTTP/1.1\r\n")  # a head begun, never ended
        async with asyncio.timeout(WAIT):
            while receiver.open_connections < 2:  # the server's accept runs on its own schedule
                await asyncio.sleep(0.01)
        excess = await exchange(receiver.port, post(PATH, status_update(TASK), token))
        assert excess == b""  # closed, unanswered: the valid push itself is turned away while the cap is full
        for _, writer in held:
            writer.close()
        async with asyncio.timeout(WAIT):
            while receiver.open_connections:
                await asyncio.sleep(0.01)
        await accepted_after(receiver, token)


async def test_a_kept_alive_connection_serves_pipelined_pushes_and_is_closed_when_idle(quiet):
    async with PushReceiver(limits=Limits(idle_timeout=0.3)) as receiver:
        token = receiver.register(TASK)
        two = post(PATH, status_update(TASK), token) + post(PATH, status_update(TASK, "TASK_STATE_COMPLETED"), token)
        got = await exchange(receiver.port, two)  # read to the close, which the idle timeout brings
        assert statuses(got) == [200, 200]
        events = aiter(receiver.events(TASK))
        states = [(await asyncio.wait_for(anext(events), WAIT)).status.state.name for _ in range(2)]
        assert states == ["WORKING", "COMPLETED"]
        assert receiver.refused == []


MALFORMED = {
    "garbage bytes": (b"\x00\xff\xfe garbage \x1b[31m\r\n\r\n", {400}),
    "half a request line, then the end": (b"POST /a2a/pu", {400}),
    "a huge header": (b"POST /a2a/push HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 40000 + b"\r\n\r\n", {431}),
    "a huge header in one read": (b"POST /a2a/push HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * 17000 + b"\r\n\r\n", {431}),
    "an invalid Content-Length": (b"POST /a2a/push HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n", {400}),
    "a negative Content-Length": (b"POST /a2a/push HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n", {400}),
    "two Content-Lengths": (
        b"POST /a2a/push HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
        {400},
    ),
    "Content-Length and Transfer-Encoding": (
        b"POST /a2a/push HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        {400},
    ),
    "a Transfer-Encoding h11 does not know": (
        b"POST /a2a/push HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
        {400},
    ),
    "a bad chunk size": (
        b"POST /a2a/push HTTP/1.1\r\nHost: x\r\nX-A2A-Notification-Token: TOKEN\r\n"
        b"Transfer-Encoding: chunked\r\n\r\nzz\r\n",
        {400},
    ),
    "no Host at HTTP/1.1": (b"POST /a2a/push HTTP/1.1\r\nContent-Length: 0\r\n\r\n", {400}),
    "HTTP/2's preface": (b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", {400, 404}),
    "a valid token and not JSON": (
        b"POST /a2a/push HTTP/1.1\r\nHost: x\r\nX-A2A-Notification-Token: TOKEN\r\nContent-Length: 5\r\n\r\n{nope",
        {400},
    ),
    "a valid token and deep JSON": (
        b"POST /a2a/push HTTP/1.1\r\nHost: x\r\nX-A2A-Notification-Token: TOKEN\r\nContent-Length: 200000\r\n\r\n"
        + b"[" * 100000
        + b"]" * 100000,
        {400},
    ),
    "a valid token, another task's event": (post(PATH, status_update("another"), "TOKEN"), {404}),
    "a token header with bytes past ASCII": (
        b"POST /a2a/push HTTP/1.1\r\nHost: x\r\nX-A2A-Notification-Token: \xff\xfe\r\nContent-Length: 0\r\n\r\n",
        {401},
    ),
}


@pytest.mark.parametrize("sent", MALFORMED.values(), ids=MALFORMED.keys())
async def test_whatever_a_client_sends_gets_a_status_and_a_close_never_an_exception(quiet, sent):
    data, expected = sent
    async with PushReceiver() as receiver:
        token = receiver.register(TASK)
        got = await exchange(receiver.port, data.replace(b"TOKEN", token.encode()), end=True)
        assert len(statuses(got)) == 1 and statuses(got)[0] in expected, got[:200]
        assert [r.status for r in receiver.refused] == statuses(got)
        await accepted_after(receiver, token)


async def test_http_1_0_a_100_continue_and_an_abrupt_close_are_served_or_ended_quietly(quiet):
    async with PushReceiver() as receiver:
        token = receiver.register(TASK)
        got = await exchange(receiver.port, post(PATH, status_update(TASK), token, version="1.0"))
        assert statuses(got) == [200]  # and closed after it, as HTTP/1.0 wants (the exchange read to the close)
        await asyncio.wait_for(anext(aiter(receiver.events(TASK))), WAIT)
        expect = post(PATH, b"", token, extra="Expect: 100-continue\r\n").replace(b"Length: 0", b"Length: 90")
        assert statuses(await exchange(receiver.port, expect, end=True)) == [100, 400]  # asked, then cut short
        assert statuses(
            await exchange(receiver.port, head("guessed", 90).replace(b"\r\n\r\n", b"\r\nExpect: 100-continue\r\n\r\n"))
        ) == [401]
        await exchange(receiver.port, post(PATH, status_update(TASK), token)[:-10], abort=True)
        await exchange(receiver.port, b"POST /a2a/push HTTP/1.1\r\nHo", abort=True)
        await accepted_after(receiver, token)


async def test_refusals_are_redacted_bounded_and_a_closing_receiver_ends_its_connections_quietly(quiet):
    receiver = PushReceiver()
    await receiver.start()
    token = receiver.register(TASK)
    assert statuses(await exchange(receiver.port, head(token, 0, path=f"/steal?t={token}"))) == [404]
    assert token not in receiver.refused[0].reason and "/steal" in receiver.refused[0].reason
    for _ in range(300):
        receiver.refuse(401, "flood")
    assert len(receiver.refused) == 256
    _, writer = await asyncio.open_connection("127.0.0.1", receiver.port)
    writer.write(b"POST /a2a/push HTTP/1.1\r\n")
    async with asyncio.timeout(WAIT):
        while receiver.open_connections < 1:
            await asyncio.sleep(0.01)
    await receiver.aclose()  # a connection in the middle of its head is ended, not left to the loop
    assert receiver.open_connections == 0
    writer.close()


def test_the_docs_say_the_bounds_the_receiver_keeps():
    readme = (Path(__file__).resolve().parents[3] / "docs" / "push-and-watch.md").read_text()
    said = " ".join(readme.split())  # as one line: the sentence wraps where it likes
    limits = Limits()
    assert f"a body over {limits.max_body // 2**20} MiB 413" in said
    assert (
        f"{limits.head_timeout:.0f} s to send the request's headers and {limits.body_timeout:.0f} s for its body"
        in said
    )
    assert f"{limits.idle_timeout:.0f} s idle between pushes" in said
    assert f"headers over {limits.max_head // 2**10} KiB get 431" in said
    assert f"at most {limits.max_connections} connections are served at once" in said


async def test_a_flood_under_a_valid_token_is_429_past_the_queue_bound_and_the_queue_drains(quiet):
    # An agent holding a token is untrusted too: what waits to be read for its task is bounded.
    async with PushReceiver(max_queued=3) as receiver:
        token = receiver.register(TASK)
        close = "Connection: close\r\n"
        flood = [await exchange(receiver.port, post(PATH, status_update(TASK), token, extra=close)) for _ in range(4)]
        assert [statuses(got) for got in flood] == [[200], [200], [200], [429]]
        assert receiver.refused[-1].status == 429
        events = aiter(receiver.events(TASK))
        for _ in range(3):
            await asyncio.wait_for(anext(events), WAIT)
        await accepted_after(receiver, token)
