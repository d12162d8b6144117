"""Hints fit the surface they are shown on and the operation that failed: the TUI never tells a person to type a
command-line flag, and "not supported" says what was not (issue 14, items 9 and 17). Against a real web server
that answers HTML where a card should be."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from textual.widgets import Static
from tui_support import until

from switchboard.a2a.cards import fetch_card
from switchboard.a2a.errors import CardInvalidError, InvalidResponseError, ProtocolError, for_operation
from switchboard.a2a.http import new_http_client
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.hints import tui_hint

PAGE = b"<!doctype html><html><body><h1>Welcome to our site</h1></body></html>"


class WebPage(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture(scope="module")
def web_site():
    server = ThreadingHTTPServer(("127.0.0.1", 0), WebPage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


async def test_a_web_page_where_a_card_should_be_says_it_is_text_html(web_site):
    async with new_http_client() as http:
        with pytest.raises(CardInvalidError) as caught:
            await fetch_card(web_site, http)
    assert "answered with a web page (text/html), not JSON" in caught.value.message
    assert "Expecting value" not in caught.value.message


async def test_the_agents_tab_shows_a_hint_for_the_tui_not_a_flag(web_site, tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    path = tmp_path / "agents.yaml"
    path.write_text(f"agents:\n  - name: site\n    url: {web_site}\n")
    app = SwitchboardApp(path, steady=True)
    async with app.run_test(size=(120, 36)) as pilot:
        summary = app.screen.query_one("#agent-summary", Static)
        await until(lambda: "text/html" in str(summary.render()))
        await pilot.pause()
        shown = str(summary.render())
        assert "F2 shows the exchange" in shown
        assert "--" not in shown


def test_a_refusal_hints_at_what_fits_the_operation_that_failed():
    def refused(op: str) -> ProtocolError:
        return for_operation(ProtocolError(-32004, "not supported"), op)

    assert "new task" in refused("send").hint and "new task" in refused("stream").hint
    listing = refused("list").hint
    assert "does not list its tasks" in listing and "new messages" not in listing
    assert "new messages" not in refused("subscribe").hint and "new messages" not in refused("cancel").hint


@pytest.mark.parametrize("op", ["send", "stream", "list", "subscribe", "cancel", "get", "extended_card"])
def test_no_protocol_hint_in_the_tui_names_a_flag_or_a_command(op):
    for code in (-32001, -32002, -32004, -32009, -32601, -32602, -32603):
        hint = tui_hint(for_operation(ProtocolError(code, "x"), op)) or ""
        assert "--" not in hint and "switchboard " not in hint, (code, op, hint)


def test_the_tui_says_the_wire_view_where_the_command_line_says_verbose():
    error = InvalidResponseError("bad", hint="Check the URL; run with --verbose to see the exchange.")
    assert tui_hint(error) == "Check the URL; F2 shows the exchange in the wire view."
    sent = for_operation(ProtocolError(-32004, "Task t is in terminal state"), "send")
    assert "--context-id" in sent.hint  # the command line's own words stay there
    assert "--context-id" not in tui_hint(sent) and "new conversation" in tui_hint(sent)


def test_a_refused_basic_password_is_explained_without_flags():
    from switchboard.a2a.http import http_status_error

    said = tui_hint(http_status_error("http://127.0.0.1:1/", 401, "", basic=True))
    assert said is not None and "auth: entry of the agents file" in said
    assert "--" not in said and "api" not in said.lower()
