"""`switchboard run FILE`: a workflow run here (journaled), or with --temporal on a Temporal server; `--resume`
continues one."""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Literal

from ..arguments import positive_int, temporal_options

RUN_EPILOG = """\
exit codes: 0 the run ended (completed, failed, canceled or awaiting input: the state is in the output;
with --exit-status, only completed), 1 failure (or, with --exit-status, a run that did not complete),
2 usage or an invalid workflow file (every problem listed with its line and a fix), 4 credentials missing.

examples:
  switchboard --agents demo.yaml run examples/workflows/briefing.yaml -i topic="solar sails"
  switchboard --agents demo.yaml run examples/workflows/interview.yaml --answer interview=Ada --answer interview=1
  switchboard run --resume 20260315T101500-3f9c2a --answer interview=Ada
  switchboard run examples/workflows/briefing.yaml --validate
  switchboard runs list
"""


@dataclass(frozen=True)
class RunOptions:
    file: str | None = None
    input: list[str] = field(default_factory=list)
    answer: list[str] = field(default_factory=list)
    resume: str | None = None
    workflow: str | None = None
    stream: bool = False
    validate: bool = False
    exit_status: bool = False
    max_concurrency: int = 8
    output: Literal["text", "json"] = "text"
    agents: str | None = None
    verbose: bool = False
    temporal: str | None = None
    namespace: str = "default"
    task_queue: str = "switchboard"
    question_id: str | None = None
    follow: bool = False


def add_arguments(run: argparse.ArgumentParser) -> None:
    run.description = (
        "Run a workflow: its steps delegated to A2A agents (and shell commands) in dependency order, "
        "every event journaled so the run survives a crash."
    )
    run.epilog = RUN_EPILOG
    run.add_argument("file", nargs="?", metavar="FILE", help="the workflow file (optional with --resume)")
    run.add_argument("-i", "--input", action="append", default=[], metavar="NAME=VALUE", help="an input, repeatable")
    run.add_argument(
        "--answer",
        action="append",
        default=[],
        metavar="STEP=TEXT",
        help="answer a step's input-required or auth-required question; repeatable, used in order per step",
    )
    run.add_argument("--resume", metavar="RUN_ID", help="continue a run that stopped, crashed or waits for input")
    run.add_argument("--workflow", metavar="NAME", help="which workflow of a file that holds several (relay layout)")
    run.add_argument("--stream", action="store_true", help="print every event as it happens (JSONL with -o json)")
    run.add_argument("--validate", action="store_true", help="check the file and show the plan; run nothing")
    run.add_argument(
        "--exit-status",
        action="store_true",
        help="exit 1 when the run ends other than completed (failed, canceled, awaiting input): for CI scripts",
    )
    run.add_argument(
        "--max-concurrency", type=positive_int, default=8, metavar="N", help="steps running at once (default 8)"
    )
    run.add_argument("-o", "--output", choices=("text", "json"), default="text", help="output format (default text)")
    run.add_argument("--agents", metavar="FILE", help="the agents file (default: the one in the config dir)")
    run.add_argument("--verbose", action="store_true", help="show every request, response and SSE frame on stderr")
    temporal_options(run, queue=True)
    run.add_argument(
        "--question-id",
        metavar="ID",
        help="with --temporal --resume: answer this question only (its id from `runs show`), never a later one",
    )
    run.add_argument(
        "--follow",
        action="store_true",
        help="with --temporal: show the run's progress until it ends or waits for input",
    )


def main(namespace: argparse.Namespace) -> int:
    from ..guard import run_async
    from ..options import options_from

    options = options_from(RunOptions, namespace)
    if options.temporal:
        from ..temporal import run as run_on_temporal

        return run_async(run_on_temporal, options)
    from ..workflow import run

    return run_async(run, options)
