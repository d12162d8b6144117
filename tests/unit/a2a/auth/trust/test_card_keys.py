"""Trusted key files (JWKS, JWK, PEM) and the verifier's answers to malformed or hostile signatures, offline: a card
signed here by the official a2a-sdk signer."""

from __future__ import annotations

import base64
import json

import pytest
from a2a.types import a2a_pb2 as pb
from a2a.utils.signing import create_agent_card_signer
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from google.protobuf.json_format import MessageToDict
from jwt.algorithms import ECAlgorithm

from switchboard.a2a.auth.trust.card_keys import load_key_file
from switchboard.a2a.auth.trust.card_signature import MAX_SIGNATURES, verify_card
from switchboard.a2a.errors import UsageError

URL = "https://agent.example/.well-known/agent-card.json"


@pytest.fixture(scope="module")
def key():
    return ec.generate_private_key(ec.SECP256R1())


@pytest.fixture(scope="module")
def signed(key) -> dict:
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    card = pb.AgentCard(name="signed", description="a card", version="1")
    create_agent_card_signer(pem.decode(), {"alg": "ES256", "kid": "k1", "typ": "JOSE"})(card)
    return MessageToDict(card)


def jwk(key, **extra) -> dict:
    return {**json.loads(ECAlgorithm.to_jwk(key)), **extra}


async def test_a_jwks_file_with_the_kid_verifies(signed, key, tmp_path):
    path = tmp_path / "keys.json"
    path.write_text(json.dumps({"keys": [jwk(key.public_key(), kid="k1")]}))
    trust = await verify_card(signed, URL, load_key_file(path), pinned=True)
    assert trust.verified, trust


async def test_a_private_jwk_given_by_mistake_is_used_as_its_public_half(signed, key, tmp_path):
    path = tmp_path / "key.json"
    path.write_text(json.dumps(jwk(key, kid="k1")))
    assert (await verify_card(signed, URL, load_key_file(path))).verified


def test_a_symmetric_key_file_is_refused(tmp_path):
    path = tmp_path / "oct.json"
    path.write_text(json.dumps({"kty": "oct", "k": "c2VjcmV0", "kid": "k1"}))
    with pytest.raises(UsageError, match="no public"):
        load_key_file(path)


def test_a_file_that_is_no_key_is_a_usage_error(tmp_path):
    path = tmp_path / "junk.pem"
    path.write_text("-----BEGIN PUBLIC KEY-----\nnot base64\n-----END PUBLIC KEY-----\n")
    with pytest.raises(UsageError, match="no usable key"):
        load_key_file(path)


async def test_a_kid_nobody_trusts_and_no_jku_says_so(signed, key):
    trust = await verify_card(signed, URL, [])
    assert trust.status == "unverifiable" and "names no jku" in trust.detail


@pytest.mark.parametrize(
    ("signatures", "why"),
    [
        ("not a list", "not a list"),
        ([{"protected": "%%%", "signature": "AA"}], "not base64url JSON"),
        ([{"signature": "AA"}], "lacks its protected header"),
        ([42], "not a JSON object"),
    ],
)
async def test_malformed_signatures_are_unverifiable_not_a_crash(signed, signatures, why):
    trust = await verify_card({**signed, "signatures": signatures}, URL, [])
    assert trust.status == "unverifiable" and why in trust.detail


async def test_critical_headers_and_too_many_signatures(signed):
    crit = base64.urlsafe_b64encode(json.dumps({"alg": "ES256", "kid": "k1", "crit": ["exp"]}).encode()).decode()
    trust = await verify_card({**signed, "signatures": [{"protected": crit, "signature": "AA"}]}, URL, [])
    assert "critical header" in trust.detail
    many = [signed["signatures"][0]] * (MAX_SIGNATURES + 5)
    trust = await verify_card({**signed, "signatures": many}, URL, [])
    assert f"only the first {MAX_SIGNATURES}" in trust.detail


def certificate(key, days_from: int, days_to: int) -> bytes:
    import datetime as dt

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import NameOID

    now = dt.datetime.now(dt.UTC)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "card signer")])
    builder = x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
    builder = builder.serial_number(x509.random_serial_number())
    builder = builder.not_valid_before(now + dt.timedelta(days=days_from))
    builder = builder.not_valid_after(now + dt.timedelta(days=days_to))
    return builder.sign(key, hashes.SHA256()).public_bytes(serialization.Encoding.PEM)


async def test_a_certificate_is_used_only_within_its_validity(signed, key, tmp_path):
    valid, expired = tmp_path / "valid.pem", tmp_path / "expired.pem"
    valid.write_bytes(certificate(key, -1, 30))
    expired.write_bytes(certificate(key, -30, -1))
    assert (await verify_card(signed, URL, load_key_file(valid))).verified
    trust = await verify_card(signed, URL, load_key_file(expired))
    assert trust.status == "unverifiable" and "expired on" in trust.detail
