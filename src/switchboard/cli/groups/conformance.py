"""`switchboard conformance AGENT`: an agent probed with the scenarios a client relies on, pass/warn/fail each."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from ..arguments import Connection, connection_options

CONFORMANCE_EPILOG = """\
Probes the agent over every binding and protocol version its card offers that switchboard speaks (JSON-RPC and
HTTP+JSON, 1.0 and 0.3): card and lint, send, stream, get, list, subscribe, cancel, an unknown task, the extended
card, and whether what the card declares is answered as declared. The probe sends a short text message and
cancels the task it starts. Each check is pass, warn, fail or skip; a warning or failure names the section of the
A2A specification it concerns. --timeout bounds each operation (default 20 s).

exit codes: 0 no check failed, 1 a check failed, 2 usage, 3 unreachable / no card.

examples:
  switchboard conformance http://127.0.0.1:9101
  switchboard conformance writer -o json
  switchboard conformance http://old.example/ --against http://new.example/
"""


@dataclass(frozen=True, kw_only=True)
class ConformanceOptions(Connection):
    agent: str
    against: str | None = None


def add_arguments(conformance: argparse.ArgumentParser) -> None:
    conformance.epilog = CONFORMANCE_EPILOG
    conformance.add_argument("agent", metavar="AGENT", help="the agent (URL, host:port, card, or agents-file name)")
    conformance.add_argument(
        "--against", metavar="CANDIDATE", help="probe this agent too and list the scenarios whose result changed"
    )
    connection_options(conformance)


def main(namespace: argparse.Namespace) -> int:
    from ..conformance import conformance
    from ..guard import run_async
    from ..options import options_from

    return run_async(conformance, options_from(ConformanceOptions, namespace))
