"""The TUI signs in with the device code: the sign-in pane shows the verification address and the user code, the
person enters it (played over HTTP), the pane closes by itself and the conversation goes on."""

from __future__ import annotations

import threading

import pytest
from oidc_user import authorize, enter_device_code
from textual.widgets import DataTable
from tui_support import launch_workflow, talk, until

from switchboard.a2a.auth.oauth import client as oauth
from switchboard.agents import AgentEntry, OAuthSettings
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.screens.sign_in import SignInScreen

pytestmark = pytest.mark.interop
SIZE = (120, 40)


async def test_the_device_code_pane_shows_the_code_and_closes_when_signed_in(
    oidc_provider, oauth_agent, tmp_path, monkeypatch
):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    oauth._MEMORY.clear()
    settings = OAuthSettings(client_id="switchboard-cli", flow="deviceCode")
    agent = AgentEntry("me", oauth_agent.url, oauth=settings)
    app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[agent], steady=True)
    async with app.run_test(size=SIZE) as pilot:
        view = await talk(pilot, "me", "quick hi")

        await until(lambda: isinstance(pilot.app.screen, SignInScreen))
        pane = pilot.app.screen
        assert pane.url.startswith(oidc_provider.issuer) and pane.code
        assert pane.query_one("#sign-in-code").render().plain == pane.code  # type: ignore[union-attr]
        errors: list[BaseException] = []

        def play() -> None:
            try:
                enter_device_code(pane.url, pane.code or "")
            except BaseException as exc:
                errors.append(exc)

        person = threading.Thread(target=play, daemon=True)
        person.start()
        await until(lambda: not isinstance(pilot.app.screen, SignInScreen), timeout=60)
        await until(lambda: len(view.conversation.turns) == 1 and not view.running, timeout=30)
        await until(lambda: view.conversation.last.view.output_text == "quick reply to: quick hi")
        person.join(10)
        assert not errors, errors
    oauth._MEMORY.clear()


async def _sign_in_when_asked(pilot, errors: list[BaseException]) -> SignInScreen:
    """Wait for the sign-in pane and play the person at the provider (enter its code, or visit its address, sign in
    and consent), wait for the pane to close; the pane, for what it showed."""
    await until(lambda: isinstance(pilot.app.screen, SignInScreen), timeout=30)
    pane = pilot.app.screen
    assert isinstance(pane, SignInScreen)

    def play() -> None:
        try:
            enter_device_code(pane.url, pane.code) if pane.code else authorize(pane.url)
        except BaseException as exc:
            errors.append(exc)

    threading.Thread(target=play, daemon=True).start()
    await until(lambda: not isinstance(pilot.app.screen, SignInScreen), timeout=60)
    return pane


async def test_auth_required_offers_sign_in_in_the_prompt_pane_and_the_task_goes_on(
    oidc_provider, oauth_agent, tmp_path, monkeypatch
):
    """The vault asks for a2a:admin mid-task: the prompt pane's "Sign in" runs the device flow with it, and the
    task, told with the new token, completes."""
    from switchboard.tui.widgets.prompt_pane import PromptPane

    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    oauth._MEMORY.clear()
    agent = AgentEntry("me", oauth_agent.url, oauth=OAuthSettings(client_id="switchboard-cli", flow="deviceCode"))
    app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[agent], steady=True)
    errors: list[BaseException] = []
    async with app.run_test(size=SIZE) as pilot:
        view = await talk(pilot, "me", "open the vault")
        await _sign_in_when_asked(pilot, errors)  # the first sign-in: the card's a2a:send
        await until(lambda: len(view.query(PromptPane)) == 1, timeout=30)
        prompt = view.query_one(PromptPane)
        assert prompt.sign_in is not None and prompt.sign_in.scopes == ("a2a:admin",)
        await until(lambda: bool(prompt.query("#prompt-sign-in")))  # the pane is in the DOM before its buttons
        prompt.query_one("#prompt-sign-in").press()
        await _sign_in_when_asked(pilot, errors)  # the one the task asked for
        await until(lambda: len(view.conversation.turns) == 2 and not view.running, timeout=30)
        await until(lambda: view.conversation.last.view.output_text == "The vault is open.")
        assert not view.query(PromptPane)
    assert not errors, errors
    oauth._MEMORY.clear()


