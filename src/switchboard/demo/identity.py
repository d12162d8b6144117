"""The demo's identity provider: the OpenID Provider of the OAuth tests (oidc-provider on node, in
tests/interop/oidc), started by the fleet when a source checkout has its node_modules (`make run` installs them).
It starts in the background: the fleet does not wait for it, so start-up stays fast; sso answers 503 until the
provider's keys can be read."""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
from pathlib import Path

PROVIDER_DIR = Path(__file__).resolve().parents[3] / "tests" / "interop" / "oidc"


def available() -> bool:
    """Whether this install can run the provider: node on PATH and oidc-provider installed beside it."""
    return shutil.which("node") is not None and (PROVIDER_DIR / "node_modules" / "oidc-provider").is_dir()


class IdentityProvider:
    """oidc-provider on 127.0.0.1, a port chosen now so the issuer URL is known before it listens."""

    def __init__(self, host: str = "127.0.0.1") -> None:
        with socket.socket() as probe:
            probe.bind((host, 0))
            self.port = probe.getsockname()[1]
        self.issuer = f"http://{host}:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        node = shutil.which("node") or "node"
        # Its confidential client is unused by the demo; the provider insists on a secret for it.
        env = {**os.environ, "OIDC_SERVICE_SECRET": secrets.token_urlsafe(24)}
        argv = [node, str(PROVIDER_DIR / "provider.mjs"), "--port", str(self.port), "--exit-on-stdin-eof"]
        # stdin stays open while we live: if this process dies, the provider sees EOF and exits too.
        self.process = subprocess.Popen(
            argv,
            cwd=PROVIDER_DIR,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def stop(self) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        if process.stdin is not None:
            process.stdin.close()
        process.terminate()
        try:
            process.wait(5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(5)
