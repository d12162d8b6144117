"""Every scenario with a known API key, bearer token and ${VAR} header secret: none of them appears in any
output or file.

The demo fleet runs here with long random credentials (the gatekeeper's API key, the tasks agent's bearer
token) and an extra agents-file entry whose header comes from ${VAR}. Each scenario runs for real — the
headless command line (card, send, task, --verbose, -o json, --stream, refusals), workflows (their journal
and `runs show`) and the TUI under Pilot (conversations, the masked auth answer, the wire view, the card
screen, screenshots, saved artifacts, settings and agents files) — and at the end every captured stdout and
stderr, the wire records and every file under the test's directory are searched for each secret, in the
forms it could leak in: as is, base64 (standard and URL-safe), URL-encoded, JSON-escaped, and a fragment.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import secrets
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest
import yaml
from textual.widgets import DataTable, OptionList

from switchboard.a2a.model import TaskState
from switchboard.agents import add_agent, load_agents, new_entry_raw
from switchboard.demo.base import DemoSettings
from switchboard.demo.fleet import BackgroundFleet, start_in_background
from switchboard.tui.app import SwitchboardApp
from switchboard.tui.downloads import downloads_dir
from switchboard.tui.exporting import exports_dir
from switchboard.tui.screens.export import ExportScreen
from switchboard.tui.widgets.conversation_view import ConversationView
from switchboard.tui.widgets.prompt_pane import PromptPane

REPO = Path(__file__).resolve().parents[2]
SIZE = (120, 40)
# The last test reads what the others gathered: the module runs in one test process (`make test`'s --dist loadgroup).
pytestmark = pytest.mark.xdist_group("secrets-everywhere")


def _secret(prefix: str) -> str:
    # '+', '/' and '=' make the URL-encoded and base64 forms differ from the value itself.
    return f"{prefix}+{secrets.token_urlsafe(24)}/{secrets.token_urlsafe(8)}="


KEY = _secret("sbkey")  # the gatekeeper's API key (SWITCHBOARD_DEMO_KEY)
TOKEN = _secret("sbtok")  # the tasks agent's bearer token (SWITCHBOARD_DEMO_TOKEN)
TEAM = _secret("sbhdr")  # a header value from ${SWITCHBOARD_TEAM_SECRET} in the agents file
WRONG = _secret("sbbad")  # a wrong key, refused by the gatekeeper: still a secret
SECRETS = {"api key": KEY, "bearer token": TOKEN, "header": TEAM, "wrong key": WRONG}
PASSCODE = "sesame"  # the gatekeeper's one-time passcode, answered in a masked prompt

WORKFLOW = """\
version: 1
name: secrets
description: a step per kind of credential
agents: [gatekeeper, tasks, team]
steps:
  - name: vault
    agent: gatekeeper
    task: open the vault
  - name: weather
    agent: tasks
    task: weather in Lisbon
  - name: hello
    agent: team
    dependsOn: [vault, weather]
    task: "hello after {{steps.vault.state}} and {{steps.weather.state}}"
"""


def forms(secret: str) -> set[str]:
    raw = secret.encode()
    middle = secret[len(secret) // 2 - 6 : len(secret) // 2 + 6]
    return {
        secret,
        base64.b64encode(raw).decode(),
        base64.urlsafe_b64encode(raw).decode(),
        base64.b64encode(raw).decode().rstrip("="),
        quote(secret, safe=""),
        quote_plus(secret),
        json.dumps(secret)[1:-1],
        middle,  # a truncated or wrapped display still shows a run of it
    }


def leaks(text: str) -> list[str]:
    return [f"{what} as {form!r}" for what, secret in SECRETS.items() for form in forms(secret) if form in text]


class Evidence:
    """Everything the scenarios printed, by scenario name."""

    def __init__(self) -> None:
        self.outputs: dict[str, str] = {}

    def add(self, name: str, text: str) -> None:
        self.outputs[name] = self.outputs.get(name, "") + text


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BackgroundFleet]:
    settings = DemoSettings(writer_pace_ms=1, api_key=KEY, token=TOKEN, research_seconds=2, quick_research_seconds=1)
    agents_file = tmp_path_factory.mktemp("secrets-fleet") / "fleet-agents.yaml"
    handle = start_in_background(first_port=0, settings=settings, agents_file=agents_file)
    yield handle
    handle.stop()


@pytest.fixture(scope="module")
def workspace(fleet: BackgroundFleet, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The test's directory: an agents file (the fleet's agents plus one with a ${VAR} header) and a workflow."""
    root = tmp_path_factory.mktemp("secrets")
    agents = yaml.safe_load(fleet.agents_file.read_text())["agents"]
    echo_url = next(a["url"] for a in agents if a["name"] == "echo")
    agents.append({"name": "team", "url": echo_url, "headers": {"X-Team-Token": "${SWITCHBOARD_TEAM_SECRET}"}})
    (root / "agents.yaml").write_text(yaml.safe_dump({"agents": agents}, sort_keys=False))
    (root / "secrets.yaml").write_text(WORKFLOW)
    return root


