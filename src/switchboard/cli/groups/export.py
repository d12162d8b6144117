"""`switchboard export RUN_ID`: a workflow run, from its journal, as Markdown, JSON or HTML."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Literal

EXPORT_EPILOG = """\
formats: markdown (readable; inline files are written beside it, in NAME.files/), json (every exchange in
the protocol's v1.0 shapes with ids and times: enough to replay it), html (one self-contained page that loads
nothing from the network). Secrets are redacted in all of them. The wire's HAR archive comes from the TUI's
wire view, or from `send --record FILE.har`.

examples:
  switchboard export 20260315T101500-3f9c2a --out briefing.md
  switchboard export 20260315T101500 --format json > run.json
  switchboard send writer "a poem" --record poem.html
"""


@dataclass(frozen=True)
class ExportOptions:
    run_id: str
    format: Literal["markdown", "json", "html"] | None = None
    out: str | None = None
    agents: str | None = None


def add_arguments(export: argparse.ArgumentParser) -> None:
    export.description = "Export a run: every step's messages, states, questions, answers and artifacts."
    export.epilog = EXPORT_EPILOG
    export.add_argument("run_id", metavar="RUN_ID", help="the run id (a unique prefix is enough)")
    export.add_argument("--format", choices=("markdown", "json", "html"), help="default: from --out, else markdown")
    export.add_argument("--out", metavar="FILE", help="write here (default: stdout)")
    export.add_argument("--agents", metavar="FILE", help="the agents file (for the agents' URLs and secrets)")


def main(namespace: argparse.Namespace) -> int:
    from ..export import export_run
    from ..guard import run_async
    from ..options import options_from

    return run_async(export_run, options_from(ExportOptions, namespace))
