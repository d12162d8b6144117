"""Start and stop the reference A2A servers (tests/interop/agents/) as subprocesses."""

from __future__ import annotations

import atexit
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

AGENTS = Path(__file__).resolve().parent / "agents"
REPO = Path(__file__).resolve().parents[2]
KINDS = ("sdk13-v10", "sdk13-v03compat", "sdk03-native", "js-v10", "js-v03compat")
JS_AGENT = AGENTS / "js"
A2A03_PYTHON_ENV = "SWITCHBOARD_A2A03_PYTHON"
READY_TIMEOUT = 20.0
STOP_GRACE = 5.0

_running: set[RunningServer] = set()


class ServerStartError(RuntimeError):
    """A reference server could not be started."""


@dataclass(eq=False)
class RunningServer:
    kind: str
    url: str  # base URL, with trailing slash
    process: subprocess.Popen[str]
    api_key: str | None = None
    _stderr: IO[bytes] | None = field(default=None, repr=False)

    @property
    def wire_version(self) -> str:
        """The wire version a client choosing by this server's card speaks to it: "1.0" or "0.3"."""
        return "1.0" if self.kind.endswith("-v10") else "0.3"

    def stop(self) -> None:
        """Terminate, wait, and kill if it has not exited after STOP_GRACE seconds."""
        _running.discard(self)
        _end(self.process)
        if self._stderr is not None:
            self._stderr.close()


def a2a03_python() -> str:
    """The interpreter of the venv holding a2a-sdk 0.3.26 (`make test` builds it)."""
    python = os.environ.get(A2A03_PYTHON_ENV) or str(REPO / ".venv-a2a03" / "bin" / "python")
    if not os.access(python, os.X_OK):
        raise ServerStartError(
            f"No Python with a2a-sdk 0.3.26 at {python}. Run `make test` (it builds .venv-a2a03), "
            f"or point {A2A03_PYTHON_ENV} at such an interpreter."
        )
    return python


def node() -> str:
    """The node that runs the @a2a-js/sdk server, with that server's packages installed (`make test` does it)."""
    found = shutil.which("node")
    if found is None:
        raise ServerStartError("No `node` on PATH: the JavaScript reference server needs Node.js 20 or later.")
    if not (JS_AGENT / "node_modules" / "@a2a-js" / "sdk").is_dir():
        raise ServerStartError(f"@a2a-js/sdk is not installed in {JS_AGENT}. Run `make test` (it runs `npm ci` there).")
    return found


def command(kind: str, api_key: str | None = None) -> list[str]:
    if kind == "sdk03-native":
        argv = [a2a03_python(), str(AGENTS / "sdk03_server.py")]
    elif kind in ("sdk13-v10", "sdk13-v03compat"):
        argv = [sys.executable, str(AGENTS / "sdk13_server.py"), "--mode", kind.removeprefix("sdk13-")]
    elif kind in ("js-v10", "js-v03compat"):
        argv = [node(), str(JS_AGENT / "server.mjs"), "--mode", kind.removeprefix("js-")]
    else:
        raise ValueError(f"unknown server kind {kind!r}; expected one of {KINDS}")
    argv += ["--port", "0", "--exit-on-stdin-eof"]
    return argv + (["--api-key", api_key] if api_key else [])


def start_server(kind: str, api_key: str | None = None, timeout: float = READY_TIMEOUT) -> RunningServer:
    """Launch a reference server on a free port and wait for its READY line."""
    # A file, not a pipe: nobody drains it while the server runs. RunningServer.stop() closes it.
    stderr = tempfile.TemporaryFile()  # noqa: SIM115
    process = subprocess.Popen(
        command(kind, api_key),
        stdin=subprocess.PIPE,  # the server exits when this closes, even if we die without cleanup
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        cwd=AGENTS,
    )
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_pump, args=(process.stdout, lines), daemon=True).start()
    try:
        url = _wait_ready(lines, timeout)
    except ServerStartError as error:
        _end(process)
        stderr.seek(0)
        output = stderr.read().decode(errors="replace").strip()
        stderr.close()
        raise ServerStartError(f"{kind} server: {error}\n--- its stderr ---\n{output}") from None
    server = RunningServer(kind, url, process, api_key, stderr)
    _running.add(server)
    return server


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    # Keeps reading after READY, so the server can never block on a full stdout pipe.
    for line in stream:
        lines.put(line)
    lines.put(None)


def _wait_ready(lines: queue.Queue[str | None], timeout: float) -> str:
    deadline = time.monotonic() + timeout
    try:
        while (line := lines.get(timeout=max(0.0, deadline - time.monotonic()))) is not None:
            if line.startswith("READY "):
                return line.split()[1]
    except queue.Empty:
        raise ServerStartError(f"no READY line within {timeout:.0f} s") from None
    raise ServerStartError("exited before printing READY")


def _end(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(STOP_GRACE)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    if process.stdin is not None:
        process.stdin.close()


@atexit.register
def _stop_leftovers() -> None:
    for server in list(_running):
        server.stop()
