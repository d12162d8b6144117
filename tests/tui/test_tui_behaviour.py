"""TUI behaviour with scripted agents (tests/tui/scenes.py): what the person does, what goes out."""

from __future__ import annotations

import httpx
import pytest
from scenes import (
    CONTEXT,
    TASK,
    ScriptedLink,
    build_app,
    card,
    interviewer_events,
    settle,
    writer_events,
)
from textual.widgets import DataTable, Input
from tui_support import click, open_highlighted

from switchboard.a2a.model import (
    Artifact,
    ArtifactUpdate,
    Message,
    Role,
    StatusUpdate,
    Task,
    TaskState,
    TaskStatus,
    TextPart,
)
from switchboard.a2a.redact import REDACTED
from switchboard.config import load_settings
from switchboard.tui.widgets.composer import Composer, MessageArea
from switchboard.tui.widgets.conversation_view import ConversationView
from switchboard.tui.widgets.markdown_pages import LivePage
from switchboard.tui.widgets.prompt_pane import PromptPane
from switchboard.tui.widgets.transcript import UserMessage

SIZE = (120, 40)


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("SWITCHBOARD_HOME", str(tmp_path))
    return tmp_path


def status(state: TaskState, text: str) -> StatusUpdate:
    message = Message(message_id=f"m-{state.value}-{text}", role=Role.AGENT, parts=[TextPart(text=text)])
    return StatusUpdate(task_id=TASK, context_id=CONTEXT, status=TaskStatus(state=state, message=message))


def done(text: str) -> list:
    artifact = Artifact(artifact_id="summary", name="summary", parts=[TextPart(text=text)])
    return [
        ArtifactUpdate(task_id=TASK, context_id=CONTEXT, artifact=artifact, last_chunk=True),
        status(TaskState.COMPLETED, "done"),
    ]


async def talk(pilot, row: int, text: str) -> ConversationView:
    for _ in range(row):
        await pilot.press("down")
    view = await open_highlighted(pilot)
    await settle(pilot, 0.2)
    await pilot.press(*text, "enter")
    await settle(pilot, 0.5)
    return view


async def test_answering_the_prompt_pane_continues_the_same_task_and_context(home):
    link = ScriptedLink("interviewer", card("interviewer"), [interviewer_events(), done("Ada builds an agent")])
    app = build_app(home, links={"interviewer": link})
    async with app.run_test(size=SIZE) as pilot:
        view = await talk(pilot, 1, "interview me")
        assert view.waiting is TaskState.INPUT_REQUIRED
        pane = app.screen.query_one(PromptPane)
        assert app.focused is pane.query_one(Input)
        tab_label = app.screen.query_one("#tabs").get_tab(view.parent.id).label
        assert str(tab_label).startswith("✱")  # the tab is marked while the agent waits
        await pilot.press(*"Ada", "enter")
        await settle(pilot, 0.5)
        follow_up = link.sent[-1]
        assert (follow_up.task_id, follow_up.context_id, follow_up.text) == (TASK, CONTEXT, "Ada")
        assert view.conversation.last.view.state is TaskState.COMPLETED
        assert not app.screen.query(PromptPane)
        rendered = view.query(".artifact-text").last(LivePage)
        assert rendered.source == "Ada builds an agent"
        assert not str(app.screen.query_one("#tabs").get_tab(view.parent.id).label).startswith("✱")


def gatekeeper_asking_a_passcode() -> ScriptedLink:
    """A gatekeeper whose first turn stops at auth-required and whose second opens the vault."""
    auth = [
        Task(id=TASK, context_id=CONTEXT, status=TaskStatus(state=TaskState.SUBMITTED)),
        status(TaskState.AUTH_REQUIRED, "enter the passcode"),
    ]
    return ScriptedLink("gatekeeper", card("gatekeeper"), [auth, done("the vault is open")])


async def test_a_credential_is_masked_on_screen_and_redacted_on_the_wire(home):
    link = gatekeeper_asking_a_passcode()
    app = build_app(home, links={"gatekeeper": link})
    async with app.run_test(size=SIZE) as pilot:
        view = await talk(pilot, 2, "open the vault")
        field = app.screen.query_one(PromptPane).query_one(Input)
        assert field.password
        await pilot.press(*"sesame-passcode", "enter")
        await settle(pilot, 0.5)
        assert link.sent[-1].text == "sesame-passcode"  # it does go to the agent
        shown = [str(m.render()) for m in view.query(UserMessage)]
        assert not any("sesame-passcode" in text for text in shown)
        assert any("credential" in text for text in shown)
        assert app.tap.redactor.text("token=sesame-passcode") == f"token={REDACTED}"
        assert view.conversation.last.view.state is TaskState.COMPLETED


async def test_a_credential_typed_in_the_message_box_is_masked_and_redacted_too(home):
    # The person dismisses the masked prompt (esc: "answer later") and types the passcode in the message box.
    link = gatekeeper_asking_a_passcode()
    app = build_app(home, links={"gatekeeper": link})
    async with app.run_test(size=SIZE) as pilot:
        view = await talk(pilot, 2, "open the vault")
        await pilot.press("escape")  # the pane stays, the keyboard leaves it
        view.query_one(Composer).query_one(MessageArea).focus()
        await settle(pilot, 0.2)
        await pilot.press(*"sesame-passcode", "enter")
        await settle(pilot, 0.5)
        assert link.sent[-1].text == "sesame-passcode"  # it does go to the agent, to the waiting task
        assert link.sent[-1].task_id == TASK
        shown = [str(m.render()) for m in view.query(UserMessage)]
        assert not any("sesame-passcode" in text for text in shown)
        assert any("credential" in text for text in shown)
        assert view.conversation.turns[-1].secret
        assert app.tap.redactor.text("token=sesame-passcode") == f"token={REDACTED}"
        assert view.conversation.last.view.state is TaskState.COMPLETED


