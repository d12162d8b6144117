"""Mutual TLS: the SSL context that presents a client certificate (and trusts a private CA) for one agent.

httpx 0.28 drops `cert=` silently when `verify=` is a path, so the context is built here, certificate chain and
CA loaded into it, and handed to httpx as `verify`. Every bad path or key is a usage error saying what to fix,
checked before any request."""

from __future__ import annotations

import ssl
from pathlib import Path

from ...errors import UsageError

TLS_HINT = (
    "Give the client certificate and its key as PEM files (--client-cert FILE --client-key FILE, or "
    "tls: {cert: FILE, key: FILE} in the agents file); a private CA with --ca-cert FILE or tls: {ca: FILE}."
)


def _readable(path: str, what: str) -> str:
    found = Path(path).expanduser()
    try:
        with found.open("rb"):
            pass
    except OSError as exc:
        raise UsageError(f"cannot read the {what} {found}: {exc.strerror}", hint=TLS_HINT) from None
    return str(found)


def client_tls_context(cert: str | None, key: str | None, ca: str | None) -> ssl.SSLContext:
    """A verifying client context with the client certificate chain (`cert`, and `key` unless the key is in
    the same file) and, with `ca`, that CA bundle trusted instead of the system's."""
    if key and not cert:
        raise UsageError("a client key was given without its certificate", hint=TLS_HINT)
    context = ssl.create_default_context()
    if ca:
        ca = _readable(ca, "CA certificate file")
        try:
            context = ssl.create_default_context(cafile=ca)
        except (ssl.SSLError, ValueError) as exc:
            raise UsageError(
                f"the CA certificate file {ca} holds no usable PEM certificate ({exc})", hint=TLS_HINT
            ) from None
    if cert:
        cert = _readable(cert, "client certificate")
        key = _readable(key, "client key") if key else None
        try:
            context.load_cert_chain(cert, key)
        except ssl.SSLError as exc:
            raise UsageError(
                f"the client certificate {cert} and key {key or '(in the same file)'} do not load: {exc.reason or exc}",
                hint="The key must be the certificate's own, PEM, not encrypted with a passphrase. " + TLS_HINT,
            ) from None
        except OSError as exc:
            raise UsageError(f"cannot load the client certificate {cert}: {exc}", hint=TLS_HINT) from None
    return context
