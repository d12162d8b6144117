"""A kept-alive connection the agent drops after an HTTP 500: the next read (get, list, the card) on it breaks
before any answer and is sent again once on a new connection; a send is never sent again. The agent is the demo
fleet's writer (an a2a-sdk server); the fault proxy in front of it answers the 500 and resets the connection when
the client reuses it, as an independent server was seen to do (issue 27)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from fault_proxy import Exchange, Fault, FaultProxy

from switchboard.a2a.call_context import CallContext
from switchboard.a2a.cards import fetch_card
from switchboard.a2a.client import CardTransport, connect, new_message
from switchboard.a2a.errors import InvalidResponseError, SwitchboardError
from switchboard.a2a.http import new_http_client
from switchboard.a2a.model import Task


class DropAfter500:
    """Armed: the next request is answered HTTP 500 (the connection kept open), and the one after it on that
    connection is reset before any answer."""

    def __init__(self) -> None:
        self.step = "idle"

    def arm(self) -> None:
        self.step = "500"

    def __call__(self, exchange: Exchange) -> Fault | None:
        if self.step == "500":
            self.step = "drop"
            return Fault("status", status=500)
        if self.step == "drop":
            self.step = "idle"
            return Fault("reset", where="request")
        return None


def writer_port(fleet) -> int:
    return int(fleet.agent("writer").url.rstrip("/").rsplit(":", 1)[1])


SEND_RPCS = ("SendMessage", "message/send")  # v1.0, v0.3


async def started_task(transport: CardTransport) -> Task:
    result = await transport.send(new_message("a haiku about pipes"), blocking=False)
    assert isinstance(result, Task), result
    return result


READS: dict[str, Callable[[CardTransport, str, CallContext], Awaitable[object]]] = {
    "get": lambda t, task_id, context: t.get_task(task_id, context=context),
    "list": lambda t, task_id, context: t.list_tasks(page_size=5, context=context),
    "card": lambda t, task_id, context: fetch_card(t.card_url.removesuffix("/.well-known/agent-card.json"), t.http),
}


@pytest.mark.parametrize("read", list(READS))
async def test_a_read_on_a_connection_dropped_after_a_500_is_sent_again_on_a_new_one(fleet, read):
    plan = DropAfter500()
    async with FaultProxy(writer_port(fleet), plan) as proxy, new_http_client() as http:
        retried: list[str] = []
        transport = await connect(proxy.url, http=http, retry=None)  # as the conformance probe: no retries
        task = await started_task(transport)
        plan.arm()
        with pytest.raises(InvalidResponseError, match="HTTP 500"):
            await transport.get_task(task.id)
        answer = await READS[read](transport, task.id, CallContext(on_retry=retried.append))
    assert answer is not None
    reset = proxy.fired("reset")
    assert len(reset) == 1, proxy.log
    after = proxy.log[proxy.log.index(reset[0]) + 1 :]
    assert len(after) == 1 and after[0].forwarded, "sent again once, and it reached the agent"
    assert (after[0].method, after[0].path, after[0].rpc) == (reset[0].method, reset[0].path, reset[0].rpc)
    if read != "card":  # the card is fetched outside the transport: its note goes to the card's notes
        assert any("closed before any answer: sent again" in note for note in retried), retried


async def test_a_send_on_a_dropped_connection_is_not_sent_again(fleet):
    plan = DropAfter500()
    async with FaultProxy(writer_port(fleet), plan) as proxy, new_http_client() as http:
        transport = await connect(proxy.url, http=http, retry=None)
        task = await started_task(transport)
        plan.arm()
        with pytest.raises(InvalidResponseError, match="HTTP 500"):
            await transport.get_task(task.id)
        sends_before = len([e for e in proxy.log if e.rpc in SEND_RPCS])
        with pytest.raises(SwitchboardError) as failed:
            await transport.send(new_message("hello again"))
    assert failed.value.code == "A2ACLI_ERR_UNREACHABLE", failed.value
    sends = [e for e in proxy.log if e.rpc in SEND_RPCS]
    assert len(sends) == sends_before + 1, "the send went out once: it may have reached the agent"
    assert proxy.fired("reset") == [sends[-1]]
