"""A tool call through `switchboard mcp` beside `switchboard send` on the same agent (the demo's echo), one caller.

ours:  `tools/call ask_echo` from the official MCP Python client to a running `switchboard mcp` over stdio (what a
       host does: it starts the server once and calls it many times); the clock covers the call's round trip.
peer:  `switchboard send echo TEXT` as a fresh process (what a person or a script types for the same answer).
floor: the same send from Python on a warm link (open_link once, then link.follow): the A2A round trip alone,
       with neither MCP nor a process start in the way.
Rounds alternate between the three; medians. Goal (issue 31): a tool call within 1.2x of `switchboard send`.
"""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from common import Row, env_with_src, run_standalone
from fanout import start_echo

GOAL = 1.2


async def _measure(agents_file: Path, home: Path, rounds: int) -> tuple[list[float], list[float], list[float]]:
    from mcp import ClientSession, StdioServerParameters, stdio_client

    from switchboard.agents import load_agents
    from switchboard.link import open_link

    env = env_with_src() | {"SWITCHBOARD_HOME": str(home)}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "switchboard", "mcp", "--agents", str(agents_file)], env=env
    )
    send = [sys.executable, "-m", "switchboard", "--agents", str(agents_file), "send", "echo", "hello", "-o", "json"]
    ours: list[float] = []
    peer: list[float] = []
    floor: list[float] = []
    entry = load_agents(agents_file).find("echo")
    assert entry is not None
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        await session.call_tool("ask_echo", {"message": "warm up"})
        async with await open_link(entry) as link:
            from switchboard.a2a.client import new_message

            async for _ in link.follow(new_message("warm up")):
                pass
            subprocess.run(send, env=env, capture_output=True, check=True)
            for _ in range(rounds):
                started = time.perf_counter()
                result = await session.call_tool("ask_echo", {"message": "hello"})
                ours.append(time.perf_counter() - started)
                assert not result.is_error
                started = time.perf_counter()
                await asyncio.to_thread(subprocess.run, send, env=env, capture_output=True, check=True)
                peer.append(time.perf_counter() - started)
                started = time.perf_counter()
                async for _ in link.follow(new_message("hello")):
                    pass
                floor.append(time.perf_counter() - started)
    return ours, peer, floor


def main(quick: bool = False) -> list[Row]:
    rounds = 8 if quick else 30
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        fleet, _ = start_echo(work)
        try:
            ours, peer, floor = asyncio.run(_measure(work / "agents.yaml", work / "home", rounds))
        finally:
            fleet.terminate()
            fleet.wait(10)
    ms = [statistics.median(x) * 1000 for x in (ours, peer, floor)]
    row = Row(
        "mcp tool call vs send",
        "ms per call",
        ms[0],
        peer=ms[1],
        floor=ms[2],
        peer_name="switchboard send",
        floor_name="warm link",
        higher_is_better=False,
        goal=f"<= {GOAL}x send",
        met=ms[0] <= GOAL * ms[1],
        notes=[
            f"ours (MCP tools/call over stdio, server running) ms: {', '.join(f'{x * 1000:.1f}' for x in ours)}",
            f"peer (`switchboard send` process) ms: {', '.join(f'{x * 1000:.0f}' for x in peer)}",
            f"floor (in-process send on a warm link) ms: {', '.join(f'{x * 1000:.1f}' for x in floor)}",
        ],
    )
    return [row]


if __name__ == "__main__":
    run_standalone(main, "mcp_call")
