"""Serve the demo fleet: one uvicorn server per agent, each on its own port, all in one asyncio loop.

    async with DemoFleet() as fleet:          # in the current loop
        print(fleet.agents, fleet.agents_file)

    handle = start_in_background()            # on a daemon thread with its own loop (for the TUI)
    ...
    handle.stop()

Ports are fixed by default (47101, 47102, ... in the order of AGENTS) so URLs stay the same between runs;
an agent whose port is taken gets a free one instead. Only loopback unless a host is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import socket
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import uvicorn

from ..agents import AgentEntry, oauth_settings
from ..paths import data_dir
from . import (
    booking,
    echo,
    flaky,
    gatekeeper,
    identity,
    interviewer,
    legacy,
    notary,
    researcher,
    sso,
    tasks_agent,
    writer,
)
from .agents_file import write_agents_file
from .base import DemoAgent, DemoSettings
from .card_signing import write_public_key
from .defaults import API_KEY_ENV, DEFAULT_FIRST_PORT, DEFAULT_HOST, TOKEN_ENV

_MODULES = (echo, writer, interviewer, researcher, gatekeeper, flaky, legacy, tasks_agent, notary, sso, booking)
AGENTS: tuple[DemoAgent, ...] = tuple(m.AGENT for m in _MODULES)
GRACE = 1  # seconds (an int: uvicorn's setting) uvicorn waits for open streams at shutdown before cancelling them
START_TIMEOUT = 20.0
_LOGGERS = ("a2a", "uvicorn", "sse_starlette")


def default_agents_file() -> Path:
    return data_dir() / "demo" / "agents.yaml"


@dataclass(frozen=True)
class RunningAgent:
    """An agent as served: what the agents file and the start-up text say about it."""

    name: str
    url: str
    protocol: Literal["a2a", "tasks"]
    description: str
    api_key_env: str | None = None
    bearer_env: str | None = None
    skills: tuple[dict[str, Any], ...] = ()
    wanted_port: int | None = None  # the default port, when it was taken and another was used
    card_keys: tuple[str, ...] = ()  # key files that pin its card's signature (notary: the demo's key)
    oauth: dict[str, Any] | None = None  # its `oauth:` block (sso)

    @property
    def port(self) -> int:
        return int(self.url.rsplit(":", 1)[1].strip("/"))

    def as_entry(self) -> AgentEntry:
        """The agent as an agents-file entry (what the TUI lists beside the person's own agents)."""
        raw: dict[str, Any] = {"name": self.name, "url": self.url, "protocol": self.protocol}
        if self.api_key_env:
            raw["apiKeyEnv"] = self.api_key_env
        if self.bearer_env:
            raw["auth"] = {"scheme": "bearer", "env": self.bearer_env}
        if self.skills:
            raw["skills"] = [dict(s) for s in self.skills]
        if self.card_keys:
            raw["cardKeys"] = list(self.card_keys)
        if self.oauth:
            raw["oauth"] = dict(self.oauth)
        return AgentEntry(
            name=self.name,
            url=self.url,
            protocol=self.protocol,
            api_key_env=self.api_key_env,
            bearer_env=self.bearer_env,
            skills=[dict(s) for s in self.skills] or None,
            card_keys=list(self.card_keys),
            oauth=oauth_settings(self.oauth, self.name) if self.oauth else None,
            raw=raw,
        )


class _Server(uvicorn.Server):
    """A uvicorn server that leaves signals alone: several share one loop, and their owner handles Ctrl+C."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


class _OneLineLog(logging.Handler):
    """Server-side problems (an agent crash, a dropped stream) as one line each, never a traceback.

    The SDK logs one crash several times over (producer, consumer, dispatcher); the first record that
    carries the exception is shown, and later records about the same exception are not.
    """

    def __init__(self, sink: Callable[[str], None] | None) -> None:
        super().__init__(logging.WARNING)
        self.sink = sink
        self._shown: list[BaseException] = []  # the last few exceptions shown

    def emit(self, record: logging.LogRecord) -> None:
        if self.sink is None:
            return
        try:
            error = record.exc_info[1] if record.exc_info else None
            line = record.getMessage()
            if error is not None:
                if any(error is shown for shown in self._shown):
                    return
                self._shown = [*self._shown[-9:], error]
                line += f" ({type(error).__name__}: {error})"
            elif record.levelno < logging.ERROR or any(str(shown) and str(shown) in line for shown in self._shown):
                return
            self.sink(line)
        except Exception:  # a log line must never take a server down
            pass


def _bind(host: str, port: int) -> socket.socket:
    family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # restart at once after a stop
        sock.bind(address)
        sock.listen(128)
    except BaseException:
        sock.close()
        raise
    return sock


def bind_ports(host: str, first_port: int, count: int) -> list[tuple[socket.socket, int | None]]:
    """One listening socket per agent: first_port + i, or a free port when that one is taken (0: all free).

    Each comes with the port it wanted when it had to move, else None.
    """
    bound: list[tuple[socket.socket, int | None]] = []
    try:
        for i in range(count):
            wanted = first_port + i if first_port else 0
            try:
                bound.append((_bind(host, wanted), None))
            except OSError as exc:
                if not wanted or exc.errno not in (errno.EADDRINUSE, errno.EACCES):
                    raise
                bound.append((_bind(host, 0), wanted))
    except BaseException:
        for sock, _ in bound:
            sock.close()
        raise
    return bound


def base_url(host: str, sock: socket.socket) -> str:
    port = sock.getsockname()[1]
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"  # a wildcard bind is reachable there; cards need a concrete address
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


class DemoFleet:
    """All demo agents, served in the running loop. Use `async with`, or `start()` and `stop()`."""

    def __init__(
        self,
        host: str = DEFAULT_HOST,
        first_port: int = DEFAULT_FIRST_PORT,
        *,
        settings: DemoSettings | None = None,
        agents_file: Path | None = None,
        write_file: bool = True,
        log: Callable[[str], None] | None = None,
        agents: Sequence[DemoAgent] = AGENTS,
    ) -> None:
        self.host = host
        self.served = tuple(agents)  # which agents to serve: the fleet, or others (e.g. demo.hostile) for tests
        self.first_port = first_port
        self.settings = settings or DemoSettings()
        self.agents_file = agents_file or default_agents_file()
        self.write_file = write_file
        self.agents: list[RunningAgent] = []
        self._servers: list[_Server] = []
        self._tasks: list[asyncio.Task[None]] = []
        self._closers: list[Callable[[], Any]] = []
        self._log = _OneLineLog(log)
        self._identity: identity.IdentityProvider | None = None

    def credential_env(self) -> dict[str, str]:
        """The environment variables the agents file names, with the values this fleet expects.

        A client in the same process (the TUI) can add them to its environment, so the gatekeeper and
        the tasks agent work without the person exporting anything.
        """
        return {API_KEY_ENV: self.settings.api_key, TOKEN_ENV: self.settings.token}

    def agent(self, name: str) -> RunningAgent:
        for running in self.agents:
            if running.name == name:
                return running
        raise KeyError(name)

    async def __aenter__(self) -> DemoFleet:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    async def start(self) -> None:
        """Bind every port, start every server, wait until all accept connections, write the agents file."""
        for name in _LOGGERS:
            logging.getLogger(name).addHandler(self._log)
        try:
            await self._start()
        except BaseException:
            await self.stop()
            raise

    def _start_identity(self) -> None:
        """The identity provider for the agents behind OAuth, started and not waited for; without one (no node,
        or an install without the provider's node_modules) those agents are left out, saying why."""
        if not any(agent.oauth for agent in self.served):
            return
        if not identity.available():
            left = ", ".join(agent.name for agent in self.served if agent.oauth)
            if self._log.sink is not None:
                self._log.sink(f"{left}: not served (needs node and the demo identity provider: run `make run`)")
            self.served = tuple(agent for agent in self.served if not agent.oauth)
            return
        self._identity = identity.IdentityProvider()
        self._identity.start()
        self.settings = replace(self.settings, issuer=self._identity.issuer)

    async def _start(self) -> None:
        self._start_identity()
        key_file = None
        if self.write_file and any(agent.signed for agent in self.served):
            key_file = str(write_public_key(self.agents_file.parent, self.settings.card_key))
        bound = bind_ports(self.host, self.first_port, len(self.served))
        for i, (agent, (sock, wanted)) in enumerate(zip(self.served, bound, strict=True)):
            url = base_url(self.host, sock)
            try:
                served = agent.build(url, self.settings)
            except BaseException:
                for unserved, _ in bound[i:]:  # the servers already started close their own
                    unserved.close()
                raise
            self._closers += served.closers
            config = uvicorn.Config(
                served.app,
                log_config=None,
                access_log=False,
                lifespan="off",
                timeout_graceful_shutdown=GRACE,
            )
            server = _Server(config)
            self._servers.append(server)
            self._tasks.append(asyncio.create_task(server.serve(sockets=[sock]), name=f"demo-{agent.name}"))
            self.agents.append(
                RunningAgent(
                    agent.name,
                    url if agent.protocol == "a2a" else url.rstrip("/"),
                    agent.protocol,
                    agent.description,
                    agent.api_key_env,
                    agent.bearer_env,
                    agent.skills,
                    wanted,
                    (key_file,) if agent.signed and key_file else (),
                    agent.oauth,
                )
            )
        async with asyncio.timeout(START_TIMEOUT):
            while not all(s.started for s in self._servers):
                for task in self._tasks:
                    if task.done():
                        name = task.get_name().removeprefix("demo-")
                        problem = task.exception() if not task.cancelled() else None
                        raise RuntimeError(f"the demo agent {name} stopped while starting: {problem}")
                await asyncio.sleep(0.01)
        if self.write_file:
            write_agents_file(self.agents_file, self.agents)

    async def stop(self) -> None:
        """End running tasks (so open streams close), then stop every server. Safe to call twice."""
        for close in self._closers:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(GRACE):
                    await close()
        self._closers = []
        for server in self._servers:
            server.should_exit = True
        if self._tasks:
            _, pending = await asyncio.wait(self._tasks, timeout=GRACE + 2)
            for server in self._servers:
                server.force_exit = True
            for task in pending:
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
        self._servers, self._tasks = [], []
        if self._identity is not None:
            self._identity.stop()
            self._identity = None
        for name in _LOGGERS:
            logging.getLogger(name).removeHandler(self._log)


class BackgroundFleet:
    """A fleet running on a daemon thread with its own event loop; `stop()` ends it cleanly."""

    def __init__(self) -> None:
        self.agents: list[RunningAgent] = []
        self.agents_file: Path | None = None
        self.credential_env: dict[str, str] = {}  # see DemoFleet.credential_env
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._thread: threading.Thread | None = None

    def agent(self, name: str) -> RunningAgent:
        return next(a for a in self.agents if a.name == name)

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def stop(self, timeout: float = 10.0) -> None:
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(stopping.set)
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout)

    def __enter__(self) -> BackgroundFleet:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_in_background(
    host: str = DEFAULT_HOST, first_port: int = DEFAULT_FIRST_PORT, **kwargs: Any
) -> BackgroundFleet:
    """Start the fleet on a daemon thread and return once every agent accepts connections.

    Keyword arguments go to DemoFleet. Nothing is printed (the TUI owns the terminal): pass `log` to see
    server-side problems. A failure to start is raised here.
    """
    handle = BackgroundFleet()
    ready = threading.Event()
    failure: list[BaseException] = []

    async def run() -> None:
        handle._loop = asyncio.get_running_loop()
        handle._stopping = asyncio.Event()
        fleet = DemoFleet(host, first_port, **kwargs)
        try:
            await fleet.start()
        except BaseException as exc:
            failure.append(exc)
            ready.set()
            return
        handle.agents, handle.agents_file = list(fleet.agents), fleet.agents_file
        handle.credential_env = fleet.credential_env()
        ready.set()
        try:
            await handle._stopping.wait()
        finally:
            await fleet.stop()

    def main() -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(run())
        finally:
            # Library housekeeping tasks (sse-starlette's shutdown watcher) would otherwise die pending.
            leftovers = asyncio.all_tasks(loop)
            for task in leftovers:
                task.cancel()
            if leftovers:
                loop.run_until_complete(asyncio.wait(leftovers))
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    handle._thread = threading.Thread(target=main, name="switchboard-demo-fleet", daemon=True)
    handle._thread.start()
    if not ready.wait(START_TIMEOUT + 5):
        handle.stop(timeout=2)
        raise TimeoutError("the demo fleet did not start in time")
    if failure:
        handle._thread.join(5)
        raise failure[0]
    return handle
