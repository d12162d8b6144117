"""`serve` and `demo` run on uvloop when the `fast` extra is installed (make test installs it); every other
command, and a server under SWITCHBOARD_LOOP=asyncio, on asyncio's own loop."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import uvloop

from switchboard.cli.guard import run_async


def loop_of(monkeypatch, *, server: bool, choice: str | None = None) -> type:
    if choice is None:
        monkeypatch.delenv("SWITCHBOARD_LOOP", raising=False)
    else:
        monkeypatch.setenv("SWITCHBOARD_LOOP", choice)
    seen: list[type] = []

    async def handler(args) -> int:
        seen.append(type(asyncio.get_running_loop()))
        return 0

    assert run_async(handler, SimpleNamespace(output="text"), server=server) == 0
    return seen[0]


def test_a_server_runs_on_uvloop(monkeypatch):
    assert loop_of(monkeypatch, server=True) is uvloop.Loop


def test_other_commands_and_an_asked_for_asyncio_loop_run_on_asyncios_own(monkeypatch):
    assert not issubclass(loop_of(monkeypatch, server=False), uvloop.Loop)
    assert not issubclass(loop_of(monkeypatch, server=True, choice="asyncio"), uvloop.Loop)
