"""Fuzz: agent cards as fetched (v1.0, v0.3, a mixed card with both shapes, a legacy 0.2 card), their signatures
and the key sets their `jku` names.

The card fetch (`fetch_card`, the entry every command and the TUI use) is answered through httpx.MockTransport with
fuzzed bytes; the card read is then linted, shown (`card get`'s text and JSON), checked for its signature (a real
ES256 signature over the capture, its protected header and the JWKS at its jku fuzzed too) and given a transport.
Only a SwitchboardError escapes; the signature check never raises; nothing shown holds a terminal control.
"""

from __future__ import annotations

import base64
import copy
import io
import json
from typing import Any

import httpx
from fuzz_inputs import (
    ChunkedBody,
    answers,
    bounded,
    capture_json,
    damaged,
    documented,
    endless,
    has_terminal_controls,
    raw_json,
    shown_clean,
)
from fuzz_support import fuzz
from hypothesis import example, given
from hypothesis import strategies as st

from switchboard.a2a.auth.trust.card_signature import JWKS_LIMIT, canonical_payloads, verify_card
from switchboard.a2a.cards import CARD_LIMIT, fetch_card, lint_card
from switchboard.a2a.client import transport_for
from switchboard.a2a.errors import SwitchboardError
from switchboard.a2a.http import NO_RETRY
from switchboard.cli.output import Out, json_text
from switchboard.cli.render import render_card

BASE = "http://agent.test"
CARD_URL = BASE + "/.well-known/agent-card.json"
JWKS_URL = BASE + "/jwks.json"

V10 = capture_json("v10-jsonrpc/v10-01-agent-card.json")
V03 = capture_json("v03-jsonrpc-sdk03-native/v03-01-agent-card.json")
MIXED = {**V03, "supportedInterfaces": V10["supportedInterfaces"], "protocolVersion": "0.3.0"}
LEGACY_02 = {
    "name": "legacy",
    "description": "a 0.2.5 card",
    "url": BASE + "/",
    "version": "1.0.0",
    "protocolVersion": "0.2.5",
    "capabilities": {"streaming": True, "pushNotifications": False, "stateTransitionHistory": True},
    "defaultInputModes": ["text"],
    "defaultOutputModes": ["text"],
    "skills": [{"id": "s", "name": "S", "description": "d", "tags": ["t"], "examples": ["hi"]}],
    "authentication": {"schemes": ["bearer"]},
}


