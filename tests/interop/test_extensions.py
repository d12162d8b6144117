"""Extensions activated by the person reach the agent: the a2a-sdk 1.x server reads the header (A2A-Extensions at
1.0, X-A2A-Extensions at 0.3, gRPC metadata) into its request context, and its executor says what it read. The card
view lists the card's extensions, marking those activated for the agent; a URI that is not one is a usage error
where it is typed."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from cli_runner import run_cli_in_process

REPO = Path(__file__).resolve().parents[2]

from sdk13_server import EXTENSIONS_ASKED, TRACE_EXTENSION  # noqa: E402

KINDS = ["sdk13-v10", "sdk13-v03compat", "sdk13-rest", "sdk13-grpc"]
AUDIT = "https://example.com/ext/audit/v2"


@pytest.fixture
def cli(tmp_path):
    def run(*args: str) -> subprocess.CompletedProcess:
        env = {**os.environ, "SWITCHBOARD_HOME": str(tmp_path), "PYTHONPATH": str(REPO / "src")}
        return run_cli_in_process(list(args), env, timeout=60)

    return run


@pytest.mark.parametrize("kind", KINDS)
def test_extensions_from_the_flag_and_the_agents_file_reach_the_agent(cli, server_pool, kind, tmp_path):
    server = server_pool.get(kind)
    asked = cli("send", server.url, EXTENSIONS_ASKED)
    assert asked.returncode == 0, asked.stderr
    assert asked.stdout.strip().endswith("none")  # nothing activated: nothing sent
    flagged = cli("send", server.url, EXTENSIONS_ASKED, "--extension", TRACE_EXTENSION, "--extension", AUDIT)
    assert flagged.returncode == 0, flagged.stderr
    assert flagged.stdout.strip().endswith(", ".join(sorted([TRACE_EXTENSION, AUDIT])))
    agents = tmp_path / "agents.yaml"
    agents.write_text(f"agents:\n  - name: ref\n    url: {server.url}\n    extensions: [{TRACE_EXTENSION}]\n")
    filed = cli("--agents", str(agents), "send", "ref", EXTENSIONS_ASKED)
    assert filed.returncode == 0, filed.stderr
    assert filed.stdout.strip().endswith(TRACE_EXTENSION)


def test_the_card_lists_its_extensions_and_a_bad_uri_is_a_usage_error(cli, server_pool, tmp_path):
    server = server_pool.get("sdk13-v10")
    card = cli("card", "get", server.url)
    assert f"Extension: {TRACE_EXTENSION}\n" in card.stdout  # not activated, not required: no mark
    activated = cli("card", "get", server.url, "--extension", TRACE_EXTENSION)
    assert f"Extension: {TRACE_EXTENSION} (activated)\n" in activated.stdout
    bad = cli("send", server.url, "hi", "--extension", "not a uri")
    assert bad.returncode == 2 and "is not an extension URI" in bad.stderr
    agents = tmp_path / "agents.yaml"
    agents.write_text(f"agents:\n  - name: ref\n    url: {server.url}\n    extensions: [has space]\n")
    filed = cli("--agents", str(agents), "send", "ref", "hi")
    assert filed.returncode == 2 and "extensions" in filed.stderr and "line 4" in filed.stderr


async def test_the_card_view_marks_the_extensions_activated_for_the_agent(server_pool, tmp_path, monkeypatch):
    """The TUI's card view (Pilot, against the real card): `extensions:` of the agents file activates one."""
    from textual.widgets import DataTable

    from switchboard.agents import AgentEntry
    from switchboard.tui.app import SwitchboardApp
    from switchboard.tui.screens.card import CardScreen

    server = server_pool.get("sdk13-v10")
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    entries = [
        AgentEntry(name="on", url=server.url, extensions=[TRACE_EXTENSION]),
        AgentEntry(name="off", url=server.url),
    ]
    app = SwitchboardApp(tmp_path / "agents.yaml", extra_agents=entries, steady=True)
    async with app.run_test(size=(120, 40)) as pilot:
        shown = {}
        for name in ("on", "off"):
            table = app.screen.query_one(DataTable)
            await until(lambda name=name, table=table: name in [row.value for row in table.rows])
            table.move_cursor(row=[row.value for row in table.rows].index(name))
            table.focus()
            await until(lambda name=name: app.screen.query_one("AgentsPane").statuses[name].card is not None)
            await pilot.press("c")
            await until(lambda: isinstance(app.screen, CardScreen))
            shown[name] = str(app.screen._overview(app.screen.status.card))
            await pilot.press("escape")
            await until(lambda: not isinstance(app.screen, CardScreen))
    assert f"{TRACE_EXTENSION} (activated)" in shown["on"]
    assert TRACE_EXTENSION in shown["off"] and "(activated)" not in shown["off"]


async def until(predicate, timeout: float = 30) -> None:
    import asyncio

    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.05)
