"""`switchboard runs list|show|cancel`: workflow runs from the journals here, or (--temporal) from a Temporal
server. `runs list` stays synchronous and light: no event loop, no protocol model."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import Literal

from ..arguments import from_zero, positive_int, temporal_options

Output = Literal["text", "json"]
Status = Literal["running", "completed", "failed", "canceled", "awaiting-input", "interrupted"]


@dataclass(frozen=True)
class RunsListOptions:
    limit: int | None = None
    offset: int = 0
    status: Status | None = None
    workflow: str | None = None
    waiting: bool = False
    output: Output = "text"
    agents: str | None = None
    temporal: str | None = None
    namespace: str = "default"


@dataclass(frozen=True)
class RunsShowOptions:
    run_id: str
    records: bool = False
    output: Output = "text"
    agents: str | None = None
    temporal: str | None = None
    namespace: str = "default"


@dataclass(frozen=True)
class RunsCancelOptions:
    run_id: str
    output: Output = "text"
    agents: str | None = None
    temporal: str | None = None
    namespace: str = "default"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    runs = parser.add_subparsers(dest="subcommand", metavar="SUBCOMMAND")
    listing = runs.add_parser("list", help="the runs, newest first (from the run index beside the journals)")
    listing.add_argument("--limit", type=positive_int, metavar="N", help="only the newest N")
    listing.add_argument("--offset", type=from_zero, default=0, metavar="N", help="skip the newest N first")
    listing.add_argument(
        "--status",
        choices=("running", "completed", "failed", "canceled", "awaiting-input", "interrupted"),
        help="only runs in this state",
    )
    listing.add_argument("--workflow", metavar="NAME", help="only runs of this workflow")
    listing.add_argument("--waiting", action="store_true", help="only runs with a step waiting for input")
    listing.add_argument("-o", "--output", choices=("text", "json"), default="text")
    show = runs.add_parser("show", help="one run: every step's state, output, question")
    show.add_argument("run_id", metavar="RUN_ID", help="the run id (a unique prefix is enough)")
    show.add_argument("--records", action="store_true", help="print the journal's records as JSONL")
    show.add_argument("-o", "--output", choices=("text", "json"), default="text")
    cancel = runs.add_parser("cancel", help="cancel a run on Temporal (its steps' tasks are canceled at their agents)")
    cancel.add_argument("run_id", metavar="RUN_ID", help="the run id")
    cancel.add_argument("-o", "--output", choices=("text", "json"), default="text")
    for sub in (listing, show, cancel):
        sub.add_argument("--agents", metavar="FILE", help="the agents file (for the printed resume command)")
        temporal_options(sub)


def main(namespace: argparse.Namespace) -> int:
    from ..guard import guarded, no_subcommand, run_async
    from ..options import options_from

    if namespace.subcommand == "list":
        listing = options_from(RunsListOptions, namespace)
        if listing.temporal:
            from ..temporal import runs_list as list_on_temporal

            return run_async(list_on_temporal, listing)
        from ..runs import runs_list

        return guarded(lambda: runs_list(listing), listing)  # no event loop: asyncio is not even imported
    if namespace.subcommand == "show":
        show = options_from(RunsShowOptions, namespace)
        if show.temporal:
            from ..temporal import runs_show as show_on_temporal

            return run_async(show_on_temporal, show)
        from ..workflow import runs_show

        return run_async(runs_show, show)
    if namespace.subcommand == "cancel":
        from ..temporal import runs_cancel

        return run_async(runs_cancel, options_from(RunsCancelOptions, namespace))
    return no_subcommand("runs")
