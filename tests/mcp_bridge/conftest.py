"""One `switchboard mcp` over stdio per module, on the demo fleet (the session's, in this process), reached by the
official MCP Python client; tests that need other flags start their own."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from mcp import ClientSession
from mcp_support import HeldSession, Person, stdio_session

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def person() -> Person:
    return Person()


@pytest.fixture(scope="module")
def mcp_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("mcp-home")


@pytest.fixture(scope="module")
def workflows(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("workflows")
    shutil.copy(REPO / "examples" / "workflows" / "interview.yaml", folder)
    return folder


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def asking(fleet, mcp_home: Path, person: Person, workflows: Path) -> AsyncIterator[ClientSession]:
    """A host that takes elicitations: `person` answers them."""
    assert fleet.agents_file is not None
    held = HeldSession(lambda: stdio_session(fleet.agents_file, mcp_home, "--workflows", str(workflows), person=person))
    yield await held.session()
    await held.close()


# The OpenID Provider and the agent behind it that asks for a sign-in mid-task (tests/interop/oauth_fixtures.py).
from oauth_fixtures import oauth_agent, oidc_provider  # noqa: E402, F401
