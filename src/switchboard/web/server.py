"""textual-serve's Server, made safe to run on a machine that holds credentials.

textual-serve 1.1.3 starts a new copy of the command, with the server's environment (the person's tokens), for
every websocket that connects, whichever page opened it; it lists its /static directory; and its page loads a
web font from the internet (offline, a network that hangs holds the page up). This subclass:

- asks for a random token, given in the printed link: the page without it is refused, and the websocket's path
  carries it (`/ws/TOKEN`), so another page cannot open a session even on a guessed port;
- refuses a websocket whose Origin is not this server's own (a page elsewhere that learned the link);
- serves /static without a listing, and the page with the font from the package's own copy: nothing loads from
  outside (the page's Content-Security-Policy says so to the browser too);
- caps the sessions running at once, and tells the browser when it is over the cap;
- tells the browser when a session ended before its screen came, instead of leaving it waiting.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import re
import secrets
import signal
import socket
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from ..a2a.auth.credentials import is_loopback

log = logging.getLogger("switchboard.web")

DEFAULT_MAX_SESSIONS = 4
FONT_CSS = """\
@font-face { font-family: "Roboto Mono"; font-style: normal; font-weight: 100 700;
  src: url("/static/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype"); }
@font-face { font-family: "Roboto Mono"; font-style: italic; font-weight: 100 700;
  src: url("/static/fonts/RobotoMono-Italic-VariableFont_wght.ttf") format("truetype"); }
"""
# The page runs textual.js and its own inline script and styles; everything it loads comes from here.
PAGE_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' "
    "'unsafe-inline'; img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
}
REFUSED_PAGE = """<!DOCTYPE html><html><head><meta charset="utf-8"><title>switchboard</title></head>
<body style="font-family: sans-serif; margin: 3rem">
<h1>This page needs its link</h1>
<p>Open the link that <code>switchboard web</code> printed when it started: it holds the token that lets
you in.</p></body></html>
"""
_REMOTE_FONT = re.compile(r"<link[^>]*fonts\.googleapis\.com[^>]*>", re.DOTALL)


def local_page(template: str) -> str:
    """textual-serve's page, its web font linked from this server instead of the internet."""
    page, found = _REMOTE_FONT.subn('<link rel="stylesheet" href="/fonts.css" />', template)
    if not found or "googleapis" in page:
        raise RuntimeError("textual-serve's page changed: its web font link was not found to be replaced")
    return page


def terminal_text(*lines: str) -> bytes:
    """Lines for the browser's terminal: a clear screen, then each line."""
    return ("\x1b[2J\x1b[H" + "\r\n".join(["", *(f"  {line}" for line in lines), ""])).encode("utf-8")