@pytest.fixture(scope="module")
def evidence() -> Evidence:
    return Evidence()


def cli(root: Path, evidence: Evidence, name: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    full = {
        **os.environ,
        "SWITCHBOARD_HOME": str(root / "home"),
        "PYTHONPATH": str(REPO / "src"),
        "SWITCHBOARD_DEMO_KEY": KEY,
        "SWITCHBOARD_DEMO_TOKEN": TOKEN,
        "SWITCHBOARD_TEAM_SECRET": TEAM,
        **env,
    }
    for drop in ("A2ACLI_API_KEY", "A2ACLI_BEARER", "A2ACLI_AGENT_CARD"):
        full.pop(drop, None)
    result = subprocess.run(
        [sys.executable, "-m", "switchboard", "--agents", str(root / "agents.yaml"), *args],
        capture_output=True,
        text=True,
        env=full,
        stdin=subprocess.DEVNULL,
        timeout=120,
        cwd=root,
    )
    evidence.add(name, f"{result.stdout}\n{result.stderr}\n")  # not argv: the literal-flag case holds secrets
    return result


def field_of(stdout: str, label: str) -> str:
    match = re.search(rf"^{label}: (\S+)", stdout, re.MULTILINE)
    assert match, stdout
    return match.group(1)


# --- headless ---------------------------------------------------------------------------------------------


def test_headless_card_send_task_and_refusals(workspace: Path, evidence: Evidence):
    def run(name: str, *args: str, code: int = 0, **env: str) -> subprocess.CompletedProcess[str]:
        result = cli(workspace, evidence, name, *args, **env)
        assert result.returncode == code, f"{name}: {result.stdout}\n{result.stderr}"
        return result

    run("card", "card", "get", "gatekeeper", "--verbose")
    run("card json", "card", "get", "gatekeeper", "-o", "json", "--validate")
    run("card team", "card", "get", "team", "--verbose", "-o", "json")

    asked = run("send", "send", "gatekeeper", "open the vault", "--verbose")
    assert "State: auth-required" in asked.stdout
    task_id, context_id = field_of(asked.stdout, "Task ID"), field_of(asked.stdout, "Context ID")
    done = run("answer", "send", "gatekeeper", PASSCODE, "--task-id", task_id, "--context-id", context_id, "--verbose",
               "--record", "answer.har")  # fmt: skip
    assert "State: completed" in done.stdout
    run("task get", "task", "get", "gatekeeper", task_id, "--verbose", "-o", "json", "--history", "10")
    run("task list", "task", "list", "gatekeeper", "-o", "json", "--verbose")

    streamed = run("stream", "send", "gatekeeper", "open the vault", "--stream", "-o", "json", "--verbose")
    assert "TASK_STATE_AUTH_REQUIRED" in streamed.stdout
    polled = run("json", "send", "gatekeeper", "open the vault", "-o", "json", "--debug")
    assert json.loads(polled.stdout)["task"]["status"]["state"] == "TASK_STATE_AUTH_REQUIRED"

    for name in ("send.har", "send.json", "send.md", "send.html"):  # the records, in the test's directory
        run("record", "send", "gatekeeper", "open the vault", "--stream", "--record", name)
    run("record team", "send", "team", "hello", "--record", "team.har")
    weather = run("tasks agent", "send", "tasks", "weather in Lisbon", "--verbose")
    assert "State: completed" in weather.stdout
    booking = run("tasks agent json", "send", "tasks", "book a table", "-o", "json", "--verbose")
    assert "input" in booking.stdout
    run("team", "send", "team", "hello", "--verbose", "--stream")

    refused = run("wrong key", "send", "gatekeeper", "open the vault", "-o", "json", "--verbose", code=4,
                  SWITCHBOARD_DEMO_KEY=WRONG)  # fmt: skip
    assert json.loads(refused.stdout)["error"]["code"] == "A2ACLI_ERR_AUTH_FAILED"
    refused = run("wrong token", "send", "tasks", "weather in Lisbon", "--verbose", code=4,
                  SWITCHBOARD_DEMO_TOKEN=WRONG)  # fmt: skip
    assert "401" in refused.stderr or "403" in refused.stderr
    run("literal flag", "send", "http://" + "127.0.0.1:1/", "hi", "--api-key", KEY, "--bearer", TOKEN, code=3)
    run("usage error", "send", "gatekeeper", "--task-id", code=2)


def test_headless_workflow_journal_and_runs_show(workspace: Path, evidence: Evidence):
    flow = str(workspace / "secrets.yaml")
    result = cli(workspace, evidence, "run", "run", flow, "--answer", f"vault={PASSCODE}", "--verbose", "--stream")
    assert result.returncode == 0, result.stdout + result.stderr
    result = cli(workspace, evidence, "run json", "run", flow, "--answer", f"vault={PASSCODE}", "-o", "json")
    assert result.returncode == 0, result.stderr
    run_id = json.loads(result.stdout)["run"]["runId"]
    assert json.loads(result.stdout)["run"]["status"] == "completed"
    # A run that stops at the auth question, then goes on with --resume.
    waiting = cli(workspace, evidence, "run waits", "run", flow, "-o", "json")
    assert json.loads(waiting.stdout)["run"]["status"] == "awaiting_input", waiting.stdout
    resumed_id = json.loads(waiting.stdout)["run"]["runId"]
    resumed = cli(workspace, evidence, "resume", "run", "--resume", resumed_id, "--answer", f"vault={PASSCODE}")
    assert resumed.returncode == 0, resumed.stderr
    failed = cli(workspace, evidence, "run refused", "run", flow, "--answer", f"vault={PASSCODE}",
                 SWITCHBOARD_DEMO_KEY=WRONG)  # fmt: skip
    assert "HTTP 401" in failed.stderr and "hello: skipped (vault failed)" in failed.stderr
    cli(workspace, evidence, "runs list", "runs", "list")
    for rid in (run_id, resumed_id):
        shown = cli(workspace, evidence, "runs show", "runs", "show", rid)
        assert shown.returncode == 0, shown.stderr
        cli(workspace, evidence, "runs show json", "runs", "show", rid, "-o", "json")
        for fmt in ("markdown", "json", "html"):
            exported = cli(workspace, evidence, "export", "export", rid, "--format", fmt)
            assert exported.returncode == 0 and rid in exported.stdout, exported.stderr
        cli(workspace, evidence, "export file", "export", rid, "--out", f"{rid}.md")
        assert (workspace / f"{rid}.md").is_file()
    journals = list((workspace / "home").rglob("*.jsonl"))
    assert len(journals) >= 4
    records = [json.loads(line) for p in journals for line in p.read_text().splitlines() if line.strip()]
    submitted = [r for r in records if r["type"] == "InputSubmitted" and r["step"] == "vault"]
    assert submitted and all(r.get("secret") is True and "answer" not in r for r in submitted)  # masked answer


# --- TUI --------------------------------------------------------------------------------------------------


async def until(predicate, timeout: float = 30.0) -> None:
    async with asyncio.timeout(timeout):
        while not predicate():
            await asyncio.sleep(0.05)


async def open_agent(pilot, name: str) -> ConversationView:
    await pilot.press("f1")  # back to the agents tab
    table = pilot.app.screen.query_one(DataTable)
    table.focus()
    before = len(pilot.app.screen.query(ConversationView))
    await until(lambda: name in [row.value for row in table.rows])
    table.move_cursor(row=[row.value for row in table.rows].index(name))
    await pilot.press("enter")
    await until(lambda: len(pilot.app.screen.query(ConversationView)) > before)
    view = pilot.app.screen.query(ConversationView).last()
    await until(lambda: view.conversation is not None)
    return view


async def say(pilot, view: ConversationView, text: str) -> None:
    view.query_one("#message").focus()
    await pilot.press(*text, "enter")
    await until(lambda: view.conversation.last is not None)


async def answer_prompt(pilot, view: ConversationView, text: str) -> None:
    await until(lambda: bool(view.query("PromptPane Input")))
    pane = view.query(PromptPane).last()
    field = pane.query_one("Input")
    await until(lambda: pilot.app.focused is field)
    await pilot.press(*text, "enter")


async def export_everything(pilot) -> None:
    """ctrl+o's every choice: the shown conversation as Markdown, JSON and HTML, and the wire as HAR."""
    for number in range(4):
        await pilot.press("ctrl+o")
        await until(lambda: isinstance(pilot.app.screen, ExportScreen))
        options = pilot.app.screen.query_one(OptionList)
        assert options.option_count == 4
        options.focus()
        options.highlighted = number
        await pilot.press("enter")
        await until(lambda: not isinstance(pilot.app.screen, ExportScreen))


async def drive_tui(app: SwitchboardApp, shots: Path, evidence: Evidence) -> None:
    async with app.run_test(size=SIZE) as pilot:
        table = pilot.app.screen.query_one(DataTable)
        await until(lambda: "gatekeeper" in [row.value for row in table.rows])
        table.move_cursor(row=[row.value for row in table.rows].index("gatekeeper"))
        await pilot.press("c")  # the card screen: security, raw JSON
        await pilot.pause(0.5)
        app.save_screenshot(filename="card.svg", path=str(shots))
        await pilot.press("escape")

        gate = await open_agent(pilot, "gatekeeper")
        await say(pilot, gate, "open the vault")
        await answer_prompt(pilot, gate, PASSCODE)
        await until(lambda: gate.conversation.last.view.state is TaskState.COMPLETED)
        assert gate.conversation.last.secret
        await pilot.press("ctrl+s")  # save the artifacts
        app.save_screenshot(filename="gatekeeper.svg", path=str(shots))
        await export_everything(pilot)

        tasks = await open_agent(pilot, "tasks")
        await say(pilot, tasks, "book a table for two")
        await answer_prompt(pilot, tasks, "8pm")
        await until(lambda: tasks.conversation.last.view.state is TaskState.COMPLETED)
        await pilot.press("ctrl+s")

        team = await open_agent(pilot, "team")
        await say(pilot, team, "hello")
        await until(lambda: not team.running and team.conversation.last.view.reply is not None)

        await pilot.press("f2")  # the wire view
        await pilot.pause(0.5)
        await export_everything(pilot)  # the team conversation (its ${VAR} header) and the wire since
        app.save_screenshot(filename="wire.svg", path=str(shots))
        evidence.add("tui export", app.export_screenshot())
        app.theme = "daylight"  # the settings file is written
        await pilot.pause(0.2)
        for record in app.tap.records:
            evidence.add("wire records", f"{record.url} {record.headers} {record.body}\n")


def test_tui_conversations_wire_view_screenshots_and_files(
    workspace: Path, fleet: BackgroundFleet, evidence: Evidence, monkeypatch: pytest.MonkeyPatch
):
    home = workspace / "tui-home"
    monkeypatch.setenv("SWITCHBOARD_HOME", str(home))
    monkeypatch.setenv("SWITCHBOARD_DEMO_KEY", KEY)
    monkeypatch.setenv("SWITCHBOARD_DEMO_TOKEN", TOKEN)
    monkeypatch.setenv("SWITCHBOARD_TEAM_SECRET", TEAM)
    agents_path = home / "agents.yaml"
    agents_path.parent.mkdir(parents=True)
    agents_path.write_text((workspace / "agents.yaml").read_text())
    shots = workspace / "screenshots"
    shots.mkdir()
    app = SwitchboardApp(agents_path, steady=True)
    asyncio.run(drive_tui(app, shots, evidence))
    # The agents file is written (an agent added from the UI): only variable names, the ${VAR} kept.
    add_agent(load_agents(agents_path), new_entry_raw("added", "http://127.0.0.1:1/", api_key_env="MY_KEY"))
    assert "${SWITCHBOARD_TEAM_SECRET}" in agents_path.read_text()
    assert sorted(p.name for p in shots.iterdir()) == ["card.svg", "gatekeeper.svg", "wire.svg"]
    saved = sorted(p.name for p in downloads_dir().iterdir())
    assert "vault-contents.md" in saved or any("vault" in name for name in saved), saved
    exported = sorted(p.suffix for p in exports_dir().iterdir() if p.is_file())
    assert exported == [".har", ".har", ".html", ".html", ".json", ".json", ".md", ".md"], exported
    assert list(home.rglob("settings.yaml"))


# --- the search ---------------------------------------------------------------------------------------------


def test_no_secret_in_any_output_or_file(workspace: Path, evidence: Evidence):
    """Last in this module: reads what the scenarios above printed and wrote."""
    assert {"send", "answer", "run", "runs show", "tui export", "wire records"} <= set(evidence.outputs)
    # The scenarios did carry the secrets: the wire records show where they went, masked.
    assert "[redacted]" in evidence.outputs["wire records"]
    for scenario, header in (("send", "X-API-Key"), ("tasks agent", "Authorization"), ("team", "X-Team-Token")):
        assert re.search(rf"{header}: (Bearer )?\[redacted\]", evidence.outputs[scenario]), scenario
    found = {name: leaks(text) for name, text in evidence.outputs.items()}
    files = [p for p in workspace.rglob("*") if p.is_file()]
    assert len(files) > 10
    for path in files:
        found[str(path.relative_to(workspace))] = leaks(path.read_bytes().decode("utf-8", "replace"))
    assert {where: what for where, what in found.items() if what} == {}
