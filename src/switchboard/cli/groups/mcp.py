"""`switchboard mcp`: the agents and workflows as tools for MCP hosts (Claude Code, Claude Desktop, Cursor, VS Code)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

from ..arguments import port, seconds

MCP_EPILOG = """\
Over stdio (what a host launches; stdout is the protocol's, the log goes to stderr), or with --http over
streamable HTTP at http://HOST:PORT/mcp behind a bearer token (printed at start, or read from --token-env) and an
Origin check. Each agent of the agents file is a tool (ask_NAME), each workflow one too (run_NAME), plus
list_agents, read_card, get_task, cancel_task, continue_task, list_runs, continue_run. Credentials stay in this
process. docs/mcp.md has the configuration to paste into each host.

examples:
  switchboard mcp
  switchboard mcp --agents ~/agents.yaml --workflows examples/workflows
  switchboard mcp --http --port 8808
"""


@dataclass(frozen=True)
class McpOptions:
    agents: str | None = None
    workflows: list[str] = field(default_factory=list)
    http: bool = False
    host: str = "127.0.0.1"
    port: int = 8808
    token_env: str | None = None
    wait: float = 25.0
    allow_shell: bool = False


def add_arguments(mcp: argparse.ArgumentParser) -> None:
    mcp.description = "Serve the agents file's agents and workflows as MCP tools, over stdio or streamable HTTP."
    mcp.epilog = MCP_EPILOG
    mcp.add_argument("--agents", metavar="FILE", help="the agents file (default: the one in the config dir)")
    mcp.add_argument(
        "--workflows", metavar="DIR", nargs="+", action="extend", default=[],
        help="folders (or files) of workflows to serve as tools",
    )  # fmt: skip
    mcp.add_argument("--http", action="store_true", help="serve streamable HTTP instead of stdio")
    mcp.add_argument("--host", default="127.0.0.1", help="with --http: address (default 127.0.0.1; others warn)")
    mcp.add_argument("--port", type=port, default=8808, metavar="N", help="with --http: port (default 8808; 0 = any)")
    mcp.add_argument("--token-env", metavar="VAR", help="with --http: the bearer token callers need is in $VAR")
    mcp.add_argument(
        "--wait", type=seconds, default=25.0, metavar="SECONDS",
        help="longest a call holds the host before handing back the task or run by id (default 25)",
    )  # fmt: skip
    mcp.add_argument("--allow-shell", action="store_true", help="serve workflows with shell steps too")


def main(namespace: argparse.Namespace) -> int:
    from ..guard import run_async
    from ..mcp import serve_mcp
    from ..options import options_from

    return run_async(serve_mcp, options_from(McpOptions, namespace))
