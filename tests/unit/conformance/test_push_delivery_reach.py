"""The push-delivery probe listens on 127.0.0.1: an agent on another machine cannot reach it, so there the probe
says so and judges nothing (a false "nothing reached the webhook" fail otherwise)."""

from __future__ import annotations

from types import SimpleNamespace

import h11
import pytest

from switchboard.a2a.cards import Endpoint
from switchboard.conformance import push_delivery


class Recorder:
    def __init__(self, url: str) -> None:
        self.t = SimpleNamespace(endpoint=Endpoint(url=url, version="1.0"))
        self.added: list[tuple[str, str, str]] = []
        self.push_delivery = None

    def add(self, scenario: str, outcome: str, said: str, **_: object) -> None:
        self.added.append((scenario, outcome, said))


@pytest.mark.parametrize("url", ["https://agents.example.com/a2a", "grpc.example.com:443", "http://10.0.0.7:9999/"])
async def test_an_agent_elsewhere_is_not_judged_on_push_delivery(url):
    probe = Recorder(url)
    await push_delivery.register(probe, "t-1")  # type: ignore[arg-type]
    [(scenario, outcome, said)] = probe.added
    assert (scenario, outcome) == ("push delivery", "skip")
    assert "not on this machine" in said and probe.push_delivery is None


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/", "localhost:50051", "http://[::1]:8000/"])
def test_loopback_interfaces_are_judged(url):
    assert push_delivery.is_loopback(push_delivery._host(url))


def head(*headers: tuple[bytes, bytes]) -> h11.Request:
    return h11.Request(method="POST", target=push_delivery.PushReceiver().path, headers=[(b"host", b"x"), *headers])


def test_the_webhook_lets_through_only_the_authorization_its_config_named():
    """At 1.0 the agent MUST send the config's authentication as the push's Authorization (§4.3.3, PUSH-DELIVER-001):
    a POST without it, with another scheme or other credentials is refused on its headers (401) and noted."""
    webhook = push_delivery.Webhook("s3cret-credentials")
    token = webhook.register("t-1")
    signed = (b"x-a2a-notification-token", token.encode())
    assert webhook.decide(head(signed, (b"authorization", b"Bearer s3cret-credentials"))) is None
    assert webhook.decide(head(signed, (b"authorization", b"bearer s3cret-credentials"))) is None  # RFC 9110
    for wrong in ([], [(b"authorization", b"Bearer other")], [(b"authorization", b"Basic s3cret-credentials")]):
        assert webhook.decide(head(signed, *wrong)) == 401
    assert webhook.decide(head((b"authorization", b"Bearer s3cret-credentials"))) == 401  # no token
    assert [(h.token, h.authorized) for h in webhook.heads] == [
        (True, True), (True, True), (True, False), (True, False), (True, False), (False, True)
    ]  # fmt: skip
    assert all("s3cret" not in r.reason for r in webhook.refused)
    # at 0.3 the probe asks for no authentication: the token alone lets a push through
    legacy = push_delivery.Webhook()
    assert legacy.decide(head((b"x-a2a-notification-token", legacy.register("t-1").encode()))) is None
