"""The canonical card bytes match the official a2a-sdk signer's, byte for byte, and jku is fetched only from
places the card's own transport vouches for."""

from __future__ import annotations

import pytest
from a2a.types import a2a_pb2 as pb
from a2a.utils.signing import _canonicalize_agent_card
from google.protobuf.json_format import MessageToDict

from switchboard.a2a.auth.trust.card_signature import canonical_payloads, jku_refusal


def rich_card() -> pb.AgentCard:
    card = pb.AgentCard(
        name="Café Ümlaut 🚀",
        description="",
        version="2.0",
        supported_interfaces=[
            pb.AgentInterface(url="https://a.example/", protocol_binding="JSONRPC", protocol_version="1.0")
        ],
        capabilities=pb.AgentCapabilities(
            streaming=False, extensions=[pb.AgentExtension(uri="urn:x", params={"n": 1.5, "empty": "", "list": []})]
        ),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        skills=[pb.AgentSkill(id="s", name="S", description='d\u2028"quoted"', tags=["t"], examples=[])],
    )
    card.security_schemes["basic"].CopyFrom(
        pb.SecurityScheme(http_auth_security_scheme=pb.HTTPAuthSecurityScheme(scheme="Basic"))
    )
    card.signatures.append(pb.AgentCardSignature(protected="eyJ", signature="AA"))
    return card


def test_canonical_payload_is_the_sdk_signers_byte_for_byte():
    card = rich_card()
    served = MessageToDict(card)  # what an a2a-sdk server serves
    assert canonical_payloads(served)[0] == _canonicalize_agent_card(card).encode("utf-8")


def test_the_as_served_form_keeps_required_empty_fields():
    forms = canonical_payloads({"name": "A", "description": "", "skills": [], "signatures": [{"x": 1}]})
    assert forms == [b'{"name":"A"}', b'{"description":"","name":"A","skills":[]}']


@pytest.mark.parametrize(
    ("jku", "card_url", "allowed"),
    [
        ("https://keys.example/jwks.json", "http://127.0.0.1:9/.well-known/agent-card.json", True),
        ("http://127.0.0.1:9/jwks.json", "http://127.0.0.1:9/.well-known/agent-card.json", True),
        ("http://127.0.0.1:10/jwks.json", "http://127.0.0.1:9/.well-known/agent-card.json", False),
        ("http://keys.example/jwks.json", "file:///tmp/card.json", False),
        ("file:///etc/passwd", "http://127.0.0.1:9/", False),
    ],
)
def test_jku_only_over_https_or_from_the_cards_own_origin(jku, card_url, allowed):
    assert (jku_refusal(jku, card_url) is None) is allowed
