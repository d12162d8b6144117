"""Credentials go only to the origin the card came from, unless the person says otherwise.

The peer is the demo gatekeeper on the official a2a-sdk server, served on two ports of 127.0.0.1 at once: its
card, fetched from port A, points its JSON-RPC interface at port B (another origin). Both ports record the
headers of every request they receive, so the test sees where the key really went.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from switchboard.a2a.auth.credentials import Credentials
from switchboard.a2a.client import new_message
from switchboard.a2a.errors import AuthFailedError
from switchboard.a2a.follow import FollowPolicy, Notice
from switchboard.a2a.model import TaskState
from switchboard.a2a.turn import TaskView
from switchboard.agents import load_agents
from switchboard.demo import gatekeeper
from switchboard.demo.base import DemoSettings
from switchboard.link import open_link

REPO = Path(__file__).resolve().parents[2]
KEY = "origin-test-key+Zq3/x7PwT9mL0vA8=kR"
KEY_ENV = "SWITCHBOARD_ORIGIN_TEST_KEY"
FAST = FollowPolicy(poll_interval=0.1, backoff=0.05, max_backoff=0.2)


@dataclass
class Seen:
    port: int
    method: str
    path: str
    headers: dict[str, str]


@dataclass
class TwoOrigins:
    """One gatekeeper app on two sockets; its card (served on both) names port B as the interface."""

    card_url: str  # port A: where the person points the tool
    interface_url: str  # port B: where the card sends the requests
    seen: list[Seen] = field(default_factory=list)

    def port_of(self, url: str) -> int:
        return httpx.URL(url).port

    def key_sent_to(self, url: str) -> list[Seen]:
        port = self.port_of(url)
        return [s for s in self.seen if s.port == port and KEY in " ".join(s.headers.values())]

    def posts_to(self, url: str) -> list[Seen]:
        return [s for s in self.seen if s.port == self.port_of(url) and s.method == "POST"]


class Recording:
    """ASGI wrapper: note each HTTP request's local port, method, path and headers, then pass it on."""

    def __init__(self, app: Any, seen: list[Seen]) -> None:
        self.app, self.seen = app, seen

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
            self.seen.append(Seen(scope["server"][1], scope["method"], scope["path"], headers))
        await self.app(scope, receive, send)


def _socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(64)
    return sock


