"""OAuth2 and OpenID Connect against real parts: oidc-provider (a certified OpenID Provider) issues the tokens, an
a2a-sdk agent checks them against the provider's JWKS (issuer, audience, expiry, scope). The person's part of a
sign-in (login, consent, the device code) is played over HTTP by oidc_user."""

from __future__ import annotations

import base64
import json
import threading

import pytest
from oidc_user import authorize, enter_device_code

from switchboard.a2a.auth.credentials import Credentials
from switchboard.a2a.auth.oauth import client as oauth
from switchboard.a2a.auth.oauth import endpoints as oauth_endpoints
from switchboard.a2a.auth.oauth.client import Choice, OAuthClient, TokenSource
from switchboard.a2a.client import new_message
from switchboard.a2a.errors import AuthFailedError, CredentialsMissingError
from switchboard.a2a.model import SecurityScheme
from switchboard.a2a.redact import Redactor
from switchboard.a2a.tap import Tap, format_record
from switchboard.agents import AgentEntry
from switchboard.link import open_link

pytestmark = pytest.mark.interop
SERVICE, PUBLIC = "switchboard-service", "switchboard-cli"


@pytest.fixture(autouse=True)
def fresh_memory():
    """Each test signs in from nothing: tokens of the process are shared by design, not across tests."""
    oauth._MEMORY.clear()
    oauth_endpoints._DISCOVERED.clear()
    yield
    oauth._MEMORY.clear()


class PlayedUser:
    """The Interaction a test gives: the person signs in (or refuses) at once, from another thread."""

    open_browser = False

    def __init__(self, deny: bool = False) -> None:
        self.deny = deny
        self.prompts: list[oauth.DevicePrompt] = []
        self.urls: list[str] = []
        self.errors: list[BaseException] = []
        self.threads: list[threading.Thread] = []
        self.finished = 0

    def _run(self, target, *args) -> None:
        def play() -> None:
            try:
                target(*args, deny=self.deny)
            except BaseException as exc:
                self.errors.append(exc)

        thread = threading.Thread(target=play, daemon=True)
        self.threads.append(thread)
        thread.start()

    def device_code(self, prompt: oauth.DevicePrompt) -> None:
        self.prompts.append(prompt)
        self._run(enter_device_code, prompt.verification_uri, prompt.user_code)

    def authorization_url(self, url: str) -> None:
        self.urls.append(url)
        self._run(authorize, url)

    def done(self) -> None:
        self.finished += 1

    def joined(self) -> PlayedUser:
        for thread in self.threads:
            thread.join(30)
        assert not self.errors, self.errors
        return self


def claims(jwt: str) -> dict:
    payload = jwt.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def held_token() -> dict:
    assert len(oauth._MEMORY) == 1, list(oauth._MEMORY)
    return next(iter(oauth._MEMORY.values()))


async def say(agent_url: str, client: OAuthClient, text: str = "quick hello", tap: Tap | None = None) -> str:
    entry = AgentEntry(name="oauth", url=agent_url)
    async with await open_link(entry, credentials=Credentials(oauth=client), tap=tap) as link:
        answer = await link.send(new_message(text))
    return answer.parts[0].text  # type: ignore[union-attr]


def service(provider, **kwargs) -> OAuthClient:
    return OAuthClient(SERVICE, client_secret=provider.service_secret, client_secret_env="SVC", **kwargs)


# --- client credentials, discovery, audience --------------------------------------------------------


async def test_client_credentials_token_for_this_agent_only(oidc_provider, oauth_agent):
    tap = Tap()
    assert await say(oauth_agent.url, service(oidc_provider), tap=tap) == "quick reply to: quick hello"
    token = held_token()
    minted = claims(token["access_token"])
    assert minted["aud"] == oauth_agent.url  # RFC 8707: the resource was the agent's URL
    assert minted["iss"] == oidc_provider.issuer
    assert minted["scope"] == "a2a:send"  # the card's requirement
    wire = "\n".join(format_record(record) for record in tap.records)
    assert "Bearer [redacted]" in wire
    assert token["access_token"] not in wire and oidc_provider.service_secret not in wire


async def test_openid_connect_discovery(oidc_provider, oauth_agent):
    client = service(oidc_provider, scheme="oidc")
    assert await say(oauth_agent.url, client) == "quick reply to: quick hello"
    assert claims(held_token()["access_token"])["aud"] == oauth_agent.url


async def test_wrong_client_secret_is_an_auth_error(oidc_provider, oauth_agent):
    client = OAuthClient(SERVICE, client_secret="not-the-secret", client_secret_env="SVC")
    with pytest.raises(AuthFailedError) as caught:
        await say(oauth_agent.url, client)
    assert caught.value.exit_code == 4
    assert "wrong client id or secret" in caught.value.message
    assert "SVC" in (caught.value.hint or "")


async def test_without_resource_the_agent_refuses_the_token_and_says_why(oidc_provider, oauth_agent):
    client = service(oidc_provider, send_resource=False)  # an opaque token for no audience in particular
    with pytest.raises(AuthFailedError) as caught:
        await say(oauth_agent.url, client)
    assert caught.value.exit_code == 4
    assert "refused the access token" in caught.value.message
    assert oidc_provider.issuer in (caught.value.hint or "")  # from the RFC 9728 document


async def test_insufficient_scope_names_the_scope(oidc_provider, narrow_oauth_agent):
    with pytest.raises(AuthFailedError) as caught:
        await say(narrow_oauth_agent.url, service(oidc_provider))
    assert "lacks the scope a2a:admin" in caught.value.message
    assert "oauth.scopes" in (caught.value.hint or "")
    # with the scope asked for, the same client gets through
    assert await say(narrow_oauth_agent.url, service(oidc_provider, scopes=("a2a:admin",))) == (
        "quick reply to: quick hello"
    )


