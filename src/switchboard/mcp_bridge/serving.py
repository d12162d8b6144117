"""Running the bridge: over stdio (the host launched us), or streamable HTTP on a port behind TokenAndOrigin; the
agents file watched either way."""

from __future__ import annotations

import asyncio
import contextlib
import socket
from collections.abc import Callable
from typing import Any

from mcp.server.transport_security import TransportSecuritySettings

from .http_guard import TokenAndOrigin
from .server import Bridge


async def serve_stdio(bridge: Bridge) -> None:
    from mcp.server.stdio import stdio_server

    server = bridge.server()
    watcher = asyncio.get_running_loop().create_task(bridge.watch_agents_file())
    try:
        async with stdio_server() as (read, write):
            await server.run(read, write, bridge.initialization_options(server))
    finally:
        watcher.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await watcher


def http_app(bridge: Bridge, token: str, host: str, port_of: Callable[[], int]) -> TokenAndOrigin:
    """The streamable HTTP app at /mcp behind the token and Origin checks (its origins filled in once listening)."""
    server = bridge.server()
    names = {"127.0.0.1", "localhost", "[::1]", host if ":" not in host else f"[{host}]"}
    # On every address (0.0.0.0, ::) the names a caller may use are not known here: the token and Origin guard.
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=host not in ("0.0.0.0", "::"),
        allowed_hosts=[f"{name}:*" for name in names],
        allowed_origins=[],  # checked by TokenAndOrigin, exactly (the SDK's allows any port of a loopback name)
    )
    starlette = server.streamable_http_app(streamable_http_path="/mcp", host=host, transport_security=security)
    return TokenAndOrigin(starlette, token, set())


async def serve_http(bridge: Bridge, token: str, host: str, port: int, ready: Callable[[str], None]) -> None:
    import uvicorn

    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    bound = sock.getsockname()[1]
    app = http_app(bridge, token, host, lambda: bound)
    shown = f"[{host}]" if ":" in host else host
    app.origins.update({f"http://{name}:{bound}" for name in {shown, "127.0.0.1", "localhost"}})
    config = uvicorn.Config(app, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    watcher = asyncio.get_running_loop().create_task(bridge.watch_agents_file())
    started = asyncio.get_running_loop().create_task(_say_when_started(server, f"http://{shown}:{bound}/mcp", ready))
    try:
        await server.serve(sockets=[sock])
    finally:
        for task in (watcher, started):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


async def _say_when_started(server: Any, url: str, ready: Callable[[str], None]) -> None:
    while not server.started:
        await asyncio.sleep(0.05)
    ready(url)
