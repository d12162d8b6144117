"""The TUI on the trust servers: the agents table marks a signed card ✓ (verified) or ✗ (unverifiable), the card
view says which and why, and an agent behind mutual TLS is checked and talked to with its own client certificate."""

from __future__ import annotations

import asyncio

from textual.widgets import DataTable, Static

from switchboard.tui.app import SwitchboardApp
from switchboard.tui.screens.card import CardScreen
from switchboard.tui.widgets.agents_pane import AgentsPane
from switchboard.tui.widgets.conversation_view import ConversationView


async def until(predicate, timeout: float = 30.0) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.05)


async def test_agents_table_and_card_view_report_the_signature(
    cards_server, mtls_server, signing_keys, pki, tmp_path, monkeypatch
):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    bundle, _, _ = pki
    key = signing_keys / "es256.pub.pem"
    path = tmp_path / "agents.yaml"
    path.write_text(
        "agents:\n"
        f"  - {{name: signed, url: {cards_server.url}es256/, cardKeys: {key}}}\n"
        f"  - {{name: altered, url: {cards_server.url}tampered/, cardKeys: {key}}}\n"
        f"  - {{name: plain, url: {cards_server.url}plain/}}\n"
        f"  - name: vault\n    url: {mtls_server.url}\n"
        f"    tls: {{cert: {bundle.client_cert}, key: {bundle.client_key}, ca: {bundle.ca}}}\n"
    )
    app = SwitchboardApp(path, steady=True)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(AgentsPane)
        await until(lambda: all(s.checked_at for s in pane.statuses.values()))
        assert pane.statuses["signed"].trust.status == "verified"
        assert pane.statuses["altered"].trust.status == "unverifiable"
        assert pane.statuses["plain"].trust.status == "unsigned"
        assert pane.statuses["vault"].reachable, pane.statuses["vault"].error
        table = app.screen.query_one(DataTable)
        names = {row: str(table.get_row(row)[1]) for row in table.rows}
        assert names["signed"].endswith("✓") and names["altered"].endswith("✗") and names["plain"] == "plain"
        table.move_cursor(row=list(table.rows).index("altered"))
        await pilot.pause()
        assert "card signature: unverifiable" in str(app.screen.query_one("#agent-summary", Static).render())
        await pilot.press("c")
        await until(lambda: isinstance(app.screen, CardScreen))
        overview = str(app.screen.query(".card-section").first().render())
        assert "Signature     unverifiable (the signature by key es-1 does not match the card" in overview
        await pilot.press("escape")
        await until(lambda: not isinstance(app.screen, CardScreen))
        # a conversation with the mutual-TLS agent: its link presents the certificate too
        table.move_cursor(row=list(table.rows).index("vault"))
        await pilot.press("enter")
        await until(lambda: bool(app.screen.query(ConversationView)))
        view = app.screen.query(ConversationView).last()
        await pilot.pause(0.2)
        await pilot.press(*"quick hello", "enter")
        await until(lambda: view.conversation is not None and view.conversation.last is not None)
        await until(lambda: view.conversation.last.view.reply is not None)
