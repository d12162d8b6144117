"""`switchboard serve FILE.yaml...`: workflows served as A2A agents until Ctrl+C."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field

from ..arguments import positive_int, serve_port

SERVE_EPILOG = """\
Each workflow is served under its own path on one port: http://HOST:PORT/NAME/ (card at
/NAME/.well-known/agent-card.json), speaking JSON-RPC 1.0 and 0.3 and HTTP+JSON (under /NAME/rest).
A message starts a run: its inputs from a data part {"inputs": {...}} (or a bare object; non-string values
arrive as JSON text), or from the text when the workflow has one required input. Missing or unknown inputs
reject the task, naming them. A step's question makes the task input-required; the next message answers it.
The task id is the run id: `switchboard runs show ID` shows it. Runs in flight when the server stops (or is
killed) go on from their journals at the next start.

examples:
  switchboard serve examples/workflows/briefing.yaml
  switchboard serve examples/workflows/*.yaml --port 0 --max-runs 16
  API_KEY=s3cret switchboard serve examples/workflows/interview.yaml --api-key-env API_KEY
  switchboard send http://127.0.0.1:47180/briefing/ "solar sails" --stream
"""


@dataclass(frozen=True)
class ServeOptions:
    files: list[str] = field(default_factory=list)
    host: str = "127.0.0.1"
    port: int = 47180
    api_key_env: str | None = None
    allow_shell: bool = False
    max_runs: int = 64
    agents: str | None = None


def add_arguments(serve: argparse.ArgumentParser) -> None:
    serve.description = (
        "Serve each workflow file as an A2A agent (on the official a2a-sdk server classes): a "
        "message starts a run, its steps stream as the task, questions pass through to the caller."
    )
    serve.epilog = SERVE_EPILOG
    serve.add_argument("files", nargs="+", metavar="FILE.yaml", help="the workflow files")
    serve.add_argument("--host", default="127.0.0.1", help="address to serve on (default 127.0.0.1, loopback)")
    serve.add_argument("--port", type=serve_port, default=47180, metavar="N", help="port (default 47180; 0 = any free)")
    serve.add_argument(
        "--api-key-env", metavar="VAR", help="callers must send the key in this variable (X-API-Key), else 401"
    )
    serve.add_argument(
        "--allow-shell", action="store_true", help="serve workflows with shell steps (callers' inputs reach a shell)"
    )
    serve.add_argument(
        "--max-runs", type=positive_int, default=64, metavar="N", help="runs in flight at once (default 64)"
    )
    serve.add_argument("--agents", metavar="FILE", help="the agents file (default: the config dir's, then the demo's)")


def main(namespace: argparse.Namespace) -> int:
    from ..guard import run_async
    from ..options import options_from
    from ..serve import serve

    return run_async(serve, options_from(ServeOptions, namespace), server=True)
