"""HTTP Basic credentials: planned from the card's scheme, never in a repr, the pair itself a secret."""

from __future__ import annotations

import base64

import pytest

from switchboard.a2a.auth.credentials import Credentials, credentials_from_env, plan_auth
from switchboard.a2a.cards import parse_card
from switchboard.a2a.errors import CredentialsMissingError, UsageError
from switchboard.a2a.redact import Redactor

CARD = {
    "name": "gate",
    "supportedInterfaces": [{"url": "https://g.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
    "securitySchemes": {"basic": {"httpAuthSecurityScheme": {"scheme": "Basic"}}},
    "securityRequirements": [{"schemes": {"basic": {"list": []}}}],
}


def test_basic_scheme_gets_the_authorization_header():
    creds = credentials_from_env(basic_user="ada", basic_password_env="PW", env={"PW": "s3cret-pass"})
    plan = plan_auth(parse_card(CARD), creds)
    assert plan.headers == {"Authorization": "Basic " + base64.b64encode(b"ada:s3cret-pass").decode()}
    assert "s3cret-pass" not in repr(creds)


def test_the_pair_and_its_base64_are_redacted():
    creds = Credentials(basic_user="ada", basic_password="s3cret-pass")
    redactor = Redactor(creds.secrets)
    encoded = base64.b64encode(b"ada:s3cret-pass").decode()
    assert "s3cret-pass" not in redactor.text(f"echo {encoded} and s3cret-pass")


def test_without_basic_credentials_the_error_says_how_to_give_them():
    with pytest.raises(CredentialsMissingError, match="--basic-user"):
        plan_auth(parse_card(CARD), Credentials())


def test_a_user_with_a_colon_is_a_usage_error_and_a_missing_password_names_its_variable():
    with pytest.raises(UsageError, match="colon"):
        credentials_from_env(basic_user="a:b", basic_password_env="PW", env={"PW": "x"})
    with pytest.raises(CredentialsMissingError, match="PW"):
        credentials_from_env(basic_user="ada", basic_password_env="PW", env={})
