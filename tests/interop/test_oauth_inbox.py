"""The inbox reads a remembered task of an OAuth agent in the background (at start, then at each poll) without
ever starting a sign-in: with no token it neither opens a browser nor shows the sign-in pane, and its row says it
needs a sign-in; the person answering it (enter, then the answer) is asked, and only then signs in. The same for
`switchboard inbox` on the command line: it lists the task and waits for nobody."""

from __future__ import annotations

import json
import threading
import webbrowser

import pytest
from oauth_cli_support import switchboard
from oidc_user import authorize
from tui_support import click, until

from switchboard.a2a.auth.oauth import client as oauth
from switchboard.a2a.client import new_message
from switchboard.a2a.model import TextPart
from switchboard.agents import AgentEntry, OAuthSettings
from switchboard.inbox import sources
from switchboard.inbox.store import Remembered, remember
from switchboard.link import open_link
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.screens.sign_in import SignInScreen, TuiInteraction
from switchboard.tui.widgets.inbox_pane import InboxPane
from switchboard.tui.widgets.prompt_pane import PromptPane

pytestmark = pytest.mark.interop


async def vault_task(url: str) -> tuple[str, str, str]:
    """A task of the agent stopped at auth-required (started with client credentials): its ids and question."""
    service = AgentEntry("svc", url, oauth=OAuthSettings("switchboard-service", "SVC_SECRET"))
    async with await open_link(service) as link:
        task = await link.send(new_message([TextPart(text="open the vault")]))
    assert task.status.state.value == "auth-required"  # type: ignore[union-attr]
    return task.id, task.context_id, "The vault needs the scope a2a:admin"  # type: ignore[union-attr]


@pytest.fixture
def remembered_vault(oidc_provider, oauth_agent, tmp_path, monkeypatch):
    """A vault task remembered in the inbox as the person's agent "me" (authorization code: a browser), no token."""
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "keyring.backends.fail.Keyring")
    monkeypatch.setenv("SVC_SECRET", oidc_provider.service_secret)
    oauth._MEMORY.clear()
    yield oauth_agent.url
    oauth._MEMORY.clear()


async def test_a_background_read_never_signs_in_and_the_person_answering_does(remembered_vault, tmp_path, monkeypatch):
    url = remembered_vault
    task_id, context_id, question = await vault_task(url)
    oauth._MEMORY.clear()  # the service's token: the person's client holds none
    remember(Remembered("me", url, task_id, context_id, "auth-required", question, 1.0))
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda address, *a, **k: opened.append(address) or True)
    shown: list[SignInScreen] = []
    show = TuiInteraction._show
    monkeypatch.setattr(TuiInteraction, "_show", lambda self, screen: (shown.append(screen), show(self, screen))[1])
    reads: list[str] = []
    reread = sources.reread

    async def counted(entry, open_link, **options):
        reads.append(entry.task_id)
        return await reread(entry, open_link, **options)

    monkeypatch.setattr(sources, "reread", counted)
    me = AgentEntry("me", url, oauth=OAuthSettings(client_id="switchboard-cli", flow="authorizationCode"))
    app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[me], steady=True)
    async with app.run_test(size=(120, 36)) as pilot:
        inbox = app.screen.inbox
        # At start and at two polls after it: read each time, signed in never.
        await until(lambda: len(reads) >= 3 and [i.note for i in inbox.items] == [sources.NEEDS_SIGN_IN])
        assert opened == [] and shown == [] and not isinstance(app.screen, SignInScreen)
        [item] = inbox.items
        assert item.task_id == task_id and not item.stale

        # The person asks: enter on the row, the answer; the sign-in comes now (the browser, the pane).
        pane = app.screen.query_one(InboxPane)
        await pilot.press("f5")
        await until(lambda: [i.id for i in pane.shown] == [item.id])
        pane.focus_filter()
        await pilot.press("enter")
        await until(lambda: bool(pane.query(PromptPane)) and pane.query_one("PromptPane Input").has_focus)
        await pilot.press(*"please", "enter")
        errors = await sign_in_in_the_browser(app, opened)
        # Signed in with a2a:send, the vault asks again for a2a:admin: the task waits, read again with the token.
        await until(lambda: [i.note for i in inbox.items] == [""] and inbox.items[0].task_id == task_id, timeout=30)
        assert len(shown) == 1 and not errors, errors


def test_switchboard_inbox_lists_an_oauth_task_and_waits_for_nobody(remembered_vault, oidc_provider, tmp_path):
    url = remembered_vault
    (tmp_path / "agents.yaml").write_text(
        f"agents:\n  - name: me\n    url: {url}\n    oauth: {{clientId: switchboard-cli, flow: deviceCode}}\n"
    )
    import asyncio

    task_id, context_id, question = asyncio.run(vault_task(url))
    remember(Remembered("me", url, task_id, context_id, "auth-required", question, 1.0))
    done = switchboard(tmp_path, oidc_provider, "inbox", "-o", "json")
    assert done.returncode == 0, done.stderr
    [item] = json.loads(done.stdout)["items"]
    assert item["taskId"] == task_id and item["note"] == sources.NEEDS_SIGN_IN and item["answerable"]
    assert "enter the code" not in done.stderr and "sign in" not in done.stderr.lower()


async def test_a_remembered_task_that_needs_a_sign_in_offers_one_and_reads_the_task_again(
    remembered_vault, tmp_path, monkeypatch
):
    url = remembered_vault
    task_id, context_id, question = await vault_task(url)
    oauth._MEMORY.clear()
    remember(Remembered("me", url, task_id, context_id, "auth-required", question, 1.0))
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda address, *a, **k: opened.append(address) or True)
    me = AgentEntry("me", url, oauth=OAuthSettings(client_id="switchboard-cli", flow="authorizationCode"))
    app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=[me], steady=True)
    async with app.run_test(size=(120, 36)) as pilot:
        inbox = app.screen.inbox
        await until(lambda: [i.note for i in inbox.items] == [sources.NEEDS_SIGN_IN])
        pane = app.screen.query_one(InboxPane)
        await pilot.press("f5")
        await until(lambda: len(pane.shown) == 1)
        pane.focus_filter()
        await pilot.press("enter")
        await until(lambda: bool(pane.query("#prompt-sign-in")))
        await click(pilot, "#prompt-sign-in")  # signs in now, without answering the question
        errors = await sign_in_in_the_browser(app, opened)
        # Read again with the token: the task still waits (for nobody's answer yet), its own question shown.
        await until(lambda: [i.note for i in inbox.items] == [""], timeout=30)
        [item] = inbox.items
        assert item.task_id == task_id and item.state == "auth-required" and not errors, errors
        # The pane that offered the sign-in goes too (the inbox's own refresh may have read the task first).
        await until(lambda: not pane.query(PromptPane))


async def sign_in_in_the_browser(app, opened: list[str]) -> list[BaseException]:
    """Wait for the sign-in pane (its address the one link opened), play the person signing in at the provider, wait
    for the pane to close; what went wrong at the provider, if anything."""
    await until(lambda: isinstance(app.screen, SignInScreen), timeout=30)
    sign_in = app.screen
    assert isinstance(sign_in, SignInScreen) and opened == [sign_in.url]
    errors: list[BaseException] = []

    def person() -> None:
        try:
            authorize(sign_in.url)
        except BaseException as exc:
            errors.append(exc)

    threading.Thread(target=person, daemon=True).start()
    await until(lambda: not isinstance(app.screen, SignInScreen), timeout=60)
    return errors
