"""Fuzz: what an identity provider answers (its OpenID Connect discovery document, token responses, device
authorization responses, error bodies, revocation answers), read by the product's own TokenSource.

The flows build their own HTTP clients (authlib's for the token endpoint), so the answers are given where every
one of them ends: httpx's transport, patched to answer each endpoint with fuzzed bytes. A flow ends with a token or
a SwitchboardError (AuthFailedError, exit 4, for nearly all); the device flow's waits are recorded, not slept, and
each is bounded; what the person is shown (the device prompt on stderr, the error) holds no terminal control.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import ssl
from unittest import mock

import httpx
import pytest
from fuzz_inputs import answers, bounded, documented, has_terminal_controls, shown_clean
from fuzz_support import fuzz
from hypothesis import example, given
from hypothesis import strategies as st

from switchboard.a2a.auth.oauth import client as oauth
from switchboard.a2a.auth.oauth import endpoints as oauth_endpoints
from switchboard.a2a.auth.oauth import flows as oauth_flows
from switchboard.a2a.auth.oauth import trace as oauth_trace
from switchboard.a2a.auth.oauth.client import Choice, OAuthClient, TokenSource
from switchboard.a2a.errors import SwitchboardError
from switchboard.a2a.model import SecurityScheme
from switchboard.a2a.redact import Redactor
from switchboard.cli.context import StderrInteraction

ISSUER = "https://issuer.test"
DISCOVERY = {
    "issuer": ISSUER,
    "token_endpoint": ISSUER + "/token",
    "authorization_endpoint": ISSUER + "/authorize",
    "device_authorization_endpoint": ISSUER + "/device",
    "revocation_endpoint": ISSUER + "/revoke",
    "grant_types_supported": ["client_credentials", "urn:ietf:params:oauth:grant-type:device_code"],
}
TOKEN = {"access_token": "at-123456", "token_type": "Bearer", "expires_in": 3600, "refresh_token": "rt-1234567"}
REFUSAL = {"error": "invalid_client", "error_description": "no such client"}
DEVICE = {
    "device_code": "dc-1234567",
    "user_code": "ABCD-EFGH",
    "verification_uri": ISSUER + "/activate",
    "verification_uri_complete": ISSUER + "/activate?code=ABCD-EFGH",
    "interval": 1,
    "expires_in": 60,
}
FLOWS = {
    "clientCredentials": {"tokenUrl": ISSUER + "/token"},
    "deviceCode": {"tokenUrl": ISSUER + "/token", "deviceAuthorizationUrl": ISSUER + "/device"},
}
STATUSES = st.sampled_from([200, 200, 200, 400, 401, 403, 404, 500, 503])
_TLS = ssl.create_default_context()
TOKEN_POLLS = 3  # fuzzed answers to the device flow's polls before the issuer says access_denied


@st.composite
def issuers(draw: st.DrawFn) -> dict[str, tuple[int, bytes]]:
    """Each endpoint's status and body."""
    return {
        "/.well-known/openid-configuration": (draw(STATUSES), draw(answers(DISCOVERY))),
        "/token": (draw(STATUSES), draw(answers(draw(st.sampled_from([TOKEN, REFUSAL]))))),
        "/device": (draw(STATUSES), draw(answers(DEVICE))),
        "/revoke": (draw(st.sampled_from([200, 400, 503])), draw(answers(REFUSAL))),
    }