@pytest.mark.parametrize("size", [(130, 40), (80, 24), (60, 15)])
async def test_the_message_box_draws_a_credential_as_dots_while_the_task_waits_at_auth_required(home, size):
    # Typed in the message box after esc, the passcode was drawn in clear though the transcript masked it.
    link = gatekeeper_asking_a_passcode()
    app = build_app(home, links={"gatekeeper": link})
    async with app.run_test(size=size) as pilot:
        view = await talk(pilot, 2, "open the vault")
        await pilot.press("escape")
        area = view.query_one(Composer).query_one(MessageArea)
        area.focus()
        await settle(pilot, 0.2)
        assert "credential for gatekeeper" in area.placeholder
        await pilot.press(*"sesame-passcode")
        await settle(pilot, 0.2)
        drawn = "".join(area.render_line(y).text for y in range(area.size.height))
        assert "sesame" not in drawn and "•" * 6 in drawn
        await pilot.press("enter")
        await settle(pilot, 0.5)
        assert link.sent[-1].text == "sesame-passcode"
        await pilot.press(*"thanks")  # the task ended: what is typed now is an ordinary message
        await settle(pilot, 0.2)
        assert "thanks" in "".join(area.render_line(y).text for y in range(area.size.height))
        assert area.placeholder == "Message the agent…"


async def test_agent_markup_and_escape_sequences_are_shown_literally(home):
    hostile = "[bold red]not bold[/] \x1b]0;pwned\x07\x1b[31mred?\x1b[0m"
    events = [
        Task(id=TASK, context_id=CONTEXT, status=TaskStatus(state=TaskState.SUBMITTED)),
        status(TaskState.WORKING, hostile),
        *done(hostile),
    ]
    app = build_app(home, links={"writer": ScriptedLink("writer", card("writer"), [events])})
    async with app.run_test(size=SIZE) as pilot:
        view = await talk(pilot, 0, "hello")
        timeline = str(view.query_one(".timeline").render())
        assert "[bold red]not bold[/]" in timeline
        assert "\x1b" not in timeline and "pwned" not in timeline
        assert "\x1b" not in view.query(".artifact-text").last(LivePage).source


async def test_a_long_stream_renders_exactly_what_was_sent(home):
    events = writer_events()[:-2]  # every chunk, without the reconnect notices
    events.append(status(TaskState.COMPLETED, "done"))
    app = build_app(home, links={"writer": ScriptedLink("writer", card("writer"), [events])})
    async with app.run_test(size=SIZE) as pilot:
        view = await talk(pilot, 0, "a story")
        from scenes import STORY

        assert view.query(".artifact-text").last(LivePage).source == STORY
        assert view.conversation.last.view.artifacts["story"].text == STORY


async def test_the_chosen_theme_is_remembered(home):
    app = build_app(home)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.theme = "daylight"
        await settle(pilot)
    assert load_settings(home / "settings.yaml")[0].theme == "daylight"


async def test_bindings_can_be_remapped_from_the_settings_file(home):
    app = build_app(home)
    (home / "settings.yaml").write_text("theme: switchboard\nkeymap:\n  toggle_wire: f9\n")
    app.settings = load_settings(home / "settings.yaml")[0]
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        wire = app.screen.query_one("#wire")
        assert wire.has_class("-hidden")
        await pilot.press("f9")
        await settle(pilot)
        assert not wire.has_class("-hidden")


async def test_adding_and_removing_an_agent_saves_the_agents_file(home):
    card_json = {
        "name": "Weather Bot",
        "description": "Forecasts.",
        "version": "1",
        "supportedInterfaces": [
            {"url": "https://weather.example/", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
        ],
        "capabilities": {"streaming": True},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [],
    }
    http = httpx.AsyncClient(transport=httpx.MockTransport(lambda request: httpx.Response(200, json=card_json)))
    app = build_app(home)
    app.http = http
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        await click(pilot, "#url")
        await pilot.press(*"https://weather.example")
        await click(pilot, "#env")
        await pilot.press(*"WEATHER_KEY")
        await click(pilot, "#add")
        await settle(pilot, 0.5)
        saved = (home / "agents.yaml").read_text()
        assert "name: weather-bot" in saved and "apiKeyEnv: WEATHER_KEY" in saved
        table = app.screen.query_one(DataTable)
        assert "weather-bot" in [row.value for row in table.rows]
        table.move_cursor(row=list(table.rows).index(next(r for r in table.rows if r.value == "weather-bot")))
        await pilot.press("x")
        await settle(pilot)
        await click(pilot, "#yes")
        await settle(pilot)
        assert "weather-bot" not in (home / "agents.yaml").read_text()
        assert "writer" in (home / "agents.yaml").read_text()


async def test_a_read_only_box_that_was_masked_says_it_is_read_only_again():
    # A replayed task that waited at auth-required masked the box; unmasked, it said "Message the agent…" again.
    from textual.app import App

    class OneBox(App[None]):
        def compose(self):
            yield Composer([])

    app = OneBox()
    async with app.run_test(size=(80, 24)):
        composer = app.query_one(Composer)
        composer.make_read_only("a replay is read-only")
        composer.mask(True, "gatekeeper")
        assert "credential for gatekeeper" in composer.query_one(MessageArea).placeholder
        composer.mask(False, "gatekeeper")
        assert composer.query_one(MessageArea).placeholder == "a replay is read-only"
