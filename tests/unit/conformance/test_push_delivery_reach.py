"""The push-delivery probe listens on 127.0.0.1: an agent on another machine cannot reach it, so there the probe
says so and judges nothing (a false "nothing reached the webhook" fail otherwise)."""

from __future__ import annotations

from types import SimpleNamespace

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
