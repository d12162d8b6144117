"""The device flow's pace (RFC 8628 section 3.5): the issuer's interval between polls, 5 s more after each
slow_down, and an end when the code expires. A real issuer answers slow_down only to a client that polls too
fast, which ours never does, so the answers are played here and the waits recorded instead of slept."""

from __future__ import annotations

import asyncio
import threading

import pytest

from switchboard.a2a.auth.oauth import client as oauth
from switchboard.a2a.auth.oauth import flows as oauth_flows
from switchboard.a2a.auth.oauth import grants as oauth_grants
from switchboard.a2a.auth.oauth.client import Choice, OAuthClient, TokenSource
from switchboard.a2a.errors import AuthFailedError
from switchboard.a2a.model import SecurityScheme
from switchboard.a2a.redact import Redactor

FLOWS = {"deviceCode": {"tokenUrl": "https://i/token", "deviceAuthorizationUrl": "https://i/device"}}


class Seen:
    def __init__(self) -> None:
        self.prompts: list = []
        self.finished = 0
        self.open_browser = False

    def device_code(self, prompt) -> None:
        self.prompts.append(prompt)

    def authorization_url(self, url: str) -> None:
        raise AssertionError("no browser in the device flow")

    def done(self) -> None:
        self.finished += 1


@pytest.fixture
def waits(monkeypatch):
    monkeypatch.setattr(oauth, "_MEMORY", {})
    slept: list[float] = []
    real_sleep, here = asyncio.sleep, threading.get_ident()

    async def sleep(seconds: float, *args, **kwargs):
        # asyncio.sleep is patched for the whole process: a server another test left running in a thread sleeps too.
        if threading.get_ident() != here:
            return await real_sleep(seconds, *args, **kwargs)
        slept.append(seconds)

    monkeypatch.setattr(oauth_flows.asyncio, "sleep", sleep)
    return slept


def source(interaction) -> TokenSource:
    client = OAuthClient("cli", flow="deviceCode", interaction=interaction)
    return TokenSource(Choice("d", SecurityScheme(type="oauth2", flows=FLOWS), ["s"]), client, "https://a/", Redactor())


def answers(monkeypatch, replies: list, start: dict | None = None) -> None:
    async def device_authorization(*_args, **_kwargs):
        return start or {"device_code": "dev-code-123", "user_code": "ABCD-EFGH", "verification_uri": "https://i/d",
                         "interval": 2, "expires_in": 60}  # fmt: skip

    async def device_token(*_args, **_kwargs):
        reply = replies.pop(0)
        if isinstance(reply, str):
            raise oauth_grants.GrantError(reply, None)
        return reply

    monkeypatch.setattr(oauth_grants, "device_authorization", device_authorization)
    monkeypatch.setattr(oauth_grants, "device_token", device_token)


async def test_pending_then_slow_down_then_the_token(monkeypatch, waits):
    answers(monkeypatch, ["authorization_pending", "slow_down", "authorization_pending", {"access_token": "at-1234"}])
    seen = Seen()
    assert await source(seen).token() == "at-1234"
    assert waits == [2, 2, 7, 7]  # the issuer's interval, then 5 s more after slow_down
    assert seen.prompts[0].user_code == "ABCD-EFGH" and seen.finished == 1


async def test_the_code_expires(monkeypatch, waits):
    answers(
        monkeypatch,
        ["authorization_pending"] * 10,
        {"device_code": "d-123", "user_code": "U", "verification_uri": "https://i/d", "interval": 5, "expires_in": 12},
    )
    with pytest.raises(AuthFailedError, match="expired before the sign-in finished"):
        await source(Seen()).token()
    assert waits == [5, 5, 5]  # the third wait passes the code's 12 s: no fourth poll