@pytest.fixture(scope="module")
def origins() -> Iterator[TwoOrigins]:
    card_sock, interface_sock = _socket(), _socket()
    card_url = f"http://127.0.0.1:{card_sock.getsockname()[1]}/"
    interface_url = f"http://127.0.0.1:{interface_sock.getsockname()[1]}/"
    served = gatekeeper.build(interface_url, DemoSettings(api_key=KEY))
    two = TwoOrigins(card_url, interface_url)
    config = uvicorn.Config(Recording(served.app, two.seen), log_config=None, access_log=False, lifespan="off")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [card_sock, interface_sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "the gatekeeper did not start"
        time.sleep(0.02)
    yield two
    server.should_exit = True
    thread.join(10)
    card_sock.close()
    interface_sock.close()


@pytest.fixture
def fresh(origins: TwoOrigins) -> TwoOrigins:
    origins.seen.clear()
    return origins


def run_cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SWITCHBOARD_HOME": str(home), "PYTHONPATH": str(REPO / "src"), KEY_ENV: KEY}
    for name in ("A2ACLI_API_KEY", "A2ACLI_BEARER", "A2ACLI_AGENT_CARD"):
        env.pop(name, None)
    return subprocess.run(
        [sys.executable, "-m", "switchboard", *args],
        capture_output=True,
        text=True,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=90,
        cwd=home,
    )


def agents_file(path: Path, url: str, trust: bool | None) -> Path:
    entry: dict[str, Any] = {"name": "vault", "url": url, "apiKeyEnv": KEY_ENV}
    if trust is not None:
        entry["trustInterfaceOrigin"] = trust
    path.write_text(json.dumps({"agents": [entry]}), encoding="utf-8")  # JSON is YAML
    return path


def test_the_card_really_points_at_another_origin(fresh: TwoOrigins):
    card = httpx.get(fresh.card_url + ".well-known/agent-card.json").json()
    assert {i["url"] for i in card["supportedInterfaces"]} == {fresh.interface_url}
    assert fresh.port_of(fresh.card_url) != fresh.port_of(fresh.interface_url)


def test_the_command_line_withholds_the_key_from_another_origin_and_says_how_to_allow_it(
    fresh: TwoOrigins, tmp_path: Path
):
    result = run_cli(tmp_path, "send", fresh.card_url, "open the vault", "--api-key-env", KEY_ENV, "-o", "json")
    assert result.returncode == 4, result.stderr
    assert "credentials and configured headers withheld" in result.stderr
    assert "--trust-interface-origin" in result.stderr and "trustInterfaceOrigin" in result.stderr
    envelope = json.loads(result.stdout)["error"]
    assert envelope["code"] == "A2ACLI_ERR_AUTH_FAILED"
    assert "another origin" in envelope["hint"] and "--trust-interface-origin" in envelope["hint"]
    assert fresh.posts_to(fresh.interface_url), "the request went to the card's interface"
    assert fresh.key_sent_to(fresh.interface_url) == [] and fresh.key_sent_to(fresh.card_url) == []
    assert KEY not in result.stdout + result.stderr


def test_the_command_line_sends_the_key_there_with_trust_interface_origin(fresh: TwoOrigins, tmp_path: Path):
    result = run_cli(
        tmp_path, "send", fresh.card_url, "open the vault", "--api-key-env", KEY_ENV, "--trust-interface-origin"
    )
    assert result.returncode == 0, result.stderr
    assert "State: auth-required" in result.stdout
    assert "withheld" not in result.stderr
    sent = fresh.key_sent_to(fresh.interface_url)
    assert sent and all(s.headers["x-api-key"] == KEY for s in sent)
    assert "--trust-interface-origin" in result.stdout  # the printed Resume line keeps the say-so
    assert KEY not in result.stdout + result.stderr


@pytest.mark.parametrize("trust", [None, False, True])
def test_the_agents_file_says_whether_the_interface_origin_is_trusted(
    fresh: TwoOrigins, tmp_path: Path, trust: bool | None
):
    path = agents_file(tmp_path / "agents.yaml", fresh.card_url, trust)
    result = run_cli(tmp_path, "--agents", str(path), "send", "vault", "open the vault")
    if trust:
        assert result.returncode == 0, result.stderr
        assert fresh.key_sent_to(fresh.interface_url)
    else:
        assert result.returncode == 4 and "trustInterfaceOrigin: true" in result.stderr
        assert fresh.posts_to(fresh.interface_url) and not fresh.key_sent_to(fresh.interface_url)
    assert KEY not in result.stdout + result.stderr


def test_a_non_boolean_trust_value_is_false_with_a_warning(tmp_path: Path):
    path = tmp_path / "agents.yaml"
    path.write_text("agents:\n  - {name: a, url: 'http://127.0.0.1:1/', trustInterfaceOrigin: 'yes please'}\n")
    registry = load_agents(path)
    assert registry.agents[0].trust_interface_origin is False
    assert any("trustInterfaceOrigin must be true or false" in w for w in registry.warnings)


async def _turn_through_link(origins: TwoOrigins, trust: bool) -> tuple[TaskView | None, BaseException | None]:
    """The path the TUI and workflows take: an agents-file entry, open_link, follow a turn."""
    raw = {"name": "vault", "url": origins.card_url, "apiKeyEnv": KEY_ENV, "trustInterfaceOrigin": trust}
    path = agents_file(Path(os.environ["SWITCHBOARD_HOME"]) / "agents.yaml", origins.card_url, trust)
    entry = load_agents(path, env={KEY_ENV: KEY}).find(raw["name"])
    async with httpx.AsyncClient() as http:
        link = await open_link(entry, http=http, credentials=Credentials(api_key=KEY))
        view = TaskView()
        try:
            async for event in link.follow(new_message("open the vault"), policy=FAST):
                if not isinstance(event, Notice):
                    view.apply(event)
        except AuthFailedError as exc:
            return None, exc
        finally:
            await link.aclose()
        return view, None


@pytest.mark.parametrize("trust", [False, True])
def test_links_for_the_tui_and_workflows_follow_the_agents_file(
    fresh: TwoOrigins, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, trust: bool
):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    view, error = asyncio.run(_turn_through_link(fresh, trust))
    if trust:
        assert error is None and view.state is TaskState.AUTH_REQUIRED
        assert fresh.key_sent_to(fresh.interface_url)
    else:
        assert view is None and "trustInterfaceOrigin: true" in error.hint
        assert fresh.posts_to(fresh.interface_url) and not fresh.key_sent_to(fresh.interface_url)