class Session(AppService):
    """One browser tab's copy of switchboard; says so in the tab when it ended before showing anything."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shown = False

    async def on_data(self, payload: bytes) -> None:
        self.shown = True
        await super().on_data(payload)

    async def run(self) -> None:
        try:
            await super().run()
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise
            # Not this task's cancellation: textual-serve cancels its stderr reader at the end, and one that had not
            # started yet (a session that ended at once) raises that into run().
        if self.shown or self._process is None:
            return
        try:
            code = await asyncio.wait_for(self._process.wait(), 5)
        except TimeoutError:
            code = None
        await self.remote_write_bytes(
            terminal_text(
                "switchboard stopped before its screen opened"
                + (f" (exit status {code})." if code is not None else "."),
                "The log of `switchboard web` (where it runs) says why. Reload the page to try again.",
            )
        )


class SwitchboardServer(Server):
    def __init__(
        self,
        command: str,
        *,
        host: str = "127.0.0.1",
        port: int = 8000,
        token: str | None = None,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        title: str = "switchboard",
    ) -> None:
        super().__init__(command, host=host, port=port, title=title)
        self.token = token or secrets.token_urlsafe(24)
        self.max_sessions = max_sessions
        self.sessions: set[Session] = set()
        self.refused = 0  # requests turned away (no token, a foreign origin, over the cap)
        template = (Path(self.templates_path) / "app_index.html").read_text(encoding="utf-8")
        self._page = local_page(template)

    # --- addresses -----------------------------------------------------------------------------------------

    def _set_address(self, port: int) -> None:
        self.port = port
        host = self.host if self.host not in ("0.0.0.0", "::", "") else socket.gethostname()
        shown = f"[{host}]" if ":" in host else host
        self.public_url = f"http://{shown}:{port}"

    @property
    def url(self) -> str:
        """The link to open: the page, with the token."""
        return f"{self.public_url}/?token={self.token}"

    def allowed_origins(self, request: web.Request) -> set[str]:
        """The page's own origins: the address served on, and every name of loopback when that is where it is.
        Bound to every address, the page's origin is whatever name reached it: the request's own Host."""
        port = self.port
        origins = {self.public_url}
        if is_loopback(self.host) or self.host in ("0.0.0.0", "::", ""):
            origins |= {f"http://127.0.0.1:{port}", f"http://localhost:{port}", f"http://[::1]:{port}"}
        if self.host in ("0.0.0.0", "::", ""):
            origins.add(f"http://{request.host}")
        return origins

    def _token_ok(self, given: str) -> bool:
        return hmac.compare_digest(given.encode(), self.token.encode())

    # --- the web application -------------------------------------------------------------------------------

    async def _make_app(self) -> web.Application:
        app = web.Application()
        aiohttp_jinja2.setup(app, loader=jinja2.DictLoader({"app_index.html": self._page}))
        app.add_routes(
            [
                web.get("/", self.handle_index, name="index"),
                web.get("/ws/{token}", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.get("/fonts.css", self.handle_fonts, name="fonts"),
                web.static("/static", self.statics_path, show_index=False, name="static"),
            ]
        )
        return app

    async def handle_fonts(self, request: web.Request) -> web.Response:
        return web.Response(text=FONT_CSS, content_type="text/css")

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        if not self._token_ok(request.query.get("token", "")):
            self.refused += 1
            return web.Response(status=403, text=REFUSED_PAGE, content_type="text/html", headers=PAGE_HEADERS)
        context = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            # The page's own address, as the browser reached it: the websocket goes back where the page came from.
            "app_websocket_url": f"ws://{request.host}/ws/{self.token}",
            "config": {"static": {"url": "/static/"}},
            "application": {"name": self.title},
            "ping_url": "",
        }
        response = aiohttp_jinja2.render_template("app_index.html", request, context)
        response.headers.update(PAGE_HEADERS)
        return response

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        if not self._token_ok(request.match_info.get("token", "")):
            self.refused += 1
            raise web.HTTPForbidden(text="a session needs the token of the link switchboard web printed")
        origin = request.headers.get("Origin")
        if origin is not None and origin not in self.allowed_origins(request):
            self.refused += 1
            log.warning("refused a session asked for by a page at %s", origin)
            raise web.HTTPForbidden(text="a session opens only from switchboard's own page")
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        if len(self.sessions) >= self.max_sessions:
            self.refused += 1
            open_now = len(self.sessions)
            await websocket.send_bytes(
                terminal_text(
                    f"{open_now} session{' is' if open_now == 1 else 's are'} open, the most this server runs at once.",
                    "Close one of them (or restart `switchboard web` with a larger --max-sessions),",
                    "then reload this page.",
                )
            )
            async for _ in websocket:  # nothing runs for this tab: wait for it to go
                pass
            return websocket
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)
        session = Session(
            self.command,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=websocket.close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        self.sessions.add(session)
        try:
            await session.start(width, height)
            await self._process_messages(websocket, session)
        except asyncio.CancelledError:
            await websocket.close()
        except Exception:
            log.exception("a session failed")
        finally:
            self.sessions.discard(session)
            await session.stop()
        return websocket

    async def on_startup(self, app: web.Application) -> None:
        """textual-serve prints its banner here; `run` says what matters instead."""

    # --- running -------------------------------------------------------------------------------------------

    async def run(self, on_ready: Callable[[SwitchboardServer], None] | None = None) -> None:
        """Serve until SIGINT or SIGTERM (or cancellation). Port 0 takes a free port; `on_ready` learns the link."""
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, self.port))
        self._set_address(sock.getsockname()[1])
        runner = web.AppRunner(await self._make_app(), handle_signals=False, access_log=None)
        await runner.setup()
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(signum, stop.set)
            except (NotImplementedError, RuntimeError):  # not the main thread, or no signals here
                pass
        try:
            await web.SockSite(runner, sock).start()
            if on_ready is not None:
                on_ready(self)
            await stop.wait()
        finally:
            for signum in (signal.SIGINT, signal.SIGTERM):
                try:
                    loop.remove_signal_handler(signum)
                except (NotImplementedError, RuntimeError):
                    pass
            await runner.cleanup()


def setup_logging() -> None:
    """textual-serve's messages (a session that failed, its stderr) and ours, on stderr."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
    for name in ("textual-serve", "switchboard.web"):
        logger = logging.getLogger(name)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)
