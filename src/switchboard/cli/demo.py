"""`switchboard demo`: serve the demo fleet in the foreground, say what runs where, stop cleanly on Ctrl+C."""

from __future__ import annotations

import asyncio
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..a2a.errors import SwitchboardError, UsageError
from ..demo.defaults import (
    API_KEY_ENV,
    DEFAULT_API_KEY,
    DEFAULT_HOST,
    DEFAULT_TOKEN,
    TOKEN_ENV,
)
from ..safe_text import strip_controls
from .context import invocation
from .output import warn

if TYPE_CHECKING:
    from .groups.demo import DemoOptions


def print_startup(fleet: Any, out: TextIO) -> None:
    """The agents, the agents file and commands to try (fleet: a DemoFleet or a BackgroundFleet)."""
    width = max(len(a.name) for a in fleet.agents)
    url_width = max(len(a.url) for a in fleet.agents)
    print(f"a2a-switchboard demo: {len(fleet.agents)} agents are up.\n", file=out)
    for agent in fleet.agents:
        moved = f"  (port {agent.wanted_port} was taken)" if agent.wanted_port else ""
        print(f"  {agent.name:<{width}}  {agent.url:<{url_width}}  {agent.description}{moved}", file=out)
    _say_hidden(fleet)
    agents_file = shlex.quote(str(fleet.agents_file))
    sb = f"{invocation()} --agents {agents_file}"
    key = "" if os.environ.get(API_KEY_ENV) else f"{API_KEY_ENV}={DEFAULT_API_KEY} "
    token = "" if os.environ.get(TOKEN_ENV) else f"{TOKEN_ENV}={DEFAULT_TOKEN} "
    print(f"\nAgents file: {fleet.agents_file}\n", file=out)
    tries = [
        (f'{sb} send writer "a short story about tides" --stream', ""),
        (f'{sb} send interviewer "interview me"', "then answer with the Resume: line it prints"),
        (f'{sb} send researcher "quick: solar sails" --stream', ""),
        (f'{key}{sb} send gatekeeper "open the vault"', "then send sesame with its --task-id and --context-id"),
        (f'{token}{sb} send tasks "book a table"', ""),
        (f"{sb} card get legacy", "any agent's card says what to type"),
    ]
    print("Try, from another terminal:", file=out)
    for command, comment in tries:
        print(f"  {command}", file=out)
        if comment:  # on a line of its own: the commands are long, and a pasted `#` line is harmless
            print(f"    # {comment}", file=out)
    print("\nServing until Ctrl+C.", file=out, flush=True)


def _say_hidden(fleet: Any) -> None:
    """A warning for each demo agent whose name the person's own agents file uses too: there (in the TUI with
    --demo, in `switchboard web`) the file's entry is the one listed, and the demo's agent of that name is not."""
    from ..agents import load_agents
    from ..paths import agents_file

    own = agents_file()
    if not own.is_file() or own.resolve() == Path(fleet.agents_file).resolve():
        return
    try:
        names = {entry.name for entry in load_agents(own, env={}).agents}
    except SwitchboardError:
        return  # a broken agents file is said where it is used
    for agent in fleet.agents:
        if agent.name in names:
            warn(
                f"your agents file {own} also names {agent.name}: the TUI (switchboard --demo) lists that entry "
                f"and hides the demo's {agent.name}; the commands below use the demo's agents file, so they reach "
                "the demo's"
            )


def print_replay_startup(fleet: Any, source: str, firsts: dict[str, str], out: TextIO) -> None:
    """The replaying agents, their agents file, and the recorded messages to send them."""
    width = max(len(a.name) for a in fleet.agents)
    print(f"a2a-switchboard demo: replaying {source}, {len(fleet.agents)} agent(s) up.\n", file=out)
    for agent in fleet.agents:
        print(f"  {agent.name:<{width}}  {agent.url}  {agent.description}", file=out)
    print(f"\nAgents file: {fleet.agents_file}\n", file=out)
    sb = f"{invocation()} --agents {shlex.quote(str(fleet.agents_file))}"
    print("Each agent answers the recorded messages in order; try, from another terminal:", file=out)
    for agent in fleet.agents:
        print(f"  {sb} send {agent.name} {shlex.quote(_printable(firsts.get(agent.name)))} --stream", file=out)
    print("  (or open the TUI on that agents file)", file=out)
    print("\nServing until Ctrl+C.", file=out, flush=True)


def _printable(recorded: str | None) -> str:
    """A recorded message as a command's argument on the terminal: no escape sequence or control character (the
    recording may be someone else's), on one line, not too long to read; TEXT when nothing is left."""
    text = " ".join(strip_controls(recorded or "").split())
    return text if 0 < len(text) <= 200 else "TEXT"


def _replay_agents_file() -> Path:
    from ..paths import data_dir

    return data_dir() / "demo" / "replay-agents.yaml"


async def run_demo(options: DemoOptions) -> int:
    """Serve until SIGINT, SIGTERM or SIGHUP; then stop every server and exit 0."""
    from .stop_signals import stop_on_signals

    stop = asyncio.Event()
    with stop_on_signals(stop):
        return await _serve(options, stop)


async def _serve(options: DemoOptions, stop: asyncio.Event) -> int:
    from ..a2a.auth.credentials import is_loopback
    from ..demo.base import DemoSettings
    from ..demo.fleet import AGENTS, DemoFleet

    replay = options.replay
    agents = AGENTS
    if replay:
        from ..demo.replay import first_messages, replay_agents
        from .replay import read_recording

        source = Path(replay).expanduser()
        recording = read_recording(source)
        agents = replay_agents(recording, source, paced=options.pace == "original")
        if not agents:
            raise UsageError(
                f"{replay} holds no message sent to an agent: nothing to replay",
                hint="Record an exchange with `switchboard send AGENT TEXT --record FILE.json`.",
            )
    host = options.host or DEFAULT_HOST
    port = options.port
    agents_out = options.agents_out
    if agents_out and Path(agents_out).expanduser().is_dir():
        raise UsageError(f"--agents-out {agents_out} is a directory", hint="Give a file path, e.g. demo.yaml.")
    if not is_loopback(host):
        warn(f"serving the demo agents on {host}, not loopback: anyone who can reach this address can use them")
    fleet = DemoFleet(
        host,
        port,
        settings=DemoSettings(writer_pace_ms=options.writer_pace),
        agents_file=Path(agents_out).expanduser() if agents_out else (_replay_agents_file() if replay else None),
        log=lambda line: print(f"demo: {line}", file=sys.stderr, flush=True),
        agents=agents,
    )
    try:
        await fleet.start()
    except OSError as exc:  # an address not of this machine, an unwritable --agents-out: what was typed
        raise UsageError(
            f"cannot start the demo: {exc}",
            hint="Check --host (an address of this machine) and --agents-out (a writable file path).",
        ) from None
    except RuntimeError as exc:
        raise SwitchboardError(str(exc), hint="Run again; if it persists, try --port 0.") from None
    try:
        if replay:
            print_replay_startup(fleet, replay, first_messages(recording), sys.stdout)
        else:
            print_startup(fleet, sys.stdout)
        await stop.wait()
        print("\nStopping the demo agents ...", file=sys.stderr, flush=True)
    finally:
        await fleet.stop()
    print("Demo stopped.", file=sys.stderr, flush=True)
    return 0