def patched_transport(replies: dict[str, tuple[int, bytes]]):
    polls = {"/token": 0}

    async def handle(self, request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path == "/token" and b"device_code" in request.content:
            polls["/token"] += 1
            if polls["/token"] > TOKEN_POLLS:
                return httpx.Response(400, json={"error": "access_denied"}, request=request)
        status, body = replies.get(path, (404, b""))
        return httpx.Response(status, headers={"content-type": "application/json"}, content=body, request=request)

    return _patches(handle)


@contextlib.contextmanager
def _patches(handle):
    # Every flow makes its own client, and each loads the CA bundle (a third of a second on a slow machine) for
    # TLS that the patched transport never does: one context serves them all.
    with (
        mock.patch.object(httpx.AsyncHTTPTransport, "handle_async_request", handle),
        mock.patch("httpx._transports.default.create_ssl_context", lambda *args, **kwargs: _TLS),
    ):
        yield


_sleep = asyncio.sleep


async def no_wait(seconds: float, *args, **kwargs) -> None:
    """asyncio.sleep for the whole process while a test runs: the waits the issuer asks for are checked, not slept."""
    assert 0 <= seconds <= 3600, seconds
    await _sleep(0)


def source(scheme: str, secret: str | None) -> TokenSource:
    if scheme == "openIdConnect":
        card_scheme = SecurityScheme(
            type="openIdConnect", open_id_connect_url=ISSUER + oauth_endpoints.DISCOVERY_SUFFIX
        )
    else:
        card_scheme = SecurityScheme(type="oauth2", flows=FLOWS)
    # No secret: the device flow (the authorization code flow waits minutes for a browser, by design).
    flow = None if secret else "deviceCode"
    client = OAuthClient("cli", client_secret=secret, flow=flow, interaction=StderrInteraction(open_browser=False))
    return TokenSource(Choice("s", card_scheme, ["read"]), client, "https://agent.test/", Redactor())


async def sign_in_and_out(scheme: str, secret: str | None) -> None:
    tokens = source(scheme, secret)
    try:
        access = await tokens.token()
        assert isinstance(access, str) and access
        facts = await tokens.facts()
        json.dumps(facts)
        outcome = await tokens.revoke()
        assert set(outcome) == {"revoked", "note"}
        if outcome["note"]:
            assert not has_terminal_controls(outcome["note"])
    except Exception as exc:
        shown_clean(documented(exc))


@pytest.fixture(autouse=True)
def fresh_memory(monkeypatch):
    """No token or discovery document carried from one example to the next."""
    monkeypatch.setattr(oauth, "_MEMORY", {})
    monkeypatch.setattr(oauth_endpoints, "_DISCOVERED", {})
    monkeypatch.setattr(oauth_flows.asyncio, "sleep", no_wait)


@fuzz(examples=200)
@given(
    replies=issuers(),
    scheme=st.sampled_from(["openIdConnect", "oauth2"]),
    secret=st.sampled_from([None, "client-secret-1"]),
)
@example(
    replies={"/.well-known/openid-configuration": (200, b'{"issuer": "https://issuer.test", "token_endpoint": 7}')},
    scheme="openIdConnect",
    secret="client-secret-1",
)
@example(
    replies={
        "/device": (
            200,
            b'{"device_code": "d", "user_code": "u", "verification_uri": "https://issuer.test/v", "interval": "soon"}',
        )
    },
    scheme="oauth2",
    secret=None,
)
@example(
    replies={
        "/device": (
            200,
            b'{"device_code": "d", "user_code": "u", "verification_uri": "https://issuer.test/v", "interval": 1e999}',
        )
    },
    scheme="oauth2",
    secret=None,
)
@example(
    replies={"/token": (400, b'{"error": ["invalid_client"], "error_description": {"a": 1}}')},
    scheme="oauth2",
    secret="client-secret-1",
)
@example(  # found by the long run: an access token holding a lone surrogate (UnicodeEncodeError in the redactor)
    replies={"/token": (200, b'{"access_token": "at-1\\ud800", "token_type": "Bearer"}')},
    scheme="oauth2",
    secret="client-secret-1",
)
def test_any_answer_of_an_identity_provider_is_a_token_or_a_documented_error(replies, scheme, secret):
    _clear_between_examples()
    err = io.StringIO()
    with patched_transport(replies), contextlib.redirect_stderr(err):
        bounded(lambda: sign_in_and_out(scheme, secret))
    assert not has_terminal_controls(err.getvalue().replace("\n", "")), err.getvalue()[:500]


def _clear_between_examples() -> None:
    # The fixture runs once per test, not per Hypothesis example.
    oauth._MEMORY.clear()
    oauth_endpoints._DISCOVERED.clear()


@pytest.mark.parametrize(
    "path, scheme, secret",
    [
        ("/.well-known/openid-configuration", "openIdConnect", "client-secret-1"),
        ("/token", "oauth2", "client-secret-1"),
        ("/device", "oauth2", None),
        ("/revoke", "openIdConnect", "client-secret-1"),
    ],
)
def test_an_answer_past_the_bound_is_refused_not_held(path, scheme, secret):
    # A well-formed answer padded past MAX_ANSWER: the reader refuses it as unreadable, whoever reads after.
    good = {
        "/.well-known/openid-configuration": json.dumps(DISCOVERY).encode(),
        "/token": json.dumps(TOKEN).encode(),
        "/device": json.dumps(DEVICE).encode(),
        "/revoke": b"{}",
    }
    replies = {p: (200, body + (b" " * oauth_trace.MAX_ANSWER if p == path else b"")) for p, body in good.items()}
    _clear_between_examples()

    async def sign_in_then_out() -> dict:
        tokens = source(scheme, secret)
        await tokens.token()
        return await tokens.revoke()

    with patched_transport(replies):
        if path == "/revoke":
            outcome = bounded(sign_in_then_out)
            assert outcome["revoked"] == [] and "invalid_response" in outcome["note"], outcome
        else:
            with pytest.raises(SwitchboardError) as refused:
                bounded(sign_in_then_out)
            shown_clean(documented(refused.value))
