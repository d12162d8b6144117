"""Serve workflows as A2A agents: one port, each workflow under its own path, on the SDK's route factories.

    server = WorkflowServer(workflows, host="127.0.0.1", port=0, max_runs=32)
    await server.start()          # binds, serves, resumes the runs in flight when it last stopped
    server.agents                 # each agent's name, URL and card URL
    await server.stop()           # stops runs where they are (they resume at the next start)

Under `/NAME/`: the card (/.well-known/agent-card.json), JSON-RPC 1.0 and 0.3 (the SDK's compat mode) at the
path itself, HTTP+JSON under `rest/`. Loopback unless a host is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import re
import socket
from collections.abc import Callable, Generator
from dataclasses import dataclass
from pathlib import Path

import httpx
import uvicorn
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes, create_rest_routes
from starlette.applications import Starlette
from starlette.responses import JSONResponse
from starlette.routing import BaseRoute, Mount, Route

from ..a2a.http import DEFAULT_TIMEOUT, USER_AGENT
from ..safe_text import strip_controls
from ..workflow.index import default_dir
from ..workflow.spec import Workflow
from .agent import RunSlots, ServeOptions, WorkflowAgent
from .card import REST_PATH
from .guard import DEFAULT_MAX_BODY, Guard
from .slow_clients import connection_limits

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 47180
DEFAULT_MAX_RUNS = 64
RUNS_PER_CLIENT = 32
CLIENT_SHARDS = 16
KEEPALIVE = 2.0
START_TIMEOUT = 20.0
GRACE = 1  # seconds uvicorn gives open streams at shutdown (its setting is an int)
CARD_PATH = ".well-known/agent-card.json"
_LOGGERS = ("a2a", "uvicorn", "sse_starlette", "switchboard.serve")


@dataclass(frozen=True)
class ServedAgent:
    name: str
    url: str
    card_url: str
    workflow: Workflow


def slug(name: str) -> str:
    """A workflow's name as a URL path segment."""
    return re.sub(r"[^A-Za-z0-9._-]+", "-", name).strip("-") or "workflow"


class OneLineLog(logging.Handler):
    """Server-side problems as one line each, control characters stripped (callers' text ends up in them)."""

    def __init__(self, sink: Callable[[str], None]) -> None:
        super().__init__(logging.WARNING)
        self.sink = sink

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = record.getMessage()
            error = record.exc_info[1] if record.exc_info else None
            if error is not None:
                line += f" ({type(error).__name__}: {error})"
            self.sink(strip_controls(line).replace("\n", " ")[:2000])
        except Exception:  # a log line must never take the server down
            pass


