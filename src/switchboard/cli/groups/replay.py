"""`switchboard replay FILE`: a recording played again in the TUI, read-only."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Literal

REPLAY_EPILOG = """\
The recording (a JSON export: `send --record FILE.json`, a conversation exported from the TUI with ctrl+o, or
`export RUN --out FILE.json`) is served by replay agents on 127.0.0.1 and its messages sent again through the TUI's
conversation tabs: every turn drawn as it came, chunk for chunk. Nothing can be typed. To serve a recording to
another client instead, use `switchboard demo --replay FILE`.

examples:
  switchboard replay tides.json
  switchboard replay interview.json --pace original
"""


@dataclass(frozen=True)
class ReplayOptions:
    file: str
    pace: Literal["instant", "original"] = "instant"


def add_arguments(replay: argparse.ArgumentParser) -> None:
    replay.epilog = REPLAY_EPILOG
    replay.add_argument("file", metavar="FILE", help="the recording (a JSON export)")
    replay.add_argument(
        "--pace",
        choices=("instant", "original"),
        default="instant",
        help="instant (default), or the recorded gaps between events and messages",
    )


def main(namespace: argparse.Namespace) -> int:
    from ..guard import run_async
    from ..options import options_from
    from ..replay import replay

    return run_async(replay, options_from(ReplayOptions, namespace))
