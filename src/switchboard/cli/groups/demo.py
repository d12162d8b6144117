"""`switchboard demo`: the demo agent fleet served on 127.0.0.1 until Ctrl+C (also what `switchboard --demo` serves
where there is no terminal)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Literal

from ...demo.defaults import API_KEY_ENV, DEFAULT_FIRST_PORT, DEFAULT_HOST, DEFAULT_WRITER_PACE_MS, TOKEN_ENV
from ..arguments import non_negative_int, port

DEMO_EPILOG = f"""\
agents: echo, writer, interviewer, researcher, gatekeeper, flaky, legacy, tasks (ports {DEFAULT_FIRST_PORT}.. in
that order; an agent whose port is taken gets a free one). gatekeeper's API key is ${API_KEY_ENV}
(default demo-key), the tasks agent's bearer token ${TOKEN_ENV} (default demo-token).

examples:
  switchboard demo
  switchboard demo --port 0 --agents-out /tmp/demo-agents.yaml
  switchboard --agents /tmp/demo-agents.yaml send writer "a short story about tides" --stream
  switchboard send writer "tides" --stream --record tides.json    (then, offline:)
  switchboard demo --replay tides.json --port 0
"""


@dataclass(frozen=True)
class DemoOptions:
    port: int = DEFAULT_FIRST_PORT
    host: str = DEFAULT_HOST
    writer_pace: int = DEFAULT_WRITER_PACE_MS
    agents_out: str | None = None
    replay: str | None = None
    pace: Literal["original", "instant"] = "original"


def add_arguments(demo: argparse.ArgumentParser) -> None:
    demo.description = (
        "Serve eight demo agents (real A2A servers on the official SDK, plus one REST task API "
        "agent), each on its own port, write an agents file for them, and print commands to try."
    )
    demo.epilog = DEMO_EPILOG
    demo.add_argument(
        "--port",
        type=port,
        default=DEFAULT_FIRST_PORT,
        metavar="N",
        help=f"first port of the range, one port per agent (default {DEFAULT_FIRST_PORT}; 0 = any free ports)",
    )
    demo.add_argument(
        "--host", default=DEFAULT_HOST, help=f"address to serve on (default {DEFAULT_HOST}; others get a warning)"
    )
    demo.add_argument(
        "--writer-pace",
        type=non_negative_int,
        default=DEFAULT_WRITER_PACE_MS,
        metavar="MS",
        help=f"milliseconds between the writer's chunks (default {DEFAULT_WRITER_PACE_MS})",
    )
    demo.add_argument(
        "--agents-out", metavar="FILE", help="where to write the agents file (default: DATA_DIR/demo/agents.yaml)"
    )
    demo.add_argument(
        "--replay",
        metavar="FILE",
        help="serve a recording (a JSON export, `send --record FILE.json`) instead: its agents answer as recorded",
    )
    demo.add_argument(
        "--pace",
        choices=("original", "instant"),
        default="original",
        help="with --replay: the recorded gaps between events (default), or none",
    )


def main(namespace: argparse.Namespace) -> int:
    from ..options import options_from

    return serve_demo(options_from(DemoOptions, namespace))


def serve_demo(options: DemoOptions) -> int:
    from ..demo import run_demo
    from ..guard import run_async

    return run_async(run_demo, options, server=True)