VAULT_RUN = """\
version: 1
name: vault
steps:
  - name: open
    agent: me
    task: open the vault
outputs:
  said: "{{steps.open.output}}"
"""


async def test_a_workflow_step_at_auth_required_offers_sign_in_in_the_run_view_and_the_run_goes_on(
    oidc_provider, oauth_agent, tmp_path, monkeypatch
):
    """The same vault as a workflow's step launched from the TUI: the step's link signs in through the sign-in
    pane, the step's prompt pane offers "Sign in" for a2a:admin, and the run completes."""
    from switchboard.tui.widgets.prompt_pane import PromptPane

    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    oauth._MEMORY.clear()
    (tmp_path / "config" / "workflows").mkdir(parents=True)
    (tmp_path / "config" / "workflows" / "vault.yaml").write_text(VAULT_RUN)
    agent = AgentEntry("me", oauth_agent.url, oauth=OAuthSettings(client_id="switchboard-cli", flow="deviceCode"))
    app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[agent], steady=True)
    errors: list[BaseException] = []
    async with app.run_test(size=SIZE) as pilot:
        view = await launch_workflow(pilot, "vault.yaml")
        await _sign_in_when_asked(pilot, errors)  # the step's link: the card's a2a:send
        await until(lambda: len(view.query(PromptPane)) == 1, timeout=30)
        prompt = view.query_one(PromptPane)
        assert prompt.sign_in is not None and prompt.sign_in.scopes == ("a2a:admin",)
        await until(lambda: bool(prompt.query("#prompt-sign-in")))
        prompt.query_one("#prompt-sign-in").press()
        await _sign_in_when_asked(pilot, errors)  # the one the step's task asked for
        await until(lambda: view.status == "completed", timeout=30)
        assert view.outputs["said"] == "The vault is open."
        assert not view.query(PromptPane)
    assert not errors, errors
    oauth._MEMORY.clear()


async def test_authorization_code_and_client_credentials_in_conversations(
    oidc_provider, oauth_agent, tmp_path, monkeypatch
):
    """The two other OAuth flows in the TUI: authorization code with PKCE shows the address in the sign-in pane
    (the browser is asked to open it; here the person is played over HTTP) and closes it once the redirect comes
    back; client credentials (endpoints found by OpenID Connect discovery) need nobody; the agents table names the
    card's schemes."""
    import webbrowser

    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    monkeypatch.setenv("SVC_SECRET", oidc_provider.service_secret)
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *a, **k: opened.append(url) or True)
    oauth._MEMORY.clear()
    agents = [
        AgentEntry("pkce", oauth_agent.url, oauth=OAuthSettings(client_id="switchboard-cli", flow="authorizationCode")),
        # Client credentials with the endpoints from OpenID Connect discovery (the card's openIdConnectUrl).
        AgentEntry("svc", oauth_agent.url, oauth=OAuthSettings("switchboard-service", "SVC_SECRET", scheme="oidc")),
    ]
    app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=agents, steady=True)
    errors: list[BaseException] = []
    async with app.run_test(size=SIZE) as pilot:
        main = pilot.app.screen
        table = main.query_one(DataTable)
        await until(lambda: {"pkce", "svc"} <= {row.value for row in table.rows})
        # The card requires either of its OAuth and OpenID Connect schemes.
        await until(lambda: all(str(table.get_row(name)[4]) == "oauth/oidc" for name in ("pkce", "svc")))
        view = await talk(pilot, "pkce", "quick hi")
        pane = await _sign_in_when_asked(pilot, errors)
        assert pane.code is None and "code_challenge_method=S256" in pane.url and opened == [pane.url]
        await until(lambda: view.conversation.last.view.output_text == "quick reply to: quick hi", timeout=30)

        await pilot.press("f1")
        view = await talk(pilot, "svc", "quick hello")
        await until(lambda: view.conversation.last.view.output_text == "quick reply to: quick hello", timeout=30)
        assert not isinstance(pilot.app.screen, SignInScreen)
    assert not errors, errors
    oauth._MEMORY.clear()
