"""The gRPC transport's own rules, without a server: where a card's gRPC address leads, TLS or not, which
credentials go there, what an unreachable gRPC agent and a missing extra look like. The protocol itself is
tested against the official SDKs' gRPC servers in tests/interop."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from switchboard.a2a.auth.credentials import Credentials
from switchboard.a2a.cards import ResolvedCard, parse_card
from switchboard.a2a.client import transport_for
from switchboard.a2a.errors import UsageError
from switchboard.a2a.transports.grpc import GrpcTransport
from switchboard.a2a.transports.grpc_address import grpc_target
from switchboard.a2a.wire.common import Notes
from switchboard.cli import main


def grpc_card(url: str, **extra) -> dict:
    return {
        "name": "Planner",
        "supportedInterfaces": [{"url": url, "protocolBinding": "GRPC", "protocolVersion": "1.0"}],
        "capabilities": {"streaming": True},
        **extra,
    }


API_KEY_CARD = {
    "securitySchemes": {"key": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}}},
    "securityRequirements": [{"schemes": {"key": {"list": []}}}],
}


@pytest.mark.parametrize(
    ("url", "target", "tls"),
    [
        ("127.0.0.1:50051", "127.0.0.1:50051", None),
        ("grpc://agent.example.com:8080", "agent.example.com:8080", False),
        ("grpcs://agent.example.com:443/", "agent.example.com:443", True),
        ("https://agent.example.com", "agent.example.com", True),
        ("[::1]:50051", "[::1]:50051", None),
    ],
)
def test_a_cards_grpc_address_becomes_a_channel_target(url, target, tls):
    assert grpc_target(url) == (target, tls)


@pytest.mark.parametrize("url", ["ftp://agent.example.com:21", "", ":50051", "agent.example.com:99999"])
def test_a_grpc_address_that_is_not_host_port_is_a_usage_error_naming_it(url):
    with pytest.raises(UsageError) as caught:
        grpc_target(url)
    assert caught.value.exit_code == 2 and "gRPC interface" in caught.value.message


def transport(card: dict, card_url: str, **kwargs) -> GrpcTransport:
    made = transport_for(ResolvedCard(parse_card(card), card_url, Notes()), **kwargs)
    assert isinstance(made, GrpcTransport)
    return made


def test_tls_follows_the_card_unless_the_address_says():
    assert not transport(grpc_card("127.0.0.1:1"), "http://127.0.0.1:2/.well-known/agent-card.json").tls
    assert transport(grpc_card("agent.example.com:443"), "https://agent.example.com/.well-known/agent-card.json").tls
    assert not transport(grpc_card("grpc://agent.example.com:80"), "https://agent.example.com/x.json").tls
    assert transport(grpc_card("agent.example.com:443"), "file:///tmp/card.json").tls  # not loopback: TLS
    assert not transport(grpc_card("localhost:50051"), "file:///tmp/card.json").tls


def test_metadata_carries_the_version_the_credentials_and_the_trace_in_lower_case():
    made = transport(
        grpc_card("agent.example.com:50051", **API_KEY_CARD),
        "https://agent.example.com/.well-known/agent-card.json",
        credentials=Credentials(api_key="k-123"),
        correlation_id="run-1",
        extra_headers={"X-Team": "blue"},
    )
    assert dict(made.metadata) == {
        "x-team": "blue",
        "x-api-key": "k-123",
        "a2a-version": "1.0",
        "x-correlation-id": "run-1",
    }
    assert not made.withheld


def test_credentials_stay_home_when_the_grpc_interface_is_on_another_host():
    made = transport(
        grpc_card("elsewhere.example.net:443", **API_KEY_CARD),
        "https://agent.example.com/.well-known/agent-card.json",
        credentials=Credentials(api_key="k-123"),
        extra_headers={"X-Team": "blue"},
    )
    assert made.withheld and "x-api-key" not in dict(made.metadata) and "x-team" not in dict(made.metadata)
    assert any("withheld" in note for note in made.notes)
    trusted = transport(
        grpc_card("elsewhere.example.net:443", **API_KEY_CARD),
        "https://agent.example.com/.well-known/agent-card.json",
        credentials=Credentials(api_key="k-123"),
        trust_interface_origin=True,
    )
    assert dict(trusted.metadata)["x-api-key"] == "k-123"


def write_card(tmp_path, card: dict) -> str:
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card))
    return str(path)


def test_an_unreachable_grpc_agent_is_exit_3_naming_its_address(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path / "home"))
    # Port 9 (discard) has no listener here: the connection is refused at once.
    assert main(["send", write_card(tmp_path, grpc_card("127.0.0.1:9")), "hi", "-o", "json"]) == 3
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "A2ACLI_ERR_UNREACHABLE"
    assert "cannot reach the gRPC interface 127.0.0.1:9" in error["message"]


WITHOUT_GRPC = """
import contextlib, io, json, sys
sys.modules["grpc"] = None  # as if the extra a2a-switchboard[grpc] were not installed
from switchboard.a2a.wire.common import Notes
from switchboard.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
    code = main(sys.argv[1:])
print(json.dumps({"code": code, "out": out.getvalue()}))
"""


@pytest.mark.parametrize("forced", [[], ["--binding", "grpc"]])
def test_without_the_extra_a_grpc_only_agent_is_a_clear_error_naming_it(tmp_path, forced):
    card = write_card(tmp_path, grpc_card("127.0.0.1:9"))
    env = {"SWITCHBOARD_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    argv = [sys.executable, "-c", WITHOUT_GRPC, "send", card, "hi", "-o", "json", *forced]
    done = json.loads(subprocess.run(argv, capture_output=True, text=True, env=env, timeout=60, check=True).stdout)
    error = json.loads(done["out"])["error"]
    assert done["code"] == 1 and error["code"] == "SWITCHBOARD_ERR_PROTOCOL_UNSUPPORTED"
    assert "pip install 'a2a-switchboard[grpc]'" in error["hint"]
