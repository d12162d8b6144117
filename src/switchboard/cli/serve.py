"""`switchboard serve FILE.yaml ...`: each workflow as an A2A agent, until Ctrl+C.

Agent names resolve through --agents, else the agents file in the config dir, with the demo fleet's agents
file (written by `switchboard demo` or `make run`) for the names it lacks, so a fresh clone serves the
examples while the demo runs.
"""

from __future__ import annotations

import asyncio
import json
import os
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from ..a2a.errors import SwitchboardError, UsageError
from ..agents import AgentsFile, load_agents
from ..safe_text import strip_controls
from .context import invocation, registry_of
from .output import warn

if TYPE_CHECKING:
    from .groups.serve import ServeOptions


def serve_agents(options: ServeOptions) -> AgentsFile:
    """--agents, else the default agents file plus the demo fleet's for names it does not have."""
    registry = registry_of(options)
    if options.agents:
        return registry
    from ..demo.fleet import default_agents_file

    demo_file = default_agents_file()
    if not demo_file.exists():
        return registry
    demo = load_agents(demo_file)
    extra = [entry for entry in demo.agents if registry.find(entry.name) is None]
    return AgentsFile(registry.path, registry.agents + extra, registry.warnings)


def load_served(options: ServeOptions) -> list[Any]:
    """Every file loaded and checked; shell steps refused without --allow-shell."""
    from ..workflow.loader import load_workflow

    agents = serve_agents(options)
    workflows = []
    for file in options.files:
        workflow = load_workflow(Path(file), agents)
        shell = [s.name for s in workflow.steps if s.type == "shell"]
        if shell and not options.allow_shell:
            names = ", ".join(shell)
            raise UsageError(
                f"{file} has shell steps ({names}): served, a caller's inputs would reach a shell on this machine",
                hint="Serve it only to callers you trust, with --allow-shell; or serve a workflow without shell steps.",
            )
        for text in workflow.warnings:
            warn(text)
        workflows.append(workflow)
    return workflows


def api_key_of(options: ServeOptions) -> str | None:
    if not options.api_key_env:
        return None
    value = os.environ.get(options.api_key_env)
    if not value:
        raise UsageError(
            f"--api-key-env {options.api_key_env}: the variable is not set",
            hint=f"Set it to the key callers must send: export {options.api_key_env}=...",
        )
    return value


def print_startup(server: Any, out: TextIO, options: ServeOptions) -> None:
    count = len(server.agents)
    print(f"a2a-switchboard serve: {count} workflow{'s' if count != 1 else ''} as A2A agents.\n", file=out)
    width = max(len(a.name) for a in server.agents)
    for agent in server.agents:
        print(f"  {strip_controls(agent.name):<{width}}  {agent.url}", file=out)
        print(f"  {'':<{width}}  card: {agent.card_url}", file=out)
    if server.resumed:
        print(f"\nResumed from their journals: {', '.join(server.resumed)}", file=out)
    print(
        f"\nRuns are journaled in {server.journal_dir} (switchboard runs list, and the TUI's Workflows tab).", file=out
    )
    first = server.agents[0]
    key = f" --api-key-env {shlex.quote(options.api_key_env)}" if options.api_key_env else ""
    print("Try, from another terminal:", file=out)
    print(f"  {invocation()} card get {first.url}", file=out)
    print(f"  {invocation()} send {first.url}{key} --stream {first_message(first.workflow)}", file=out)
    print("\nServing until Ctrl+C.", file=out, flush=True)


def first_message(workflow: Any) -> str:
    """What `send` gives to start a run of `workflow`, quoted for a shell: any text when it requires no input (the
    defaults apply), the one required input as text, else a data part naming the required inputs."""
    from ..serve.card import required_inputs, text_input

    names = required_inputs(workflow)
    if not names:
        return shlex.quote("go")
    single = text_input(workflow)
    if single:
        return shlex.quote(f"<{single}>")
    data = json.dumps({"inputs": {name: f"<{name}>" for name in names}}, ensure_ascii=False)
    return f"--data {shlex.quote(data)}"


async def serve(options: ServeOptions) -> int:
    """Serve until SIGINT, SIGTERM or SIGHUP; then stop every run where it is (it resumes at the next start)."""
    # The SDK wraps every handler call in an OpenTelemetry span, a cost per event even with no exporter set up;
    # it is off unless asked for (OTEL_INSTRUMENTATION_A2A_SDK_ENABLED=true). Read when a2a is first imported.
    os.environ.setdefault("OTEL_INSTRUMENTATION_A2A_SDK_ENABLED", "false")
    from ..a2a.auth.credentials import is_loopback
    from ..serve.server import WorkflowServer

    workflows = load_served(options)
    api_key = api_key_of(options)
    if not is_loopback(options.host):
        warn(f"serving on {options.host}, not loopback: anyone who can reach this address can start runs")
        if api_key is None:
            warn("and no --api-key-env is set: every caller is let in")
    server = WorkflowServer(
        workflows,
        host=options.host,
        port=options.port,
        api_key=api_key,
        max_runs=options.max_runs,
        log=lambda line: print(f"serve: {strip_controls(line)}", file=sys.stderr, flush=True),
    )
    from .stop_signals import stop_on_signals

    stop = asyncio.Event()
    with stop_on_signals(stop):
        try:
            try:
                await server.start()
            except OSError as exc:
                raise SwitchboardError(
                    f"cannot serve on {options.host}:{options.port}: {exc.strerror or exc}",
                    hint="Another process may hold the port: pick another with --port (0 = any free port).",
                ) from None
            print_startup(server, sys.stdout, options)
            await stop.wait()
            print("\nStopping: runs stop where they are and go on at the next start ...", file=sys.stderr, flush=True)
        finally:
            await server.stop()
    print("Stopped.", file=sys.stderr, flush=True)
    return 0
