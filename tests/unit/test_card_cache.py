"""A workflow run reads each agent's card once, however many of its steps run at once."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from switchboard.a2a.errors import CardNotFoundError
from switchboard.agents import AgentEntry
from switchboard.link import CardCache, open_link

CARD = {
    "name": "Legacy Agent",
    "description": "speaks 0.3",
    "version": "1.2.3",
    "url": "http://127.0.0.1:9101/",
    "protocolVersion": "0.3.0",
    "capabilities": {"streaming": True},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [],
}


def counting_client(missing: bool = False) -> tuple[httpx.AsyncClient, list[str]]:
    seen: list[str] = []

    async def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        await asyncio.sleep(0.01)  # long enough for every asker to arrive while the first fetch runs
        return httpx.Response(404) if missing else httpx.Response(200, json=CARD)

    return httpx.AsyncClient(transport=httpx.MockTransport(handler)), seen


async def test_concurrent_links_to_one_agent_share_one_card_fetch():
    http, seen = counting_client()
    cards = CardCache()
    entry = AgentEntry("legacy", "http://127.0.0.1:9101/")
    async with http:
        links = await asyncio.gather(
            *(open_link(entry, http=http, cards=cards, correlation_id=f"c{i}") for i in range(20))
        )
        later = await open_link(entry, http=http, cards=cards)
    assert seen == ["/.well-known/agent-card.json"]
    assert {link.card.name for link in [*links, later]} == {"Legacy Agent"}
    assert [link.transport.correlation_id for link in links[:2]] == ["c0", "c1"]  # each link keeps its own settings


async def test_a_failed_fetch_is_not_kept_and_the_next_asker_fetches_again():
    http, seen = counting_client(missing=True)
    cards = CardCache()
    entry = AgentEntry("legacy", "http://127.0.0.1:9101/")
    async with http:
        for _ in range(2):
            with pytest.raises(CardNotFoundError):
                await cards.get(entry, http, None)
    paths = ["/.well-known/agent-card.json", "/.well-known/agent.json"]
    assert seen == paths + paths
