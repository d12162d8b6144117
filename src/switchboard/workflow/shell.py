"""Shell steps: one command in /bin/sh, its stdout the step's output, ended cleanly on cancel or timeout.

The command runs in a session of its own, so ending it ends whatever it started: SIGTERM to the whole
process group, then SIGKILL if it is still there after a grace period.

Values (shell_script.py) reach the command outside its source: each in the process's environment, or, when it
is too large for one environment string (Linux caps one at 128 KiB), in a private file that a fixed first line
of ours reads into a shell variable (not exported), byte for byte; the file is removed when the command ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

GRACE = 3.0  # seconds between SIGTERM and SIGKILL
MAX_OUTPUT = 4 * 1024 * 1024  # bytes of stdout kept; the rest is dropped with a note
SHELL = "/bin/sh"
MAX_ENV_VALUE = 32 * 1024  # bytes of one value passed in the environment; a larger one goes through a file
MAX_ENV_TOTAL = 512 * 1024  # bytes of values in the environment in all (the kernel's limit holds env and args)


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
    values: dict[str, str] | None = None,
    shell: str = SHELL,
) -> ShellResult:
    """Run `command` in `shell -c`, with `values` (name -> text) as variables of its environment.

    `on_line(stream, text)` sees each line as it comes. TimeoutError after `timeout` s. Cancelling the caller
    (or the timeout) terminates the command's process group before this returns.
    """
    with _delivered(values or {}) as (prelude, extra):
        return await _run(prelude + command, cwd, {**env, **extra}, timeout, on_line, shell)


def value_bytes(value: str) -> bytes:
    """The bytes a value arrives as: UTF-8 (undecodable bytes kept, as a file name is), no NUL (an environment
    string cannot hold one), and a lone surrogate (JSON can carry one, UTF-8 cannot) as U+FFFD."""
    value = value.replace("\0", "")
    try:
        return value.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        kept = "".join(c if not 0xD800 <= ord(c) <= 0xDFFF or 0xDC80 <= ord(c) <= 0xDCFF else "\ufffd" for c in value)
        return kept.encode("utf-8", "surrogateescape")


@contextlib.contextmanager
def _delivered(values: dict[str, str]) -> Iterator[tuple[str, dict[str, str]]]:
    """The environment entries for `values`, and a first line that reads the large ones from private files."""
    extra: dict[str, str] = {}
    large: dict[str, bytes] = {}
    total = 0
    for name, value in values.items():
        data = value_bytes(value)
        if len(data) <= MAX_ENV_VALUE and total + len(data) <= MAX_ENV_TOTAL:
            extra[name] = data.decode("utf-8", "surrogateescape")  # encoded back to exactly `data` by exec
            total += len(data)
        else:
            large[name] = data
    if not large:
        yield "", extra
        return
    folder = tempfile.mkdtemp(prefix="switchboard-values-")  # 0700: only this user reads the values
    try:
        reads = []
        for n, (name, data) in enumerate(large.items()):
            path = os.path.join(folder, str(n))
            descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(descriptor, "wb") as file:
                file.write(data)
            extra[f"{name}_file"] = path  # lower case: no generated name has any
            # $(...) drops trailing newlines: a final "." keeps them, and is taken off again. Not exported: a
            # variable over the kernel's limit in the environment would stop every command from starting.
            reads.append(f'{name}=$(cat -- "${name}_file"; printf .); {name}=${{{name}%.}}')
        yield "; ".join(reads) + "\n", extra
    finally:
        shutil.rmtree(folder, ignore_errors=True)


async def _run(
    command: str,
    cwd: Path,
    env: dict[str, str],
    timeout: float | None,
    on_line: Callable[[str, str], None],
    shell: str,
) -> ShellResult:
    process = await asyncio.create_subprocess_exec(
        shell,
        "-c",
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
