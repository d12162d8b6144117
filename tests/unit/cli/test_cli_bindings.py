"""Which binding the command line speaks: chosen from the card, shown by `card get`, and a card with nothing
switchboard speaks is a clear failure of its own, never an internal error."""

from __future__ import annotations

import json

import pytest

from switchboard.a2a import cards
from switchboard.cli import main

GRPC_ONLY = {
    "name": "Route Planner",
    "description": "Plans routes.",
    "version": "1.0.0",
    "supportedInterfaces": [
        {"url": "https://planner.example.com:443", "protocolBinding": "GRPC", "protocolVersion": "1.0"}
    ],
    "capabilities": {"streaming": True},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [],
}


@pytest.fixture(autouse=True)
def isolated(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path / "home"))


@pytest.fixture
def without_grpc_extra(monkeypatch):
    """As if a2a-switchboard[grpc] were not installed (the test venv has it)."""
    monkeypatch.setattr(cards, "grpc_installed", lambda: False)


def card_file(tmp_path, card: dict) -> str:
    path = tmp_path / "card.json"
    path.write_text(json.dumps(card))
    return str(path)


def test_without_the_extra_a_grpc_only_card_names_the_grpc_extra_with_a_code_of_its_own(
    tmp_path, capsys, without_grpc_extra
):
    assert main(["send", card_file(tmp_path, GRPC_ONLY), "hi", "-o", "json"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "SWITCHBOARD_ERR_PROTOCOL_UNSUPPORTED"
    assert error["message"] == "Route Planner offers no interface switchboard speaks: GRPC 1.0"
    assert "a2a-switchboard[grpc]" in error["hint"]


def test_without_the_extra_card_get_of_a_grpc_only_card_says_no_endpoint_is_usable(
    tmp_path, capsys, without_grpc_extra
):
    assert main(["card", "get", card_file(tmp_path, GRPC_ONLY)]) == 0
    out = capsys.readouterr().out
    assert "Endpoint: none usable: Route Planner offers no interface switchboard speaks: GRPC 1.0" in out
    assert "Interface: GRPC 1.0 https://planner.example.com:443" in out


def test_card_get_shows_the_binding_chosen_in_the_cards_order(tmp_path, capsys, monkeypatch):
    card = {
        **GRPC_ONLY,
        "supportedInterfaces": [
            {"url": "https://planner.example.com/grpc", "protocolBinding": "GRPC", "protocolVersion": "1.0"},
            {"url": "https://planner.example.com/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
            {"url": "https://planner.example.com/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        ],
    }
    assert main(["card", "get", card_file(tmp_path, card)]) == 0
    assert "Endpoint: https://planner.example.com/grpc (gRPC, protocol 1.0)" in capsys.readouterr().out
    monkeypatch.setattr(cards, "grpc_installed", lambda: False)  # as if the extra were not installed
    assert main(["card", "get", card_file(tmp_path, card)]) == 0
    assert "Endpoint: https://planner.example.com/rest (HTTP+JSON, protocol 1.0)" in capsys.readouterr().out


BOTH = {
    **GRPC_ONLY,
    "name": "Both",
    "supportedInterfaces": [
        {"url": "http://127.0.0.1:9/rpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        {"url": "http://127.0.0.1:9/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
    ],
}
JSONRPC_ONLY = {**BOTH, "name": "Rpc", "supportedInterfaces": BOTH["supportedInterfaces"][:1]}


def test_binding_forces_the_interface_card_get_shows(tmp_path, capsys):
    assert main(["card", "get", card_file(tmp_path, BOTH), "--binding", "rest"]) == 0
    assert "Endpoint: http://127.0.0.1:9/rest (HTTP+JSON, protocol 1.0)" in capsys.readouterr().out


def test_a_forced_binding_the_card_lacks_is_a_usage_error_naming_what_it_offers(tmp_path, capsys):
    assert main(["send", card_file(tmp_path, JSONRPC_ONLY), "hi", "--binding", "rest", "-o", "json"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "A2ACLI_ERR_USAGE"
    assert error["message"] == "Rpc does not offer HTTP+JSON; it offers JSONRPC 1.0"
    assert "--binding" in error["hint"]


def test_binding_in_the_agents_file_is_followed_and_a_flag_overrides_it(tmp_path, capsys):
    agents = tmp_path / "agents.yaml"
    agents.write_text(f"agents:\n  - {{name: both, url: {card_file(tmp_path, BOTH)}, binding: rest}}\n")
    assert main(["--agents", str(agents), "card", "get", "both"]) == 0
    assert "(HTTP+JSON, protocol 1.0)" in capsys.readouterr().out
    assert main(["--agents", str(agents), "card", "get", "both", "--binding", "jsonrpc"]) == 0
    assert "Endpoint: http://127.0.0.1:9/rpc (JSON-RPC, protocol 1.0)" in capsys.readouterr().out


def test_the_resume_line_keeps_the_binding():
    from types import SimpleNamespace

    from switchboard.cli.context import Target, reply_command

    args = SimpleNamespace(
        agents=None, api_key_env=None, bearer_env=None, a2a_version=None, binding="rest", trust_interface_origin=False
    )
    assert reply_command(args, Target("http://h/", None)).endswith("send http://h/ --binding rest")
