"""Shell steps: one command in /bin/sh, its stdout the step's output, ended cleanly on cancel or timeout.

The command runs in a session of its own, so ending it ends whatever it started: SIGTERM to the whole
process group, then SIGKILL if it is still there after a grace period.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

GRACE = 3.0  # seconds between SIGTERM and SIGKILL
MAX_OUTPUT = 4 * 1024 * 1024  # bytes of stdout kept; the rest is dropped with a note


@dataclass
class ShellResult:
    exit_code: int
    stdout: str
    stderr: str


async def run_command(
    command: str,
    *,
    cwd: Path,
    env: dict[str, str],
    timeout: float | None,
    on_line: Callable[[str, str], None],
) -> ShellResult:
    """Run `command`; `on_line(stream, text)` sees each line as it comes. TimeoutError after `timeout` s.

    Cancelling the caller (or the timeout) terminates the command's process group before this returns.
    """
    process = await asyncio.create_subprocess_shell(
        command,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=str(cwd),
        env=env,
        start_new_session=True,
    )
    try:
        async with asyncio.timeout(timeout):
            stdout, stderr = await asyncio.gather(
                _read(process.stdout, "stdout", on_line), _read(process.stderr, "stderr", on_line)
            )
            code = await process.wait()
    except BaseException:
        await terminate(process)
        raise
    return ShellResult(code, stdout, stderr)


async def _read(stream: asyncio.StreamReader | None, name: str, on_line: Callable[[str, str], None]) -> str:
    if stream is None:
        return ""
    kept: list[bytes] = []
    size = 0
    while True:
        line = await stream.readline()
        if not line:
            break
        if size < MAX_OUTPUT:
            kept.append(line[: MAX_OUTPUT - size])
            size += len(kept[-1])
        on_line(name, line.decode("utf-8", errors="replace").rstrip("\n"))
    text = b"".join(kept).decode("utf-8", errors="replace")
    if size >= MAX_OUTPUT:
        text += f"\n[output truncated at {MAX_OUTPUT} bytes]"
    return text


async def terminate(process: asyncio.subprocess.Process) -> None:
    """SIGTERM the process group, then SIGKILL after GRACE seconds."""
    if process.returncode is not None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        await asyncio.wait_for(asyncio.shield(process.wait()), GRACE)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
