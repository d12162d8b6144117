"""Mutual TLS against a real a2a-sdk agent behind uvicorn that requires a client certificate from its CA
(certificates made by trustme): the agents file's `tls:` and the --client-cert/--client-key/--ca-cert flags."""

from __future__ import annotations

import json

from trust_helpers import fields

from switchboard.a2a.auth.credentials import Credentials, plan_auth
from switchboard.a2a.cards import parse_card
from switchboard.a2a.errors import CredentialsMissingError, UsageError
from switchboard.agents import load_agents
from switchboard.link import open_link


def agents_file(tmp_path, url: str, tls: str) -> str:
    path = tmp_path / "agents.yaml"
    path.write_text(f"agents:\n  - name: vault\n    url: {url}\n    tls: {tls}\n")
    return str(path)


def test_send_through_the_agents_file_tls(cli, mtls_server, pki, tmp_path):
    bundle, _, _ = pki
    agents = agents_file(
        tmp_path, mtls_server.url, f"{{cert: {bundle.client_cert}, key: {bundle.client_key}, ca: {bundle.ca}}}"
    )
    done = cli("--agents", agents, "send", "vault", "quick hello", "-o", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)


def test_card_get_with_the_flags_shows_the_mutual_tls_scheme(cli, mtls_server, pki):
    bundle, _, _ = pki
    flags = ["--client-cert", str(bundle.client_cert), "--client-key", str(bundle.client_key)]
    done = cli("card", "get", mtls_server.url, *flags, "--ca-cert", str(bundle.ca))
    assert done.returncode == 0, done.stderr
    assert "mutual TLS" in fields(done.stdout)["Security Scheme"]


def test_relative_paths_in_the_agents_file_are_read_beside_it(cli, mtls_server, pki, tmp_path):
    bundle, _, _ = pki
    for name in ("client.pem", "client.key", "ca.pem"):
        (tmp_path / name).write_bytes((bundle.ca.parent / name).read_bytes())
    agents = agents_file(tmp_path, mtls_server.url, "{cert: client.pem, key: client.key, ca: ca.pem}")
    done = cli("--agents", agents, "card", "get", "vault")
    assert done.returncode == 0, done.stderr


def test_without_a_client_certificate_the_refusal_says_what_to_give(cli, mtls_server, pki):
    """Under TLS 1.3 the server's refusal reaches the client as a closed connection, no alert: which cannot be told
    from an agent that fell over (exit 3), so the hint names the certificate."""
    bundle, _, _ = pki
    done = cli("card", "get", mtls_server.url, "--ca-cert", str(bundle.ca))
    assert done.returncode in (3, 4), done.stderr
    assert "--client-cert" in done.stderr


def test_a_certificate_from_another_ca_is_refused(cli, mtls_server, pki):
    bundle, _, _ = pki
    flags = ["--client-cert", str(bundle.stranger_cert), "--client-key", str(bundle.stranger_key)]
    done = cli("card", "get", mtls_server.url, *flags, "--ca-cert", str(bundle.ca))
    # 4 when the server's alert reaches us, 3 when it only closes the connection (see the test above)
    assert done.returncode in (3, 4), done.stderr
    assert "a CA the agent trusts" in done.stderr or "a CA it trusts" in done.stderr


def test_bad_paths_and_a_key_that_is_not_the_certificates_are_usage_errors(cli, mtls_server, pki, tmp_path):
    bundle, _, _ = pki
    missing = cli("card", "get", mtls_server.url, "--client-cert", str(tmp_path / "nope.pem"))
    assert missing.returncode == 2
    assert "cannot read the client certificate" in missing.stderr
    mismatched = cli(
        "card",
        "get",
        mtls_server.url,
        "--client-cert",
        str(bundle.client_cert),
        "--client-key",
        str(bundle.stranger_key),
    )
    assert mismatched.returncode == 2
    assert "do not load" in mismatched.stderr
    folder = tmp_path / "a-folder"  # unreadable as a key file (tests run as root: chmod 0 would not do)
    folder.mkdir()
    flags = ["--client-cert", str(bundle.client_cert), "--client-key", str(folder)]
    done = cli("card", "get", mtls_server.url, *flags)
    assert done.returncode == 2, done.stderr
    assert "cannot read the client key" in done.stderr


def test_an_untrusted_server_certificate_says_to_name_its_ca(cli, mtls_server, pki):
    bundle, _, _ = pki
    done = cli(
        "card", "get", mtls_server.url, "--client-cert", str(bundle.client_cert), "--client-key", str(bundle.client_key)
    )
    assert done.returncode == 3
    assert "--ca-cert" in done.stderr


async def test_the_link_presents_the_certificate_from_the_entry(mtls_server, pki, tmp_path):
    bundle, _, _ = pki
    path = tmp_path / "agents.yaml"
    tls = f"{{cert: {bundle.client_cert}, key: {bundle.client_key}, ca: {bundle.ca}}}"
    path.write_text(f"agents:\n  - name: vault\n    url: {mtls_server.url}\n    tls: {tls}\n")
    async with await open_link(load_agents(path).agents[0]) as link:
        assert link.card is not None and "mtls" in link.card.security_schemes


def test_a_card_that_wants_mutual_tls_explains_what_is_missing():
    card = parse_card(
        {
            "name": "vault",
            "supportedInterfaces": [
                {"url": "https://v.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
            ],
            "securitySchemes": {"mtls": {"mtlsSecurityScheme": {}}},
            "securityRequirements": [{"schemes": {"mtls": {"list": []}}}],
        }
    )
    try:
        plan_auth(card, Credentials())
    except CredentialsMissingError as exc:
        assert "mutual TLS" in exc.message and "--client-cert" in exc.message
    else:
        raise AssertionError("a card requiring mutual TLS went ahead without a certificate")
    assert plan_auth(card, Credentials(client_cert=True)).empty


def test_a_key_without_a_certificate_is_a_usage_error():
    from switchboard.a2a.auth.trust.client_tls import client_tls_context

    try:
        client_tls_context(None, "k.pem", None)
    except UsageError as exc:
        assert "without its certificate" in exc.message
    else:
        raise AssertionError


def test_the_certificate_stays_with_the_cards_origin_unless_allowed(cli, mtls_server, pki):
    """The card at 127.0.0.1 places its interface on localhost: without --trust-interface-origin the client
    certificate is not presented there (and the server, which requires one, closes the connection)."""
    bundle, _, _ = pki
    flags = [
        "--client-cert",
        str(bundle.client_cert),
        "--client-key",
        str(bundle.client_key),
        "--ca-cert",
        str(bundle.ca),
    ]
    kept = cli("send", mtls_server.url + "elsewhere/", "quick hello", *flags)
    assert kept.returncode == 3, kept.stderr
    assert "localhost" in kept.stderr
    allowed = cli("send", mtls_server.url + "elsewhere/", "quick hello", *flags, "--trust-interface-origin")
    assert allowed.returncode == 0, allowed.stderr
