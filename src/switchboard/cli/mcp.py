"""`switchboard mcp`: the bridge to MCP hosts, over stdio or streamable HTTP. The `mcp` SDK is imported here, when
the command runs, so `switchboard --help` and every other command never load it."""

from __future__ import annotations

import importlib.util
import os
import secrets
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ..a2a.auth.credentials import is_loopback
from ..a2a.errors import UsageError
from ..paths import agents_file
from .output import warn

if TYPE_CHECKING:
    from .groups.mcp import McpOptions


async def serve_mcp(options: McpOptions) -> int:
    if importlib.util.find_spec("mcp") is None:
        raise UsageError(
            "switchboard mcp needs the MCP SDK, which is not installed", hint="pip install 'a2a-switchboard[mcp]'"
        )
    from ..mcp_bridge.agent_calls import CallBounds
    from ..mcp_bridge.agents_on_hand import AgentsOnHand
    from ..mcp_bridge.server import Bridge, log_to_stderr
    from ..mcp_bridge.serving import serve_http, serve_stdio
    from ..mcp_bridge.workflow_calls import WorkflowCalls

    path = Path(options.agents).expanduser() if options.agents else agents_file()
    if options.agents and not path.exists():
        raise UsageError(f"the agents file {path} does not exist", hint="Check the path given to --agents.")
    folders = [Path(f).expanduser() for f in options.workflows]
    for folder in folders:
        if not folder.exists():
            raise UsageError(
                f"the workflows folder {folder} does not exist", hint="Check the path given to --workflows."
            )
    token = _token(options) if options.http else ""
    log_to_stderr()
    bounds = CallBounds(work=options.wait)
    agents = AgentsOnHand(path)
    workflows = WorkflowCalls(folders, agents, bounds, None, allow_shell=options.allow_shell)
    for problem in workflows.problems:
        warn(f"not served: {problem}")
    if not agents.agents:  # a host shows this log: say why its tool list holds no agent
        where = "is empty" if path.exists() else "does not exist yet"
        warn(
            f"no agents: the agents file {path} {where}, so only the generic tools are served (add agents there, "
            "or pass --agents FILE; a change to the file is picked up while this runs)"
        )
    bridge = Bridge(agents, workflows, bounds)
    try:
        if not options.http:
            await serve_stdio(bridge)
            return 0
        if not is_loopback(options.host):
            warn(
                f"serving on {options.host}: anyone who reaches this address and has the token drives your agents with "
                "your credentials, over plain HTTP (unencrypted); keep to 127.0.0.1 unless you mean it"
            )

        def ready(url: str) -> None:
            print(f"switchboard mcp: {url}", flush=True)
            if not options.token_env:
                print(f"token: {token}  (send it as Authorization: Bearer ...)", flush=True)
            print("Ctrl+C stops", file=sys.stderr, flush=True)

        try:
            await serve_http(bridge, token, options.host, options.port, ready)
        except OSError as exc:
            raise UsageError(
                f"cannot serve on {options.host}:{options.port}: {exc.strerror or exc}",
                hint="Choose another --port (0 takes any free one).",
            ) from None
        return 0
    finally:
        await agents.aclose()


def _token(options: McpOptions) -> str:
    if not options.token_env:
        return secrets.token_urlsafe(32)
    value = os.environ.get(options.token_env, "")
    if len(value) < 16:
        raise UsageError(
            f"the variable {options.token_env} named by --token-env is unset or shorter than 16 characters",
            hint=f"export {options.token_env}=$(python -c 'import secrets; print(secrets.token_urlsafe(32))')",
        )
    return value
