"""The trust servers (agents/trust_server.py) and what they need: signing keys, and a CA with server and
client certificates made by trustme. Each starts once per session."""

from __future__ import annotations

import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import trustme
from cli_runner import run_cli_in_process
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from servers import AGENTS, READY_TIMEOUT, ServerStartError, _end, _pump, _wait_ready


@dataclass
class TrustServer:
    url: str
    process: subprocess.Popen[str]


def _start(argv: list[str]) -> Iterator[TrustServer]:
    import queue
    import threading

    stderr = tempfile.TemporaryFile()  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, str(AGENTS / "trust_server.py"), *argv, "--exit-on-stdin-eof"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=stderr,
        text=True,
        cwd=AGENTS,
    )
    lines: queue.Queue[str | None] = queue.Queue()
    threading.Thread(target=_pump, args=(process.stdout, lines), daemon=True).start()
    try:
        url = _wait_ready(lines, READY_TIMEOUT)[0]
    except ServerStartError as error:
        _end(process)
        stderr.seek(0)
        pytest.fail(f"trust server: {error}\n{stderr.read().decode(errors='replace')}", pytrace=False)
    try:
        yield TrustServer(url, process)
    finally:
        _end(process)
        stderr.close()


def _pem(key) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def _public_pem(key) -> bytes:
    return key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)


@pytest.fixture(scope="session")
def signing_keys(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """es256.pem, rs256.pem (private, for the server's signer), es256.pub.pem, rs256.pub.pem, and other.pub.pem
    (a key that signed nothing)."""
    folder = tmp_path_factory.mktemp("keys")
    es = ec.generate_private_key(ec.SECP256R1())
    rs = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    other = ec.generate_private_key(ec.SECP256R1())
    (folder / "es256.pem").write_bytes(_pem(es))
    (folder / "rs256.pem").write_bytes(_pem(rs))
    (folder / "es256.pub.pem").write_bytes(_public_pem(es))
    (folder / "rs256.pub.pem").write_bytes(_public_pem(rs))
    (folder / "other.pub.pem").write_bytes(_public_pem(other))
    return folder


@pytest.fixture(scope="session")
def cards_server(signing_keys: Path) -> Iterator[TrustServer]:
    yield from _start(["--mode", "cards", "--keys", str(signing_keys)])


@dataclass
class Pki:
    ca: Path  # the CA certificate: the server's issuer, and the one the server trusts for clients
    client_cert: Path
    client_key: Path
    stranger_cert: Path  # a client certificate from another CA
    stranger_key: Path


@pytest.fixture(scope="session")
def pki(tmp_path_factory: pytest.TempPathFactory) -> tuple[Pki, Path, Path]:
    folder = tmp_path_factory.mktemp("pki")
    ca, stranger_ca = trustme.CA(), trustme.CA()
    server = ca.issue_cert("127.0.0.1", "localhost")
    client = ca.issue_cert("switchboard-client@example.com")
    stranger = stranger_ca.issue_cert("stranger@example.com")
    ca.cert_pem.write_to_path(str(folder / "ca.pem"))
    server.cert_chain_pems[0].write_to_path(str(folder / "server.pem"))
    server.private_key_pem.write_to_path(str(folder / "server.key"))
    client.cert_chain_pems[0].write_to_path(str(folder / "client.pem"))
    client.private_key_pem.write_to_path(str(folder / "client.key"))
    stranger.cert_chain_pems[0].write_to_path(str(folder / "stranger.pem"))
    stranger.private_key_pem.write_to_path(str(folder / "stranger.key"))
    names = ("ca.pem", "client.pem", "client.key", "stranger.pem", "stranger.key")
    bundle = Pki(*(folder / name for name in names))
    return bundle, folder / "server.pem", folder / "server.key"


@pytest.fixture(scope="session")
def mtls_server(pki: tuple[Pki, Path, Path]) -> Iterator[TrustServer]:
    bundle, cert, key = pki
    yield from _start(["--mode", "mtls", "--cert", str(cert), "--key", str(key), "--ca", str(bundle.ca)])


@pytest.fixture
def cli(tmp_path):
    """`switchboard ARGS...` in a fresh process, with a home of its own and no A2ACLI_* credentials."""
    import os

    repo = Path(__file__).resolve().parents[3]

    def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
        full_env = {**os.environ, "SWITCHBOARD_HOME": str(tmp_path), "PYTHONPATH": str(repo / "src"), **(env or {})}
        for name in ("A2ACLI_API_KEY", "A2ACLI_BEARER", "A2ACLI_BASIC_PASSWORD"):
            full_env.pop(name, None)
        return run_cli_in_process(list(args), full_env, timeout=60)

    return run
