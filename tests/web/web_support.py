"""The browser tests' tools: the headless Chromium `make .browser/.stamp` unpacks, a `switchboard web` server as
a person starts it, and the terminal screen read back from the websocket's frames (xterm.js draws on canvases,
so the page itself has no text to read)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pyte
import pytest

REPO = Path(__file__).resolve().parents[2]
BROWSER_DIR = Path(os.environ.get("SWITCHBOARD_BROWSER_DIR", REPO / ".browser"))
LOCAL = ("http://127.0.0.1:", "http://localhost:", "ws://127.0.0.1:", "file://", "data:", "about:")


def browser_env() -> dict[str, str]:
    """The browser's executable and library path; the test fails (never skips) when it was not fetched."""
    env_file = BROWSER_DIR / "env"
    if not env_file.is_file():
        pytest.fail(f"no browser in {BROWSER_DIR}: `make .browser/.stamp` fetches it (make test does)")
    return dict(line.strip().split("=", 1) for line in env_file.read_text().splitlines() if "=" in line)


def launch(playwright):
    env = browser_env()
    return playwright.chromium.launch(
        executable_path=env["BROWSER"],
        env={**os.environ, "LD_LIBRARY_PATH": env["BROWSER_LIBRARY_PATH"]},
        args=["--no-sandbox"],
    )


def local_only(context) -> list[str]:
    """Abort every request that would leave this machine; the list fills with what was tried."""
    blocked: list[str] = []

    def route(route) -> None:
        url = route.request.url
        if url.startswith(LOCAL):
            route.continue_()
        else:
            blocked.append(url)
            route.abort()

    context.route("**/*", route)
    return blocked


@dataclass
class WebServer:
    process: subprocess.Popen[str]
    url: str
    home: Path
    stderr: list[str] = field(default_factory=list)

    @property
    def origin(self) -> str:
        parts = urlsplit(self.url)
        return f"{parts.scheme}://{parts.netloc}"

    @property
    def token(self) -> str:
        return parse_qs(urlsplit(self.url).query)["token"][0]


@contextmanager
def web_server(home: Path, *args: str) -> Iterator[WebServer]:
    """`switchboard web --port 0 ARGS` with its own SWITCHBOARD_HOME; stopped with Ctrl+C (SIGINT) at the end."""
    env = {**os.environ, "SWITCHBOARD_HOME": str(home), "PYTHONPATH": str(REPO / "src")}
    for name in ("A2ACLI_API_KEY", "A2ACLI_BEARER", "SWITCHBOARD_DEMO_AGENTS"):
        env.pop(name, None)
    process = subprocess.Popen(
        [sys.executable, "-m", "switchboard", "web", "--port", "0", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=home,
    )
    try:
        line = process.stdout.readline()
        if "open http" not in line:
            process.kill()
            pytest.fail(f"switchboard web did not start: {line}{process.stderr.read()}")
        server = WebServer(process, line.rsplit(" ", 1)[-1].strip(), home)
        yield server
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


class TerminalScreen:
    """The session's screen, rebuilt from the bytes the server sends to xterm.js (and the sizes the page asks for)."""

    def __init__(self, page) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.ByteStream(self.screen)
        self.sockets = 0
        page.on("websocket", self._socket)

    def _socket(self, socket) -> None:
        self.sockets += 1
        query = parse_qs(urlsplit(socket.url).query)
        if "width" in query:
            self.screen.resize(int(query["height"][0]), int(query["width"][0]))
        socket.on("framereceived", self._received)
        socket.on("framesent", self._sent)

    def _received(self, payload) -> None:
        if isinstance(payload, bytes):
            self.stream.feed(payload)

    def _sent(self, payload) -> None:
        if isinstance(payload, str) and payload.startswith('["resize"'):
            size = json.loads(payload)[1]
            self.screen.resize(size["height"], size["width"])

    @property
    def text(self) -> str:
        return "\n".join(self.screen.display)

    def wait_for(self, page, *wanted: str, timeout: float = 30.0) -> str:
        """Wait until the screen shows every one of `wanted`; the screen's text."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.text
            if all(w in text for w in wanted):
                return text
            page.wait_for_timeout(100)
        raise AssertionError(f"the screen never showed {wanted}:\n{self.text}")
