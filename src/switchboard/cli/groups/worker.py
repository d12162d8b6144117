"""`switchboard worker --temporal HOST:PORT`: runs on a Temporal server served here, their workflow code and steps."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from ..arguments import positive_int, temporal_options


@dataclass(frozen=True)
class WorkerOptions:
    temporal: str | None = None
    namespace: str = "default"
    task_queue: str = "switchboard"
    allow_shell: bool = False
    max_concurrent: int = 100


def add_arguments(worker: argparse.ArgumentParser) -> None:
    worker.description = (
        "A Temporal worker: runs started with `run --temporal` are done by such workers, wherever "
        "they run. Credentials come from this process's environment, as the agents file names them."
    )
    temporal_options(worker, queue=True)
    worker.add_argument("--allow-shell", action="store_true", help="also run the shell steps of workflows, here")
    worker.add_argument(
        "--max-concurrent", type=positive_int, default=100, metavar="N", help="steps at once (default 100)"
    )
    worker.add_argument("--agents", metavar="FILE", help="unused: agents come with each run, named as in its file")


def main(namespace: argparse.Namespace) -> int:
    from ..guard import run_async
    from ..options import options_from
    from ..temporal import worker

    return run_async(worker, options_from(WorkerOptions, namespace))
