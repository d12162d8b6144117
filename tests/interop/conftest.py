"""Fixtures that run the reference A2A servers: each kind starts on first use and lives for the session."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from servers import AUTH_API_KEY, KINDS, RunningServer, ServerStartError, start_server

REPO = Path(__file__).resolve().parents[2]


class ServerPool:
    """One server per (kind, api key), started lazily, all stopped together."""

    def __init__(self) -> None:
        self._servers: dict[tuple[str, str | None], RunningServer] = {}

    def get(self, kind: str, api_key: str | None = None) -> RunningServer:
        key = (kind, api_key)
        if key not in self._servers:
            failure = None
            try:
                self._servers[key] = start_server(kind, api_key)
            except ServerStartError as error:
                failure = str(error)  # failed outside the except block: no chained traceback
            if failure:
                # A missing reference server is a broken setup, never a reason to skip.
                pytest.fail(failure, pytrace=False)
        return self._servers[key]

    def stop_all(self) -> None:
        for server in self._servers.values():
            server.stop()
        self._servers.clear()


@pytest.fixture(scope="session")
def server_pool() -> Iterator[ServerPool]:
    pool = ServerPool()
    yield pool
    pool.stop_all()


# The pool, not these fixtures, owns the servers: pytest may tear down and re-create a parametrized
# session fixture when it switches params, which must not restart a server.
@pytest.fixture(scope="session", params=KINDS, ids=KINDS)
def reference_server(request: pytest.FixtureRequest, server_pool: ServerPool) -> RunningServer:
    return server_pool.get(request.param)


@pytest.fixture(scope="session", params=KINDS, ids=KINDS)
def auth_server(request: pytest.FixtureRequest, server_pool: ServerPool) -> RunningServer:
    return server_pool.get(request.param, AUTH_API_KEY)


# The OpenID Provider and the agents behind it (tests/interop/oauth_fixtures.py).
from oauth_fixtures import merged_card_oauth_agent, narrow_oauth_agent, oauth_agent, oidc_provider  # noqa: E402, F401


# For the tests that need switchboard as a real process (signals, a receiver attacked while a command runs): its
# home in the test's folder and this checkout's source. A module with a `cli` of its own keeps its own.
@pytest.fixture
def env(tmp_path):
    return {**os.environ, "SWITCHBOARD_HOME": str(tmp_path), "PYTHONPATH": str(REPO / "src")}


@pytest.fixture
def cli(env):
    def run(*args: str) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "switchboard", *args]
        return subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)

    return run
