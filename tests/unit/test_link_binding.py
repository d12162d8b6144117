"""Which transport a link is built on: the card's first spoken interface, or the binding the agents file forces;
and how the agents table and the conversation header say it."""

from __future__ import annotations

import httpx
import pytest

from switchboard.a2a import cards
from switchboard.a2a.cards import parse_card
from switchboard.a2a.transports.jsonrpc import JsonRpcTransport
from switchboard.a2a.transports.rest import RestTransport
from switchboard.agent_status import AgentStatus
from switchboard.agents import AgentEntry
from switchboard.link import open_link

BASE = "http://127.0.0.1:9/"
CARD = {
    "name": "both",
    "supportedInterfaces": [
        {"url": BASE + "rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
        {"url": BASE + "rpc", "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
    ],
}


def card_only(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json=CARD)


@pytest.mark.parametrize(
    ("binding", "kind", "label"),
    [
        (None, RestTransport, "HTTP+JSON 1.0"),
        ("rest", RestTransport, "HTTP+JSON 1.0"),
        ("jsonrpc", JsonRpcTransport, "0.3 legacy"),
    ],
)
async def test_the_entrys_binding_decides_the_transport(binding, kind, label):
    async with httpx.AsyncClient(transport=httpx.MockTransport(card_only)) as http:
        link = await open_link(AgentEntry("both", BASE, binding=binding), http=http)
    assert isinstance(link.transport, kind) and link.protocol_label == label
    assert link.label == {"HTTP+JSON 1.0": "HTTP+JSON 1.0", "0.3 legacy": "JSON-RPC 0.3"}[label]


@pytest.mark.parametrize(
    ("binding", "shown"), [(None, "HTTP+JSON 1.0"), ("jsonrpc", "0.3 legacy"), ("rest", "HTTP+JSON 1.0")]
)
def test_the_agents_table_says_which_binding_is_spoken(binding, shown):
    status = AgentStatus(AgentEntry("both", BASE, binding=binding), card=parse_card(CARD))
    assert status.protocol == shown


def test_the_agents_table_says_when_a_forced_binding_is_not_offered():
    only_rest = parse_card({**CARD, "supportedInterfaces": CARD["supportedInterfaces"][:1]})
    assert AgentStatus(AgentEntry("r", BASE, binding="jsonrpc"), card=only_rest).protocol == "no JSON-RPC"
    grpc = parse_card({"name": "g", "supportedInterfaces": [{"url": "127.0.0.1:9", "protocolBinding": "GRPC"}]})
    assert AgentStatus(AgentEntry("g", BASE), card=grpc).protocol == "gRPC 1.0"
    soap = parse_card({"name": "s", "supportedInterfaces": [{"url": BASE, "protocolBinding": "SOAP"}]})
    assert AgentStatus(AgentEntry("s", BASE), card=soap).protocol == "unsupported"


def test_the_agents_table_says_a_grpc_agent_needs_the_extra_where_it_is_not_installed(monkeypatch):
    monkeypatch.setattr(cards, "grpc_installed", lambda: False)
    grpc = parse_card({"name": "g", "supportedInterfaces": [{"url": "127.0.0.1:9", "protocolBinding": "GRPC"}]})
    assert AgentStatus(AgentEntry("g", BASE), card=grpc).protocol == "gRPC not installed"


async def test_push_notification_configs_over_a_0_3_rest_interface_are_refused_before_any_request():
    """At 0.3 switchboard speaks push configs over JSON-RPC only (a2a-sdk 0.3's methods): HTTP+JSON is refused."""
    from switchboard.a2a.errors import UsageError

    card = {
        "name": "rest03",
        "supportedInterfaces": [{"url": BASE, "protocolBinding": "HTTP+JSON", "protocolVersion": "0.3"}],
    }

    def card_at_03(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json=card)

    async with httpx.AsyncClient(transport=httpx.MockTransport(card_at_03)) as http:
        link = await open_link(AgentEntry("rest03", BASE), http=http)
        for call in (
            link.transport.create_push_config("t", "https://me/hook"),
            link.transport.get_push_config("t", "c"),
            link.transport.list_push_configs("t"),
            link.transport.delete_push_config("t", "c"),
        ):
            with pytest.raises(UsageError, match=r"at 0\.3 over JSON-RPC only"):
                await call
