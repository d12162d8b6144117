"""A push config answered with something other than a JSON object, a fault no real server produces on demand:
played through httpx.MockTransport. It is the agent's mistake, said as such, not a list handed to code that
reads a config (conformance's got.get("url") was an internal error)."""

from __future__ import annotations

import json

import httpx
import pytest
from transcripts import ROOT

from switchboard.a2a.cards import parse_card
from switchboard.a2a.errors import InvalidResponseError
from switchboard.a2a.transports.jsonrpc import JsonRpcTransport
from switchboard.a2a.wire import v03

BASE = "http://agent.test/"


def card():
    raw = json.loads((ROOT / "v10-jsonrpc/v10-01-agent-card.json").read_text())
    raw["supportedInterfaces"] = [{"url": BASE, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}]
    return parse_card(raw)


def agent_answering(result: object):
    def agent(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": body["id"], "result": result})

    return agent


@pytest.mark.parametrize("result", [["a", "list"], "a string", None], ids=["list", "string", "null"])
async def test_a_push_config_that_is_not_an_object_is_an_invalid_response(result):
    http = httpx.AsyncClient(transport=httpx.MockTransport(agent_answering(result)))
    async with JsonRpcTransport(card(), card_url=BASE, http=http) as transport:
        with pytest.raises(InvalidResponseError, match="not a push notification config"):
            await transport.get_push_config("task-1", "config-1")
        with pytest.raises(InvalidResponseError, match="not a push notification config"):
            await transport.create_push_config("task-1", "http://127.0.0.1:1/hook")
    await http.aclose()


async def test_a_push_config_object_comes_back_as_sent():
    config = {"id": "config-1", "taskId": "task-1", "url": "http://127.0.0.1:1/hook"}
    http = httpx.AsyncClient(transport=httpx.MockTransport(agent_answering(config)))
    async with JsonRpcTransport(card(), card_url=BASE, http=http) as transport:
        assert await transport.get_push_config("task-1", "config-1") == config
    await http.aclose()


async def test_a_push_config_carries_its_authentication_in_each_versions_shape():
    """The config's authentication (PushNotificationConfig.authentication) is what the agent sends as the push's
    Authorization: one scheme at 1.0, a list of schemes at 0.3."""
    sent: list[dict] = []

    def agent(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        sent.append(body["params"])
        return httpx.Response(200, json={"jsonrpc": "2.0", "id": body["id"], "result": {"id": "c", "url": "u"}})

    http = httpx.AsyncClient(transport=httpx.MockTransport(agent))
    async with JsonRpcTransport(card(), card_url=BASE, http=http) as transport:
        await transport.create_push_config("task-1", "http://127.0.0.1:1/hook", authentication=("Bearer", "s3cret"))
        await transport.create_push_config("task-1", "http://127.0.0.1:1/hook")
    await http.aclose()
    assert sent[0]["authentication"] == {"scheme": "Bearer", "credentials": "s3cret"}
    assert "authentication" not in sent[1]
    legacy = v03.push_config_params("task-1", "http://127.0.0.1:1/hook", "tok", authentication=("Bearer", "s3cret"))
    assert legacy["pushNotificationConfig"]["authentication"] == {"schemes": ["Bearer"], "credentials": "s3cret"}
