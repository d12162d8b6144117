"""`switchboard web` in a real headless Chromium: the link's token is the only way in, a session opens only from
the server's own page, the TUI works there as at a terminal (the agents, a streamed reply, a prompt answered from
the browser), nothing loads from outside, and what goes wrong reaches the browser as a message."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from urllib.error import HTTPError
from urllib.request import urlopen

import aiohttp
import pytest
from playwright.sync_api import sync_playwright
from web_support import REPO, TerminalScreen, WebServer, launch, local_only, web_server

SIZE = {"width": 1280, "height": 760}


@pytest.fixture(scope="module")
def server(tmp_path_factory) -> WebServer:
    with web_server(tmp_path_factory.mktemp("web-home"), "--demo") as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=SIZE)
    blocked = local_only(context)
    page = context.new_page()
    yield page
    context.close()
    assert blocked == [], f"the page tried to load from outside: {blocked}"


def status_of(url: str) -> int:
    try:
        with urlopen(url, timeout=10) as response:
            return response.status
    except HTTPError as exc:
        return exc.code


def websocket_status(url: str, origin: str | None = None) -> int:
    """The status a websocket handshake gets (101 when it opens; closed at once then)."""

    async def knock() -> int:
        headers = {"Origin": origin} if origin else {}
        async with aiohttp.ClientSession() as session:
            try:
                async with session.ws_connect(url, headers=headers) as socket:
                    await socket.close()
                    return 101
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status

    with ThreadPoolExecutor(1) as pool:  # playwright's sync API holds this thread's event loop
        return pool.submit(asyncio.run, knock()).result()


def test_without_the_token_the_page_and_the_websocket_are_refused(server, page):
    base = server.origin
    assert status_of(f"{base}/") == 403
    assert status_of(f"{base}/?token=not-the-token") == 403
    assert status_of(server.url) == 200
    ws = base.replace("http://", "ws://")
    assert websocket_status(f"{ws}/ws/not-the-token", origin=base) == 403
    assert websocket_status(f"{ws}/ws", origin=base) == 404  # textual-serve's own path is not served
    assert status_of(f"{base}/static/") in (403, 404)  # no listing
    assert status_of(f"{base}/static/js/textual.js") == 200
    page.goto(f"{base}/")
    assert "needs its link" in page.inner_text("body")


def test_a_page_from_another_origin_cannot_open_a_session(server, page):
    ws = server.origin.replace("http://", "ws://")
    assert websocket_status(f"{ws}/ws/{server.token}", origin="http://evil.example") == 403
    # The same from a browser page that is not switchboard's (its origin is not the server's).
    page.set_content("<p>elsewhere</p>")
    outcome = page.evaluate(
        """url => new Promise(done => {
            const socket = new WebSocket(url);
            socket.onopen = () => { socket.close(); done("open"); };
            socket.onerror = () => done("refused");
        })""",
        f"{ws}/ws/{server.token}",
    )
    assert outcome == "refused"


def test_the_tui_in_the_browser_streams_a_reply_and_takes_an_answer(server, page):
    screen = TerminalScreen(page)
    page.goto(server.url)
    text = screen.wait_for(page, "writer", "interviewer", "gatekeeper", "Agent", "Protocol")
    assert "demo fleet" in text
    page.locator(".textual-terminal").click()

    page.keyboard.press("ArrowDown")  # echo, writer
    screen.wait_for(page, "Writer")  # the highlighted agent's card, under the table
    page.keyboard.press("Enter")
    screen.wait_for(page, "Message the agent", "⏎ Send")  # the footer's Send: the message box has the keyboard
    page.keyboard.type("tides")
    page.keyboard.press("Enter")
    screen.wait_for(page, "completed", "Written for you by the writer agent", timeout=60)

    page.keyboard.press("F1")
    screen.wait_for(page, "Agent", "Protocol")
    page.keyboard.press("ArrowDown")  # interviewer
    screen.wait_for(page, "Interviewer")
    page.keyboard.press("Enter")
    screen.wait_for(page, "Message the agent", "⏎ Send")  # the footer's Send: the message box has the keyboard
    page.keyboard.type("interview me")
    page.keyboard.press("Enter")
    screen.wait_for(page, "What is your name?", "interviewer needs your input", "your answer", timeout=60)
    page.keyboard.type("Ada")  # into the prompt pane, which has the keyboard
    page.keyboard.press("Enter")
    screen.wait_for(page, "Nice to meet you, Ada", "interviewer needs your input", timeout=60)
    shot = os.environ.get("SWITCHBOARD_WEB_SCREENSHOT")
    page.screenshot(path=shot or str(server.home / "web.png"))


def test_a_session_that_cannot_start_tells_the_browser_why(tmp_path, browser):
    agents = tmp_path / "agents.yaml"
    agents.write_text("agents:\n  - name: mine\n    url: http://127.0.0.1:9/\n")
    with web_server(tmp_path, "--agents", str(agents)) as running:
        agents.write_text("agents: [unclosed\n")  # broken after the server started: each session reads it
        context = browser.new_context(viewport=SIZE)
        blocked = local_only(context)
        page = context.new_page()
        screen = TerminalScreen(page)
        page.goto(running.url)
        text = screen.wait_for(page, "switchboard could not start", "cannot read the agents file")
        assert "Fix this, then reload the page." in text
        context.close()
        assert blocked == []


def test_over_the_session_cap_a_tab_is_told_so(tmp_path, browser):
    with web_server(tmp_path, "--demo", "--max-sessions", "1") as running:
        context = browser.new_context(viewport=SIZE)
        local_only(context)
        first, second = context.new_page(), context.new_page()
        first_screen, second_screen = TerminalScreen(first), TerminalScreen(second)
        first.goto(running.url)
        first_screen.wait_for(first, "writer")
        second.goto(running.url)
        second_screen.wait_for(second, "1 session is open, the most this server runs at once")
        context.close()


SILENT_SESSION = """
import asyncio, sys
from switchboard.web.server import SwitchboardServer
server = SwitchboardServer("exit 3", port=0)
asyncio.run(server.run(lambda s: print("switchboard web: open " + s.url, flush=True)))
"""


def test_a_session_that_dies_without_a_word_is_still_told_to_the_browser(tmp_path, browser):
    """A session that exits before Textual's driver speaks (an interpreter that cannot start, say)."""
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "SWITCHBOARD_HOME": str(tmp_path)}
    process = subprocess.Popen([sys.executable, "-c", SILENT_SESSION], stdout=subprocess.PIPE, text=True, env=env)
    try:
        url = process.stdout.readline().rsplit(" ", 1)[-1].strip()
        context = browser.new_context(viewport=SIZE)
        local_only(context)
        page = context.new_page()
        screen = TerminalScreen(page)
        page.goto(url)
        screen.wait_for(page, "switchboard stopped before its screen opened (exit status 3).")
        context.close()
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(20)


def test_serving_beyond_loopback_warns(tmp_path):
    agents = tmp_path / "agents.yaml"
    agents.write_text("agents:\n  - name: mine\n    url: http://127.0.0.1:9/\n")
    env = {**os.environ, "PYTHONPATH": str(REPO / "src"), "SWITCHBOARD_HOME": str(tmp_path)}
    argv = [sys.executable, "-m", "switchboard", "web", "--host", "0.0.0.0", "--port", "0", "--agents", str(agents)]
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        assert "switchboard web: open http://" in process.stdout.readline()
        warning = process.stderr.readline()
        assert warning.startswith("warning: serving on 0.0.0.0") and "plain HTTP" in warning
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(20)
