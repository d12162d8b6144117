"""Deterministic scenes of the TUI, for `make screenshots` and the snapshot tests.

The agents and their answers are scripted here (fixed ids, timestamps and addresses, no network), so a
picture changes only when the UI does.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from switchboard.a2a.cards import parse_card
from switchboard.a2a.follow import Notice, TurnEvent
from switchboard.a2a.model import (
    AgentCard,
    Artifact,
    ArtifactUpdate,
    DataPart,
    Message,
    Part,
    Role,
    StatusUpdate,
    Task,
    TaskState,
    TaskStatus,
    TextPart,
)
from switchboard.a2a.tap import WireRecord
from switchboard.agent_status import AgentStatus
from switchboard.agents import AgentEntry
from switchboard.conversation import Conversation
from switchboard.tui.app import SwitchboardApp

TASK, CONTEXT = "7f3c9a1e-5b2d-4e8f-9a61-0c4d2e7b8f15", "c0ffee00-1d2e-4f3a-8b9c-aa55aa55aa55"


def _interfaces(url: str) -> list[dict]:
    return [
        {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
        {"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "0.3"},
    ]


WRITER_CARD = {
    "name": "Writer",
    "description": "Writes markdown documents and streams them as it goes.",
    "version": "1.2.0",
    "provider": {"organization": "a2a-switchboard demo", "url": "https://example.com"},
    "supportedInterfaces": _interfaces("https://writer.agents.example/"),
    "capabilities": {"streaming": True},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/markdown"],
    "skills": [
        {
            "id": "write",
            "name": "Write a document",
            "description": "A short markdown piece on any topic, streamed in many chunks.",
            "tags": ["writing", "streaming"],
            "examples": ["a short story about tides", "release notes for a tiny CLI"],
        }
    ],
}
INTERVIEWER_CARD = {
    "name": "Interviewer",
    "description": "Asks you two questions, then sums up your answers.",
    "version": "1.0.0",
    "provider": {"organization": "a2a-switchboard demo"},
    "supportedInterfaces": _interfaces("https://interviewer.agents.example/"),
    "capabilities": {"streaming": True},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain", "application/json"],
    "skills": [
        {
            "id": "interview",
            "name": "Interview",
            "description": "A two-question interview: input-required twice, then a summary.",
            "tags": ["multi-turn"],
            "examples": ["interview me"],
        }
    ],
}
GATEKEEPER_CARD = {
    "name": "Gatekeeper",
    "description": "Guards a vault: needs an API key, and a passcode mid-task.",
    "version": "0.9.0",
    "supportedInterfaces": _interfaces("https://gatekeeper.agents.example/"),
    "capabilities": {"streaming": True},
    "securitySchemes": {"apiKey": {"apiKeySecurityScheme": {"location": "header", "name": "X-API-Key"}}},
    "securityRequirements": [{"schemes": {"apiKey": {"list": []}}}],
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [
        {"id": "open", "name": "Open the vault", "description": "Auth round trip.", "examples": ["open the vault"]}
    ],
}
LEGACY_CARD = {
    "name": "Legacy converter",
    "description": "A unit converter that still speaks A2A 0.3, as most deployed agents do.",
    "url": "https://legacy.agents.example/",
    "preferredTransport": "JSONRPC",
    "protocolVersion": "0.3.0",
    "version": "0.3.1",
    "capabilities": {"streaming": True},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [
        {
            "id": "convert",
            "name": "Convert units",
            "description": "Converts lengths, weights and temperatures.",
            "tags": ["legacy"],
            "examples": ["12 miles in km"],
        }
    ],
}

AGENTS_YAML = """\
agents:
  - name: writer
    url: https://writer.agents.example/
  - name: interviewer
    url: https://interviewer.agents.example/
  - name: gatekeeper
    url: https://gatekeeper.agents.example/
    apiKeyEnv: SWITCHBOARD_SCENE_KEY
  - name: legacy
    url: https://legacy.agents.example/
  - name: archivist
    url: https://archivist.agents.example/
