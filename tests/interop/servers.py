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


@dataclass(frozen=True)
class Kind:
    """A reference server and the interface its card leads a client to: stack, --mode, binding, wire version."""

    stack: str  # sdk13 (a2a-sdk 1.3), sdk03 (a2a-sdk 0.3.26), js (@a2a-js/sdk)
    mode: str
    binding: str  # JSONRPC, HTTP+JSON or GRPC: what a client choosing by the card speaks
    wire_version: str  # "1.0" or "0.3"
    path: str = ""  # where that interface is, under the base URL


SERVER_KINDS = {
    "sdk13-v10": Kind("sdk13", "v10", "JSONRPC", "1.0"),
    "sdk13-v03compat": Kind("sdk13", "v03compat", "JSONRPC", "0.3"),
    "sdk03-native": Kind("sdk03", "native", "JSONRPC", "0.3"),
    "js-v10": Kind("js", "v10", "JSONRPC", "1.0"),
    "js-v03compat": Kind("js", "v03compat", "JSONRPC", "0.3"),
    # The same servers with cards that list HTTP+JSON first (js) or only (the others): the matrix over REST.
    "sdk13-rest": Kind("sdk13", "rest", "HTTP+JSON", "1.0", "rest"),
    "sdk13-v03rest": Kind("sdk13", "v03rest", "HTTP+JSON", "0.3", "rest"),
    "sdk03-rest": Kind("sdk03", "rest", "HTTP+JSON", "0.3"),
    "js-rest": Kind("js", "rest", "HTTP+JSON", "1.0", "rest"),
    "js-v03rest": Kind("js", "v03rest", "HTTP+JSON", "0.3", "rest"),
    # gRPC on a port of its own beside the HTTP server that serves the card: only gRPC (sdk13), gRPC first (js).
    "sdk13-grpc": Kind("sdk13", "grpc", "GRPC", "1.0"),
    "sdk13-v03grpc": Kind("sdk13", "v03grpc", "GRPC", "0.3"),
    "js-grpc": Kind("js", "grpc", "GRPC", "1.0"),
    "js-v03grpc": Kind("js", "v03grpc", "GRPC", "0.3"),
}
KINDS = tuple(SERVER_KINDS)
# Servers some tests start by name, outside the matrix every interop test runs on.
SERVER_KINDS["sdk03-push"] = Kind("sdk03", "push", "JSONRPC", "0.3")  # a2a-sdk 0.3.26 with its push sender
AUTH_API_KEY = "test-key-123"  # what the servers that demand a key are started with
JS_AGENT = AGENTS / "js"
A2A03_PYTHON_ENV = "SWITCHBOARD_A2A03_PYTHON"
READY_TIMEOUT = 60.0  # ends at the READY line: the bound only matters on a loaded machine (4 workers, 2 cores)
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
    grpc_target: str = ""  # HOST:PORT of its gRPC server, in the gRPC modes
    _stderr: IO[bytes] | None = field(default=None, repr=False)

    @property
    def wire_version(self) -> str:
        """The wire version a client choosing by this server's card speaks to it: "1.0" or "0.3"."""
        return SERVER_KINDS[self.kind].wire_version

    @property
    def binding(self) -> str:
        """The binding a client choosing by this server's card speaks to it: "JSONRPC", "HTTP+JSON" or "GRPC"."""
        return SERVER_KINDS[self.kind].binding

    @property
    def stack(self) -> str:
        """Whose SDK answers: "sdk13", "sdk03" or "js"."""
        return SERVER_KINDS[self.kind].stack

    @property
    def file_bytes_twice_encoded(self) -> bool:
        """The Python SDKs' v0.3 REST and gRPC (0.3 and 1.x's compat alike) base64-encode a file's bytes twice, both
        ways: bytes sent as the v0.3 proto has them (once) are not what it reads; binary ones crash it."""
        return self.stack != "js" and self.binding != "JSONRPC" and self.wire_version == "0.3"

    @property
    def file_names_travel(self) -> bool:
        """The JavaScript SDK's copy of the v0.3 proto has no file name: over its v0.3 REST and gRPC, names are lost."""
        return not (self.stack == "js" and self.binding != "JSONRPC" and self.wire_version == "0.3")

    @property
    def endpoint_url(self) -> str:
        """The URL of the interface a client choosing by the card talks to."""
        if self.binding == "GRPC":
            return self.grpc_target
        return self.url + SERVER_KINDS[self.kind].path

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
    if kind not in SERVER_KINDS:
        raise ValueError(f"unknown server kind {kind!r}; expected one of {KINDS}")
    stack, mode = SERVER_KINDS[kind].stack, SERVER_KINDS[kind].mode
    if stack == "sdk03":
        argv = [a2a03_python(), str(AGENTS / "sdk03_server.py")]
    elif stack == "sdk13":
        argv = [sys.executable, str(AGENTS / "sdk13_server.py")]
    else:
        argv = [node(), str(JS_AGENT / "server.mjs")]
    argv += ["--mode", mode, "--port", "0", "--exit-on-stdin-eof"]
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
        url, *extra = _wait_ready(lines, timeout)
    except ServerStartError as error:
        _end(process)
        stderr.seek(0)
        output = stderr.read().decode(errors="replace").strip()
        stderr.close()
        raise ServerStartError(f"{kind} server: {error}\n--- its stderr ---\n{output}") from None
    said = dict(word.split("=", 1) for word in extra if "=" in word)
    server = RunningServer(kind, url, process, api_key, said.get("grpc", ""), stderr)
    _running.add(server)
    return server


def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
    # Keeps reading after READY, so the server can never block on a full stdout pipe.
    for line in stream:
        lines.put(line)
    lines.put(None)


def _wait_ready(lines: queue.Queue[str | None], timeout: float) -> list[str]:
    """The words after READY: the base URL, then `grpc=HOST:PORT` where the server also serves gRPC."""
    deadline = time.monotonic() + timeout
    try:
        while (line := lines.get(timeout=max(0.0, deadline - time.monotonic()))) is not None:
            if line.startswith("READY "):
                return line.split()[1:]
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
