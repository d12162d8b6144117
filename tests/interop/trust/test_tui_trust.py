"""The TUI on the trust servers: the agents table marks a signed card ✓ (verified) or ✗ (unverifiable), the card
view says which and why, and an agent behind mutual TLS is checked and talked to with its own client certificate."""

from __future__ import annotations

from textual.widgets import DataTable, Static
from tui_support import launch_workflow, open_highlighted, talk, until

from switchboard.tui.app import SwitchboardApp
from switchboard.tui.screens.card import CardScreen
from switchboard.tui.widgets.agents_pane import AgentsPane


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
        view = await open_highlighted(pilot)
        await pilot.pause(0.2)
        await pilot.press(*"quick hello", "enter")
        await until(lambda: view.conversation is not None and view.conversation.last is not None)
        await until(lambda: view.conversation.last.view.reply is not None)


TRUSTED = """\
version: 1
name: trusted
steps:
  - name: basic
    agent: gate
    task: quick hello
  - name: mtls
    agent: vault
    task: quick hello
outputs:
  both: "{{steps.basic.output}} / {{steps.mtls.output}}"
"""


async def test_basic_and_mtls_agents_in_the_table_a_conversation_and_a_workflow_run(
    cards_server, mtls_server, pki, tmp_path, monkeypatch
):
    """HTTP Basic and mutual TLS in the TUI: the Auth column names each, a conversation behind Basic completes, and
    a run launched from the Workflows tab with a step behind each completes."""
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    monkeypatch.setenv("GATE_PW", "basic-secret-1234")  # what the trust server's /basic/ agent checks
    bundle, _, _ = pki
    path = tmp_path / "agents.yaml"
    path.write_text(
        "agents:\n"
        f"  - name: gate\n    url: {cards_server.url}basic/\n    auth: {{scheme: basic, user: ada, env: GATE_PW}}\n"
        f"  - name: vault\n    url: {mtls_server.url}\n"
        f"    tls: {{cert: {bundle.client_cert}, key: {bundle.client_key}, ca: {bundle.ca}}}\n"
    )
    (tmp_path / "config" / "workflows").mkdir(parents=True)
    (tmp_path / "config" / "workflows" / "trusted.yaml").write_text(TRUSTED)
    app = SwitchboardApp(path, steady=True)
    async with app.run_test(size=(120, 40)) as pilot:
        pane = app.screen.query_one(AgentsPane)
        await until(lambda: all(s.checked_at for s in pane.statuses.values()))
        table = app.screen.query_one(DataTable)
        auth = {row: str(table.get_row(row)[4]) for row in table.rows}
        assert auth == {"gate": "basic", "vault": "mtls"}, auth
        view = await talk(pilot, "gate", "quick hello")
        await until(lambda: view.conversation.last is not None and view.conversation.last.view.reply is not None)

        run = await launch_workflow(pilot, "trusted.yaml")
        await until(lambda: run.status in ("completed", "failed"))
        assert run.status == "completed", {name: (s.status, s.error) for name, s in run.steps.items()}
        assert run.outputs["both"] == "quick reply to: quick hello / quick reply to: quick hello", run.outputs