class _Server(uvicorn.Server):
    """uvicorn without its signal handlers: the command owns Ctrl+C."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


class DelegateClients:
    """The HTTP clients the runs' delegates use, each run one of them in turn.

    httpx's pool scans every connection (and every queued request) for each request it places, so one pool
    for hundreds of runs at once spends more time scanning than sending: several small pools, each with room
    for its share of the runs, keep that scan short and no request waits for a connection.
    """

    def __init__(self, max_runs: int) -> None:
        count = max(1, min(CLIENT_SHARDS, -(-max_runs // RUNS_PER_CLIENT)))
        room = 2 * -(-max_runs // count)
        # Idle connections are dropped before servers drop them (uvicorn: after 5 s): a request sent on a
        # connection the server is closing fails, and a delegate's message is never sent twice.
        limits = httpx.Limits(max_connections=room, max_keepalive_connections=room, keepalive_expiry=KEEPALIVE)
        # One TLS context for all of them: each client would load the CA bundle again (50-150 ms each at start-up).
        tls = httpx.create_ssl_context()
        self.clients = [
            httpx.AsyncClient(
                timeout=DEFAULT_TIMEOUT,
                headers={"User-Agent": USER_AGENT},
                follow_redirects=False,
                limits=limits,
                verify=tls,
            )
            for _ in range(count)
        ]
        self._turn = itertools.count()

    def next(self) -> httpx.AsyncClient:
        return self.clients[next(self._turn) % len(self.clients)]

    async def aclose(self) -> None:
        for client in self.clients:
            await client.aclose()


def bind(host: str, port: int) -> socket.socket:
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(512)
    except BaseException:
        sock.close()
        raise
    return sock


def base_url(host: str, sock: socket.socket) -> str:
    port = sock.getsockname()[1]
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


class WorkflowServer:
    def __init__(
        self,
        workflows: list[Workflow],
        *,
        host: str = DEFAULT_HOST,
        port: int = DEFAULT_PORT,
        api_key: str | None = None,
        max_runs: int = DEFAULT_MAX_RUNS,
        max_body: int = DEFAULT_MAX_BODY,
        journal_dir: Path | None = None,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.workflows = workflows
        self.host = host
        self.port = port
        self.api_key = api_key
        self.max_body = max_body
        self.slots = RunSlots(max_runs)
        self.journal_dir = journal_dir or default_dir()
        self.say = log or (lambda line: None)
        self.agents: list[ServedAgent] = []
        self.served: list[WorkflowAgent] = []
        self.resumed: list[str] = []
        self._log = OneLineLog(self.say)
        self._server: _Server | None = None
        self._task: asyncio.Task[None] | None = None
        self._http: DelegateClients | None = None

    async def start(self) -> None:
        for name in _LOGGERS:
            logging.getLogger(name).addHandler(self._log)
        try:
            await self._start()
        except BaseException:
            await self.stop()
            raise

    async def _start(self) -> None:
        sock = bind(self.host, self.port)
        root = base_url(self.host, sock)
        self._http = DelegateClients(self.slots.limit)
        options = ServeOptions(self._http, self.slots, self.journal_dir, api_key=self.api_key is not None, say=self.say)
        mounts: list[BaseRoute] = []
        used: set[str] = set()
        prefixes: list[str] = []
        for workflow in self.workflows:
            path = slug(workflow.name)
            while path in used:
                path += "-2"
            used.add(path)
            prefixes.append(f"/{path}")
            url = f"{root}{path}/"
            agent = WorkflowAgent(workflow, url, options)
            self.served.append(agent)
            self.agents.append(ServedAgent(workflow.name, url, url + CARD_PATH, workflow))
            mounts.append(Mount(f"/{path}", app=Starlette(routes=self._routes(agent))))
        mounts.append(Route("/", self._index, methods=["GET"]))
        app = Guard(Starlette(routes=mounts), api_key=self.api_key, max_body=self.max_body, endpoints=tuple(prefixes))
        config = uvicorn.Config(
            app,
            log_config=None,
            access_log=False,
            lifespan="off",
            timeout_graceful_shutdown=GRACE,
            **connection_limits(self.slots.limit),
        )
        # Tasks are back in their stores (and runs in flight going on) before the first request is read: a
        # caller never sees a task of its own missing. Meanwhile connections wait in the socket's backlog.
        try:
            for agent in self.served:
                self.resumed += await agent.restore()
        except BaseException:
            sock.close()
            raise
        self._server = _Server(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]), name="switchboard-serve")
        async with asyncio.timeout(START_TIMEOUT):
            while not self._server.started:
                if self._task.done():
                    raise RuntimeError(f"the server stopped while starting: {self._task.exception()}")
                await asyncio.sleep(0.01)

    @staticmethod
    def _routes(agent: WorkflowAgent) -> list[BaseRoute]:
        routes: list[BaseRoute] = list(create_agent_card_routes(agent.card))
        routes += create_jsonrpc_routes(agent.handler, "/", enable_v0_3_compat=True)
        routes += create_rest_routes(agent.handler, enable_v0_3_compat=True, path_prefix=f"/{REST_PATH}")
        return routes

    async def _index(self, request) -> JSONResponse:
        return JSONResponse({"agents": [{"name": a.name, "url": a.url, "card": a.card_url} for a in self.agents]})

    async def stop(self) -> None:
        """Stop every run where it is (to resume at the next start), then the server. Safe to call twice."""
        for agent in self.served:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(GRACE + 5):
                    await agent.interrupt()
        self.served = []
        if self._server is not None:
            self._server.should_exit = True
        if self._task is not None:
            done, _ = await asyncio.wait([self._task], timeout=GRACE + 2)
            if not done and self._server is not None:
                self._server.force_exit = True
                self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        self._server, self._task = None, None
        if self._http is not None:
            await self._http.aclose()
            self._http = None
        for name in _LOGGERS:
            logging.getLogger(name).removeHandler(self._log)
