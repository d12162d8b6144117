"""Running a reference server: command line, socket, API-key gate, uvicorn, the READY line.

Shared by both servers, so it only needs the stdlib and uvicorn (present in both venvs).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import sys
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import uvicorn

ASGIApp = Callable[..., Any]
API_KEY_HEADER = "X-API-Key"


def parse_args(argv: Sequence[str] | None = None, modes: Sequence[str] = ()) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="A2A reference agent for the switchboard interop tests.")
    parser.add_argument("--port", type=int, default=0, help="0 picks a free port (bound on 127.0.0.1 only)")
    parser.add_argument("--api-key", default=None, help=f"require this {API_KEY_HEADER} on every call")
    parser.add_argument(
        "--exit-on-stdin-eof",
        action="store_true",
        help="stop when stdin closes (the test harness uses this so a dead parent leaves no server behind)",
    )
    if modes:
        parser.add_argument("--mode", choices=modes, default=modes[0])
    return parser.parse_args(argv)


def bind(port: int) -> socket.socket:
    """Bind before building the app, so the card can carry the real port."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", port))
    sock.listen(128)
    return sock


def base_url(sock: socket.socket) -> str:
    return f"http://127.0.0.1:{sock.getsockname()[1]}/"


class ApiKeyGate:
    """ASGI wrapper: 401 for every request without the right API key, except GETs of the public card."""

    def __init__(self, app: ASGIApp, api_key: str) -> None:
        self.app = app
        self.api_key = api_key.encode()

    async def __call__(self, scope: dict, receive: Callable, send: Callable) -> None:
        if scope["type"] != "http" or self._allowed(scope):
            await self.app(scope, receive, send)
            return
        body = json.dumps({"error": "missing or wrong API key"}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 401, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    def _allowed(self, scope: dict) -> bool:
        if scope["method"] == "GET" and scope["path"].startswith("/.well-known/"):
            return True
        wanted = API_KEY_HEADER.lower().encode()
        return any(name == wanted and value == self.api_key for name, value in scope["headers"])


def gated(app: ASGIApp, api_key: str | None) -> ASGIApp:
    return ApiKeyGate(app, api_key) if api_key else app


def serve(app: ASGIApp, sock: socket.socket, exit_on_stdin_eof: bool = False) -> None:
    """Serve until SIGINT/SIGTERM; print `READY <url>` once uvicorn accepts connections."""

    async def ready() -> tuple[ASGIApp, str]:
        return app, ""

    serve_built(ready, sock, exit_on_stdin_eof)


def serve_built(
    build: Callable[[], Awaitable[tuple[ASGIApp, str]]], sock: socket.socket, exit_on_stdin_eof: bool = False
) -> None:
    """`serve` for an app built inside the event loop by `build`, which may start servers of its own there (a gRPC
    server whose port the card must carry): it returns the app and what to add to the READY line."""
    asyncio.run(_serve(build, sock, exit_on_stdin_eof))


async def _serve(
    build: Callable[[], Awaitable[tuple[ASGIApp, str]]], sock: socket.socket, exit_on_stdin_eof: bool
) -> None:
    app, ready_extra = await build()
    # No access log: the harness reads stderr only when a start fails.
    config = uvicorn.Config(app, log_level="warning", access_log=False, timeout_graceful_shutdown=2)
    server = uvicorn.Server(config)
    if exit_on_stdin_eof:
        threading.Thread(target=_exit_on_eof, args=(server,), daemon=True).start()
    running = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started and not running.done():
        await asyncio.sleep(0.01)
    if server.started:
        print(f"READY {base_url(sock)}{' ' + ready_extra if ready_extra else ''}", flush=True)
    await running


def _exit_on_eof(server: uvicorn.Server) -> None:
    sys.stdin.read()
    server.should_exit = True
