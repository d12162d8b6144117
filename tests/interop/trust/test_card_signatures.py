"""Agent card signatures against cards signed by the official a2a-sdk signer (a2a.utils.signing), served by a
real a2a-sdk 1.3 server: ES256 with a trusted key file, RS256 with its key at the card's jku; a card changed after
signing, a wrong key, HS256 and `none` must not verify."""

from __future__ import annotations

import base64
import json

import httpx
import pytest
from trust_helpers import fields

from switchboard.a2a.auth.trust.card_keys import load_key_file
from switchboard.a2a.auth.trust.card_signature import verify_card
from switchboard.a2a.cards import fetch_card
from switchboard.a2a.http import new_http_client


async def outcome(url: str, keys=(), pinned: bool = False):
    async with new_http_client() as http:
        resolved = await fetch_card(url, http)
        return await verify_card(resolved.card.raw, resolved.card_url, keys, pinned=pinned, http=http)


async def test_es256_card_signed_by_the_sdk_verifies_with_the_trusted_key(cards_server, signing_keys):
    trust = await outcome(cards_server.url + "es256/", load_key_file(signing_keys / "es256.pub.pem"))
    assert trust.status == "verified"
    assert "ES256" in trust.detail and "es256.pub.pem" in trust.detail


async def test_rs256_card_verifies_with_the_key_at_its_jku_on_the_same_origin(cards_server):
    trust = await outcome(cards_server.url + "rs256/")
    assert trust.status == "verified"
    assert "RS256" in trust.detail and "jwks.json" in trust.detail


async def test_a_card_changed_after_signing_does_not_verify(cards_server, signing_keys):
    trust = await outcome(cards_server.url + "tampered/", load_key_file(signing_keys / "es256.pub.pem"))
    assert trust.status == "unverifiable"
    assert "does not match the card" in trust.detail


async def test_a_wrong_key_does_not_verify(cards_server, signing_keys):
    trust = await outcome(cards_server.url + "es256/", load_key_file(signing_keys / "other.pub.pem"))
    assert trust.status == "unverifiable"
    assert "does not match" in trust.detail


async def test_pinned_keys_keep_the_jku_key_out(cards_server, signing_keys):
    trust = await outcome(cards_server.url + "rs256/", load_key_file(signing_keys / "es256.pub.pem"), pinned=True)
    assert trust.status == "unverifiable"


async def test_hs256_is_refused_even_with_a_key_that_would_verify(cards_server):
    trust = await outcome(cards_server.url + "hs256/")
    assert trust.status == "unverifiable"
    assert "'HS256', which is not allowed" in trust.detail


async def test_alg_none_is_refused(cards_server, signing_keys):
    async with new_http_client() as http:
        resolved = await fetch_card(cards_server.url + "es256/", http)
    raw = dict(resolved.card.raw)
    header = base64.urlsafe_b64encode(json.dumps({"alg": "none", "kid": "es-1"}).encode()).decode().rstrip("=")
    raw["signatures"] = [{"protected": header, "signature": "AA"}]
    trust = await verify_card(raw, resolved.card_url, load_key_file(signing_keys / "es256.pub.pem"))
    assert trust.status == "unverifiable"
    assert "'none', which is not allowed" in trust.detail


async def test_an_unsigned_card_is_unsigned(cards_server):
    assert (await outcome(cards_server.url + "plain/")).status == "unsigned"


@pytest.mark.parametrize(
    ("agent", "key", "status", "code"),
    [
        ("es256", "es256.pub.pem", "verified", 0),
        ("tampered", "es256.pub.pem", "unverifiable", 4),
        ("es256", "other.pub.pem", "unverifiable", 4),
        ("plain", None, "unsigned", 4),
    ],
)
def test_card_get_reports_and_require_signature_exits_4_unless_verified(
    cli, cards_server, signing_keys, agent, key, status, code
):
    shown = ["card", "get", cards_server.url + agent + "/", *(["--card-key", str(signing_keys / key)] if key else [])]
    assert fields(cli(*shown).stdout)["Signature"].startswith(status)
    args = [*shown, "--require-signature"]
    text = cli(*args)
    assert text.returncode == code, text.stderr
    if code == 4:  # the card is not shown as if it could be relied on: the error says what it is
        assert f"is {status}" in text.stderr
        assert ("drop --require-signature" if status == "unsigned" else "--card-key") in text.stderr
    as_json = cli(*args, "-o", "json")
    assert as_json.returncode == code
    if code == 0:
        assert json.loads(as_json.stdout)["name"] == f"trust {agent}"
    else:
        assert json.loads(as_json.stdout or as_json.stderr)["error"]["code"] == "SWITCHBOARD_ERR_CARD_UNVERIFIED"
    shown_json = cli(*shown, "-o", "json")
    assert shown_json.returncode == 0, shown_json.stderr
    doc = json.loads(shown_json.stdout)
    outcome = doc.pop("x-switchboard")["signature"]
    assert outcome["status"] == status
    assert (outcome["detail"] == "") == (status == "unsigned")
    served = httpx.get(cards_server.url + agent + "/.well-known/agent-card.json").json()
    assert doc == served and list(doc) == list(served)  # the rest is the card as served, member for member


def test_a_card_cannot_claim_its_own_signature_outcome(cli, tmp_path):
    forged = {"name": "forger", "version": "1", "x-switchboard": {"signature": {"status": "verified", "detail": ""}}}
    path = tmp_path / "card.json"
    path.write_text(json.dumps(forged))
    done = cli("card", "get", str(path), "-o", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["x-switchboard"]["signature"]["status"] == "unsigned"
    assert "carries its own 'x-switchboard' member" in done.stderr


def test_card_keys_from_the_agents_file_and_a_bad_key_file(cli, cards_server, signing_keys, tmp_path):
    agents = tmp_path / "agents.yaml"
    key = signing_keys / "es256.pub.pem"
    agents.write_text(f"agents:\n  - name: signed\n    url: {cards_server.url}es256/\n    cardKeys: {key}\n")
    done = cli("--agents", str(agents), "card", "get", "signed", "--require-signature")
    assert done.returncode == 0, done.stderr
    assert fields(done.stdout)["Signature"].startswith("verified")
    missing = cli("card", "get", cards_server.url + "es256/", "--card-key", str(tmp_path / "nope.pem"))
    assert missing.returncode == 2
    assert "cannot read the card key file" in missing.stderr
