"""The TUI and an agent's URL a person types, in the add dialog or in the agents file.

A mistake is said where it is made (the dialog's status line, a notification, or a usage error before the
app opens) and the app keeps running: no traceback, no open tab lost, nothing written or sent.
"""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import httpx
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from scenes import build_app, settle
from textual.widgets import Input, Static
from tui_support import click

from switchboard.a2a.errors import UsageError
from switchboard.tui.run import prepare
from switchboard.tui.screens.add_agent import AddAgentScreen

SIZE = (120, 40)
ISSUE_URLS = ["127.0.0.1:47341", "127.0.0.1:47341x", "http://127.0.0.1:99999/", "http://[::1/", "htp://x/"]


def offline_http(sent: list[str]) -> httpx.AsyncClient:
    """The app's HTTP client for made-up URLs: nothing leaves the machine; every request is a 404."""

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(str(request.url))
        return httpx.Response(404)

    return httpx.AsyncClient(transport=httpx.MockTransport(answer))


def status_text(app) -> str:
    return str(app.screen.query_one("#add-status", Static).render())


async def type_url(home, url: str) -> tuple[bool, str, list[str], str]:
    """Open the add dialog, type `url`, press Add: (app still running, dialog status, requests, agents file)."""
    sent: list[str] = []
    app = build_app(home)
    app.http = offline_http(sent)
    before = (home / "agents.yaml").read_text()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, 0.1)
        await pilot.press("a")
        await settle(pilot, 0.1)
        assert isinstance(app.screen, AddAgentScreen)
        app.screen.query_one("#url", Input).value = url
        await click(pilot, "#add")
        await settle(pilot, 0.2)
        running = app.is_running and isinstance(app.screen, AddAgentScreen)
        shown = status_text(app)
    assert (home / "agents.yaml").read_text() == before  # nothing was added
    return running, shown, sent, before


@pytest.mark.parametrize("url", ISSUE_URLS)
async def test_a_malformed_url_in_the_add_dialog_is_said_there_and_nothing_is_sent(tmp_path, url):
    running, shown, sent, _ = await type_url(tmp_path, url)
    assert running
    if url == "127.0.0.1:47341":  # well formed: the card is looked for (and not found here)
        assert sent and "no agent card" in shown
        return
    assert sent == []
    assert any(word in shown for word in ("port", "IPv6", "scheme")), shown


# Each example starts a whole app (about a second of CPU): the checker the dialog calls has its own property test
# with hundreds (tests/unit/a2a/test_user_input.py); here a few random texts show the dialog wires it up safely.
@settings(max_examples=10)
@given(url=st.text(min_size=1, max_size=25) | st.from_regex(r"\A(https?://)?[\w.\[\]:%-]{1,15}(:\w{0,6})?/?\Z"))
@example(url="127.0.0.1:47341ghost")
@example(url="http://a\x00b/")
def test_any_url_typed_in_the_add_dialog_leaves_the_app_running(tmp_path_factory, url):
    home = tmp_path_factory.mktemp("home")
    running, shown, _, _ = asyncio.run(type_url(home, url))
    assert running and shown.strip()


def test_an_agents_file_with_a_malformed_url_stops_before_the_app_with_a_usage_error(tmp_path, monkeypatch):
    started = []
    monkeypatch.setattr("switchboard.demo.fleet.start_in_background", lambda *a, **k: started.append(1))
    agents = tmp_path / "agents.yaml"
    for text, said in {
        "agents:\n  - name: local\n    url: http://127.0.0.1:47341x/\n": 'the port "47341x"',
        "agent:\n  - name: local\n    url: http://127.0.0.1:9/\n": "unknown key 'agent'",  # was read as empty
    }.items():
        agents.write_text(text)
        with pytest.raises(UsageError) as caught:
            prepare(SimpleNamespace(app_agents=str(agents), demo=False))
        assert said in caught.value.message and caught.value.exit_code == 2
    assert started == []  # the demo fleet did not quietly take the file's place


def test_the_command_reports_it_and_exits_2(tmp_path, monkeypatch, capsys):
    from switchboard.cli.app import run_app

    agents = tmp_path / "agents.yaml"
    agents.write_text("agents:\n  - name: local\n    url: http://127.0.0.1:47341x/\n")
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    monkeypatch.setattr("sys.stdout.isatty", lambda: True)
    assert run_app(SimpleNamespace(app_agents=str(agents), demo=False)) == 2
    err = capsys.readouterr().err
    assert 'the port "47341x", which is not a number from 1 to 65535' in err and "A2ACLI_ERR_USAGE" in err
