"""How TLS failures read. The alert a server sends when it refuses a client certificate is built here: uvicorn
(the real server in tests/interop/trust) closes without sending one, other servers (nginx, Envoy) send it."""

from __future__ import annotations

import ssl

import httpcore
import httpx

from switchboard.a2a.errors import AuthFailedError, UnavailableError, UnreachableError
from switchboard.a2a.http import network_error

URL = "https://agent.example/.well-known/agent-card.json"


def chained(outer: Exception, inner: BaseException) -> Exception:
    outer.__context__ = inner
    return outer


def ssl_error(reason: str) -> ssl.SSLError:
    error = ssl.SSLError(1, f"[SSL: {reason}] alert")
    error.reason = reason
    return error


def test_a_certificate_alert_is_an_auth_failure_naming_the_flags():
    for outer in (httpx.ReadError(""), httpx.ConnectError("")):
        error = network_error(URL, chained(outer, ssl_error("TLSV13_ALERT_CERTIFICATE_REQUIRED")))
        assert isinstance(error, AuthFailedError) and error.exit_code == 4
        assert "--client-cert" in (error.hint or "")


def test_a_handshake_closed_by_the_server_hints_at_the_client_certificate():
    inner = chained(httpcore.ConnectError(""), ssl.SSLEOFError(8, "EOF"))
    inner.__context__.reason = "UNEXPECTED_EOF_WHILE_READING"
    error = network_error(URL, chained(httpx.ConnectError(""), inner))
    assert isinstance(error, UnavailableError)
    assert "during the TLS handshake" in error.message and "--client-cert" in (error.hint or "")


def test_plain_http_failures_say_nothing_of_certificates():
    error = network_error("http://127.0.0.1:9/", httpx.RemoteProtocolError("Server disconnected"))
    assert isinstance(error, UnreachableError) and "client certificate" not in (error.hint or "")