"""
CARDS = {"writer": WRITER_CARD, "interviewer": INTERVIEWER_CARD, "gatekeeper": GATEKEEPER_CARD, "legacy": LEGACY_CARD}

STORY = (
    "# Tides\n\nThe sea keeps an appointment twice a day. It arrives without hurry, fills the harbour to the "
    "brim of the old stone steps, and then — as if remembering something in another country — it leaves.\n\n"
    "## What the moon asks\n\n- that the water lean toward it\n- that the shore forgive the water\n- that "
    "nobody count the waves\n\n## Low water\n\nAt low water the harbour shows its bones: chains, a bicycle, "
    "a boat named *Persistence* lying on her side in the mud, waiting"
)


def card(name: str) -> AgentCard:
    return parse_card(CARDS[name])


async def scripted_check(entry: AgentEntry) -> AgentStatus:
    """The canned answer for each scene agent; `archivist` is down."""
    from switchboard.a2a.auth.trust.card_signature import CardTrust
    from switchboard.a2a.cards import lint_card
    from switchboard.a2a.errors import UnreachableError

    status = AgentStatus(entry, checked_at=1_700_000_000.0)
    if entry.name in CARDS:
        status.card = card(entry.name)
        status.card_url = entry.url + ".well-known/agent-card.json"
        status.lint = lint_card(status.card, status.card_url)
        status.trust = CardTrust("unsigned")
    else:
        status.error = UnreachableError(
            f"cannot connect to {entry.url}.well-known/agent-card.json: connection refused",
            hint="Check that the agent is running and the URL (host, port, http/https) is right.",
        )
    return status


def _status(state: TaskState, text: str | None, second: int, data=None) -> StatusUpdate:
    message = None
    if text or data is not None:
        parts: list[Part] = [TextPart(text=text)] if text else []
        if data is not None:
            parts.append(DataPart(data=data))
        message = Message(message_id=f"m-{second}", role=Role.AGENT, parts=parts, task_id=TASK, context_id=CONTEXT)
    stamp = f"2026-11-21T09:41:{second:02d}.000000Z"
    return StatusUpdate(
        task_id=TASK, context_id=CONTEXT, status=TaskStatus(state=state, message=message, timestamp=stamp)
    )


def writer_events(upto: int | None = None) -> list[TurnEvent]:
    """The writer mid-stream: the story chunked at odd places, `upto` chunks of it sent."""
    chunks = [STORY[i : i + 37] for i in range(0, len(STORY), 37)]
    shown = chunks[: upto if upto is not None else len(chunks)]
    events: list[TurnEvent] = [
        Task(id=TASK, context_id=CONTEXT, status=TaskStatus(state=TaskState.SUBMITTED)),
        _status(TaskState.WORKING, "outlining", 1),
        _status(TaskState.WORKING, "drafting section 2/3", 2),
    ]
    for index, text in enumerate(shown):
        events.append(
            ArtifactUpdate(
                task_id=TASK,
                context_id=CONTEXT,
                artifact=Artifact(artifact_id="story", name="tides.md", parts=[TextPart(text=text)]),
                append=index > 0 or None,
            )
        )
    events.append(Notice("the stream broke (connection reset); reading the task", "warning"))
    events.append(Notice("task is still working; re-subscribing (attempt 1)"))
    return events


def interviewer_events() -> list[TurnEvent]:
    return [
        Task(id=TASK, context_id=CONTEXT, status=TaskStatus(state=TaskState.SUBMITTED)),
        _status(TaskState.WORKING, "reading your request", 3),
        interviewer_question(),
    ]


def interviewer_question() -> StatusUpdate:
    return _status(
        TaskState.INPUT_REQUIRED,
        "What should I call you, and what are you hoping to build this quarter?",
        4,
        data={"choices": ["a CLI", "an agent", "a workflow"]},
    )


@dataclass
class ScriptedLink:
    """An AgentLink whose turns are scripted: each send plays the next list of events."""

    name: str
    scripted_card: AgentCard
    turns: list[list[TurnEvent]]
    hold: bool = False  # stay mid-stream after the last event, as a slow agent would
    sent: list[Message] = field(default_factory=list)
    played: int = 0  # turns whose events were all handed over
    protocol_label: str = "1.0"
    takes_files: bool = True

    @property
    def card(self) -> AgentCard:
        return self.scripted_card

    async def follow(self, message: Message, policy=None) -> AsyncIterator[TurnEvent]:
        self.sent.append(message)
        for event in self.turns.pop(0) if self.turns else []:
            yield event
        self.played += 1
        if self.hold:
            await asyncio.Event().wait()

    async def resume(self, task_id: str, policy=None) -> AsyncIterator[TurnEvent]:
        return
        yield

    async def cancel(self, task_id: str) -> Task:
        return Task(id=task_id, context_id=CONTEXT, status=TaskStatus(state=TaskState.CANCELED))

    async def aclose(self) -> None:
        return None


def wire_records() -> list[WireRecord]:
    """A short exchange with fixed timings, as the tap would record it (already redacted)."""
    request = (
        '{"jsonrpc":"2.0","id":1,"method":"SendStreamingMessage","params":{"message":{"messageId":"m-1",'
        '"role":"ROLE_USER","parts":[{"text":"a short story about tides"}]}}}'
    )
    frame = (
        '{"result": {"artifactUpdate": {"taskId": "' + TASK + '", "artifact": {"artifactId": "story", '
        '"parts": [{"text": "# Tides\\n\\nThe sea keeps an appointm"}]}}}, "id": 1, "jsonrpc": "2.0"}'
    )
    return [
        WireRecord(1, "request", 0.012, "GET", "https://writer.agents.example/.well-known/agent-card.json"),
        WireRecord(1, "response", 0.031, status=200, headers={"content-type": "application/json"}, elapsed_ms=19),
        WireRecord(
            2,
            "request",
            1.204,
            "POST",
            "https://writer.agents.example/",
            headers={"A2A-Version": "1.0", "X-API-Key": "[redacted]", "Accept": "text/event-stream"},
            body=request,
        ),
        WireRecord(2, "response", 1.221, status=200, headers={"content-type": "text/event-stream"}, elapsed_ms=17),
        WireRecord(2, "sse", 1.498, body=frame, elapsed_ms=294),
        WireRecord(2, "error", 2.310, body="ReadError: connection reset by peer", elapsed_ms=1106),
    ]


Scene = Callable[[object], Awaitable[None]]
SCENE_CLOCK = 1_763_717_042.0  # epoch seconds the scenes' app lives at


def build_app(home: Path, *, theme: str = "switchboard", links: dict | None = None) -> SwitchboardApp:
    """An app on the scene agents, in `home` (its SWITCHBOARD_HOME), with scripted links."""
    import os

    os.environ["SWITCHBOARD_HOME"] = str(home)
    agents = home / "agents.yaml"
    agents.parent.mkdir(parents=True, exist_ok=True)
    agents.write_text(AGENTS_YAML)
    settings = home / "settings.yaml"
    settings.write_text(f"theme: {theme}\n")
    links = links or {}

    async def opener(entry: AgentEntry):
        if entry.name not in links:
            raise RuntimeError(f"no scripted link for {entry.name}")
        return links[entry.name]

    return SwitchboardApp(
        agents,
        settings_path=settings,
        checker=scripted_check,
        link_opener=opener,
        steady=True,
        subtitle="agents.yaml",
        clock=lambda: SCENE_CLOCK,  # the inbox's "waited" is the same in every picture
    )


async def settle(pilot, seconds: float = 0.3) -> None:
    """Pause, then wait until the screen stops changing: on a loaded machine a scroll asked for after a refresh
    (a prompt pane bringing its field into view) can land later than any fixed pause."""
    await pilot.pause(seconds)
    await pilot.wait_for_scheduled_animations()
    previous = None
    for _ in range(100):
        frame = pilot.app.export_screenshot()
        if frame == previous:
            return
        previous = frame
        await pilot.pause(0.1)
        await pilot.wait_for_scheduled_animations()


def conversation_of(app) -> Conversation | None:
    from switchboard.tui.widgets.conversation_view import ConversationView

    views = list(app.screen.query(ConversationView))
    return views[-1].conversation if views else None


# --- the scenes: each names the scripted links it needs and the keys that set it up -----------------


async def _until(pilot, ready, timeout: float = 15.0) -> None:
    """Pause until `ready()` (a busy machine takes longer to open a tab or draw a reply); at most `timeout` s."""
    for _ in range(int(timeout / 0.05)):
        if ready():
            return
        await pilot.pause(0.05)


def _in_conversation(app) -> bool:
    from switchboard.tui.widgets.conversation_view import ConversationView

    focused = app.focused
    return focused is not None and any(isinstance(node, ConversationView) for node in focused.ancestors)


async def _talk(pilot, row: int, text: str) -> None:
    for _ in range(row):
        await pilot.press("down")
    await pilot.press("enter")
    await _until(pilot, lambda: _in_conversation(pilot.app))  # keys typed before the tab is open go elsewhere
    await settle(pilot, 0.2)
    await pilot.press(*text)
    await pilot.press("enter")
    await _until(pilot, lambda: _answered(pilot.app))
    await settle(pilot, 0.6)


def _answered(app) -> bool:
    """The turn just sent has heard all the agent has to say, and it is on screen: a snapshot taken then is the
    same on a loaded machine as on a quiet one."""
    from switchboard.tui.widgets.conversation_view import ConversationView

    views = list(app.screen.query(ConversationView))
    conversation = views[-1].conversation if views else None
    if conversation is None or conversation.last is None or conversation.last.view.state is None:
        return False
    link = conversation.link
    played = getattr(link, "played", None)
    all_heard = played is None or played >= len(getattr(link, "sent", []))
    return all_heard and views[-1]._throttle.drawn


async def agents_scene(pilot) -> None:
    await settle(pilot)


async def card_scene(pilot) -> None:
    await settle(pilot)
    await pilot.press("c")
    await settle(pilot)


async def stream_scene(pilot) -> None:
    await settle(pilot)
    await _talk(pilot, 0, "a short story about tides")


async def prompt_scene(pilot) -> None:
    await settle(pilot)
    await _talk(pilot, 1, "interview me")


async def wire_scene(pilot) -> None:
    for record in wire_records():  # through the tap's listeners, as a real exchange reaches the wire view
        pilot.app.tap.add(record)
    await stream_scene(pilot)
    await pilot.press("f2")
    await settle(pilot)


def scene_links() -> dict[str, ScriptedLink]:
    from form_scenes import form_links  # the booking agent: opened by its scene, not in the agents table

    return {
        "writer": ScriptedLink("writer", card("writer"), [writer_events(upto=14)], hold=True),
        "interviewer": ScriptedLink("interviewer", card("interviewer"), [interviewer_events()]),
        **form_links(),
    }


async def inbox_scene(pilot) -> None:
    """The interviewer asks in a tab of its own; the inbox lists it, its question open under the list."""
    await prompt_scene(pilot)
    await pilot.press("f5")
    await _until(pilot, lambda: bool(pilot.app.screen.inbox.items))
    await settle(pilot, 0.3)
    await pilot.press("enter")
    await _until(
        pilot, lambda: any(pilot.app.focused is f for f in pilot.app.screen.query("InboxPane PromptPane Input"))
    )
    await settle(pilot, 0.3)


SCENES: dict[str, Scene] = {
    "agents": agents_scene,
    "card": card_scene,
    "conversation": stream_scene,
    "prompt": prompt_scene,
    "wire": wire_scene,
    "inbox": inbox_scene,
}
THEME_SCENE = prompt_scene  # shows the state colours, a question and an artifact-free transcript
SIZE = (120, 36)


# --- a workflow run, as its journal would rebuild it (fixed times, ids) ----------------------------


def run_record():
    from switchboard.workflow.runs import RunRecord
    from switchboard.workflow.state import StepState

    t0 = 1_763_717_000.0

    def step(name, agent, status, start, took, deps=(), events=()):
        state = StepState(name, agent=agent, status=status, depends_on=list(deps))
        state.started_at = None if start is None else t0 + start
        state.ended_at = None if took is None else t0 + start + took
        state.correlation_id = f"20261121T094100-5eed01:delegate:{name}"
        for event in events:
            state.view.apply(event)
        state.task_id = state.view.task_id
        return state

    research = [*writer_events(upto=6)[:-2], _status(TaskState.COMPLETED, "done", 9)]
    steps = {
        "research-web": step("research-web", "researcher", "completed", 0.0, 4.2, events=research),
        "research-archive": step("research-archive", "legacy", "completed", 0.0, 1.3),
        "interview": step("interview", "interviewer", "waiting", 0.1, 3.7, events=interviewer_events()),
        "combine": step(
            "combine", "writer", "pending", None, None, deps=["research-web", "research-archive", "interview"]
        ),
        "publish": step("publish", None, "pending", None, None, deps=["combine"]),
    }
    steps["publish"].type = "shell"
    return RunRecord(
        run_id="20261121T094100-5eed01", workflow="briefing", path="examples/workflows/briefing.yaml",
        status="awaiting_input", started_at=t0, ended_at=None, steps_total=5, steps_completed=2,
        waiting=["interview"], steps=steps,
    )  # fmt: skip


async def run_scene(pilot) -> None:
    from types import SimpleNamespace

    from switchboard.tui.widgets.run_view import RunView
    from switchboard.workflow.state import AskRequest

    await settle(pilot)
    record = run_record()
    view = RunView("briefing", record=record)
    await pilot.app.screen._add_run(view)
    # Shown as the live run it was when its journal was written (the run view's own state, frozen).
    # The view reads only these three of a live run: a stand-in, not a Run.
    view.run = SimpleNamespace(run_id=record.run_id, status="running", steps=record.steps)  # type: ignore[assignment]
    await settle(pilot)
    asked = interviewer_question().status.message
    assert asked is not None
    question = asked.parts
    request = AskRequest("interview", TaskState.INPUT_REQUIRED, question, TASK, CONTEXT, "interview", "interviewer")
    pilot.app.run_worker(view.ask(request))
    # The prompt pane mounted and its field focused (a loaded machine takes longer than any fixed pause), then laid out.
    await _until(pilot, lambda: any(pilot.app.focused is field for field in view.query("PromptPane Input")))
    # The inbox's tab counts the question too: its label, wider, lays the tab bar out again. The pane brings its
    # field into view once that is done, as it would after any other change of the layout.
    await _until(pilot, lambda: bool(pilot.app.screen.inbox.items))
    await settle(pilot, 0.3)
    for pane in view.query("PromptPane"):
        pane.take_keyboard()
    await settle(pilot, 0.3)


SCENES["run"] = run_scene


async def _form_scene(pilot) -> None:
    from form_scenes import form_scene  # (form_scenes imports this module)

    await form_scene(pilot)


SCENES["form"] = _form_scene
