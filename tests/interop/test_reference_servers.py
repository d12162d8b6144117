"""Smoke test of the reference servers themselves, in raw JSON over plain httpx (not through our client)."""

from __future__ import annotations

import json
import uuid

import httpx
import pytest
import script

pytestmark = pytest.mark.interop

SEND = ("SendMessage", "message/send")  # (v1.0 name, v0.3 name)
STREAM = ("SendStreamingMessage", "message/stream")
_V10_KEYS = {"task": "task", "message": "message", "statusUpdate": "status-update", "artifactUpdate": "artifact-update"}


class RawWire:
    """Just enough of v1.0 or v0.3 JSON-RPC to talk to one reference server."""

    def __init__(self, server) -> None:
        self.v10 = server.wire_version == "1.0"
        headers = {"A2A-Version": "1.0"} if self.v10 else {}
        self.http = httpx.Client(base_url=server.url, headers=headers, timeout=20)

    def message(self, text: str, task: dict | None = None) -> dict:
        if self.v10:
            msg = {"messageId": str(uuid.uuid4()), "role": "ROLE_USER", "parts": [{"text": text}]}
        else:
            msg = {"kind": "message", "messageId": str(uuid.uuid4()), "role": "user",
                   "parts": [{"kind": "text", "text": text}]}  # fmt: skip
        if task:
            msg |= {"taskId": task["id"], "contextId": task["contextId"]}
        return {"message": msg}

    def send(self, text: str, task: dict | None = None) -> tuple[str, dict]:
        body = self.body(SEND, self.message(text, task))
        reply = self.http.post("", json=body).json()
        return self.unwrap(reply["result"])

    def stream(self, text: str, task: dict | None = None) -> list[tuple[str, dict]]:
        body = self.body(STREAM, self.message(text, task))
        with self.http.stream("POST", "", json=body, headers={"Accept": "text/event-stream"}) as response:
            assert response.headers["content-type"].startswith("text/event-stream")
            lines = [line for line in response.iter_lines() if line.startswith("data:")]
        return [self.unwrap(json.loads(line.removeprefix("data:"))["result"]) for line in lines]

    def unwrap(self, result: dict) -> tuple[str, dict]:
        """(kind, object): v1.0 wraps each result in a one-key object, v0.3 tags it with `kind`."""
        if self.v10:
            ((key, obj),) = result.items()
            return _V10_KEYS[key], obj
        return result["kind"], result

    def body(self, method: tuple[str, str], params: dict) -> dict:
        name = method[0] if self.v10 else method[1]
        return {"jsonrpc": "2.0", "id": str(uuid.uuid4()), "method": name, "params": params}


def state(status: dict) -> str:
    return status["state"].removeprefix("TASK_STATE_").lower().replace("_", "-")


def status_text(status: dict) -> str:
    return status["message"]["parts"][0]["text"]


JS_V03_GRPC = [("GRPC", "0.3"), ("JSONRPC", "0.3"), ("HTTP+JSON", "0.3")]


def test_card_lists_the_greet_skill_and_the_expected_interface(reference_server):
    card = httpx.get(reference_server.url + ".well-known/agent-card.json").json()

    # Every server replays script.py (the JS one a port of it), so the texts are the same everywhere.
    assert card["name"].startswith(script.AGENT_NAME) and card["description"] == script.AGENT_DESCRIPTION
    skill = card["skills"][0]
    assert (skill["id"], skill["name"], skill["description"]) == (
        script.SKILL_ID,
        script.SKILL_NAME,
        script.SKILL_DESCRIPTION,
    )
    assert (skill["tags"], skill["examples"]) == (script.SKILL_TAGS, script.SKILL_EXAMPLES)
    interfaces = [(i["protocolBinding"], i["protocolVersion"]) for i in card.get("supportedInterfaces", [])]
    expected = {
        "sdk13-v10": [("JSONRPC", "1.0"), ("JSONRPC", "0.3")],
        "sdk13-v03compat": [("JSONRPC", "0.3")],
        "sdk03-native": [],  # legacy card: url + preferredTransport + protocolVersion
        # Asked without A2A-Version, the JS SDK serves a v0.3 card that also carries supportedInterfaces.
        "js-v10": [("JSONRPC", "1.0"), ("HTTP+JSON", "1.0"), ("JSONRPC", "0.3"), ("HTTP+JSON", "0.3")],
        "js-v03compat": [("JSONRPC", "0.3"), ("HTTP+JSON", "0.3")],
        "sdk13-rest": [("HTTP+JSON", "1.0")],
        "sdk13-v03rest": [("HTTP+JSON", "0.3")],
        "sdk03-rest": [],  # legacy card, preferredTransport HTTP+JSON
        "js-rest": [("HTTP+JSON", "1.0"), ("JSONRPC", "1.0"), ("HTTP+JSON", "0.3"), ("JSONRPC", "0.3")],
        "js-v03rest": [("HTTP+JSON", "0.3"), ("JSONRPC", "0.3")],
        "sdk13-grpc": [("GRPC", "1.0")],
        "sdk13-v03grpc": [("GRPC", "0.3")],
        "js-grpc": [("GRPC", "1.0"), ("JSONRPC", "1.0"), ("HTTP+JSON", "1.0"), *JS_V03_GRPC],
        "js-v03grpc": JS_V03_GRPC,
    }[reference_server.kind]
    assert interfaces == expected
    if reference_server.stack == "sdk03":
        assert (card["url"], card["protocolVersion"]) == (reference_server.url, "0.3.0")
        assert card["preferredTransport"] == {"JSONRPC": "JSONRPC", "HTTP+JSON": "HTTP+JSON"}[reference_server.binding]


def test_greet_asks_for_a_name_then_streams_a_three_chunk_greeting(reference_server):
    wire = RawWire(reference_server)

    kind, task = wire.send("hi")
    assert kind == "task"
    assert state(task["status"]) == "input-required"
    assert status_text(task["status"]) == "What name should I greet?"

    events = wire.stream("Ada", task)
    statuses = [(state(obj["status"]), status_text(obj["status"])) for k, obj in events if k == "status-update"]
    assert statuses == [("working", "got it: Ada"), ("completed", "done")]
    chunks = [obj for k, obj in events if k == "artifact-update"]
    assert [c["artifact"]["parts"][0]["text"] for c in chunks] == ["Hello, ", "Ada", "! Nice to meet you."]
    assert {c["artifact"]["artifactId"] for c in chunks} == {"greeting-artifact"}
    assert [bool(c.get("append")) for c in chunks] == [False, True, True]
    assert [bool(c.get("lastChunk")) for c in chunks] == [False, False, True]


def test_api_key_guards_calls_but_not_the_card(auth_server):
    card = httpx.get(auth_server.url + ".well-known/agent-card.json")
    assert card.status_code == 200
    assert "apiKey" in card.json()["securitySchemes"]

    wire = RawWire(auth_server)
    request = wire.body(SEND, wire.message("quick hello"))
    refused = wire.http.post("", json=request)
    assert (refused.status_code, refused.json()) == (401, {"error": "missing or wrong API key"})

    accepted = wire.http.post("", json=request, headers={"X-API-Key": auth_server.api_key})
    kind, reply = wire.unwrap(accepted.json()["result"])
    assert (kind, reply["parts"][0]["text"]) == ("message", "quick reply to: quick hello")
