"""The official MCP Python client, pointed at `switchboard mcp`: over stdio (the server a subprocess, as a host
launches it) or streamable HTTP; an elicitation callback plays the person, answering from a script."""

from __future__ import annotations

import asyncio
import os
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mcp_types as types
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

SRC = str(Path(__file__).resolve().parents[2] / "src")


def server_env(home: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "LANG", "LC_ALL", "SYSTEMROOT")}
    env.update({"SWITCHBOARD_HOME": str(home), "PYTHONPATH": SRC, **(extra or {})})
    return env


@dataclass
class Person:
    """Answers elicitations from `answers` in order (an action name answers with that action); records each."""

    answers: list[Any] = field(default_factory=list)
    asked: list[types.ElicitRequestParams] = field(default_factory=list)
    on_url: Callable[[types.ElicitRequestURLParams], Any] | None = None

    async def __call__(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult | types.ErrorData:
        self.asked.append(params)
        if isinstance(params, types.ElicitRequestURLParams):
            if self.on_url is not None:
                await self.on_url(params)
            return types.ElicitResult(action="accept")
        answer = self.answers.pop(0)
        if answer == "error":  # the client refuses to show the form
            return types.ErrorData(code=-32602, message="this client shows no forms")
        if answer in ("decline", "cancel"):
            return types.ElicitResult(action=answer)
        return types.ElicitResult(action="accept", content={"answer": answer})


@asynccontextmanager
async def stdio_session(
    agents_file: Path, home: Path, *args: str, person: Person | None = None, env: dict[str, str] | None = None
) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "switchboard", "mcp", "--agents", str(agents_file), *args],
        env=server_env(home, env),
    )
    async with (
        stdio_client(params) as (read, write),
        ClientSession(read, write, elicitation_callback=person) as session,
    ):
        await session.initialize()
        yield session


@asynccontextmanager
async def http_session(url: str, token: str, *, person: Person | None = None) -> AsyncIterator[ClientSession]:
    import httpx2

    http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}, timeout=httpx2.Timeout(60, read=120))
    async with (
        http,
        streamable_http_client(url, http_client=http) as (read, write, *_),
        ClientSession(read, write, elicitation_callback=person) as session,
    ):
        await session.initialize()
        yield session


def texts(result: types.CallToolResult) -> list[str]:
    return [block.text for block in result.content if isinstance(block, types.TextContent)]


class HeldSession:
    """A client session entered and left in one task of its own, so a fixture may set it up in one task and tear it
    down in another (anyio's cancel scopes must be left by the task that entered them)."""

    def __init__(self, opened: Callable[[], Any]) -> None:
        self._opened = opened
        self._stop = asyncio.Event()
        self._ready: asyncio.Future[ClientSession] = asyncio.get_running_loop().create_future()
        self._task = asyncio.get_running_loop().create_task(self._hold())

    async def _hold(self) -> None:
        try:
            async with self._opened() as session:
                self._ready.set_result(session)
                await self._stop.wait()
        except BaseException as exc:
            if not self._ready.done():
                self._ready.set_exception(exc)
            raise

    async def session(self) -> ClientSession:
        return await self._ready

    async def close(self) -> None:
        self._stop.set()
        await self._task


async def issuer_ready(fleet: Any) -> None:
    """The demo identity provider starts in the background with the fleet: wait (bounded) until it answers."""
    import httpx

    async with httpx.AsyncClient(timeout=5) as http:
        card = (await http.get(fleet.agent("sso").url + ".well-known/agent-card.json")).json()
        schemes = card.get("securitySchemes", {}).get("demo-sso", {})
        flows = schemes.get("oauth2SecurityScheme", schemes).get("flows", {})
        issuer = flows["deviceCode"]["tokenUrl"].rsplit("/", 1)[0]
        for _ in range(200):
            try:
                if (await http.get(f"{issuer}/.well-known/openid-configuration")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.05)  # an external process's start-up: nothing to await from here
    raise AssertionError(f"the demo identity provider at {issuer} never answered")


# --- MCP tasks (2025-11-25), as a host sends them ---------------------------------------------------------


async def task_call(session, tool: str, arguments: dict, *, ttl: int) -> types.Task:
    """A task-augmented tools/call (the client's typed send_request reads a tools/call result as a CallToolResult,
    so the request goes as sent and its CreateTaskResult is read here)."""
    params = {"name": tool, "arguments": arguments, "task": {"ttl": ttl}}
    raw = await session._dispatcher.send_raw_request("tools/call", params, {})
    return types.CreateTaskResult.model_validate(raw).task


async def get_task(session, task_id: str) -> types.GetTaskResult:
    request = types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=task_id))
    return await session.send_request(request, types.GetTaskResult)


async def task_result(session, task_id: str) -> types.CallToolResult:
    request = types.GetTaskPayloadRequest(params=types.GetTaskPayloadRequestParams(task_id=task_id))
    return await session.send_request(request, types.CallToolResult)


async def list_tasks(session) -> list[types.Task]:
    request = types.ListTasksRequest(params=types.PaginatedRequestParams())
    return (await session.send_request(request, types.ListTasksResult)).tasks


async def tasks_page(session, cursor: str | None = None) -> types.ListTasksResult:
    request = types.ListTasksRequest(params=types.PaginatedRequestParams(cursor=cursor))
    return await session.send_request(request, types.ListTasksResult)


async def every_task(session) -> list[types.Task]:
    """Every page of tasks/list, following its cursors as a host does."""
    page = await tasks_page(session)
    tasks = list(page.tasks)
    while page.next_cursor is not None:
        page = await tasks_page(session, page.next_cursor)
        tasks += page.tasks
    return tasks
