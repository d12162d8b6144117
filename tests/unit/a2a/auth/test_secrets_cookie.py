"""An API key the card wants in a cookie is sent as a Cookie header on each request to the agent, and never
lands in the shared HTTP client's cookie jar (which would carry it to every other agent)."""

from __future__ import annotations

import httpx
import pytest

from switchboard.a2a.auth.credentials import Credentials, plan_auth
from switchboard.a2a.cards import parse_card
from switchboard.a2a.errors import ProtocolError
from switchboard.a2a.model import AgentCard
from switchboard.a2a.transports.jsonrpc import JsonRpcTransport

CARD_URL = "http://127.0.0.1:9101/.well-known/agent-card.json"


def cookie_card() -> AgentCard:
    """A v0.3 card whose API key goes in the `session` cookie."""
    data = {
        "name": "cookie-agent",
        "url": "http://127.0.0.1:9101/",
        "protocolVersion": "0.3.0",
        "securitySchemes": {"key": {"type": "apiKey", "in": "cookie", "name": "session"}},
        "security": [{"key": []}],
    }
    return parse_card(data)


def test_a_cookie_key_becomes_a_cookie_header_of_the_request():
    plan = plan_auth(cookie_card(), Credentials(api_key="cookie-secret-1"))
    assert plan.cookies == {"session": "cookie-secret-1"} and plan.headers == {}
    assert plan.request_headers() == {"Cookie": "session=cookie-secret-1"}


async def test_the_cookie_reaches_the_agent_and_not_the_shared_jar():
    seen: list[httpx.Request] = []

    def agent(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": 1, "error": {"code": -32001, "message": "no"}})

    async with httpx.AsyncClient(transport=httpx.MockTransport(agent)) as http:
        client = JsonRpcTransport(
            cookie_card(), card_url=CARD_URL, http=http, credentials=Credentials(api_key="c-secret")
        )
        with pytest.raises(ProtocolError):
            await client.get_task("t-1")
        assert seen[-1].headers["Cookie"] == "session=c-secret"
        assert len(http.cookies) == 0
        await http.get("http://elsewhere.example/")
        assert "Cookie" not in seen[-1].headers