async def test_a_token_the_agent_refuses_is_renewed_once(oidc_provider, oauth_agent):
    client = service(oidc_provider)
    await say(oauth_agent.url, client)
    token = held_token()
    first = token["access_token"]
    token["access_token"] = first[:-8] + "AAAAAAAA"  # revoked or expired early, as the agent sees it
    assert await say(oauth_agent.url, client) == "quick reply to: quick hello"
    assert held_token()["access_token"] not in (first, token["access_token"][:-1])


async def test_an_expiring_token_is_renewed_before_use(oidc_provider, oauth_agent):
    client = service(oidc_provider)
    await say(oauth_agent.url, client)
    held_token()["expires_at"] = 0  # long past
    old = held_token()["access_token"]
    await say(oauth_agent.url, client)
    assert held_token()["access_token"] != old


async def test_an_issuer_pinned_in_the_agents_file_keeps_the_secret_from_any_other(oidc_provider, oauth_agent):
    with pytest.raises(AuthFailedError, match=r"not on the issuer https://sso\.example\.com"):
        await say(oauth_agent.url, service(oidc_provider, issuer="https://sso.example.com"))
    assert await say(oauth_agent.url, service(oidc_provider, issuer=oidc_provider.issuer)) == (
        "quick reply to: quick hello"
    )


async def test_unreachable_issuer_is_an_auth_error():
    scheme = SecurityScheme(type="oauth2", flows={"clientCredentials": {"tokenUrl": "http://127.0.0.1:9/token"}})
    source = TokenSource(
        Choice("s", scheme, []), OAuthClient(SERVICE, client_secret="x" * 8), "http://127.0.0.1:1/", Redactor()
    )
    with pytest.raises(AuthFailedError) as caught:
        await source.token()
    assert "cannot reach the issuer" in caught.value.message and caught.value.exit_code == 4


async def test_an_http_token_endpoint_off_loopback_gets_no_secret():
    scheme = SecurityScheme(type="oauth2", flows={"clientCredentials": {"tokenUrl": "http://issuer.example/token"}})
    source = TokenSource(Choice("s", scheme, []), OAuthClient(SERVICE, client_secret="x" * 8), "http://a/", Redactor())
    with pytest.raises(AuthFailedError, match="not an https URL"):
        await source.token()


async def test_no_client_for_an_oauth_card_says_how_to_give_one(oauth_agent):
    with pytest.raises(CredentialsMissingError) as caught:
        await open_link(AgentEntry(name="oauth", url=oauth_agent.url), credentials=Credentials())
    assert "client id" in caught.value.message and "clientId" in (caught.value.hint or "")


# --- flows with a person: device code, authorization code + PKCE ------------------------------------


async def test_device_code_flow(oidc_provider, oauth_agent):
    person = PlayedUser()
    client = OAuthClient(PUBLIC, flow="deviceCode", interaction=person)
    assert await say(oauth_agent.url, client) == "quick reply to: quick hello"
    person.joined()
    assert len(person.prompts) == 1 and person.finished == 1
    assert person.prompts[0].verification_uri.startswith(oidc_provider.issuer)
    assert claims(held_token()["access_token"])["aud"] == oauth_agent.url


async def test_device_code_refused(oidc_provider, oauth_agent):
    person = PlayedUser(deny=True)
    with pytest.raises(AuthFailedError) as caught:
        await say(oauth_agent.url, OAuthClient(PUBLIC, flow="deviceCode", interaction=person))
    person.joined()
    assert "refused" in caught.value.message and caught.value.exit_code == 4


async def test_authorization_code_with_pkce_and_refresh(oidc_provider, oauth_agent):
    person = PlayedUser()
    client = OAuthClient(PUBLIC, flow="authorizationCode", interaction=person)
    assert await say(oauth_agent.url, client) == "quick reply to: quick hello"
    person.joined()
    assert "code_challenge_method=S256" in person.urls[0] and "resource=" in person.urls[0]
    token = held_token()
    assert token.get("refresh_token"), "offline_access with prompt=consent should give a refresh token"
    token["expires_at"] = 0
    old = token["access_token"]
    assert await say(oauth_agent.url, client) == "quick reply to: quick hello"
    assert len(person.urls) == 1  # refreshed, not a second sign-in
    assert held_token()["access_token"] != old


async def test_authorization_code_refused(oidc_provider, oauth_agent):
    person = PlayedUser(deny=True)
    with pytest.raises(AuthFailedError) as caught:
        await say(oauth_agent.url, OAuthClient(PUBLIC, flow="authorizationCode", interaction=person))
    person.joined()
    assert "consent denied" in caught.value.message


async def test_a_dead_refresh_token_without_a_person_says_sign_in_again(oidc_provider, oauth_agent):
    person = PlayedUser()
    client = OAuthClient(PUBLIC, flow="deviceCode", interaction=person)
    await say(oauth_agent.url, client)
    person.joined()
    token = held_token()
    token["expires_at"], token["refresh_token"] = 0, "no-such-refresh-token"
    unattended = OAuthClient(PUBLIC, flow="deviceCode")  # a workflow step: nobody to show a code to
    with pytest.raises(AuthFailedError) as caught:
        await say(oauth_agent.url, unattended)
    assert "invalid or expired" in caught.value.message and "auth login" in (caught.value.hint or "")
    assert caught.value.exit_code == 4 and len(person.prompts) == 1
