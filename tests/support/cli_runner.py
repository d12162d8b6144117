"""The command line run inside the test process: `main(argv)` with its own environment, stdin, stdout and stderr,
answered as the CompletedProcess a `python -m switchboard` subprocess gives.

A subprocess costs an interpreter start and every import (about 0.6 s of CPU each, hundreds of times per
suite); in process, a command costs only its own work. What only a process shows (signals, a reader that goes
away, the interpreter's exit) is tested with real subprocesses, where the tests say so.
"""

from __future__ import annotations

import contextlib
import faulthandler
import io
import os
import subprocess
import sys
import threading
from collections.abc import Iterator, Mapping
from pathlib import Path
from unittest import mock

from switchboard.cli import main


@contextlib.contextmanager
def _streams(stdin: str | None) -> Iterator[tuple[io.TextIOWrapper, io.TextIOWrapper]]:
    """stdin, stdout and stderr swapped for in-memory files with a `.buffer`, as a pipe's are."""
    new_in = io.TextIOWrapper(io.BytesIO((stdin or "").encode()), encoding="utf-8")
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="")
    err = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", newline="")
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin, sys.stdout, sys.stderr = new_in, out, err
    try:
        yield out, err
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    buffer = stream.buffer
    assert isinstance(buffer, io.BytesIO)
    return buffer.getvalue().decode("utf-8", errors="replace")


def run_cli_in_process(
    argv: list[str],
    env: Mapping[str, str],
    stdin: str | None = None,
    *,
    cwd: Path | str | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run `switchboard *argv` with exactly `env` as its environment (and `cwd` as the working directory); its
    exit code, stdout and stderr. The command runs in a thread of its own, as a subprocess would run beside the
    caller: its `asyncio.run` needs a thread with no event loop, and an async test has one. The caller waits, as
    `subprocess.run` makes it; after `timeout` seconds, every thread's stack is written to the real stderr and
    TimeoutExpired raised, so a hang names where it hangs."""
    codes: list[int] = []

    def command() -> None:
        try:
            codes.append(main(list(argv)))
        except SystemExit as exc:  # argparse's --help and --version leave this way
            codes.append(exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1))

    with (
        mock.patch.dict(os.environ, dict(env), clear=True),
        contextlib.chdir(cwd or os.getcwd()),
        _streams(stdin) as (out, err),
    ):
        thread = threading.Thread(target=command, name=f"switchboard {' '.join(argv[:2])}", daemon=True)
        thread.start()
        thread.join(timeout)
        if thread.is_alive():
            faulthandler.dump_traceback(file=sys.__stderr__)
            raise subprocess.TimeoutExpired(["switchboard", *argv], timeout)
        stdout, stderr = _text(out), _text(err)
    if not codes:
        raise AssertionError(f"switchboard {' '.join(argv)} raised past main(): {stderr}")
    return subprocess.CompletedProcess([sys.executable, "-m", "switchboard", *argv], codes[0], stdout, stderr)