def _signed(card: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """`card` with a real ES256 signature whose jku is JWKS_URL, and that JWKS."""
    from cryptography.hazmat.primitives.asymmetric import ec
    from jwt import PyJWK, api_jws
    from jwt.algorithms import ECAlgorithm

    key = ec.generate_private_key(ec.SECP256R1())
    token = api_jws.encode(canonical_payloads(card)[0], key, algorithm="ES256", headers={"kid": "k1", "jku": JWKS_URL})
    protected, _, signature = token.split(".")
    jwk = json.loads(ECAlgorithm.to_jwk(key.public_key()))
    PyJWK(jwk)  # a key the verifier can read
    return {**card, "signatures": [{"protected": protected, "signature": signature}]}, {"keys": [{**jwk, "kid": "k1"}]}


SIGNED, JWKS = _signed(V10)
CARDS = [V10, V03, MIXED, LEGACY_02, SIGNED]
# Found by this suite: a protected header of JSON nested past the parser's limit raised RecursionError.
NESTED_HEADER = {
    **SIGNED,
    "signatures": [{"protected": base64.urlsafe_b64encode(b"[" * 100_000).decode(), "signature": "AA"}],
}


@st.composite
def protected_headers(draw: st.DrawFn) -> dict[str, Any]:
    """A signed card whose protected header is fuzzed JSON (base64url as a signer writes it, or not)."""
    header = {"alg": "ES256", "kid": "k1", "jku": JWKS_URL, "typ": "JOSE"}
    raw = draw(raw_json(header, max_tokens=2) | damaged(json.dumps(header).encode()))
    protected = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    card = copy.deepcopy(SIGNED)
    card["signatures"][0]["protected"] = draw(st.sampled_from([protected, protected + "!", "", "e30"]))
    return card


@st.composite
def card_answers(draw: st.DrawFn) -> tuple[bytes, bytes, int, str]:
    """The card's bytes, the JWKS's bytes, the card's status and content type."""
    card = draw(st.sampled_from(CARDS) | protected_headers())
    body = draw(answers(card))
    jwks = draw(answers(JWKS))
    status = draw(st.sampled_from([200, 200, 200, 203, 301, 400, 401, 404, 410, 500, 503]))
    content_type = draw(st.sampled_from(["application/json", "text/html", "", "application/json; charset=utf-16"]))
    return body, jwks, status, content_type


def show(resolved_card: Any, card_url: str, trust: str) -> None:
    buffer = io.StringIO()
    render_card(Out(buffer), resolved_card, card_url, validate=True, trust=trust)
    assert not has_terminal_controls(buffer.getvalue())
    written = json_text({"card": resolved_card.raw, "lint": lint_card(resolved_card, card_url)}, indent=2)
    assert not has_terminal_controls(written.replace("\n", ""))
    written.encode("utf-8")


async def fetch_and_check(body: bytes, jwks: bytes, status: int, content_type: str) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if str(request.url) == JWKS_URL:
            return httpx.Response(200, headers={"content-type": "application/json"}, stream=ChunkedBody([jwks]))
        headers = {"content-type": content_type} if content_type else {}
        return httpx.Response(status, headers=headers, stream=ChunkedBody([body]))

    http = httpx.AsyncClient(transport=httpx.MockTransport(answer))
    error: SwitchboardError | None = None
    notes: list[str] = []
    try:
        resolved = await fetch_card(BASE, http, retry=NO_RETRY)
        notes = list(resolved.notes)
        trust = await verify_card(resolved.card.raw, resolved.card_url, http=http)
        assert trust.status in ("verified", "unverifiable", "unsigned")
        show(resolved.card, resolved.card_url, str(trust))
        try:
            transport = transport_for(resolved, http=http)
            notes += transport.notes
        except SwitchboardError as exc:  # no interface switchboard speaks, or one whose URL cannot be reached
            documented(exc)
    except Exception as exc:
        error = documented(exc)
    finally:
        await http.aclose()
    shown_clean(error, notes)


@fuzz(examples=300)
@given(case=card_answers())
@example(case=(json.dumps(SIGNED).encode(), json.dumps(JWKS).encode(), 200, "application/json"))
@example(case=(json.dumps(NESTED_HEADER).encode(), json.dumps(JWKS).encode(), 200, "application/json"))
def test_any_card_answer_is_a_card_or_a_documented_error_and_its_signature_check_never_raises(case):
    bounded(lambda: fetch_and_check(*case))


def test_the_signed_capture_verifies_so_the_fuzzed_ones_start_from_a_real_signature():
    async def check() -> str:
        http = httpx.AsyncClient(transport=httpx.MockTransport(lambda r: httpx.Response(200, json=JWKS)))
        try:
            return (await verify_card(SIGNED, CARD_URL, http=http)).status
        finally:
            await http.aclose()

    assert bounded(check) == "verified"


@fuzz(examples=100)
@given(body=st.sampled_from(CARDS).flatmap(answers))
def test_any_card_file_is_a_card_or_a_documented_error(tmp_path_factory, body):
    path = tmp_path_factory.mktemp("card") / "card.json"
    path.write_bytes(body)

    async def read() -> None:
        http = httpx.AsyncClient(transport=httpx.MockTransport(lambda r: httpx.Response(404)))
        try:
            resolved = await fetch_card(str(path), http, retry=NO_RETRY)
            show(resolved.card, resolved.card_url, "unsigned")
        except Exception as exc:
            shown_clean(documented(exc))
        finally:
            await http.aclose()

    bounded(read)


def test_a_50_mb_card_is_refused_after_the_cap_not_read_whole():
    body = ChunkedBody(endless(b'{"name": "' + b"A" * (2**20 - 10)))
    declared = ChunkedBody(endless())
    for stream, headers in ((body, {}), (declared, {"content-length": str(50 * 2**20)})):

        async def fetch(stream=stream, headers=headers) -> SwitchboardError:
            http = httpx.AsyncClient(
                transport=httpx.MockTransport(lambda r: httpx.Response(200, headers=headers, stream=stream))
            )
            try:
                await fetch_card(BASE, http, retry=NO_RETRY)
            except SwitchboardError as exc:
                return exc
            finally:
                await http.aclose()
            raise AssertionError("a 50 MB card was read")

        error = bounded(fetch)
        assert error.code == "A2ACLI_ERR_CARD_INVALID" and "larger than 4096 KiB" in error.message
    assert body.read <= CARD_LIMIT + 2**20
    assert declared.read == 0  # refused on its Content-Length


def test_a_key_set_past_its_cap_is_not_read_and_the_signature_is_unverifiable():
    stream = ChunkedBody(endless())

    async def check() -> str:
        http = httpx.AsyncClient(transport=httpx.MockTransport(lambda r: httpx.Response(200, stream=stream)))
        try:
            return str(await verify_card(SIGNED, CARD_URL, http=http))
        finally:
            await http.aclose()

    assert "the key set at http://agent.test/jwks.json is larger than 256 KiB" in bounded(check)
    assert stream.read <= JWKS_LIMIT + 2**20
