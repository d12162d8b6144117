"""`switchboard inbox`: everything waiting for a person (remembered conversation tasks re-read from their agents,
local runs, runs on Temporal), oldest first; `--dismiss ITEM` lets go of a remembered task."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Literal

from ..arguments import temporal_options

INBOX_EPILOG = """\
Each item has an id: answer it with `switchboard answer ID TEXT` (from any terminal; the TUI's inbox sees it go).
Runs on Temporal are listed when a server is given (--temporal, or `temporal:` in settings.yaml).

examples:
  switchboard inbox
  switchboard inbox -o json
  switchboard answer t3f9c2a1 "Ada"
"""


@dataclass(frozen=True)
class InboxOptions:
    output: Literal["text", "json"] = "text"
    agents: str | None = None
    temporal: str | None = None
    namespace: str = "default"
    dismiss: str | None = None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = INBOX_EPILOG
    parser.add_argument("-o", "--output", choices=("text", "json"), default="text", help="output format (default text)")
    parser.add_argument("--agents", metavar="FILE", help="the agents file (default: the one in the config dir)")
    parser.add_argument(
        "--dismiss",
        metavar="ITEM",
        help="let go of a remembered task (its agent no longer knows it, or cannot be reached); the task stays "
        "as it is at the agent",
    )
    temporal_options(parser)


def main(namespace: argparse.Namespace) -> int:
    from ..guard import run_async
    from ..inbox import inbox
    from ..options import options_from

    return run_async(inbox, options_from(InboxOptions, namespace))
