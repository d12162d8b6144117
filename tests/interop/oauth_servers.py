"""The OAuth test pair: an OpenID Provider (oidc-provider on node, tests/interop/oidc/) and A2A agents behind it
(tests/interop/agents/oauth_server.py), each a subprocess on 127.0.0.1 with an ephemeral port."""

from __future__ import annotations

import os
import queue
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from servers import AGENTS, READY_TIMEOUT, ServerStartError, _end, _pump, _running, _wait_ready

OIDC_DIR = Path(__file__).resolve().parent / "oidc"
SERVICE_CLIENT = "switchboard-service"  # confidential: client_credentials
PUBLIC_CLIENT = "switchboard-cli"  # public: authorization_code + refresh_token + device_code, PKCE required


@dataclass(eq=False)
class Process:
    """A started server: its URL (from its READY line) and how to stop it."""

    url: str
    process: subprocess.Popen[str]
    _stderr: IO[bytes] | None = field(default=None, repr=False)

    def stop(self) -> None:
        _running.discard(self)  # type: ignore[arg-type]
        _end(self.process)
        if self._stderr is not None:
            self._stderr.close()


@dataclass(eq=False)
class Provider(Process):
    service_secret: str = ""

    @property
    def issuer(self) -> str:
        return self.url


def _start(argv: list[str], what: str, env: dict[str, str] | None = None, cwd: Path = AGENTS) -> tuple[str, object]:
    stderr = tempfile.TemporaryFile()  # noqa: SIM115 - closed by stop()
    process = subprocess.Popen(
        argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr, text=True, cwd=cwd, env=env
    )
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_pump, args=(process.stdout, lines), daemon=True).start()
    try:
        url = _wait_ready(lines, READY_TIMEOUT)[0]
    except ServerStartError as error:
        _end(process)
        stderr.seek(0)
        output = stderr.read().decode(errors="replace").strip()
        stderr.close()
        raise ServerStartError(f"{what}: {error}\n--- its stderr ---\n{output}") from None
    return url, (process, stderr)


def start_provider(access_ttl: int = 600) -> Provider:
    """oidc-provider on a free port; the confidential client's secret is made here and kept on the result."""
    node = shutil.which("node")
    if node is None:
        raise ServerStartError("No `node` on PATH: the OpenID Provider needs Node.js 20 or later.")
    if not (OIDC_DIR / "node_modules" / "oidc-provider").is_dir():
        raise ServerStartError(f"oidc-provider is not installed in {OIDC_DIR}. Run `make test` (it runs `npm ci`).")
    secret = "svc-" + secrets.token_urlsafe(24)
    env = {**os.environ, "OIDC_SERVICE_SECRET": secret}
    argv = [node, str(OIDC_DIR / "provider.mjs"), "--access-ttl", str(access_ttl), "--exit-on-stdin-eof"]
    url, (process, stderr) = _start(argv, "oidc-provider", env, OIDC_DIR)
    provider = Provider(url, process, stderr, service_secret=secret)
    _running.add(provider)  # type: ignore[arg-type]
    return provider


def start_oauth_agent(
    issuer: str, *, card_scope: str = "a2a:send", required_scope: str | None = None, with_v03: bool = False
) -> Process:
    """The a2a-sdk agent behind the issuer's tokens (see agents/oauth_server.py)."""
    argv = [sys.executable, str(AGENTS / "oauth_server.py"), "--issuer", issuer, "--port", "0", "--exit-on-stdin-eof"]
    argv += ["--card-scope", card_scope, "--required-scope", required_scope or card_scope]
    argv += ["--with-v03"] if with_v03 else []
    url, (process, stderr) = _start(argv, "oauth agent")
    agent = Process(url, process, stderr)
    _running.add(agent)  # type: ignore[arg-type]
    return agent
