"""Which agents are given the loopback receiver's URL: only one whose card came from this machine (an agent
elsewhere would POST to its own loopback), and --push-url's check where it is typed."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from switchboard.a2a.errors import UsageError
from switchboard.push.receiver import check_push_url
from switchboard.watch import on_this_machine


@pytest.mark.parametrize(
    ("card_url", "here"),
    [
        ("http://127.0.0.1:9101/.well-known/agent-card.json", True),
        ("http://localhost:9101/", True),
        ("http://[::1]:9101/", True),
        ("http://127.8.9.10:9101/", True),
        ("https://agents.example.com/.well-known/agent-card.json", False),
        ("http://10.0.0.7:9101/", False),
        (None, False),
    ],
)
def test_only_an_agent_on_this_machine_can_reach_the_loopback_receiver(card_url, here):
    assert on_this_machine(SimpleNamespace(card_url=card_url)) is here


def test_a_push_url_is_kept_as_given_when_it_is_one():
    assert check_push_url(" https://abc.tunnel.example/a2a/push ") == "https://abc.tunnel.example/a2a/push"
    with pytest.raises(UsageError, match="holds spaces"):
        check_push_url("https://abc.tunnel.example/a b")
